from dataclasses import replace

import pytest

from civicsetu.answer.messages import ABSTENTION
from civicsetu.answer.verify import fold, locate_quote, verify_citations
from civicsetu.engine import Engine
from tests.conftest import RERA


def test_demo_answer_quotes_section_59_verbatim(bundled: Engine) -> None:
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    assert not answer.abstained
    first = answer.citations[0]
    assert first.provision_id == f"{RERA}#s.59(1)"
    source = bundled.store.document(RERA).text
    assert fold(source[first.start:first.end]) == first.quote
    assert "ten per cent" in first.quote and first.quote in answer.text
    assert "Section 59(1) of the Real Estate (Regulation and Development) Act, 2016" in answer.text
    assert first.title == "Punishment for nonregistration under section 3"


@pytest.mark.parametrize("query", [
    "What GST rate applies to an under-construction flat?",
    "What registration fee does MahaRERA charge per square metre in Mumbai?",
    "What is the stamp duty percentage on a flat purchase in Mumbai?",
])
def test_abstains_when_the_corpus_cannot_answer(bundled: Engine, query: str) -> None:
    answer = bundled.ask(query)
    assert answer.abstained and answer.text == ABSTENTION and answer.citations == []
    assert answer.notices
    assert len(answer.retrieved) >= 10  # retrieval is still reported for inspection


def test_every_citation_of_an_answer_verifies(bundled: Engine) -> None:
    answer = bundled.ask("Who can file a complaint with the RERA Authority?")
    ok, rejected = verify_citations(answer.citations, bundled.store)
    assert ok == answer.citations and rejected == []


def test_tampered_or_misplaced_quotes_are_rejected(bundled: Engine) -> None:
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    good = answer.citations[0]
    tampered = replace(good, quote=good.quote.replace("ten per cent", "two per cent"))
    elsewhere = replace(good, provision_id=f"{RERA}#s.60")
    unknown = replace(good, provision_id=f"{RERA}#s.999")
    ok, rejected = verify_citations([good, tampered, elsewhere, unknown], bundled.store)
    assert ok == [good]
    assert [r.reason for r in rejected] == [
        "quote is not verbatim at its offsets", "quote lies outside the cited provision",
        "cites a provision that is not in the index"]


def test_locate_quote_ignores_line_wrapping_only() -> None:
    text = "he shall be liable to a\npenalty which may extend"
    assert locate_quote(text, "liable to a penalty") == (12, 31)
    assert locate_quote(text, "liable to the penalty") is None


def test_state_scoped_question_abstains_and_points_to_the_act(bundled: Engine) -> None:
    answer = bundled.ask("What documents must a promoter submit for project registration "
                         "in Maharashtra?")
    assert answer.abstained
    assert any("no Maharashtra rules" in n for n in answer.notices)
    assert any(n.startswith("The nearest central provision in the corpus is Section 4")
               for n in answer.notices)


def test_an_acronym_spelled_out_in_the_question_is_not_unknown(bundled: Engine) -> None:
    answer = bundled.ask("A builder company kept selling an unregistered project with the "
                         "managing director's knowledge. Can the MD be personally liable?")
    assert not answer.abstained


@pytest.mark.slow
def test_the_continuing_form_of_a_penalty_joins_the_answer(bundled: Engine) -> None:
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    cited = [c.provision_id for c in answer.citations]
    assert cited[:2] == [f"{RERA}#s.59(1)", f"{RERA}#s.59(2)"]
    assert "continues to violate" in answer.citations[1].quote


@pytest.mark.slow
def test_a_period_is_followed_by_its_extension(bundled: Engine) -> None:
    answer = bundled.ask("Within how many years must a consumer complaint be filed under "
                         "the Consumer Protection Act?")
    cited = [c.provision_id.partition("#")[2] for c in answer.citations]
    assert cited[:2] == ["s.69(1)", "s.69(2)"]
    assert "sufficient cause" in answer.citations[1].quote


def test_a_see_also_for_another_party_is_left_out(bundled: Engine) -> None:
    # The question names no party; the lead is the promoter's penalty. The agents' duty to
    # register (s.9, "Registration of real estate agents") shares "registration" and "real
    # estate project" with the question but is about someone else; the promoter's duty
    # the penalty enforces (s.3) is the see-also.
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    cited = [c.provision_id for c in answer.citations]
    assert cited[:2] == [f"{RERA}#s.59(1)", f"{RERA}#s.59(2)"]
    assert not any(c.startswith(f"{RERA}#s.9(") for c in cited)
    assert f"{RERA}#s.3(1)" in cited
    # Naming the agent asks about the agent: the rule is off.
    agent = bundled.ask("What is the penalty for a real estate agent who does not register?")
    assert any(c.provision_id.startswith(f"{RERA}#s.62") for c in agent.citations)
