"""Decomposition keeps the question's context; coverage-aware fusion places every part."""

import pytest

from civicsetu.engine import Engine
from civicsetu.search.decompose import coverage_fuse, decompose, search_decomposed, split_parts
from civicsetu.types import Hit
from tests.conftest import RERA


def test_parts_split_at_question_boundaries_and_thin_parts_join_the_next() -> None:
    q = ("The Collector's award for my land is too low. How do I challenge it, within "
         "what time, and where can I appeal after that?")
    parts = split_parts(q)
    assert parts[0].startswith("The Collector's award") and parts[0].endswith("challenge it")
    assert parts[-1] == "where can I appeal after that"
    assert split_parts("What is an allottee?") == ["What is an allottee"]
    assert len(split_parts("Who is a promoter, and who is an allottee?")) == 2


def test_sub_questions_keep_the_named_act_and_the_parties() -> None:
    q = "What is the penalty for a builder under RERA? And where do I appeal?"
    subs = decompose(q, ["RERA"])
    assert len(subs) == 2
    assert subs[1].part == "where do I appeal"
    assert "RERA" in subs[1].text and "builder" in subs[1].text
    assert "RERA" not in subs[0].text.replace("under RERA", "")  # not added twice


def test_comparison_is_split_at_its_marker() -> None:
    q = ("Where does the next appeal go after the Appellate Tribunal, compared with after "
         "the National Commission?")
    assert len(decompose(q, [])) == 2


def _hit(doc: str, path: str, score: float) -> Hit:
    return Hit(chunk_id=path, doc_id=doc, provision_path=path, text="", start=0, end=0,
               score=score)


def test_an_uncovered_part_gets_a_top_place_and_covered_ones_change_nothing() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 11)]
    covered = [_hit("a", "s.2", 1.0), _hit("a", "s.30", 0.5)]
    assert coverage_fuse(whole, [covered]) == whole
    uncovered = [_hit("a", "s.40", 1.0), _hit("a", "s.41", 0.9)]
    fused = coverage_fuse(whole, [covered, uncovered])
    ids = [h.provision_path for h in fused]
    assert ids[:3] == ["s.1", "s.40", "s.2"] and "s.41" in ids
    assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)


def test_coverage_is_counted_in_sections() -> None:
    whole = [_hit("a", "s.1", 1.0), _hit("a", "s.2(1)", 0.9), _hit("a", "s.2(2)", 0.8),
             _hit("a", "s.3", 0.7), _hit("a", "s.4", 0.6), _hit("a", "s.5", 0.5),
             _hit("a", "s.6", 0.4)]
    # The part's best is a sibling sub-section of a section already in the top five.
    assert coverage_fuse(whole, [[_hit("a", "s.2(3)", 1.0)]]) == whole
    # An uncovered part places its best provision from a section not yet shown, so a
    # second sub-section of a placed section does not take the slot.
    fused = coverage_fuse(whole, [[_hit("a", "s.6(1)", 1.0), _hit("a", "s.3(2)", 0.9),
                                   _hit("a", "s.9", 0.8)]])
    assert [h.provision_path for h in fused][:2] == ["s.1", "s.6(1)"]
    fused = coverage_fuse(whole, [[_hit("a", "s.7", 1.0)], [_hit("a", "s.7(2)", 1.0),
                                                             _hit("a", "s.8", 0.5)]])
    assert [h.provision_path for h in fused][:3] == ["s.1", "s.7", "s.8"]


@pytest.mark.slow
def test_each_part_of_a_two_part_question_is_in_the_top_five(bundled: Engine) -> None:
    q = ("A developer sold flats in an unregistered project and RERA fined it. What is the "
         "maximum penalty, and what must it deposit before its appeal is heard?")
    result, subs = search_decomposed(bundled.searcher, q, k=10)
    assert len(subs) == 2
    top = [h.provision_id for h in result.hits[:5]]
    assert any(p.startswith(f"{RERA}#s.59") for p in top)
    assert any(p.startswith(f"{RERA}#s.43") for p in top)  # the pre-deposit proviso


def test_a_difference_between_two_things_gives_each_its_part() -> None:
    parts = split_parts("How do the notice periods differ between a lessor ending a lease and "
                        "a lessee ending it?")
    assert parts == ["How do the notice periods differ between a lessor ending a lease",
                     "notice periods for a lessee ending it"]
    assert len(split_parts("Compare who can sue with who can be sued.")) == 2
