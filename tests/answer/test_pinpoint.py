"""Each shown passage once, under the label of the narrowest provision that holds it
(real bundled index)."""

from __future__ import annotations

from civicsetu.answer.pinpoint import pinpointed, without_repeats
from civicsetu.answer.units import Unit
from civicsetu.engine import Engine
from civicsetu.types import Provision
from tests.conftest import RERA


def _s18(bundled: Engine) -> dict[str, Provision]:
    return {p.path: p for p in bundled.store.provisions_of_section(RERA, "s.18")}


def _unit(p: Provision, start: int, end: int) -> Unit:
    return Unit(p, start, end, p.text[start - p.start:end - p.start], 0, False)


def test_a_clause_quoted_alone_is_cited_to_the_clause(bundled: Engine) -> None:
    s18 = _s18(bundled)
    sub, clause = s18["s.18(1)"], s18["s.18(1)(b)"]
    # The unit a hit starting at clause (b) cuts from the sub-section's own reading.
    (u,) = pinpointed([_unit(sub, clause.start, clause.end)],
                      bundled.store.provisions_of_section)
    assert u.provision.id == clause.id
    assert u.text == clause.text[:clause.end - clause.start]
    # The closing words after the last clause ("he shall be liable ... to return the
    # amount") and their proviso qualify the whole sub-section: since parser version 4 the
    # clause's span ends before them, and a passage quoting them keeps the sub-section's label.
    closing = sub.start + sub.text.index("he shall be liable on demand")
    assert clause.end < closing
    (p,) = pinpointed([_unit(sub, closing, sub.end)], bundled.store.provisions_of_section)
    assert p.provision.id == sub.id
    # The whole sub-section stays the sub-section.
    (whole,) = pinpointed([_unit(sub, sub.start, sub.end)],
                          bundled.store.provisions_of_section)
    assert whole.provision.id == sub.id


def test_a_passage_inside_another_quote_is_not_shown_again(bundled: Engine) -> None:
    s18 = _s18(bundled)
    sub, clause, other = s18["s.18(1)"], s18["s.18(1)(b)"], s18["s.18(2)"]
    whole = _unit(sub, sub.start, sub.end)
    part = _unit(clause, clause.start, clause.end)
    rest = _unit(other, other.start, other.end)
    assert without_repeats([whole, rest, part]) == [whole, rest]
    # The quote that holds an earlier one takes its place, not the end of the list.
    assert without_repeats([part, rest, whole]) == [whole, rest]


def test_the_builder_question_shows_no_passage_twice(bundled: Engine) -> None:
    answer = bundled.ask("My builder delayed possession of my flat by two years. Can I get "
                         "my money back with interest, and where do I complain?")
    assert not answer.abstained
    spans = [(c.provision_id.split("#")[0], c.start, c.end) for c in answer.citations]
    for i, (doc, start, end) in enumerate(spans):
        for j, (doc2, start2, end2) in enumerate(spans):
            assert i == j or doc != doc2 or not (start <= start2 and end2 <= end), \
                (answer.citations[i].label, answer.citations[j].label)


def test_a_passage_across_two_clauses_is_cited_to_their_provision(bundled: Engine) -> None:
    ibc = "the-insolvency-and-bankruptcy-code-2016"
    s5 = {p.path: p for p in bundled.store.provisions_of_section(ibc, "s.5")}
    section, sub, f, g = s5["s.5"], s5["s.5(8)"], s5["s.5(8)(f)"], s5["s.5(8)(g)"]
    # From the Explanation that closes clause (f) into clause (g): read from a chunk of
    # the section, it was labelled "Section 5".
    start = f.start + f.text.index("Explanation")
    (u,) = pinpointed([_unit(section, start, g.end)], bundled.store.provisions_of_section)
    assert u.provision.id == sub.id
    # Inside one clause only, a passage that does not open it keeps its wider label.
    (v,) = pinpointed([_unit(section, start, f.end)], bundled.store.provisions_of_section)
    assert v.provision.id == section.id
