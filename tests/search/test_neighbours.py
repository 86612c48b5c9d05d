"""Graph neighbours ranked by the question (search/neighbours.py) on the bundled index."""

from typing import Any

import pytest

from civicsetu.engine import Engine
from civicsetu.search import decompose
from civicsetu.search.neighbours import neighbour_ids, ranked_neighbours
from civicsetu.types import Hit, section_of
from tests.conftest import RERA

RTI = "the-right-to-information-act-2005"


def _seed(engine: Engine, full_id: str) -> Hit:
    p = engine.store.provision(full_id)
    return Hit(chunk_id="", doc_id=p.doc_id, provision_path=p.path, text=p.text,
               start=p.start, end=p.end, score=1.0)


def test_neighbours_include_what_cites_a_sub_section_and_skip_rule_making(
        bundled: Engine) -> None:
    """s.71(1) cites "section 18", s.84(2)(i) (rules) cites it too: only the first is a
    neighbour of the seed s.18(1); the seed's own section is never one."""
    searcher = bundled.searcher
    allowed = {d.id for d in searcher.documents}
    ids = neighbour_ids(bundled.store, [_seed(bundled, f"{RERA}#s.18(1)")], allowed,
                        searcher.headings)
    assert f"{RERA}#s.71(1)" in ids
    assert not [i for i in ids if section_of(i.split("#")[1]) in ("s.84", "s.18")]


def test_the_neighbour_that_answers_ranks_first(bundled: Engine) -> None:
    """Of the sections citing RTI s.7 (fees, exemptions, rules, penalties ...), the
    penalty section leads for a question about the officer's penalty."""
    searcher = bundled.searcher
    allowed = {d.id for d in searcher.documents}
    question = ("The information officer did not reply to my application in thirty days. "
                "What penalty can the Commission impose on him?")
    analysis = searcher.search(question).analysis
    vector = bundled.embedder.embed_query(question)
    ranked = ranked_neighbours(bundled.store, searcher.relevance, analysis, vector,
                               [_seed(bundled, f"{RTI}#s.7(1)")], allowed, searcher.headings)
    assert section_of(ranked[0].split("#")[1]) == "s.20"


def test_a_named_provision_is_followed_by_the_section_citing_it(bundled: Engine) -> None:
    """s.18 says compensation is paid "in the manner as provided under this Act"; s.71(1),
    which cites s.18, appoints who adjudges it. Without ranking, only what s.18 itself
    cites follows it."""
    question = "Section 18 of RERA gives me compensation. Who decides how much I get?"
    hits = bundled.searcher.search(question, k=10).hits
    # "Who decides" asks for the adjudicating section: it leads (search/consequence.py).
    assert hits[0].provision_id.startswith(f"{RERA}#s.71")
    assert hits[1].provision_id == f"{RERA}#s.18" and hits[1].pinned
    bundled.searcher.settings.graph_relevance = False
    try:
        hits = bundled.searcher.search(question, k=10).hits
    finally:
        bundled.searcher.settings.graph_relevance = True
    assert not [h for h in hits[:4] if h.provision_id.startswith(f"{RERA}#s.71")]


def test_a_routed_question_keeps_part_of_another_acts_vote(
        bundled: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float] = []
    real = decompose.coverage_fuse

    def spy(*args: Any, **kwargs: Any) -> list[Hit]:
        seen.append(kwargs["other_weight"])
        return real(*args, **kwargs)

    monkeypatch.setattr(decompose, "coverage_fuse", spy)
    question = "Under RERA, when must the builder refund me, and who decides my compensation?"
    decompose.search_decomposed(bundled.searcher, question, k=10)
    assert seen == [bundled.searcher.settings.routed_other_weight] and seen[0] == 0.5


def test_a_search_without_the_graph_ranks_as_with_graph_expansion_off(
        bundled: Engine) -> None:
    """``graph=False`` (research steps' own evidence) is the search with no neighbours."""
    question = "Can I ask for a reference to the court against the land award?"
    searcher = bundled.searcher
    with_graph = [h.provision_id for h in searcher.search(question, k=10).hits]
    own = [h.provision_id for h in searcher.search(question, k=10, graph=False).hits]
    searcher.settings.graph_expansion = False
    try:
        expected = [h.provision_id for h in searcher.search(question, k=10).hits]
    finally:
        searcher.settings.graph_expansion = True
    assert own == expected and own != with_graph
