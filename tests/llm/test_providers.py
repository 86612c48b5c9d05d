"""LLM providers: the registry, the fallback chain, and a real OpenAI-compatible HTTP
server on localhost (a small stdlib server speaking the chat-completions protocol)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from civicsetu.errors import InputError
from civicsetu.llm.base import (
    Completion,
    LLMError,
    Message,
    ProviderUnavailable,
    RateLimited,
    get_llm,
    register,
)
from civicsetu.llm.fallback import FallbackChain
from civicsetu.llm.openai_compat import OpenAICompatible


class Scripted:
    """A scripted LLM: replies in order; raises the error instances it is given."""

    def __init__(self, name: str, replies: Sequence[str | Exception]) -> None:
        self.name = name
        self.replies = list(replies)
        self.calls: list[Sequence[Message]] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        self.calls.append(messages)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return Completion(reply, self.name, "scripted")


class _ChatServer:
    def __init__(self, statuses: list[int]) -> None:
        self.statuses = statuses
        self.bodies: list[dict[str, object]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                server.bodies.append(json.loads(self.rfile.read(length)))
                status = server.statuses.pop(0) if server.statuses else 200
                payload = {"model": "tiny", "choices": [{"message": {
                    "role": "assistant", "content": "Section 3 says so [1]."}}],
                    "usage": {"prompt_tokens": 42, "completion_tokens": 7}}
                data = json.dumps(payload if status == 200 else {"error": "x"}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture()
def chat_server() -> Iterator[_ChatServer]:
    server = _ChatServer([])
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def test_openai_compatible_sends_the_protocol_and_reads_usage(chat_server: _ChatServer) -> None:
    llm = get_llm(f"openai-compatible:tiny@{chat_server.url}")
    assert llm is not None
    out = llm.complete([Message("system", "rules"), Message("user", "q")], max_tokens=64)
    assert out.text == "Section 3 says so [1]." and out.usage.total == 49
    body = chat_server.bodies[0]
    assert body["model"] == "tiny" and body["max_tokens"] == 64
    assert body["messages"] == [{"role": "system", "content": "rules"},
                                {"role": "user", "content": "q"}]


@pytest.mark.parametrize(("status", "error"), [(429, RateLimited), (503, ProviderUnavailable),
                                               (400, LLMError)])
def test_http_errors_map_to_typed_errors(chat_server: _ChatServer, status: int,
                                         error: type[LLMError]) -> None:
    chat_server.statuses.append(status)
    with pytest.raises(error):
        OpenAICompatible("tiny", chat_server.url).complete([Message("user", "q")])


def test_fallback_moves_on_only_for_retryable_errors(chat_server: _ChatServer) -> None:
    first = Scripted("first", [RateLimited("429")])
    chain = FallbackChain([first, OpenAICompatible("tiny", chat_server.url)])
    assert chain.complete([Message("user", "q")]).provider == "openai-compatible"
    hard = Scripted("hard", [LLMError("bad key")])
    with pytest.raises(LLMError, match="bad key"):
        FallbackChain([hard, Scripted("never", ["x"])]).complete([Message("user", "q")])


def test_unreachable_server_is_unavailable() -> None:
    with pytest.raises(ProviderUnavailable, match="is the server running"):
        OpenAICompatible("m", "http://127.0.0.1:9/v1").complete([Message("user", "q")])


def test_registry_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert get_llm(None) is None and get_llm("none") is None
    register("scripted", lambda rest: Scripted(rest, ["hello"]))
    llm = get_llm("scripted:a,scripted:b")
    assert isinstance(llm, FallbackChain) and llm.name == "a,b"
    with pytest.raises(InputError, match="unknown LLM"):
        get_llm("nope:model")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(InputError, match="OPENAI_API_KEY"):
        get_llm("openai:gpt-4o-mini")
    with pytest.raises(InputError, match="MODEL@BASE_URL"):
        get_llm("openai-compatible:no-url")


def test_a_gguf_split_across_packages_is_joined_once(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from civicsetu.llm.llama_cpp import _joined_parts

    packages = tmp_path / "site"
    for n, chunk in enumerate([b"GGUF\x03\x00", b"rest-of-model"], start=1):
        folder = packages / f"splitmodel_part{n}"
        (folder / "data").mkdir(parents=True)
        (folder / "data" / f"part{n:02d}.bin").write_bytes(chunk)
        (folder / "__init__.py").write_text(
            "import os\ndef get_part_path():\n    return os.path.join(os.path.dirname("
            f"__file__), 'data', 'part{n:02d}.bin')\n")
    monkeypatch.syspath_prepend(str(packages))
    dest = tmp_path / "models" / "joined.gguf"
    assert _joined_parts("splitmodel_part", 2, dest) == dest
    assert dest.read_bytes() == b"GGUF\x03\x00rest-of-model"
    with pytest.raises(InputError, match="splitmodel_part3 is not installed"):
        _joined_parts("splitmodel_part", 3, tmp_path / "other.gguf")
    assert not list((tmp_path / "models").glob("*.part"))
