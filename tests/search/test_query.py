import pytest

from civicsetu.search.query import (
    AliasTable,
    analyze,
    fts_query,
    named_documents,
    quoted_passages,
)
from civicsetu.store.base import DocumentInfo

RERA = DocumentInfo("rera", "Real Estate (Regulation and Development) Act, 2016", "", "", "IN",
                    "act", ("RERA", "Real Estate Act"), "", 0, 0)
CPA = DocumentInfo("cpa", "Consumer Protection Act, 2019", "", "", "IN", "act",
                   ("Consumer Protection Act",), "", 0, 0)


@pytest.mark.parametrize(
    ("query", "paths", "doc"),
    [
        ("Sec 59 of RERA", ["s.59"], "rera"),
        ("what does s. 11(4)(a) say", ["s.11(4)(a)"], None),
        ("Section 18 of the RERA Act", ["s.18"], "rera"),
        ("section 19(3) and section 4", ["s.19(3)", "s.4"], None),
        ("Rule 7(2)", ["r.7(2)"], None),
        ("Article 21", ["art.21"], None),
        ("sections 2A of the Consumer Protection Act", ["s.2A"], "cpa"),
        ("What is the penalty for not registering?", [], None),
    ],
)
def test_provision_references(query: str, paths: list[str], doc: str | None) -> None:
    analysis = analyze(query, [RERA, CPA])
    assert [r.path for r in analysis.references] == paths
    if paths:
        assert analysis.references[0].doc_id == doc


def test_named_documents_and_terms() -> None:
    a = analyze("Compare RERA with the Consumer Protection Act on refunds by a builder",
                [RERA, CPA])
    assert a.named_docs == ["rera", "cpa"]
    assert "refunds" in a.terms and "rera" not in a.terms and "consumer" not in a.terms
    assert "promoter" in a.expansions


COMPANIES_2013 = DocumentInfo("co13", "Companies Act, 2013", "", "", "IN", "act",
                              ("Companies Act",), "", 0, 0)
COMPANIES_1956 = DocumentInfo("co56", "Companies Act, 1956", "", "", "IN", "act",
                              ("Companies Act",), "", 0, 0)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("What is Section 18 of the Consumer Protection Act, 1986?",
         "Consumer Protection Act, 1986"),
        ("what does the consumer protection act 1986 say", "Consumer Protection Act, 1986"),
        ("Is the Consumer Protection Act of 1986 still law?", "Consumer Protection Act, 1986"),
        ("RERA 2017 section 3", "Real Estate (Regulation and Development) Act, 2017"),
        ("Section 3 of the Indian Consumer Protection Act, 1986",
         "Indian Consumer Protection Act, 1986"),
    ],
)
def test_a_name_with_another_year_names_another_law(query: str, asked: str) -> None:
    a = analyze(query, [RERA, CPA])
    assert a.named_docs == [] and a.references == []
    assert [o.asked for o in a.other_years] == [asked]


@pytest.mark.parametrize(
    "query",
    [
        "What is Section 18 of the Consumer Protection Act, 2019?",
        "Section 18 of the Consumer Protection Act 2019",
        "Under RERA, 2000 sq ft plots need registration?",  # a number of things, no year
        "Under the Consumer Protection Act, who is a consumer?",
    ],
)
def test_a_name_with_its_own_year_or_none_names_the_act(query: str) -> None:
    a = analyze(query, [RERA, CPA])
    assert a.named_docs and a.other_years == []


def test_a_name_two_ingested_acts_share_is_read_with_its_year() -> None:
    docs = [COMPANIES_2013, COMPANIES_1956]
    assert named_documents("section 5 of the Companies Act 1956", docs)[0][0] == "co56"
    assert named_documents("section 5 of the Companies Act, 2013", docs)[0][0] == "co13"
    assert analyze("the Companies Act, 1913", docs).other_years[0].asked == \
        "Companies Act, 1913"


def test_acronyms_match_case_sensitively() -> None:
    assert analyze("the era of real estate", [RERA]).named_docs == []


HINDI = DocumentInfo("dock", "Dock Workers Act, 1948", "", "", "IN", "act",
                     ("डॉक कर्मकार अधिनियम",), "", 0, 0)


@pytest.mark.parametrize(
    ("query", "docs"),
    [
        ("A builder’s delay — what does RERA say?", ["rera"]),  # non-ASCII question
        ("Is the real estate act — or the consumer protection act — stricter?", ["rera", "cpa"]),
        ("the İndian real estate act and the CONSUMER PROTECTION ACT", ["rera", "cpa"]),
        ("what does the ſtate's real eſtate act say", ["rera"]),  # "ſ" matches "s" in a regex
        ("section 3 of the डॉक कर्मकार अधिनियम", ["dock"]),  # a non-ASCII name
        ("rerA is no name here; nor is the era", []),
    ],
)
def test_names_are_found_through_the_first_word_index(query: str, docs: list[str]) -> None:
    """The table checks only names that start with one of the question's words, yet finds
    what a regex over every name finds, for any script and case."""
    table = AliasTable.of([RERA, CPA, HINDI])
    found = [d for d, _, _ in named_documents(query, table)]
    assert found == docs
    assert len(table.candidates(query.lower())) < len(table.entries)


def test_fts_query_quotes_user_text() -> None:
    assert fts_query(['he said "no"', "OR", "x*"]) == '"he said  no" OR "OR" OR "x*"'


@pytest.mark.parametrize(
    ("query", "quotes"),
    [
        ("Section 18 says I get compensation 'in the manner as provided under this Act'. Who?",
         ["in the manner as provided under this Act"]),
        ("Does “carpet area” include the balcony, or is it \"the net usable floor area\"?",
         ["the net usable floor area"]),
        # An apostrophe opens nothing, and one quoted word is a term, not a passage.
        ("Is a flat buyer's grievance a 'service' under the builder's contract?", []),
    ],
)
def test_quoted_passages_of_three_words_or_more(query: str, quotes: list[str]) -> None:
    assert quoted_passages(query) == quotes
    assert analyze(query, []).quotes == quotes
