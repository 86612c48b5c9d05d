"""Search latency on SQLite and PostgreSQL holding the same replica index, one size per run.

    python -m bench.bench_store_scale SQLITE_HOME POSTGRES_URL --label 1e4 --json OUT.json
    python -m bench.bench_store_scale --render 1e4.json 1e5.json [--write]

POSTGRES_URL holds a ``civicsetu store migrate`` copy of SQLITE_HOME's index (a replica
index from ``bench/scale_index.py``). Both engines are open at once and every question is
asked of SQLite and then of PostgreSQL before the next one (so a change in the machine's
load hits both alike), in BM25, dense and hybrid mode, without and with a 2-document
filter. Each search records its wall time and its CPU time: this process's, plus, for
PostgreSQL, the CPU its server backends spent (read from ``/proc``, so the server runs on
this machine). ``--render`` turns saved runs into the ``store_scale`` section of
docs/BENCHMARKS.md (with ``--write``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from bench.bench_search import machine
from bench.sections import write_section
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.eval.metrics import percentile
from civicsetu.search.hybrid import SearchFilters

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUERIES = Path("/work/shared/eval/legal_qa_dev.jsonl")
FILTER = SearchFilters(doc_ids=["the-real-estate-regulation-and-development-act-2016",
                                "the-limitation-act-1963"])
CASES: list[tuple[str, str, SearchFilters | None]] = [
    ("bm25", "bm25", None), ("dense", "dense", None), ("hybrid", "hybrid", None),
    ("bm25, 2-document filter", "bm25", FILTER),
    ("dense, 2-document filter", "dense", FILTER),
    ("hybrid, 2-document filter", "hybrid", FILTER)]
_TICK = os.sysconf("SC_CLK_TCK")


def _backend_pids(url: str) -> list[int]:
    """Server processes serving ``url``'s database (the store's pooled connections)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        return [int(r[0]) for r in c.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid != pg_backend_pid()").fetchall()]


def _server_cpu(pids: list[int]) -> float:
    """User + system CPU seconds the processes ``pids`` have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / _TICK


def run(home: Path, url: str, queries: list[str]) -> dict[str, Any]:
    """Interleaved searches on both stores; wall and CPU milliseconds per search."""
    out: dict[str, Any] = {"machine_start": machine(), "queries": len(queries)}
    engines = {"SQLite": Engine(Settings(home=home, store="")),
               "PostgreSQL": Engine(Settings(home=home, store=url))}
    try:
        for name, engine in engines.items():
            t = time.perf_counter()
            for _, mode, filters in CASES:  # warm caches, postings, pool and plans
                engine.search(queries[0], mode=mode, filters=filters)  # type: ignore[arg-type]
            out[f"{name} warm-up s"] = time.perf_counter() - t
            out[f"{name} chunks"] = engine.store.chunk_count()
        pids = _backend_pids(url)
        times: dict[str, dict[str, list[float]]] = {
            n: {c: [] for c, _, _ in CASES} for n in engines}
        cpus: dict[str, dict[str, list[float]]] = {
            n: {c: [] for c, _, _ in CASES} for n in engines}
        for q in queries:
            for case, mode, filters in CASES:
                for name, engine in engines.items():
                    server = pids if name == "PostgreSQL" else []
                    s0, c0, t0 = _server_cpu(server), time.process_time(), time.perf_counter()
                    engine.search(q, mode=mode, filters=filters)  # type: ignore[arg-type]
                    t1, c1, s1 = time.perf_counter(), time.process_time(), _server_cpu(server)
                    times[name][case].append((t1 - t0) * 1000)
                    cpus[name][case].append((c1 - c0 + s1 - s0) * 1000)
        out["backend_pids"] = len(pids)
        out["times"], out["cpu"] = times, cpus
    finally:
        for engine in engines.values():
            engine.close()
    out["load_end"] = os.getloadavg()[0]
    return out


def render(runs: list[tuple[str, dict[str, Any]]]) -> str:
    lines = ["## Store backends at 10^4 and 10^5 chunks: SQLite against PostgreSQL + pgvector",
             "", "Produced by `python -m bench.bench_store_scale SQLITE_HOME POSTGRES_URL "
             "--label SIZE --json SIZE.json` per size, then `python -m "
             "bench.bench_store_scale --render 1e4.json 1e5.json --write`. The indexes are "
             "the replica indexes of `bench/scale_index.py` (the 11 bundled Acts copied "
             "with perturbed text), copied into PostgreSQL 16.2 + pgvector 0.6.2 "
             "(`pgserver`, same machine, Unix socket) by `civicsetu store migrate`. Every "
             "dev question is searched on SQLite and then on PostgreSQL before the next, "
             "through `Engine.search` (query analysis and embedding included), after a "
             "warm-up search per mode. CPU per search is this process's CPU plus, for "
             "PostgreSQL, its server backends' (from /proc). The machine is shared (2 "
             "cores, four engineers and an index build): read the PG/SQLite ratios, not "
             "the milliseconds.", ""]
    for label, r in runs:
        lines += [f"### {label}: {r['SQLite chunks']} chunks (SQLite), "
                  f"{r['PostgreSQL chunks']} (PostgreSQL), {r['queries']} questions", "",
                  f"Machine: {r['machine_start']}, {r['load_end']:.1f} at the end.", "",
                  "| search | SQLite wall p50 / p95 / p99 ms | SQLite CPU p50 ms "
                  "| PostgreSQL wall p50 / p95 / p99 ms | PostgreSQL CPU p50 ms "
                  "| p50 wall ratio PG/SQLite |", "|---|---|---|---|---|---|"]
        for case, _, _ in CASES:
            a, b = r["times"]["SQLite"][case], r["times"]["PostgreSQL"][case]
            ca, cb = r["cpu"]["SQLite"][case], r["cpu"]["PostgreSQL"][case]
            cells = [" / ".join(f"{percentile(x, p):.1f}" for p in (50, 95, 99))
                     for x in (a, b)]
            ratio = percentile(b, 50) / max(percentile(a, 50), 1e-9)
            lines.append(f"| {case} | {cells[0]} | {percentile(ca, 50):.1f} | {cells[1]} "
                         f"| {percentile(cb, 50):.1f} | {ratio:.2f} |")
        lines += ["", f"Warm-up (first search per mode, store opening included): SQLite "
                  f"{r['SQLite warm-up s']:.1f} s, PostgreSQL {r['PostgreSQL warm-up s']:.1f} s.",
                  ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sqlite_home", type=Path, nargs="?")
    parser.add_argument("postgres_url", nargs="?")
    parser.add_argument("--label", default="")
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--limit", type=int, default=0, help="first N questions only")
    parser.add_argument("--json", type=Path, help="save the run here")
    parser.add_argument("--render", type=Path, nargs="*", help="saved runs to tabulate")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.render:
        runs = [(str(json.loads(p.read_text())["label"]), json.loads(p.read_text()))
                for p in args.render]
        body = render(runs)
        print(body)
        if args.write:
            write_section(ROOT / "docs" / "BENCHMARKS.md", "store_scale", body + "\n")
        return
    if args.sqlite_home is None or args.postgres_url is None:
        parser.error("SQLITE_HOME and POSTGRES_URL are needed unless --render is given")
    queries = [json.loads(line)["query"] for line in
               args.queries.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.limit:
        queries = queries[:args.limit]
    result = run(args.sqlite_home, args.postgres_url, queries)
    result["label"] = args.label or args.sqlite_home.name
    if args.json:
        args.json.write_text(json.dumps(result), encoding="utf-8")
    print(render([(result["label"], result)]))


if __name__ == "__main__":
    main()
