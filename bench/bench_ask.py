"""``ask`` latency on the dev questions: every default stage on, against stages switched off.

    python -m bench.bench_ask ../shared/eval/legal_qa_dev.jsonl --home DIR [--rounds 2]

One process, one index, one engine per configuration, all warmed first; the questions
are asked in turn by every configuration (interleaved, so a change in the machine's load
hits all of them alike). Reports wall-clock p50/p95 and CPU time per question (mean,
p50) for each configuration, the ratio of p50 to the all-on configuration, and the
machine with its load average, and the mean time of the answer score
(``timings_ms["score"]``, computed in every configuration). Extractive answers (no LLM).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from bench.bench_search import machine

CONFIGS: dict[str, dict[str, bool]] = {
    "all default stages on": {},
    "decomposition off": {"decompose": False},
    "comparison sides off": {"compare_sides": False},
    "quoted definitions off": {"quoted_definitions": False},
    "routing by defined terms off": {"defined_vocabulary": False},
    "graph in edge order, on intent words only": {"graph_relevance": False},
    "learned reranker on": {"rerank": True},
    "named provision's consequence not first": {"consequence_first": False},
    "complete answers and quantity check off": {"complete_answers": False,
                                                "quantity_check": False},
}


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    """Measure and print a Markdown table."""
    from civicsetu.config import Settings
    from civicsetu.engine import Engine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    queries = [json.loads(line)["query"] for line in
               args.dataset.read_text(encoding="utf-8").splitlines() if line.strip()]
    header = machine()
    engines = {name: Engine(Settings(home=args.home, **overrides))
               for name, overrides in CONFIGS.items()}
    for engine in engines.values():
        engine.ask(queries[0])  # load the embedder, the vectors and the router
    wall: dict[str, list[float]] = {name: [] for name in engines}
    cpu: dict[str, list[float]] = {name: [] for name in engines}
    score: dict[str, list[float]] = {name: [] for name in engines}
    for _ in range(args.rounds):
        for q in queries:
            for name, engine in engines.items():
                getattr(engine.embedder, "clear_query_cache", lambda: None)()  # time the embedding
                t0, c0 = time.perf_counter(), time.process_time()
                answer = engine.ask(q)
                score[name].append(answer.timings_ms.get("score", 0.0))
                wall[name].append((time.perf_counter() - t0) * 1000)
                cpu[name].append((time.process_time() - c0) * 1000)
    load_end = os.getloadavg()[0]
    base = _pct(wall["all default stages on"], 50)
    print(f"{header}; {load_end:.1f} at the end; {len(queries)} questions x {args.rounds} "
          "rounds per configuration, interleaved\n")
    print("| configuration | p50 ms | p95 ms | CPU ms/question (mean) | CPU p50 | p50 ratio "
          "| answer score ms (mean) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in engines:
        p50 = _pct(wall[name], 50)
        print(f"| {name} | {p50:.1f} | {_pct(wall[name], 95):.1f} | "
              f"{sum(cpu[name]) / len(cpu[name]):.1f} | {_pct(cpu[name], 50):.1f} | "
              f"{p50 / base:.2f} | {sum(score[name]) / len(score[name]):.1f} |")
    for engine in engines.values():
        engine.close()


if __name__ == "__main__":
    main()
