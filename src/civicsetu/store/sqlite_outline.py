"""SQLite reads for browsing: a provision's place in its document and the graph topology.

The API and the web UI walk the law with these (parent, children, previous/next sibling,
and a capped node/edge list for the graph explorer); retrieval does not use them.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Sequence

from civicsetu.store.base import GraphEdge, GraphNode, ProvisionNeighbours, Topology
from civicsetu.types import split_provision_id


def neighbours(c: sqlite3.Connection, full_id: str) -> ProvisionNeighbours:
    """Parent, children and siblings of a current provision (empty for an unknown id)."""
    # Document order is the character offset: ``ordinal`` counts within a section only.
    row = c.execute("SELECT doc_id, parent_path, start FROM provisions WHERE id = ?",
                    (full_id,)).fetchone()
    if row is None:
        return ProvisionNeighbours(None, (), None, None)
    doc_id, parent_path, start = row
    _, path = split_provision_id(full_id)
    children = tuple(r[0] for r in c.execute(
        "SELECT id FROM provisions WHERE doc_id = ? AND parent_path = ? ORDER BY start, id",
        (doc_id, path)))
    prev = c.execute("SELECT id FROM provisions WHERE doc_id = ? AND parent_path IS ? AND "
                     "start < ? ORDER BY start DESC LIMIT 1",
                     (doc_id, parent_path, start)).fetchone()
    nxt = c.execute("SELECT id FROM provisions WHERE doc_id = ? AND parent_path IS ? AND "
                    "start > ? ORDER BY start LIMIT 1",
                    (doc_id, parent_path, start)).fetchone()
    parent = f"{doc_id}#{parent_path}" if parent_path else None
    return ProvisionNeighbours(parent, children, prev[0] if prev else None,
                               nxt[0] if nxt else None)


def graph_nodes(c: sqlite3.Connection, ids: Sequence[str]) -> list[GraphNode]:
    """Display records for ``ids`` in the order given; unknown ids are skipped."""
    found: dict[str, GraphNode] = {}
    wanted = list(dict.fromkeys(ids))
    for start in range(0, len(wanted), 500):
        batch = wanted[start:start + 500]
        marks = ",".join("?" * len(batch))
        for r in c.execute(f"SELECT id, doc_id, path, title FROM provisions WHERE id IN "
                           f"({marks})", batch):
            found[r[0]] = GraphNode(r[0], r[1], r[2], r[3])
        for r in c.execute(f"SELECT id, title FROM documents WHERE id IN ({marks})", batch):
            found[r[0]] = GraphNode(r[0], r[0], "", r[1])
    return [found[i] for i in wanted if i in found]


def topology(c: sqlite3.Connection, doc_ids: Sequence[str] | None,
             types: Sequence[str] | None, max_nodes: int) -> Topology:
    """Edges owned by ``doc_ids`` and of ``types``; when more than ``max_nodes`` nodes
    take part, the best-connected nodes are kept with the edges among them."""
    sql = "SELECT src, dst, type FROM edges WHERE 1 = 1"
    params: list[object] = []
    if doc_ids is not None:
        sql += f" AND doc_id IN ({','.join('?' * len(doc_ids))})"
        params.extend(doc_ids)
    if types:
        sql += f" AND type IN ({','.join('?' * len(types))})"
        params.extend(types)
    rows = c.execute(sql + " ORDER BY src, dst, type", params).fetchall()
    degree: Counter[str] = Counter()
    for src, dst, _ in rows:
        degree[src] += 1
        degree[dst] += 1
    truncated = len(degree) > max_nodes
    keep = {n for n, _ in sorted(degree.items(), key=lambda kv: (-kv[1], kv[0]))[:max_nodes]}
    edges = [GraphEdge(s, d, t) for s, d, t in rows if s in keep and d in keep]
    return Topology(graph_nodes(c, sorted(keep)), edges, truncated)
