"""Search and ask latency on two existing indexes, in one process (compare ratios).

    python -m bench.bench_scale SMALL_HOME LARGE_HOME [--queries ../shared/eval/legal_qa_dev.jsonl]

For example the bundled index next to the whole 846-Act corpus ingested with
``CIVICSETU_HOME=LARGE_HOME civicsetu ingest ../shared/corpus/india-central-acts/*.md``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.eval.metrics import percentile

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUERIES = ROOT.parent / "shared" / "eval" / "legal_qa_dev.jsonl"


def measure(home: Path, queries: list[str]) -> dict[str, float]:
    with Engine(Settings(home=home)) as engine:
        t0 = time.perf_counter()
        engine.search(queries[0])
        first = time.perf_counter() - t0
        search_ms, ask_ms = [], []
        for query in queries:
            t = time.perf_counter()
            engine.search(query)
            search_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            engine.ask(query)
            ask_ms.append((time.perf_counter() - t) * 1000)
        return {"chunks": engine.store.chunk_count(), "first_s": first,
                "search_p50": percentile(search_ms, 50), "search_p95": percentile(search_ms, 95),
                "ask_p50": percentile(ask_ms, 50), "ask_p95": percentile(ask_ms, 95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("small", type=Path)
    parser.add_argument("large", type=Path)
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("-n", type=int, default=30, help="questions to time")
    args = parser.parse_args()
    queries = [json.loads(line)["query"] for line in
               args.queries.read_text(encoding="utf-8").splitlines() if line.strip()][:args.n]
    print("| index | chunks | first search s | search p50 / p95 ms | ask p50 / p95 ms |")
    print("|---|---|---|---|---|")
    for home in (args.small, args.large):
        m = measure(home, queries)
        print(f"| {home} | {m['chunks']:.0f} | {m['first_s']:.1f} | {m['search_p50']:.0f} / "
              f"{m['search_p95']:.0f} | {m['ask_p50']:.0f} / {m['ask_p95']:.0f} |")


if __name__ == "__main__":
    main()
