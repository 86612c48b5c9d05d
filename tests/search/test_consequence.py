"""A named provision's asked-for consequence first (search/consequence.py)."""

import pytest

from civicsetu.engine import Engine
from civicsetu.search.consequence import (
    asked_kinds,
    consequence_first,
    consequence_target,
    wanted_kinds,
)
from civicsetu.search.decompose import search_decomposed
from civicsetu.types import Hit
from tests.conftest import RERA

RTI = "the-right-to-information-act-2005"


def _hit(path: str, pinned: bool = False) -> Hit:
    return Hit(chunk_id=path, doc_id="a", provision_path=path, text="", start=0, end=0,
               score=1.0, pinned=pinned)


def test_the_kinds_a_question_asks_for() -> None:
    assert [k.name for k in asked_kinds("What penalty does he face, and who decides?")] == [
        "penalty", "adjudication"]
    assert [k.name for k in asked_kinds("How is the Tribunal's order enforced?")] == [
        "enforcement"]
    assert asked_kinds("What does section 60 of RERA provide?") == []
    # The statute's quoted words are not the asker's.
    assert asked_kinds("Section 10 says it 'shall be enforced'. Can I sue?",
                       ["shall be enforced"]) == []


def test_a_linked_section_moves_first_only_for_a_kind_no_named_one_is_about() -> None:
    heads = {"a#s.7": "Disposal of request", "a#s.19": "Appeal", "a#s.20": "Penalties"}
    named, linked = [_hit("s.7", pinned=True)], [_hit("s.19(1)"), _hit("s.20(1)")]
    kinds = wanted_kinds("What penalty can he face?", [], named, heads.__getitem__)
    assert consequence_target(kinds, ["a#s.19(1)", "a#s.20(1)"], heads.__getitem__) == \
        "a#s.20(1)"
    order = consequence_first(kinds, named, linked, heads.__getitem__)
    assert [h.provision_path for h in order] == ["s.20(1)", "s.7", "s.19(1)"]
    heads["a#s.7"] = "Penalty for delay"  # the named one already states a penalty
    assert wanted_kinds("What penalty can he face?", [], named, heads.__getitem__) == []


@pytest.mark.slow
def test_the_penalty_for_breaking_a_named_section_leads(bundled: Engine) -> None:
    """RTI s.7 sets the officer's thirty days; s.20, which cites it, states his penalty.
    Without the stage the named s.7 leads."""
    question = ("Section 7 of the RTI Act gives the information officer thirty days to "
                "reply. What penalty can he face if he ignores my application?")
    hits = bundled.searcher.search(question, k=10).hits
    # The whole section: s.20(1) sets the fine, s.20(2) (the edge's end) recommends
    # discipline.
    assert hits[0].provision_id == f"{RTI}#s.20"
    assert hits[1].provision_id == f"{RTI}#s.7" and hits[1].pinned
    bundled.searcher.settings.consequence_first = False
    try:
        hits = bundled.searcher.search(question, k=10).hits
    finally:
        bundled.searcher.settings.consequence_first = True
    assert hits[0].provision_id == f"{RTI}#s.7"


@pytest.mark.slow
def test_a_named_penalty_section_keeps_its_place(bundled: Engine) -> None:
    hits = bundled.searcher.search("What's the penalty under Section 60 of RERA for a "
                                   "promoter who gives false information?", k=10).hits
    assert hits[0].provision_id == f"{RERA}#s.60" and hits[0].pinned


@pytest.mark.slow
def test_a_several_part_question_keeps_the_consequence_first(bundled: Engine) -> None:
    """The coverage fusion of a several-part question keeps the moved section in its lead."""
    question = ("My builder broke section 4 of RERA by hiding the project's approvals. What "
                "penalty does he face, and where can I appeal if the Authority lets him off?")
    result, parts = search_decomposed(bundled.searcher, question, k=10)
    assert len(parts) == 2
    assert result.hits[0].provision_id == f"{RERA}#s.60"
    assert result.hits[1].provision_id == f"{RERA}#s.4" and result.hits[1].pinned
