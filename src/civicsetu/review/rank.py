"""Evidence ranking inside one contract: BM25, the embedder's cosine and the item's cue
patterns fused into one score per evidence unit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from civicsetu.embed.base import Vectors
from civicsetu.review.checklist import Item
from civicsetu.review.text import BM25

W_BM25 = 1.0
W_DENSE = 1.0
W_CUE = 1.0
W_CONTRA = 0.8
LEAD_IN = 0.9
LEAD_SPAN = 10
GROUP = 0.85
GROUP_MAX = 6
_ENDS = re.compile(r"[.;:!?)\"”’]\s*$")


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
    score = _with_lead_ins(texts, score)
    order = np.argsort(-score, kind="stable")
    return [Scored(int(i), float(score[i]), hits[i][0], hits[i][1]) for i in order]


def _with_lead_ins(texts: Sequence[str], score: npt.NDArray[np.float64],
                   ) -> npt.NDArray[np.float64]:
    """A lead-in ("... shall not apply to information that:") or a bare number ("2.1")
    shares the evidence of the items it introduces: it scores LEAD_IN times its best item."""
    out = score.copy()
    for j, t in enumerate(texts):
        t = t.strip()
        if len(t) <= 8 and j + 1 < len(texts):
            out[j] = max(out[j], LEAD_IN * score[j + 1])
        elif t.endswith(":"):
            best = 0.0
            for i in range(j + 1, min(j + 1 + LEAD_SPAN, len(texts))):
                if texts[i].strip().endswith(":"):
                    break
                best = max(best, float(score[i]))
            out[j] = max(out[j], LEAD_IN * best)
    # A sentence broken over several units ("... will not permit any of its" +
    # "Representatives to ... solicit ...") is one piece of evidence.
    start = 0
    for i, t in enumerate(texts):
        if _ENDS.search(t) or i - start + 1 >= GROUP_MAX or i == len(texts) - 1:
            if i > start:
                best = float(score[start:i + 1].max())
                out[start:i + 1] = np.maximum(out[start:i + 1], GROUP * best)
            start = i + 1
    return out
