"""An HNSW index (faiss) over chunk vectors, keyed by chunk rowid, persisted next to the DB.

faiss-cpu is an optional extra (``pip install 'civicsetu[ann]'``) imported lazily: without
it every dense search is exact. The index only proposes candidates: ``store.dense`` checks
every key it returns against the store's current rows and rescores the survivors with
the stored vectors, so an out-of-date index can cost recall, never a stale or deleted row.
faiss's HNSW cannot delete, so a removed row stays in the graph as a dead key (filtered
out on every search) until ``civicsetu index rebuild``; a re-added rowid gets a second
entry, and results are de-duplicated.

(usearch was measured too and is as fast, but importing it before onnxruntime crashes
the process with a segmentation fault here; faiss and onnxruntime load in either order.)

Files: ``<db>.ann/<generation>.faiss`` and ``<db>.ann/meta.json``; a save writes the new
generation first and then replaces ``meta.json`` atomically, so a reader sees either the
old pair or the new one. Saves hold ``<db>.ann/save.lock`` (filelock): two processes
saving at once would otherwise each delete the generation the other was about to publish,
leaving ``meta.json`` pointing at a deleted file (a rebuild from every vector on next
open). A reader whose generation was replaced between reading ``meta.json`` and opening
the file reads ``meta.json`` again. ``meta.json`` records each document's ``ingested_at``
stamp at save time; a later load re-syncs the documents whose stamp changed.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from filelock import FileLock

from civicsetu.errors import StoreError

# M 32 / efConstruction 256: on the 10^5-chunk replicas (tight clusters of near copies)
# M 16 / 128 reached recall@10 0.945 at ef 256 and 0.86 with a 24% filter; M 32 / 256
# reaches 0.988 and 0.970 (filtered walk) for about twice the build time (docs/SCALE.md).
CONNECTIVITY = 32  # M: graph degree
EXPANSION_ADD = 256  # efConstruction
INSTALL_HINT = "pip install 'civicsetu[ann]' (faiss-cpu)"
_LOAD_ATTEMPTS = 3
# A save of the 91k-chunk library writes ~150 MB; a second saver waits for it.
_SAVE_LOCK_SECONDS = 300.0


def available() -> bool:
    """Whether the ANN library is installed."""
    try:
        import faiss  # noqa: F401
    except ImportError:
        return False
    return True


def _save_lock(folder: Path) -> FileLock:
    return FileLock(str(folder / "save.lock"), timeout=_SAVE_LOCK_SECONDS)


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as exc:
        raise StoreError(f"approximate search needs faiss; run: {INSTALL_HINT}, or set "
                         "CIVICSETU_ANN=off for exact search") from exc
    return faiss


class AnnIndex:
    """faiss HNSW (inner product over unit vectors) behind an id map of chunk rowids."""

    def __init__(self, dim: int, index: Any = None) -> None:
        faiss = _faiss()
        self.dim = dim
        if index is None:
            hnsw = faiss.IndexHNSWFlat(dim, CONNECTIVITY, faiss.METRIC_INNER_PRODUCT)
            hnsw.hnsw.efConstruction = EXPANSION_ADD
            index = faiss.IndexIDMap(hnsw)
        self._index = index
        self.stamps: dict[str, str] = {}
        self.dead = 0  # entries whose row was removed or re-added since the last build
        self.changed = False

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def keys(self) -> npt.NDArray[np.int64]:
        """Every key in the graph (dead ones and duplicates included)."""
        return np.asarray(_faiss().vector_to_array(self._index.id_map), dtype=np.int64)

    def add(self, keys: npt.NDArray[np.int64], vectors: npt.NDArray[np.float32]) -> None:
        if len(keys) == 0:
            return
        _faiss().omp_set_num_threads(os.cpu_count() or 1)  # building uses every core
        self._index.add_with_ids(np.ascontiguousarray(vectors, np.float32),
                                 np.ascontiguousarray(keys, np.int64))
        self.changed = True

    def remove(self, keys: npt.NDArray[np.int64]) -> None:
        """Count ``keys`` as dead: searches drop them by checking the store."""
        if len(keys):
            self.dead += len(keys)
            self.changed = True

    def search(self, vector: npt.NDArray[np.float32], count: int, ef: int,
               allowed: npt.NDArray[np.uint8] | None = None) -> npt.NDArray[np.int64]:
        """Up to ``count`` distinct keys, nearest first, exploring at least ``ef``; with
        ``allowed`` (a bitmap over keys, bit ``k % 8`` of byte ``k // 8``) only those keys
        are returned, the walk passing through the others."""
        if len(self) == 0:
            return np.zeros(0, dtype=np.int64)
        faiss = _faiss()
        # One query walks one graph: OpenMP workers would only spin on shared cores.
        faiss.omp_set_num_threads(1)
        params = faiss.SearchParametersHNSW()
        params.efSearch = max(ef, count)
        if allowed is not None:
            bitmap = np.ascontiguousarray(allowed, dtype=np.uint8)
            selector = faiss.IDSelectorBitmap(len(bitmap), faiss.swig_ptr(bitmap))
            params.sel = selector
        _, found = self._index.search(np.asarray(vector, np.float32)[None, :],
                                      min(count, len(self)), params=params)
        keys = found[0][found[0] >= 0]
        _, first = np.unique(keys, return_index=True)
        return np.asarray(keys[np.sort(first)], dtype=np.int64)

    # --- persistence ------------------------------------------------------------------

    @staticmethod
    def folder(db_path: Path) -> Path:
        return db_path.with_name(db_path.name + ".ann")

    @classmethod
    def load(cls, db_path: Path, model_id: str, dim: int) -> AnnIndex | None:
        """The saved index for ``model_id``, or None when there is none (or it is unusable)."""
        folder = cls.folder(db_path)
        faiss = _faiss()
        for _ in range(_LOAD_ATTEMPTS):
            try:
                meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            if meta.get("model_id") != model_id or meta.get("dim") != dim:
                return None
            try:
                index = faiss.read_index(str(folder / meta["file"]))
                break
            except (OSError, RuntimeError, KeyError):
                # A concurrent save may have published a newer generation and deleted
                # this one after we read meta.json: read it again.
                continue
        else:
            return None
        ann = cls(dim, index)
        ann.stamps = dict(meta.get("stamps", {}))
        ann.dead = int(meta.get("dead", 0))
        return ann

    def save(self, db_path: Path, model_id: str, stamps: Mapping[str, str]) -> Path:
        """Write a new generation, then point ``meta.json`` at it; old generations go."""
        folder = self.folder(db_path)
        folder.mkdir(parents=True, exist_ok=True)
        # Writing, publishing and clearing old generations is one step across processes:
        # the last saver's generation is the one meta.json names, and it exists.
        with _save_lock(folder):
            name = f"{time.time_ns()}-{os.getpid()}-{threading.get_ident()}.faiss"
            _faiss().write_index(self._index, str(folder / name))
            meta = {"model_id": model_id, "dim": self.dim, "file": name, "rows": len(self),
                    "dead": self.dead,
                    "stamps": dict(stamps), "connectivity": CONNECTIVITY,
                    "expansion_add": EXPANSION_ADD}
            fd, tmp = tempfile.mkstemp(dir=folder, prefix="meta.json.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(json.dumps(meta))
            os.replace(tmp, folder / "meta.json")
            for old in folder.glob("*.faiss"):
                if old.name != name:
                    old.unlink(missing_ok=True)
        self.stamps = dict(stamps)
        self.changed = False
        return folder / name
