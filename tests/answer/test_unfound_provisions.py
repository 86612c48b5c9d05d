"""A question that names a provision the index does not hold, or an Act that was not yet
law on the date asked about, is told so: it is never answered from another provision as if
it were the one asked about (real bundled index)."""

from __future__ import annotations

from datetime import date

import pytest

from civicsetu.answer.messages import (
    NOT_YET_LAW_NOTICE,
    UNFOUND_ANYWHERE_NOTICE,
    UNFOUND_NEAREST_NOTICE,
    UNFOUND_PROVISION_NOTICE,
)
from civicsetu.engine import Engine
from civicsetu.errors import InputError, NotFoundError
from civicsetu.search.hybrid import SearchFilters

RERA = "Real Estate (Regulation and Development) Act, 2016"
CONTRACT = "Indian Contract Act, 1872"


@pytest.mark.slow
@pytest.mark.parametrize(("query", "title", "label"), [
    ("Section 999 of RERA", RERA, "Section 999"),
    ("What does section 999 of the Real Estate (Regulation and Development) Act say?",
     RERA, "Section 999"),
    ("RERA's section 93", RERA, "Section 93"),
    ("What does section 45A of the Indian Contract Act say about minors?", CONTRACT,
     "Section 45A"),
    ("Rule 5 of RERA", RERA, "Rule 5"),
])
def test_a_missing_provision_of_a_named_act_abstains_and_says_so(
        bundled: Engine, query: str, title: str, label: str) -> None:
    answer = bundled.ask(query)
    assert answer.abstained and not answer.citations, answer.text
    assert UNFOUND_PROVISION_NOTICE.format(title=title, label=label) \
        in answer.notices, answer.notices


@pytest.mark.slow
@pytest.mark.parametrize(("query", "label", "nearest", "cited_section"), [
    ("Section 18(9) of RERA", "Section 18(9)", "Section 18", "s.18"),
    ("What is section 18(1)(z) of RERA?", "Section 18(1)(z)", "Section 18(1)", "s.18"),
])
def test_a_missing_sub_provision_shows_the_enclosing_one_with_a_notice(
        bundled: Engine, query: str, label: str, nearest: str, cited_section: str) -> None:
    answer = bundled.ask(query)
    assert not answer.abstained
    lead = answer.citations[0].provision_id
    assert lead.startswith("the-real-estate-regulation-and-development-act-2016#"
                           + cited_section + "("), lead
    assert UNFOUND_NEAREST_NOTICE.format(title=RERA, label=label, nearest=nearest) \
        in answer.notices, answer.notices


@pytest.mark.slow
def test_a_reference_naming_no_act_that_no_document_holds(bundled: Engine) -> None:
    answer = bundled.ask("What does section 999 say?")
    assert answer.abstained and not answer.citations
    assert UNFOUND_ANYWHERE_NOTICE.format(label="Section 999") in answer.notices


@pytest.mark.slow
@pytest.mark.parametrize("query", [
    "Sec 59 of RERA",
    "RERA section 59",
    "Section 18(1)(B) of RERA",  # the law prints its clause letters lower-case
])
def test_existing_provisions_are_answered_without_a_notice(bundled: Engine,
                                                           query: str) -> None:
    answer = bundled.ask(query)
    assert not answer.abstained
    assert not [n for n in answer.notices if "as ingested has no" in n], answer.notices


@pytest.mark.slow
def test_a_section_of_another_law_is_not_attributed_to_an_act_named_elsewhere(
        bundled: Engine) -> None:
    # Section 420 belongs to the IPC (not ingested), not to RERA, named later.
    answer = bundled.ask("Does section 420 IPC apply to my RERA complaint against the "
                         "builder?")
    assert not [n for n in answer.notices if "as ingested has no" in n], answer.notices


@pytest.mark.slow
def test_a_named_act_not_yet_law_on_the_date_asked_is_not_answered_from_another(
        bundled: Engine) -> None:
    # RERA came into force on 1 May 2016 (the date its section 1 prints); the
    # Registration Act's section 18 must not stand in for RERA's.
    old = SearchFilters(as_of=date(1990, 1, 1))
    answer = bundled.ask("Section 18 of RERA", filters=old)
    assert answer.abstained and not answer.citations
    assert NOT_YET_LAW_NOTICE.format(title=RERA, date="1990-01-01",
                                     start="2016-05-01") in answer.notices
    # One of two named Acts in force: answered from it, the other one noted.
    both = bundled.ask("Compare refunds to homebuyers under RERA and the Consumer "
                       "Protection Act, 2019", filters=SearchFilters(as_of=date(2018, 1, 1)))
    assert not both.abstained
    assert all("consumer-protection" not in c.provision_id for c in both.citations)
    assert any(n.startswith("The Consumer Protection Act, 2019 was not yet law on 2018-01-01")
               for n in both.notices), both.notices


@pytest.mark.slow
def test_a_date_before_every_document_is_an_input_error(bundled: Engine) -> None:
    with pytest.raises(InputError, match="no ingested document was law on 1800-01-01"):
        bundled.ask("What is a sale?", filters=SearchFilters(as_of=date(1800, 1, 1)))


@pytest.mark.slow
def test_show_as_of_a_date_before_the_act_is_not_found(bundled: Engine) -> None:
    full_id = "the-real-estate-regulation-and-development-act-2016#s.59(1)"
    with pytest.raises(NotFoundError, match="was not law on 1900-01-01: the Real Estate"):
        bundled.show(full_id, date(1900, 1, 1))
    assert bundled.show(full_id, date(2020, 1, 1)).path == "s.59(1)"
