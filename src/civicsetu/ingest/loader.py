"""Read a source file into a ``Document``: decoding, front matter, title and aliases."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from civicsetu.errors import SourceError
from civicsetu.types import DocType, Document

TEXT_SUFFIXES = {".md", ".markdown", ".txt"}
LATER_SUFFIXES = {".pdf", ".html", ".htm", ".docx"}
MAX_SOURCE_BYTES = 50 * 1024 * 1024

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<body>.*?)\n---[ \t]*\n", re.DOTALL)
_FRONT_FIELD = re.compile(r'^(?P<key>[A-Za-z_][\w-]*):[ \t]*"?(?P<value>.*?)"?[ \t]*$', re.M)
_H1 = re.compile(r"^#[ \t]+(?P<title>.+?)[ \t]*$", re.MULTILINE)
_YEAR = re.compile(r",?\s*(?P<year>1[6-9]\d\d|20\d\d)\.?\s*$")


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def read_source_text(path: Path) -> str:
    """The file's text with newlines normalised, or a ``SourceError`` that says what to do."""
    if not path.exists():
        raise SourceError(f"{path}: no such file; check the path")
    if path.is_dir():
        raise SourceError(f"{path}: is a folder; pass the files inside it (or a glob)")
    suffix = path.suffix.lower()
    if suffix in LATER_SUFFIXES:
        raise SourceError(
            f"{path}: {suffix} files are not supported yet; convert it to Markdown or text"
        )
    if suffix not in TEXT_SUFFIXES:
        raise SourceError(f"{path}: unknown file type {suffix or '(none)'}; use .md or .txt")
    size = path.stat().st_size
    if size == 0:
        raise SourceError(f"{path}: the file is empty; nothing to ingest")
    if size > MAX_SOURCE_BYTES:
        raise SourceError(f"{path}: {size // 2**20} MiB is over the 50 MiB limit; split it")
    raw = path.read_bytes()
    if b"\x00" in raw[:4096]:
        raise SourceError(f"{path}: looks binary, not text; is it the right file?")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{path}: not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8"
        ) from exc
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise SourceError(f"{path}: holds only white space; nothing to ingest")
    return text


def front_matter(text: str) -> dict[str, str]:
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}
    return {f.group("key").lower(): f.group("value") for f in _FRONT_FIELD.finditer(m["body"])}


def short_title(title: str) -> str:
    """``The Indian Stamp Act, 1899.`` -> ``Indian Stamp Act, 1899``."""
    t = title.strip().rstrip(".").strip()
    return re.sub(r"^the\s+", "", t, flags=re.IGNORECASE)


def derived_aliases(title: str) -> tuple[str, ...]:
    """Ways people name a document: without the year, without brackets, without "Indian"."""
    base = short_title(title)
    names = {base}
    no_year = _YEAR.sub("", base).strip(" ,")
    names.add(no_year)
    no_brackets = re.sub(r"\s*\([^)]*\)", "", no_year).strip()
    names.add(no_brackets)
    for name in list(names):
        if name.lower().startswith("indian "):
            names.add(name[7:])
    return tuple(sorted(n for n in names if len(n) > 3))


def load_document(
    path: Path,
    *,
    doc_id: str | None = None,
    jurisdiction: str = "IN",
    doc_type: DocType = DocType.ACT,
    extra_aliases: tuple[str, ...] = (),
) -> Document:
    text = read_source_text(path)
    meta = front_matter(text)
    title = meta.get("title") or ""
    if not title:
        h1 = _H1.search(text)
        title = h1.group("title") if h1 else path.stem.replace("-", " ").replace("_", " ")
    return Document(
        id=doc_id or slugify(path.stem),
        title=short_title(title),
        text=text,
        source=meta.get("source") or str(path),
        jurisdiction=jurisdiction,
        doc_type=doc_type,
        short_title=_YEAR.sub("", short_title(title)).strip(" ,"),
        aliases=tuple(sorted(set(derived_aliases(title)) | set(extra_aliases))),
    )
