"""The quantity check (answer/evidence.py missing_quantity): a question asking for a
number of days, months, years or a percentage is not answered by quotes stating none."""

import pytest

from civicsetu.answer.evidence import missing_quantity
from civicsetu.answer.messages import ABSTENTION
from civicsetu.engine import Engine
from tests.conftest import RERA

# Sentences of the bundled Acts (RERA s.5(1), s.59(1), s.19(4); CPA s.69(1)).
WITHIN_THIRTY_DAYS = ("(1) On receipt of the application under sub-section (1) of section 4, "
                      "the Authority shall within a period of thirty days—")
TEN_PER_CENT = ("he shall be liable to a penalty which may extend up to ten per cent. of the "
                "estimated cost of the real estate project as determined by the Authority.")
TWO_YEARS = "unless it is filed within two years from the date on which the cause of action"
NO_NUMBER = ("The allottee shall be entitled to claim the refund of amount paid along with "
             "interest at such rate as may be prescribed")


@pytest.mark.parametrize(("query", "quotes", "missing"), [
    ("How many days does the Authority have to decide?", [WITHIN_THIRTY_DAYS], None),
    ("How many months does the Authority have to decide?", [WITHIN_THIRTY_DAYS], "months"),
    ("Within how many years must I complain?", [NO_NUMBER, TWO_YEARS], None),
    ("How many years of interest can I claim?", [NO_NUMBER], "years"),
    ("What percentage of the project cost is the penalty?", [TEN_PER_CENT], None),
    ("What percentage interest does the builder pay?", [NO_NUMBER, TWO_YEARS], "per cent"),
    ("What interest does the builder pay?", [NO_NUMBER], None),  # asks for no number
    ("How many days?", ["within 30 working days of the order"], None),
])
def test_missing_quantity(query: str, quotes: list[str], missing: str | None) -> None:
    assert missing_quantity(query, quotes) == missing


@pytest.mark.slow
def test_a_number_the_acts_never_state_is_not_answered(bundled: Engine) -> None:
    answer = bundled.ask("How many months of free maintenance must a builder provide after "
                         "handing over possession?")
    assert answer.abstained and answer.text == ABSTENTION and answer.citations == []
    assert any("number of months" in n and RERA not in n for n in answer.notices)


@pytest.mark.slow
def test_a_number_the_quotes_state_is_answered(bundled: Engine) -> None:
    answer = bundled.ask("How many days does the RERA Authority have to grant or reject a "
                         "registration application?")
    assert not answer.abstained
    assert missing_quantity(answer.query, [c.quote for c in answer.citations]) is None
