"""An ordered chain of LLMs: on a rate limit, 5xx or timeout, try the next one."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from civicsetu.llm.base import LLM, Completion, LLMError, Message

log = logging.getLogger(__name__)


class FallbackChain:
    def __init__(self, llms: Sequence[LLM]) -> None:
        if not llms:
            raise ValueError("a fallback chain needs at least one LLM")
        self.llms = list(llms)
        self.name = ",".join(llm.name for llm in self.llms)

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        errors: list[str] = []
        for llm in self.llms:
            try:
                return llm.complete(messages, max_tokens=max_tokens, temperature=temperature,
                                    stop=stop)
            except LLMError as exc:
                if not exc.retryable:
                    raise
                log.warning("llm_fallback from=%s error=%s", llm.name, exc)
                errors.append(str(exc))
        raise LLMError("every LLM in the chain failed: " + " | ".join(errors))
