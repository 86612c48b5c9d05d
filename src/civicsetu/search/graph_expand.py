"""Graph expansion: the neighbours of the best provisions join the candidate pool.

Questions that follow a reference ("section 18 says compensation 'as provided under this
Act' — who fixes it?"), ask for a penalty (penalty sections cite the duty they punish) or
ask about time limits (periods are often set in a referenced provision) are answered by a
provision linked to the best match rather than by the best match itself. For those, the
REFERENCES / DERIVED_FROM neighbours (both directions) of the pinned and top provisions
become one more ranked list in the fusion. A query word that is a defined term pulls its
definition in the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from civicsetu.search.query import QueryAnalysis
from civicsetu.store.base import Store
from civicsetu.types import EdgeType, Hit, section_of, split_provision_id

GRAPH_INTENT = re.compile(
    r"\b(?:refer(?:s|red|ence)?|read\s+with|points?\s+to|as\s+provided|under\s+(?:section|"
    r"sub-section|clause)|which\s+(?:section|account|provision)|penalt(?:y|ies)|punish\w*|"
    r"fine[sd]?|imprison\w*|jail|offences?|contraven\w*|compound\w*|how\s+long|within|"
    r"deadline|time\s+limit|period|days?|months?|years?|commence\w*|come\s+into\s+force|"
    r"effective|defin\w*|meaning)\b",
    re.IGNORECASE,
)
SEEDS = 3
MAX_NEIGHBOURS = 12
EDGE_TYPES = (EdgeType.REFERENCES.value, EdgeType.DERIVED_FROM.value)


def wants_graph(analysis: QueryAnalysis) -> bool:
    """The question's words ask for a reference, penalty, period or definition."""
    return bool(analysis.references) or bool(GRAPH_INTENT.search(analysis.query))


def graph_list(store: Store, analysis: QueryAnalysis, seeds: Sequence[Hit],
               allowed: set[str]) -> list[int]:
    """Chunk rowids of the seeds' graph neighbours and of defined terms, best first."""
    start: list[str] = []
    for hit in seeds[:SEEDS]:
        for node in (hit.provision_id, f"{hit.doc_id}#{section_of(hit.provision_path)}"):
            if node not in start:
                start.append(node)
    ordered: list[str] = []
    if start:
        near = store.neighbourhood(start, 1, EDGE_TYPES)
        ordered = [n for n, _ in sorted(near.items(), key=lambda x: (x[1], _rank(x[0], start)))
                   if "#" in n and split_provision_id(n)[0] in allowed]
    return chunk_rowids(store, [*definitions(store, analysis, allowed), *ordered],
                        MAX_NEIGHBOURS)


def definitions(store: Store, analysis: QueryAnalysis, allowed: set[str]) -> list[str]:
    """The definitions of the question's words and phrases (provision ids)."""
    terms = _candidate_terms(analysis)
    # Filtered here, not by the store: sorting every allowed document id into an IN list
    # cost 2-3 ms per question with 9,306 documents.
    return [pid for _, pid in store.definitions_for(terms)
            if split_provision_id(pid)[0] in allowed]


def chunk_rowids(store: Store, provision_ids: Sequence[str], limit: int) -> list[int]:
    """The chunks holding the first ``limit`` provisions, in their order, no repeats."""
    rowids: list[int] = []
    for full_id in provision_ids[:limit]:
        doc_id, path = split_provision_id(full_id)
        rowid = store.chunk_covering(doc_id, path)
        if rowid is not None and rowid not in rowids:
            rowids.append(rowid)
    return rowids


def _rank(node: str, start: list[str]) -> int:
    return 0 if node in start else 1


def _candidate_terms(analysis: QueryAnalysis) -> list[str]:
    """Words and two- and three-word phrases of the question, as definitions key them."""
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]*", analysis.query)]
    grams = set(words)
    for n in (2, 3, 4):
        grams.update(" ".join(words[i:i + n]) for i in range(len(words) - n + 1))
    for quoted in re.findall(r"['‘\"“]([^'’\"”]{2,60})['’\"”]", analysis.query):
        grams.add(" ".join(quoted.lower().split()))
    return sorted(g for g in grams if len(g) > 3)
