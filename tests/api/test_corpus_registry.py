"""POST /api/v1/documents with a JSON registry entry, over real HTTP: server paths only
inside ``source_roots`` (after symlinks), URLs only when ``allow_url_sources`` is on."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_auth import _assert_problem
from tests.api.test_corpus import OTHER_ACT, _wait


def _entry(source: str, doc_id: str = "model-rent-control-act-2098") -> dict[str, Any]:
    return {"id": doc_id, "name": "Registry Rent Control Act, 2098", "source": source,
            "jurisdiction": "IN", "doc_type": "act", "effective_date": "2098-01-01",
            "aliases": ["Rent Control Act"]}


@pytest.fixture()
def roots(tmp_path: Path) -> tuple[Path, Path]:
    """An allowed folder holding the Act and a folder outside it holding a secret file."""
    allowed = tmp_path / "sources"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (allowed / "rent-act.md").write_text(OTHER_ACT, encoding="utf-8")
    (outside / "secret.md").write_text(OTHER_ACT.replace("2098", "2097"), encoding="utf-8")
    return allowed, outside


def test_a_path_entry_inside_a_root_is_ingested_and_listed(live_with: Any,
                                                           roots: tuple[Path, Path]) -> None:
    allowed, _ = roots
    with live_with(source_roots=[allowed]) as live, live.client() as c:
        before = c.get("/api/v1/documents").json()["fingerprint"]
        r = c.post("/api/v1/documents", json=_entry(str(allowed / "rent-act.md")))
        assert r.status_code == 202, r.text
        job = r.json()
        assert job["kind"] == "ingest" and job["filename"] == "rent-act.md"
        done = _wait(c, job["id"])
        assert done["status"] == "done", done
        assert done["result"]["doc_id"] == "model-rent-control-act-2098"
        assert done["result"]["status"] == "added" and done["result"]["provisions"] >= 3
        listed = c.get("/api/v1/documents").json()
        assert listed["fingerprint"] != before
        doc = next(d for d in listed["documents"] if d["id"] == "model-rent-control-act-2098")
        assert doc["title"] == "Registry Rent Control Act, 2098"  # the entry's name
        assert doc["source"].endswith("rent-act.md")
        # Nothing was copied into the upload folder: the file was read where it is.
        assert not (live.settings.home / "uploads").exists()


def _secret_ingested(c: Any) -> bool:
    ids = {d["id"] for d in c.get("/api/v1/documents").json()["documents"]}
    return "model-rent-control-act-2098" in ids


def test_paths_outside_the_roots_are_refused(live_with: Any, roots: tuple[Path, Path],
                                             tmp_path: Path) -> None:
    allowed, outside = roots
    (allowed / "link-out.md").symlink_to(outside / "secret.md")
    (allowed / "dir-out").symlink_to(outside, target_is_directory=True)
    refused = {
        str(outside / "secret.md"): 403,                      # absolute, outside
        f"{allowed}/../outside/secret.md": 403,               # traversal
        str(allowed / "link-out.md"): 403,                    # symlink to a file outside
        str(allowed / "dir-out" / "secret.md"): 403,          # through a symlinked folder
        str(allowed / "missing.md"): 403,                     # not a file
        str(allowed): 403,                                    # a folder
        "/etc/passwd": 403,
        "../outside/secret.md": 400,                          # relative
        "rent-act.md": 400,
        "file:///etc/passwd": 400,                            # not http(s)
        "ftp://127.0.0.1/secret.md": 400,
    }
    with live_with(source_roots=[allowed]) as live, live.client() as c:
        for source, status in refused.items():
            body = _assert_problem(c.post("/api/v1/documents", json=_entry(source)), status)
            if status == 403:
                assert "CIVICSETU_API_SOURCE_ROOTS" in body["detail"], source
        assert not _secret_ingested(c)
        assert live.settings.api.source_roots == [allowed]


def test_paths_are_refused_when_no_root_is_configured(small_live: Any,
                                                      roots: tuple[Path, Path]) -> None:
    allowed, _ = roots
    with small_live.client() as c:
        body = _assert_problem(
            c.post("/api/v1/documents", json=_entry(str(allowed / "rent-act.md"))), 403)
        assert "CIVICSETU_API_SOURCE_ROOTS" in body["detail"]
        # The entry is checked by the registry's own model.
        _assert_problem(c.post("/api/v1/documents", json={"id": "Bad Id", "name": "x",
                                                          "source": "/x"}), 422)
        _assert_problem(c.post("/api/v1/documents", json={**_entry("/x"), "extra": 1}), 422)
        _assert_problem(c.post("/api/v1/documents", content=b"{not json",
                               headers={"content-type": "application/json"}), 422)
        assert not _secret_ingested(c)


@pytest.fixture()
def act_server(roots: tuple[Path, Path]) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 serving the allowed folder."""
    allowed, _ = roots
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(allowed))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_urls_are_refused_by_default(small_live: Any, act_server: str) -> None:
    with small_live.client() as c:
        body = _assert_problem(
            c.post("/api/v1/documents", json=_entry(f"{act_server}/rent-act.md")), 403)
        assert "CIVICSETU_API_ALLOW_URL_SOURCES" in body["detail"]
        assert not _secret_ingested(c)
    assert not (small_live.settings.home / "downloads").exists()


def test_urls_are_downloaded_and_ingested_when_allowed(live_with: Any,
                                                       act_server: str) -> None:
    with live_with(allow_url_sources=True) as live, live.client() as c:
        url = f"{act_server}/rent-act.md"
        r = c.post("/api/v1/documents", json=_entry(url))
        assert r.status_code == 202, r.text
        done = _wait(c, r.json()["id"])
        assert done["status"] == "done", done
        assert done["result"]["doc_id"] == "model-rent-control-act-2098"
        assert _secret_ingested(c)
        assert list((live.settings.home / "downloads").glob("*.md"))
        # Still only http(s), even when URLs are allowed.
        _assert_problem(c.post("/api/v1/documents",
                               json=_entry("file:///etc/passwd", "other-doc")), 400)
        # A URL that cannot be fetched fails the job, not the request.
        r = c.post("/api/v1/documents", json=_entry(f"{act_server}/missing.md", "gone"))
        failed = _wait(c, r.json()["id"])
        assert failed["status"] == "failed" and "404" in failed["error"], failed
