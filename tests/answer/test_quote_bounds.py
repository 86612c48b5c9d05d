"""A quote says what the law says: it starts where a sentence or a clause starts, ends
where one ends, and opening words that introduce a list ("is void, unless", "such
person--") are never shown without it (real bundled index)."""

from __future__ import annotations

import re

import pytest

from civicsetu.answer.messages import LIST_CONTINUES_NOTICE
from civicsetu.engine import Engine

CONTRACT = "the-indian-contract-act-1872"
IBC = "the-insolvency-and-bankruptcy-code-2016"
# How opening words that introduce a list end ("namely:—", "such person--", "void, unless").
_OPENS_A_LIST = re.compile(r"(?:—|--|-|–|\b(?:unless|if|who|which|that|namely|where))\s*$")
# What may stand just before a quote's first character in the source: the end of a
# sentence or clause, a dash or colon that opens a list, a bracket or amendment mark.
_BEFORE_A_START = re.compile(r"(?:^|[.;:—\-\]\[)(]|\^\w{1,4}|\*|[.;:]\s*(?:or|and))$")

QUESTIONS = [
    "Section 25 of the Indian Contract Act",
    "What does section 29A of the IBC say?",
    "What are the functions of a real estate agent under RERA?",
    "What is the procedure for laying RERA rules before Parliament?",
    "Who is not eligible to be a resolution applicant?",
    "When can the Authority revoke a promoter's registration?",
    "What must a promoter enclose with an application for registration?",
    "What is the penalty for not registering a real estate project?",
]


@pytest.mark.slow
@pytest.mark.parametrize("query", QUESTIONS)
def test_quotes_start_and_end_where_the_law_does(bundled: Engine, query: str) -> None:
    answer = bundled.ask(query)
    assert answer.citations, answer.text
    for c in answer.citations:
        source = bundled.store.document(c.provision_id.partition("#")[0]).text
        before = source[:c.start].rstrip()
        assert _BEFORE_A_START.search(before[-12:]) or not before, (c.label, before[-40:])
        assert not _OPENS_A_LIST.search(c.quote), (c.label, c.quote[-80:])


@pytest.mark.slow
def test_opening_words_are_quoted_with_the_list_they_open(bundled: Engine) -> None:
    answer = bundled.ask("Section 25 of the Indian Contract Act")
    lead = answer.citations[0]
    assert lead.provision_id == f"{CONTRACT}#s.25"
    assert lead.quote.startswith("An agreement made without consideration is void, unless")
    for words in ("(1) it is expressed in writing", "(2) it is a promise to compensate",
                  "(3) it is a promise, made in writing",
                  "In any of these cases, such an agreement is a contract."):
        assert words in lead.quote


@pytest.mark.slow
def test_a_list_too_long_to_quote_says_it_goes_on(bundled: Engine) -> None:
    answer = bundled.ask("What does section 29A of the IBC say?")
    lead = answer.citations[0]
    assert lead.provision_id == f"{IBC}#s.29A"
    assert "such person--" in lead.quote and "(a) is an undischarged insolvent;" in lead.quote
    assert LIST_CONTINUES_NOTICE.format(label=lead.label) in answer.notices
