"""An HNSW index (usearch) over chunk vectors, keyed by chunk rowid, persisted next to the DB.

usearch is an optional extra (``pip install 'civicsetu[ann]'``) imported lazily: without
it every dense search is exact. The index is only a shortcut: ``store.dense`` checks every
key it returns against the store's current rows and rescores the survivors exactly, so
an out-of-date index can cost recall, never a stale or deleted row.

Files: ``<db>.ann/<generation>.usearch`` and ``<db>.ann/meta.json``; a save writes the new
generation first and then replaces ``meta.json`` atomically, so a reader sees either the
old pair or the new one. ``meta.json`` records each document's ``ingested_at`` stamp at
save time; a later load re-syncs the documents whose stamp changed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from civicsetu.errors import StoreError

CONNECTIVITY = 16  # M: graph degree
EXPANSION_ADD = 128  # ef_construction
INSTALL_HINT = "pip install 'civicsetu[ann]' (usearch)"


def available() -> bool:
    """Whether the ANN library is installed."""
    try:
        import usearch.index  # noqa: F401
    except ImportError:
        return False
    return True


def _usearch() -> Any:
    try:
        import usearch.index as module
    except ImportError as exc:
        raise StoreError(f"approximate search needs usearch; run: {INSTALL_HINT}, or set "
                          "CIVICSETU_ANN=off for exact search") from exc
    return module


class AnnIndex:
    """usearch HNSW, inner product over unit vectors, keys are chunk rowids."""

    def __init__(self, dim: int, ef: int, index: Any = None) -> None:
        module = _usearch()
        self.dim = dim
        self._index = index if index is not None else module.Index(
            ndim=dim, metric="ip", dtype="f32", connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD)
        self._index.expansion_search = ef
        self.stamps: dict[str, str] = {}
        self.changed = False

    def __len__(self) -> int:
        return len(self._index)

    def keys(self) -> npt.NDArray[np.int64]:
        return np.asarray(self._index.keys, dtype=np.int64)

    def add(self, keys: npt.NDArray[np.int64], vectors: npt.NDArray[np.float32]) -> None:
        """Add rows; keys already present are replaced."""
        if len(keys) == 0:
            return
        self.remove(keys)
        self._index.add(keys.astype(np.uint64), np.ascontiguousarray(vectors, np.float32))
        self.changed = True

    def remove(self, keys: npt.NDArray[np.int64]) -> None:
        if len(keys) == 0 or len(self._index) == 0:
            return
        present = keys[np.asarray(self._index.contains(keys.astype(np.uint64)), dtype=bool)]
        if len(present):
            self._index.remove(present.astype(np.uint64))
            self.changed = True

    def search(self, vector: npt.NDArray[np.float32], count: int,
               ef: int) -> npt.NDArray[np.int64]:
        """Up to ``count`` keys, nearest first, exploring at least ``ef`` candidates."""
        if len(self._index) == 0:
            return np.zeros(0, dtype=np.int64)
        self._index.expansion_search = max(ef, count)
        matches = self._index.search(np.asarray(vector, np.float32), count, threads=1)
        return np.asarray(matches.keys, dtype=np.int64)

    # --- persistence ------------------------------------------------------------------

    @staticmethod
    def folder(db_path: Path) -> Path:
        return db_path.with_name(db_path.name + ".ann")

    @classmethod
    def load(cls, db_path: Path, model_id: str, dim: int, ef: int) -> AnnIndex | None:
        """The saved index for ``model_id``, or None when there is none (or it is unusable)."""
        meta_path = cls.folder(db_path) / "meta.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if meta.get("model_id") != model_id or meta.get("dim") != dim:
            return None
        module = _usearch()
        try:
            index = module.Index.restore(str(cls.folder(db_path) / meta["file"]))
        except (OSError, RuntimeError, KeyError):
            return None
        if index is None:
            return None
        ann = cls(dim, ef, index)
        ann.stamps = dict(meta.get("stamps", {}))
        return ann

    def save(self, db_path: Path, model_id: str, stamps: Mapping[str, str]) -> Path:
        """Write a new generation, then point ``meta.json`` at it; old generations go."""
        folder = self.folder(db_path)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns()}-{os.getpid()}.usearch"
        self._index.save(str(folder / name))
        meta = {"model_id": model_id, "dim": self.dim, "file": name, "rows": len(self),
                "stamps": dict(stamps), "connectivity": CONNECTIVITY,
                "expansion_add": EXPANSION_ADD}
        tmp = folder / f"meta.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(meta), encoding="utf-8")
        os.replace(tmp, folder / "meta.json")
        for old in folder.glob("*.usearch"):
            if old.name != name:
                old.unlink(missing_ok=True)
        self.stamps = dict(stamps)
        self.changed = False
        return folder / name
