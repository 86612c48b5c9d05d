"""Embedding throughput: batch size and threads side by side on the same real chunks.

    python -m bench.bench_embed DB [-n 800] [--write docs/BENCHMARKS.md]

Takes a fixed sample (every k-th current chunk, by rowid) of a real index's chunk texts
and embeds it with each configuration in one process, in alternating order, reporting
chunks/s, the ratio to today's setting (batch 32, onnxruntime's default threads) and the
largest difference of any vector from today's (identical vectors keep retrieval as is).
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from pathlib import Path

import numpy as np

from bench.bench_search import machine
from bench.sections import write_section
from civicsetu.embed.minilm_onnx import MiniLMOnnxEmbedder

CONFIGS = [("batch 32 (before)", 32, None), ("batch 8", 8, None), ("batch 4", 4, None),
           ("batch 8, 1 thread", 8, 1)]


def sample(db: Path, n: int) -> list[str]:
    conn = sqlite3.connect(db)
    total = int(conn.execute("SELECT count(*) FROM chunks WHERE valid_to IS NULL").fetchone()[0])
    step = max(1, total // n)
    rows = conn.execute("SELECT text FROM chunks WHERE valid_to IS NULL AND rowid % ? = 0 "
                        "ORDER BY rowid LIMIT ?", (step, n)).fetchall()
    conn.close()
    return [r[0] for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path)
    parser.add_argument("-n", type=int, default=800)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    texts = sample(args.db, args.n)
    started = machine()
    embedders = {name: MiniLMOnnxEmbedder(batch_size=b, threads=t) for name, b, t in CONFIGS}
    seconds = {name: 0.0 for name in embedders}
    vectors = {}
    for rnd in range(2):  # two rounds, alternating, to spread other people's load
        for name in (list(embedders) if rnd == 0 else list(reversed(embedders))):
            t = time.perf_counter()
            vectors[name] = embedders[name].embed_documents(texts)
            seconds[name] += time.perf_counter() - t
    base = CONFIGS[0][0]
    lines = [f"{len(texts)} chunk texts from {args.db}, embedded twice per configuration "
             f"(alternating order); {started}.", "",
             "| configuration | chunks/s | ratio to batch 32 | max abs vector difference |",
             "|---|---|---|---|"]
    for name in embedders:
        rate = 2 * len(texts) / seconds[name]
        diff = float(np.abs(vectors[name] - vectors[base]).max())
        lines.append(f"| {name} | {rate:.1f} | {seconds[base] / seconds[name]:.2f} | "
                     f"{diff:.1e} |")
    body = "\n".join(lines)
    print(body)
    if args.write:
        write_section(args.write, "embed-throughput",
                      f"## Embedding throughput\n\n`python -m bench.bench_embed {args.db} -n "
                      f"{args.n}`\n\n{body}")


if __name__ == "__main__":
    main()
