"""PostgreSQL side of versions, metadata and the citation graph (recursive CTEs).

The same rules as ``sqlite_versions`` and ``sqlite_graph`` (which own the pure-Python
parts: name matching, reference resolution, static edges), written for psycopg.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date
from typing import Any

from civicsetu.store.base import GraphEdge, GraphStats
from civicsetu.store.sqlite_graph import (
    _by_name,
    _name_index,
    _resolve,
    _unit_id,
    static_edges,
)
from civicsetu.types import Amendment, DatedEvent, EdgeType, ParsedDocument

__all__ = ["static_edges"]


def supersede_changed(c: Any, parsed: ParsedDocument,
                      change_date: date) -> dict[str, str | None]:
    """Move the changed sections of the stored version into history; return each new
    section's ``valid_from`` (see ``sqlite_versions.supersede_changed``)."""
    doc = parsed.document
    row = c.execute("SELECT content_hash, text FROM documents WHERE id = %s",
                    (doc.id,)).fetchone()
    new_sections = {p.path: " ".join(p.text.split()) for p in parsed.provisions
                    if p.parent_path is None}
    if row is None:
        first = doc.effective_date.isoformat() if doc.effective_date else None
        return {path: first for path in new_sections}
    old_hash, old_text = row
    old_sections = {path: (" ".join(old_text[start:end].split()), valid_from)
                    for path, start, end, valid_from in c.execute(
                        'SELECT path, start, "end", valid_from FROM provisions '
                        "WHERE doc_id = %s AND parent_path IS NULL", (doc.id,)).fetchall()}
    day = change_date.isoformat()
    changed = [path for path, (text, _) in old_sections.items()
               if new_sections.get(path) != text]
    valid_from = {path: (old_sections[path][1] if path in old_sections and path not in changed
                         else day) for path in new_sections}
    if old_hash == doc.content_hash or not changed:
        return valid_from
    c.execute("INSERT INTO document_versions (doc_id, content_hash, text, superseded_on) "
              "VALUES (%s,%s,%s,%s) ON CONFLICT DO NOTHING", (doc.id, old_hash, old_text, day))
    c.execute(
        'INSERT INTO provision_history (doc_id, id, path, section, parent_path, kind, title,'
        ' start, "end", ordinal, footnotes, valid_from, valid_to, page, page_end,'
        ' version_hash) SELECT doc_id, id, path, section, parent_path, kind, title, start,'
        ' "end", ordinal, footnotes, valid_from, %s, page, page_end, %s FROM provisions'
        " WHERE doc_id = %s AND section = ANY(%s)", (day, old_hash, doc.id, changed))
    c.execute("UPDATE chunks SET valid_to = %s, id = id || '@' || %s WHERE doc_id = %s AND"
              " valid_to IS NULL AND section = ANY(%s)", (day, old_hash[:12], doc.id, changed))
    return valid_from


def drop_current(c: Any, doc_id: str) -> None:
    """Delete the current provisions, chunks and edges of ``doc_id`` (history stays)."""
    c.execute("DELETE FROM chunks WHERE doc_id = %s AND valid_to IS NULL", (doc_id,))
    c.execute("DELETE FROM provisions WHERE doc_id = %s", (doc_id,))
    c.execute("DELETE FROM edges WHERE doc_id = %s", (doc_id,))


def write_metadata(c: Any, parsed: ParsedDocument) -> None:
    doc_id = parsed.document.id
    for table in ("refs", "definitions", "amendments", "dates"):
        c.execute(f"DELETE FROM {table} WHERE doc_id = %s", (doc_id,))
    with c.cursor() as cur:
        cur.executemany(
            'INSERT INTO refs (doc_id, src, start, "end", text, target_doc, target_path,'
            " target_name, derived) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            [(doc_id, r.src, r.start, r.end, r.text, r.target_doc, r.target_path,
              r.target_name, int(r.derived)) for r in parsed.references])
        cur.executemany("INSERT INTO definitions (doc_id, term, provision_id) VALUES "
                        "(%s,%s,%s) ON CONFLICT DO NOTHING",
                        [(doc_id, d.term, d.provision_id) for d in parsed.definitions])
        cur.executemany("INSERT INTO amendments (doc_id, provision_id, action, by_text,"
                        " effective, note) VALUES (%s,%s,%s,%s,%s,%s)",
                        [(doc_id, a.provision_id, a.action, a.by,
                          a.effective.isoformat() if a.effective else None, a.note)
                         for a in parsed.amendments])
        cur.executemany("INSERT INTO dates (doc_id, kind, on_date, provision_path, text) "
                        "VALUES (%s,%s,%s,%s,%s)",
                        [(doc_id, e.kind, e.on.isoformat(), e.provision_path, e.text)
                         for e in parsed.dates])


def resolve_references(c: Any) -> None:
    """Point every reference at an existing provision (or its section, or the document),
    then rebuild the edges that depend on other documents."""
    docs = {r[0]: r for r in c.execute(
        "SELECT id, title, short_title, aliases FROM documents").fetchall()}
    names = _name_index(docs.values())
    ids = {r[0] for r in c.execute("SELECT id FROM provisions").fetchall()}
    updates = []
    for ref_id, target_doc, path, name, dst in c.execute(
            "SELECT id, target_doc, target_path, target_name, dst FROM refs").fetchall():
        doc = target_doc if target_doc in docs else _by_name(names, name) if name else None
        new = _resolve(doc, path, ids)
        if new != dst:
            updates.append((new, ref_id))
    with c.cursor() as cur:
        cur.executemany("UPDATE refs SET dst = %s WHERE id = %s", updates)
    c.execute("DELETE FROM edges WHERE type = %s", (EdgeType.REFERENCES.value,))
    c.execute("INSERT INTO edges (src, dst, type, doc_id) SELECT src, dst, %s, min(doc_id)"
              " FROM refs WHERE dst IS NOT NULL AND dst != src GROUP BY src, dst"
              " ON CONFLICT DO NOTHING", (EdgeType.REFERENCES.value,))
    rows = c.execute("SELECT doc_id, src, dst FROM refs WHERE derived = 1 AND dst IS NOT NULL"
                     " AND strpos(dst, '#') > 0").fetchall()
    with c.cursor() as cur:
        cur.executemany("INSERT INTO edges (src, dst, type, doc_id) VALUES (%s,%s,%s,%s)"
                        " ON CONFLICT DO NOTHING",
                        [(_unit_id(src), _unit_id(dst), EdgeType.DERIVED_FROM.value, doc)
                         for doc, src, dst in rows])


def resolve_new_document(c: Any, doc_id: str) -> None:
    """What ``resolve_references`` would change after ``doc_id`` was written for the first
    time, touching only the references and edges that can change (the same rule as
    ``sqlite_graph.resolve_new_document``): the document's own references, those naming it
    by id, and unresolved ones whose printed name is one of its names.

    Run in the document's transaction after the advisory resolver lock, so it sees every
    document committed before it; tests/store/test_resolve.py checks that the result
    equals the whole pass on a real server, in two ingest orders.
    """
    docs = {r[0]: r for r in c.execute(
        "SELECT id, title, short_title, aliases FROM documents").fetchall()}
    names = _name_index(docs.values())
    columns = "id, target_doc, target_path, target_name, dst, src, doc_id, derived"
    rows = c.execute(
        f"SELECT {columns} FROM refs WHERE doc_id = %(d)s UNION ALL "
        f"SELECT {columns} FROM refs WHERE target_doc = %(d)s AND doc_id != %(d)s UNION ALL "
        f"SELECT {columns} FROM refs WHERE dst IS NULL AND doc_id != %(d)s"
        " AND target_doc IS DISTINCT FROM %(d)s", {"d": doc_id}).fetchall()
    targets: dict[int, tuple[str | None, str]] = {}
    for ref_id, target_doc, path, name, _dst, _src, owner, _derived in rows:
        doc = target_doc if target_doc in docs else _by_name(names, name) if name else None
        if owner == doc_id or doc == doc_id:
            targets[ref_id] = (doc, path)
    wanted = sorted({doc for doc, _ in targets.values() if doc is not None})
    ids = {r[0] for r in c.execute("SELECT id FROM provisions WHERE doc_id = ANY(%s)",
                                   (wanted,)).fetchall()} if wanted else set()
    changed = []  # (ref id, old dst, new dst, src, owner, derived)
    for ref_id, _td, _path, _name, dst, src, owner, derived in rows:
        if ref_id in targets:
            new = _resolve(*targets[ref_id], ids)
            if new != dst:
                changed.append((ref_id, dst, new, src, owner, derived))
    if not changed:
        return
    c.execute("UPDATE refs r SET dst = u.dst FROM unnest(%s::bigint[], %s::text[])"
              " AS u(id, dst) WHERE r.id = u.id",
              ([x[0] for x in changed], [x[2] for x in changed]))
    kind = EdgeType.REFERENCES.value
    old = [(src, dst) for _r, dst, _n, src, _o, _d in changed if dst is not None]
    if old:  # an edge goes when no reference produces it any more
        c.execute("DELETE FROM edges e USING unnest(%s::text[], %s::text[]) AS p(src, dst)"
                  " WHERE e.src = p.src AND e.dst = p.dst AND e.type = %s AND NOT EXISTS"
                  " (SELECT 1 FROM refs r WHERE r.src = p.src AND r.dst = p.dst)",
                  ([s for s, _ in old], [d for _, d in old], kind))
    added = [(src, dst) for _r, _o, dst, src, _ow, _d in changed if dst is not None]
    if added:  # as the whole pass: one edge per (src, dst), owned by its first document
        c.execute("INSERT INTO edges (src, dst, type, doc_id) SELECT r.src, r.dst, %s,"
                  " min(r.doc_id) FROM refs r JOIN unnest(%s::text[], %s::text[]) AS"
                  " p(src, dst) ON r.src = p.src AND r.dst = p.dst WHERE r.dst != r.src"
                  " GROUP BY r.src, r.dst ON CONFLICT DO NOTHING",
                  (kind, [s for s, _ in added], [d for _, d in added]))
    derived_edges = [(_unit_id(src), _unit_id(dst), owner)
                     for _r, _o, dst, src, owner, derived in changed
                     if derived and dst is not None and "#" in dst]
    if derived_edges:
        c.execute("INSERT INTO edges (src, dst, type, doc_id) SELECT s, d, %s, o FROM"
                  " unnest(%s::text[], %s::text[], %s::text[]) AS u(s, d, o)"
                  " ON CONFLICT DO NOTHING",
                  (EdgeType.DERIVED_FROM.value, [e[0] for e in derived_edges],
                   [e[1] for e in derived_edges], [e[2] for e in derived_edges]))


def edges_of(c: Any, node: str, direction: str,
             types: Sequence[str] | None = None) -> list[GraphEdge]:
    """Edges leaving (``out``) or entering (``in``) a provision or document id."""
    column, other = ("src", "dst") if direction == "out" else ("dst", "src")
    sql = f"SELECT src, dst, type FROM edges WHERE {column} = %s"
    params: list[object] = [node]
    if types:
        sql += " AND type = ANY(%s)"
        params.append(list(types))
    rows = c.execute(sql + f" ORDER BY type, {other}", params).fetchall()
    pairs = [(r[0], r[1]) for r in rows if r[2] == EdgeType.REFERENCES.value]
    texts: dict[tuple[str, str], str] = {}
    if pairs:
        for src, dst, text in c.execute(
                "SELECT DISTINCT ON (src, dst) src, dst, text FROM refs WHERE src = ANY(%s)"
                " AND dst = ANY(%s) ORDER BY src, dst, id",
                ([p[0] for p in pairs], [p[1] for p in pairs])).fetchall():
            texts[(src, dst)] = text
    return [GraphEdge(r[0], r[1], r[2], texts.get((r[0], r[1]), "")) for r in rows]


def unresolved_references(c: Any, src_prefix: str) -> list[GraphEdge]:
    like = src_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "(%"
    rows = c.execute("SELECT src, target_name, target_path, text FROM refs WHERE dst IS NULL"
                     " AND (src = %s OR src LIKE %s) ORDER BY id",
                     (src_prefix, like)).fetchall()
    return [GraphEdge(r[0], f"{r[1] or '?'}#{r[2]}" if r[2] else r[1] or "?", "UNRESOLVED",
                      r[3]) for r in rows]


def neighbourhood(c: Any, start: Sequence[str], hops: int,
                  types: Sequence[str]) -> dict[str, int]:
    """Every node within ``hops`` edges of ``start`` (either direction), with its distance."""
    if not start or hops < 1:
        return {}
    sql = """
        WITH RECURSIVE walk(node, depth) AS (
            SELECT unnest(%s::text[]), 0
            UNION
            SELECT CASE WHEN e.src = w.node THEN e.dst ELSE e.src END, w.depth + 1
            FROM walk w JOIN edges e ON (e.src = w.node OR e.dst = w.node)
            WHERE w.depth < %s AND e.type = ANY(%s)
        )
        SELECT node, min(depth) FROM walk GROUP BY node"""
    found = {node: int(depth) for node, depth in c.execute(
        sql, (list(start), hops, list(types))).fetchall()}
    for node in start:
        found.pop(node, None)
    return found


def definitions_for(c: Any, terms: Sequence[str],
                    doc_ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
    if not terms:
        return []
    sql = "SELECT term, provision_id FROM definitions WHERE term = ANY(%s)"
    params: list[object] = [list(terms)]
    if doc_ids:
        sql += " AND doc_id = ANY(%s)"
        params.append(list(doc_ids))
    return [(r[0], r[1]) for r in c.execute(sql + " ORDER BY term, provision_id",
                                            params).fetchall()]


def amendments_of(c: Any, provision_ids: Sequence[str]) -> list[Amendment]:
    if not provision_ids:
        return []
    rows = c.execute("SELECT provision_id, action, by_text, effective, note FROM amendments"
                     " WHERE provision_id = ANY(%s) ORDER BY id",
                     (list(provision_ids),)).fetchall()
    return [Amendment(r[0], r[1], r[2], date.fromisoformat(r[3]) if r[3] else None, r[4])
            for r in rows]


def dates_of(c: Any, doc_id: str) -> list[DatedEvent]:
    rows = c.execute("SELECT doc_id, kind, on_date, provision_path, text FROM dates WHERE "
                     "doc_id = %s ORDER BY on_date, id", (doc_id,)).fetchall()
    return [DatedEvent(r[0], r[1], date.fromisoformat(r[2]), r[3], r[4]) for r in rows]


def graph_stats(c: Any) -> GraphStats:
    def one(sql: str) -> int:
        return int(c.execute(sql).fetchone()[0])

    edges = Counter({t: int(n) for t, n in c.execute(
        "SELECT type, count(*) FROM edges GROUP BY type").fetchall()})
    to_section = one("SELECT count(*) FROM refs WHERE dst IS NOT NULL AND target_path != '' "
                     "AND substr(dst, strpos(dst, '#') + 1) != target_path")
    return GraphStats(
        documents=one("SELECT count(*) FROM documents"),
        provisions=one("SELECT count(*) FROM provisions"),
        edges=dict(sorted(edges.items())),
        references_resolved=one("SELECT count(*) FROM refs WHERE dst IS NOT NULL"),
        references_to_section=to_section,
        references_unresolved=one("SELECT count(*) FROM refs WHERE dst IS NULL"),
        definitions=one("SELECT count(*) FROM definitions"),
        amendments=one("SELECT count(*) FROM amendments"),
        dates=one("SELECT count(*) FROM dates"),
    )
