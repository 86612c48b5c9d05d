"""The document registry: one TOML file listing what to ingest and what the files cannot
say about themselves (jurisdiction, type, effective date, page cap, parent Act).

    [[document]]
    id = "up-rera-rules-2016"
    name = "Uttar Pradesh Real Estate (Regulation and Development) Rules, 2016"
    source = "https://up-rera.in/pdf/rera.pdf"     # or a path, relative to this file
    jurisdiction = "UP"
    doc_type = "rules"
    effective_date = 2016-10-27
    max_pages = 24                                  # the forms after page 24 are left out
    parent = "the-real-estate-regulation-and-development-act-2016"
    aliases = ["UP RERA Rules"]
    sha256 = "…"                                    # optional: refuse any other bytes
    [document.derived_from]                         # optional: rule -> Act section
    "r.3" = "s.4"
"""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from civicsetu.errors import InputError
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.types import DocType


class RegistryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Document id (a slug).")
    name: str = Field(min_length=3, description="The document's title.")
    source: str = Field(min_length=1, description="URL (http/https) or file path.")
    jurisdiction: str = "IN"
    doc_type: DocType = DocType.ACT
    effective_date: date | None = None
    max_pages: int | None = Field(default=None, ge=1)
    parent: str | None = None
    aliases: tuple[str, ...] = ()
    sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    derived_from: dict[str, str] = Field(default_factory=dict)

    @field_validator("derived_from")
    @classmethod
    def _paths(cls, value: dict[str, str]) -> dict[str, str]:
        for unit, section in value.items():
            if "." not in unit or "." not in section:
                raise ValueError(f"derived_from needs provision paths like \"r.3\" = \"s.4\", "
                                 f"not {unit!r} = {section!r}")
        return value

    @property
    def is_url(self) -> bool:
        return self.source.startswith(("http://", "https://"))


def load_registry(path: Path) -> list[RegistryEntry]:
    """Parse and check a registry file; every problem names the file and the entry."""
    if not path.is_file():
        raise InputError(f"{path}: no such registry file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from exc
    rows = data.get("document")
    if not isinstance(rows, list) or not rows:
        raise InputError(f"{path}: no [[document]] entries; see `civicsetu ingest --help`")
    entries: list[RegistryEntry] = []
    for n, row in enumerate(rows, start=1):
        try:
            entry = RegistryEntry.model_validate(row)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                                 for e in exc.errors())
            raise InputError(f"{path}: document #{n} ({row.get('id', '?')}): {problems}") \
                from exc
        if not entry.is_url and not Path(entry.source).is_absolute():
            entry = entry.model_copy(update={"source": str(path.parent / entry.source)})
        entries.append(entry)
    ids = [e.id for e in entries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise InputError(f"{path}: document id {duplicates[0]!r} is listed twice")
    return entries


def to_spec(entry: RegistryEntry, path: Path) -> SourceSpec:
    """The ingest spec for ``entry`` once its source is a file on disk at ``path``."""
    return SourceSpec(
        path, doc_id=entry.id, jurisdiction=entry.jurisdiction, doc_type=entry.doc_type,
        aliases=entry.aliases, title=entry.name, effective_date=entry.effective_date,
        parent_id=entry.parent, max_pages=entry.max_pages,
        derived_from=tuple(sorted(entry.derived_from.items())),
        origin=entry.source if entry.is_url else None, kind="registry")
