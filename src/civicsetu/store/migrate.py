"""Copy an SQLite index into a PostgreSQL store without re-embedding anything.

Every table row of a document (the document, provisions, chunks with their rowids,
the vectors its chunks use, edges, references, definitions, amendments, dates, old
versions and provision history) is copied in one transaction per document. Each
document gets a checksum over its canonical rows, computed the same way on both sides:
a document whose target checksum already equals the source's is skipped (so a killed
migration resumes where it stopped), and every copied document is verified by reading
it back. The QA memory is copied whole at the end.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from civicsetu.errors import StoreError
from civicsetu.store.postgres import PostgresStore
from civicsetu.store.postgres_schema import ensure_vector_index
from civicsetu.store.postgres_search import vector_literal
from civicsetu.store.sqlite import SQLiteStore

# table -> columns copied, keyed by the document they belong to.
TABLES: dict[str, tuple[str, ...]] = {
    "documents": ("id", "title", "short_title", "source", "jurisdiction", "doc_type",
                  "aliases", "effective_date", "parent_id", "content_hash", "text",
                  "ingested_at", "origin", "origin_path", "origin_at", "lookalike_of",
                  "parser_version"),
    "provisions": ("id", "doc_id", "path", "section", "parent_path", "kind", "title", "start",
                   '"end"', "ordinal", "footnotes", "valid_from", "valid_to", "page",
                   "page_end"),
    "chunks": ("rowid", "id", "doc_id", "provision_path", "section", "ordinal", "start",
               '"end"', "text", "embed_hash", "valid_from", "valid_to"),
    "edges": ("src", "dst", "type", "doc_id"),
    "refs": ("doc_id", "src", "start", '"end"', "text", "target_doc", "target_path",
             "target_name", "derived", "dst"),
    "definitions": ("doc_id", "term", "provision_id"),
    "amendments": ("doc_id", "provision_id", "action", "by_text", "effective", "note"),
    "dates": ("doc_id", "kind", "on_date", "provision_path", "text"),
    "document_metadata": ("doc_id", "key", "value"),
    "document_versions": ("doc_id", "content_hash", "text", "superseded_on"),
    "provision_history": ("doc_id", "id", "path", "section", "parent_path", "kind", "title",
                          "start", '"end"', "ordinal", "footnotes", "valid_from", "valid_to",
                          "page", "page_end", "version_hash"),
}
_KEY = {"documents": "id"}  # every other table is keyed by doc_id


@dataclass(slots=True)
class DocumentCopy:
    doc_id: str
    status: str  # "copied" or "skipped" (already there with an equal checksum)
    checksum: str
    counts: dict[str, int]


@dataclass(slots=True)
class MigrationReport:
    documents: list[DocumentCopy] = field(default_factory=list)
    source_counts: dict[str, int] = field(default_factory=dict)
    target_counts: dict[str, int] = field(default_factory=dict)
    source_checksum: str = ""
    target_checksum: str = ""
    extra_in_target: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return (self.source_counts == self.target_counts
                and self.source_checksum == self.target_checksum)


class _Side:
    """Reads one document's canonical rows from either database."""

    def __init__(self, execute: Callable[[str, Sequence[object]], list[tuple[Any, ...]]],
                 mark: str, vector_sql: str) -> None:
        self.execute = execute
        self.mark = mark
        self.vector_sql = vector_sql

    def rows(self, table: str, doc_id: str) -> list[tuple[Any, ...]]:
        cols = ", ".join(TABLES[table])
        key = _KEY.get(table, "doc_id")
        return self.execute(f"SELECT {cols} FROM {table} WHERE {key} = {self.mark}", [doc_id])

    def vectors(self, hashes: Sequence[str]) -> list[tuple[str, str, bytes]]:
        out: list[tuple[str, str, bytes]] = []
        unique = sorted(set(hashes))
        for i in range(0, len(unique), 500):
            batch = unique[i:i + 500]
            marks = ",".join([self.mark] * len(batch))
            for model, h, v in self.execute(self.vector_sql.format(marks=marks), batch):
                out.append((str(model), str(h), _vector_bytes(v)))
        return out

    def document(self, doc_id: str) -> dict[str, list[tuple[Any, ...]]]:
        data = {table: self.rows(table, doc_id) for table in TABLES}
        data["embeddings"] = self.vectors([str(r[9]) for r in data["chunks"]])
        return data


def _vector_bytes(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return np.asarray(value, dtype=np.float32).tobytes()


def checksum(data: dict[str, list[tuple[Any, ...]]]) -> str:
    """SHA-256 over the sorted canonical rows of every table of one document."""
    digest = hashlib.sha256()
    for table in sorted(data):
        rows = sorted(json.dumps([x.hex() if isinstance(x, bytes) else x for x in row])
                      for row in data[table])
        digest.update(table.encode())
        for row in rows:
            digest.update(row.encode())
            digest.update(b"\n")
    return digest.hexdigest()


@contextmanager
def _sqlite_source(path: Path) -> Iterator[sqlite3.Connection]:
    if not path.is_file():
        raise StoreError(f"no SQLite index at {path}; give --from sqlite:PATH of an "
                         "existing civicsetu.db")
    SQLiteStore(path).close()  # brings an older index up to the current schema
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def migrate(source: Path, target: PostgresStore,
            on_document: Callable[[DocumentCopy], None] | None = None) -> MigrationReport:
    """Copy every document of the SQLite index ``source`` into ``target``; verify."""
    report = MigrationReport()
    with _sqlite_source(source) as src, target.connection() as dst:
        src_side = _Side(lambda sql, p: src.execute(sql.replace("%s", "?"), p).fetchall(),
                         "?", "SELECT model_id, text_hash, vector FROM embeddings "
                              "WHERE text_hash IN ({marks}) ORDER BY model_id, text_hash")
        dst_side = _Side(lambda sql, p: dst.execute(sql, p).fetchall(), "%s",
                         "SELECT model_id, text_hash, vector::real[] FROM embeddings "
                         "WHERE text_hash IN ({marks}) ORDER BY model_id, text_hash")
        doc_ids = [r[0] for r in src.execute("SELECT id FROM documents ORDER BY id")]
        titles = dict(src.execute("SELECT rowid, title FROM chunks_fts").fetchall())
        src_sums, dst_sums = [], []
        for doc_id in doc_ids:
            data = src_side.document(doc_id)
            want = checksum(data)
            counts = {t: len(rows) for t, rows in data.items()}
            if checksum(dst_side.document(doc_id)) == want:
                copy = DocumentCopy(doc_id, "skipped", want, counts)
            else:
                _copy_document(dst, doc_id, data, titles)
                got = checksum(dst_side.document(doc_id))
                if got != want:
                    raise StoreError(f"{doc_id}: the copy does not match the source "
                                     f"(checksum {got[:12]} != {want[:12]}); nothing else "
                                     "was changed, run the migration again")
                copy = DocumentCopy(doc_id, "copied", want, counts)
            report.documents.append(copy)
            src_sums.append(want)
            dst_sums.append(copy.checksum)
            if on_document:
                on_document(copy)
        _copy_qa_memory(src, dst)
        dst.execute("SELECT setval(pg_get_serial_sequence('chunks', 'rowid'), "
                    "greatest((SELECT max(rowid) FROM chunks), 1))")
        report.source_counts = _counts(lambda sql: src.execute(sql).fetchone()[0])
        report.target_counts = _counts(lambda sql: dst.execute(sql).fetchone()[0])
        report.source_checksum = _combine(src_sums)
        report.target_checksum = _combine(
            [checksum(dst_side.document(d)) for d in doc_ids])
        there = [r[0] for r in dst.execute("SELECT id FROM documents ORDER BY id").fetchall()]
        report.extra_in_target = sorted(set(there) - set(doc_ids))
        # After a bulk load: planner statistics, and the visibility map BM25's index-only
        # scans of ``chunk_terms`` need (autovacuum would get there, later).
        if any(d.status == "copied" for d in report.documents):
            dst.execute("VACUUM ANALYZE")
    return report


def _combine(sums: list[str]) -> str:
    return hashlib.sha256("".join(sums).encode()).hexdigest()


def _counts(one: Callable[[str], Any]) -> dict[str, int]:
    counts = {t: int(one(f"SELECT count(*) FROM {t}")) for t in TABLES}
    # Only vectors some chunk uses: the embedding cache may hold vectors of old texts.
    # IN (subquery), not a correlated EXISTS: SQLite has no index on chunks.embed_hash and
    # ran EXISTS as a scan of every chunk per vector (over 20 minutes at 10^5 chunks).
    counts["embeddings"] = int(one("SELECT count(*) FROM embeddings WHERE text_hash IN "
                                   "(SELECT embed_hash FROM chunks)"))
    counts["qa_memory"] = int(one("SELECT count(*) FROM qa_memory"))
    return counts


def _copy_document(dst: Any, doc_id: str, data: dict[str, list[tuple[Any, ...]]],
                   titles: dict[int, str]) -> None:
    with dst.transaction():
        dst.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"doc:{doc_id}",))
        dst.execute("DELETE FROM documents WHERE id = %s", (doc_id,))
        by_model: dict[str, int] = {}
        with dst.cursor() as cur:
            cur.executemany(
                "INSERT INTO embeddings (model_id, text_hash, vector) VALUES "
                "(%s, %s, %s::vector) ON CONFLICT DO NOTHING",
                [(m, h, vector_literal(np.frombuffer(v, dtype=np.float32)))
                 for m, h, v in data["embeddings"]])
            for m, _, v in data["embeddings"]:
                by_model[m] = len(v) // 4
            for table, cols in TABLES.items():
                rows = data[table]
                if table == "chunks":
                    cols = (*cols, "fts_title")
                    rows = [(*r, titles.get(int(r[0]), "")) for r in rows]
                if not rows:
                    continue
                marks = ",".join(["%s"] * len(cols))
                cur.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})",
                                rows)
        for model, dim in by_model.items():
            ensure_vector_index(dst, model, dim)


def _copy_qa_memory(src: sqlite3.Connection, dst: Any) -> None:
    rows = src.execute("SELECT corpus, question, vector, payload, created_at FROM qa_memory"
                       ).fetchall()
    with dst.transaction(), dst.cursor() as cur:
        cur.executemany("INSERT INTO qa_memory VALUES (%s,%s,%s,%s,%s) ON CONFLICT (corpus,"
                        " question) DO UPDATE SET vector=excluded.vector,"
                        " payload=excluded.payload, created_at=excluded.created_at", rows)
