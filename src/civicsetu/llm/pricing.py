"""Estimated cost of LLM calls, per call type (classify, generate, ...).

Prices are USD per million tokens (input, output) for hosted models we know; local models
(GGUF, Ollama, llama.cpp server) cost nothing. ``CIVICSETU_LLM_PRICE="0.15,0.60"``
overrides the table for whatever model is in use. The numbers are estimates for
budgeting, taken from the providers' public price lists; check them before relying on
them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from civicsetu.llm.base import Completion

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "openai:gpt-4o-mini": (0.15, 0.60),
    "openai:gpt-4o": (2.50, 10.00),
    "groq:llama-3.1-8b-instant": (0.05, 0.08),
    "groq:llama-3.3-70b-versatile": (0.59, 0.79),
}
FREE_PROVIDERS = {"gguf", "ollama", "openai-compatible", "scripted"}


def price_of(provider: str, model: str) -> tuple[float, float]:
    override = os.environ.get("CIVICSETU_LLM_PRICE")
    if override:
        try:
            prompt, completion = (float(x) for x in override.split(","))
            return prompt, completion
        except ValueError:
            pass
    if provider in FREE_PROVIDERS:
        return 0.0, 0.0
    return PRICES_PER_MTOK.get(f"{provider}:{model}", (0.0, 0.0))


@dataclass(slots=True)
class Meter:
    """Tokens and estimated dollars, by call type."""

    by_call: dict[str, dict[str, float]] = field(default_factory=dict)

    def add(self, call_type: str, completion: Completion) -> None:
        prompt_price, completion_price = price_of(completion.provider, completion.model)
        row = self.by_call.setdefault(call_type, {"calls": 0, "prompt_tokens": 0,
                                                  "completion_tokens": 0, "cost_usd": 0.0})
        row["calls"] += 1
        row["prompt_tokens"] += completion.usage.prompt_tokens
        row["completion_tokens"] += completion.usage.completion_tokens
        row["cost_usd"] += (completion.usage.prompt_tokens * prompt_price
                            + completion.usage.completion_tokens * completion_price) / 1e6

    @property
    def cost_usd(self) -> float:
        return round(sum(r["cost_usd"] for r in self.by_call.values()), 6)
