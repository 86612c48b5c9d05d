"""The SSE stream: honest event order for extractive answers (one ``answer`` event) and
for an LLM that streams (``token`` events, then the verified ``answer``), and a client that
disconnects cancels the generation. The LLM is scripted, registered through the real
provider registry: the one boundary we do not own."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from civicsetu.config import ApiSettings, Settings
from civicsetu.llm.base import Completion, Message, Usage, register
from tests.api.conftest import Live, serve


def _source_for(messages: Sequence[Message], label_part: str) -> int:
    for line in messages[-1].content.splitlines():
        if line.startswith("<source") and label_part in line:
            return int(line.split('n="')[1].split('"')[0])
    raise AssertionError(f"no source {label_part} in the prompt")


class StreamingScripted:
    """Answers the deposit question from the source numbered in its prompt, one word per
    token; ``gate`` (when set up) holds each token until the test releases it."""

    produced: ClassVar[list[str]] = []
    stopped: ClassVar[threading.Event] = threading.Event()
    gate: ClassVar[threading.Semaphore | None] = None

    def __init__(self, name: str) -> None:
        self.name = f"streaming:{name}"

    def _reply(self, messages: Sequence[Message]) -> str:
        n = _source_for(messages, "Section 3(2)")
        return f"The landlord must refund the security deposit within one month [{n}]."

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        return Completion(self._reply(messages), self.name, "scripted", Usage(100, 12))

    def stream(self, messages: Sequence[Message], on_token: Callable[[str], None], *,
               max_tokens: int = 512, temperature: float = 0.0,
               stop: Sequence[str] = ()) -> Completion:
        words = re.findall(r"\S+\s*", self._reply(messages))
        try:
            for word in words:
                if StreamingScripted.gate is not None:
                    StreamingScripted.gate.acquire(timeout=30)
                on_token(word)
                StreamingScripted.produced.append(word)
        except BaseException:
            StreamingScripted.stopped.set()
            raise
        return Completion("".join(words), self.name, "scripted", Usage(100, len(words)))


register("streaming", StreamingScripted)

Q = {"question": "Within what time must the landlord refund the security deposit?"}


def events(c: httpx.Client, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of one stream, read to the end."""
    out: list[tuple[str, dict[str, Any]]] = []
    with c.stream("POST", "/api/v1/query/stream", json=body) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        event = ""
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                out.append((event, json.loads(line[6:])))
    return out


@pytest.fixture()
def llm_live(small_home: Path) -> Iterator[Live]:
    StreamingScripted.produced = []
    StreamingScripted.stopped = threading.Event()
    StreamingScripted.gate = None
    settings = Settings(home=small_home, api=ApiSettings(llm_choices=["streaming:a"]))
    with serve(settings) as live:
        yield live


def test_an_extractive_answer_is_one_event_never_fake_tokens(small_live: Live) -> None:
    with small_live.client() as c:
        got = events(c, Q)
        cached = events(c, Q)
        plain = c.post("/api/v1/query", json=Q).json()
    assert [e for e, _ in got] == ["meta", "answer", "final"]
    assert got[1][1]["generator"] == "extractive" and got[1][1]["cached"] is False
    assert got[1][1]["answer"] == got[2][1]["answer"] == plain["answer"]
    assert got[2][1]["citations"] and "Section 3(2)" in got[2][1]["answer"]
    assert [e for e, _ in cached] == ["meta", "answer", "final"]
    assert cached[1][1]["cached"] is True


def test_an_llm_answer_streams_its_tokens_then_the_verified_answer(llm_live: Live) -> None:
    with llm_live.client() as c:
        got = events(c, {**Q, "llm": "streaming:a"})
    names = [e for e, _ in got]
    tokens = [d for e, d in got if e == "token"]
    assert names[0] == "meta" and names[-2:] == ["answer", "final"]
    assert names[1:-2] == ["token"] * len(tokens) and len(tokens) > 5
    assert {t["attempt"] for t in tokens} == {1}
    streamed = "".join(t["text"] for t in tokens)
    final = got[-1][1]
    assert final["generator"] == "streaming:a"
    assert final["answer"].startswith(streamed.split(" [")[0])
    assert [ci["id"] for ci in final["citations"]] == ["model-tenancy-act-2099#s.3(2)"]
    assert final["usage_by_call"]["generate"]["completion_tokens"] == len(tokens)


def test_an_error_mid_stream_is_an_error_event(small_live: Live) -> None:
    with small_live.client() as c:
        got = events(c, {"question": "   "})
    assert [e for e, _ in got] == ["meta", "error"]
    assert got[1][1]["status"] == 400 and got[1][1]["request_id"]


def test_a_client_that_disconnects_cancels_the_generation(llm_live: Live) -> None:
    StreamingScripted.gate = threading.Semaphore(0)
    with llm_live.client() as c, c.stream("POST", "/api/v1/query/stream",
                                          json={**Q, "llm": "streaming:a"}) as r:
        StreamingScripted.gate.release()  # let exactly one token out
        for line in r.iter_lines():
            if line.startswith("event: token"):
                break
    # The client is gone. Wait until the server has noticed (it counts the cancelled
    # stream) before letting more tokens out, so the check does not race the disconnect.
    deadline = time.monotonic() + 30
    with llm_live.client() as c:
        while "civicsetu_stream_cancelled_total 1.0" not in c.get("/metrics").text:
            assert time.monotonic() < deadline, "the server never noticed the disconnect"
            time.sleep(0.05)
    # The next token must stop the LLM instead of being produced.
    for _ in range(3):
        StreamingScripted.gate.release()
    assert StreamingScripted.stopped.wait(timeout=30)
    assert len(StreamingScripted.produced) == 1
