"""Limits that keep a hostile source file from exhausting memory or time.

Each limit is checked while the file is streamed, before the parser that would grow
memory sees it: a ``.docx`` (a ZIP) is checked entry by entry while it is inflated in
small blocks (entry count, declared and actual inflated size, compression ratio, and any
DOCTYPE or ENTITY declaration, which is how billion-laughs XML expands); HTML nesting depth
is measured without recursion; PDF page count is read before any page is; and a deadline
per file is checked between pages, paragraphs and HTML nodes. A refused file raises a
``SourceError`` naming the file, the limit and the setting that raises it.
"""

from __future__ import annotations

import re
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from civicsetu.errors import SourceError

_BLOCK = 1 << 16
# XML declarations that let a document define entities: refused in every part of a ZIP.
_DECLARATION = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_KEEP = 32  # bytes carried over between blocks so a declaration split across them is seen
# Small entries compress well without being bombs; the ratio only applies above this.
RATIO_FLOOR_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The per-file limits; defaults match ``Settings`` (see ``config.py``)."""

    max_unpacked_bytes: int = 64 * 2**20
    max_zip_entries: int = 2000
    max_zip_ratio: float = 200.0
    max_html_depth: int = 256
    max_pdf_pages: int = 3000
    max_read_seconds: float = 120.0

    def deadline(self, path: Path) -> Deadline:
        return Deadline(path, self.max_read_seconds)


@dataclass(slots=True)
class Deadline:
    """The time a reader may spend on one file; ``check`` raises once it has passed."""

    path: Path
    seconds: float
    start: float = field(default_factory=time.monotonic)

    def check(self) -> None:
        """Raise a ``SourceError`` if reading the file has taken longer than allowed."""
        if time.monotonic() - self.start > self.seconds:
            raise SourceError(f"{self.path}: reading took longer than the "
                              f"{self.seconds:g} s limit per file; refused (raise "
                              "CIVICSETU_MAX_READ_SECONDS if the file is genuine)")


def check_zip(path: Path, limits: ReadLimits, deadline: Deadline | None = None) -> None:
    """Inflate every entry of the ZIP at ``path`` in blocks, refusing it as soon as a
    limit is passed; nothing inflated is kept."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceError(f"{path}: not a readable .docx ({exc}); if it is password-"
                          "protected or an old .doc, re-save it as .docx from Word") from exc
    with archive:
        entries = archive.infolist()
        if len(entries) > limits.max_zip_entries:
            raise SourceError(f"{path}: the .docx holds {len(entries)} ZIP entries, over the "
                              f"limit of {limits.max_zip_entries}; refused (raise "
                              "CIVICSETU_MAX_ZIP_ENTRIES if the file is genuine)")
        declared = sum(e.file_size for e in entries)
        if declared > limits.max_unpacked_bytes:
            raise _too_big(path, declared, limits)
        total = 0
        for entry in entries:
            if entry.is_dir():
                continue
            _check_ratio(path, entry.filename, entry.file_size, entry.compress_size, limits)
            total = _inflate(archive, entry, path, total, limits, deadline)


def _inflate(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, path: Path, total: int,
             limits: ReadLimits, deadline: Deadline | None) -> int:
    """Stream one entry: count what it really inflates to (headers can lie) and look
    for entity declarations in its XML."""
    size = 0
    tail = b""
    try:
        with archive.open(entry) as fh:
            while block := fh.read(_BLOCK):
                size += len(block)
                total += len(block)
                if total > limits.max_unpacked_bytes:
                    raise _too_big(path, total, limits)
                _check_ratio(path, entry.filename, size, entry.compress_size, limits)
                if _DECLARATION.search(tail + block):
                    raise SourceError(
                        f"{path}: {entry.filename} declares a DOCTYPE or ENTITY, which Word "
                        "never writes and entity-expansion attacks use; refused")
                tail = block[-_KEEP:]
                if deadline is not None:
                    deadline.check()
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
            RuntimeError, ValueError) as exc:
        raise SourceError(f"{path}: not a readable .docx ({' '.join(str(exc).split())}); if "
                          "it is password-protected or an old .doc, re-save it as .docx from "
                          "Word") from exc
    return total


def _check_ratio(path: Path, name: str, size: int, packed: int, limits: ReadLimits) -> None:
    if size > RATIO_FLOOR_BYTES and size > limits.max_zip_ratio * max(packed, 1):
        raise SourceError(f"{path}: {name} inflates more than {limits.max_zip_ratio:g} times "
                          f"its packed size ({packed} bytes), like a ZIP bomb; refused (raise "
                          "CIVICSETU_MAX_ZIP_RATIO if the file is genuine)")


def _too_big(path: Path, size: int, limits: ReadLimits) -> SourceError:
    return SourceError(f"{path}: the .docx inflates to over {size / 2**20:.0f} MiB, more "
                       f"than the {limits.max_unpacked_bytes / 2**20:g} MiB limit; refused "
                       "(raise CIVICSETU_MAX_UNPACKED_MB if the file is genuine)")


def html_depth(root: object, limit: int) -> int:
    """The nesting depth of a BeautifulSoup tree, walked without recursion; stops
    counting once ``limit`` is passed."""
    from bs4 import Tag

    deepest = 0
    stack: list[tuple[Tag, int]] = [(root, 0)] if isinstance(root, Tag) else []
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tag))
    return deepest
