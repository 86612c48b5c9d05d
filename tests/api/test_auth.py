"""API keys over real HTTP: missing, wrong, revoked, in the query string; open mode; the
keys CLI; the rate limit's 429 with Retry-After."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from civicsetu.cli import app as cli_app
from civicsetu.errors import InputError, NotFoundError
from tests.api.conftest import Live

PROBLEM = "application/problem+json"


def _assert_problem(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = r.json()
    assert body["status"] == status and body["detail"] and body["request_id"]
    assert body["request_id"] == r.headers["x-request-id"]
    assert "Traceback" not in r.text
    return body


def test_a_missing_key_is_401_with_a_bearer_challenge(small_live: Live) -> None:
    with small_live.client(key="") as c:
        r = c.get("/api/v1/documents")
    _assert_problem(r, 401)
    assert r.headers["www-authenticate"].startswith("Bearer")


def test_a_wrong_key_is_401(small_live: Live) -> None:
    with small_live.client(key="cs_nothere_" + "x" * 40) as c:
        _assert_problem(c.get("/api/v1/documents"), 401)


def test_a_valid_key_works_as_bearer_and_as_x_api_key(small_live: Live) -> None:
    with small_live.client() as c:
        assert c.get("/api/v1/documents").json()["documents"][0]["id"] == \
            "model-tenancy-act-2099"
    with small_live.client(key="") as c:
        r = c.get("/api/v1/documents", headers={"X-API-Key": small_live.key})
    assert r.status_code == 200


def test_a_key_in_the_query_string_is_refused_even_when_valid(small_live: Live) -> None:
    with small_live.client(key="") as c:
        body = _assert_problem(c.get("/api/v1/documents",
                                     params={"api_key": small_live.key}), 400)
    assert "query string" in body["detail"]
    with small_live.client() as c:  # a valid header does not make it acceptable
        _assert_problem(c.get("/api/v1/documents", params={"token": small_live.key}), 400)


def test_keys_cli_creates_lists_and_revokes(small_live: Live) -> None:
    home = str(small_live.settings.home)
    runner = CliRunner()
    made = runner.invoke(cli_app, ["keys", "create", "alice", "--home", home, "--json"])
    assert made.exit_code == 0, made.output
    created = json.loads(made.output)
    with small_live.client(key=created["key"]) as c:
        assert c.get("/api/v1/documents").status_code == 200
    listed = json.loads(runner.invoke(cli_app, ["keys", "list", "--home", home,
                                                "--json"]).output)
    assert {"alice"} <= {k["name"] for k in listed}
    assert all("key" not in k and "hash" not in k for k in listed)
    db_bytes = (Path(home) / "service.db").read_bytes()
    assert created["key"].encode() not in db_bytes  # only the hash is stored
    assert runner.invoke(cli_app, ["keys", "revoke", created["id"], "--home",
                                   home]).exit_code == 0
    with small_live.client(key=created["key"]) as c:
        body = _assert_problem(c.get("/api/v1/documents"), 401)
    assert "revoked" in body["detail"]
    unknown = runner.invoke(cli_app, ["keys", "revoke", "nope", "--home", home])
    assert isinstance(unknown.exception, NotFoundError)


def test_open_mode_needs_no_key_on_loopback(live_with: Any) -> None:
    with live_with(open_mode=True) as live, live.client(key="") as c:
        assert c.get("/api/v1/documents").status_code == 200


def test_serve_refuses_open_mode_on_a_public_address(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("CIVICSETU_API_OPEN_MODE", "1")
    result = CliRunner().invoke(cli_app, ["serve", "--host", "0.0.0.0", "--home",
                                          str(tmp_path)])
    assert isinstance(result.exception, InputError)
    assert "loopback" in str(result.exception)


def test_the_rate_limit_answers_429_with_retry_after(live_with: Any) -> None:
    with live_with(rate_limit_per_minute=1, rate_limit_burst=2) as live, live.client() as c:
        codes = [c.get("/api/v1/documents").status_code for _ in range(2)]
        r = c.get("/api/v1/documents")
    assert codes == [200, 200]
    body = _assert_problem(r, 429)
    assert int(r.headers["retry-after"]) >= 1
    assert "rate limit" in body["detail"]


def test_health_and_metrics_need_no_key(small_live: Live) -> None:
    with small_live.client(key="") as c:
        health = c.get("/health").json()
        c.get("/api/v1/documents")
        metrics = c.get("/metrics").text
    assert health["status"] == "ok" and health["corpus"]["documents"] == 1
    assert 'civicsetu_http_requests_total{method="GET",route="/api/v1/documents",' \
           'status="401"}' in metrics
