"""The citation graph and metadata in SQLite: writes per document, resolution across
documents, and the graph queries (references out/in, derived-from both ways, k hops).

Edges whose target depends on other documents (REFERENCES, and DERIVED_FROM read from a
rule's text) are rebuilt by ``resolve_references`` after every ingest batch, so a rule
ingested before its Act links up as soon as the Act arrives.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date

from civicsetu.store.base import GraphEdge, GraphStats
from civicsetu.store.rows import iso
from civicsetu.types import (
    Amendment,
    DatedEvent,
    Edge,
    EdgeType,
    ParsedDocument,
    section_of,
)


def write_metadata(c: sqlite3.Connection, parsed: ParsedDocument) -> None:
    doc_id = parsed.document.id
    for table in ("refs", "definitions", "amendments", "dates"):
        c.execute(f"DELETE FROM {table} WHERE doc_id = ?", (doc_id,))
    c.executemany(
        'INSERT INTO refs (doc_id, src, start, "end", text, target_doc, target_path,'
        " target_name, derived) VALUES (?,?,?,?,?,?,?,?,?)",
        [(doc_id, r.src, r.start, r.end, r.text, r.target_doc, r.target_path, r.target_name,
          int(r.derived)) for r in parsed.references])
    c.executemany("INSERT OR IGNORE INTO definitions (doc_id, term, provision_id) "
                  "VALUES (?,?,?)", [(doc_id, d.term, d.provision_id)
                                     for d in parsed.definitions])
    c.executemany("INSERT INTO amendments (doc_id, provision_id, action, by_text, effective,"
                  " note) VALUES (?,?,?,?,?,?)",
                  [(doc_id, a.provision_id, a.action, a.by, iso(a.effective), a.note)
                   for a in parsed.amendments])
    c.executemany("INSERT INTO dates (doc_id, kind, on_date, provision_path, text) "
                  "VALUES (?,?,?,?,?)", [(doc_id, e.kind, e.on.isoformat(), e.provision_path,
                                          e.text) for e in parsed.dates])


def resolve_references(c: sqlite3.Connection) -> None:
    """Point every reference at an existing provision (or its section, or the document),
    then rebuild the edges that depend on other documents."""
    docs = {r[0]: r for r in c.execute("SELECT id, title, short_title, aliases FROM documents")}
    names = _name_index(docs.values())
    ids = {r[0] for r in c.execute("SELECT id FROM provisions")}
    updates = []
    for rowid, target_doc, path, name in c.execute(
            "SELECT rowid, target_doc, target_path, target_name FROM refs").fetchall():
        doc = target_doc if target_doc in docs else _by_name(names, name) if name else None
        updates.append((_resolve(doc, path, ids), rowid))
    c.executemany("UPDATE refs SET dst = ? WHERE rowid = ?", updates)
    # REFERENCES edges are rebuilt whole. DERIVED_FROM edges are only added: those read
    # from a rule's text go with the rule (its document's edges are replaced on re-ingest),
    # and those from the registry must survive this rebuild.
    c.execute("DELETE FROM edges WHERE type = ?", (EdgeType.REFERENCES.value,))
    c.execute("INSERT OR IGNORE INTO edges (src, dst, type, doc_id) SELECT src, dst, ?, doc_id"
              " FROM refs WHERE dst IS NOT NULL AND dst != src", (EdgeType.REFERENCES.value,))
    # A rule made "under section 4 of the Act" derives from that section (unit to unit).
    rows = c.execute("SELECT doc_id, src, dst FROM refs WHERE derived = 1 AND dst IS NOT NULL"
                     " AND instr(dst, '#') > 0").fetchall()
    c.executemany("INSERT OR IGNORE INTO edges (src, dst, type, doc_id) VALUES (?,?,?,?)",
                  [(_unit_id(src), _unit_id(dst), EdgeType.DERIVED_FROM.value, doc)
                   for doc, src, dst in rows])


def resolve_new_document(c: sqlite3.Connection, doc_id: str) -> None:
    """What ``resolve_references`` would change after ``doc_id`` was written for the first
    time, computed from the references that can change only.

    A new document adds its own id, its provisions and names no earlier document holds (the
    name index keeps the first holder), so only three kinds of reference can resolve
    differently: its own, those naming it by id (``target_doc``), and unresolved ones whose
    printed name is now one of its names. The whole pass re-read every reference and
    provision of the index for each document: quadratic over a library (about 1.5 s of
    CPU per document at 846 Acts). The result is the same (tests/store/test_resolve.py).
    """
    docs = {r[0]: r for r in c.execute("SELECT id, title, short_title, aliases FROM documents")}
    names = _name_index(docs.values())
    rows = c.execute(
        "SELECT rowid, target_doc, target_path, target_name, dst, src, doc_id, derived "
        "FROM refs WHERE doc_id = ? UNION ALL "
        "SELECT rowid, target_doc, target_path, target_name, dst, src, doc_id, derived "
        "FROM refs WHERE target_doc = ? AND doc_id != ? UNION ALL "
        "SELECT rowid, target_doc, target_path, target_name, dst, src, doc_id, derived "
        "FROM refs WHERE dst IS NULL AND doc_id != ? AND (target_doc IS NULL OR target_doc != ?)",
        (doc_id, doc_id, doc_id, doc_id, doc_id)).fetchall()
    targets = {}
    for rowid, target_doc, path, name, _dst, _src, owner, _derived in rows:
        doc = target_doc if target_doc in docs else _by_name(names, name) if name else None
        if owner == doc_id or doc == doc_id:
            targets[rowid] = (doc, path)
    wanted = sorted({doc for doc, _ in targets.values() if doc is not None})
    ids: set[str] = set()
    for i in range(0, len(wanted), 500):
        part = wanted[i:i + 500]
        ids.update(r[0] for r in c.execute(
            f"SELECT id FROM provisions WHERE doc_id IN ({','.join('?' * len(part))})", part))
    changed = []
    for rowid, _td, _path, _name, dst, src, owner, derived in rows:
        if rowid in targets:
            new = _resolve(*targets[rowid], ids)
            if new != dst:
                changed.append((rowid, dst, new, src, owner, derived))
    c.executemany("UPDATE refs SET dst = ? WHERE rowid = ?",
                  [(new, rowid) for rowid, _old, new, *_ in changed])
    kind = EdgeType.REFERENCES.value
    # An edge goes when no reference produces it any more; the whole pass rebuilt them all.
    c.executemany("DELETE FROM edges WHERE src = ? AND dst = ? AND type = ? AND NOT EXISTS "
                  "(SELECT 1 FROM refs WHERE src = ? AND dst = ?)",
                  [(src, old, kind, src, old) for _r, old, _n, src, _o, _d in changed
                   if old is not None])
    c.executemany("INSERT OR IGNORE INTO edges (src, dst, type, doc_id) VALUES (?,?,?,?)",
                  [(src, new, kind, owner) for _r, _old, new, src, owner, _d in changed
                   if new is not None and new != src])
    c.executemany("INSERT OR IGNORE INTO edges (src, dst, type, doc_id) VALUES (?,?,?,?)",
                  [(_unit_id(src), _unit_id(new), EdgeType.DERIVED_FROM.value, owner)
                   for _r, _old, new, src, owner, derived in changed
                   if derived and new is not None and "#" in new])


def _resolve(doc: str | None, path: str, ids: set[str]) -> str | None:
    if doc is None:
        return None
    if not path:
        return doc
    # ``section 47-A`` and ``section 47A`` are printed for the same section.
    variants = dict.fromkeys([path, re.sub(r"(\d)-([A-Z])", r"\1\2", path)])
    for variant in variants:
        for candidate in (f"{doc}#{variant}", f"{doc}#{section_of(variant)}"):
            if candidate in ids:
                return candidate
    return None


def _unit_id(full_id: str) -> str:
    doc, _, path = full_id.partition("#")
    return f"{doc}#{section_of(path)}"


def _by_name(names: dict[str, str], name: str) -> str | None:
    """A document by a printed name; the old ``Indian`` prefix of a renamed Act (the Indian
    Registration Act, 1908 is the Registration Act, 1908) is tried without it too."""
    key = _name_key(name)
    return names.get(key) or (names.get(key[7:]) if key.startswith("indian ") else None)


@functools.lru_cache(maxsize=1 << 16)
def _name_key(name: str) -> str:
    name = re.sub(r"^the\s+", "", name.strip().lower())
    return " ".join(re.sub(r"[^\w\s]", " ", name).split())


def _name_index(rows: Iterable[tuple[str, str, str, str]]) -> dict[str, str]:
    import json

    index: dict[str, str] = {}
    for doc_id, title, short_title, aliases in rows:
        for name in (title, short_title, *json.loads(aliases)):
            if name:
                index.setdefault(_name_key(name), doc_id)
    return index


def edges_of(c: sqlite3.Connection, node: str, direction: str,
             types: Sequence[str] | None = None) -> list[GraphEdge]:
    """Edges leaving (``out``) or entering (``in``) a provision or document id."""
    column, other = ("src", "dst") if direction == "out" else ("dst", "src")
    sql = f"SELECT src, dst, type FROM edges WHERE {column} = ?"
    params: list[object] = [node]
    if types:
        sql += f" AND type IN ({','.join('?' * len(types))})"
        params.extend(types)
    rows = c.execute(sql + f" ORDER BY type, {other}", params).fetchall()
    texts = _ref_texts(c, [(r[0], r[1]) for r in rows if r[2] == EdgeType.REFERENCES.value])
    return [GraphEdge(r[0], r[1], r[2], texts.get((r[0], r[1]), "")) for r in rows]


def unresolved_references(c: sqlite3.Connection, src_prefix: str) -> list[GraphEdge]:
    rows = c.execute("SELECT src, target_name, target_path, text FROM refs WHERE dst IS NULL"
                     " AND (src = ? OR src LIKE ? ESCAPE '\\')",
                     (src_prefix, _like_prefix(src_prefix))).fetchall()
    return [GraphEdge(r[0], f"{r[1] or '?'}#{r[2]}" if r[2] else r[1] or "?", "UNRESOLVED",
                      r[3]) for r in rows]


def _like_prefix(node: str) -> str:
    return node.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "(%"


def _ref_texts(c: sqlite3.Connection, pairs: list[tuple[str, str]]) -> dict[tuple[str, str],
                                                                             str]:
    out: dict[tuple[str, str], str] = {}
    for src, dst in pairs:
        row = c.execute("SELECT text FROM refs WHERE src = ? AND dst = ? LIMIT 1",
                        (src, dst)).fetchone()
        if row:
            out[(src, dst)] = row[0]
    return out


def neighbourhood(c: sqlite3.Connection, start: Sequence[str], hops: int,
                  types: Sequence[str]) -> dict[str, int]:
    """Every node within ``hops`` edges of ``start`` (either direction), with its distance."""
    if not start or hops < 1:
        return {}
    seeds = ",".join("(?, 0)" for _ in start)
    type_marks = ",".join("?" * len(types))
    sql = f"""
        WITH RECURSIVE walk(node, depth) AS (
            VALUES {seeds}
            UNION
            SELECT CASE WHEN e.src = w.node THEN e.dst ELSE e.src END, w.depth + 1
            FROM walk w JOIN edges e ON (e.src = w.node OR e.dst = w.node)
            WHERE w.depth < ? AND e.type IN ({type_marks})
        )
        SELECT node, min(depth) FROM walk GROUP BY node"""
    params = [*start, hops, *types]
    found = {node: depth for node, depth in c.execute(sql, params)}
    for node in start:
        found.pop(node, None)
    return found


def definitions_for(c: sqlite3.Connection, terms: Sequence[str],
                    doc_ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
    if not terms:
        return []
    # Look the terms up by their index and keep the allowed documents here: an IN list of
    # every document (the unfiltered case, hundreds of ids) made SQLite sort per term.
    allowed = set(doc_ids) if doc_ids else None
    sql = (f"SELECT term, provision_id, doc_id FROM definitions WHERE term IN "
           f"({','.join('?' * len(terms))})")
    rows = [(r[0], r[1]) for r in c.execute(sql, list(terms))
            if allowed is None or r[2] in allowed]
    return sorted(rows)


def amendments_of(c: sqlite3.Connection, provision_ids: Sequence[str]) -> list[Amendment]:
    if not provision_ids:
        return []
    marks = ",".join("?" * len(provision_ids))
    rows = c.execute(f"SELECT provision_id, action, by_text, effective, note FROM amendments"
                     f" WHERE provision_id IN ({marks})", list(provision_ids)).fetchall()
    return [Amendment(r[0], r[1], r[2], date.fromisoformat(r[3]) if r[3] else None, r[4])
            for r in rows]


def dates_of(c: sqlite3.Connection, doc_id: str) -> list[DatedEvent]:
    rows = c.execute("SELECT doc_id, kind, on_date, provision_path, text FROM dates WHERE "
                     "doc_id = ? ORDER BY on_date", (doc_id,)).fetchall()
    return [DatedEvent(r[0], r[1], date.fromisoformat(r[2]), r[3], r[4]) for r in rows]


def graph_stats(c: sqlite3.Connection) -> GraphStats:
    def one(sql: str) -> int:
        return int(c.execute(sql).fetchone()[0])

    edges = Counter({t: n for t, n in c.execute("SELECT type, count(*) FROM edges GROUP BY type")})
    to_section = one("SELECT count(*) FROM refs WHERE dst IS NOT NULL AND target_path != '' "
                     "AND substr(dst, instr(dst, '#') + 1) != target_path")
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


def static_edges(parsed: ParsedDocument) -> list[Edge]:
    """Edges known from one document alone: parts, definitions, its parent document."""
    doc = parsed.document
    edges = list(parsed.edges)
    edges += [Edge(d.provision_id, f"term:{d.term}", EdgeType.DEFINES) for d in parsed.definitions]
    if doc.parent_id:
        edges.append(Edge(doc.id, doc.parent_id, EdgeType.DERIVED_FROM))
    return edges

