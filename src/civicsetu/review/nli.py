"""The model-free label: entailed, contradicted or not mentioned, from the item's cue
patterns in the best-ranked evidence units of one contract."""

from __future__ import annotations

from collections.abc import Sequence

from civicsetu.review.checklist import Item, Label
from civicsetu.review.rank import Scored

TOP_N = 6


def classify(item: Item, ranked: Sequence[Scored], top_n: int = TOP_N) -> Label:
    """Label ``item`` from the cue hits among the ``top_n`` best evidence units."""
    head = ranked[:top_n]
    entail = any(s.cue for s in head)
    contra = any(s.contra for s in head)
    if contra and (item.contra_first or not entail):
        return Label.CONTRADICTED
    if entail:
        return Label.ENTAILED
    return Label.NOT_MENTIONED


def evidence_for(label: Label, ranked: Sequence[Scored], k: int = 3,
                 top_n: int = TOP_N) -> list[Scored]:
    """The units that support ``label``: cue hits of that kind first, then the rest."""
    head = list(ranked[:top_n])
    if label is Label.CONTRADICTED:
        picked = [s for s in head if s.contra]
    elif label is Label.ENTAILED:
        picked = [s for s in head if s.cue]
    else:
        picked = []
    return picked[:k]
