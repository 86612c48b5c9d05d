"""Which documents were law on the date a question asks about (``--as-of``).

A document is not searched for a date before it was law: the earliest commencement date
its first section prints (``ingest/enrich.extract_dates``; a later section's note dates
only that section), else 1 January of the year its title ends with ("... Act, 2016").
The second is a lower bound only (an Act of 2016 may have come into force in May), so it
never leaves out a document that was law; a document that states neither is always
searched. Versions a document's own history holds are the store's business
(``Store.provision(..., as_of)``); this is about the first version.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from civicsetu.search.query import title_year
from civicsetu.types import DatedEvent, section_of

_FIRST_UNITS = frozenset({"s.1", "r.1", "reg.1", "art.1"})


@dataclass(frozen=True, slots=True)
class NotYetLaw:
    """A document the question names that was not yet law on the date asked about."""

    doc_id: str
    title: str
    law_from: date
    printed: bool  # a commencement date the document prints, not its title's year


def law_from(title: str, dates: Iterable[DatedEvent]) -> tuple[date, bool] | None:
    """The first day the document was law as far as it says, and whether that is a date
    it prints (True) or 1 January of its title's year (False); None when it says neither."""
    printed = min((e.on for e in dates if e.kind == "commencement" and e.provision_path
                   and section_of(e.provision_path) in _FIRST_UNITS), default=None)
    if printed is not None:
        return printed, True
    year = title_year(title)
    return (date(int(year), 1, 1), False) if year else None
