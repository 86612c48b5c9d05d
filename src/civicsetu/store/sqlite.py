"""The embedded default store: one SQLite file (WAL) with FTS5 and float32 vector BLOBs.

Writes for one document happen in one transaction, so a failed ingest leaves nothing
half-written: the document row, its provisions, chunks, vectors, FTS rows, metadata and
the reference edges resolved across documents all commit together, or none of them do
(a kill -9 in the middle of the write leaves the previous state, see
``tests/store/test_crash.py``). Vectors live in a content-addressed table keyed by the
hash of the text that was embedded: unchanged text is never embedded twice, even across
re-ingests.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt

from civicsetu.errors import NotFoundError, StoreError
from civicsetu.store import sqlite_graph as graph
from civicsetu.store import sqlite_outline as outline
from civicsetu.store import sqlite_versions as versions
from civicsetu.store.base import (
    ChunkRow,
    DenseIndexStatus,
    DocumentInfo,
    Finding,
    GraphEdge,
    GraphNode,
    GraphStats,
    Provenance,
    ProvisionNeighbours,
    Topology,
    VectorIndex,
)
from civicsetu.store.dense import DenseIndex, DenseSettings
from civicsetu.store.lexical import LexicalIndex, parse_or_query
from civicsetu.store.migrations import apply_migrations, known_migrations
from civicsetu.store.rows import document_from_row, iso, provision_from_row
from civicsetu.types import (
    Amendment,
    DatedEvent,
    Document,
    ParsedDocument,
    Provision,
    provision_id,
    split_provision_id,
)

_PROVISION_COLUMNS = ('p.doc_id, p.path, p.kind, p.title, p.start, p."end", '
                      'substr(d.text, p.start + 1, p."end" - p.start), p.parent_path, '
                      'p.ordinal, p.footnotes, p.valid_from, p.valid_to, p.page, p.page_end')
_HISTORY_COLUMNS = ('p.doc_id, p.path, p.kind, p.title, p.start, p."end", '
                    'substr(d.text, p.start + 1, p."end" - p.start), p.parent_path, '
                    'p.ordinal, p.footnotes, p.valid_from, p.valid_to, p.page, p.page_end')
_CHUNK_COLUMNS = 'rowid, id, doc_id, provision_path, section, start, "end", text'


def folder_problem(folder: Path, exc: OSError) -> str:
    """One line on why the index folder ``folder`` cannot be created, and what to do."""
    if isinstance(exc, FileExistsError | NotADirectoryError):
        blocker = next((p for p in (folder, *folder.parents)
                        if p.exists() and not p.is_dir()), folder)
        why = f"{blocker} is a file, not a folder"
    else:
        why = exc.strerror or str(exc)
    return (f"cannot create the index folder {folder}: {why}; give --home (or "
            "CIVICSETU_HOME) a folder you can write to")


class SQLiteStore:
    def __init__(self, path: Path | str, dense: DenseSettings | None = None) -> None:
        self.path = Path(path)
        self._dense_settings = dense or DenseSettings()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA busy_timeout=5000")
            applied = {r[0] for r in self._conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='migrations'")}
            if applied:
                unknown = {r[0] for r in self._conn.execute("SELECT name FROM migrations")}
                unknown -= set(known_migrations())
                if unknown:
                    raise StoreError(f"{self.path} was written by a newer CivicSetu "
                                     f"(migrations {sorted(unknown)}); upgrade civicsetu")
            apply_migrations(self._conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the index {self.path}: {exc}; delete it and "
                             "ingest again, or point CIVICSETU_HOME elsewhere") from exc
        except OSError as exc:  # the folder cannot be made: a file is in its place, ...
            raise StoreError(folder_problem(self.path.parent, exc)) from exc
        self._dense: dict[str, DenseIndex] = {}
        # API workers share one store across threads: a refresh must not interleave
        # with a search reading the same arrays.
        self._dense_lock = threading.Lock()
        self._wrote = False
        self._data_version = self.data_version()
        self._lexical: LexicalIndex | None = None
        self._writes = 0  # commits by this connection; with data_version, when to refresh
        self._lexical_seen = (0, self._data_version)

    def close(self) -> None:
        for index in self._dense.values():
            if index.ann is not None and index.ann.changed:
                index.save_ann()
        if self._lexical is not None and self._lexical.changed:
            self._lexical.save()
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self._conn.in_transaction:  # inside read_snapshot: a savepoint upgrades it
            self._conn.execute("SAVEPOINT write")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK TO write")
                self._conn.execute("RELEASE write")
                raise
            self._conn.execute("RELEASE write")
            self._wrote = True
            self._writes += 1
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
        self._wrote = True
        self._writes += 1

    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Every read inside sees the index as of one moment: a document another process
        writes or deletes meanwhile is wholly there or wholly absent. Re-entrant."""
        if self._conn.in_transaction:
            yield
            return
        self._conn.execute("BEGIN")
        try:
            yield
        finally:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")

    def data_version(self) -> int:
        """A number that changes when another connection commits to the index."""
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    # --- writes -----------------------------------------------------------------------

    def document_hash(self, doc_id: str) -> str | None:
        row = self._conn.execute("SELECT content_hash FROM documents WHERE id = ?",
                                 (doc_id,)).fetchone()
        return row[0] if row else None

    def parser_version(self, doc_id: str) -> int | None:
        """The parser version ``doc_id`` was stored with (0: before it was recorded)."""
        row = self._conn.execute("SELECT parser_version FROM documents WHERE id = ?",
                                 (doc_id,)).fetchone()
        return int(row[0]) if row else None

    def cached_vectors(self, model_id: str,
                       text_hashes: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        found: dict[str, npt.NDArray[np.float32]] = {}
        unique = list(dict.fromkeys(text_hashes))
        for i in range(0, len(unique), 500):
            batch = unique[i:i + 500]
            marks = ",".join("?" * len(batch))
            for text_hash, blob in self._conn.execute(
                f"SELECT text_hash, vector FROM embeddings WHERE model_id = ? "
                f"AND text_hash IN ({marks})", (model_id, *batch)):
                found[text_hash] = np.frombuffer(blob, dtype=np.float32)
        return found

    def replace_document(self, parsed: ParsedDocument, model_id: str,
                         new_vectors: Mapping[str, npt.NDArray[np.float32]],
                         provenance: Provenance | None = None) -> None:
        """Write a document's new version in one transaction, its provenance and resolved
        references included; changed sections of the old version are superseded, not
        deleted (``sqlite_versions``)."""
        doc = parsed.document
        now = datetime.now(UTC).isoformat()
        with self._transaction() as c:
            valid_from = versions.supersede_changed(c, parsed,
                                                    doc.effective_date or date.today())
            versions.drop_current(c, doc.id)
            row = (doc.title, doc.short_title, doc.source, doc.jurisdiction,
                   doc.doc_type.value, json.dumps(list(doc.aliases)),
                   iso(doc.effective_date), doc.parent_id, doc.content_hash, doc.text, now,
                   parsed.parser_version)
            stored = c.execute("SELECT 1 FROM documents WHERE id = ?", (doc.id,)).fetchone()
            if stored:
                c.execute("UPDATE documents SET title=?, short_title=?, source=?, "
                          "jurisdiction=?, doc_type=?, aliases=?, effective_date=?, "
                          "parent_id=?, content_hash=?, text=?, ingested_at=?, "
                          "parser_version=? WHERE id = ?", (*row, doc.id))
            else:
                c.execute("INSERT INTO documents (title, short_title, source, jurisdiction,"
                          " doc_type, aliases, effective_date, parent_id, content_hash, text,"
                          " ingested_at, parser_version, id)"
                          " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", (*row, doc.id))
            c.executemany(
                'INSERT INTO provisions (id, doc_id, path, section, parent_path, kind, title,'
                ' start, "end", ordinal, footnotes, valid_from, valid_to, page, page_end)'
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(p.id, p.doc_id, p.path, p.section, p.parent_path, p.kind.value, p.title,
                  p.start, p.end, p.ordinal,
                  json.dumps([[f.marker, f.text] for f in p.footnotes]),
                  valid_from.get(p.section), None, p.page, p.page_end)
                 for p in parsed.provisions])
            titles = {p.path: p.title for p in parsed.provisions if p.parent_path is None}
            c.executemany(
                "INSERT OR IGNORE INTO embeddings (model_id, text_hash, vector) VALUES (?,?,?)",
                [(model_id, h, np.asarray(v, dtype=np.float32).tobytes())
                 for h, v in new_vectors.items()])
            for ch in parsed.chunks:
                section = ch.provision_path.partition("(")[0]
                cur = c.execute(
                    'INSERT INTO chunks (id, doc_id, provision_path, section, ordinal, start,'
                    ' "end", text, embed_hash, valid_from) VALUES (?,?,?,?,?,?,?,?,?,?)',
                    (ch.id, ch.doc_id, ch.provision_path, section, ch.ordinal, ch.start,
                     ch.end, ch.text, ch.text_hash, valid_from.get(section)))
                c.execute("INSERT INTO chunks_fts (rowid, title, body) VALUES (?,?,?)",
                          (cur.lastrowid, f"{doc.short_title} {titles.get(section, '')}",
                           ch.text))
            c.executemany("INSERT OR IGNORE INTO edges (src, dst, type, doc_id) "
                          "VALUES (?,?,?,?)",
                          [(e.src, e.dst, e.type.value, doc.id)
                           for e in graph.static_edges(parsed)])
            graph.write_metadata(c, parsed)
            if provenance is not None:
                self._write_provenance(c, doc.id, provenance)
            # In the same transaction: a crash after the commit can no longer leave the
            # document searchable without its reference edges or its provenance. A new
            # document changes few references (the library-size ingest case); a new
            # version of a stored one may change any, so everything is resolved again.
            if stored:
                graph.resolve_references(c)
            else:
                graph.resolve_new_document(c, doc.id)

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document and all that hangs off it, in one transaction: its rows
        (cascade), FTS rows, edges into it from other documents, vectors no other chunk
        uses; references from other documents are resolved again in the same transaction."""
        with self._transaction() as c:
            removed = self._delete_document(c, doc_id)
            if removed:
                graph.resolve_references(c)
            return removed

    @staticmethod
    def _delete_document(c: sqlite3.Connection, doc_id: str) -> bool:
        c.execute("DELETE FROM chunks_fts WHERE rowid IN "
                  "(SELECT rowid FROM chunks WHERE doc_id = ?)", (doc_id,))
        hashes = [r[0] for r in c.execute("SELECT DISTINCT embed_hash FROM chunks "
                                          "WHERE doc_id = ?", (doc_id,))]
        found = c.execute("DELETE FROM documents WHERE id = ?", (doc_id,)).rowcount > 0
        # Edges other documents own that end in this one (references, derived-from).
        into = (doc_id, len(doc_id) + 1, f"{doc_id}#")
        c.execute("DELETE FROM edges WHERE dst = ? OR substr(dst, 1, ?) = ?", into)
        c.execute("UPDATE refs SET dst = NULL WHERE dst = ? OR substr(dst, 1, ?) = ?", into)
        for i in range(0, len(hashes), 500):
            batch = hashes[i:i + 500]
            marks = ",".join("?" * len(batch))
            c.execute(f"DELETE FROM embeddings WHERE text_hash IN ({marks}) AND text_hash NOT "
                      f"IN (SELECT embed_hash FROM chunks WHERE embed_hash IN ({marks}))",
                      (*batch, *batch))
        return found

    def provenance(self, doc_ids: Sequence[str] | None = None) -> dict[str, Provenance]:
        sql = "SELECT id, origin, origin_path, origin_at, lookalike_of FROM documents"
        rows = self._conn.execute(sql).fetchall() if doc_ids is None else [
            r for i in doc_ids for r in self._conn.execute(sql + " WHERE id = ?", (i,))]
        return {r[0]: Provenance(r[1], r[2], r[3], r[4]) for r in rows}

    def set_provenance(self, doc_id: str, provenance: Provenance) -> None:
        with self._transaction() as c:
            self._write_provenance(c, doc_id, provenance)

    @staticmethod
    def _write_provenance(c: sqlite3.Connection, doc_id: str, provenance: Provenance) -> None:
        c.execute("UPDATE documents SET origin = ?, origin_path = ?, origin_at = ?, "
                  "lookalike_of = ? WHERE id = ?",
                  (provenance.origin, provenance.path, provenance.ingested_at,
                   provenance.lookalike_of, doc_id))

    def resolve_references(self) -> None:
        with self._transaction() as c:
            graph.resolve_references(c)

    def doctor(self, fix: bool = False) -> list[Finding]:
        """Run the checks of ``sqlite_doctor``; with ``fix`` repair in one transaction."""
        from civicsetu.store.sqlite_doctor import run_doctor

        try:
            return run_doctor(self._conn, fix)
        finally:
            self._dense.clear()  # a repair may touch rows without stamping their document
            self._lexical = None
            saved = LexicalIndex.file(self.path)
            if fix and saved is not None:
                saved.unlink(missing_ok=True)

    # --- research memory ----------------------------------------------------------------

    def qa_memory(self, corpus: str) -> list[tuple[npt.NDArray[np.float32], str]]:
        rows = self._conn.execute("SELECT vector, payload FROM qa_memory WHERE corpus = ?",
                                  (corpus,)).fetchall()
        return [(np.frombuffer(r[0], dtype=np.float32), str(r[1])) for r in rows]

    def remember_qa(self, corpus: str, question: str, vector: npt.NDArray[np.float32],
                    payload: str) -> None:
        """Store an answer for ``corpus``; answers for any other corpus are dropped."""
        with self._transaction() as c:
            c.execute("DELETE FROM qa_memory WHERE corpus != ?", (corpus,))
            c.execute("INSERT OR REPLACE INTO qa_memory VALUES (?,?,?,?,?)",
                      (corpus, question, np.asarray(vector, dtype=np.float32).tobytes(),
                       payload, datetime.now(UTC).isoformat()))

    def set_document_metadata(self, doc_id: str, values: Mapping[str, str]) -> None:
        """Replace the metadata of ``doc_id`` (contract parties, dates, law, signatories)."""
        with self._transaction() as c:
            c.execute("DELETE FROM document_metadata WHERE doc_id = ?", (doc_id,))
            c.executemany("INSERT INTO document_metadata VALUES (?,?,?)",
                          [(doc_id, k, v) for k, v in values.items()])

    def document_metadata(self, doc_id: str) -> dict[str, str]:
        """The metadata stored for ``doc_id`` ({} when none was extracted)."""
        rows = self._conn.execute("SELECT key, value FROM document_metadata WHERE doc_id = ?"
                                  " ORDER BY key", (doc_id,)).fetchall()
        return {k: v for k, v in rows}

    # --- graph and metadata -------------------------------------------------------------

    def edges(self, node: str, direction: str = "out",
              types: Sequence[str] | None = None) -> list[GraphEdge]:
        return graph.edges_of(self._conn, node, direction, types)

    def unresolved_references(self, node: str) -> list[GraphEdge]:
        return graph.unresolved_references(self._conn, node)

    def neighbourhood(self, start: Sequence[str], hops: int,
                      types: Sequence[str]) -> dict[str, int]:
        return graph.neighbourhood(self._conn, start, hops, types)

    def definitions_for(self, terms: Sequence[str],
                        doc_ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
        return graph.definitions_for(self._conn, terms, doc_ids)

    def amendments_of(self, provision_ids: Sequence[str]) -> list[Amendment]:
        return graph.amendments_of(self._conn, provision_ids)

    def dates_of(self, doc_id: str) -> list[DatedEvent]:
        return graph.dates_of(self._conn, doc_id)

    def graph_stats(self) -> GraphStats:
        return graph.graph_stats(self._conn)

    def provision_neighbours(self, full_id: str) -> ProvisionNeighbours:
        return outline.neighbours(self._conn, full_id)

    def graph_nodes(self, ids: Sequence[str]) -> list[GraphNode]:
        return outline.graph_nodes(self._conn, ids)

    def topology(self, doc_ids: Sequence[str] | None, types: Sequence[str] | None,
                 max_nodes: int) -> Topology:
        return outline.topology(self._conn, doc_ids, types, max_nodes)

    # --- reads ------------------------------------------------------------------------

    def documents(self) -> list[DocumentInfo]:
        rows = self._conn.execute(
            "SELECT d.id, d.title, d.short_title, d.source, d.jurisdiction, d.doc_type,"
            " d.aliases, d.content_hash,"
            " (SELECT count(*) FROM provisions p WHERE p.doc_id = d.id),"
            " (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id AND c.valid_to IS NULL)"
            " FROM documents d ORDER BY d.id").fetchall()
        return [DocumentInfo(r[0], r[1], r[2], r[3], r[4], r[5], tuple(json.loads(r[6])),
                             r[7], r[8], r[9]) for r in rows]

    def document(self, doc_id: str) -> Document:
        r = self._conn.execute(
            "SELECT id, title, text, source, jurisdiction, doc_type, short_title, aliases,"
            " effective_date, parent_id FROM documents WHERE id = ?", (doc_id,)).fetchone()
        if r is None:
            raise NotFoundError(f"no document {doc_id!r} in the index; "
                                "`civicsetu documents` lists what is there")
        return document_from_row(r)

    def provision(self, full_id: str, as_of: date | None = None) -> Provision:
        """The provision as in force now, or on ``as_of`` (from history if superseded)."""
        doc_id, path = split_provision_id(full_id)
        row = self._conn.execute(
            f"SELECT {_PROVISION_COLUMNS} FROM provisions p JOIN documents d ON d.id = p.doc_id"
            " WHERE p.id = ?", (full_id,)).fetchone()
        if as_of is not None and (row is None or (row[10] and row[10] > as_of.isoformat())):
            where, params = versions.valid_clause("p", as_of)
            row = self._conn.execute(
                f"SELECT {_HISTORY_COLUMNS} FROM provision_history p JOIN document_versions d"
                f" ON d.doc_id = p.doc_id AND d.content_hash = p.version_hash"
                f" WHERE p.id = ? AND {where}", [full_id, *params]).fetchone()
            if row is None:
                raise NotFoundError(f"{doc_id} has no provision {path} in force on "
                                    f"{as_of.isoformat()}; `civicsetu show {full_id} "
                                    "--history` lists its versions")
        if row is None:
            if self.document_hash(doc_id) is None:
                raise NotFoundError(f"no document {doc_id!r} in the index; "
                                    "`civicsetu documents` lists what is there")
            section = path.partition("(")[0]
            hint = (f"try the whole section: `civicsetu show {doc_id}#{section}`"
                    if section != path and self._has(f"{doc_id}#{section}")
                    else f"find the number with `civicsetu search QUERY --doc {doc_id}`")
            raise NotFoundError(f"{doc_id} has no provision {path}; {hint}")
        return provision_from_row(row)

    def _has(self, full_id: str) -> bool:
        return self._conn.execute("SELECT 1 FROM provisions WHERE id = ?",
                                  (full_id,)).fetchone() is not None

    def provisions_of_section(self, doc_id: str, section: str,
                              as_of: date | None = None) -> list[Provision]:
        rows = self._conn.execute(
            f"SELECT {_PROVISION_COLUMNS} FROM provisions p JOIN documents d ON d.id = p.doc_id"
            " WHERE p.doc_id = ? AND p.section = ? ORDER BY p.ordinal",
            (doc_id, section)).fetchall()
        if as_of is not None and (not rows or (rows[0][10] and rows[0][10] > as_of.isoformat())):
            where, params = versions.valid_clause("p", as_of)
            rows = self._conn.execute(
                f"SELECT {_HISTORY_COLUMNS} FROM provision_history p JOIN document_versions d"
                f" ON d.doc_id = p.doc_id AND d.content_hash = p.version_hash"
                f" WHERE p.doc_id = ? AND p.section = ? AND {where} ORDER BY p.ordinal",
                [doc_id, section, *params]).fetchall()
        return [provision_from_row(r) for r in rows]

    def history(self, full_id: str) -> list[Provision]:
        """Every stored version of a provision, oldest first (the current one last)."""
        past = self._conn.execute(
            f"SELECT {_HISTORY_COLUMNS} FROM provision_history p JOIN document_versions d"
            f" ON d.doc_id = p.doc_id AND d.content_hash = p.version_hash WHERE p.id = ?"
            f" ORDER BY p.valid_to", (full_id,)).fetchall()
        now = self._conn.execute(
            f"SELECT {_PROVISION_COLUMNS} FROM provisions p JOIN documents d ON d.id = p.doc_id"
            " WHERE p.id = ?", (full_id,)).fetchall()
        return [provision_from_row(r) for r in [*past, *now]]

    def chunks(self, rowids: Sequence[int]) -> list[ChunkRow]:
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        rows = self._conn.execute(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE rowid IN "
                                  f"({marks})", tuple(rowids)).fetchall()
        by_id = {r[0]: ChunkRow(*r) for r in rows}
        return [by_id[i] for i in rowids if i in by_id]

    def chunks_of_section(self, doc_id: str, section: str,
                          as_of: date | None = None) -> list[ChunkRow]:
        where, params = versions.valid_clause("chunks", as_of)
        rows = self._conn.execute(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE doc_id = ? "
                                  f"AND section = ? AND {where} ORDER BY ordinal",
                                  [doc_id, section, *params])
        return [ChunkRow(*r) for r in rows]

    def chunk_covering(self, doc_id: str, path: str) -> int | None:
        """The first chunk of ``doc_id`` overlapping provision ``path`` (its rowid)."""
        # The provision by its key first, then its section's chunks (CROSS JOIN fixes that
        # order: SQLite otherwise walked every current chunk of the document, ~10 ms at
        # 10^5 chunks, once per graph neighbour).
        row = self._conn.execute(
            "SELECT c.rowid FROM provisions p CROSS JOIN chunks c INDEXED BY chunks_by_section"
            ' ON c.doc_id = p.doc_id AND c.section = p.section WHERE p.id = ?'
            ' AND c.start < p."end" AND c."end" > p.start AND c.valid_to IS NULL'
            " ORDER BY c.ordinal LIMIT 1", (provision_id(doc_id, path),)).fetchone()
        return int(row[0]) if row else None

    def keyword_search(self, fts_query: str, limit: int,
                       doc_ids: Sequence[str] | None = None,
                       as_of: date | None = None) -> list[tuple[int, float]]:
        """BM25 over chunk text (title weighted 2x); lower bm25() is better, so negate.
        Only chunks in force now (or on ``as_of``) are searched. The plain OR-of-phrases
        queries search builds are scored from the in-memory postings (``store.lexical``,
        FTS5's ranking without its per-row cost); any other FTS5 syntax goes to FTS5."""
        if self._dense_settings.lexical == "memory":
            phrases = parse_or_query(fts_query)
            if phrases is not None:
                with self._dense_lock:
                    return self._lexical_index().search(phrases, limit, doc_ids, as_of)
        if not doc_ids and as_of is None:
            found = self._keyword_current(fts_query, limit)
            if found is not None:
                return found
        where, valid_params = versions.valid_clause("c", as_of)
        sql = ("SELECT f.rowid, -bm25(chunks_fts, 2.0, 1.0) AS score FROM chunks_fts f"
               " JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ? AND " + where)
        params: list[object] = [fts_query, *valid_params]
        if doc_ids:
            sql += f" AND c.doc_id IN ({','.join('?' * len(doc_ids))})"
            params.extend(doc_ids)
        sql += " ORDER BY bm25(chunks_fts, 2.0, 1.0) LIMIT ?"
        params.append(limit)
        try:
            return [(r[0], float(r[1])) for r in self._conn.execute(sql, params)]
        except sqlite3.OperationalError as exc:
            raise StoreError(f"full-text query failed ({exc}); query was {fts_query!r}") from exc

    def _keyword_current(self, fts_query: str, limit: int) -> list[tuple[int, float]] | None:
        """The unfiltered case without joining ``chunks`` for every match (the join cost
        more than the ranking at 10^5 chunks): rank in FTS5 alone, over-fetch, then drop
        superseded rows; None when too many were superseded to fill ``limit``."""
        fetch = limit * 2
        try:
            ranked = [(int(r[0]), float(r[1])) for r in self._conn.execute(
                "SELECT rowid, -bm25(chunks_fts, 2.0, 1.0) FROM chunks_fts WHERE chunks_fts"
                " MATCH ? ORDER BY bm25(chunks_fts, 2.0, 1.0) LIMIT ?", (fts_query, fetch))]
        except sqlite3.OperationalError as exc:
            raise StoreError(f"full-text query failed ({exc}); query was {fts_query!r}") from exc
        if not ranked:
            return []
        marks = ",".join("?" * len(ranked))
        current = {r[0] for r in self._conn.execute(
            f"SELECT rowid FROM chunks WHERE rowid IN ({marks}) AND valid_to IS NULL",
            [r for r, _ in ranked])}
        kept = [hit for hit in ranked if hit[0] in current]
        if len(kept) < limit and len(ranked) == fetch:
            return None
        return kept[:limit]

    def _lexical_index(self) -> LexicalIndex:
        """The in-memory BM25 postings, refreshed when this or another connection wrote."""
        seen = (self._writes, self.data_version())
        if self._lexical is None:
            self._lexical = LexicalIndex(self._conn, self.path)
        elif seen != self._lexical_seen:
            self._lexical.refresh()
        self._lexical_seen = seen
        return self._lexical

    def term_document_frequency(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks contain each (already stemmed-by-FTS) term."""
        out: dict[str, int] = {}
        for term in terms:
            quoted = '"' + term.replace('"', '""') + '"'
            row = self._conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                                     (quoted,)).fetchone()
            out[term] = int(row[0])
        return out

    def chunk_count(self) -> int:
        return int(self._conn.execute("SELECT count(*) FROM chunks WHERE valid_to IS NULL")
                   .fetchone()[0])

    def _dense_index(self, model_id: str) -> DenseIndex:
        """The in-memory vectors of ``model_id``, refreshed when this or another
        connection wrote since the last look."""
        version = self.data_version()
        index = self._dense.get(model_id)
        if index is None:
            index = self._dense[model_id] = DenseIndex(self._conn, model_id, self.path,
                                                       self._dense_settings)
        elif self._wrote or version != self._data_version:
            index.refresh()
        self._wrote = False
        self._data_version = version
        return index

    def vector_index(self, model_id: str) -> VectorIndex:
        with self._dense_lock:
            return self._dense_index(model_id).vector_index()

    def dense_search(self, model_id: str, vector: npt.NDArray[np.float32], k: int,
                     doc_ids: Sequence[str] | None = None, as_of: date | None = None,
                     exact: bool = False) -> list[tuple[int, float]]:
        """The ``k`` chunks nearest ``vector`` (cosine), in force now or ``as_of``, within
        ``doc_ids``; HNSW past ``ann_min_chunks`` unless ``exact``."""
        with self._dense_lock:
            return self._dense_index(model_id).search(
                vector, k, None if doc_ids is None else list(doc_ids), as_of, exact)

    def rebuild_dense_index(self, model_id: str) -> DenseIndexStatus:
        """Build the HNSW index of ``model_id`` from the stored vectors and save it."""
        with self._dense_lock:
            return self._rebuild_dense_index(model_id)

    def _rebuild_dense_index(self, model_id: str) -> DenseIndexStatus:
        index = self._dense_index(model_id)
        if len(index.rowids) == 0:
            raise NotFoundError("the index has no vectors yet; run `civicsetu ingest` first")
        t = time.perf_counter()
        index.ann = index.build_ann()
        index._ann_checked = True
        path = index.save_ann()
        return DenseIndexStatus("hnsw (faiss)", len(index.rowids), str(path),
                                round(time.perf_counter() - t, 2))


