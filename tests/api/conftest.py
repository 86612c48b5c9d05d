"""Real HTTP: the app runs in uvicorn on a free localhost port, in a thread of the test
process (so a scripted LLM registered by a test is the one the server uses)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from civicsetu.api import create_app
from civicsetu.api.servicedb import ServiceDB
from civicsetu.config import ApiSettings, Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from tests.conftest import SMALL_ACT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Live:
    url: str
    settings: Settings
    key: str

    def client(self, key: str | None = None, **kw: Any) -> httpx.Client:
        """An HTTP client sending ``key`` (default: the fixture's key; "" sends none)."""
        key = self.key if key is None else key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=120, **kw)


def new_key(settings: Settings, name: str = "test") -> str:
    db = ServiceDB(settings.home / "service.db")
    try:
        return db.create_key(name)[1]
    finally:
        db.close()


@contextmanager
def serve(settings: Settings) -> Iterator[Live]:
    """Run the app on a free port until the block ends."""
    port = free_port()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False,
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield Live(f"http://127.0.0.1:{port}", settings, new_key(settings))
    finally:
        server.should_exit = True
        thread.join(timeout=10)


ServeFactory = Callable[..., Any]


@pytest.fixture()
def small_home(tmp_path: Path) -> Path:
    """A home with the small model tenancy Act ingested (real parser, real embedder)."""
    home = tmp_path / "home"
    src = tmp_path / "model-tenancy-act-2099.md"
    src.write_text(SMALL_ACT, encoding="utf-8")
    with Engine(Settings(home=home)) as engine:
        engine.ingest([SourceSpec(src)])
    return home


@pytest.fixture()
def small_live(small_home: Path) -> Iterator[Live]:
    with serve(Settings(home=small_home)) as live:
        yield live


@pytest.fixture()
def live_with(small_home: Path) -> Callable[..., Any]:
    """``with live_with(rate_limit_per_minute=1): ...`` serves the small home with API
    settings changed."""

    def make(**api: Any) -> Any:
        return serve(Settings(home=small_home, api=ApiSettings(**api)))

    return make


@pytest.fixture(scope="module")
def bundled_live(bundled_home: Path) -> Iterator[Live]:
    with serve(Settings(home=bundled_home,
                        api=ApiSettings(rate_limit_per_minute=100000,
                                        rate_limit_burst=100000))) as live:
        yield live
