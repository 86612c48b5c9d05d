"""Evidence ranking inside one contract: BM25, the embedder's cosine and the item's cue
patterns fused into one score per evidence unit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from civicsetu.embed.base import Vectors
from civicsetu.review.checklist import Item
from civicsetu.review.text import BM25

W_BM25 = 1.0
W_DENSE = 1.0
W_CUE = 1.0
W_CONTRA = 0.8
LEAD_IN = 0.6


@dataclass(frozen=True, slots=True)
class Scored:
    index: int
    score: float
    cue: bool
    contra: bool


def cue_hits(item: Item, text: str) -> tuple[bool, bool]:
    """Whether ``text`` matches one of the item's cues, and one of its contra cues."""
    return (any(p.search(text) for p in item.cues),
            any(p.search(text) for p in item.contra_cues))


def rank_units(item: Item, texts: Sequence[str], bm25: BM25,
               unit_vecs: Vectors | None = None, query_vec: Vectors | None = None,
               use_cues: bool = True) -> list[Scored]:
    """Units of one contract, best evidence for ``item`` first."""
    if not texts:
        return []
    lex = np.asarray(bm25.scores(item.search_text), dtype=np.float64)
    top = lex.max()
    score = W_BM25 * (lex / top if top > 0 else lex)
    if unit_vecs is not None and query_vec is not None:
        cos = unit_vecs @ query_vec.reshape(-1)
        score = score + W_DENSE * np.clip(cos, 0.0, 1.0)
    hits = [cue_hits(item, t) if use_cues else (False, False) for t in texts]
    cue = np.array([W_CUE * h[0] + W_CONTRA * h[1] for h in hits], dtype=np.float64)
    score = score + cue
    # A lead-in ("... shall not apply to information that:", "2.1") shares the evidence
    # of the clause it introduces.
    lead = np.zeros_like(score)
    for i in range(len(texts) - 1):
        t = texts[i].rstrip()
        if t.endswith(":") or len(t) <= 8:
            lead[i] = LEAD_IN * max(score[i + 1] - score[i], 0.0)
    score = score + lead
    order = np.argsort(-score, kind="stable")
    return [Scored(int(i), float(score[i]), hits[i][0], hits[i][1]) for i in order]
