"""Numbers as the Acts write them against numbers as people write them, on real text."""

from pathlib import Path

import pytest

from civicsetu.agent.validate import carries_claim, validate_answer
from civicsetu.answer.numbers import canonical, values, words_to_number
from civicsetu.eval.metrics import key_fact_recall
from civicsetu.types import Citation

ACTS = Path(__file__).resolve().parents[2] / "src" / "civicsetu" / "corpus" / "acts"


def _passage(act: str, needle: str, chars: int = 300) -> str:
    """A real passage of a bundled Act, starting a little before ``needle``."""
    text = " ".join((ACTS / f"{act}.md").read_text(encoding="utf-8").split())
    at = text.index(needle)
    return text[max(0, at - 80):at + chars]


RTI_S20 = _passage("the-right-to-information-act-2005", "two hundred and fifty rupees each day")
CPA_S47 = _passage("the-consumer-protection-act-2019", "exceeds rupees one crore")
CPA_S21 = _passage("the-consumer-protection-act-2019", "extend to ten lakh rupees")
RERA_S59 = _passage("the-real-estate-regulation-and-development-act-2016",
                    "up to ten per cent. of the")


@pytest.mark.parametrize(("words", "number"), [
    ("sixty", 60), ("forty-five", 45), ("two hundred and fifty", 250),
    ("twenty-five thousand", 25_000), ("ten lakh", 1_000_000), ("one crore", 10_000_000),
    ("one crore ten lakh", 11_000_000), ("banana", None),
])
def test_words_to_number(words: str, number: int | None) -> None:
    assert words_to_number(words) == number


@pytest.mark.parametrize(("law", "person"), [
    ("sixty days", "60 days"),
    ("ten lakh rupees", "Rs. 10,00,000"),
    ("ten lakh rupees", "₹1,000,000"),
    ("rupees one crore", "Rs. 1 crore"),
    ("ten per cent.", "10%"),
    ("two hundred and fifty rupees", "₹250"),
])
def test_the_law_and_a_person_write_the_same_number(law: str, person: str) -> None:
    assert canonical(law).rstrip(".") == canonical(person)


def test_values_read_real_provisions() -> None:
    assert {"250", "25000"} <= values(RTI_S20)
    assert {"10000000", "100000000"} <= values(CPA_S47)
    assert "1000000" in values(CPA_S21)
    assert "10" in values(RERA_S59)


def test_validator_accepts_digits_for_the_words_of_real_text() -> None:
    sources = [Citation("rti#s.20(1)", "Section 20(1)", "", RTI_S20, 0, len(RTI_S20))]
    ok = validate_answer("The PIO can be fined ₹250 a day, up to Rs. 25,000 in all [1].",
                         sources)
    assert ok.problems == []
    bad = validate_answer("The PIO can be fined ₹500 a day [1].", sources)
    assert bad.problems == ["'₹500' is not in the cited text"]


def test_key_fact_matcher_counts_a_number_written_in_digits() -> None:
    answer = "The State Commission hears complaints above Rs. 1 crore and up to ₹10 crore."
    assert key_fact_recall(["exceeds rupees one crore", "rupees ten crore"], answer) == 0.5
    assert key_fact_recall(["sixty days"], "within 60 days of the order") == 1.0
    assert key_fact_recall(["ninety days"], "within 60 days of the order") == 0.0


def test_an_uncited_sentence_may_not_state_a_number() -> None:
    sources = [Citation("rti#s.20(1)", "Section 20(1)", "", RTI_S20, 0, len(RTI_S20))]
    framed = validate_answer("Yes, the PIO can be fined. The fine is ₹250 a day [1].", sources)
    assert framed.problems == []
    bare = validate_answer("The PIO can be fined [1]. The fine is ₹900 a day.", sources)
    assert len(bare.problems) == 1 and "without citing a source" in bare.problems[0]
    # Naming a section states the law too: it must cite.
    named = validate_answer("Section 20 sets the penalty. It is ₹250 a day [1].", sources)
    assert len(named.problems) == 1 and "without citing a source" in named.problems[0]
    assert validate_answer("Section 20 sets the penalty [1]. It is ₹250 a day [1].",
                           sources).ok


def test_a_sentence_may_not_name_a_section_its_sources_are_not() -> None:
    sources = [Citation("the-right-to-information-act-2005#s.20(1)",
                        "Section 20(1) of the Right to Information Act, 2005", "", RTI_S20, 0,
                        len(RTI_S20))]
    assert validate_answer("Section 20 fixes ₹250 a day [1].", sources).problems == []
    wrong = validate_answer("Section 19 fixes ₹250 a day [1].", sources)
    assert wrong.problems == ["names section 19, which the sources [1] do not hold or "
                              "mention"]


def test_an_uncited_sentence_may_not_restate_the_law() -> None:
    sources = [Citation("rti#s.20(1)", "Section 20(1)", "", RTI_S20, 0, len(RTI_S20))]
    copied = " ".join(RTI_S20.split()[10:40])
    check = validate_answer(f"{copied}. The source is [1].", sources)
    assert any("without citing a source" in p for p in check.problems)
    assert validate_answer("In short: yes. The PIO pays ₹250 a day [1].", sources).ok


def test_a_sentence_that_only_points_at_sources_carries_no_claim() -> None:
    sources = [Citation("rti#s.20(1)", "Section 20(1)", "", RTI_S20, 0, len(RTI_S20))]
    assert not carries_claim("The sources that provide this are [1].", sources)
    assert carries_claim("The Information Commission imposes a penalty of ₹250 each day "
                         "[1].", sources)
