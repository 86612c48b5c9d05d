"""Per-row metadata shared by the in-memory indexes (store/dense.py, store/lexical.py).

Both keep, per chunk row, an integer document code and its validity as day numbers, and
both follow the documents' ``ingested_at`` stamps to know what to reload; the filters of a
search (documents, as-of date) are one boolean mask over those arrays.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import date

import numpy as np
import numpy.typing as npt

OPEN_END = np.iinfo(np.int32).max  # valid_to of a row still in force


def day_numbers(values: list[str | None], open_value: int) -> npt.NDArray[np.int32]:
    """ISO dates as proleptic ordinals; a missing date becomes ``open_value``."""
    return np.array([date.fromisoformat(v).toordinal() if v else open_value for v in values],
                    dtype=np.int32)


def document_stamps(conn: sqlite3.Connection) -> dict[str, str]:
    """Each document's ``ingested_at``: a changed stamp means its rows must be re-read."""
    return {r[0]: str(r[1]) for r in conn.execute("SELECT id, ingested_at FROM documents")}


def allowed_rows(codes: npt.NDArray[np.int32], valid_from: npt.NDArray[np.int32],
                 valid_to: npt.NDArray[np.int32], doc_codes: dict[str, int],
                 doc_ids: Sequence[str] | None, as_of: date | None) -> npt.NDArray[np.bool_]:
    """Rows in force now (or on ``as_of``) within ``doc_ids``."""
    if as_of is None:
        keep = valid_to == OPEN_END
    else:
        day = as_of.toordinal()
        keep = (valid_from <= day) & (valid_to > day)
    if doc_ids is not None:
        wanted = np.array([doc_codes[d] for d in doc_ids if d in doc_codes], dtype=np.int32)
        keep &= np.isin(codes, wanted)
    return np.asarray(keep, dtype=np.bool_)
