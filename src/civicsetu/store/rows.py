"""Rows -> records, shared by every SQL backend: both select the same columns in the same
order (``DOCUMENT_COLUMNS``, ``PROVISION_COLUMNS`` in each backend's queries)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

from civicsetu.types import DocType, Document, Footnote, Provision, ProvisionKind


def iso(d: date | None) -> str | None:
    """A date as stored (ISO text), ``None`` for an open end."""
    return d.isoformat() if d else None


def document_from_row(r: Sequence[Any]) -> Document:
    """``id, title, text, source, jurisdiction, doc_type, short_title, aliases,
    effective_date, parent_id`` -> ``Document``."""
    return Document(r[0], r[1], r[2], r[3], r[4], DocType(r[5]), r[6],
                    tuple(json.loads(r[7])),
                    date.fromisoformat(r[8]) if r[8] else None, r[9])


def provision_from_row(r: Sequence[Any]) -> Provision:
    """``doc_id, path, kind, title, start, end, text, parent_path, ordinal, footnotes,
    valid_from, valid_to, page, page_end`` -> ``Provision``."""
    return Provision(
        doc_id=str(r[0]), path=str(r[1]), kind=ProvisionKind(str(r[2])), title=str(r[3]),
        start=int(r[4]), end=int(r[5]), text=str(r[6]),
        parent_path=None if r[7] is None else str(r[7]), ordinal=int(r[8]),
        footnotes=tuple(Footnote(m, t) for m, t in json.loads(str(r[9]))),
        valid_from=date.fromisoformat(str(r[10])) if r[10] else None,
        valid_to=date.fromisoformat(str(r[11])) if r[11] else None,
        page=None if r[12] is None else int(r[12]),
        page_end=None if r[13] is None else int(r[13]),
    )
