"""HNSW libraries side by side on the project's vectors: build time, recall@10, latency.

    python -m bench.bench_ann DB [DB...] [--queries ../shared/eval/legal_qa_dev.jsonl]
        [--write docs/BENCHMARKS.md]

Vectors are every chunk vector of the given indexes (concatenated); queries are the dev
questions embedded with the default embedder, as search embeds them. Ground truth is the
exact top 10 by cosine. Every library gets M=16, ef_construction=128, 2 build threads and
1 query thread; recall and latency are reported for several ef (search expansion) values.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.bench_search import DEFAULT_QUERIES, machine
from bench.sections import write_section
from civicsetu.embed.base import get_embedder
from civicsetu.eval.metrics import percentile
from civicsetu.store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
M, EF_CONSTRUCTION, K = 16, 128, 10
EFS = (16, 32, 64, 128, 256)
F32 = npt.NDArray[np.float32]
Search = Callable[[F32, int], npt.NDArray[np.int64]]


def load_vectors(dbs: list[Path]) -> F32:
    parts = []
    for db in dbs:
        store = SQLiteStore(db)
        embedder_id = get_embedder("minilm-onnx").model_id
        parts.append(store.vector_index(embedder_id).matrix)
        store.close()
    return np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)


def build_usearch(data: F32) -> Callable[[int], Search]:
    from usearch.index import Index

    index = Index(ndim=data.shape[1], metric="ip", dtype="f32", connectivity=M,
                  expansion_add=EF_CONSTRUCTION)
    index.add(np.arange(len(data), dtype=np.uint64), data, threads=2)

    def at(ef: int) -> Search:
        index.expansion_search = ef
        return lambda q, k: np.asarray(index.search(q, k, threads=1).keys, dtype=np.int64)
    return at


def build_hnswlib(data: F32) -> Callable[[int], Search]:
    import hnswlib

    index = hnswlib.Index(space="ip", dim=data.shape[1])
    index.init_index(max_elements=len(data), ef_construction=EF_CONSTRUCTION, M=M)
    index.set_num_threads(2)
    index.add_items(data, np.arange(len(data)))
    index.set_num_threads(1)

    def at(ef: int) -> Search:
        index.set_ef(max(ef, K))
        return lambda q, k: np.asarray(index.knn_query(q, k=k)[0][0], dtype=np.int64)
    return at


def build_faiss(data: F32) -> Callable[[int], Search]:
    import faiss

    faiss.omp_set_num_threads(2)
    index = faiss.IndexHNSWFlat(data.shape[1], M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = EF_CONSTRUCTION
    index.add(data)
    faiss.omp_set_num_threads(1)

    def at(ef: int) -> Search:
        index.hnsw.efSearch = ef
        return lambda q, k: np.asarray(index.search(q[None, :], k)[1][0], dtype=np.int64)
    return at


LIBRARIES = {"usearch": build_usearch, "hnswlib": build_hnswlib, "faiss-cpu": build_faiss}


def run(dbs: list[Path], queries: list[str]) -> str:
    data = load_vectors(dbs)
    embedder = get_embedder("minilm-onnx")
    qv = np.stack([embedder.embed_query(q) for q in queries]).astype(np.float32)
    truth = [set(np.argsort(-(data @ q))[:K].tolist()) for q in qv]
    exact_ms = []
    for q in qv:
        t = time.perf_counter()
        scores = data @ q
        np.argpartition(-scores, K)[:K]
        exact_ms.append((time.perf_counter() - t) * 1000)
    lines = [f"{len(data):,} vectors x {data.shape[1]} from {', '.join(str(d) for d in dbs)}; "
             f"{len(queries)} dev questions as queries; {machine()}.",
             f"Exact numpy top-{K}: p50 {percentile(exact_ms, 50):.2f} ms.", "",
             "| library | build s | ef | recall@10 | p50 ms | p95 ms |",
             "|---|---|---|---|---|---|"]
    for name, build in LIBRARIES.items():
        t = time.perf_counter()
        at = build(data)
        build_s = time.perf_counter() - t
        for ef in EFS:
            search = at(ef)
            hits, ms = 0, []
            for q, want in zip(qv, truth, strict=True):
                t = time.perf_counter()
                got = search(q, K)
                ms.append((time.perf_counter() - t) * 1000)
                hits += len(want & set(got.tolist()))
            lines.append(f"| {name} | {build_s:.1f} | {ef} | {hits / (K * len(qv)):.3f} | "
                         f"{percentile(ms, 50):.2f} | {percentile(ms, 95):.2f} |")
    return "\n".join(lines)


def store_recall(home: Path, queries: list[str]) -> str:
    """recall@10 of the store's own dense search (HNSW + filters + exact rescoring) against
    its exact scan, per filter, on an index whose HNSW file is already built."""
    from datetime import date

    from civicsetu.config import Settings
    from civicsetu.engine import Engine

    lines = ["| filter | rows allowed | recall@10 | ANN p50 ms | exact p50 ms |",
             "|---|---|---|---|---|"]
    with Engine(Settings(home=home)) as engine:
        model = engine.embedder.model_id
        qv = [engine.embedder.embed_query(q) for q in queries]
        docs = [d for d in engine.store.documents()]
        karnataka = [d.id for d in docs if d.jurisdiction == "IN-KA"] or None
        rera = [d.id for d in docs if d.id.startswith("the-real-estate")][:1]
        filters: dict[str, dict[str, object]] = {
            "none": {}, "jurisdiction IN-KA": {"doc_ids": karnataka},
            "one document": {"doc_ids": rera}, "as of 2020-01-01": {"as_of": date(2020, 1, 1)}}
        engine.store.dense_search(model, qv[0], K)  # load vectors and the HNSW file
        for name, kw in filters.items():
            hits, total, ann_ms, exact_ms = 0, 0, [], []
            for q in qv:
                t = time.perf_counter()
                got = engine.store.dense_search(model, q, K, **kw)  # type: ignore[arg-type]
                ann_ms.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                want = engine.store.dense_search(model, q, K, exact=True,
                                                 **kw)  # type: ignore[arg-type]
                exact_ms.append((time.perf_counter() - t) * 1000)
                hits += len({r for r, _ in want} & {r for r, _ in got})
                total += len(want)
            lines.append(f"| {name} | {'all' if not kw else '-'} | {hits / max(total, 1):.3f} |"
                         f" {percentile(ann_ms, 50):.2f} | {percentile(exact_ms, 50):.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dbs", type=Path, nargs="+")
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("-n", type=int, default=100, help="questions to use")
    parser.add_argument("--write", type=Path, help="write a section of this BENCHMARKS.md")
    parser.add_argument("--section", default="ann-libraries")
    parser.add_argument("--store-section", default="ann-store-recall",
                        help="the section --store writes")
    parser.add_argument("--store", action="store_true",
                        help="measure the store's dense search on the (one) HOME given")
    args = parser.parse_args()
    queries = [json.loads(line)["query"] for line in
               args.queries.read_text(encoding="utf-8").splitlines() if line.strip()][:args.n]
    if args.store:
        body = (f"{args.dbs[0]}, {len(queries)} dev questions, k={K}, {machine()}.\n\n"
                + store_recall(args.dbs[0], queries))
        print(body)
        if args.write:
            write_section(args.write, args.store_section,
                          "## Dense search through the store: HNSW against exact\n\n"
                          f"`python -m bench.bench_ann --store {args.dbs[0]}`\n\n{body}")
        return
    body = run(args.dbs, queries)
    print(body)
    if args.write:
        cmd = "python -m bench.bench_ann " + " ".join(str(d) for d in args.dbs)
        write_section(args.write, args.section,
                      f"## ANN libraries side by side\n\n`{cmd}`\n\n{body}")


if __name__ == "__main__":
    main()
