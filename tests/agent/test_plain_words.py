"""Questions with no legal word: the retrieval, not a word list, decides whether they are
about the law in the corpus (real bundled index, the agent without an LLM)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import pytest

from civicsetu.answer.confidence import assess_confidence
from civicsetu.answer.evidence import lay_question_supported
from civicsetu.answer.messages import OUT_OF_SCOPE_TOPIC
from civicsetu.engine import Engine
from civicsetu.guard.scope import check_scope
from civicsetu.llm.base import Completion, Message, Usage, register

# Plain words about a bailment (Indian Contract Act, 1872, s.151-154): no word of the
# scope guard's legal vocabulary, but both retrievers lead to the Act's provisions.
LENT_CAR = ("I lent my car to a friend and he took it on a long trip I never agreed to, "
            "and it got damaged. Does he have to pay for the damage?")
OFF_TOPIC = "Which phone has the best camera for under twenty thousand rupees?"
# No legal word, a law that is not bundled (criminal procedure): the retrieval's cosine
# clears the floor, but the dense and BM25 retrievals lead to different provisions.
ARREST = ("Can the police arrest someone without a warrant, and how soon must he be "
          "produced before a magistrate?")


class RecordingLLM:
    """Records every call; a refused question must never make one."""

    calls: ClassVar[int] = 0

    def __init__(self, name: str) -> None:
        self.name = f"recording:{name}"

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        RecordingLLM.calls += 1
        return Completion("INSUFFICIENT", self.name, "recording", Usage(1, 1))


register("recording", RecordingLLM)


def test_the_word_list_alone_would_refuse_both() -> None:
    assert check_scope(LENT_CAR).reason == check_scope(OFF_TOPIC).reason == "off-topic"


@pytest.mark.slow
def test_a_plain_words_dispute_is_answered_from_the_act(bundled: Engine) -> None:
    answer = bundled.ask(LENT_CAR)
    assert not answer.abstained and answer.query_type != "out_of_scope"
    assert any(c.provision_id.startswith("the-indian-contract-act-1872#")
               for c in answer.citations)


@pytest.mark.slow
def test_an_off_topic_question_is_still_refused_as_off_topic(bundled: Engine) -> None:
    answer = bundled.ask(OFF_TOPIC)
    assert answer.abstained and answer.text == OUT_OF_SCOPE_TOPIC
    assert answer.query_type == "out_of_scope" and not answer.citations


@pytest.mark.slow
def test_weak_or_one_sided_evidence_does_not_support_a_lay_question(bundled: Engine) -> None:
    result = bundled.searcher.search(LENT_CAR)
    confidence = assess_confidence(result, bundled.searcher)
    assert confidence.features["lead_agreed"] == 1.0
    assert lay_question_supported(result, confidence, 0.37)
    assert not lay_question_supported(result, confidence, 0.99)  # the cosine floor holds
    confidence.features["lead_agreed"] = 0.0  # only one retriever leads to it
    assert not lay_question_supported(result, confidence, 0.37)


@pytest.mark.slow
def test_an_unsupported_lay_question_is_refused_before_the_llm(bundled: Engine) -> None:
    RecordingLLM.calls = 0
    answer = bundled.ask(ARREST, llm="recording:a")
    assert answer.abstained and answer.text == OUT_OF_SCOPE_TOPIC
    assert RecordingLLM.calls == 0
