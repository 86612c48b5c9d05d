"""When a document became law, for questions about the law on a date (search/in_force.py)."""

from __future__ import annotations

from datetime import date

from civicsetu.search.in_force import law_from
from civicsetu.types import DatedEvent


def _commenced(on: date, path: str | None) -> DatedEvent:
    return DatedEvent("doc", "commencement", on, path, "")


def test_the_first_sections_earliest_commencement_date_is_printed_law() -> None:
    events = [_commenced(date(2017, 5, 1), "s.1"), _commenced(date(2016, 5, 1), "s.1(3)"),
              # an inserted section's note dates that section only
              _commenced(date(2020, 4, 1), "s.9B")]
    assert law_from("The Real Estate Act, 2016", events) == (date(2016, 5, 1), True)


def test_the_title_year_is_the_fallback_and_a_lower_bound() -> None:
    assert law_from("The Indian Contract Act, 1872", []) == (date(1872, 1, 1), False)
    assert law_from("The Indian Contract Act, 1872.", [
        _commenced(date(2001, 1, 1), "s.12")]) == (date(1872, 1, 1), False)
    assert law_from("Lease deed for flat 4B", []) is None
