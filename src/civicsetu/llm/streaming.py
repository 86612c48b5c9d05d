"""Honest token streaming: an LLM that can stream implements ``StreamingLLM.stream`` and
the answer generator uses it only while a token sink is installed (the API's SSE route).

Nothing here invents tokens: without a streaming LLM, or without a sink, the generator
makes one ``complete`` call and the caller sends the finished answer as one event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol, runtime_checkable

from civicsetu.llm.base import LLM, Completion, Message

TokenSink = Callable[[str, int], None]  # (text piece, generation attempt starting at 1)

_sink: ContextVar[TokenSink | None] = ContextVar("civicsetu_token_sink", default=None)


@runtime_checkable
class StreamingLLM(Protocol):
    name: str

    def stream(self, messages: Sequence[Message], on_token: Callable[[str], None], *,
               max_tokens: int = 512, temperature: float = 0.0,
               stop: Sequence[str] = ()) -> Completion:
        """Generate like ``complete``, calling ``on_token`` with each piece as it arrives."""
        ...


@contextmanager
def token_sink(sink: TokenSink) -> Iterator[None]:
    """Send generated tokens to ``sink`` for the calls made inside the block."""
    token = _sink.set(sink)
    try:
        yield
    finally:
        _sink.reset(token)


def generate(llm: LLM, messages: Sequence[Message], *, max_tokens: int,
             attempt: int = 1) -> Completion:
    """``llm.complete``, streamed to the installed sink when there is one and it can."""
    sink = _sink.get()
    if sink is None or not isinstance(llm, StreamingLLM):
        return llm.complete(messages, max_tokens=max_tokens)
    return llm.stream(messages, lambda piece: sink(piece, attempt), max_tokens=max_tokens)
