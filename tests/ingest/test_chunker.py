from civicsetu.corpus import bundled_acts
from civicsetu.ingest.chunker import chunk_document, common_ancestor, display_path
from civicsetu.ingest.loader import load_document
from civicsetu.ingest.statute import parse_provisions
from tests.conftest import RERA


def _rera_chunks(max_chars: int = 1000, min_chars: int = 120):  # type: ignore[no-untyped-def]
    act = next(a for a in bundled_acts() if a.id == RERA)
    doc = load_document(act.path, doc_id=act.id, extra_aliases=act.aliases)
    provisions, _ = parse_provisions(doc.id, doc.text)
    return doc, provisions, chunk_document(doc, provisions, max_chars=max_chars,
                                           min_chars=min_chars)


def test_chunks_are_exact_spans_within_their_provision_and_size() -> None:
    doc, provisions, chunks = _rera_chunks()
    by_path = {p.path: p for p in provisions}
    for c in chunks:
        assert doc.text[c.start:c.end] == c.text
        assert len(c.text) <= 1000
        p = by_path[c.provision_path]
        assert p.start <= c.start and c.end <= p.end


def test_long_sections_split_along_their_structure() -> None:
    _, _, chunks = _rera_chunks()
    s4 = [c.provision_path for c in chunks if c.provision_path.startswith("s.4")]
    assert len(s4) > 5
    assert any(path.startswith("s.4(2)(l)") for path in s4)


def test_embedded_text_carries_act_and_section_title() -> None:
    _, _, chunks = _rera_chunks()
    c = next(c for c in chunks if c.provision_path == "s.59")
    assert c.embed_text.startswith("Real Estate (Regulation and Development) Act, Section 59.")
    assert "Punishment for nonregistration" in c.embed_text


def test_ids_are_deterministic() -> None:
    assert [c.id for c in _rera_chunks()[2]] == [c.id for c in _rera_chunks()[2]]


def test_tiny_fragments_merge_into_a_neighbour() -> None:
    _, _, chunks = _rera_chunks(min_chars=300)
    short = [c for c in chunks if len(c.text) < 300]
    _, _, default_chunks = _rera_chunks()
    assert len(chunks) < len(default_chunks)
    assert len(short) < len([c for c in default_chunks if len(c.text) < 300])


def test_path_helpers() -> None:
    assert common_ancestor("s.4(2)(a)", "s.4(2)(c)") == "s.4(2)"
    assert common_ancestor("s.4(1)", "s.4(2)(c)") == "s.4"
    assert display_path("s.18(1)(b)") == "Section 18(1)(b)"
    assert display_path("r.7") == "Rule 7"
