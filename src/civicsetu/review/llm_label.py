"""The LLM label: the model reads the item's statement and the ranked evidence and answers
with one word. The reply is validated; anything else keeps the model-free label."""

from __future__ import annotations

import re
from collections.abc import Sequence

from civicsetu.llm.base import LLM, LLMError, Message
from civicsetu.review.checklist import Item, Label

SYSTEM = ("You check contracts. Read the numbered excerpts of ONE contract and decide "
          "whether they show that the statement is true (ENTAILED), false (CONTRADICTED), or "
          "say nothing about it (NOT_MENTIONED). Use only the excerpts. Answer with one "
          "word: ENTAILED, CONTRADICTED or NOT_MENTIONED.")
_REPLY = re.compile(r"^\W*(ENTAILED|CONTRADICTED|NOT[_ ]MENTIONED)\W*$", re.I)


def prompt(item: Item, evidence: Sequence[str]) -> list[Message]:
    """The two messages sent for one item."""
    excerpts = "\n".join(f"[{i}] {' '.join(t.split())[:600]}"
                         for i, t in enumerate(evidence, 1))
    return [Message("system", SYSTEM),
            Message("user", f"Statement: {item.hypothesis}\n\nExcerpts:\n{excerpts}\n\n"
                            "Answer (one word):")]


def parse_reply(text: str) -> Label | None:
    """The label an LLM reply names, or ``None`` when the reply is not exactly one label."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    m = _REPLY.match(first)
    if not m:
        return None
    return Label(m.group(1).lower().replace(" ", "_"))


def llm_label(llm: LLM, item: Item, evidence: Sequence[str]) -> Label | None:
    """The LLM's label for ``item`` over ``evidence``; ``None`` on an invalid reply or error."""
    if not evidence:
        return None
    try:
        reply = llm.complete(prompt(item, evidence), max_tokens=8, temperature=0.0)
    except LLMError:
        return None
    return parse_reply(reply.text)
