"""Benchmark the embedded core and write docs/BENCHMARKS.md.

    python -m bench.bench_core [--fresh-clone] [--queries ../shared/eval/legal_qa_dev.jsonl]

Measures, on the bundled corpus: ingest (cold, unchanged re-run, forced re-parse with
embedding reuse), search and answer latency in process, and a warm ``civicsetu ask`` as
a whole process next to a bare ``python -c pass`` baseline from the same run.
``--fresh-clone`` also times the README's first command from a fresh clone and HOME.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.sections import write_section
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.eval.metrics import percentile

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUERIES = ROOT.parent / "shared" / "eval" / "legal_qa_dev.jsonl"
FALLBACK_QUERIES = [
    "What is the penalty for not registering a real estate project?",
    "Who can file a complaint with the RERA Authority?",
    "How long does an allottee have to take possession after the occupancy certificate?",
    "What must a seller disclose to a buyer of immoveable property?",
    "Within what time must a document be presented for registration?",
]


def _timed(fn: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def _machine() -> str:
    mem = ""
    try:
        kb = int(next(line for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal")).split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        pass
    return (f"{os.cpu_count()} cores{mem}, {platform.machine()}, {platform.system()}, "
            f"Python {platform.python_version()}")


def bench_ingest(home: Path) -> dict[str, Any]:
    with Engine(Settings(home=home)) as engine:
        reports, cold = _timed(engine.ingest_bundled)
        _, unchanged = _timed(engine.ingest_bundled)
        forced_reports, forced = _timed(lambda: engine.ingest_bundled(force=True))
    provisions = sum(r.provisions for r in reports)
    chunks = sum(r.chunks for r in reports)
    size = sum(Path(r.source).stat().st_size for r in reports)
    return {"cold_s": cold, "unchanged_s": unchanged, "forced_s": forced,
            "provisions": provisions, "chunks": chunks, "mb": size / 1e6,
            "reembedded_on_force": sum(r.embedded for r in forced_reports)}


def bench_queries(home: Path, queries: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with Engine(Settings(home=home)) as engine:
        engine.ask(queries[0])  # load the model and the vector matrix once
        for mode in ("hybrid", "bm25", "dense"):
            times = [_timed(lambda q=q, m=mode: engine.search(q, mode=m))[1] * 1000
                     for q in queries]
            out[f"search_{mode}"] = times
        out["answer"] = [_timed(lambda q=q: engine.ask(q))[1] * 1000 for q in queries]
    return out


def bench_process(home: Path, runs: int) -> dict[str, list[float]]:
    env = {**os.environ, "CIVICSETU_HOME": str(home)}
    question = "What is the penalty for not registering a real estate project?"
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "civicsetu ask (warm)": [sys.executable, "-m", "civicsetu.cli", "ask", question],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            _, t = _timed(lambda cmd=cmd: subprocess.run(cmd, env=env, check=True,
                                                         capture_output=True))
            times[name].append(t)
    return times


def bench_fresh_clone() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = {**os.environ, "HOME": str(Path(tmp) / "home")}
        env.pop("VIRTUAL_ENV", None)
        env.pop("CIVICSETU_HOME", None)
        _, t = _timed(lambda: subprocess.run(["./scripts/ask"], cwd=clone, env=env,
                                             check=True, capture_output=True))
    return t


def _row(name: str, values_ms: list[float]) -> str:
    return (f"| {name} | {percentile(values_ms, 50):.1f} | {percentile(values_ms, 95):.1f} "
            f"| {len(values_ms)} |")


def render(ingest: dict[str, Any], queries: dict[str, Any], process: dict[str, list[float]],
           fresh: float | None, n_queries: int, source: str) -> str:
    base = statistics.median(process["python -c pass"])
    ask = statistics.median(process["civicsetu ask (warm)"])
    lines = [
        "## Embedded core",
        "",
        f"Machine: {_machine()}. Produced by `python -m bench.bench_core"
        f"{' --fresh-clone' if fresh is not None else ''}` on "
        f"{time.strftime('%Y-%m-%d')}; these machines are noisy, so compare ratios "
        "within one run.",
        "",
        "### Ingest of the bundled corpus (11 Acts)",
        "",
        f"{ingest['mb']:.2f} MB of Markdown, {ingest['provisions']} provisions, "
        f"{ingest['chunks']} chunks.",
        "",
        "| run | seconds | provisions/s | MB/s |",
        "|---|---|---|---|",
        f"| cold (parse + embed every chunk) | {ingest['cold_s']:.1f} | "
        f"{ingest['provisions'] / ingest['cold_s']:.0f} | {ingest['mb'] / ingest['cold_s']:.3f} |",
        f"| unchanged re-run (skipped by content hash) | {ingest['unchanged_s']:.2f} | | |",
        f"| forced re-parse, embeddings reused ({ingest['reembedded_on_force']} re-embedded) "
        f"| {ingest['forced_s']:.1f} | {ingest['provisions'] / ingest['forced_s']:.0f} | "
        f"{ingest['mb'] / ingest['forced_s']:.3f} |",
        "",
        f"### Query latency in process ({n_queries} questions from {source})",
        "",
        "| operation | p50 ms | p95 ms | n |",
        "|---|---|---|---|",
        _row("search, hybrid (BM25 + dense + fusion + lookup)", queries["search_hybrid"]),
        _row("search, BM25 only", queries["search_bm25"]),
        _row("search, dense only", queries["search_dense"]),
        _row("ask (search + evidence + extractive answer + verification)", queries["answer"]),
        "",
        "### Whole process",
        "",
        "| command | median s | runs |",
        "|---|---|---|",
        f"| `python -c pass` (baseline) | {base:.2f} | {len(process['python -c pass'])} |",
        f"| `civicsetu ask QUESTION` on a warm index | {ask:.2f} | "
        f"{len(process['civicsetu ask (warm)'])} |",
        "",
        f"A warm `ask` costs {ask / base:.0f}x a bare interpreter start; most of it is "
        "importing onnxruntime and loading the model (aim: under 3 s).",
    ]
    if fresh is not None:
        lines += ["", "### First run", "",
                  f"`./scripts/ask` from a fresh clone with an empty HOME (venv, pip install, "
                  f"ingest, answer): {fresh:.0f} s. pip's download cache on this machine was "
                  "warm, so a first install over the network adds download time (aim: under "
                  "5 minutes)."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--runs", type=int, default=5, help="whole-process repetitions")
    parser.add_argument("--fresh-clone", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "BENCHMARKS.md")
    args = parser.parse_args()
    if args.queries.is_file():
        queries = [json.loads(line)["query"] for line in
                   args.queries.read_text(encoding="utf-8").splitlines() if line.strip()]
        source = args.queries.name
    else:
        print(f"{args.queries} not found; using {len(FALLBACK_QUERIES)} built-in questions",
              file=sys.stderr)
        queries, source = FALLBACK_QUERIES, "the built-in list"
    home = Path(tempfile.mkdtemp(prefix="civicsetu-bench-"))
    try:
        ingest = bench_ingest(home)
        timings = bench_queries(home, queries)
        process = bench_process(home, args.runs)
        fresh = bench_fresh_clone() if args.fresh_clone else None
    finally:
        shutil.rmtree(home, ignore_errors=True)
    text = render(ingest, timings, process, fresh, len(queries), source)
    write_section(args.out, "bench_core", text)
    print(text)


if __name__ == "__main__":
    main()
