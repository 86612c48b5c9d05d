"""Property tests on structure detection: no crash, no hang, no lost text, for every
document type and numbering style, and for the PDF line joiner."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from civicsetu.ingest.readers.pdf import _join_pages
from civicsetu.ingest.statute import FOOTNOTES_HEADING, parse_provisions
from civicsetu.ingest.units import find_units
from civicsetu.types import DocType

_pieces = st.sampled_from([
    "## Section 1 - A.", "## Section 2A - B.", "(1) x", "(a) y;", "(i) z", "(A) w",
    "Provided that", "### Footnotes", "1. note", "^1[(b) q", "(iv)", "(h) t:—", "",
    "18. Return of amount.—(1) If the promoter fails", "5.", "Title of rule",
    "Rule 3 - Fees", "3-(1)", "4-", "7. Fees.–The fee", "2016. A year.—", "ARTICLE IV",
    "Section 5.2 Term. This", "1.1 Definitions", "THE FIRST SCHEDULE", "FORM 'A'",
    "( 1 ) spaced", "4 [ ( a ) bracketed ;]", "namely:--", "section 3 to 19",
])
_text = st.lists(
    st.one_of(_pieces, st.text(alphabet=st.characters(blacklist_categories=("Cs",)),
                               max_size=40)),
    max_size=50,
).map("\n".join)


def _covered(text: str, doc_type: DocType) -> None:
    """Every non-space character lies in a provision, the preamble, a unit heading or a
    footnotes block: parsing may skip headings, never body text."""
    provisions, _ = parse_provisions("fuzz", text, doc_type)
    paths = [p.path for p in provisions]
    assert len(paths) == len(set(paths))
    inside = bytearray(len(text))
    for p in provisions:
        assert 0 <= p.start <= p.end <= len(text)
        assert text[p.start:p.end] == p.text
        inside[p.start:p.end] = b"\x01" * (p.end - p.start)
    found = find_units(text, doc_type)
    units = [u for i, u in enumerate(found) if u.path not in {v.path for v in found[:i]}]
    if units:
        inside[:units[0].start] = b"\x01" * units[0].start
        for unit in found:  # headings, a repeated one included, are not body text
            inside[unit.start:unit.body_start] = b"\x01" * (unit.body_start - unit.start)
    for m in FOOTNOTES_HEADING.finditer(text):  # notes run to the next unit
        end = min((u.start for u in units if u.start > m.start()), default=len(text))
        inside[m.start():end] = b"\x01" * (end - m.start())
    lost = [i for i, ch in enumerate(text) if not ch.isspace() and not inside[i]]
    assert not lost, text[max(0, lost[0] - 40):lost[0] + 40]


@settings(max_examples=300, deadline=None)
@given(_text, st.sampled_from(list(DocType)))
def test_no_crash_no_lost_text_for_every_doc_type(text: str, doc_type: DocType) -> None:
    _covered(text, doc_type)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=200, max_value=2000))
def test_no_hang_on_long_pathological_input(n: int) -> None:
    text = "\n".join(["1. A.—(1) x", "(a) y", "2016. B.—", "( i ) z", "namely:--"] * (n // 5))
    t0 = time.perf_counter()
    for doc_type in DocType:
        parse_provisions("long", text, doc_type)
    assert time.perf_counter() - t0 < 20


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Zl",
                                                                               "Zp", "Cc")),
                                 max_size=60), max_size=12), min_size=1, max_size=5))
def test_pdf_joiner_keeps_every_word(pages: list[list[str]]) -> None:
    pages = [[line.strip() for line in lines] for lines in pages]
    text, starts = _join_pages(pages)
    assert len(starts) == len(pages)
    assert list(starts) == sorted(starts) and all(0 <= s <= len(text) for s in starts)
    joined = "".join(text.split()).replace("-", "")
    original = "".join("".join(line.split()) for lines in pages for line in lines)
    assert joined == original.replace("-", "")
