"""Each part of a question gets the quote that states what it asks (answer/parts.py): the
forms read from the question, and on the real bundled index the quotes they add."""

import pytest

from civicsetu.answer.parts import answering_units, asks, states, stem
from civicsetu.answer.units import Unit
from civicsetu.engine import Engine
from civicsetu.types import Provision, ProvisionKind
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
    # plain words for a remedy: how to challenge, what to do, the asker's options
    ("The award is too low. How do I challenge it?", ["remedy"]),
    ("My flat is a year late. What can I do?", ["remedy"]),
    ("What are my options now?", ["remedy"]),
    # "who" as a relative pronoun asks nothing
    ("What penalty may be imposed on the officer who ignored my request?", ["penalty"]),
    ("What does the Act say about carpet area?", []),
    # plain words for a forum: the asker's "who do I complain to?" asks where, not who acts
    ("My flat is late. Can I get my money back, and where do I complain?",
     ["remedy", "forum"]),
    ("The builder stopped work. Who do I complain to?", ["forum"]),
    ("The regulator's order went against me. Where can I take it next?", ["forum"]),
    # "who decides how much?" asks who; "too late", "be fined", "have to pay" are forms too
    ("Do I get anything for the wait, and who decides how much?", ["remedy", "agent"]),
    ("I never registered the deed. Is it too late?", ["period"]),
    ("Where can I go next, and can the officer be fined?", ["forum", "penalty"]),
    ("Where do I challenge that, and do I have to pay anything first?", ["forum", "amount"]),
    # what the asker is owed is a remedy; "which body hears that?" is where it goes
    ("The flat is late. Do I get anything for the wait?", ["remedy"]),
    ("Can I get my money back with interest?", ["remedy"]),
    ("The landlord kept my deposit. Can I get it back?", ["remedy"]),
    ("The phone is faulty. Can I get a refund?", ["remedy"]),
    ("The brochure lied. Am I owed anything?", ["remedy"]),
    ("Can I push it into insolvency, and which body hears that?", ["forum"]),
    ("Which authority decides the fee?", ["agent"]),
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


def _unit(text: str, path: str = "s.3", rank: int = 0, doc: str = "act") -> Unit:
    p = Provision(doc, path, ProvisionKind.SECTION, "", 0, len(text), text, None, 0)
    return Unit(p, 0, len(text), text, rank, False)


def test_an_authority_that_opens_the_sentence_is_an_agent() -> None:
    # "The Central Government may ..." at a provision's start, across a line break.
    unit = _unit("The Central\nGovernment may, by notification, make rules for the members.")
    assert states("agent", unit, "who can be a member of the State Commission")


def test_a_definition_names_no_forum_or_agent() -> None:
    # 'controlled ... by the Central Government' in a definition decides nothing.
    unit = _unit('(a) "appropriate Government" means in relation to a public authority '
                 "which is controlled by the Central Government, the Central Government;")
    assert not states("agent", unit, "which authority decides?")
    assert not states("forum", unit, "where do I appeal?")


def test_a_complaint_filed_with_an_authority_names_its_forum() -> None:
    # "file a complaint with the Authority" sends the complaint there, as "to the" does;
    # "in consultation with the Government" sends nothing anywhere.
    filed = _unit("Any aggrieved person may file a complaint with the Authority or the "
                  "adjudicating officer, as the case may be, for any violation of this Act.")
    assert states("forum", filed, "where do I complain")
    consulted = _unit("The Authority shall appoint, in consultation with the appropriate "
                      "Government, one or more officers.")
    assert not states("forum", consulted, "where do I complain")
    senior = _unit("may prefer an appeal to such officer who is senior in rank")
    assert states("forum", senior, "where can I go next")


def test_what_a_party_shall_be_paid_or_is_liable_to_return_is_a_remedy() -> None:
    paid = _unit("Provided that where an allottee does not intend to withdraw, he shall be "
                 "paid, by the promoter, interest for every month of delay.")
    liable = _unit("he shall be liable on demand to the allottees, in case the allottee "
                   "wishes to withdraw from the project, to return the amount received")
    assert states("remedy", paid) and states("remedy", liable)
    assert not states("remedy", _unit("The promoter shall be liable for the defects."))


def test_an_authority_with_a_clause_before_its_verb_is_an_agent() -> None:
    unit = _unit("(1) If any document is not presented in time, the Registrar, in cases "
                 "where the delay does not exceed four months, may direct that it be "
                 "accepted for registration.")
    assert states("agent", unit, "who can still let me register it")


def test_one_unit_stating_all_a_part_asks_replaces_the_partial_ones() -> None:
    # The second side asks a period and a forum; the look-alike states only a period and
    # holds more of the part's words, so it wins the period ask on its own.
    question = ("Where does an appeal go after the Tribunal, compared with after the "
                "Commission — which forum and what deadline?")
    tribunal = _unit("Any person aggrieved by an order of the Tribunal may appeal to the "
                     "High Court within sixty days.", "s.58")
    period = _unit("Every appeal against an order of the Commission or the Tribunal shall be "
                   "filed within thirty days.", "s.73", rank=1)
    both = _unit("Any person aggrieved by an order of the Commission may appeal to the "
                 "Supreme Court within thirty days.", "s.67", rank=3)
    found = answering_units(question, [tribunal], lambda: [period, both], {"act"}, {}, 0.3)
    assert [u.provision.path for u in found.added] == ["s.67"]
    assert ("act#s.67", 0) in found.answering and ("act#s.73", 0) not in found.answering


def test_a_later_provision_answers_only_what_none_before_it_of_its_act_does() -> None:
    question = "Who decides my compensation, and within what time must it be paid?"
    officer = _unit("The application for compensation shall be dealt with by the "
                    "officer of the Authority.", "s.71", rank=3)
    meeting = _unit("All questions before any meeting shall be decided by the Authority "
                    "by a majority of votes on compensation.", "s.29", rank=10)
    # The meeting holds more of the part's words; the officer is ranked before it.
    found = answering_units(question, [], lambda: [officer, meeting], {"act"}, {}, 0.3,
                            reach=10)
    assert "s.71" in [u.provision.path for u in found.added]
    assert "s.29" not in [u.provision.path for u in found.added]
    # The same later unit of another Act competes: its Act has nothing ranked before it.
    other = _unit(meeting.text, "s.29", rank=10, doc="other")
    found = answering_units(question, [], lambda: [officer, other], {"act", "other"}, {},
                            0.3, reach=10)
    assert "s.29" in [u.provision.path for u in found.added]


def test_a_later_provision_far_more_on_point_still_answers() -> None:
    # The only earlier unit stating a period holds little of the part's words.
    question = "Who hears my application, and how long does the bank get to fix the defects?"
    hearing = _unit("The Tribunal shall hear every application.", "s.9", rank=0)
    other = _unit("An appeal against an order on defects shall be filed within thirty days.",
                  "s.61", rank=2)
    cure = _unit("The bank shall be given seven days to fix the defects in the "
                 "application.", "s.7", rank=11)
    found = answering_units(question, [hearing], lambda: [other, cure], {"act"}, {}, 0.3,
                            reach=10)
    assert "s.7" in [u.provision.path for u in found.added]


def test_words_no_candidate_holds_do_not_count_against_the_candidates() -> None:
    # "disobeys" and "caps" are the asker's words; no provision says them, so they
    # cannot tell candidates apart, and counted they put every candidate under the floor.
    question = ("Which provision gives the power to impose penalty, and what caps the penalty "
                "when a promoter disobeys the orders?")
    power = _unit("The Authority shall have powers to impose penalty.", "s.38")
    daily = _unit("If any promoter fails to comply with the orders, he shall be liable to a "
                  "penalty for every day of default up to five per cent.", "s.63", rank=2)
    idf = {"caps": 8.0, "disobeys": 8.0, "orders": 2.0, "promoter": 3.0}
    found = answering_units(question, [power], lambda: [daily], {"act"}, idf, 0.3)
    assert [u.provision.path for u in found.added] == ["s.63"]


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


@pytest.mark.slow
def test_where_do_i_complain_is_answered_beside_the_refund(bundled: Engine) -> None:
    # The lead's plain-words question: only s.18(1) (the refund) was quoted; the complaint
    # to the Authority (s.31(1)) was retrieved 8th and never stated a forum.
    answer = bundled.ask("My builder delayed possession of my flat by two years. Can I get "
                         "my money back with interest, and where do I complain?")
    cited = [c.provision_id for c in answer.citations]
    assert f"{RERA}#s.18(1)" in cited and f"{RERA}#s.31(1)" in cited
