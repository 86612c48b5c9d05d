"""Complete answers on the real bundled index: a quote is shown with the provisions it
needs to be read correctly (answer/extractive.py: completions, referents, proviso rules)."""

import re

import pytest

from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError
from civicsetu.types import section_of
from tests.conftest import RERA

CPA = "the-consumer-protection-act-2019"
RTI = "the-right-to-information-act-2005"
_SIBLING = re.compile(r"sub-section \((\d{1,3})\)")


@pytest.mark.slow
def test_an_extension_is_shown_with_the_period_it_extends(bundled: Engine) -> None:
    answer = bundled.ask("Can a consumer complaint filed late still be entertained if the "
                         "complainant shows sufficient cause?")
    cited = [c.provision_id for c in answer.citations]
    assert f"{CPA}#s.69(2)" in cited and f"{CPA}#s.69(1)" in cited
    period = answer.citations[cited.index(f"{CPA}#s.69(1)")]
    assert "two years" in period.quote and period.quote in answer.text


@pytest.mark.slow
def test_a_quoted_proviso_comes_with_the_rule_it_qualifies(bundled: Engine) -> None:
    # Without the rule this answer leads with s.20(1)'s hearing proviso alone.
    answer = bundled.ask("What penalty may be imposed on the information officer who "
                         "ignored my RTI request?")
    quotes = [c.quote for c in answer.citations if c.provision_id == f"{RTI}#s.20(1)"]
    assert any("two hundred and fifty rupees each day" in q for q in quotes)
    # A proviso of s.20(1) is never shown before (or without) the rule it qualifies.
    for i, c in enumerate(answer.citations):
        if c.quote.startswith("Provided") and c.provision_id == f"{RTI}#s.20(1)":
            assert any(d.provision_id == c.provision_id and not d.quote.startswith("Provided")
                       for d in answer.citations[:i])


@pytest.mark.slow
def test_a_pinpointed_reference_of_the_quote_is_quoted_too(bundled: Engine) -> None:
    answer = bundled.ask("Which bank account does the RERA Authority ask the bank to freeze "
                         "after it revokes a project's registration?")
    cited = [c.provision_id for c in answer.citations]
    assert f"{RERA}#s.7(4)" in cited
    account = answer.citations[cited.index(f"{RERA}#s.4(2)(l)(D)")]
    assert "seventy per cent" in account.quote and "separate account" in account.quote


@pytest.mark.slow
def test_a_whole_section_a_penalty_names_is_not_added(bundled: Engine) -> None:
    # s.59(1) punishes contravening "section 3": s.3 is the duty, not part of the penalty.
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    cited = [c.provision_id for c in answer.citations]
    assert cited[:2] == [f"{RERA}#s.59(1)", f"{RERA}#s.59(2)"]
    assert f"{RERA}#s.3" not in cited


@pytest.mark.slow
@pytest.mark.parametrize("query", [
    "Can a consumer complaint filed late still be entertained if the complainant shows "
    "sufficient cause?",
    "How long does a consumer have to file a complaint, and can the delay be condoned?",
    "What is the penalty for not registering a real estate project?",
    "Within what time must an appeal against an order of the State Commission be filed?",
])
def test_the_lead_quote_never_names_a_sibling_sub_section_it_leaves_out(
        bundled: Engine, query: str) -> None:
    answer = bundled.ask(query)
    lead = answer.citations[0]
    doc, _, path = lead.provision_id.partition("#")
    cited = {c.provision_id for c in answer.citations}
    for number in _SIBLING.findall(lead.quote):
        sibling = f"{doc}#{section_of(path)}({number})"
        if sibling != lead.provision_id and _exists(bundled, sibling):
            assert sibling in cited, (query, sibling)


def _exists(engine: Engine, full_id: str) -> bool:
    try:
        engine.store.provision(full_id)
    except NotFoundError:  # the Act has no such sub-section
        return False
    return True


@pytest.mark.slow
def test_a_penalty_question_led_by_a_duty_is_shown_that_duty_s_penalty(bundled: Engine) -> None:
    # s.13(1) (no advance above ten per cent without an agreement) has no penalty of its
    # own; s.61 punishes any other contravention except of sections 3 and 4.
    answer = bundled.ask("Which RERA penalty applies when a promoter takes more than ten per "
                         "cent of the cost as an advance without a registered agreement for "
                         "sale?")
    cited = [c.provision_id for c in answer.citations]
    assert cited[:2] == [f"{RERA}#s.13(1)", f"{RERA}#s.61"]
    assert "five per cent" in answer.citations[1].quote


@pytest.mark.slow
def test_penalties_for_other_duties_are_not_shown_beside_the_lead_penalty(
        bundled: Engine) -> None:
    # s.59 punishes breaking s.3; s.62 punishes agents under ss.9-10 and s.61 excludes s.3.
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    cited = {c.provision_id for c in answer.citations}
    assert {f"{RERA}#s.59(1)", f"{RERA}#s.59(2)"} <= cited
    assert not cited & {f"{RERA}#s.62", f"{RERA}#s.61"}
    see_also = answer.text.split("See also", 1)[1].split("\n", 1)[0]
    assert "Section 62" not in see_also and "Section 61" not in see_also


@pytest.mark.slow
def test_a_clause_item_is_followed_by_the_clause_explanation(bundled: Engine) -> None:
    # s.2(zk)(iii) is one item of the definition of "promoter"; the clause's closing
    # "Explanation.-- For the purposes of this clause ..." (joint liability) qualifies it.
    from civicsetu.answer.completions import _with_explanation_of_lead
    from civicsetu.answer.units import Unit

    item = bundled.store.provision(f"{RERA}#s.2(zk)(iii)", None)
    lead = Unit(item, item.start, item.end, item.text, 0, False, 1.0)
    out = _with_explanation_of_lead([lead], bundled.store, None, 10_000)
    assert [u.provision.id for u in out] == [f"{RERA}#s.2(zk)(iii)", f"{RERA}#s.2(zk)"]
    assert out[1].text.startswith("Explanation")
    assert "jointly liable" in " ".join(out[1].text.split())
    # The explanation belongs to the clause, not to its last item (vi): quoting (vi) adds it.
    last = bundled.store.provision(f"{RERA}#s.2(zk)(vi)", None)
    assert "Explanation" not in last.text
    shown = Unit(last, last.start, last.end, last.text, 0, False, 1.0)
    out = _with_explanation_of_lead([shown], bundled.store, None, 10_000)
    assert [u.provision.id for u in out] == [f"{RERA}#s.2(zk)(vi)", f"{RERA}#s.2(zk)"]
    # Once a quote shows it, nothing is added.
    assert len(_with_explanation_of_lead(out, bundled.store, None, 10_000)) == 2
