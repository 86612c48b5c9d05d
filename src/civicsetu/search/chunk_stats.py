"""Per-process look-ups over the indexed chunks that rankers share: how rare a word is
(idf over chunks) and how close a chunk's stored vector is to the question's.

The learned reranker (``search/rerank.py``) and the graph-neighbour ranking
(``search/neighbours.py``) both score a handful of chunks per question; each keeps one of
these so the document frequencies and the rowid -> vector-row map are read once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from civicsetu.store.base import Store


class ChunkStats:
    """Cached idf of words and cosines of chunks to a question vector, for one store."""

    def __init__(self, store: Store, model_id: str) -> None:
        self.store = store
        self.model_id = model_id
        self._df: dict[str, int] = {}
        self._chunks: int | None = None
        self._row_of: dict[int, int] | None = None

    def idf(self, terms: list[str]) -> dict[str, float]:
        """log((chunks + 1) / (chunks holding the term + 1)) for each term."""
        missing = [t for t in terms if t not in self._df]
        if missing:
            found = self.store.term_document_frequency(missing)
            self._df.update({t: found.get(t, 0) for t in missing})
        if self._chunks is None:
            self._chunks = max(self.store.chunk_count(), 1)
        n = self._chunks
        return {t: math.log((n + 1) / (self._df[t] + 1)) for t in terms}

    def cosines(self, query_vector: npt.NDArray[np.float32] | None,
                rowids: Sequence[int | None]) -> npt.NDArray[np.float64]:
        """The dot product of each chunk's stored vector with ``query_vector`` (0 for a
        chunk with no vector, or when there is no query vector)."""
        out = np.zeros(len(rowids))
        if query_vector is None:
            return out
        index = self.store.vector_index(self.model_id)
        if self._row_of is None or len(self._row_of) != len(index.rowids):
            self._row_of = {int(r): i for i, r in enumerate(np.asarray(index.rowids))}
        q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        for i, rowid in enumerate(rowids):
            row = self._row_of.get(rowid) if rowid is not None else None
            if row is not None:
                out[i] = float(index.matrix[row] @ q)
        return out
