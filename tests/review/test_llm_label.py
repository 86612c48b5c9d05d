"""LLM labels are validated; an invalid reply keeps the model-free label."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from civicsetu.llm.base import Completion, Message, get_llm, register
from civicsetu.review.checklist import Label, load_checklist
from civicsetu.review.llm_label import llm_label, parse_reply


class Scripted:
    def __init__(self, reply: str) -> None:
        self.name = "scripted"
        self.reply = reply
        self.seen: list[Sequence[Message]] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        self.seen.append(messages)
        return Completion(self.reply, "scripted", "scripted")


@pytest.mark.parametrize("reply, label", [
    ("ENTAILED", Label.ENTAILED), (" contradicted.", Label.CONTRADICTED),
    ("NOT MENTIONED", Label.NOT_MENTIONED), ("Not_Mentioned\nbecause...", Label.NOT_MENTIONED),
    ("The answer is ENTAILED", None), ("", None), ("yes", None),
])
def test_parse_reply(reply: str, label: Label | None) -> None:
    assert parse_reply(reply) is label


def test_llm_label_goes_through_the_registry_and_sees_the_evidence() -> None:
    register("scripted-review", lambda rest: Scripted(rest))
    llm = get_llm("scripted-review:CONTRADICTED")
    assert llm is not None
    item = load_checklist().get("nda-17")
    got = llm_label(llm, item, ["The Recipient shall not copy anything."])
    assert got is Label.CONTRADICTED
    assert isinstance(llm, Scripted)
    assert "shall not copy anything" in llm.seen[0][1].content
    assert item.hypothesis in llm.seen[0][1].content
    assert llm_label(get_llm("scripted-review:maybe?") or llm, item, ["x"]) is None
    assert llm_label(llm, item, []) is None
