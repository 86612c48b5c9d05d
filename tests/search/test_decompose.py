"""Decomposition keeps the question's context; coverage-aware fusion places every part."""

from dataclasses import replace

import pytest

from civicsetu.engine import Engine
from civicsetu.search.decompose import (
    SubQuestion,
    asks,
    coverage_fuse,
    decompose,
    search_decomposed,
    split_parts,
)
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


def _paths(hits: list[Hit]) -> list[str]:
    return [h.provision_path for h in hits]


def test_no_parts_leaves_the_whole_ranking_alone() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 6)]
    assert coverage_fuse(whole, []) == whole


def test_a_section_the_whole_and_its_parts_agree_on_rises() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 11)]
    # Both parts rank s.6 first: it overtakes s.3, which only one part found; the whole
    # question's first two stay first.
    parts = [[_hit("a", "s.6", 1.0), _hit("a", "s.3", 0.5)],
             [_hit("a", "s.6", 1.0), _hit("a", "s.4", 0.5)]]
    fused = coverage_fuse(whole, parts)
    assert _paths(fused)[:3] == ["s.1", "s.2", "s.6"]
    assert _paths(coverage_fuse(whole, parts, keep=1))[1] == "s.6"
    assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)
    assert [h.score for h in whole] == [1 / i for i in range(1, 11)]  # inputs untouched


def test_the_whole_questions_hits_in_another_act_do_not_vote() -> None:
    whole = [_hit("a", "s.1", 1.0), _hit("b", "s.9", 0.9), _hit("b", "s.8", 0.8),
             _hit("a", "s.2", 0.7)]
    parts = [[_hit("a", "s.1", 1.0), _hit("a", "s.5", 0.9)],
             [_hit("a", "s.2", 1.0), _hit("a", "s.6", 0.9)]]
    in_act = _paths(coverage_fuse(whole, parts, ["a"]))
    assert in_act[:4] == ["s.1", "s.2", "s.5", "s.6"]  # s.9 is not kept as a lead either
    assert set(in_act[4:]) == {"s.9", "s.8"}  # kept, after the question's Act
    voting = _paths(coverage_fuse(whole, parts))  # without docs they vote
    assert voting.index("s.9") < voting.index("s.5")
    # A guessed Act (nothing named): the other Act's hits keep half a vote and may lead.
    guessed = _paths(coverage_fuse(whole, parts, ["a"], other_weight=0.5))
    assert guessed[:3] == ["s.1", "s.9", "s.2"]


def test_a_part_missing_from_the_top_gets_a_place_after_the_leader() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 11)]
    covered = [_hit("a", "s.30", 1.0), _hit("a", "s.2", 0.5)]  # s.2 is in its top 3
    uncovered = [_hit("a", "s.40", 1.0), _hit("a", "s.41", 0.9), _hit("a", "s.42", 0.8)]
    fused = _paths(coverage_fuse(whole, [covered, uncovered]))
    assert fused[:3] == ["s.1", "s.2", "s.40"]
    assert "s.30" not in fused[:5] and "s.41" in fused


def test_a_definition_does_not_show_that_a_part_is_answered() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 11)]
    asked = [_hit("a", "s.1", 1.0)]
    # "where do I complain": its party words find the definition of "apartment" (s.2),
    # which is in the top five; its own best (s.31) is placed all the same.
    defined = replace(_hit("a", "s.2(e)", 0.8), text='(e) "apartment" whether called '
                      "block, chamber, dwelling unit, flat, ... means a separate part")
    complain = [_hit("a", "s.31(1)", 1.0), defined, _hit("a", "s.71", 0.6)]
    assert _paths(coverage_fuse(whole, [asked, complain]))[:3] == ["s.1", "s.2", "s.31(1)"]
    # The same section, a rule and not a definition, covers the part.
    rule = [_hit("a", "s.31(1)", 1.0), _hit("a", "s.2(e)", 0.8), _hit("a", "s.71", 0.6)]
    assert "s.31(1)" not in _paths(coverage_fuse(whole, [asked, rule]))[:5]


@pytest.mark.slow
def test_a_plain_where_do_i_complain_part_keeps_its_section(bundled: Engine) -> None:
    q = ("My builder delayed possession of my flat by two years. Can I get my money back "
         "with interest, and where do I complain?")
    result, subs = search_decomposed(bundled.searcher, q, k=10)
    assert len(subs) == 2
    sections = list(dict.fromkeys(h.provision_id.split("(")[0] for h in result.hits))[:5]
    assert f"{RERA}#s.31" in sections and f"{RERA}#s.18" in sections


def test_a_plain_forum_part_is_searched_with_the_statutes_words() -> None:
    # "where do I complain?" is searched as the provision letting a person file one;
    # "where can I take it next?" as the appeal from the decision the question tells.
    subs = decompose("The shop refuses to replace my phone. Can I get a refund, and where "
                     "do I complain?", [])
    assert "may file" in subs[1].text and "may file" not in subs[0].text
    subs = decompose("The Authority's order went against me. Where can I take it next, and "
                     "how long do I have?", [])
    assert "appeal" in subs[0].text and "appeal" not in subs[1].text


def test_coverage_is_counted_in_sections() -> None:
    whole = [_hit("a", "s.1", 1.0), _hit("a", "s.2(1)", 0.9), _hit("a", "s.2(2)", 0.8),
             _hit("a", "s.3", 0.7), _hit("a", "s.4", 0.6), _hit("a", "s.5", 0.5),
             _hit("a", "s.6", 0.4)]
    # The part's best is a sibling sub-section of a section in the top five: covered, so
    # nothing is placed before the section's own best provision.
    fused = _paths(coverage_fuse(whole, [[_hit("a", "s.2(3)", 1.0)]]))
    assert fused[:2] == ["s.1", "s.2(1)"] and fused.index("s.2(3)") < fused.index("s.3")
    # Two parts whose best is the same uncovered section place it once.
    fused = _paths(coverage_fuse(whole, [[_hit("a", "s.9", 1.0)], [_hit("a", "s.9(2)", 1.0)]]))
    assert fused[:3] == ["s.1", "s.2(1)", "s.9"]


def test_a_part_is_searched_with_the_words_of_what_answers_it() -> None:
    q = "What can I claim for the delay, and who decides the compensation?"
    subs = decompose(q, [])
    assert len(subs) == 2
    assert "adjudicating officer" in subs[1].text and "adjudicating" not in subs[0].text
    q = "What punishment can follow, and in which court is the offence tried?"
    assert "cognizance" in decompose(q, [])[1].text
    # A one-part question is not changed: the question-form words are for parts only.
    assert decompose("Who decides the compensation?", []) == [
        SubQuestion("Who decides the compensation?", "Who decides the compensation?")]


@pytest.mark.slow
def test_each_part_of_a_two_part_question_is_in_the_top_five(bundled: Engine) -> None:
    q = ("A developer sold flats in an unregistered project and RERA fined it. What is the "
         "maximum penalty, and what must it deposit before its appeal is heard?")
    result, subs = search_decomposed(bundled.searcher, q, k=10)
    assert len(subs) == 2
    top = [h.provision_id for h in result.hits[:5]]
    assert any(p.startswith(f"{RERA}#s.59") for p in top)
    assert any(p.startswith(f"{RERA}#s.43") for p in top)  # the pre-deposit proviso


@pytest.mark.slow
def test_a_which_court_part_finds_the_section_on_cognizance(bundled: Engine) -> None:
    # The part's own words ("which court can try") never say "cognizance"; the question
    # form brings the statute's words, and the fusion keeps the part in the top five.
    q = ("A promoter ignored the Authority's orders for months. What punishment can follow, "
         "and which court can try the offence?")
    result, subs = search_decomposed(bundled.searcher, q, k=10)
    assert len(subs) == 2 and "cognizance" in subs[1].text
    top = [h.provision_id for h in result.hits[:5]]
    assert any(p.startswith(f"{RERA}#s.80") for p in top)
    assert any(p.startswith(f"{RERA}#s.63") for p in top)  # the penalty part kept too


def test_a_difference_between_two_things_gives_each_its_part() -> None:
    parts = split_parts("How do the notice periods differ between a lessor ending a lease and "
                        "a lessee ending it?")
    assert parts == ["How do the notice periods differ between a lessor ending a lease",
                     "notice periods for a lessee ending it"]
    assert len(split_parts("Compare who can sue with who can be sued.")) == 2


def test_one_compared_side_is_not_context_for_the_other() -> None:
    q = ("Compare who can head a state Authority with who can head the Appellate Tribunal, "
         "and how each is chosen.")
    subs = decompose(q, [])
    assert len(subs) == 3
    assert "tribunal" not in subs[0].text.lower()  # the other side's party is not carried
    assert "authority" not in subs[1].text.lower()
    assert "tribunal" in subs[2].text.lower() and "authority" in subs[2].text.lower()
    # A plain several-part question still carries its parties to every part.
    subs = decompose("What is the penalty for a builder? And where does the allottee appeal?", [])
    assert "builder" in subs[1].text and "allottee" in subs[0].text


def test_a_section_covers_only_one_compared_side() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 11)]
    # Both sides list s.46; the second side ranks it first and keeps it, the first side is
    # given its own next section instead of counting s.46 too.
    first = [_hit("a", "s.22", 1.0), _hit("a", "s.3", 0.9), _hit("a", "s.21", 0.8)]
    second = [_hit("a", "s.3", 1.0), _hit("a", "s.45", 0.9)]
    assert "s.22" not in _paths(coverage_fuse(whole, [first, second]))[:5]
    assert _paths(coverage_fuse(whole, [first, second], distinct=True))[:3] == [
        "s.1", "s.2", "s.22"]


def test_a_first_part_that_asks_leads_the_fused_ranking() -> None:
    whole = [_hit("a", f"s.{i}", 1 / i) for i in range(1, 11)]
    parts = [[_hit("a", "s.7", 1.0)], [_hit("a", "s.8", 1.0)]]
    # The first part's best, the whole question's best, then the uncovered second part.
    assert _paths(coverage_fuse(whole, parts, first_asks=True))[:3] == ["s.7", "s.1", "s.8"]
    pinned = [_hit("a", "s.9", 1.0), *whole]
    pinned[0].pinned = True
    assert _paths(coverage_fuse(pinned, parts, first_asks=True))[0] == "s.9"  # pinned first
    assert asks("My flat cost 1.5 crore. Which commission hears my complaint")
    assert not asks("When RERA came into force")
    assert not asks("If a promoter is prosecuted under RERA and faces imprisonment")
