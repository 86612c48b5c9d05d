"""Retrieval and answer metrics. Gold labels come from the dataset, never the retriever."""

from __future__ import annotations

import re
from collections.abc import Sequence

from civicsetu.answer.numbers import canonical
from civicsetu.types import section_of, split_provision_id

_MARKUP = re.compile(r"\^[\w*]{1,4}|[\[\]]")


def section_key(full_id: str) -> str:
    doc_id, path = split_provision_id(full_id)
    return f"{doc_id}#{section_of(path)}"


def ranked_sections(retrieved: Sequence[str]) -> list[str]:
    """Retrieved provision ids reduced to sections, first occurrence kept, order kept."""
    return list(dict.fromkeys(section_key(r) for r in retrieved))


def recall_at_k(gold: Sequence[str], retrieved: Sequence[str], k: int) -> float:
    """Share of the gold sections found among the first ``k`` retrieved sections."""
    gold_sections = set(section_key(g) for g in gold)
    if not gold_sections:
        return 0.0
    top = set(ranked_sections(retrieved)[:k])
    return len(gold_sections & top) / len(gold_sections)


def reciprocal_rank(gold: Sequence[str], retrieved: Sequence[str]) -> float:
    gold_sections = set(section_key(g) for g in gold)
    for rank, sec in enumerate(ranked_sections(retrieved), start=1):
        if sec in gold_sections:
            return 1.0 / rank
    return 0.0


def citation_precision_counts(gold: Sequence[str], cited: Sequence[str]) -> int:
    """How many of the cited provisions fall in a gold section (each citation counted)."""
    gold_sections = set(section_key(g) for g in gold)
    return sum(1 for c in cited if section_key(c) in gold_sections)


def normalise_for_match(text: str) -> str:
    """Lower-case, amendment markup (``^1[ ... ]``) dropped, white space folded, numbers
    in one form ("sixty days" and "60 days" match; see answer/numbers.py)."""
    return " ".join(canonical(_MARKUP.sub("", text)).lower().replace("’", "'").split())


def key_fact_recall(key_facts: Sequence[str], answer: str) -> float:
    if not key_facts:
        return 0.0
    hay = normalise_for_match(answer)
    return sum(normalise_for_match(f) in hay for f in key_facts) / len(key_facts)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]
