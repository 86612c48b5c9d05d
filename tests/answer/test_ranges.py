"""Rupee thresholds read as ranges (answer/numbers.py ``rupee_range``), on real text of the
bundled Acts, and what they do to the part answers (answer/parts.py)."""

from decimal import Decimal
from pathlib import Path

import pytest

from civicsetu.answer.numbers import rupee_amounts, rupee_range
from civicsetu.answer.parts import answering_units, asks, states
from civicsetu.answer.units import Unit
from civicsetu.engine import Engine
from civicsetu.types import Provision, ProvisionKind

ACTS = Path(__file__).resolve().parents[2] / "src" / "civicsetu" / "corpus" / "acts"
CPA = "the-consumer-protection-act-2019"


def _passage(needle: str, chars: int = 200) -> str:
    """A real passage of the Consumer Protection Act, 2019 starting at ``needle``."""
    text = " ".join((ACTS / f"{CPA}.md").read_text(encoding="utf-8").split())
    at = text.index(needle)
    return text[at:at + chars]


def test_the_commissions_thresholds_are_ranges() -> None:
    district = rupee_range(_passage("complaints where the value of the goods or services "
                                    "paid as consideration does not exceed one crore"))
    state = rupee_range(_passage("complaints where the value of the goods or services "
                                 "paid as consideration, exceeds rupees one crore"))
    national = rupee_range(_passage("complaints where the value of the goods or services "
                                    "paid as consideration exceeds rupees ten crore"))
    assert district and state and national
    crore = Decimal(10_000_000)
    assert district.holds(crore) and not district.holds(crore + 1)
    assert not state.holds(crore) and state.holds(Decimal(15_000_000))
    assert state.holds(10 * crore) and not state.holds(10 * crore + 1)
    assert national.holds(25 * crore) and not national.holds(10 * crore)


def test_a_bound_on_a_fine_is_not_a_threshold() -> None:
    # s.72(1): "fine, which shall not be less than twenty-five thousand rupees".
    assert rupee_range(_passage("Whoever fails to comply with any order made by the "
                                "District Commission", 400)) is None


@pytest.mark.parametrize(("question", "amounts"), [
    ("My flat cost ₹1.5 crore. Which commission hears it?", [Decimal(15_000_000)]),
    ("I paid Rs. 40,00,000 for the car.", [Decimal(4_000_000)]),
    ("The bill was ten lakh rupees.", [Decimal(1_000_000)]),
    ("Does a claim that does not exceed one crore rupees go to the District?", []),
    ("How long do I have to complain?", []),
])
def test_the_amount_a_question_states(question: str, amounts: list[Decimal]) -> None:
    assert rupee_amounts(question) == amounts


def _unit(text: str, path: str, rank: int = 0) -> Unit:
    p = Provision("act", path, ProvisionKind.SECTION, "", 0, len(text), text, None, 0)
    return Unit(p, 0, len(text), text, rank, False)


def test_a_threshold_that_leaves_the_amount_out_does_not_answer() -> None:
    question = "My claim is worth ₹50 crore. Which commission hears it, and how fast?"
    state = _unit("The State Commission shall hear complaints where the value exceeds "
                  "rupees one crore, but does not exceed rupees ten crore, within 90 days.",
                  "s.47", rank=0)
    national = _unit("The National Commission shall hear complaints where the value exceeds "
                     "rupees ten crore, within 90 days.", "s.58", rank=5)
    opening = _unit("A complaint may be filed before the District Commission.", "s.35")
    found = answering_units(question, [opening], lambda: [state, national], {"act"}, {}, 0.3)
    assert [u.provision.path for u in found.added] == ["s.58"]


def test_there_points_at_the_earlier_answers_forum() -> None:
    # "if I lose there": the appeal from the forum the first part's answer names.
    question = ("Which commission hears my complaint, and if I lose there, where do I "
                "appeal?")
    assert [a.refers for a in asks(question)] == [False, True]
    state = _unit("The State Commission shall have jurisdiction to entertain complaints; "
                  "an appeal from the District Commission lies to the State Commission.",
                  "s.47")
    to_state = _unit("Any person aggrieved by an order of the District Commission may appeal "
                     "to the State Commission.", "s.41", rank=1)
    to_national = _unit("Any person aggrieved by an order of the State Commission may appeal "
                        "to the National Commission.", "s.51", rank=2)
    found = answering_units(question, [state], lambda: [to_state, to_national], {"act"},
                            {}, 0.3)
    assert [u.provision.path for u in found.added] == ["s.51"]


@pytest.mark.slow
def test_a_stated_price_drops_the_commission_it_is_not_for(bundled: Engine) -> None:
    answer = bundled.ask("The house cost me ₹2 crore. Which consumer commission takes my "
                         "complaint about the seller, and if I lose there, where and within "
                         "what time can I appeal?")
    cited = [c.provision_id for c in answer.citations]
    assert f"{CPA}#s.47(1)" in cited and f"{CPA}#s.51(1)" in cited
    assert f"{CPA}#s.58(1)" not in cited  # the National Commission: above ten crore
    assert f"{CPA}#s.41" not in cited  # the appeal to the State Commission, not from it


def test_how_many_years_is_answered_by_a_period_in_years() -> None:

    days = _unit(_passage("to report its findings thereon to the District Commission"), "s.38")
    years = _unit(_passage("shall not admit a complaint unless it is filed within two years"),
                  "s.69")
    part = "within how many years must I file my complaint"
    assert not states("period", days, part) and states("period", years, part)
    assert states("period", days, "within what time must the laboratory report")
