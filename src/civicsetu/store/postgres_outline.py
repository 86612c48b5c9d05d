"""PostgreSQL reads for browsing (as ``sqlite_outline``): a provision's place in its
document and the capped graph topology for the explorer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from civicsetu.store.base import GraphEdge, GraphNode, ProvisionNeighbours, Topology
from civicsetu.types import split_provision_id


def neighbours(c: Any, full_id: str) -> ProvisionNeighbours:
    """Parent, children and siblings of a current provision (empty for an unknown id)."""
    row = c.execute("SELECT doc_id, parent_path, start FROM provisions WHERE id = %s",
                    (full_id,)).fetchone()
    if row is None:
        return ProvisionNeighbours(None, (), None, None)
    doc_id, parent_path, start = row
    _, path = split_provision_id(full_id)
    children = tuple(r[0] for r in c.execute(
        "SELECT id FROM provisions WHERE doc_id = %s AND parent_path = %s ORDER BY start, id",
        (doc_id, path)).fetchall())
    prev = c.execute("SELECT id FROM provisions WHERE doc_id = %s AND parent_path IS NOT"
                     " DISTINCT FROM %s AND start < %s ORDER BY start DESC LIMIT 1",
                     (doc_id, parent_path, start)).fetchone()
    nxt = c.execute("SELECT id FROM provisions WHERE doc_id = %s AND parent_path IS NOT"
                    " DISTINCT FROM %s AND start > %s ORDER BY start LIMIT 1",
                    (doc_id, parent_path, start)).fetchone()
    parent = f"{doc_id}#{parent_path}" if parent_path else None
    return ProvisionNeighbours(parent, children, prev[0] if prev else None,
                               nxt[0] if nxt else None)


def graph_nodes(c: Any, ids: Sequence[str]) -> list[GraphNode]:
    """Display records for ``ids`` in the order given; unknown ids are skipped."""
    wanted = list(dict.fromkeys(ids))
    found: dict[str, GraphNode] = {}
    for r in c.execute("SELECT id, doc_id, path, title FROM provisions WHERE id = ANY(%s)",
                       (wanted,)).fetchall():
        found[r[0]] = GraphNode(r[0], r[1], r[2], r[3])
    for r in c.execute("SELECT id, title FROM documents WHERE id = ANY(%s)",
                       (wanted,)).fetchall():
        found[r[0]] = GraphNode(r[0], r[0], "", r[1])
    return [found[i] for i in wanted if i in found]


def topology(c: Any, doc_ids: Sequence[str] | None, types: Sequence[str] | None,
             max_nodes: int) -> Topology:
    """Edges owned by ``doc_ids`` and of ``types``, the best-connected ``max_nodes`` kept."""
    sql = "SELECT src, dst, type FROM edges WHERE true"
    params: list[object] = []
    if doc_ids is not None:
        sql += " AND doc_id = ANY(%s)"
        params.append(list(doc_ids))
    if types:
        sql += " AND type = ANY(%s)"
        params.append(list(types))
    rows = c.execute(sql + " ORDER BY src, dst, type", params).fetchall()
    degree: Counter[str] = Counter()
    for src, dst, _ in rows:
        degree[src] += 1
        degree[dst] += 1
    truncated = len(degree) > max_nodes
    keep = {n for n, _ in sorted(degree.items(), key=lambda kv: (-kv[1], kv[0]))[:max_nodes]}
    edges = [GraphEdge(s, d, t) for s, d, t in rows if s in keep and d in keep]
    return Topology(graph_nodes(c, sorted(keep)), edges, truncated)
