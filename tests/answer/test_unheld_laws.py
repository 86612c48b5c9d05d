"""A question that names, by title, only a law the corpus does not hold is not answered
from another law's provisions (real bundled index)."""

from __future__ import annotations

import pytest

from civicsetu.answer.evidence import unheld_laws
from civicsetu.engine import Engine


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
