"""Readers during a write on SQLite (WAL): search latency idle against while another
process ingests into the same index, in one run.

    python -m bench.bench_readers HOME ACT.md [ACT.md...] [-n 20] [--write docs/BENCHMARKS.md]

HOME is copied to a temporary folder first (the writer changes it). The reader process
opens the copy, searches the dev questions in a loop (hybrid) and records wall and CPU
time per query and the stage timings; after ``--idle`` seconds a second process runs
``civicsetu ingest ACT.md...`` into the same copy, and the reader keeps searching until
the writer exits. Every search the reader makes after a commit re-reads the changed
documents (dense rows and BM25 postings), so that cost shows in the "during" column.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_search import DEFAULT_QUERIES, _pct, machine

ROOT = Path(__file__).resolve().parents[1]


def reader(home: Path, queries: list[str], idle_s: float, acts: list[str]) -> None:
    """Child: search idle, then while a writer ingests; print one JSON line per phase."""
    from civicsetu.config import Settings
    from civicsetu.engine import Engine

    engine = Engine(Settings(home=home))
    engine.search(queries[0])
    phases: dict[str, dict[str, list[float]]] = {"idle": {}, "during": {}}

    def one(phase: str, q: str) -> None:
        w, c = time.perf_counter(), time.process_time()
        result = engine.search(q)
        record = phases[phase]
        record.setdefault("wall", []).append((time.perf_counter() - w) * 1000)
        record.setdefault("cpu", []).append((time.process_time() - c) * 1000)
        for stage in ("bm25", "dense"):
            record.setdefault(stage, []).append(result.timings_ms.get(stage, 0.0))

    start, i = time.perf_counter(), 0
    while time.perf_counter() - start < idle_s or i < len(queries):
        one("idle", queries[i % len(queries)])
        i += 1
    env = {**os.environ, "CIVICSETU_HOME": str(home)}
    writer = subprocess.Popen([sys.executable, "-m", "civicsetu.cli", "ingest", *acts],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t_write = time.perf_counter()
    while writer.poll() is None:
        one("during", queries[i % len(queries)])
        i += 1
    write_s = time.perf_counter() - t_write
    chunks = engine.store.chunk_count()
    engine.close()
    print(json.dumps({"phases": phases, "write_s": write_s, "rc": writer.returncode,
                      "chunks_after": chunks}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("home", type=Path)
    parser.add_argument("acts", nargs="+")
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("-n", type=int, default=20, help="questions in the loop")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds searched idle")
    parser.add_argument("--write", type=Path, help="write a section of this BENCHMARKS.md")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    queries = [json.loads(line)["query"] for line in
               args.queries.read_text(encoding="utf-8").splitlines() if line.strip()][:args.n]
    if args.worker:
        reader(args.home, queries, args.idle, args.acts)
        return
    started = machine()
    with tempfile.TemporaryDirectory(prefix="civicsetu-readers-") as tmp:
        home = Path(tmp) / "home"
        shutil.copytree(args.home, home)
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
        out = subprocess.run([sys.executable, "-m", "bench.bench_readers", str(home),
                              *args.acts, "--queries", str(args.queries), "-n", str(args.n),
                              "--idle", str(args.idle), "--worker"],
                             env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    lines = ["| phase | searches | p50 ms | p95 ms | p99 ms | CPU p50 ms | bm25 p95 ms |"
             " dense p95 ms |", "|---|---|---|---|---|---|---|---|"]
    for phase, r in result["phases"].items():
        if not r:
            continue
        lines.append(f"| {phase} | {len(r['wall'])} | {_pct(r['wall'], 50):.1f} | "
                     f"{_pct(r['wall'], 95):.1f} | {_pct(r['wall'], 99):.1f} | "
                     f"{statistics.median(r['cpu']):.1f} | {_pct(r['bm25'], 95):.1f} | "
                     f"{_pct(r['dense'], 95):.1f} |")
    body = (f"`python -m bench.bench_readers {args.home} <{len(args.acts)} Acts>` ({started}; "
            f"load average {os.getloadavg()[0]:.1f} at the end). The writer ingested "
            f"{len(args.acts)} Acts in {result['write_s']:.0f} s (exit {result['rc']}; "
            f"{result['chunks_after']:,} chunks after).\n\n" + "\n".join(lines))
    print(body)
    if args.write:
        from bench.sections import write_section

        write_section(args.write, "readers-during-write",
                      "## Readers during a write (SQLite, WAL)\n\n" + body)


if __name__ == "__main__":
    main()
