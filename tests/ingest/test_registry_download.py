"""The registry and the downloader against a real HTTP server on localhost."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import InputError, SourceError
from civicsetu.ingest.download import Downloader
from civicsetu.ingest.registry import load_registry

RULES_V1 = """MODEL RULES, 2031
1. Short title.—These rules may be called the Model Rules, 2031.
2. Fees.—The fee under section 2 of the Act is one thousand rupees.
"""


class _Site:
    """Serves ``files`` with ETags and 304s, and counts full downloads."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.downloads: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = site.files.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.end_headers()
                    return
                site.downloads.append(self.path)
                self.send_response(200)
                self.send_header("ETag", etag)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture()
def site() -> Iterator[_Site]:
    s = _Site()
    yield s
    s.server.shutdown()
    s.server.server_close()


def _registry(tmp_path: Path, site: _Site, act: Path, extra: str = "") -> Path:
    path = tmp_path / "registry.toml"
    path.write_text(f'''
[[document]]
id = "model-tenancy-act-2099"
name = "The Model Tenancy Act, 2099"
source = "{act.name}"

[[document]]
id = "model-rules-2031"
name = "Model Rules, 2031"
source = "{site.url}/rules.txt"
jurisdiction = "MH"
doc_type = "rules"
effective_date = 2031-05-01
parent = "model-tenancy-act-2099"
aliases = ["Model Rules"]
[document.derived_from]
"r.2" = "s.3"
{extra}''', encoding="utf-8")
    return path


def test_registry_ingest_downloads_once_and_links_rules_to_the_act(
        tmp_path: Path, site: _Site, small_act: Path) -> None:
    site.files["/rules.txt"] = RULES_V1.encode()
    act = tmp_path / small_act.name
    registry = _registry(tmp_path, site, act)
    with Engine(Settings(home=tmp_path / "home")) as engine:
        first = engine.ingest_registry(registry)
        assert {r.doc_id: r.status for r in first} == {"model-tenancy-act-2099": "added",
                                                      "model-rules-2031": "added"}
        rules = engine.store.document("model-rules-2031")
        assert rules.source == f"{site.url}/rules.txt"
        assert (rules.jurisdiction, rules.doc_type.value, rules.parent_id) == (
            "MH", "rules", "model-tenancy-act-2099")
        assert rules.effective_date is not None and rules.effective_date.year == 2031
        edges = {(e.type, e.dst) for e in engine.store.edges("model-rules-2031#r.2", "out")}
        assert ("DERIVED_FROM", "model-tenancy-act-2099#s.3") in edges  # from the registry
        assert ("DERIVED_FROM", "model-tenancy-act-2099#s.2") in edges  # from the text
        second = engine.ingest_registry(registry)
        assert {r.status for r in second} == {"unchanged"}
    assert site.downloads == ["/rules.txt"]  # the second run got a 304


def test_changed_source_is_downloaded_again_and_updates(
        tmp_path: Path, site: _Site, small_act: Path) -> None:
    site.files["/rules.txt"] = RULES_V1.encode()
    registry = _registry(tmp_path, site, small_act)
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest_registry(registry)
        site.files["/rules.txt"] = RULES_V1.replace("one thousand", "two thousand").encode()
        reports = {r.doc_id: r.status for r in engine.ingest_registry(registry)}
    assert reports["model-rules-2031"] == "updated"
    assert len(site.downloads) == 2


def test_a_missing_url_fails_that_document_only(tmp_path: Path, site: _Site,
                                                small_act: Path) -> None:
    registry = _registry(tmp_path, site, small_act)  # /rules.txt is not served
    with Engine(Settings(home=tmp_path / "home")) as engine:
        reports = {r.doc_id: (r.status, r.message) for r in engine.ingest_registry(registry)}
    assert reports["model-tenancy-act-2099"][0] == "added"
    assert reports["model-rules-2031"][0] == "failed"
    assert "HTTP 404" in reports["model-rules-2031"][1]


def test_offline_uses_the_cache_and_a_pin_guards_the_bytes(tmp_path: Path, site: _Site) -> None:
    site.files["/rules.txt"] = RULES_V1.encode()
    downloader = Downloader(tmp_path / "cache")
    url = f"{site.url}/rules.txt"
    fetched = downloader.fetch(url)
    assert fetched.status == "downloaded" and fetched.path.suffix == ".txt"
    assert fetched.sha256 == hashlib.sha256(RULES_V1.encode()).hexdigest()
    site.server.shutdown()
    site.server.server_close()
    again = downloader.fetch(url)
    assert again.status == "cached-offline" and again.path == fetched.path
    with pytest.raises(SourceError, match="sha256 pin"):
        downloader.fetch(url, expected_sha256="0" * 64)
    with pytest.raises(SourceError, match="cannot download"):
        downloader.fetch(f"{site.url}/never-fetched.pdf")
    assert not list((tmp_path / "cache").glob(".part-*"))
    downloader.close()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not toml [", "not valid TOML"),
        ("[other]\nx = 1\n", "no \\[\\[document\\]\\] entries"),
        ('[[document]]\nid = "Bad Id"\nname = "X Act"\nsource = "a.md"\n', "id"),
        ('[[document]]\nid = "a"\nname = "X Act"\nsource = "a.md"\ndoc_type = "law"\n',
         "doc_type"),
        ('[[document]]\nid = "a"\nname = "X Act"\nsource = "a.md"\nmax_pages = 0\n',
         "max_pages"),
        ('[[document]]\nid = "a"\nname = "X Act"\nsource = "a.md"\n'
         '[[document]]\nid = "a"\nname = "Y Act"\nsource = "b.md"\n', "listed twice"),
    ],
)
def test_bad_registry_names_the_file_and_the_entry(tmp_path: Path, body: str,
                                                    message: str) -> None:
    path = tmp_path / "reg.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        load_registry(path)
    assert str(path) in str(info.value)
