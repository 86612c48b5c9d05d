"""Notices from the amendment footnotes of the quoted provisions.

Each footnote is shown in its own words: it says what it changed (some words, a proviso,
the Illustrations, another clause), which a summary such as "s.39 was omitted" would
misstate. For the law as on a date (``--as-of``), a quoted provision whose footnotes
record an amendment after that date is flagged: the text the index holds is the amended
one, and the version in force then is not in the index unless it was ingested.
"""

from __future__ import annotations

import re
from datetime import date

from civicsetu.answer.messages import AMENDED_SINCE_NOTICE, AMENDMENT_NOTICE
from civicsetu.store.base import Store
from civicsetu.types import Amendment, Citation

# The footnote's own number, printed before some notes ("1 Subs. by Act 43 of 1955, ...").
_FOOTNOTE_NUMBER = re.compile(r"^\d{1,3}\s+(?=[A-Z])")
# The year of the amending instrument: "Act 20 of 1929", "the A.O. 1948".
_YEAR = re.compile(r"\b(1[6-9]\d\d|20\d\d)\b")


def amendment_notices(store: Store, citations: list[Citation],
                      as_of: date | None = None) -> list[str]:
    """The amendment footnotes of the quoted provisions, each in its own words; with
    ``as_of``, then one notice per provision amended after that date."""
    labels = {c.provision_id: c.label for c in citations}
    amendments = store.amendments_of(list(labels))
    notes = []
    for a in amendments:
        note = _FOOTNOTE_NUMBER.sub("", " ".join(a.note.split()), count=1)
        notes.append(AMENDMENT_NOTICE.format(label=labels[a.provision_id], note=note))
    if as_of is not None:
        later = dict.fromkeys(a.provision_id for a in amendments if _after(a, as_of))
        notes += [AMENDED_SINCE_NOTICE.format(label=labels[pid], date=as_of.isoformat())
                  for pid in later]
    return list(dict.fromkeys(notes))


def _after(amendment: Amendment, on: date) -> bool:
    """Whether the amendment took effect after ``on``: its w.e.f. date when the footnote
    prints one, else the amending instrument's year when that is a later year."""
    if amendment.effective is not None:
        return amendment.effective > on
    year = _YEAR.search(amendment.by or amendment.note)
    return year is not None and int(year.group(1)) > on.year
