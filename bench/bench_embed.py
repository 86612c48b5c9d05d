"""Embedding throughput: batch size, threads, processes, token window and model side by side.

    python -m bench.bench_embed SOURCE [-n 400] [--rounds 2] [--write docs/BENCHMARKS.md]

SOURCE is a folder of Acts (every k-th file is parsed and chunked as ingestion does, and
the texts ingestion embeds, ``Chunk.embed_text``, are sampled) or an index file (its
stored chunk texts, every k-th by rowid). Every configuration embeds the same texts in one
process tree, in alternating order over the rounds (other people's load spreads over all),
and reports chunks/s, the ratio to one run at a time on onnxruntime's default threads (batch 8),
CPU seconds per chunk (all threads and worker processes; unlike wall time this hardly
depends on the machine's load) and how far its vectors are from the default's: identical
vectors keep retrieval as it is, others need a dev-set evaluation (docs/SCALE.md).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sqlite3
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bench.bench_search import machine
from bench.sections import write_section
from civicsetu.embed import Embedder, get_embedder
from civicsetu.embed.base import EmbedderOptions

Vectors = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Config:
    name: str
    embedder: str = "minilm-onnx"
    batch: int = 8
    threads: int | None = None
    max_tokens: int | None = None
    processes: int = 1
    workers: int = 1

    def options(self) -> EmbedderOptions:
        return EmbedderOptions(batch_size=self.batch, threads=self.threads,
                               max_tokens=self.max_tokens, workers=self.workers)


CONFIGS = [
    Config("batch 8, one run on all cores (before)"),
    Config("batch 32", batch=32),
    Config("batch 4", batch=4),
    Config("batch 8, 1 thread", threads=1),
    Config("2 processes x 1 thread, batch 8", threads=1, processes=2),
    Config("2 workers (threads) x 1 thread, batch 8 (default on 2 cores)", workers=2),
    Config("window 128 tokens, batch 8", max_tokens=128),
    Config("window 128, 2 workers x 1 thread", max_tokens=128, workers=2),
    Config("wordllama (static, 256-d)", embedder="wordllama", batch=64),
    Config("window 160, 2 workers x 1 thread", max_tokens=160, workers=2),
    Config("window 192, 2 workers x 1 thread", max_tokens=192, workers=2),
]

_worker: Embedder | None = None


def _init_worker(name: str, options: EmbedderOptions) -> None:
    global _worker
    _worker = get_embedder(name, options)
    _worker.embed_documents(["warm-up"])


def _embed_in_worker(texts: list[str]) -> tuple[Vectors, float]:
    assert _worker is not None
    cpu = time.process_time()
    vectors = _worker.embed_documents(texts)
    return vectors, time.process_time() - cpu


class Runner:
    """One configuration: an embedder in this process, or a pool of worker processes."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._local: Embedder | None = None
        self._pool: ProcessPoolExecutor | None = None
        if config.processes == 1:
            self._local = get_embedder(config.embedder, config.options())
            self._local.embed_documents(["warm-up"])
        else:
            self._pool = ProcessPoolExecutor(
                config.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker, initargs=(config.embedder, config.options()))
            list(self._pool.map(_embed_in_worker, [["warm-up"]] * config.processes))

    def embed(self, texts: Sequence[str]) -> tuple[Vectors, float]:
        """Vectors in input order and the CPU seconds spent on them."""
        if self._local is not None:
            cpu = time.process_time()
            vectors = self._local.embed_documents(texts)
            return vectors, time.process_time() - cpu
        assert self._pool is not None
        n = self.config.processes
        # Deal texts by length so every worker gets the same mix of long and short ones.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        shares = [order[w::n] for w in range(n)]
        results = list(self._pool.map(_embed_in_worker,
                                      [[texts[i] for i in share] for share in shares]))
        out = np.zeros((len(texts), results[0][0].shape[1]), dtype=np.float32)
        for share, (vectors, _) in zip(shares, results, strict=True):
            out[share] = vectors
        return out, sum(cpu for _, cpu in results)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()


def sample_index(db: Path, n: int) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    total = int(conn.execute("SELECT count(*) FROM chunks WHERE valid_to IS NULL").fetchone()[0])
    step = max(1, total // n)
    rows = conn.execute("SELECT text FROM chunks WHERE valid_to IS NULL AND rowid % ? = 0 "
                        "ORDER BY rowid LIMIT ?", (step, n)).fetchall()
    conn.close()
    return [r[0] for r in rows]


def sample_corpus(folder: Path, n: int, acts: int = 40) -> list[str]:
    from civicsetu.config import Settings
    from civicsetu.ingest.loader import load_source
    from civicsetu.ingest.pipeline import parse_document

    files = sorted(folder.glob("*.md"))
    settings = Settings(home=Path("/nonexistent"))
    texts: list[str] = []
    for path in files[::max(1, len(files) // acts)][:acts]:
        document = load_source(path)[0]
        texts += [c.embed_text for c in parse_document(document, settings).chunks]
    return texts[::max(1, len(texts) // n)][:n]


def tokens_over(texts: Sequence[str], limit: int) -> float:
    """Share of texts longer than ``limit`` MiniLM tokens (special tokens included)."""
    from importlib import resources

    from tokenizers import Tokenizer

    tok: Any = Tokenizer.from_file(str(resources.files("civicsetu.embed") / "assets"
                                       / "tokenizer.json"))
    tok.no_truncation()
    lengths = [len(e.ids) for e in tok.encode_batch(list(texts))]
    return sum(n > limit for n in lengths) / len(lengths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a folder of Acts or an index file")
    parser.add_argument("-n", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", help="comma-separated configuration numbers (1-based)")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    texts = (sample_corpus(args.source, args.n) if args.source.is_dir()
             else sample_index(args.source, args.n))
    configs = ([CONFIGS[int(i) - 1] for i in args.only.split(",")] if args.only
               else CONFIGS)
    if configs[0] is not CONFIGS[0]:
        configs = [CONFIGS[0], *configs]
    started = machine()
    runners = [Runner(c) for c in configs]
    seconds = {c.name: 0.0 for c in configs}
    cpu = {c.name: 0.0 for c in configs}
    vectors: dict[str, Vectors] = {}
    try:
        for rnd in range(args.rounds):
            for runner in (runners if rnd % 2 == 0 else list(reversed(runners))):
                t = time.perf_counter()
                vectors[runner.config.name], spent = runner.embed(texts)
                seconds[runner.config.name] += time.perf_counter() - t
                cpu[runner.config.name] += spent
    finally:
        for runner in runners:
            runner.close()
    ended = os.getloadavg()[0]
    base = configs[0].name
    long_share = tokens_over(texts, 128)
    lines = [f"{len(texts)} texts as ingestion embeds them, from {args.source}, each "
             f"configuration {args.rounds} times (alternating order); "
             f"{long_share:.0%} of the texts are longer than 128 tokens, "
             f"{tokens_over(texts, 256):.0%} longer than 256.", "",
             f"Machine: {started}, {ended:.1f} at the end.", "",
             "| configuration | chunks/s | ratio to first row | CPU ms per chunk | "
             "min / mean cosine to first row |", "|---|---|---|---|---|"]
    for c in configs:
        rate = args.rounds * len(texts) / seconds[c.name]
        per = 1000 * cpu[c.name] / (args.rounds * len(texts))
        mine = vectors[c.name]
        if mine.shape == vectors[base].shape:
            cos = (mine * vectors[base]).sum(axis=1)
            close = f"{cos.min():.4f} / {cos.mean():.4f}"
        else:
            close = "other vector space"
        lines.append(f"| {c.name} | {rate:.1f} | {seconds[base] / seconds[c.name]:.2f} | "
                     f"{per:.1f} | {close} |")
    body = "\n".join(lines)
    print(body)
    if args.write:
        only = f" --only {args.only}" if args.only else ""
        write_section(args.write, "embed-throughput",
                      f"## Embedding throughput\n\n`python -m bench.bench_embed {args.source} "
                      f"-n {args.n} --rounds {args.rounds}{only}`\n\n{body}")


if __name__ == "__main__":
    main()
