"""Citation-graph neighbours ranked by what the question asks, not by edge order.

The provision that answers a multi-hop question is usually one citation edge from the
provision the question describes: the penalty section cites the duty, the adjudication
section cites the right to compensation, a sub-section points to another Act's section.
A seed has many such neighbours, though, and which of them answers depends on the
question. So every neighbour of the seeds (through any provision of their sections,
either direction) is scored against the question: the cosine of its chunk to the
question's vector, plus the idf-weighted share of the question's words it holds among
those the seeds do not already hold (the words that merely identify the seed say nothing
about which neighbour answers). Rule-making sections ("power to make rules", which cite
half the Act) count only when a seed cites them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from civicsetu.search.chunk_stats import ChunkStats
from civicsetu.search.graph_expand import EDGE_TYPES
from civicsetu.search.query import QueryAnalysis
from civicsetu.search.routing import stem
from civicsetu.store.base import Store
from civicsetu.types import Hit, section_of, split_provision_id

SECTION_PARTS = 40  # sub-provisions of a seed's section whose edges are followed
PART_EDGES = ("HAS_PART",)
PART_DEPTH = 4  # section > sub-section > clause > sub-clause > item
POOL = 40  # neighbours scored per question
LEXICAL_WEIGHT = 0.5  # of the word share, beside the cosine
RULES_HEAD = re.compile(r"\bmake\s+(?:rules|regulations)\b|\blaying\s+of\s+rules|"
                        r"\brules\b.*\blaid\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")


def neighbour_ids(store: Store, seeds: Sequence[Hit], allowed: set[str],
                  heading: Callable[[str], str]) -> list[str]:
    """Provision ids one citation edge (either way) from any provision of the seeds'
    sections, outside those sections, the first seed's first; a rule-making section only
    when a seed cites it (it cites half the Act, so citing a seed says nothing)."""
    own = {f"{h.doc_id}#{section_of(h.provision_path)}" for h in seeds}
    out: list[str] = []
    for hit in seeds:
        section = section_of(hit.provision_path)
        nodes = [hit.provision_id, f"{hit.doc_id}#{section}"]
        # The section's sub-provisions by their HAS_PART edges (ids only, no text).
        parts = store.neighbourhood([f"{hit.doc_id}#{section}"], PART_DEPTH, PART_EDGES)
        nodes = list(dict.fromkeys([*nodes, *(n for n in sorted(parts, key=lambda n: parts[n])
                                              if _in_section(n, hit.doc_id, section))]))
        nodes = nodes[:SECTION_PARTS]
        near = store.neighbourhood(nodes, 1, EDGE_TYPES)
        for other in sorted(near, key=lambda n: near[n]):
            doc_id, _, path = other.partition("#")
            if not path or doc_id not in allowed or other in out:
                continue
            key = f"{doc_id}#{section_of(path)}"
            if key in own or (RULES_HEAD.search(heading(key))
                              and not _cited_by(store, other, set(nodes))):
                continue
            out.append(other)
    return out


def _in_section(node: str, doc_id: str, section: str) -> bool:
    node_doc, _, path = node.partition("#")
    return node_doc == doc_id and bool(path) and section_of(path) == section


def _cited_by(store: Store, node: str, sources: set[str]) -> bool:
    return any(e.src in sources for e in store.edges(node, "in", EDGE_TYPES))


class Relevance:
    """Scores chunks against a question (cosine plus the share of its unexplained words);
    the document frequencies and the vector rows it looks up are cached per process."""

    def __init__(self, store: Store, model_id: str) -> None:
        self._stats = ChunkStats(store, model_id)

    def rank(self, analysis: QueryAnalysis, query_vector: npt.NDArray[np.float32] | None,
             rowids: Sequence[int], texts: Sequence[str], seed_text: str) -> list[int]:
        """``rowids`` ordered best first for the question."""
        scores = self.scores(analysis, query_vector, rowids, texts, seed_text)
        order = sorted(range(len(rowids)), key=lambda i: -scores[i])
        return [rowids[i] for i in order]

    def scores(self, analysis: QueryAnalysis, query_vector: npt.NDArray[np.float32] | None,
               rowids: Sequence[int], texts: Sequence[str], seed_text: str) -> list[float]:
        """One score per chunk: cosine + ``LEXICAL_WEIGHT`` x the idf-weighted share of the
        question's words, those the seeds hold left out, that the chunk holds."""
        terms = [t for t in dict.fromkeys(analysis.terms) if not t.isdigit()]
        seed_stems = {stem(w) for w in _WORD.findall(seed_text)}
        rest = [t for t in terms if stem(t) not in seed_stems] or terms
        idf = self._stats.idf(rest)
        weights = {stem(t): idf[t] for t in rest}
        total = sum(weights.values()) or 1.0
        cosines = self._stats.cosines(query_vector, rowids)
        out = []
        for cosine, text in zip(cosines, texts, strict=True):
            held = {stem(w) for w in _WORD.findall(text)}
            share = sum(v for s, v in weights.items() if s in held) / total
            out.append(float(cosine) + LEXICAL_WEIGHT * share)
        return out


def ranked_neighbours(store: Store, relevance: Relevance, analysis: QueryAnalysis,
                      query_vector: npt.NDArray[np.float32] | None, seeds: Sequence[Hit],
                      allowed: set[str], heading: Callable[[str], str]) -> list[str]:
    """The seeds' neighbours (``neighbour_ids``, the first ``POOL``), best first for the
    question; each is the provision id of the edge's end."""
    ids = neighbour_ids(store, seeds, allowed, heading)[:POOL]
    by_row: dict[int, str] = {}
    for full_id in ids:
        doc_id, path = split_provision_id(full_id)
        rowid = store.chunk_covering(doc_id, path)
        if rowid is not None:
            by_row.setdefault(rowid, full_id)
    rows = {r.rowid: r for r in store.chunks(list(by_row))}
    rowids = [r for r in by_row if r in rows]
    if not rowids:
        return []
    texts = [f"{heading(f'{rows[r].doc_id}#{rows[r].section}')} {rows[r].text}" for r in rowids]
    seed_text = " ".join(h.text for h in seeds)
    return [by_row[r] for r in relevance.rank(analysis, query_vector, rowids, texts, seed_text)]
