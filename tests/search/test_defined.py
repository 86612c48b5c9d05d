"""A quoted term the question's Act defines leads the ranking (search/defined.py)."""

from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.defined import (
    _distinct,
    asked_definitions,
    defining_document,
    quoted_definitions,
    quoted_phrases,
    term_variants,
)
from tests.conftest import RERA


def test_quoted_phrases_are_the_words_in_quotes_not_apostrophes() -> None:
    q = "Is the builder's 'Carpet  Area' the same as the “super area”?"
    assert quoted_phrases(q) == ["carpet area", "super area"]
    assert quoted_phrases("The builder's flat isn't ready; what's next?") == []


def test_a_phrase_is_looked_up_as_written_without_articles_and_by_its_head_noun() -> None:
    assert term_variants("thirty days") == ["thirty days", "thirty day", "days", "day"]
    assert "estimated cost of real estate project" in term_variants(
        "the estimated cost of the real estate project")
    # A long quoted passage is not reduced to its last word.
    assert "act" not in term_variants("in the manner as provided under this act")


def test_the_quoted_terms_definition_in_the_questions_act_leads(tmp_path: Path,
                                                              small_act: Path) -> None:
    with Engine(Settings(home=tmp_path / "on")) as engine:
        engine.ingest([SourceSpec(small_act)])
        doc = engine.searcher.documents[0].id
        assert quoted_definitions(engine.store, "Who is a 'tenant' here?", [doc]) == \
            [f"{doc}#s.2(c)"]
        assert quoted_definitions(engine.store, "Is the 'security deposit' refundable?",
                                  [doc]) == []  # quoted, but no clause defines it
        result = engine.searcher.search("When must the 'landlords' refund a deposit?", k=5)
        assert result.hits[0].provision_id == f"{doc}#s.2(a)"
        assert not result.hits[0].pinned  # placed first, not claimed as named by the user
    with Engine(Settings(home=tmp_path / "on", quoted_definitions=False)) as engine:
        result = engine.searcher.search("When must the 'landlords' refund a deposit?", k=5)
        assert result.hits[0].provision_id != f"{doc}#s.2(a)"


@pytest.mark.slow
def test_a_quoted_term_in_a_lay_question_finds_its_definition(bundled: Engine) -> None:
    q = ("One company built the towers and a marketing firm sells the flats. Who is the "
         "'promoter' under RERA?")
    assert bundled.searcher.search(q, k=10).hits[0].provision_id == f"{RERA}#s.2(zk)"
    # A quoted passage that no Act defines changes nothing.
    q = "Section 18 says compensation 'in the manner as provided under this Act'. Who fixes it?"
    on = [h.provision_id for h in bundled.searcher.search(q, k=10).hits]
    bundled.searcher.settings.quoted_definitions = False
    try:
        off = [h.provision_id for h in bundled.searcher.search(q, k=10).hits]
    finally:
        bundled.searcher.settings.quoted_definitions = True
    assert on == off


def test_a_term_asked_about_without_quotes_finds_its_definition(tmp_path: Path,
                                                               small_act: Path) -> None:
    with Engine(Settings(home=tmp_path / "on")) as engine:
        engine.ingest([SourceSpec(small_act)])
        doc = engine.searcher.documents[0].id
        store = engine.store
        for question in ("Who counts as a tenant if I only rent a room?",
                         "What does this law mean by a tenant?",
                         "Does a tenant include a person who stays for a week?",
                         "I pay rent every month. Am I a tenant?"):
            assert asked_definitions(store, question, [doc]) == [f"{doc}#s.2(c)"], question
        # A defined word in a question that asks no meaning changes nothing.
        assert asked_definitions(store, "When must a tenant pay the rent?", [doc]) == []
        result = engine.searcher.search("Who counts as a landlord?", k=5)
        assert result.hits[0].provision_id == f"{doc}#s.2(a)"
    with Engine(Settings(home=tmp_path / "on", asked_definitions=False)) as engine:
        result = engine.searcher.search("Who counts as a landlord?", k=5)
        assert result.hits[0].provision_id != f"{doc}#s.2(a)"


@pytest.mark.slow
def test_a_question_in_one_acts_defined_vocabulary_implies_that_act(bundled: Engine) -> None:
    allowed = {d.id for d in bundled.searcher.documents}
    q = ("Within how many days of getting the completion certificate must the builder hand "
         "over the project documents to our association?")
    # RERA defines "completion certificate" and "project"; no title word of it is used.
    assert defining_document(bundled.store, q, allowed) == RERA
    result = bundled.searcher.search(q, k=5)
    assert result.analysis.named_docs == [] and result.analysis.implied_docs == [RERA]
    # Single defined words alone ("project", "promoter") are too common to route on.
    assert defining_document(bundled.store, "When must the promoter finish the project?",
                             allowed) is None
    # An Act outside the allowed documents is never chosen.
    assert defining_document(bundled.store, q, allowed - {RERA}) != RERA
    bundled.searcher.settings.defined_vocabulary = False
    try:
        assert bundled.searcher.search(q, k=5).analysis.implied_docs == []
    finally:
        bundled.searcher.settings.defined_vocabulary = True


def test_nested_and_plural_terms_count_once() -> None:
    assert _distinct({"real estate project", "project", "allottee", "allottees"}) == {
        "real estate project", "allottee"}
