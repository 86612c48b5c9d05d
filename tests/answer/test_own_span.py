"""One rule for a provision's own text, shared by the extractive answerer and the
completion rules (``answer/units.own_span``; real bundled index)."""

from __future__ import annotations

import pytest

from civicsetu.answer.units import law_end, own_span
from civicsetu.engine import Engine

RERA = "the-real-estate-regulation-and-development-act-2016"
REGISTRATION = "the-registration-act-1908"


@pytest.mark.slow
def test_own_text_stops_at_the_first_sub_provision_unless_it_opens_a_list(
        bundled: Engine) -> None:
    family = bundled.store.provisions_of_section(RERA, "s.11")
    sub = next(p for p in family if p.path == "s.11(1)")
    clauses = [q for q in family if q.parent_path == sub.path]
    # "... for public viewing, including--" is finished by its clauses (a) to (f).
    assert own_span(sub, family) == (sub.start, law_end(sub))
    # A hit that ends inside the lead-in still quotes the whole list with it.
    assert own_span(sub, family, (sub.start, clauses[0].start)) == (sub.start, law_end(sub))
    # "... within a period of thirty days." introduces no list: its clauses are their own.
    family = bundled.store.provisions_of_section(RERA, "s.5")
    sub = next(p for p in family if p.path == "s.5(1)")
    clause = next(q for q in family if q.parent_path == sub.path)
    assert own_span(sub, family) == (sub.start, clause.start)
    assert own_span(sub, family, (sub.start + 10, sub.end)) == (sub.start + 10, clause.start)

@pytest.mark.slow
def test_a_section_that_opens_with_its_sub_section_one(bundled: Engine) -> None:
    family = bundled.store.provisions_of_section(RERA, "s.13")
    section, first, second = family[0], family[1], family[2]
    assert (section.start, first.path, second.path) == (first.start, "s.13(1)", "s.13(2)")
    # The answerer quotes nothing of the section itself: its sub-sections are units.
    start, end = own_span(section, family)
    assert start == end == section.start
    # A completion that must quote the section quotes its sub-section (1).
    assert own_span(section, family, through_opening=True) == (section.start, second.start)


@pytest.mark.slow
def test_own_text_never_runs_into_the_state_amendments(bundled: Engine) -> None:
    family = bundled.store.provisions_of_section(REGISTRATION, "s.80")
    section = family[0]
    assert "STATE AMENDMENT" in section.text
    for through in (False, True):
        start, end = own_span(section, family, through_opening=through)
        assert end == law_end(section) < section.end
        assert "STATE AMENDMENT" not in section.text[start - section.start:end - section.start]


@pytest.mark.slow
def test_an_asked_definition_that_is_a_list_is_quoted_with_every_item(
        bundled: Engine) -> None:
    larr = next(d.id for d in bundled.searcher.documents if "land-acquisition" in d.id)
    answer = bundled.ask("Who counts as an affected family under the land acquisition law?")
    lead = answer.citations[0]
    # Any one item alone would not say who counts; the list opens with the term.
    assert lead.provision_id == f"{larr}#s.3(c)"
    assert lead.quote.startswith('(c) "affected family" includes')
    assert "(i) a family whose land" in lead.quote and "(vi) a family residing" in lead.quote
    # Beyond the cap, the opening words come with the items that fit, each whole (the
    # answer then says the provision goes on: units.list_continues).
    family = bundled.store.provisions_of_section(larr, "s.3")
    clause = next(p for p in family if p.path == "s.3(c)")
    items = [p for p in family if p.parent_path == clause.path]
    fitting = [p for p in items if p.end - clause.start <= 200]
    assert fitting and len(fitting) < len(items)
    assert own_span(clause, family, max_chars=200) == (clause.start, fitting[-1].end)
