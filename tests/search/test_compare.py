"""Comparison questions: sides in their own Acts, one search per aspect, chain steps."""

import json
from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.eval.metrics import ranked_sections, section_key
from civicsetu.search.compare import aspects, chain_order, shared_aspects, strip_shared
from civicsetu.search.decompose import search_decomposed, split_parts
from civicsetu.search.lexicon import focus_terms
from civicsetu.types import Hit
from tests.conftest import RERA

DATA = Path(__file__).parent / "data"
CPA = "the-consumer-protection-act-2019"


def test_two_aspects_of_one_side_are_asked_apart() -> None:
    got = aspects("Compare the time limit and pre-deposit for a builder appealing a RERA order")
    assert got == ["Compare the time limit for a builder appealing a RERA order",
                   "Compare the pre-deposit for a builder appealing a RERA order"]
    assert aspects("Who decides the compensation") == ["Who decides the compensation"]


def test_aspects_asked_after_the_sides_belong_to_every_side() -> None:
    q = ("Where does the next appeal go after the Appellate Tribunal, compared with after "
         "the National Commission: which forum and what deadline?")
    assert shared_aspects(q) == ["which forum", "what deadline"]
    assert strip_shared("after the National Commission: which forum and what deadline") == \
        "after the National Commission"
    assert shared_aspects("Compare the penalty under RERA with the one under the CPA.") == []


def test_compared_sides_split_without_a_question_word() -> None:
    assert split_parts("Compare the time limit for an RTI appeal with the time limit for "
                       "a consumer appeal.") == ["Compare the time limit for an RTI appeal",
                                                 "the time limit for a consumer appeal"]
    assert len(split_parts("How does the moratorium for a company differ from the interim "
                           "moratorium for an individual?")) == 2
    assert len(split_parts("Compare the penalties.")) == 1


def test_how_one_law_stands_to_another_asks_for_the_savings_clause() -> None:
    assert "not in derogation" in focus_terms("does one exclude the other")
    assert "overriding effect" in focus_terms("Does the RTI Act override other laws")
    assert focus_terms("what is excluded from the definition of service") == []


def _hit(path: str, text: str) -> Hit:
    return Hit(chunk_id=path, doc_id=RERA, provision_path=path, text=text, start=0, end=0,
               score=1.0)


def test_the_next_appeal_after_a_body_is_the_appeal_from_it() -> None:
    to_it = _hit("s.44", "any person aggrieved by any order of the Authority may prefer an "
                         "appeal to the Appellate Tribunal")
    other = _hit("s.53", "The Appellate Tribunal shall have the powers of a civil court")
    from_it = _hit("s.58", "Any person aggrieved by any decision or order of the Appellate "
                           "Tribunal, may file an appeal to High Court within sixty days")
    got = chain_order([to_it, other, from_it], "Real Estate Appellate Tribunal")
    assert [h.provision_path for h in got] == ["s.58", "s.53", "s.44"]
    # A differently qualified body ("the District Commission") is not the one asked after.
    district = _hit("s.41", "aggrieved by an order made by the District Commission may "
                            "prefer an appeal against such order to the State Commission")
    assert chain_order([district], "State Consumer Commission") == [district]


def _top5(engine: Engine, question: str) -> list[str]:
    result, _ = search_decomposed(engine.searcher, question, k=10)
    return ranked_sections([h.provision_id for h in result.hits])[:5]


@pytest.mark.slow
def test_each_side_of_a_comparison_finds_its_own_acts_provision(bundled: Engine) -> None:
    # The Consumer Protection Act side's savings clause (s.100) was 6th or lower when
    # both sides were searched in both Acts with the same words.
    top = _top5(bundled, "Does the RTI Act override other laws, and how does that differ "
                         "from the way the Consumer Protection Act relates to other laws?")
    assert f"{CPA}#s.100" in top
    assert "the-right-to-information-act-2005#s.22" in top


@pytest.mark.slow
def test_both_parts_are_searched_in_each_act(bundled: Engine) -> None:
    # "Does either law shut out the other?" asked of RERA and of the CPA apart: each
    # Act's savings or overriding clause is its own search's first.
    top = _top5(bundled, "Can a homebuyer complain both to RERA and to a consumer "
                         "commission? Does either law shut out the other?")
    assert f"{CPA}#s.100" in top and f"{RERA}#s.31" in top


@pytest.mark.slow
def test_the_next_appeal_after_each_body_is_found(bundled: Engine) -> None:
    # Without the chain step the Tribunal's side led with s.44 (the appeal TO it) and its
    # s.58 (the appeal to the High Court FROM it) fell below the top five.
    top = _top5(bundled, "Where does the next appeal go after the District Consumer "
                         "Commission, compared with after the RERA Appellate Tribunal: which "
                         "forum and what deadline?")
    assert f"{CPA}#s.41" in top and f"{RERA}#s.58" in top


@pytest.mark.slow
def test_comparison_questions_written_for_this_check(bundled: Engine) -> None:
    # Nine comparison questions over the bundled Acts (gold sections read in the text),
    # none from the dev or peer sets; 0.889 recall@5 before search/compare.py.
    rows = [json.loads(line) for line in
            (DATA / "comparison_c13.jsonl").read_text(encoding="utf-8").splitlines()]
    recalls = []
    for row in rows:
        golds = {section_key(g) for g in row["gold_provisions"]}
        recalls.append(len(golds & set(_top5(bundled, row["query"]))) / len(golds))
    assert sum(recalls) / len(recalls) >= 0.95
