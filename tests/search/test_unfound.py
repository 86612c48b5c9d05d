"""The parts of a named provision that search/unfound.py looks up, and which references the
question ties to an Act."""

from __future__ import annotations

import pytest

from civicsetu.search.query import analyze
from civicsetu.search.unfound import ancestors, spellings
from civicsetu.store.base import DocumentInfo

RERA = DocumentInfo("rera", "Real Estate (Regulation and Development) Act, 2016", "", "", "IN",
                    "act", ("RERA", "Real Estate Act"), "", 0, 0)
CPA = DocumentInfo("cpa", "Consumer Protection Act, 2019", "", "", "IN", "act",
                   ("Consumer Protection Act",), "", 0, 0)


def test_ancestors_nearest_first() -> None:
    assert ancestors("s.18(1)(z)") == ["s.18(1)", "s.18"]
    assert ancestors("s.2(zk)") == ["s.2"]
    assert ancestors("s.999") == []


def test_spellings_lower_the_letter_parts_only() -> None:
    assert spellings("s.18(1)(B)") == ["s.18(1)(B)", "s.18(1)(b)"]
    assert spellings("s.5(24A)") == ["s.5(24A)"]
    assert spellings("s.80IB") == ["s.80IB"]


@pytest.mark.parametrize(("query", "doc", "tied"), [
    ("Section 999 of RERA", "rera", True),
    ("section 3 of the Consumer Protection Act", "cpa", True),
    ("RERA section 59", "rera", True),
    ("RERA's s.59", "rera", True),
    ("Under RERA, section 59", "rera", True),
    # named elsewhere in the question: the only Act named, but not the reference's own
    ("section 420 IPC and my RERA complaint", "rera", False),
    ("Does section 18 give a refund, as RERA promises?", "rera", False),
    ("section 12", None, False),
])
def test_a_reference_is_tied_to_an_act_named_beside_it(query: str, doc: str | None,
                                                       tied: bool) -> None:
    ref = analyze(query, [RERA, CPA]).references[0]
    assert (ref.doc_id, ref.tied) == (doc, tied)


def test_beside_wins_over_the_only_act_rule_when_two_are_named() -> None:
    refs = analyze("Compare RERA section 31 with section 35 of the Consumer Protection Act",
                   [RERA, CPA]).references
    assert [(r.path, r.doc_id, r.tied) for r in refs] == [("s.31", "rera", True),
                                                          ("s.35", "cpa", True)]
