"""Browser fixtures: the real app on a free localhost port, driven by Debian's Chromium.

No browser is ever downloaded: Playwright launches ``/usr/bin/chromium`` (``apt-get install
-y chromium``). Without it the browser tests skip, except under ``CI=true`` where they fail.
Every test leaves ``screenshot*.png`` in its tmp folder; with ``CIVICSETU_UI_SCREENSHOTS=DIR``
the named screenshots are also copied there (``docs/screenshots`` holds the committed set).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("CIVICSETU_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@dataclass
class Served:
    """A running app: its base URL and the home it serves."""

    url: str
    home: Path
    settings: Any


def _chromium_or_skip() -> Path:
    if CHROMIUM.is_file():
        return CHROMIUM
    message = (f"{CHROMIUM} is missing: install Debian's browser with `apt-get install -y "
               "chromium` (the browser tests never download one)")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def start_server(settings: Any) -> tuple[str, Callable[[], None]]:
    """Start ``create_app(settings)`` under uvicorn on a free 127.0.0.1 port (a thread)."""
    uvicorn = pytest.importorskip("uvicorn", reason="install the server extra: "
                                                   "pip install 'civicsetu[server]'")
    from civicsetu.api.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the app did not start")
        time.sleep(0.05)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()

    return f"http://127.0.0.1:{port}", stop


def served_home(bundled_home: Path, target: Path) -> Path:
    """A private copy of the bundled index: the UI tests upload and delete documents."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(bundled_home / "civicsetu.db", target / "civicsetu.db")
    return target


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    return _chromium_or_skip()


@pytest.fixture(scope="session")
def app_server(bundled_home: Path, tmp_path_factory: pytest.TempPathFactory,
               chromium_path: Path) -> Iterator[Served]:
    """The app over a copy of the bundled index, in open mode (bound to 127.0.0.1)."""
    from civicsetu.config import ApiSettings, Settings

    home = served_home(bundled_home, tmp_path_factory.mktemp("ui-home"))
    settings = Settings(home=home, api=ApiSettings(open_mode=True, rate_limit_per_minute=6000,
                                                   rate_limit_burst=1000))
    url, stop = start_server(settings)
    yield Served(url, home, settings)
    stop()


@pytest.fixture(scope="session")
def browser(chromium_path: Path) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="install the dev extra: pip install 'civicsetu[dev]'")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        yield b
        b.close()


class Shots:
    """Saves screenshots into the test's tmp folder (and the docs set when asked)."""

    def __init__(self, page: Any, folder: Path) -> None:
        self.page = page
        self.folder = folder
        self.taken: list[Path] = []

    def __call__(self, name: str, full_page: bool = False) -> Path:
        path = self.folder / f"screenshot-{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page, scale="css")
        self.taken.append(path)
        docs = os.environ.get("CIVICSETU_UI_SCREENSHOTS")
        if docs:
            Path(docs).mkdir(parents=True, exist_ok=True)
            _small_png(path, Path(docs) / f"{name}.png")
        return path


def _small_png(src: Path, dst: Path) -> None:
    """Copy a screenshot as a 256-colour PNG (a third of the size) for the docs."""
    try:
        from PIL import Image  # fpdf2 (dev extra) brings Pillow
    except ImportError:
        shutil.copy2(src, dst)
        return
    with Image.open(src) as image:
        image.convert("RGB").quantize(colors=256).save(dst, optimize=True)


@dataclass
class UI:
    """One browser page on the served app, with offline enforcement and screenshots."""

    page: Any
    url: str
    shot: Shots
    outside: list[str]


def open_ui(browser: Any, served: Served, tmp_path: Path, *, viewport: dict[str, int] | None
            = None, color_scheme: str = "light") -> tuple[Any, UI]:
    """A fresh context; every request leaving the app's origin is refused and recorded."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800},
                                  color_scheme=color_scheme, service_workers="block")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.url)
    outside: list[str] = []

    def guard(route: Any) -> None:
        if route.request.url.startswith(served.url) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return context, UI(page, served.url, Shots(page, tmp_path), outside)


@pytest.fixture()
def ui(browser: Any, app_server: Served, tmp_path: Path) -> Iterator[UI]:
    context, handle = open_ui(browser, app_server, tmp_path)
    yield handle
    if not handle.shot.taken:
        handle.shot("final")
    context.close()
    assert handle.outside == [], f"the UI reached outside the app: {handle.outside}"
