"""Readers turn a source file into ``ExtractedText``; one module per format.

``read_source`` picks the reader from the file name, checks the bytes agree with it
(a ``.pdf`` that is not a PDF gets a clear message, not a parser traceback) and applies
the size limit before anything is read into memory. The limits against hostile files
(``limits.py``) are checked while streaming, before a parser sees the bytes.
"""

from __future__ import annotations

from pathlib import Path

from civicsetu.errors import SourceError
from civicsetu.ingest.readers.base import ExtractedText, page_at
from civicsetu.ingest.readers.limits import ReadLimits

__all__ = ["SUFFIXES", "ExtractedText", "ReadLimits", "page_at", "read_source"]

SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text",
            ".pdf": "pdf", ".html": "html", ".htm": "html", ".xhtml": "html",
            ".docx": "docx"}
DEFAULT_MAX_BYTES = 200 * 2**20


def read_source(path: Path, *, max_pages: int | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES,
                limits: ReadLimits | None = None) -> ExtractedText:
    """Read ``path`` with the reader for its type, or raise a ``SourceError`` that says
    what is wrong with the file and what to do about it."""
    if not path.exists():
        raise SourceError(f"{path}: no such file; check the path")
    if path.is_dir():
        raise SourceError(f"{path}: is a folder; pass the files inside it (or a glob)")
    suffix = path.suffix.lower()
    kind = SUFFIXES.get(suffix)
    if kind is None:
        known = ", ".join(sorted(SUFFIXES))
        raise SourceError(f"{path}: unknown file type {suffix or '(none)'}; CivicSetu reads "
                          f"{known}")
    size = path.stat().st_size
    if size == 0:
        raise SourceError(f"{path}: the file is empty (0 bytes); nothing to ingest")
    if size > max_bytes:
        raise SourceError(f"{path}: {size / 2**20:.0f} MiB is over the {max_bytes // 2**20} "
                          "MiB limit; split the file or raise CIVICSETU_MAX_SOURCE_MB")
    limits = limits or ReadLimits()
    deadline = limits.deadline(path)
    with path.open("rb") as fh:
        head = fh.read(1024)
    if kind == "pdf":
        if b"%PDF-" not in head:
            raise SourceError(f"{path}: named .pdf but is not a PDF (no %PDF header); "
                              "re-download it or check the file")
        from civicsetu.ingest.readers.pdf import read_pdf

        return read_pdf(path, max_pages, limits, deadline)
    if kind == "docx":
        if not head.startswith(b"PK"):
            raise SourceError(f"{path}: named .docx but is not a Word .docx file; if it is an "
                              "old .doc or password-protected, re-save it as .docx")
        from civicsetu.ingest.readers.docx import read_docx

        return read_docx(path, limits, deadline)
    raw = path.read_bytes()
    if kind == "html":
        from civicsetu.ingest.readers.html import read_html

        return read_html(path, raw, limits, deadline)
    from civicsetu.ingest.readers.text import read_text

    return read_text(path, raw)
