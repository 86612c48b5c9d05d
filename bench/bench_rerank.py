"""`ask` latency with the second-stage ranker on and off, in the same run.

    CIVICSETU_HOME=... python -m bench.bench_rerank ../shared/eval/legal_qa_dev.jsonl \
        [--rounds 2]

Two engines on the same index (``rerank`` on / off) answer every question of the file
in alternation (on, off, off, on ... so neither always runs second), after a warm-up of
each. Reports wall-clock p50/p95 and CPU time per question for each, and the ratio of
the p50s; the machine line carries the load average (the cores are shared).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bench.bench_search import _pct, machine
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.eval.runner import load_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    queries = [r["query"] for r in load_dataset(args.dataset)]
    start = machine()
    engines = {"on": Engine(Settings(rerank=True)), "off": Engine(Settings(rerank=False))}
    for engine in engines.values():
        engine.ask(queries[0])
    wall: dict[str, list[float]] = {"on": [], "off": []}
    cpu: dict[str, list[float]] = {"on": [], "off": []}
    for r in range(args.rounds):
        for i, query in enumerate(queries):
            order = ["on", "off"] if (i + r) % 2 == 0 else ["off", "on"]
            for name in order:
                getattr(engines[name].embedder, "clear_query_cache", lambda: None)()
                t0, c0 = time.perf_counter(), time.process_time()
                engines[name].ask(query)
                wall[name].append((time.perf_counter() - t0) * 1000)
                cpu[name].append((time.process_time() - c0) * 1000)
    for engine in engines.values():
        engine.close()
    out = {name: {"p50_ms": round(_pct(wall[name], 50), 1),
                  "p95_ms": round(_pct(wall[name], 95), 1),
                  "cpu_ms_per_question": round(sum(cpu[name]) / len(cpu[name]), 1)}
           for name in engines}
    out["ratio_p50_on_off"] = {"value": round(out["on"]["p50_ms"] / out["off"]["p50_ms"], 3)}
    print(json.dumps({"machine": start, "machine_end": machine(), "questions": len(queries),
                      "rounds": args.rounds, **out}, indent=1))


if __name__ == "__main__":
    main()
