"""CPU and wall time of ``ask`` per dev question on the index in ``$CIVICSETU_HOME``.

    CIVICSETU_HOME=<index copy> python tools/ask_cpu.py ../shared/eval/legal_qa_dev.jsonl

For comparing two versions of the code on one big index (run each in turn with its own
``PYTHONPATH``, alternating): one engine, warmed on the first question, every question
asked once; prints mean and median CPU ms (``time.process_time``, all threads), wall
p50/p95 and the load average as JSON. ``bench.bench_ask`` compares configurations of one
version instead.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.eval.runner import load_dataset


def main() -> None:
    """Time every question and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    args = parser.parse_args()
    rows = load_dataset(args.dataset)
    cpu: list[float] = []
    wall: list[float] = []
    with Engine() as engine:
        engine.ask(rows[0]["query"])
        for row in rows:
            c, w = time.process_time(), time.perf_counter()
            engine.ask(row["query"])
            cpu.append((time.process_time() - c) * 1000)
            wall.append((time.perf_counter() - w) * 1000)
    wall.sort()
    print(json.dumps({"questions": len(rows), "cpu_ms_mean": round(statistics.mean(cpu), 1),
                      "cpu_ms_p50": round(statistics.median(cpu), 1),
                      "wall_ms_p50": round(statistics.median(wall), 1),
                      "wall_ms_p95": round(wall[int(0.95 * (len(wall) - 1))], 1),
                      "load_average": [round(x, 2) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
