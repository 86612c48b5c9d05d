"""The ``LLM`` protocol, its records, and the registry that builds one from a spec string.

A spec names a provider and a model: ``openai:gpt-4o-mini``, ``ollama:qwen2.5:1.5b``,
``openai-compatible:MODEL@http://127.0.0.1:8080/v1``, ``gguf:/path/model.gguf``, or
``none`` (no LLM: the extractive answerer). Several specs joined by ``,`` make an ordered
fallback chain. Providers register a factory by scheme; tests register a scripted LLM
the same way, so the code under test takes the real path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from civicsetu.errors import CivicSetuError, InputError

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    model: str
    provider: str
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0


class LLMError(CivicSetuError):
    """A provider failed; ``retryable`` errors move a fallback chain to the next provider."""

    exit_code = 7
    retryable = False


class RateLimited(LLMError):
    retryable = True


class ProviderUnavailable(LLMError):
    """5xx, timeouts and refused connections."""

    retryable = True


class LLM(Protocol):
    name: str

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion: ...


Factory = Callable[[str], LLM]
_REGISTRY: dict[str, Factory] = {}


def register(scheme: str, factory: Factory) -> None:
    """Make ``scheme:REST`` specs build an LLM with ``factory(REST)``."""
    _REGISTRY[scheme] = factory


def schemes() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def get_llm(spec: str | None) -> LLM | None:
    """The LLM a spec names, a fallback chain for ``a,b``, or ``None`` for ``none``/empty."""
    if spec is None or spec.strip().lower() in {"", "none"}:
        return None
    _load_builtins()
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    llms = [_one(p) for p in parts]
    if len(llms) == 1:
        return llms[0]
    from civicsetu.llm.fallback import FallbackChain

    return FallbackChain(llms)


def _one(spec: str) -> LLM:
    scheme, sep, rest = spec.partition(":")
    if not sep or scheme not in _REGISTRY:
        raise InputError(f"unknown LLM {spec!r}; use one of {', '.join(schemes())} as "
                         "SCHEME:MODEL (e.g. openai:gpt-4o-mini, ollama:qwen2.5:1.5b, "
                         "gguf:/path/model.gguf), or none")
    return _REGISTRY[scheme](rest)


def _load_builtins() -> None:
    if "openai" in _REGISTRY:
        return
    from civicsetu.llm import llama_cpp, openai_compat

    openai_compat.register_builtins()
    llama_cpp.register_builtins()
