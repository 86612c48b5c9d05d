"""Dates as printed in Indian statutes: ``25th March, 2016``, ``1st day of May, 2017``,
``25-7-2019``, ``25.07.2019``, ``March 25, 2016``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

_MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), start=1)}
_MONTH = r"(?P<month>January|February|March|April|May|June|July|August|September|October|" \
         r"November|December)"
DATE = re.compile(
    rf"\b(?P<day>\d{{1,2}})\s?(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b"
    rf"|\b{_MONTH.replace('month', 'month2')}\s+(?P<day2>\d{{1,2}}),?\s+(?P<year2>\d{{4}})\b"
    r"|\b(?P<d>\d{1,2})\s?[-./]\s?(?P<m>\d{1,2})\s?[-./]\s?(?P<y>\d{4})\b",
    re.IGNORECASE,
)


def find_dates(text: str) -> Iterator[tuple[date, int, int]]:
    """Every valid date in ``text`` with its span."""
    for m in DATE.finditer(text):
        parsed = _to_date(m)
        if parsed is not None:
            yield parsed, m.start(), m.end()


def parse_date(text: str) -> date | None:
    return next((d for d, _, _ in find_dates(text)), None)


def _to_date(m: re.Match[str]) -> date | None:
    try:
        if m.group("day"):
            return date(int(m.group("year")), _MONTHS[m.group("month").lower()],
                        int(m.group("day")))
        if m.group("day2"):
            return date(int(m.group("year2")), _MONTHS[m.group("month2").lower()],
                        int(m.group("day2")))
        return date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
    except ValueError:
        return None
