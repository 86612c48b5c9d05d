import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civicsetu.corpus import bundled_acts
from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import ProvisionKind
from tests.conftest import RERA, SHARED, SMALL_ACT


def _rera() -> str:
    return next(a.path for a in bundled_acts() if a.id == RERA).read_text(encoding="utf-8")


def test_rera_paths_follow_the_printed_numbering() -> None:
    provisions, warnings = parse_provisions(RERA, _rera())
    paths = [p.path for p in provisions]
    assert warnings == []
    assert len([p for p in provisions if p.kind is ProvisionKind.SECTION]) == 92
    for path in ["s.18(1)(b)", "s.2(zk)", "s.4(2)(l)(D)", "s.2(v)", "s.2(x)", "s.2(i)",
                 "s.2(zk)(iii)(a)", "s.2(zk)(iv)", "s.14(2)(ii)", "s.19(10)"]:
        assert path in paths, path
    # (i) after (h) in the definitions is a clause, not a roman sub-clause of (h)
    assert "s.2(h)(i)" not in paths
    assert len(paths) == len(set(paths))


def test_every_span_is_exactly_the_provision_text() -> None:
    text = _rera()
    provisions, _ = parse_provisions(RERA, text)
    for p in provisions:
        assert text[p.start:p.end] == p.text
        assert p.text == p.text.strip()
    by_path = {p.path: p for p in provisions}
    for p in provisions:
        if p.parent_path:
            parent = by_path[p.parent_path]
            assert parent.start <= p.start and p.end <= parent.end, p.path


def test_provisos_and_explanations_stay_with_their_parent() -> None:
    provisions, _ = parse_provisions(RERA, _rera())
    s3_1 = next(p for p in provisions if p.path == "s.3(1)")
    assert "Provided that" in s3_1.text
    s2_k = next(p for p in provisions if p.path == "s.2(k)")
    assert "Explanation" in s2_k.text


def test_footnotes_attach_to_their_section_and_leave_the_body() -> None:
    provisions, _ = parse_provisions("tenancy", SMALL_ACT)
    s3 = next(p for p in provisions if p.path == "s.3")
    assert [f.text for f in s3.footnotes] == ["Illustrative footnote for the fixture."]
    assert "Footnotes" not in s3.text
    assert s3.title == "Security deposit"


def test_amendment_bracket_before_a_marker_is_still_a_marker() -> None:
    text = ("## Section 2 - Definitions.\n\nIn this Act,--\n\n"
            "^1[(1) \"a\" means b;\n\n(1A) \"c\" means d;]\n")
    provisions, _ = parse_provisions("x", text)
    assert [p.path for p in provisions] == ["s.2", "s.2(1)", "s.2(1A)"]


def test_clause_on_the_next_line_after_a_semicolon_is_split() -> None:
    text = ("## Section 5 - Definitions.\n\n(8) debt includes--\n\n"
            "(e) receivables;\n(f) any amount raised;\n")
    provisions, _ = parse_provisions("x", text)
    assert [p.path for p in provisions] == ["s.5", "s.5(8)", "s.5(8)(e)", "s.5(8)(f)"]


def test_wrapped_line_starting_with_a_marker_is_not_split() -> None:
    text = "## Section 9 - Title.\n\n(1) as defined in clause\n(a) of sub-section (2).\n"
    provisions, _ = parse_provisions("x", text)
    assert [p.path for p in provisions] == ["s.9", "s.9(1)"]


def test_text_without_sections_falls_back_to_paragraphs() -> None:
    provisions, warnings = parse_provisions("memo", "First paragraph.\n\nSecond one.\n")
    assert [p.path for p in provisions] == ["p.1", "p.2"]
    assert warnings and "paragraph" in warnings[0]


@pytest.mark.skipif(not (SHARED / "eval" / "legal_qa_dev.jsonl").exists(),
                    reason="../shared/eval not present")
def test_every_gold_provision_of_the_dev_set_is_parsed() -> None:
    ids: set[str] = set()
    for act in bundled_acts():
        provisions, _ = parse_provisions(act.id, act.path.read_text(encoding="utf-8"))
        ids |= {p.id for p in provisions}
    rows = [json.loads(line) for line in
            (SHARED / "eval" / "legal_qa_dev.jsonl").read_text().splitlines() if line]
    gold = {g for r in rows for g in r["gold_provisions"]}
    assert gold - ids == set()


_statute_text = st.lists(
    st.one_of(
        st.sampled_from(["## Section 1 - A.", "## Section 2A - B.", "(1) x", "(a) y;",
                         "(i) z", "(A) w", "Provided that", "### Footnotes", "1. note",
                         "^1[(b) q", "(iv)", "(h) t:—", ""]),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
    ),
    max_size=40,
).map("\n".join)


@settings(max_examples=200, deadline=None)
@given(_statute_text)
def test_parser_never_crashes_and_spans_stay_in_bounds(text: str) -> None:
    provisions, _ = parse_provisions("fuzz", text)
    paths = [p.path for p in provisions]
    assert len(paths) == len(set(paths))
    for p in provisions:
        assert 0 <= p.start <= p.end <= len(text)
        assert text[p.start:p.end] == p.text


def test_bundled_files_are_shipped_with_attribution() -> None:
    acts = bundled_acts()
    assert len(acts) == 11
    for act in acts:
        head = act.path.read_text(encoding="utf-8")[:400]
        assert "indiacode.nic.in" in head, act.id
    assert (Path(acts[0].path).parents[1] / "ATTRIBUTION.md").is_file()
