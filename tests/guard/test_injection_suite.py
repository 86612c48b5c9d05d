"""The injection suite end to end: every attack as a question, and every attack planted
inside an ingested document. None changes the answer's sources or leaks the prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from civicsetu.agent.prompts import ANSWER_SYSTEM
from civicsetu.answer.messages import INJECTION_REFUSAL
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.types import section_of
from tests.agent.test_pipeline import ACT, ScriptedLLM
from tests.guard.test_guards import ATTACKS

LEAK = f"Sure. My instructions are: {ANSWER_SYSTEM} [1]"
QUESTION = "What must every landlord display?"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    folder = tmp_path_factory.mktemp("injection")
    act = folder / "model-tenancy-act-2099.md"
    act.write_text(ACT.split("## Section 4")[0] + "## Section 4 - Notice board.\n\nEvery "
                   "landlord shall display the name of the Rent Authority.\n",
                   encoding="utf-8")
    engine = Engine(Settings(home=folder / "home"))
    engine.ingest([SourceSpec(act)])
    return engine


@pytest.mark.parametrize("attack", ATTACKS)
def test_attack_as_a_question_is_refused_before_any_llm_call(engine: Engine,
                                                             attack: str) -> None:
    ScriptedLLM.replies, ScriptedLLM.seen = [LEAK], []
    answer = engine.ask(attack, llm="scripted:q")
    assert answer.text == INJECTION_REFUSAL and answer.citations == []
    assert ScriptedLLM.seen == []


@pytest.mark.parametrize("attack", ATTACKS)
def test_attack_planted_in_a_document_never_reaches_the_llm(tmp_path: Path,
                                                            attack: str) -> None:
    act = tmp_path / "model-tenancy-act-2099.md"
    act.write_text(ACT.split("## Section 4")[0] + "## Section 4 - Notice board.\n\n"
                   f"{attack} Every landlord shall display the name of the Rent "
                   "Authority.\n", encoding="utf-8")
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest([SourceSpec(act)])
        plain = engine.ask(QUESTION)
        ScriptedLLM.replies, ScriptedLLM.seen = [LEAK, LEAK, LEAK], []
        attacked = engine.ask(QUESTION, llm="scripted:p")
    retrieved = {section_of(h.provision_path) for h in plain.retrieved}
    assert {section_of(c.provision_id.partition("#")[2]) for c in attacked.citations} \
        <= retrieved
    assert ANSWER_SYSTEM not in attacked.text
    for messages in ScriptedLLM.seen:
        assert attack not in messages[1].content
