"""Search latency at scale: BM25, dense and hybrid, with and without filters, exact vs ANN.

    python -m bench.bench_search HOME [HOME...] [--baseline-src DIR] [--write docs/BENCHMARKS.md]

Each HOME is an index (e.g. built by ``bench.scale_index``). For every HOME, one worker
process per configuration runs the dev questions through ``Engine.search`` and reports
wall-clock p50/p95/p99, CPU time per query (less sensitive to other people's load on
shared cores) and the per-stage breakdown the searcher records. ``--baseline-src`` runs
the same measurement with another checkout's ``src`` (e.g. the commit before this work,
extracted with ``git archive``), so before and after come from the same run.
Configurations: ``ann`` (the default, HNSW past 20k chunks) and ``exact``
(CIVICSETU_ANN=off); filters: none, jurisdiction IN-KA, one document, as-of 2020-01-01.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# A main checkout sits next to ``shared``; a worktree one level deeper.
DEFAULT_QUERIES = next((p / "shared" / "eval" / "legal_qa_dev.jsonl" for p in ROOT.parents
                        if (p / "shared" / "eval" / "legal_qa_dev.jsonl").exists()),
                       ROOT.parent / "shared" / "eval" / "legal_qa_dev.jsonl")
FILTERS = ("none", "jurisdiction", "doc", "as_of")
MODES = ("bm25", "dense", "hybrid")


def machine() -> str:
    """Cores, Python and the 1-minute load average (other people share these cores)."""
    load = os.getloadavg()[0]
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python "
            f"{platform.python_version()}, load average {load:.1f} at start")


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def worker(home: Path, queries: list[str], modes: list[str], filters: list[str]) -> None:
    """Run in a child process: print one JSON line per (mode, filter)."""
    from civicsetu.config import Settings
    from civicsetu.engine import Engine
    from civicsetu.search.hybrid import SearchFilters

    t0 = time.perf_counter()
    engine = Engine(Settings(home=home))
    engine.search(queries[0])
    cold = time.perf_counter() - t0
    docs = [d.id for d in engine.store.documents()]
    doc = "the-real-estate-regulation-and-development-act-2016"
    chosen = {"none": None, "jurisdiction": SearchFilters(jurisdiction="IN-KA"),
              "doc": SearchFilters(doc_ids=[doc if doc in docs else docs[0]]),
              "as_of": SearchFilters(as_of=date(2020, 1, 1))}
    print(json.dumps({"cold_s": cold, "chunks": engine.store.chunk_count()}), flush=True)
    for mode in modes:
        for name in filters:
            flt = chosen[name]
            if name == "jurisdiction" and not any("~r4" in d for d in docs):
                continue
            wall, cpu, stages = [], [], {}  # type: ignore[var-annotated]
            for q in queries:
                # The embedder remembers recent questions; every mode must pay for its own.
                getattr(engine.embedder, "clear_query_cache", lambda: None)()
                w, c = time.perf_counter(), time.process_time()
                result = engine.search(q, mode=mode, filters=flt)  # type: ignore[arg-type]
                wall.append((time.perf_counter() - w) * 1000)
                cpu.append((time.process_time() - c) * 1000)
                for stage, ms in result.timings_ms.items():
                    stages.setdefault(stage, []).append(ms)
            print(json.dumps({"mode": mode, "filter": name, "wall": wall, "cpu": cpu,
                              "stages": {s: statistics.median(v) for s, v in stages.items()}}),
                  flush=True)
    engine.close()


def run(home: Path, src: Path, env_extra: dict[str, str], queries_path: Path, n: int,
        modes: list[str], filters: list[str]) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}", **env_extra}
    cmd = [sys.executable, "-m", "bench.bench_search", "--worker", str(home), "--queries",
           str(queries_path), "-n", str(n), "--modes", ",".join(modes),
           "--filters", ",".join(filters)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def table(rows: list[tuple[str, str, list[dict[str, Any]]]]) -> str:
    lines = ["| index | code | chunks | cold start s | mode | filter | p50 ms | p95 ms | p99 ms |"
             " CPU p50 ms | stages p50 ms |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for home, label, results in rows:
        head = results[0]
        for r in results[1:]:
            stages = ", ".join(f"{k} {v:.1f}" for k, v in r["stages"].items()
                               if k not in ("search",))
            lines.append(f"| {home} | {label} | {head['chunks']:,} | {head['cold_s']:.1f} | "
                         f"{r['mode']} | {r['filter']} | {_pct(r['wall'], 50):.1f} | "
                         f"{_pct(r['wall'], 95):.1f} | {_pct(r['wall'], 99):.1f} | "
                         f"{_pct(r['cpu'], 50):.1f} | {stages} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("homes", type=Path, nargs="+")
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("-n", type=int, default=40, help="questions per configuration")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--filters", default=",".join(FILTERS))
    parser.add_argument("--baseline-src", type=Path, help="another checkout's src to compare")
    parser.add_argument("--no-exact", action="store_true", help="skip the CIVICSETU_ANN=off run")
    parser.add_argument("--write", type=Path, help="write a section of this BENCHMARKS.md")
    parser.add_argument("--section", default="search-scale")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    queries = [json.loads(line)["query"] for line in
               args.queries.read_text(encoding="utf-8").splitlines() if line.strip()][:args.n]
    modes, filters = args.modes.split(","), args.filters.split(",")
    if args.worker:
        worker(args.homes[0], queries, modes, filters)
        return
    started = machine()
    rows = []
    for home in args.homes:
        configs: list[tuple[str, Path, dict[str, str]]] = [("ann", ROOT / "src", {})]
        if not args.no_exact:
            configs.append(("exact", ROOT / "src", {"CIVICSETU_ANN": "off"}))
        if args.baseline_src:
            configs.insert(0, ("before", args.baseline_src, {}))
        for label, src, env in configs:
            results = run(home, src, env, args.queries, args.n, modes, filters)
            rows.append((home.name, label, results))
            print(table([rows[-1]]), flush=True)
    body = table(rows)
    if args.write:
        from bench.sections import write_section

        cmd = "python -m bench.bench_search " + " ".join(str(h) for h in args.homes)
        if args.baseline_src:
            cmd += f" --baseline-src {args.baseline_src}"
        write_section(args.write, args.section,
                      f"## Search latency at scale\n\n`{cmd}` ({len(queries)} dev questions "
                      f"per row; {started}; load average {os.getloadavg()[0]:.1f} at the end)."
                      "\n\nThese 2 cores are shared with other engineers' jobs, so wall times "
                      "carry their load; CPU p50 is this process's CPU time per query.\n\n"
                      + body)


if __name__ == "__main__":
    main()
