"""The saved HNSW files under concurrency: processes saving the same index at once leave
``meta.json`` naming a generation that exists, and a reader loading meanwhile always gets
an index (never the "no index" that costs a rebuild from every vector)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("faiss", reason="the [ann] extra is not installed")

from civicsetu.store.ann import AnnIndex

DIM = 16
MODEL = "test-model"
SAVES = 12


def _index(seed: int) -> AnnIndex:
    vectors = np.random.default_rng(seed).standard_normal((300, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = AnnIndex(DIM)
    index.add(np.arange(300, dtype=np.int64) + seed * 1000, vectors)
    return index


def _saver(db: str, seed: int, start: Any) -> None:
    index = _index(seed)
    start.wait()
    for n in range(SAVES):
        index.save(Path(db), MODEL, {"doc": f"{seed}-{n}"})


def _reader(db: str, start: Any, misses: Any, loads: Any) -> None:
    start.wait()
    for _ in range(SAVES * 6):
        if AnnIndex.load(Path(db), MODEL, DIM) is None:
            misses.value += 1
        loads.value += 1


def test_processes_saving_at_once_leave_a_loadable_index(tmp_path: Path) -> None:
    db = tmp_path / "civicsetu.db"
    _index(99).save(db, MODEL, {"doc": "first"})  # readers start from a saved index
    ctx = multiprocessing.get_context("spawn")  # no fork after OpenMP threads exist
    savers = 3
    start = ctx.Barrier(savers + 1)
    misses, loads = ctx.Value("i", 0), ctx.Value("i", 0)
    procs = [ctx.Process(target=_saver, args=(str(db), seed, start)) for seed in range(savers)]
    procs.append(ctx.Process(target=_reader, args=(str(db), start, misses, loads)))
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
    assert [p.exitcode for p in procs] == [0] * len(procs)
    assert loads.value == SAVES * 6
    assert misses.value == 0
    folder = AnnIndex.folder(db)
    generations = sorted(p.name for p in folder.glob("*.faiss"))
    assert len(generations) == 1
    loaded = AnnIndex.load(db, MODEL, DIM)
    assert loaded is not None and len(loaded) == 300
    assert loaded.stamps["doc"].endswith(f"-{SAVES - 1}")  # the last save of some saver
    assert not list(folder.glob("*.tmp"))
