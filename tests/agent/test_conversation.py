"""Conversations on the bundled corpus: a scripted dialogue whose follow-ups lean on the
previous turn; each must resolve to the provision a reader of the Act would expect."""

from __future__ import annotations

from pathlib import Path

import pytest

from civicsetu.agent.conversation import Conversation, rewrite_follow_up
from civicsetu.answer.messages import NO_SUCH_SUGGESTION, NO_SUGGESTIONS_TO_PICK
from civicsetu.config import Settings
from civicsetu.engine import Engine
from tests.conftest import RERA

# (what the user types, the section the answer must cite, the section the follow-up
# must be rewritten to name, or None when it stands alone)
SCRIPT = [
    ("What is the penalty for not registering a real estate project under RERA?", "s.59", None),
    # The Appellate Tribunal hears it: s.43(5) says who may appeal to it, s.44 how.
    ("Who hears an appeal against that penalty?", ("s.43", "s.44"), "section 59 "),
    # A bare "it" is what the last question asked about, searched for in its Act.
    ("How long do I have to file it?", "s.44", "the appeal under the Real Estate"),
    ("What about the penalty for not complying with the Tribunal's order?", "s.64", None),
    ("Can it be compounded?", "s.70", "section 64 "),
    ("And what is the maximum fine for that?", "s.70", "section 70 "),
]


@pytest.mark.slow
def test_five_follow_ups_resolve_to_the_right_provisions(bundled_home: Path,
                                                         tmp_path: Path) -> None:
    with Engine(Settings(home=bundled_home)) as engine:
        conversation = Conversation(engine.agent(None), engine.store, tmp_path / "s.db")
        for typed, section, named in SCRIPT:
            answer, standalone, _ = conversation.ask("script", typed)
            cited = {c.provision_id.partition("#")[2].partition("(")[0]
                     for c in answer.citations if c.provision_id.startswith(RERA)}
            wanted = section if isinstance(section, tuple) else (section,)
            assert cited & set(wanted), (typed, standalone, cited)
            if named:
                assert named in standalone, (typed, standalone)
            else:
                assert "section" not in standalone.lower() or typed in standalone
        assert len(conversation.history("script")) == 6  # the window keeps six turns
        conversation.close()


@pytest.mark.slow
def test_sessions_persist_and_suggestions_are_selectable(bundled_home: Path,
                                                         tmp_path: Path) -> None:
    with Engine(Settings(home=bundled_home)) as engine:
        first = Conversation(engine.agent(None), engine.store, tmp_path / "s.db")
        _, _, suggestions = first.ask("persist", SCRIPT[0][0])
        first.close()
        assert [s.kind for s in suggestions][:2] == ["deepen", "broaden"]
        again = Conversation(engine.agent(None), engine.store, tmp_path / "s.db")
        answer, standalone, _ = again.ask("persist", "2")  # picks the broaden suggestion
        assert standalone == suggestions[1].question and not answer.abstained
        assert len(again.history("persist")) == 2
        assert again.history("other") == []
        again.close()


def test_a_number_before_any_suggestion_is_not_searched(empty_engine: Engine,
                                                         tmp_path: Path) -> None:
    conversation = Conversation(empty_engine.agent(None), empty_engine.store,
                                tmp_path / "s.db")
    for typed in ("3", "1", " 2. "):
        answer, searched, suggestions = conversation.ask("fresh", typed)
        assert answer.text == NO_SUGGESTIONS_TO_PICK.format(when="yet"), typed
        assert (searched, suggestions, answer.citations) == ("", [], [])
    assert conversation.history("fresh") == []
    conversation.close()


@pytest.mark.slow
@pytest.mark.parametrize("typed", ["9", "0", "4", "#7"])
def test_a_number_that_picks_no_suggestion_names_the_valid_ones(
        bundled_home: Path, tmp_path: Path, typed: str) -> None:
    with Engine(Settings(home=bundled_home)) as engine:
        conversation = Conversation(engine.agent(None), engine.store, tmp_path / "s.db")
        _, _, offered = conversation.ask("pick", SCRIPT[0][0])
        assert 1 <= len(offered) <= 3
        answer, searched, again = conversation.ask("pick", typed)
        number = typed.lstrip("#")
        valid = {1: "1", 2: "1 or 2", 3: "1, 2 or 3"}[len(offered)]
        assert answer.text == NO_SUCH_SUGGESTION.format(number=number, valid=valid)
        assert searched == "" and not answer.citations and again == offered
        assert len(conversation.history("pick")) == 1  # no turn was searched
        conversation.close()


def test_standalone_questions_pass_through(tmp_path: Path) -> None:
    from civicsetu.store.sqlite import SQLiteStore

    store = SQLiteStore(tmp_path / "x.db")
    turns = [{"question": "q", "standalone": "q", "cited": [], "anchor": None}]
    question = "What does section 18 of RERA say about refunds to allottees?"
    assert rewrite_follow_up(question, turns, store) == (question, None)
    assert rewrite_follow_up("Who decides?", [], store) == ("Who decides?", None)
    store.close()
