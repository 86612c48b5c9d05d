"""Uploads, jobs, delete, provisions and errors over real HTTP on the small Act."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.conftest import Live
from tests.api.test_auth import _assert_problem

OTHER_ACT = """---
title: "The Model Rent Control Act, 2098."
---
# The Model Rent Control Act, 2098.

## Section 1 - Short title.

This Act may be called the Model Rent Control Act, 2098.

## Section 2 - Standard rent.

(1) The Rent Controller shall fix the standard rent of a premises on the application of the
landlord or the tenant, having regard to the prevailing market rent of similar premises.

(2) A landlord who receives more than the standard rent shall refund the excess to the tenant.
"""


def _wait(c: httpx.Client, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job: dict[str, Any] = c.get(f"/api/v1/jobs/{job_id}").json()
        if job["status"] in {"done", "failed"}:
            return job
        time.sleep(0.2)
    raise AssertionError("the job did not finish")


def test_upload_ingests_in_a_job_then_delete_removes_it(small_live: Live) -> None:
    q = {"question": "What must a landlord do who receives more than the standard rent?"}
    with small_live.client() as c:
        before = c.get("/api/v1/documents").json()
        first = c.post("/api/v1/query", json=q).json()
        assert c.post("/api/v1/query", json=q).json()["cached"] is True
        r = c.post("/api/v1/documents",
                   files={"file": ("Model Rent Control Act.md", OTHER_ACT.encode(),
                                   "text/markdown")},
                   data={"doc_type": "act"})
        assert r.status_code == 202, r.text
        job = r.json()
        assert job["status"] in {"queued", "running", "done"} and job["kind"] == "ingest"
        done = _wait(c, job["id"])
        assert done["status"] == "done", done
        assert done["result"]["doc_id"] == "model-rent-control-act"
        assert done["result"]["status"] == "added" and done["result"]["provisions"] >= 3
        after = c.get("/api/v1/documents").json()
        assert after["fingerprint"] != before["fingerprint"]
        assert "model-rent-control-act" in {d["id"] for d in after["documents"]}
        # The ingest invalidated the cache: the same question is answered afresh, now
        # from the new Act.
        again = c.post("/api/v1/query", json=q).json()
        assert again["cached"] is False
        assert any(ci["id"].startswith("model-rent-control-act#")
                   for ci in again["citations"]), again
        assert first["citations"] != again["citations"]
        stored = list((small_live.settings.home / "uploads").glob("*/*"))
        assert [p.name for p in stored] == ["Model Rent Control Act.md"]
        assert c.delete("/api/v1/documents/model-rent-control-act").status_code == 204
        assert "model-rent-control-act" not in {
            d["id"] for d in c.get("/api/v1/documents").json()["documents"]}
        _assert_problem(c.delete("/api/v1/documents/model-rent-control-act"), 404)
        _assert_problem(c.get("/api/v1/jobs/" + "0" * 32), 404)


@pytest.mark.parametrize("name", ["../../evil.md", "..\\..\\evil.md", "sub/evil.md",
                                  "/etc/evil.md", "..md", "evil\x00.md"])
def test_upload_names_that_could_escape_are_refused(small_live: Live, name: str,
                                                    tmp_path: Path) -> None:
    with small_live.client() as c:
        r = c.post("/api/v1/documents", files={"file": (name, OTHER_ACT.encode())})
    _assert_problem(r, 400)
    home = small_live.settings.home
    assert not (home / "uploads").exists() or not any((home / "uploads").rglob("*.md"))
    assert not list(home.parent.glob("evil*")) and not list(tmp_path.rglob("evil*"))


def test_upload_type_size_and_emptiness_are_checked(live_with: Any) -> None:
    with live_with(max_upload_mb=1) as live, live.client() as c:
        _assert_problem(c.post("/api/v1/documents",
                               files={"file": ("tool.exe", b"MZ\x90\x00")}), 415)
        big = b"a" * (1024 * 1024 + 1)
        _assert_problem(c.post("/api/v1/documents", files={"file": ("big.md", big)}), 413)
        huge = b"a" * (2 * 1024 * 1024)  # over the whole-request limit: refused unread
        _assert_problem(c.post("/api/v1/documents", files={"file": ("huge.md", huge)}), 413)
        _assert_problem(c.post("/api/v1/documents", files={"file": ("empty.md", b"")}), 400)
        _assert_problem(c.post("/api/v1/documents",
                               files={"file": ("ok.md", b"x")}, data={"doc_id": "Bad Id"}),
                        400)


def test_problem_documents_for_bad_requests(live_with: Any) -> None:
    with live_with(max_body_kb=1) as live, live.client() as c:
        body = _assert_problem(c.get("/api/v1/provisions/model-tenancy-act-2099%23s.99"), 404)
        assert "s.99" in body["detail"]
        _assert_problem(c.get("/api/v1/provisions/no-hash-here"), 400)
        _assert_problem(c.post("/api/v1/query", json={"question": ""}), 422)
        _assert_problem(c.post("/api/v1/query", json={"nope": 1}), 422)
        _assert_problem(c.post("/api/v1/query", content=b"{not json",
                               headers={"content-type": "application/json"}), 422)
        _assert_problem(c.post("/api/v1/query", json={"question": "x" * 2000}), 413)
        body = _assert_problem(c.post("/api/v1/query", json={"question": "rent",
                                                             "llm": "gguf:/etc/passwd"}), 400)
        assert "not offered" in body["detail"]
        _assert_problem(c.get("/api/v1/graph/provision/model-tenancy-act-2099%23s.3",
                              params={"depth": 9}), 400)
        _assert_problem(c.get("/api/v1/nothing-here"), 404)


def test_a_provision_shows_its_place_versions_and_links(small_live: Live) -> None:
    with small_live.client() as c:
        p = c.get("/api/v1/provisions/model-tenancy-act-2099%23s.3(2)").json()
        doc = c.get("/api/v1/provisions/model-tenancy-act-2099%23s.3").json()
    assert p["label"] == "Section 3(2)" and "refund the security deposit" in p["text"]
    assert [b["id"] for b in p["breadcrumb"]] == [
        "model-tenancy-act-2099", "model-tenancy-act-2099#s.3", "model-tenancy-act-2099#s.3(2)"]
    assert p["parent"]["id"] == "model-tenancy-act-2099#s.3"
    assert p["previous"]["id"] == "model-tenancy-act-2099#s.3(1)" and p["next"] is None
    assert [ch["id"] for ch in doc["children"]] == ["model-tenancy-act-2099#s.3(1)",
                                                    "model-tenancy-act-2099#s.3(2)"]
    assert doc["previous"]["id"] == "model-tenancy-act-2099#s.2"
    assert doc["next"]["id"] == "model-tenancy-act-2099#s.4"
    assert doc["footnotes"][0]["text"].startswith("Illustrative footnote")
    assert len(doc["versions"]) == 1
