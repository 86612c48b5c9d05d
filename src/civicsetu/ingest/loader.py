"""Read a source file of any supported format into a ``Document``: title and aliases."""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from pathlib import Path
from typing import Any

from civicsetu.ingest.readers import DEFAULT_MAX_BYTES, ReadLimits, read_source
from civicsetu.types import DocType, Document

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<body>.*?)\n---[ \t]*\n", re.DOTALL)
_FRONT_FIELD = re.compile(r'^(?P<key>[A-Za-z_][\w-]*):[ \t]*"?(?P<value>.*?)"?[ \t]*$', re.M)
_H1 = re.compile(r"^#[ \t]+(?P<title>.+?)[ \t]*$", re.MULTILINE)
_YEAR = re.compile(r",?\s*(?P<year>1[6-9]\d\d|20\d\d)\.?\s*$")


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


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


def load_source(
    path: Path,
    *,
    doc_id: str | None = None,
    title: str | None = None,
    jurisdiction: str = "IN",
    doc_type: DocType = DocType.ACT,
    extra_aliases: tuple[str, ...] = (),
    effective_date: date | None = None,
    parent_id: str | None = None,
    max_pages: int | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    source: str | None = None,
    limits: ReadLimits | None = None,
) -> tuple[Document, tuple[str, ...]]:
    """Read any supported file into a ``Document``; also return warnings for the user."""
    extracted = read_source(path, max_pages=max_pages, max_bytes=max_bytes, limits=limits)
    text = extracted.text
    meta = front_matter(text) if extracted.format == "markdown" else {}
    name = title or meta.get("title") or extracted.title
    if not name:
        h1 = _H1.search(text)
        name = h1.group("title") if h1 else (_first_title_line(text)
                                             or path.stem.replace("-", " ").replace("_", " "))
    document = Document(
        id=doc_id or slugify(path.stem),
        title=short_title(name),
        text=text,
        source=source or meta.get("source") or str(path),
        jurisdiction=jurisdiction,
        doc_type=doc_type,
        short_title=_YEAR.sub("", short_title(name)).strip(" ,"),
        aliases=tuple(sorted(set(derived_aliases(name)) | set(extra_aliases))),
        effective_date=effective_date,
        parent_id=parent_id,
        page_starts=extracted.page_starts,
    )
    return document, extracted.warnings


def load_document(path: Path, **options: Any) -> Document:
    return load_source(path, **options)[0]


def _first_title_line(text: str) -> str:
    """A PDF's first line that reads like a title: ``THE ... ACT, 2016`` or ``... RULES``."""
    for line in text.splitlines()[:15]:
        words = line.strip()
        if 8 <= len(words) <= 200 and re.search(
                r"\b(ACT|RULES|REGULATIONS|CODE|AGREEMENT|Act|Rules|Regulations|Agreement)\b",
                words):
            return words.title() if words.isupper() else words
    return ""
