"""Each part of a question gets the quote that states what it asks (answer/parts.py): the
forms read from the question, and on the real bundled index the quotes they add."""

import pytest

from civicsetu.answer.parts import asks, stem
from civicsetu.engine import Engine
from tests.conftest import RERA


def _kinds(question: str) -> list[tuple[str, str]]:
    return [(a.kind, a.part) for a in asks(question)]


@pytest.mark.parametrize(("question", "expected"), [
    ("Who decides the compensation, and how fast should it be decided?",
     ["agent", "period"]),
    ("Which forum hears the appeal and what is the deadline?", ["forum", "period"]),
    ("What must the builder deposit first?", ["amount"]),
    ("What is the penalty for a false advertisement?", ["penalty"]),
    ("How is the Tribunal's order enforced?", ["enforcement"]),
    ("Is there any leeway if I am late?", ["exception"]),
    ("Can I file a complaint with the commission?", ["remedy"]),
    # "who" as a relative pronoun asks nothing
    ("What penalty may be imposed on the officer who ignored my request?", ["penalty"]),
    ("What does the Act say about carpet area?", []),
])
def test_the_question_form_says_what_kind_of_statement_answers(
        question: str, expected: list[str]) -> None:
    assert sorted({k for k, _ in _kinds(question)}) == sorted(expected)


def test_a_condition_lends_its_words_to_the_next_part() -> None:
    found = asks("My flat cost a lot. If I lose there, where must I appeal?")
    assert [a.kind for a in found] == ["forum"]
    assert stem("lose") in found[0].words  # from "if I lose there"


def test_the_second_side_of_a_comparison_asks_what_the_first_asked() -> None:
    found = asks("Compare the time limit for appealing a RERA order with that for appealing "
                 "a District Commission order.")
    assert [a.kind for a in found] == ["period", "period"]
    assert stem("district") in found[1].words


def test_what_the_asker_rules_out_is_not_the_subject() -> None:
    found = asks("The registrar refused my deed (not because the seller denied signing). "
                 "Where do I appeal and how long do I have?")
    words = {s for a in found for s in a.words}
    assert stem("denied") not in words and stem("refused") in words


def test_light_stems_join_forms_of_one_word() -> None:
    assert stem("refused") == stem("refusal") == stem("refusing")
    assert stem("appealing") == stem("appeal")


@pytest.mark.slow
def test_who_decides_and_how_fast_are_both_quoted(bundled: Engine) -> None:
    # Without the part answers only s.18(1) (the right to withdraw) was quoted.
    answer = bundled.ask("My flat is delayed by a year and I want to withdraw. Who decides my "
                         "compensation, and how fast must that be done?")
    quotes = {c.provision_id: c.quote for c in answer.citations}
    assert f"{RERA}#s.71(2)" in quotes
    assert "adjudicating officer" in quotes[f"{RERA}#s.71(2)"]
    assert "sixty days" in quotes[f"{RERA}#s.71(2)"]


@pytest.mark.slow
def test_the_next_forum_is_not_the_one_the_question_names(bundled: Engine) -> None:
    # Every s.44 quote names the Appellate Tribunal the question starts from; the next
    # forum is the High Court (s.58), with its own period.
    answer = bundled.ask("The RERA Appellate Tribunal ruled against me. Where can I appeal "
                         "next and within what time?")
    quotes = {c.provision_id: c.quote for c in answer.citations}
    assert f"{RERA}#s.58(1)" in quotes and "High Court" in quotes[f"{RERA}#s.58(1)"]


@pytest.mark.slow
def test_how_an_order_is_enforced_is_quoted_beside_the_penalty(bundled: Engine) -> None:
    answer = bundled.ask("The builder ignored the Appellate Tribunal's order. How is that "
                         "order enforced, and what punishment can follow?")
    cited = [c.provision_id for c in answer.citations]
    assert f"{RERA}#s.64" in cited  # the penalty for not complying with its orders
    enforced = [c.quote for c in answer.citations if c.provision_id == f"{RERA}#s.57(1)"]
    assert enforced
    assert "executable by the Appellate Tribunal as a decree" in " ".join(enforced[0].split())


@pytest.mark.slow
def test_a_one_part_question_gets_no_part_answers(bundled: Engine) -> None:
    # The period form alone does not pull in another provision's period.
    answer = bundled.ask("How many months of free maintenance must a builder provide after "
                         "handing over possession?")
    assert all(c.provision_id != f"{RERA}#s.17(1)" for c in answer.citations)
