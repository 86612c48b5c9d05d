"""A question that names, by title, only a law the corpus does not hold is not answered
from another law's provisions (real bundled index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from civicsetu.answer.evidence import unheld_laws
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec


@pytest.mark.slow
def test_laws_named_by_title_that_no_ingested_document_is(bundled: Engine) -> None:
    docs = bundled.searcher.documents
    assert unheld_laws("What fine does the Motor Vehicles Act impose for speeding?",
                       docs) == ["Motor Vehicles Act"]
    assert unheld_laws("What does the Companies Act, 2013 say about auditors?",
                       docs) == ["Companies Act, 2013"]
    assert unheld_laws("Is the Arbitration and Conciliation Act relevant here?",
                       docs) == ["Arbitration and Conciliation Act"]


@pytest.mark.slow
def test_ingested_acts_by_any_name_and_cross_references_are_not_flagged(
        bundled: Engine) -> None:
    docs = bundled.searcher.documents
    for query in ("Under the Consumer Protection Act, who is a consumer?",
                  "What does the Transfer of Property Act say about gifts?",
                  # a short name that is no alias: its words belong to one Act's title
                  "What compensation does the Right to Fair Compensation Act give?",
                  # half its words are one Act's own: the name users give the Stamp Act
                  "What is the penalty under the Stamp Duty Act for an unstamped deed?",
                  "Does This Act apply to leases?",
                  # an ingested Act named beside another law: a cross-reference
                  "Does the IBC moratorium stop a suit under the Companies Act, 2013?"):
        assert unheld_laws(query, docs) == [], query


@pytest.mark.slow
def test_the_agent_abstains_and_says_which_law_is_missing(bundled: Engine) -> None:
    answer = bundled.ask("Under the Hindu Marriage Act, how long must a couple wait for "
                         "a divorce by mutual consent?")
    assert answer.abstained and not answer.citations
    assert any("Hindu Marriage Act" in n for n in answer.notices)


@pytest.mark.slow
@pytest.mark.parametrize("query", [
    "What is Section 18 of the Consumer Protection Act, 1986?",
    "CPA 1986 section 12",
    "Section 4 of the Land Acquisition Act, 1894",
])
def test_an_ingested_acts_name_with_another_year_is_not_answered_from_it(
        bundled: Engine, query: str) -> None:
    answer = bundled.ask(query)
    assert answer.abstained and not answer.citations
    assert any(" is not in the corpus; it holds the " in n for n in answer.notices)
    if "1986" in query:
        assert ("The Consumer Protection Act, 1986 is not in the corpus; it holds the "
                "Consumer Protection Act, 2019.") in answer.notices


@pytest.mark.slow
def test_the_held_act_named_beside_another_year_of_it_is_answered_with_the_notice(
        bundled: Engine) -> None:
    answer = bundled.ask("Which section of the Consumer Protection Act, 2019 repealed the "
                         "Consumer Protection Act, 1986?")
    assert not answer.abstained
    assert {c.provision_id.split("#")[0] for c in answer.citations} == {
        "the-consumer-protection-act-2019"}
    assert any("Consumer Protection Act, 1986 is not in the corpus" in n
               for n in answer.notices)


HOUSING_ACT = """---
title: "The Housing Deposit Act, 2099."
source: "test fixture"
---
# The Housing Deposit Act, 2099.

## Section 1 - Short title.

This Act may be called the Housing Deposit Act, 2099.

## Section 2 - Refund of deposit.

A landlord shall refund a housing deposit within fifteen days of the end of the lease.
"""
HOUSING_QUESTION = "What does the Housing Deposit Act say about the refund of a deposit?"


def _flags_housing(notices: list[str]) -> bool:
    return any("Housing Deposit Act" in n and "not in the corpus" in n for n in notices)


def test_a_law_ingested_after_a_first_question_is_held_at_once(
        empty_engine: Engine, small_act: Path, tmp_path: Path) -> None:
    """The names are prepared once per document list (``Searcher.law_names``); an ingest
    in the same process must not leave them stale."""
    empty_engine.ingest([SourceSpec(small_act)])
    first = empty_engine.ask(HOUSING_QUESTION)
    assert first.abstained and _flags_housing(first.notices)
    assert unheld_laws(HOUSING_QUESTION, empty_engine.searcher.law_names) == [
        "Housing Deposit Act"]
    housing = tmp_path / "housing-deposit-act-2099.md"
    housing.write_text(HOUSING_ACT, encoding="utf-8")
    empty_engine.ingest([SourceSpec(housing)])
    assert unheld_laws(HOUSING_QUESTION, empty_engine.searcher.law_names) == []
    assert not _flags_housing(empty_engine.ask(HOUSING_QUESTION).notices)


def test_a_law_another_connection_ingests_is_held_at_the_next_search(
        empty_engine: Engine, small_act: Path, tmp_path: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])
    names = empty_engine.searcher.law_names
    assert empty_engine.searcher.law_names is names  # prepared once, not per question
    assert unheld_laws(HOUSING_QUESTION, names) == ["Housing Deposit Act"]
    housing = tmp_path / "housing-deposit-act-2099.md"
    housing.write_text(HOUSING_ACT, encoding="utf-8")
    with Engine(empty_engine.settings) as other:  # another process's ingest
        other.ingest([SourceSpec(housing)])
    assert unheld_laws(HOUSING_QUESTION, empty_engine.searcher.law_names) == []


def test_an_ingested_act_named_by_its_initials_is_held_without_aliases() -> None:
    # A plain-file ingest registers no "RTI Act" alias; its title's initials still name it.
    from civicsetu.store.base import DocumentInfo

    rti = DocumentInfo("rti", "Right to Information Act, 2005", "", "", "IN", "act",
                       ("Right to Information Act",), "", 0, 0)
    assert unheld_laws("Under the RTI Act, how many days does the officer have?", [rti]) == []
    assert unheld_laws("Under the QZX Act, how many days does the officer have?",
                       [rti]) == ["QZX Act"]
