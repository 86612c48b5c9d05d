"""``civicsetu doctor`` for the SQLite store: find what a crash, a bug or an older version
left inconsistent, and repair what can be repaired without the source files.

Checks, in order: SQLite ``integrity_check``; rows whose document is gone (provisions,
chunks, edges, metadata, history); chunks without a vector;
the full-text index out of step with the chunks; reference edges that differ from what
resolving the stored references gives; documents missing their provisions or chunks; and
documents without provenance.
A repair that needs the source file (a missing vector, an incomplete document) marks the
document for re-ingest by clearing its content hash, so the next ``ingest`` of that file
parses and writes it again instead of saying "unchanged".
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from civicsetu.store import sqlite_graph as graph
from civicsetu.store.base import Finding

NEEDS_REINGEST = "needs-reingest"
# Tables holding rows of one document (column ``doc_id``), checked for orphans.
_CHILD_TABLES = ("provisions", "chunks", "edges", "refs", "definitions", "amendments",
                 "dates", "document_versions", "provision_history")


def run_doctor(c: sqlite3.Connection, fix: bool) -> list[Finding]:
    """Every check with its problem count; with ``fix`` the repairs run in one
    transaction and each finding says how many it fixed."""
    findings = [_integrity(c)]
    if findings[0].problems:
        return findings  # a damaged file: repairs on top of it would make it worse
    c.execute("BEGIN IMMEDIATE")
    try:
        findings += [_orphans(c, fix), _fts(c, fix), _edges(c, fix), _vectors(c, fix),
                     _incomplete(c, fix), _provenance(c)]
        findings.append(_cache(c))
    except BaseException:
        c.execute("ROLLBACK")
        raise
    c.execute("COMMIT" if fix else "ROLLBACK")
    return findings


def _integrity(c: sqlite3.Connection) -> Finding:
    """SQLite's own check of the file; rows breaking a foreign key (all of them point at
    ``documents``) are the orphans counted, and repaired, by ``_orphans``."""
    rows = [r[0] for r in c.execute("PRAGMA integrity_check")]
    bad = [] if rows == ["ok"] else rows
    return Finding("integrity", len(bad), 0, "; ".join(bad[:5]) or "integrity_check ok",
                   "restore a backup, or delete the index and ingest again")


def _orphans(c: sqlite3.Connection, fix: bool) -> Finding:
    """Rows of a document that is gone. They are dropped even without ``fix`` (the caller
    then rolls back), so the checks after this one see a consistent graph."""
    counts: dict[str, int] = {}
    for table in _CHILD_TABLES:
        where = "doc_id NOT IN (SELECT id FROM documents)"
        n = int(c.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0])
        if n:
            counts[table] = n
            if table == "chunks":
                c.execute(f"DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM "
                          f"chunks WHERE {where})")
            c.execute(f"DELETE FROM {table} WHERE {where}")
    total = sum(counts.values())
    detail = ", ".join(f"{n} {t}" for t, n in counts.items()) or "none"
    return Finding("orphan rows", total, total if fix else 0, detail, "drop them (--fix)")


def _fts(c: sqlite3.Connection, fix: bool) -> Finding:
    missing = [r[0] for r in c.execute(
        "SELECT rowid FROM chunks WHERE rowid NOT IN (SELECT rowid FROM chunks_fts)")]
    extra = [r[0] for r in c.execute(
        "SELECT rowid FROM chunks_fts WHERE rowid NOT IN (SELECT rowid FROM chunks)")]
    differ = [r[0] for r in c.execute(
        "SELECT c.rowid FROM chunks c JOIN chunks_fts f ON f.rowid = c.rowid "
        "WHERE f.body != c.text")]
    total = len(missing) + len(extra) + len(differ)
    if fix and total:
        stale = extra + differ
        for i in range(0, len(stale), 500):
            part = stale[i:i + 500]
            c.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({','.join('?' * len(part))})",
                      part)
        for rowid in missing + differ:
            c.execute(
                "INSERT INTO chunks_fts (rowid, title, body) SELECT c.rowid, d.short_title "
                "|| ' ' || coalesce((SELECT p.title FROM provisions p WHERE p.doc_id = "
                "c.doc_id AND p.path = c.section), (SELECT h.title FROM provision_history h "
                "WHERE h.doc_id = c.doc_id AND h.path = c.section LIMIT 1), ''), c.text "
                "FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.rowid = ?",
                (rowid,))
    detail = (f"{len(missing)} chunks not indexed, {len(extra)} index rows without a chunk, "
              f"{len(differ)} with other text") if total else "in step with the chunks"
    return Finding("full-text index", total, total if fix else 0, detail,
                   "re-index those chunks (--fix)")


def _edge_set(c: sqlite3.Connection) -> set[tuple[str, str, str, str]]:
    return {(r[0], r[1], r[2], r[3]) for r in c.execute(
        "SELECT src, dst, type, doc_id FROM edges WHERE type IN ('REFERENCES', "
        "'DERIVED_FROM')")}


def _edges(c: sqlite3.Connection, fix: bool) -> Finding:
    """Resolve the stored references again in a savepoint and compare the edges."""
    before = _edge_set(c)
    c.execute("SAVEPOINT doctor_edges")
    graph.resolve_references(c)
    after = _edge_set(c)
    lost, stale = after - before, before - after
    # Resolution only adds DERIVED_FROM edges, so "stale" counts REFERENCES edges only.
    stale = {e for e in stale if e[2] == "REFERENCES"}
    c.execute("RELEASE doctor_edges" if fix else "ROLLBACK TO doctor_edges")
    if not fix:
        c.execute("RELEASE doctor_edges")
    return reference_edges_finding(lost, stale, fix)


def vectors_finding(rows: Sequence[Sequence[Any]], models: Sequence[str],
                    fix: bool) -> Finding:
    """The finding for chunks without a vector, as (doc_id, count) rows per document.
    Shared by both stores' doctors."""
    total = sum(int(r[1]) for r in rows)
    detail = (", ".join(f"{r[0]}: {r[1]}" for r in rows[:5]) if total
              else f"every chunk has a vector ({', '.join(models) or 'no chunks'})")
    return Finding("vectors", total, total if fix else 0, detail,
                   "marked for re-ingest (--fix); then run `civicsetu ingest` on the files")


def reference_edges_finding(lost: set[tuple[str, str, str, str]],
                            stale: set[tuple[str, str, str, str]], fix: bool) -> Finding:
    """The finding for reference edges a fresh resolution adds (``lost``) or drops
    (``stale``); each edge is (src, dst, type, doc_id). Shared by both stores' doctors."""
    docs = sorted({e[3] for e in lost | stale})
    total = len(lost) + len(stale)
    detail = (f"{len(lost)} reference edges missing, {len(stale)} stale, in "
              f"{', '.join(docs[:5])}{' ...' if len(docs) > 5 else ''}"
              if total else "every resolved reference has its edge")
    return Finding("reference edges", total, total if fix else 0, detail,
                   "resolve the references again (--fix)")


def incomplete_finding(doc_ids: Sequence[str]) -> Finding:
    """The finding for documents without provisions or current chunks, or marked for
    re-ingest. Marking does not complete a document: it stays a problem until it is
    re-ingested. Shared by both stores' doctors."""
    detail = (", ".join(doc_ids[:10]) if doc_ids
              else "every document has provisions and chunks")
    return Finding("incomplete documents", len(doc_ids), 0, detail,
                   "re-ingest them (`civicsetu ingest FILE`); --fix marks them so ingest "
                   "does not skip them as unchanged")


def provenance_finding(doc_ids: Sequence[str]) -> Finding:
    """The finding for documents that record no origin. Shared by both stores' doctors."""
    detail = (", ".join(doc_ids[:10]) if doc_ids
              else "every document records where it came from")
    return Finding("provenance", len(doc_ids), 0, detail,
                   "ingest those files again (`civicsetu ingest FILE` or `--bundled`); "
                   "unchanged files only get their provenance recorded")


def cache_finding(unused: int) -> Finding:
    """The note on cached vectors no chunk uses (a cache, never a fault)."""
    return Finding("unused cached vectors", 0, 0,
                   f"{unused} vectors kept for text no chunk holds now (a cache, not a fault)",
                   "")


def _vectors(c: sqlite3.Connection, fix: bool) -> Finding:
    """Chunks without a vector, in documents not already waiting for re-ingest."""
    models = [r[0] for r in c.execute("SELECT DISTINCT model_id FROM embeddings")]
    waiting = "c.doc_id NOT IN (SELECT id FROM documents WHERE content_hash = ?)"
    if not models:
        rows = c.execute(f"SELECT c.doc_id, count(*) FROM chunks c WHERE {waiting} "
                         "GROUP BY c.doc_id", (NEEDS_REINGEST,)).fetchall()
    else:  # every model that has vectors must have one for every chunk
        rows = c.execute(
            "SELECT c.doc_id, count(*) FROM chunks c JOIN (SELECT value AS model_id FROM "
            "json_each(?)) m WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE "
            f"e.model_id = m.model_id AND e.text_hash = c.embed_hash) AND {waiting} "
            "GROUP BY c.doc_id", (json.dumps(models), NEEDS_REINGEST)).fetchall()
    if fix:
        _mark(c, [r[0] for r in rows])
    return vectors_finding(rows, models, fix)


def _incomplete(c: sqlite3.Connection, fix: bool) -> Finding:
    rows = [r[0] for r in c.execute(
        "SELECT d.id FROM documents d WHERE d.content_hash = ? OR NOT EXISTS (SELECT 1 FROM "
        "provisions p WHERE p.doc_id = d.id) OR NOT EXISTS (SELECT 1 FROM chunks k WHERE "
        "k.doc_id = d.id AND k.valid_to IS NULL)", (NEEDS_REINGEST,))]
    if fix:
        _mark(c, rows)
    return incomplete_finding(rows)


def _provenance(c: sqlite3.Connection) -> Finding:
    """Documents that do not say where they came from (an index written before
    provenance was recorded); ingesting their files again records it."""
    return provenance_finding(
        [r[0] for r in c.execute("SELECT id FROM documents WHERE origin = '' ORDER BY id")])


def _cache(c: sqlite3.Connection) -> Finding:
    return cache_finding(int(c.execute("SELECT count(*) FROM embeddings WHERE text_hash NOT IN "
                                       "(SELECT embed_hash FROM chunks)").fetchone()[0]))


def _mark(c: sqlite3.Connection, doc_ids: list[str]) -> None:
    c.executemany("UPDATE documents SET content_hash = ? WHERE id = ?",
                  [(NEEDS_REINGEST, d) for d in doc_ids])
