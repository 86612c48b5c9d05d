"""The Ask view renders an LLM's tokens as they arrive, then the verified, cited answer.

The LLM is scripted and registered through the real provider registry (the boundary we do
not own); a semaphore holds its tokens so the test sees the page mid-stream.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from civicsetu.config import ApiSettings, Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.llm.base import Completion, Message, Usage, register
from tests.web.conftest import Served, open_ui, start_server

QUESTION = "Within what time must the landlord refund the security deposit?"


class GatedLLM:
    """Answers from the source numbered "Section 3(2)" in its prompt, one word per token,
    each token waiting for the test to release it."""

    gate: ClassVar[threading.Semaphore] = threading.Semaphore(0)

    def __init__(self, name: str) -> None:
        self.name = f"ui-gated:{name}"

    def _reply(self, messages: Sequence[Message]) -> str:
        for line in messages[-1].content.splitlines():
            if line.startswith("<source") and "Section 3(2)" in line:
                n = int(line.split('n="')[1].split('"')[0])
                break
        else:
            raise AssertionError("no Section 3(2) source in the prompt")
        return ("The landlord must refund the security deposit within one month of the "
                f"tenant vacating the premises [{n}].")

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        return Completion(self._reply(messages), self.name, "scripted", Usage(100, 20))

    def stream(self, messages: Sequence[Message], on_token: Callable[[str], None], *,
               max_tokens: int = 512, temperature: float = 0.0,
               stop: Sequence[str] = ()) -> Completion:
        words = re.findall(r"\S+\s*", self._reply(messages))
        for word in words:
            GatedLLM.gate.acquire(timeout=60)
            on_token(word)
        return Completion("".join(words), self.name, "scripted", Usage(100, len(words)))


register("ui-gated", GatedLLM)


def test_tokens_render_as_they_stream_then_the_cited_answer(
        browser: Any, small_act: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Engine(Settings(home=home)) as engine:
        engine.ingest([SourceSpec(small_act)])
    GatedLLM.gate = threading.Semaphore(0)

    url, stop = start_server(Settings(home=home, llm="ui-gated:a",
                                      api=ApiSettings(open_mode=True)))
    context, ui = open_ui(browser, Served(url, home, None), tmp_path)
    try:
        page = ui.page
        page.goto(url + "/")
        page.get_by_label("Your question").fill(QUESTION)
        page.get_by_label("Your question").press("Enter")
        text = page.locator("article.turn .answer-text")
        GatedLLM.gate.release(4)
        page.wait_for_function(
            "() => document.querySelector('article.turn .answer-text')"
            ".textContent.startsWith('The landlord must refund')")
        assert "streaming" in (text.get_attribute("class") or "")
        assert page.locator("article.turn .chip").count() == 0
        assert page.get_by_role("button", name="Stop").is_visible()
        ui.shot("streaming")
        GatedLLM.gate.release(100)
        page.locator("article.turn .chip").first.wait_for()
        assert "within one month" in text.inner_text()
        assert "streaming" not in (text.get_attribute("class") or "")
        assert "Section 3(2)" in page.locator("article.turn .chip").first.inner_text()
        assert "ui-gated:a" in page.locator("article.turn .turn-meta").inner_text()
        assert ui.outside == []
    finally:
        GatedLLM.gate.release(1000)
        context.close()
        stop()
