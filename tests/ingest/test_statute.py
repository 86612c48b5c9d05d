import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civicsetu.corpus import bundled_acts
from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import Provision, ProvisionKind
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


def _bundled(act_id: str) -> str:
    return next(a.path for a in bundled_acts() if a.id == act_id).read_text(encoding="utf-8")


def test_state_amendments_stay_with_their_section_not_its_clauses() -> None:
    # India Code prints the States' amendments after a section's text; their numbering
    # is the amending State Act's. Nested, Odisha's exemptions became "Section 22(a)" of
    # the central Registration Act and Uttarakhand's new clause "Section 2(b)" of the
    # Indian Stamp Act, and the Karnataka text ran on inside s.1(3).
    text = _bundled("the-registration-act-1908")
    provisions, _ = parse_provisions("reg", text)
    by_path = {p.path: p for p in provisions}
    assert "s.22(a)" not in by_path and "s.8(2)(a)" not in by_path
    assert "STATE AMENDMENT" not in by_path["s.1(3)"].text
    assert by_path["s.1(3)"].text.endswith("first day of January, 1909.")
    assert "Karnataka" in by_path["s.1"].text  # kept, with the section, not dropped
    stamp, _ = parse_provisions("stamp", _bundled("the-indian-stamp-act-1899"))
    assert "s.2(b)" not in {p.path for p in stamp}


def test_state_amendments_are_indexed_after_the_last_clause() -> None:
    from civicsetu.ingest.chunker import chunk_document
    from civicsetu.ingest.loader import load_document

    act = next(a for a in bundled_acts() if a.id == "the-registration-act-1908")
    doc = load_document(act.path, doc_id=act.id)
    provisions, _ = parse_provisions(doc.id, doc.text)
    # Small chunks, so that s.1 is split along its sub-sections.
    chunks = chunk_document(doc, provisions, max_chars=300, min_chars=60)
    karnataka = doc.text.index("Amendment of section 1.--")
    held = [c for c in chunks if c.start <= karnataka < c.end]
    assert held and held[0].provision_path == "s.1"


def test_a_letter_continues_an_outer_clause_past_an_inner_list() -> None:
    # RTI s.2: "(h) ... (d) ..., and includes any-- (i) ... (ii) ...;" then "(i) "record"
    # includes--": the second (i) follows (h), not (ii).
    provisions, _ = parse_provisions("rti", _bundled("the-right-to-information-act-2005"))
    by_path = {p.path: p for p in provisions}
    assert by_path["s.2(i)"].text.startswith('(i) "record" includes')
    assert by_path["s.2(j)"].text.startswith('(j) "right to information" means')
    # "and includes any-- (i) body owned ...; (ii) non-Government organisation ..." closes
    # the list (a)-(d): its items are (h)'s, not (d)'s (parser version 4).
    assert "s.2(j)(iv)" in by_path and "s.2(h)(ii)" in by_path
    assert "s.2(h)(d)(ii)" not in by_path
    assert not any(p.startswith(("s.2(h)(d)(j)", "s.2(h)(j)")) for p in by_path)


def test_a_repeated_marker_stays_inside_the_open_provision() -> None:
    # IBC s.145: a misprinted second "(3)" after (4) used to close (4) and belong to no
    # sub-section, so no chunk and no quote held it.
    provisions, _ = parse_provisions("ibc", _bundled("the-insolvency-and-bankruptcy-code-2016"))
    s145_4 = next(p for p in provisions if p.path == "s.145(4)")
    assert s145_4.text.endswith("direct the Board to recommend for replacement of "
                                "bankruptcy trustee.")


def _act(act_id: str) -> dict[str, Provision]:
    text = next(a.path for a in bundled_acts() if a.id == act_id).read_text(encoding="utf-8")
    provisions, _ = parse_provisions(act_id, text)
    return {p.path: p for p in provisions}


def test_illustrations_are_not_clauses_of_the_section() -> None:
    contract = _act("the-indian-contract-act-1872")
    assert not any(path.startswith("s.73(") for path in contract)
    assert "Illustrations" in contract["s.73"].text
    assert "(r) A" in contract["s.73"].text  # the last illustration stays in the section


def test_an_explanations_items_stay_with_the_provision_it_explains() -> None:
    ibc = _act("the-insolvency-and-bankruptcy-code-2016")
    assert "s.30(2)(b)(ii)(i)" not in ibc
    clause = ibc["s.30(2)(b)"].text
    assert "Explanation 2" in clause and "(iii) where a legal proceeding" in clause
    assert "Explanation" not in ibc["s.30(2)(b)(ii)"].text
    limitation = _act("the-limitation-act-1963")
    # "For the purposes of this section": the section's, not sub-section (2)'s.
    assert "s.18(2)(a)" not in limitation
    assert "Explanation" not in limitation["s.18(2)"].text
    assert "Explanation" in limitation["s.18"].text


def test_the_law_resumes_after_an_explanation() -> None:
    text = ("## Section 4 - Terms.\n\n(1) A thing is done.\n\nExplanation.--For the purposes of "
            "this sub-section,--\n\n(a) one;\n\n(b) two.\n\n(2) Another thing.\n\n"
            "## Section 5 - Words.\n\nIn this Act,--\n\n(z) \"z\" means z;\n\n"
            "(za) \"za\" means za.\n\nExplanation.--For the purposes of this clause,--\n\n"
            "(i) one;\n\n(ii) two;\n\n(zb) \"zb\" means zb;\n\n(aa) inserted later.\n")
    provisions, _ = parse_provisions("x", text)
    paths = [p.path for p in provisions]
    assert paths == ["s.4", "s.4(1)", "s.4(2)", "s.5", "s.5(z)", "s.5(za)", "s.5(zb)",
                     "s.5(aa)"]
    by_path = {p.path: p for p in provisions}
    assert "(b) two." in by_path["s.4(1)"].text
    assert "(ii) two;" in by_path["s.5(za)"].text


def test_in_a_definitions_list_this_clause_is_the_lists_own_entry() -> None:
    cpa = _act("the-consumer-protection-act-2019")
    # "(7) consumer means any person who-- (i) ... (ii) ...; Explanation.--For the
    # purposes of this clause": clause (7), numbered as the list numbers its entries.
    assert "Explanation" not in cpa["s.2(7)(ii)"].text
    assert "earning his livelihood" in cpa["s.2(7)"].text
    text = ("## Section 2 - Definitions.\n\n(1) In this Act, unless the context otherwise "
            "requires,--\n\n(a) \"buyer\" means any person who--\n\n(i) buys;\n\n"
            "(ii) hires.\n\nExplanation.--For the purposes of this clause, a buyer is not a "
            "trader;\n\n(b) \"seller\" means a trader.\n\n"
            "## Section 3 - Duties.\n\n(1) The seller shall not--\n\n(i) cheat;\n\n"
            "(ii) hide defects.\n\nExplanation.--For the purposes of this clause, a defect "
            "is a fault.\n\n(2) Another duty.\n")
    by_path = {p.path: p for p in parse_provisions("x", text)[0]}
    # Entries lettered under sub-section (1): "this clause" is (a), not its item (ii).
    assert "a buyer is not a trader" not in by_path["s.2(1)(a)(ii)"].text
    assert "a buyer is not a trader" in by_path["s.2(1)(a)"].text
    # Outside a definitions list "this clause" keeps the innermost item.
    assert "a defect is a fault" in by_path["s.3(1)(ii)"].text


def test_a_definitions_list_ends_where_its_sub_section_does() -> None:
    # Sub-section (2) holds the list; in (3), a clause's Explanation is the clause's own.
    text = ("## Section 5 - Goods.\n\n(1) This section applies to sales.\n\n(2) In this "
            "section, unless the context otherwise requires, \"goods\" means movables.\n\n"
            "(3) A seller shall--\n\n(a) deliver;\n\n(b) insure, where--\n\n(i) the goods "
            "are perishable;\n\n(ii) the buyer asks.\n\nExplanation.--For the purposes of "
            "this clause, a buyer asks in writing.\n\n(4) The end.\n")
    by_path = {p.path: p for p in parse_provisions("x", text)[0]}
    assert "a buyer asks in writing" in by_path["s.5(3)(b)"].text
    assert "a buyer asks in writing" not in by_path["s.5(3)(a)"].text


def test_a_heading_printed_again_inside_the_bracket_keeps_sub_section_one() -> None:
    tpa = _act("the-transfer-of-property-act-1882")
    assert tpa["s.106(1)"].text.startswith("(1) In the")
    assert tpa["s.106"].text.startswith("^1[106. Duration of certain leases")


def test_an_inserted_clause_follows_its_neighbour_past_an_inner_lettered_list() -> None:
    # Industrial Relations Code s.2: "(zq) ... but does not include-- (a) ... (d) ...;"
    # then "(zr)": a sibling of (zq), not an item of (zq)'s inner list or of (d).
    text = ("## Section 2 - Definitions.\n\nIn this Act, unless the context otherwise requires,--"
            "\n\n(zq) \"wages\" means pay and includes--\n\n(i) allowances; and\n\n"
            "(ii) bonus,\n\nbut does not include--\n\n(a) gratuity;\n\n(d) pension;\n\n"
            "(zr) \"worker\" means a person employed.\n")
    paths = [p.path for p in parse_provisions("x", text)[0]]
    assert "s.2(zr)" in paths
    assert not any(path.startswith(("s.2(zq)(zr)", "s.2(zq)(ii)(zr)")) for path in paths)


def test_rera_s18_1_closing_words_and_proviso_belong_to_the_sub_section() -> None:
    # "(1) If the promoter fails ...,-- (a) ...; or (b) ... for any other reason," then
    # "he shall be liable on demand to the allottees ... to return the amount ...:" and its
    # proviso: the remedy of sub-section (1), for (a) and (b) alike, not clause (b)'s.
    rera = _act(RERA)
    clause_b, sub_1 = rera["s.18(1)(b)"], rera["s.18(1)"]
    assert clause_b.text.endswith("for any other reason,")
    assert "he shall be liable" not in clause_b.text
    assert "he shall be liable on demand to the allottees" in sub_1.text
    assert "Provided that where an allottee does not intend to withdraw" in sub_1.text
    assert sub_1.end > clause_b.end
    assert [p for p in rera if p.startswith("s.18(1)(")] == ["s.18(1)(a)", "s.18(1)(b)"]


def test_the_closing_words_are_indexed_under_the_sub_section() -> None:
    from civicsetu.ingest.chunker import chunk_document
    from civicsetu.ingest.loader import load_document

    act = next(a for a in bundled_acts() if a.id == RERA)
    doc = load_document(act.path, doc_id=act.id)
    provisions, _ = parse_provisions(doc.id, doc.text)
    chunks = chunk_document(doc, provisions, max_chars=300, min_chars=60)
    at = doc.text.index("he shall be liable on demand to the allottees")
    assert [c.provision_path for c in chunks if c.start <= at < c.end] == ["s.18(1)"]


def _parse(text: str) -> dict[str, Provision]:
    return {p.path: p for p in parse_provisions("x", text)[0]}


def test_closing_words_go_to_the_lists_parent_with_what_follows_them() -> None:
    text = ("## Section 7 - Penalty.\n\nWhoever--\n\n(a) sells a forged stamp; or\n\n"
            "(b) keeps one for sale,\n\nshall be punishable with fine:\n\nProvided that a first "
            "offender pays less.\n\n"
            "## Section 8 - Relief.\n\n(1) If the court is satisfied--\n\n(a) that the deed is "
            "void; or\n\n(b) that it was obtained by fraud,\n\nthe court may direct--\n\n"
            "(i) that it be cancelled; and\n\n(ii) that the fee be refunded.\n\n"
            "(2) The order is final.\n")
    by_path = _parse(text)
    assert by_path["s.7(b)"].text == "(b) keeps one for sale,"
    assert by_path["s.7"].text.endswith("shall be punishable with fine:\n\nProvided that a "
                                        "first offender pays less.")
    # The list the closing words introduce is the sub-section's too.
    assert [p for p in by_path if p.startswith("s.8(1)(")] == [
        "s.8(1)(a)", "s.8(1)(b)", "s.8(1)(i)", "s.8(1)(ii)"]
    assert by_path["s.8(1)(b)"].text == "(b) that it was obtained by fraud,"
    assert by_path["s.8(2)"].text == "(2) The order is final."


def test_sub_clauses_closing_words_belong_to_their_clause_not_the_sub_section() -> None:
    text = ("## Section 5 - Duties.\n\n(3) A seller shall--\n\n(a) deliver the goods; and\n\n"
            "(b) insure them where--\n\n(i) they are perishable; or\n\n(ii) the buyer asks,\n\n"
            "at the seller's own cost.\n\nExplanation.--For the purposes of this clause, a buyer "
            "asks in writing.\n\n(4) The end.\n")
    by_path = _parse(text)
    assert by_path["s.5(3)(b)(ii)"].text == "(ii) the buyer asks,"
    assert "at the seller's own cost." in by_path["s.5(3)(b)"].text
    assert "a buyer asks in writing" in by_path["s.5(3)(b)"].text
    assert by_path["s.5(3)"].end == by_path["s.5(3)(b)"].end  # nothing left to (3) itself


@pytest.mark.parametrize(("text", "holder", "words"), [
    # A clause whose own text runs on: its unnumbered list of sections.
    ("## Section 7 - Extent.\n\nThe Code applies to--\n\n(a) suits;\n\n(b) the following "
     "sections, that is to say,--\n\nsection 9,\n\nsections 91 and 92,\n\nand sections 96 "
     "to 112.\n", "s.7(b)", "sections 96 to 112"),
    # A clause broken across paragraphs, then the next clause: the break was (b)'s own.
    ("## Section 4 - Notice.\n\nThe notice shall state--\n\n(a) the name;\n\n(b) the "
     "amount due,\n\nwith interest to date; and\n\n(c) the place of payment.\n",
     "s.4(b)", "with interest to date"),
    # The entries of a definitions list keep what follows them.
    ("## Section 2 - Definitions.\n\nIn this Act, unless the context otherwise requires,--\n\n"
     "(a) \"buyer\" means a person who buys;\n\n(b) \"seller\" means a trader,\n\nwhether or "
     "not registered;\n\n(c) \"trader\" means a dealer.\n", "s.2(b)", "whether or not"),
    ("## Section 2 - Definitions.\n\nIn this Act, unless the context otherwise requires,--\n\n"
     "(a) \"buyer\" means a person who buys;\n\n(b) \"seller\" means a trader,\n\nand includes "
     "an agent.\n", "s.2(b)", "and includes an agent"),
    # A list of one item, or items a colon does not introduce, has no closing words.
    ("## Section 6 - Fees.\n\nThe fee is payable--\n\n(a) on filing,\n\nby the applicant.\n",
     "s.6(a)", "by the applicant"),
    # Capitalised text after the last item is a new sentence, not closing words.
    ("## Section 6 - Fees.\n\nThe fee is payable--\n\n(a) on filing; or\n\n(b) on appeal;\n\n"
     "Nothing in this section applies to the State.\n", "s.6(b)", "Nothing in this section"),
])
def test_what_only_looks_like_closing_words_stays_where_it_is(
        text: str, holder: str, words: str) -> None:
    assert words in _parse(text)[holder].text
