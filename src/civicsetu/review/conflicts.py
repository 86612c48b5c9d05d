"""Conflicts across the contracts under review: governing law, forum, liability caps,
notice periods, confidentiality terms and defined terms that differ. Each conflict quotes
and cites both sides."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from civicsetu.review.checklist import Label
from civicsetu.review.reviewer import ContractReview
from civicsetu.types import Citation

KINDS = {"governing-law": "Different governing laws", "jurisdiction": "Different courts or forum",
         "termination-notice": "Notice periods disagree",
         "confidentiality-term": "Confidentiality terms differ",
         "liability-cap": "Inconsistent liability caps"}


@dataclass(frozen=True)
class Side:
    doc_id: str
    value: str
    citation: Citation


@dataclass(frozen=True)
class Conflict:
    kind: str
    description: str
    sides: tuple[Side, ...]


def _norm(value: str) -> str:
    return " ".join(value.lower().split())


def find_conflicts(reviews: Sequence[ContractReview]) -> list[Conflict]:
    """Every item whose value differs between at least two contracts, and defined terms
    with different definitions."""
    out: list[Conflict] = []
    for item_id, description in KINDS.items():
        sides: list[Side] = []
        for r in reviews:
            for f in r.findings:
                if f.item_id != item_id or not f.citations:
                    continue
                if item_id == "liability-cap" and f.label is Label.CONTRADICTED:
                    sides.append(Side(r.doc_id, "unlimited", f.citations[0]))
                elif f.label is Label.ENTAILED and f.value:
                    sides.append(Side(r.doc_id, f.value, f.citations[0]))
        if len({_norm(s.value) for s in sides}) > 1:
            out.append(Conflict(item_id, description, tuple(sides)))
    terms: dict[str, list[Side]] = {}
    for r in reviews:
        for term, c in r.definitions.items():
            terms.setdefault(term, []).append(Side(r.doc_id, _definition_text(c.quote), c))
    for term, sides in sorted(terms.items()):
        if len({s.doc_id for s in sides}) > 1 and len({_norm(s.value)
                                                         for s in sides}) > 1:
            out.append(Conflict("defined-term", f"“{term}” is defined differently",
                                tuple(sides)))
    return out


def _definition_text(quote: str) -> str:
    m = re.search(r"\b(?:means?|refers?\s+to)\s+(.*)", quote, re.S)
    return " ".join((m.group(1) if m else quote).split()).rstrip(" .;")
