import pytest

from civicsetu.engine import Engine
from civicsetu.errors import InputError, NotFoundError, NotIngestedError
from civicsetu.search.hybrid import SearchFilters
from tests.conftest import RERA


def test_demo_question_finds_section_59(bundled: Engine) -> None:
    result = bundled.search("What is the penalty for not registering a real estate project?")
    assert result.hits[0].provision_id.startswith(f"{RERA}#s.59")
    assert len(result.hits) == 10
    assert set(result.timings_ms) >= {"bm25", "dense", "fuse", "search"}


def test_hybrid_uses_both_retrievers(bundled: Engine) -> None:
    result = bundled.search("Can a builder alter the plans of the apartments?")
    sources = {k for h in result.hits for k in h.sources}
    assert "rrf" in sources
    assert result.best_cosine is not None and result.best_cosine > 0.3


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Sec 59 of RERA", f"{RERA}#s.59"),
        ("What does section 18(1) of the RERA Act say?", f"{RERA}#s.18(1)"),
        ("Explain s. 11(4)(a) of RERA", f"{RERA}#s.11(4)(a)"),
    ],
)
def test_named_provisions_are_looked_up_and_pinned_first(bundled: Engine, query: str,
                                                         expected: str) -> None:
    hit = bundled.search(query).hits[0]
    assert hit.provision_id == expected and hit.pinned


def test_section_family_expansion_brings_sibling_chunks(bundled: Engine) -> None:
    result = bundled.search("documents to be submitted with an application for registration "
                            "of a real estate project")
    assert result.family
    top_sections = {(h.doc_id, h.provision_path.partition("(")[0]) for h in result.hits[:3]}
    for f in result.family:
        assert (f.doc_id, f.provision_path.partition("(")[0]) in top_sections


def test_filters(bundled: Engine) -> None:
    only_rti = bundled.search("penalty", filters=SearchFilters(
        doc_ids=["the-right-to-information-act-2005"]))
    assert {h.doc_id for h in only_rti.hits} == {"the-right-to-information-act-2005"}
    with pytest.raises(NotFoundError):
        bundled.search("penalty", filters=SearchFilters(doc_ids=["nope"]))
    with pytest.raises(InputError, match="no ingested document matches"):
        bundled.search("penalty", filters=SearchFilters(jurisdiction="IN-MH"))


def test_bm25_only_mode(bundled: Engine) -> None:
    result = bundled.search("nonregistration penalty promoter", mode="bm25")
    assert result.best_cosine is None
    assert "dense" not in result.timings_ms
    assert any(h.provision_path.startswith("s.59") for h in result.hits[:5])


@pytest.mark.parametrize(("query", "message"), [("", "empty"), ("   ", "empty"),
                                                 ("x" * 10_000, "limit is")])
def test_bad_queries(bundled: Engine, query: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        bundled.search(query)


def test_empty_index_says_what_to_do(empty_engine: Engine) -> None:
    with pytest.raises(NotIngestedError, match="civicsetu ingest --bundled"):
        empty_engine.search("anything")


CPA = "the-consumer-protection-act-2019"
RTI = "the-right-to-information-act-2005"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Section 18 says the promoter must return the amount with interest and "
         "compensation when he fails to give possession of the apartment. Who fixes it?",
         RERA),
        ("Under section 18, can the Information Commission receive and inquire into a "
         "complaint from a person refused access to information?", RTI),
    ],
)
def test_a_reference_naming_no_act_is_read_in_the_act_it_fits(bundled: Engine, question: str,
                                                              expected: str) -> None:
    """With many Acts, "Section 18" alone is the section 18 whose words the question uses,
    not the top hit's Act's section 18, wherever that Act ranks."""
    searcher = bundled.searcher
    analysis = bundled.search(question).analysis
    assert [r.path for r in analysis.references] == ["s.18"] and not analysis.named_docs
    allowed = {d.id for d in searcher.documents}
    for order in ([CPA, RTI, RERA], [RERA, RTI, CPA]):
        found = searcher._bare_reference(analysis, "s.18", order, allowed, None)
        assert [p.doc_id for p in found] == [expected]
        assert found[0].path == "s.18"
    # Documents without the section are passed over; none at all pins nothing.
    assert searcher._bare_reference(analysis, "s.18", [], allowed, None) == []


def test_the_cut_covers_k_sections_when_sub_sections_fill_k_hits() -> None:
    from civicsetu.search.hybrid import cut_sections
    from civicsetu.types import Hit

    def hit(path: str) -> Hit:
        return Hit(chunk_id=path, doc_id="a", provision_path=path, text="", start=0, end=0,
                   score=1.0)

    hits = [hit(p) for p in ("s.1(1)", "s.1(2)", "s.1(3)", "s.2", "s.1(4)", "s.3(1)",
                             "s.3(2)", "s.4")]
    assert [h.provision_path for h in cut_sections(hits, 3)] == [
        "s.1(1)", "s.1(2)", "s.1(3)", "s.2", "s.3(1)"]  # k hits, then two more sections
    assert len(cut_sections(hits, 6)) == 7  # four sections exist; all of them, in order
    assert [h.provision_path for h in cut_sections(hits[3:], 2)] == ["s.2", "s.1(4)"]


@pytest.mark.slow
def test_a_named_provision_is_followed_by_the_sections_it_refers_to(bundled: Engine) -> None:
    # s.60 punishes a contravention "of section 4": the section it refers to comes next.
    hits = bundled.searcher.search("What does section 60 of RERA provide?", k=10).hits
    assert hits[0].provision_id == f"{RERA}#s.60" and hits[0].pinned
    assert hits[1].provision_id == f"{RERA}#s.4" and not hits[1].pinned
    bundled.searcher.settings.pinned_references = False
    try:
        hits = bundled.searcher.search("What does section 60 of RERA provide?", k=10).hits
    finally:
        bundled.searcher.settings.pinned_references = True
    assert hits[1].provision_id != f"{RERA}#s.4"
