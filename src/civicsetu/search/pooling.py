"""Several searches' hits pooled into one ranking by reciprocal rank (k=60, as the hybrid
search fuses its retrievers), each provision kept once with its first hit."""

from __future__ import annotations

from collections.abc import Sequence

from civicsetu.types import Hit

RRF_K = 60


def pooled(rankings: Sequence[Sequence[Hit]], first: dict[str, Hit] | None = None) -> list[str]:
    """The provision ids of ``rankings`` by summed reciprocal rank, best first; ``first``
    (when given) gathers each provision's first hit."""
    scores: dict[str, float] = {}
    seen = {} if first is None else first
    for hits in rankings:
        for rank, hit in enumerate(hits, start=1):
            scores[hit.provision_id] = scores.get(hit.provision_id, 0.0) + 1 / (RRF_K + rank)
            seen.setdefault(hit.provision_id, hit)
    return sorted(scores, key=lambda pid: -scores[pid])
