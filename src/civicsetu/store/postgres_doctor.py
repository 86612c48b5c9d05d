"""``civicsetu doctor`` for the PostgreSQL store: find what a crash, a bug, a hand edit or
an older version left inconsistent, and repair what can be repaired without the sources.

Checks, in order: the schema (every migration applied, the ``vector`` extension);
rows whose document is gone (foreign keys cascade, but a restore, a tool running with
``session_replication_role = replica`` or a hand edit can leave them); edges into or out
of provisions that do not exist; the BM25 term table (``chunk_terms``) out of step with
the chunks' ``tsvector``; reference edges that differ from what resolving the stored
references gives; chunks without a vector; each embedding model's HNSW index present and
valid; documents missing their provisions or chunks; documents without provenance.

All checks run in one transaction, rolled back unless ``fix``; under the resolver's
advisory lock, so a repair never interleaves with a worker resolving references. A
repair that needs the source file (a missing vector, an incomplete document) marks the
document for re-ingest by clearing its content hash, as on SQLite.
"""

from __future__ import annotations

from typing import Any

from civicsetu.store import postgres_graph as graph
from civicsetu.store.base import Finding
from civicsetu.store.postgres_schema import (
    ensure_vector_index,
    known_pg_migrations,
    vector_index_name,
)
from civicsetu.store.sqlite_doctor import (
    NEEDS_REINGEST,
    cache_finding,
    incomplete_finding,
    provenance_finding,
    reference_edges_finding,
    vectors_finding,
)

# Tables holding rows of one document (column ``doc_id``), checked for orphans.
_CHILD_TABLES = ("provisions", "chunks", "edges", "refs", "definitions", "amendments",
                 "dates", "document_versions", "provision_history", "document_metadata")
# The tf of one (lexeme, chunk) as the insert trigger computes it: title hits twice.
_TERMS = ("SELECT u.lexeme, c.rowid, coalesce((SELECT sum(CASE w WHEN 'A' THEN 2 ELSE 1"
          " END) FROM unnest(u.weights) w), 1)::real AS tf FROM chunks c, unnest(c.tsv) u")


def run_doctor(conn: Any, fix: bool) -> list[Finding]:
    """Every check with its problem count; with ``fix`` the repairs are committed in one
    transaction and each finding says how many it fixed."""
    findings: list[Finding] = []
    try:
        conn.execute("BEGIN")
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('resolve_references'))")
        findings += [_schema(conn), _orphans(conn, fix), _dangling(conn, fix),
                     _terms(conn, fix), _edges(conn, fix), _vectors(conn, fix),
                     _hnsw(conn, fix), _incomplete(conn, fix), _provenance(conn),
                     _cache(conn)]
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT" if fix else "ROLLBACK")
    return findings


def _schema(c: Any) -> Finding:
    """Every migration this version knows is applied (opening the store applies them, so
    a gap means another process failed half-way), and pgvector is installed."""
    done = {r[0] for r in c.execute("SELECT name FROM civicsetu_migrations").fetchall()}
    missing = [m for m in known_pg_migrations() if m not in done]
    row = c.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    problems = len(missing) + (row is None)
    detail = (f"missing migrations {', '.join(missing)}" if missing else
              f"{len(done)} migrations applied") + (
        f"; pgvector {row[0]}" if row else "; the vector extension is not installed")
    return Finding("schema version", problems, 0, detail,
                   "open the store with this version (it applies migrations) and install "
                   "pgvector (docs/POSTGRES.md)")


def _orphans(c: Any, fix: bool) -> Finding:
    """Rows of a document that is gone, and term rows of a chunk that is gone. Dropped even
    without ``fix`` (rolled back then), so the checks after this one see a consistent
    graph."""
    counts: dict[str, int] = {}
    for table in _CHILD_TABLES:
        where = "NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = t.doc_id)"
        n = c.execute(f"DELETE FROM {table} t WHERE {where}").rowcount
        if n:
            counts[table] = int(n)
    n = c.execute("DELETE FROM chunk_terms t WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE"
                  " c.rowid = t.rowid)").rowcount
    if n:
        counts["chunk_terms"] = int(n)
    total = sum(counts.values())
    detail = ", ".join(f"{n} {t}" for t, n in counts.items()) or "none"
    return Finding("orphan rows", total, total if fix else 0, detail, "drop them (--fix)")


def _dangling(c: Any, fix: bool) -> Finding:
    """Edges naming a provision (``doc#path``) that is not stored. Deleted, then the
    reference check below rebuilds any reference edge that should exist."""
    missing = "(strpos({0}, '#') > 0 AND NOT EXISTS (SELECT 1 FROM provisions p WHERE " \
              "p.id = e.{0}))"
    rows = c.execute(
        f"DELETE FROM edges e WHERE {missing.format('src')} OR (e.type != 'DEFINES' AND"
        f" {missing.format('dst')}) RETURNING e.type").fetchall()
    by_type: dict[str, int] = {}
    for (kind,) in rows:
        by_type[kind] = by_type.get(kind, 0) + 1
    detail = (", ".join(f"{n} {t}" for t, n in sorted(by_type.items())) if rows
              else "every edge ends at a stored provision or document")
    return Finding("edges to missing provisions", len(rows), len(rows) if fix else 0,
                   detail, "drop them (--fix); reference edges are then resolved again")


def _terms(c: Any, fix: bool) -> Finding:
    """The BM25 term rows of each chunk against its ``tsvector`` (which PostgreSQL keeps
    in step with the text: it is a generated column)."""
    c.execute(f"CREATE TEMP TABLE doctor_terms ON COMMIT DROP AS {_TERMS}")
    missing = [int(r[0]) for r in c.execute(
        "SELECT DISTINCT rowid FROM (SELECT lexeme, rowid, tf FROM doctor_terms EXCEPT"
        " SELECT lexeme, rowid, tf FROM chunk_terms) x").fetchall()]
    extra = [int(r[0]) for r in c.execute(
        "SELECT DISTINCT rowid FROM (SELECT lexeme, rowid, tf FROM chunk_terms EXCEPT"
        " SELECT lexeme, rowid, tf FROM doctor_terms) x").fetchall()]
    c.execute("DROP TABLE doctor_terms")
    bad = sorted(set(missing) | set(extra))
    if fix and bad:
        c.execute("DELETE FROM chunk_terms WHERE rowid = ANY(%s)", (bad,))
        c.execute(f"INSERT INTO chunk_terms (lexeme, rowid, tf) {_TERMS}"
                  " WHERE c.rowid = ANY(%s)", (bad,))
    detail = (f"{len(bad)} chunks with terms missing or wrong in the keyword index"
              if bad else "in step with the chunks")
    return Finding("keyword index", len(bad), len(bad) if fix else 0, detail,
                   "re-index those chunks (--fix)")


def _edge_set(c: Any) -> set[tuple[str, str, str, str]]:
    return {(r[0], r[1], r[2], r[3]) for r in c.execute(
        "SELECT src, dst, type, doc_id FROM edges WHERE type IN ('REFERENCES',"
        " 'DERIVED_FROM')").fetchall()}


def _edges(c: Any, fix: bool) -> Finding:
    """Resolve the stored references again in a savepoint and compare the edges."""
    before = _edge_set(c)
    c.execute("SAVEPOINT doctor_edges")
    graph.resolve_references(c)
    after = _edge_set(c)
    lost = after - before
    # Resolution only adds DERIVED_FROM edges, so "stale" counts REFERENCES edges only.
    stale = {e for e in before - after if e[2] == "REFERENCES"}
    c.execute("RELEASE doctor_edges" if fix else "ROLLBACK TO doctor_edges")
    return reference_edges_finding(lost, stale, fix)


def _vectors(c: Any, fix: bool) -> Finding:
    """Chunks without a vector of every model that has vectors, in documents not already
    waiting for re-ingest."""
    models = [r[0] for r in c.execute(
        "SELECT DISTINCT model_id FROM embeddings ORDER BY model_id").fetchall()]
    rows = c.execute(
        "SELECT c.doc_id, count(*) FROM chunks c CROSS JOIN unnest(%s::text[]) m(model_id)"
        " WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = m.model_id AND"
        " e.text_hash = c.embed_hash) AND c.doc_id NOT IN (SELECT id FROM documents WHERE"
        " content_hash = %s) GROUP BY c.doc_id ORDER BY c.doc_id",
        (models, NEEDS_REINGEST)).fetchall() if models else c.execute(
        "SELECT doc_id, count(*) FROM chunks WHERE doc_id NOT IN (SELECT id FROM documents"
        " WHERE content_hash = %s) GROUP BY doc_id ORDER BY doc_id",
        (NEEDS_REINGEST,)).fetchall()
    if fix:
        _mark(c, [r[0] for r in rows])
    return vectors_finding(rows, models, fix)


def _hnsw(c: Any, fix: bool) -> Finding:
    """One valid HNSW index per model with vectors: dense search scans every vector of the
    model without it, and PostgreSQL skips an index left invalid by a failed build."""
    problems: list[str] = []
    fixed = 0
    for model, dim in c.execute("SELECT model_id, min(vector_dims(vector)) FROM embeddings"
                                " GROUP BY model_id ORDER BY model_id").fetchall():
        name = vector_index_name(model)
        row = c.execute("SELECT i.indisvalid AND i.indisready FROM pg_index i WHERE"
                        " i.indexrelid = to_regclass(%s)", (name,)).fetchone()
        if row is not None and row[0]:
            continue
        problems.append(f"{model}: {'missing' if row is None else 'invalid'}")
        if fix:
            if row is None:
                ensure_vector_index(c, model, int(dim))
            else:
                c.execute(f"REINDEX INDEX {name}")
            fixed += 1
    detail = "; ".join(problems) or "every model's HNSW index is present and valid"
    return Finding("HNSW index", len(problems), fixed, detail,
                   "build it again (--fix, or `civicsetu index rebuild`)")


def _incomplete(c: Any, fix: bool) -> Finding:
    rows = [r[0] for r in c.execute(
        "SELECT d.id FROM documents d WHERE d.content_hash = %s OR NOT EXISTS (SELECT 1 FROM"
        " provisions p WHERE p.doc_id = d.id) OR NOT EXISTS (SELECT 1 FROM chunks k WHERE"
        " k.doc_id = d.id AND k.valid_to IS NULL) ORDER BY d.id",
        (NEEDS_REINGEST,)).fetchall()]
    if fix:
        _mark(c, rows)
    return incomplete_finding(rows)


def _provenance(c: Any) -> Finding:
    return provenance_finding([r[0] for r in c.execute(
        "SELECT id FROM documents WHERE origin = '' ORDER BY id").fetchall()])


def _cache(c: Any) -> Finding:
    return cache_finding(int(c.execute(
        "SELECT count(*) FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE"
        " c.embed_hash = e.text_hash)").fetchone()[0]))


def _mark(c: Any, doc_ids: list[str]) -> None:
    if doc_ids:
        c.execute("UPDATE documents SET content_hash = %s WHERE id = ANY(%s)",
                  (NEEDS_REINGEST, doc_ids))
