"""An Act's initials are a name the corpus knows, with or without registered aliases."""

from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.initialisms import text_initialisms
from civicsetu.search.routing import title_initials


def test_common_names_keep_the_first_title_words_and_the_final_act() -> None:
    rera = title_initials("The Real Estate (Regulation and Development) Act, 2016")
    assert {"RERA", "RERDA"} <= rera
    assert "RTI" in title_initials("The Right to Information Act, 2005")
    assert "TPA" in title_initials("The Transfer of Property Act, 1882")


def test_a_plain_file_acts_initials_are_not_an_unknown_name(
        empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])  # no registry, so no aliases
    known = empty_engine.ask("What is the penalty for unlawful eviction under the MTA?")
    assert not known.abstained
    assert not any("never mentions" in n for n in known.notices)
    assert any(c.provision_id.endswith("#s.4") for c in known.citations)
    unknown = empty_engine.ask("What is the penalty for unlawful eviction under the QZX?")
    assert unknown.abstained
    assert any("never mentions QZX" in n for n in unknown.notices)


def test_a_party_named_in_the_facts_is_not_an_unknown_subject(
        empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])
    # A party to the user's own facts is not what is asked about, however it is written:
    # one word, a sentence's first word before it, an honorific, a full name after a party
    # word or a dealing, a family.
    for facts in ("My landlord Sharma evicted me without an order of the Rent Court.",
                  "Can Sharma evict a tenant without an order of the Rent Court?",
                  "Suppose Sharma evicted me without an order of the Rent Court.",
                  "My landlord Mr Sharma evicted me without an order of the Rent Court.",
                  "Shri Prakash Sharma evicted me without an order of the Rent Court.",
                  "My landlord Prakash Sharma evicted me without an order of the Rent Court.",
                  "I rented from Kavya Estates and was evicted without an order of the Rent "
                  "Court.",
                  "The Sharma family evicted me without an order of the Rent Court."):
        party = empty_engine.ask(f"{facts} What penalty does the landlord face?")
        assert not any("never mentions" in n for n in party.notices), (facts, party.notices)
        assert any(c.provision_id.endswith("#s.4") for c in party.citations), facts


def test_a_case_body_or_thing_the_corpus_never_mentions_abstains(
        empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])
    # A case: a court's decision in it, or "v." beside it.
    case = empty_engine.ask("Did the Supreme Court in Orvella Homes allow eviction without "
                            "an order of the Rent Court?")
    assert case.abstained
    assert any("Orvella, Homes" in n for n in case.notices), case.notices
    versus = empty_engine.ask("Did Marwick v. Tallis allow eviction without an order of the "
                              "Rent Court?")
    assert versus.abstained and any("Marwick" in n for n in versus.notices)
    # One word with an article: a thing, not a person.
    thing = empty_engine.ask("Within what time must the landlord refund the Zorblax deposit?")
    assert thing.abstained and any("never mentions Zorblax" in n for n in thing.notices)
    # Several words in no party's place: a scheme, a document.
    scheme = empty_engine.ask("Is a Quellan Card needed before a tenant is evicted?")
    assert scheme.abstained and any("Quellan" in n for n in scheme.notices)


@pytest.mark.parametrize(("text", "acronym"), [
    ("an appeal to the National Company Law Appellate Tribunal within thirty days", "nclat"),
    ("Chairperson of the National Company Law Appellate Tribunal", "nclat"),
    ("the Securities and Exchange Board of India", "sebi"),
    ("under the Right to Information Act", "rti"),
    ("Every National Company Law Tribunal shall", "nclt"),  # a sentence's first word
])
def test_a_name_written_out_gives_its_initials(text: str, acronym: str) -> None:
    assert acronym in text_initialisms(text)


@pytest.mark.parametrize(("text", "acronym"), [
    ("Chairperson of the National Company Law Appellate Tribunal", "cla"),  # a slice
    ("the National Company Law Appellate Tribunal", "na"),  # two letters name too much
    ("the national company law appellate tribunal", "nclat"),  # no capitalised name
])
def test_slices_short_initials_and_plain_words_give_none(text: str, acronym: str) -> None:
    assert acronym not in text_initialisms(text)


TRIBUNAL_ACT = """---
title: "The Tenancy Appeals Act, 2099."
source: "test fixture"
---
# The Tenancy Appeals Act, 2099.

## Section 1 - Short title.

This Act may be called the Tenancy Appeals Act, 2099.

## Section 2 - Appeal against eviction orders.

A tenant aggrieved by an order of eviction may prefer an appeal to the State Rent Appellate
Tribunal within forty-five days of the order.
"""


def test_an_acronym_a_document_spells_out_is_no_unknown_name(
        empty_engine: Engine, tmp_path: Path) -> None:
    act = tmp_path / "tenancy-appeals-act-2099.md"
    act.write_text(TRIBUNAL_ACT, encoding="utf-8")
    empty_engine.ingest([SourceSpec(act)])
    known = empty_engine.ask("Within what time can a tenant appeal an eviction order to the "
                             "SRAT?")
    assert not any("never mentions" in n for n in known.notices), known.notices
    assert not known.abstained and any(c.provision_id.endswith("#s.2")
                                       for c in known.citations)
    unknown = empty_engine.ask("Within what time can a tenant appeal an eviction order to "
                               "the SRQT?")
    assert unknown.abstained and any("never mentions SRQT" in n for n in unknown.notices)


@pytest.mark.slow
def test_nclat_is_known_to_the_insolvency_code(bundled: Engine) -> None:
    answer = bundled.ask("What is the time limit to appeal an NCLT order to the NCLAT?")
    assert not answer.abstained, answer.notices
    assert any(c.provision_id.endswith("#s.61(2)") for c in answer.citations)
