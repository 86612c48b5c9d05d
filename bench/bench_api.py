"""Load test of the HTTP service on loopback, compared with in-process ``ask`` in the same run.

    python -m bench.bench_api [--seed-home DIR] [--seconds 60] [--clients 20] [--workers 2]

Starts ``civicsetu serve --workers N`` on a copy of the bundled index, then:
1. in-process baseline: ``Engine.ask`` and ``Engine.search`` on the dev-set questions;
2. one client, one request at a time, answer cache off: HTTP ``/query`` latency against
   the in-process ``ask`` on the same questions (the ratio is the service overhead);
3. cold cache (cache off) and warm cache (every question asked before): CLIENTS concurrent
   clients for SECONDS each, mixing ``/query`` (extractive; half of them through the SSE
   stream, timing the first event and the answer event), ``/search`` and ``/provisions``.
Writes the ``bench_api`` section of docs/BENCHMARKS.md. The load generator runs on the same
cores as the server, so absolute numbers understate a server with its own machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from bench.bench_core import _machine
from bench.sections import write_section
from civicsetu.api.servicedb import ServiceDB
from civicsetu.config import Settings
from civicsetu.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
DEV = Path(os.environ.get("CIVICSETU_SHARED", ROOT.parent / "shared")) / "eval" / \
    "legal_qa_dev.jsonl"
if not DEV.exists():
    DEV = Path("/work/shared/eval/legal_qa_dev.jsonl")
MIX = (("query", 0.2), ("stream", 0.2), ("search", 0.3), ("provision", 0.3))


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values`` in ms; nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank] * 1000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def load_dev() -> tuple[list[str], list[str]]:
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
    questions = [r["query"] for r in rows]
    provisions = sorted({p for r in rows for p in r.get("gold_provisions", [])})
    return questions, provisions


def in_process(home: Path, questions: list[str]) -> dict[str, list[float]]:
    """Seconds per ``ask`` and per ``search`` in this process (after one warm-up pass)."""
    out: dict[str, list[float]] = {"ask": [], "search": []}
    with Engine(Settings(home=home)) as engine:
        for q in questions[:5]:
            engine.ask(q)
        for q in questions:
            t0 = time.perf_counter()
            engine.ask(q)
            out["ask"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            engine.search(q)
            out["search"].append(time.perf_counter() - t0)
    return out


class Server:
    def __init__(self, home: Path, workers: int, cache_ttl: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "CIVICSETU_HOME": str(home),
               "CIVICSETU_API_CACHE_TTL_SECONDS": str(cache_ttl),
               "CIVICSETU_API_RATE_LIMIT_PER_MINUTE": "100000000",
               "CIVICSETU_API_RATE_LIMIT_BURST": "100000000",
               "PYTHONPATH": os.pathsep.join([str(ROOT / "src"),
                                              os.environ.get("PYTHONPATH", "")])}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "civicsetu.cli", "serve", "--port", str(self.port),
             "--workers", str(workers)], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGKILL)


def sequential(url: str, key: str, questions: list[str]) -> list[float]:
    """Seconds per /query, one at a time."""
    out = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                      timeout=60) as c:
        for q in questions[:5]:
            c.post("/api/v1/query", json={"question": q}).raise_for_status()
        for q in questions:
            t0 = time.perf_counter()
            c.post("/api/v1/query", json={"question": q}).raise_for_status()
            out.append(time.perf_counter() - t0)
    return out


async def _client(c: httpx.AsyncClient, rng: random.Random, until: float,
                  questions: list[str], provisions: list[str],
                  rec: dict[str, Any]) -> None:
    ops, weights = zip(*MIX, strict=True)
    while time.perf_counter() < until:
        op = rng.choices(ops, weights)[0]
        q = rng.choice(questions)
        t0 = time.perf_counter()
        try:
            if op == "query":
                r = await c.post("/api/v1/query", json={"question": q})
                ok = r.status_code == 200
                if ok and r.json()["cached"]:
                    rec["cached"] += 1
            elif op == "stream":
                first = answer = None
                async with c.stream("POST", "/api/v1/query/stream",
                                    json={"question": q}) as r:
                    ok = r.status_code == 200
                    async for line in r.aiter_lines():
                        if line.startswith("event: ") and first is None:
                            first = time.perf_counter() - t0
                        if line == "event: answer":
                            answer = time.perf_counter() - t0
                        if line == "event: error":
                            ok = False
                if first is not None:
                    rec["first_event"].append(first)
                if answer is not None:
                    rec["answer_event"].append(answer)
            elif op == "search":
                r = await c.get("/api/v1/search", params={"q": q, "k": 10})
                ok = r.status_code == 200
            else:
                pid = quote(rng.choice(provisions), safe="")
                r = await c.get(f"/api/v1/provisions/{pid}")
                ok = r.status_code in (200, 404)  # a gold id may be a path not in the index
                if r.status_code == 404:
                    rec["not_found"] += 1
        except httpx.HTTPError:
            ok = False
        elapsed = time.perf_counter() - t0
        rec["lat"].setdefault(op, []).append(elapsed)
        if not ok:
            rec["errors"] += 1
        if op in ("query", "stream"):
            rec["queries"] += 1


async def load(url: str, key: str, clients: int, seconds: float, questions: list[str],
               provisions: list[str], seed: int) -> dict[str, Any]:
    rec: dict[str, Any] = {"lat": {}, "errors": 0, "cached": 0, "queries": 0,
                           "not_found": 0, "first_event": [], "answer_event": []}
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"},
                                 timeout=120, limits=limits) as c:
        t0 = time.perf_counter()
        until = t0 + seconds
        await asyncio.gather(*(_client(c, random.Random(seed + i), until, questions,
                                       provisions, rec) for i in range(clients)))
        rec["wall"] = time.perf_counter() - t0
    return rec


def _rows(rec: dict[str, Any]) -> list[str]:
    rows = []
    every: list[float] = []
    for op, _ in MIX:
        lat = rec["lat"].get(op, [])
        every += lat
        rows.append(f"| {op} | {len(lat)} | {pct(lat, 50):.0f} | {pct(lat, 95):.0f} | "
                    f"{pct(lat, 99):.0f} |")
    rows.append(f"| **all** | {len(every)} | {pct(every, 50):.0f} | {pct(every, 95):.0f} | "
                f"{pct(every, 99):.0f} |")
    return rows


def report(args: argparse.Namespace, base: dict[str, list[float]], seq: list[float],
           cold: dict[str, Any], warm: dict[str, Any], n_q: int) -> str:
    ask50 = pct(base["ask"], 50)
    http50 = pct(seq, 50)
    lines = [
        "## HTTP service under load",
        "",
        f"Machine: {_machine()}. Produced by `python -m bench.bench_api --seconds "
        f"{args.seconds:g} --clients {args.clients} --workers {args.workers}` on "
        f"{time.strftime('%Y-%m-%d')} (bundled 11-Act index, {n_q} dev-set questions). The "
        "load generator shares the 2 cores with the server, and the machine is shared; "
        "compare the ratios.",
        "",
        "### Service overhead (one client, one request at a time, answer cache off)",
        "",
        "| operation | p50 ms | p95 ms | n |",
        "|---|---|---|---|",
        f"| in-process `Engine.ask` | {ask50:.1f} | {pct(base['ask'], 95):.1f} | "
        f"{len(base['ask'])} |",
        f"| in-process `Engine.search` | {pct(base['search'], 50):.1f} | "
        f"{pct(base['search'], 95):.1f} | {len(base['search'])} |",
        f"| HTTP `POST /api/v1/query` | {http50:.1f} | {pct(seq, 95):.1f} | {len(seq)} |",
        "",
        f"HTTP `/query` p50 is **{http50 / ask50:.2f}x** the in-process `ask` p50 "
        f"(+{http50 - ask50:.1f} ms: HTTP, JSON, auth, rate limit, logging, metrics).",
    ]
    for title, rec in (("cold cache (cache off)", cold), ("warm cache", warm)):
        total = sum(len(v) for v in rec["lat"].values())
        hit = f", {rec['cached']} of {len(rec['lat'].get('query', []))} `/query` answers " \
              f"from the cache" if title.startswith("warm") else ""
        lines += [
            "",
            f"### {args.clients} clients x {args.seconds:g} s, {args.workers} workers, "
            f"{title}",
            "",
            f"{total / rec['wall']:.1f} requests/s, {rec['errors']} errors in {total} "
            f"requests{hit}. Mix: 20% `/query`, 20% `/query/stream`, 30% `/search`, 30% "
            f"`/provisions` ({rec['not_found']} provision look-ups were dev-set ids absent "
            "from the index: answered 404, counted as correct).",
            "",
            "| route | n | p50 ms | p95 ms | p99 ms |",
            "|---|---|---|---|---|",
            *_rows(rec),
            "",
            f"Stream: first event (`meta`) p50 {pct(rec['first_event'], 50):.0f} ms, p95 "
            f"{pct(rec['first_event'], 95):.0f} ms; `answer` event p50 "
            f"{pct(rec['answer_event'], 50):.0f} ms, p95 {pct(rec['answer_event'], 95):.0f} "
            "ms.",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed-home", type=Path, default=None,
                        help="Copy civicsetu.db from here instead of ingesting the bundle.")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-write", action="store_true", help="Print, do not write docs.")
    args = parser.parse_args()
    questions, provisions = load_dev()
    tmp = Path(tempfile.mkdtemp(prefix="civicsetu-bench-api-"))
    home = tmp / "home"
    home.mkdir()
    try:
        if args.seed_home is not None:
            shutil.copy2(args.seed_home / "civicsetu.db", home / "civicsetu.db")
        else:
            with Engine(Settings(home=home)) as engine:
                engine.ingest_bundled()
        db = ServiceDB(home / "service.db")
        key = db.create_key("bench")[1]
        db.close()
        base = in_process(home, questions)
        server = Server(home, args.workers, cache_ttl=0)
        try:
            seq = sequential(server.url, key, questions)
            cold = asyncio.run(load(server.url, key, args.clients, args.seconds, questions,
                                    provisions, seed=1))
        finally:
            server.stop()
        server = Server(home, args.workers, cache_ttl=3600)
        try:
            with httpx.Client(base_url=server.url, timeout=60,
                              headers={"Authorization": f"Bearer {key}"}) as c:
                for _ in range(3):  # each worker has its own cache: reach both
                    for q in questions:
                        c.post("/api/v1/query", json={"question": q}).raise_for_status()
            warm = asyncio.run(load(server.url, key, args.clients, args.seconds, questions,
                                    provisions, seed=2))
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    body = report(args, base, seq, cold, warm, len(questions))
    print(body)
    if not args.no_write:
        write_section(ROOT / "docs" / "BENCHMARKS.md", "bench_api", body)


if __name__ == "__main__":
    main()
