"""Markdown and plain text: decode strictly as UTF-8 and keep the text as written."""

from __future__ import annotations

import re
from pathlib import Path

from civicsetu.errors import SourceError
from civicsetu.ingest.readers.base import ExtractedText, normalise_newlines

# The shared corpus marks PDF page breaks with ``## Page N`` headings; keep them as pages.
_PAGE_HEADING = re.compile(r"^#{1,3}[ \t]+Page[ \t]+(?P<n>\d{1,4})[ \t]*$", re.MULTILINE)


def read_text(path: Path, raw: bytes) -> ExtractedText:
    if b"\x00" in raw[:4096]:
        raise SourceError(f"{path}: looks binary, not text; is it the right file?")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{path}: not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8 "
            "(e.g. `iconv -f WINDOWS-1252 -t UTF-8 in.txt > out.txt`)"
        ) from exc
    text = normalise_newlines(text)
    if not text.strip():
        raise SourceError(f"{path}: holds only white space; nothing to ingest")
    pages = tuple(m.start() for m in _PAGE_HEADING.finditer(text))
    fmt = "markdown" if path.suffix.lower() in {".md", ".markdown"} else "text"
    return ExtractedText(text, fmt, page_starts=pages)
