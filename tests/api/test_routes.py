"""Every route on the bundled 11-Act index over real HTTP (slow: needs the bundle)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.api.conftest import Live
from tests.api.test_stream import events

RERA = "the-real-estate-regulation-and-development-act-2016"
Q = "What is the penalty for not registering a real estate project?"

pytestmark = pytest.mark.slow


def _pid(full_id: str) -> str:
    return quote(full_id, safe="")


def test_query_answers_with_verified_citations_then_from_the_cache(bundled_live: Live) -> None:
    with bundled_live.client() as c:
        first = c.post("/api/v1/query", json={"question": Q}).json()
        second = c.post("/api/v1/query", json={"question": "  what is the PENALTY for not "
                                                           "registering a real estate project"}
                        ).json()
        filtered = c.post("/api/v1/query", json={"question": Q, "documents": [RERA],
                                                 "as_of": "2020-01-01"}).json()
    assert not first["abstained"] and first["cached"] is False
    assert any(ci["id"].startswith(f"{RERA}#s.59") for ci in first["citations"])
    assert first["disclaimer"] and first["confidence"] in {"high", "medium", "low"}
    assert second["cached"] is True and second["answer"] == first["answer"]
    assert filtered["cached"] is False
    assert all(ci["id"].startswith(RERA) for ci in filtered["citations"])


def test_research_mode_reports_its_steps(bundled_live: Live) -> None:
    with bundled_live.client() as c:
        r = c.post("/api/v1/query", json={"question": "What is the penalty for not "
                                          "registering a project and who may file a "
                                          "complaint?", "mode": "research"}).json()
    assert r["research_steps"] and all(s["question"] for s in r["research_steps"])


def test_stream_of_an_extractive_answer(bundled_live: Live) -> None:
    with bundled_live.client() as c:
        got = events(c, {"question": "Which documents require compulsory registration under "
                                     "the Registration Act?"})
    assert [e for e, _ in got] == ["meta", "answer", "final"]
    assert got[2][1]["citations"]


def test_search_provision_and_graph(bundled_live: Live) -> None:
    with bundled_live.client() as c:
        hits = c.get("/api/v1/search", params={"q": "refund of amount paid by allottee",
                                               "k": 5, "doc": RERA}).json()["hits"]
        p = c.get(f"/api/v1/provisions/{_pid(RERA + '#s.18(1)')}").json()
        topo = c.get("/api/v1/graph/topology",
                     params={"type": ["REFERENCES", "DERIVED_FROM"], "max_nodes": 200}).json()
        small = c.get("/api/v1/graph/topology", params={"doc": RERA, "max_nodes": 10}).json()
        hood = c.get(f"/api/v1/graph/provision/{_pid(RERA + '#s.59(1)')}",
                     params={"depth": 1}).json()
    assert len(hits) == 5 and all(h["doc_id"] == RERA for h in hits)
    assert p["label"] == "Section 18(1)" and p["breadcrumb"][0]["id"] == RERA
    assert p["parent"]["id"] == f"{RERA}#s.18" and p["children"]
    assert len(topo["nodes"]) == 200 and topo["truncated"] is True
    ids = {n["id"] for n in topo["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in topo["edges"])
    assert {e["type"] for e in topo["edges"]} <= {"REFERENCES", "DERIVED_FROM"}
    assert len(small["nodes"]) <= 10
    centre = [n for n in hood["nodes"] if n["distance"] == 0]
    assert [n["id"] for n in centre] == [f"{RERA}#s.59(1)"]
    assert f"{RERA}#s.3" in {n["id"] for n in hood["nodes"]}
    assert {"source": f"{RERA}#s.59(1)", "target": f"{RERA}#s.3",
            "type": "REFERENCES"} in hood["edges"]


def test_a_conversation_rewrites_follow_ups(bundled_live: Live) -> None:
    with bundled_live.client() as c:
        first = c.post("/api/v1/sessions/t1/messages",
                       json={"message": "What is the penalty for not registering a real "
                                        "estate project?"}).json()
        follow = c.post("/api/v1/sessions/t1/messages",
                        json={"message": "And what if he still does not register?"}).json()
        bad = c.post("/api/v1/sessions/bad id!/messages", json={"message": "x"})
    assert first["suggestions"] and first["answer"]["citations"]
    assert follow["searched"] != "And what if he still does not register?"
    assert bad.status_code in {404, 422}


def test_health_and_metrics_after_answers(bundled_live: Live) -> None:
    with bundled_live.client() as c:
        c.post("/api/v1/query", json={"question": Q})
        health = c.get("/health").json()
        metrics = c.get("/metrics").text
    assert health["status"] == "ok" and health["corpus"]["documents"] == 11
    assert health["embedder_loaded"] is True
    assert 'civicsetu_answer_cache_total{result="hit"}' in metrics
    assert "civicsetu_answer_phase_seconds_count" in metrics
    assert 'route="/api/v1/query"' in metrics
