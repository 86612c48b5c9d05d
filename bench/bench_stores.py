"""Search latency on the SQLite and the PostgreSQL store holding the same index, in one run.

    python -m bench.bench_stores SQLITE_HOME POSTGRES_URL [--write]

POSTGRES_URL should hold a ``civicsetu store migrate`` copy of SQLITE_HOME's index, so
both stores answer the same questions over the same chunks. Times BM25, dense and hybrid
search (with and without a document filter), ``ask``, and N worker processes searching
at once (throughput and tail latency). ``--write`` replaces the ``store_backends``
section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import time
from datetime import date
from pathlib import Path
from typing import Any

from bench.sections import write_section
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.eval.metrics import percentile
from civicsetu.search.hybrid import SearchFilters

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUERIES = ROOT.parent / "shared" / "eval" / "legal_qa_dev.jsonl"
FILTER = SearchFilters(doc_ids=["the-real-estate-regulation-and-development-act-2016",
                                "the-limitation-act-1963"])


def _settings(home: Path, store: str) -> Settings:
    return Settings(home=home, store=store)


def latencies(home: Path, store: str, queries: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with Engine(_settings(home, store)) as engine:
        t0 = time.perf_counter()
        engine.search(queries[0])
        out["first_s"] = time.perf_counter() - t0
        out["chunks"] = engine.store.chunk_count()
        cases = [("hybrid", "hybrid", None), ("bm25", "bm25", None), ("dense", "dense", None),
                 ("hybrid, 2-document filter", "hybrid", FILTER),
                 ("dense, 2-document filter", "dense", FILTER)]
        for name, mode, filters in cases:
            times = []
            for q in queries:
                t = time.perf_counter()
                engine.search(q, mode=mode, filters=filters)  # type: ignore[arg-type]
                times.append((time.perf_counter() - t) * 1000)
            out[name] = times
        times = []
        for q in queries:
            t = time.perf_counter()
            engine.ask(q)
            times.append((time.perf_counter() - t) * 1000)
        out["ask"] = times
    return out


def store_only(home: Path, store: str, queries: list[str],
               vectors: list[Any]) -> dict[str, list[float]]:
    """The store calls alone: query text and vectors are prepared before the clock."""
    from civicsetu.search.query import analyze, fts_query

    out: dict[str, list[float]] = {}
    with Engine(_settings(home, store)) as engine:
        st = engine.store
        docs = st.documents()
        model = engine.embedder.model_id
        fts = []
        for q in queries:
            a = analyze(q, docs)
            terms = a.terms + [w for e in a.expansions for w in e.split()]
            fts.append(fts_query(list(dict.fromkeys(terms))))
        scope = FILTER.doc_ids
        st.keyword_search(fts[0], 60)
        st.dense_search(model, vectors[0], 60)
        cases: list[tuple[str, Any]] = [
            ("keyword_search (BM25), 60 rows", lambda i: st.keyword_search(fts[i], 60)),
            ("keyword_search, 2-document filter",
             lambda i: st.keyword_search(fts[i], 60, scope)),
            ("dense_search, 60 rows", lambda i: st.dense_search(model, vectors[i], 60)),
            ("dense_search, 2-document filter",
             lambda i: st.dense_search(model, vectors[i], 60, scope)),
            ("dense_search, as of 2000-01-01",
             lambda i: st.dense_search(model, vectors[i], 60, None, date(2000, 1, 1))),
        ]
        for name, call in cases:
            times = []
            for i in range(len(queries)):
                if not fts[i] and "keyword" in name:
                    continue
                t = time.perf_counter()
                call(i)
                times.append((time.perf_counter() - t) * 1000)
            out[name] = times
    return out


def _worker(args: tuple[Path, str, list[str], Any]) -> list[float]:
    home, store, queries, barrier = args
    with Engine(_settings(home, store)) as engine:
        engine.search(queries[0])  # load the model and caches before the clock starts
        barrier.wait()
        times = []
        for q in queries:
            t = time.perf_counter()
            engine.search(q)
            times.append((time.perf_counter() - t) * 1000)
    return times


def concurrent(home: Path, store: str, queries: list[str], workers: int) -> dict[str, float]:
    ctx = mp.get_context("spawn")
    barrier = ctx.Manager().Barrier(workers + 1)
    with ctx.Pool(workers) as pool:
        job = pool.map_async(_worker, [(home, store, queries, barrier)] * workers)
        barrier.wait()
        t0 = time.perf_counter()
        results = job.get()
        wall = time.perf_counter() - t0
    flat = [t for r in results for t in r]
    return {"qps": len(flat) / wall, "p50": percentile(flat, 50), "p95": percentile(flat, 95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sqlite_home", type=Path)
    parser.add_argument("postgres_url")
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2, 4])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    queries = [json.loads(line)["query"] for line in
               args.queries.read_text(encoding="utf-8").splitlines() if line.strip()]
    stores = {"SQLite": "", "PostgreSQL": args.postgres_url}
    with Engine(_settings(args.sqlite_home, "")) as engine:
        vectors = [engine.embedder.embed_query(analyze_text) for analyze_text in queries]
    alone = {name: store_only(args.sqlite_home, url, queries, vectors)
             for name, url in stores.items()}
    lat = {name: latencies(args.sqlite_home, url, queries) for name, url in stores.items()}
    conc = {name: {w: concurrent(args.sqlite_home, url, queries, w) for w in args.workers}
            for name, url in stores.items()}
    load = os.getloadavg()[0]

    lines = ["## Store backends: SQLite against PostgreSQL + pgvector", "",
             f"Machine: {os.cpu_count()} cores, {platform.machine()}, {platform.system()}, "
             f"Python {platform.python_version()}; PostgreSQL 16.2 + pgvector 0.6.2 from "
             f"`pgserver` on the same machine (Unix socket). Produced by `python -m "
             f"bench.bench_stores SQLITE_HOME POSTGRES_URL --write` on {date.today()}, the "
             f"PostgreSQL database a `civicsetu store migrate` copy of the SQLite index "
             f"({lat['SQLite']['chunks']} chunks, bundled corpus). {len(queries)} questions "
             "from legal_qa_dev.jsonl, in process, after one warm-up search. The machine is "
             f"shared: 1-minute load average {load:.1f} at the end of the run, so compare "
             "the ratios, not the milliseconds.", "",
             "| operation | SQLite p50 / p95 / p99 ms | PostgreSQL p50 / p95 / p99 ms "
             "| p50 ratio PG/SQLite |", "|---|---|---|---|"]
    for op in ["hybrid", "bm25", "dense", "hybrid, 2-document filter",
               "dense, 2-document filter", "ask"]:
        a, b = lat["SQLite"][op], lat["PostgreSQL"][op]
        cells = [" / ".join(f"{percentile(x, p):.1f}" for p in (50, 95, 99)) for x in (a, b)]
        ratio = percentile(b, 50) / max(percentile(a, 50), 1e-9)
        lines.append(f"| search, {op} | {cells[0]} | {cells[1]} | {ratio:.2f} |"
                     if op != "ask" else f"| ask | {cells[0]} | {cells[1]} | {ratio:.2f} |")
    lines += ["", "The store calls alone (no query embedding, no fusion; the same FTS query "
              "strings and query vectors for both):", "",
              "| store call | SQLite p50 / p95 / p99 ms | PostgreSQL p50 / p95 / p99 ms "
              "| p50 ratio PG/SQLite |", "|---|---|---|---|"]
    for op in alone["SQLite"]:
        a, b = alone["SQLite"][op], alone["PostgreSQL"][op]
        cells = [" / ".join(f"{percentile(x, p):.1f}" for p in (50, 95, 99)) for x in (a, b)]
        ratio = percentile(b, 50) / max(percentile(a, 50), 1e-9)
        lines.append(f"| {op} | {cells[0]} | {cells[1]} | {ratio:.2f} |")
    lines += ["", "First search after opening (model load included): "
              + ", ".join(f"{n} {lat[n]['first_s']:.2f} s" for n in stores) + ".", "",
              "Worker processes searching at once (hybrid, every question per worker; each "
              "worker has its own store connection and embedder):", "",
              "| workers | SQLite searches/s | SQLite p50 / p95 ms | PostgreSQL searches/s "
              "| PostgreSQL p50 / p95 ms |", "|---|---|---|---|---|"]
    for w in args.workers:
        s, p = conc["SQLite"][w], conc["PostgreSQL"][w]
        lines.append(f"| {w} | {s['qps']:.1f} | {s['p50']:.0f} / {s['p95']:.0f} | "
                     f"{p['qps']:.1f} | {p['p50']:.0f} / {p['p95']:.0f} |")
    body = "\n".join(lines) + "\n"
    print(body)
    if args.write:
        write_section(ROOT / "docs" / "BENCHMARKS.md", "store_backends", body)


if __name__ == "__main__":
    main()
