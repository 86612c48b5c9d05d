"""The server store: PostgreSQL + pgvector behind the same ``Store`` protocol as SQLite.

Selected with ``CIVICSETU_STORE=postgresql://...``. Several API workers (on one machine
or many) share one database: each holds a small connection pool, writes for one
document happen in one transaction under a per-document advisory lock, and reads never
block. Needs the ``postgres`` extra (psycopg 3 and psycopg_pool) and a server with the
``vector`` extension (docs/POSTGRES.md).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from civicsetu.errors import NotFoundError, StoreError
from civicsetu.store import postgres_graph as graph
from civicsetu.store import postgres_outline as outline
from civicsetu.store import postgres_search as search
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
    Store,
    Topology,
    VectorIndex,
)
from civicsetu.store.postgres_schema import (
    apply_pg_migrations,
    ensure_vector_index,
    known_pg_migrations,
    vector_index_name,
)
from civicsetu.store.postgres_search import valid_clause, vector_literal
from civicsetu.store.rows import document_from_row, iso, provision_from_row
from civicsetu.types import (
    Amendment,
    DatedEvent,
    Document,
    ParsedDocument,
    Provision,
    split_provision_id,
)

INSTALL_HINT = ("the PostgreSQL store needs psycopg 3 and psycopg_pool: "
                "pip install 'civicsetu[postgres]'")
_COLS = ('p.doc_id, p.path, p.kind, p.title, p.start, p."end", '
         'substr(d.text, p.start + 1, p."end" - p.start), p.parent_path, '
         'p.ordinal, p.footnotes, p.valid_from, p.valid_to, p.page, p.page_end')
_CHUNK_COLUMNS = 'rowid, id, doc_id, provision_path, section, start, "end", text'


def _import_psycopg() -> tuple[Any, Any]:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:
        raise StoreError(INSTALL_HINT) from exc
    return psycopg, psycopg_pool


class PostgresStore:
    def __init__(self, url: str, *, pool_size: int = 4) -> None:
        psycopg, psycopg_pool = _import_psycopg()
        self.url = url
        self._psycopg = psycopg
        try:
            # One plain connection first: a wrong URL fails at once with the server's own
            # message (a pool would retry until its timeout), and migrations run here.
            with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
                self._check_version(conn)
                apply_pg_migrations(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the PostgreSQL store {_redact(url)}: "
                             f"{str(exc).strip()}; check that the server runs and has the "
                             "vector extension (docs/POSTGRES.md)") from exc
        self._pool = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=max(1, pool_size), open=True, timeout=30,
            # No automatic prepared statements: a generic plan cannot use the per-model
            # partial HNSW index, a plan for the actual parameters can.
            kwargs={"autocommit": True, "prepare_threshold": None})
        self._pinned = threading.local()  # the connection of an open read_snapshot
        self._stats = search.CorpusStats()
        self._dims: dict[str, int] = {}
        self._vector_cache: dict[str, VectorIndex] = {}

    @staticmethod
    def _check_version(conn: Any) -> None:
        exists = conn.execute("SELECT to_regclass('civicsetu_migrations')").fetchone()[0]
        if exists is None:
            return
        names = {r[0] for r in conn.execute("SELECT name FROM civicsetu_migrations")}
        unknown = names - set(known_pg_migrations())
        if unknown:
            raise StoreError(f"the database was written by a newer CivicSetu (migrations "
                             f"{sorted(unknown)}); upgrade civicsetu")

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def _read(self) -> Iterator[Any]:
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            yield pinned
            return
        with self._pool.connection() as conn:
            yield conn

    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Reads inside (on this thread) see one committed state: one pooled connection in
        a REPEATABLE READ, READ ONLY transaction. Re-entrant."""
        if getattr(self._pinned, "conn", None) is not None:
            yield
            return
        with self._pool.connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            self._pinned.conn = conn
            try:
                yield
            finally:
                self._pinned.conn = None
                conn.execute("COMMIT")

    def data_version(self) -> int:
        """Changes whenever any process commits a write (a sequence every write bumps)."""
        with self._pool.connection() as c:
            return int(c.execute("SELECT last_value + (CASE WHEN is_called THEN 1 ELSE 0"
                                 " END) FROM civicsetu_data_version").fetchone()[0])

    def doctor(self, fix: bool = False) -> list[Finding]:
        """Run the checks of ``postgres_doctor``; with ``fix`` repair in one transaction."""
        from civicsetu.store.postgres_doctor import run_doctor

        with self._pool.connection() as conn:
            findings = run_doctor(conn, fix)
        if fix:
            self._stats.clear()
            self._vector_cache.clear()
        return findings

    @contextmanager
    def _transaction(self, lock: str | None = None) -> Iterator[Any]:
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT nextval('civicsetu_data_version')")
            if lock is not None:
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (lock,))
            yield conn
        self._stats.clear()
        self._vector_cache.clear()

    # --- writes -----------------------------------------------------------------------

    def document_hash(self, doc_id: str) -> str | None:
        with self._read() as c:
            row = c.execute("SELECT content_hash FROM documents WHERE id = %s",
                            (doc_id,)).fetchone()
        return str(row[0]) if row else None

    def parser_version(self, doc_id: str) -> int | None:
        """The parser version ``doc_id`` was stored with (0: before it was recorded)."""
        with self._read() as c:
            row = c.execute("SELECT parser_version FROM documents WHERE id = %s",
                            (doc_id,)).fetchone()
        return int(row[0]) if row else None

    def cached_vectors(self, model_id: str,
                       text_hashes: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        unique = list(dict.fromkeys(text_hashes))
        if not unique:
            return {}
        with self._read() as c:
            rows = c.execute("SELECT text_hash, vector::real[] FROM embeddings WHERE "
                             "model_id = %s AND text_hash = ANY(%s)",
                             (model_id, unique)).fetchall()
        return {str(h): np.asarray(v, dtype=np.float32) for h, v in rows}

    def replace_document(self, parsed: ParsedDocument, model_id: str,
                         new_vectors: Mapping[str, npt.NDArray[np.float32]],
                         provenance: Provenance | None = None) -> None:
        """Write a document's new version in one transaction (changed sections of the old
        version are superseded, as in the SQLite store)."""
        doc = parsed.document
        now = datetime.now(UTC).isoformat()
        with self._transaction(lock=f"doc:{doc.id}") as c:
            if new_vectors:
                dim = len(next(iter(new_vectors.values())))
                ensure_vector_index(c, model_id, dim)
            stored = c.execute("SELECT 1 FROM documents WHERE id = %s",
                               (doc.id,)).fetchone() is not None
            valid_from = graph.supersede_changed(c, parsed, doc.effective_date or date.today())
            graph.drop_current(c, doc.id)
            c.execute(
                "INSERT INTO documents (id, title, short_title, source, jurisdiction, doc_type,"
                " aliases, effective_date, parent_id, content_hash, text, ingested_at,"
                " parser_version)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (id) DO UPDATE SET"
                " title=excluded.title, short_title=excluded.short_title,"
                " source=excluded.source, jurisdiction=excluded.jurisdiction,"
                " doc_type=excluded.doc_type, aliases=excluded.aliases,"
                " effective_date=excluded.effective_date, parent_id=excluded.parent_id,"
                " content_hash=excluded.content_hash, text=excluded.text,"
                " ingested_at=excluded.ingested_at, parser_version=excluded.parser_version",
                (doc.id, doc.title, doc.short_title, doc.source, doc.jurisdiction,
                 doc.doc_type.value, json.dumps(list(doc.aliases)), iso(doc.effective_date),
                 doc.parent_id, doc.content_hash, doc.text, now, parsed.parser_version))
            with c.cursor() as cur:
                cur.executemany(
                    'INSERT INTO provisions (id, doc_id, path, section, parent_path, kind, title,'
                    ' start, "end", ordinal, footnotes, valid_from, valid_to, page, page_end)'
                    " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                    [(p.id, p.doc_id, p.path, p.section, p.parent_path, p.kind.value, p.title,
                      p.start, p.end, p.ordinal,
                      json.dumps([[f.marker, f.text] for f in p.footnotes]),
                      valid_from.get(p.section), None, p.page, p.page_end)
                     for p in parsed.provisions])
                cur.executemany(
                    "INSERT INTO embeddings (model_id, text_hash, vector) VALUES "
                    "(%s,%s,%s::vector) ON CONFLICT DO NOTHING",
                    [(model_id, h, vector_literal(v)) for h, v in new_vectors.items()])
                titles = {p.path: p.title for p in parsed.provisions if p.parent_path is None}
                rows = []
                for ch in parsed.chunks:
                    section = ch.provision_path.partition("(")[0]
                    rows.append((ch.id, ch.doc_id, ch.provision_path, section, ch.ordinal,
                                 ch.start, ch.end, ch.text, ch.text_hash,
                                 valid_from.get(section),
                                 f"{doc.short_title} {titles.get(section, '')}"))
                cur.executemany(
                    'INSERT INTO chunks (id, doc_id, provision_path, section, ordinal, start,'
                    ' "end", text, embed_hash, valid_from, fts_title)'
                    " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)", rows)
                cur.executemany("INSERT INTO edges (src, dst, type, doc_id) VALUES "
                                "(%s,%s,%s,%s) ON CONFLICT DO NOTHING",
                                [(e.src, e.dst, e.type.value, doc.id)
                                 for e in graph.static_edges(parsed)])
            graph.write_metadata(c, parsed)
            if provenance is not None:
                _write_provenance(c, doc.id, provenance)
            # In the same transaction (as SQLite): never searchable without its reference
            # edges or its provenance. One resolver at a time across workers; after the
            # lock every document committed before is visible (READ COMMITTED). A new
            # document changes few references (the library-size ingest case); a new
            # version of a stored one may change any, so everything is resolved again.
            c.execute("SELECT pg_advisory_xact_lock(hashtext('resolve_references'))")
            if stored:
                graph.resolve_references(c)
            else:
                graph.resolve_new_document(c, doc.id)

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document and all that hangs off it, in one transaction: its rows
        (cascade), edges into it from other documents, vectors no other chunk uses;
        references that pointed into it become unresolved again."""
        with self._transaction(lock=f"doc:{doc_id}") as c:
            hashes = [r[0] for r in c.execute("SELECT DISTINCT embed_hash FROM chunks WHERE"
                                              " doc_id = %s", (doc_id,)).fetchall()]
            found = bool(c.execute("DELETE FROM documents WHERE id = %s", (doc_id,)).rowcount)
            prefix = f"{doc_id}#"
            c.execute("DELETE FROM edges WHERE dst = %s OR left(dst, %s) = %s",
                      (doc_id, len(prefix), prefix))
            c.execute("UPDATE refs SET dst = NULL WHERE dst = %s OR left(dst, %s) = %s",
                      (doc_id, len(prefix), prefix))
            c.execute("DELETE FROM embeddings e WHERE e.text_hash = ANY(%s) AND NOT EXISTS"
                      " (SELECT 1 FROM chunks c WHERE c.embed_hash = e.text_hash)", (hashes,))
            if found:
                c.execute("SELECT pg_advisory_xact_lock(hashtext('resolve_references'))")
                graph.resolve_references(c)
            return found

    def provenance(self, doc_ids: Sequence[str] | None = None) -> dict[str, Provenance]:
        sql = "SELECT id, origin, origin_path, origin_at, lookalike_of FROM documents"
        with self._read() as c:
            rows = (c.execute(sql).fetchall() if doc_ids is None else
                    c.execute(sql + " WHERE id = ANY(%s)", (list(doc_ids),)).fetchall())
        return {r[0]: Provenance(r[1], r[2], r[3], r[4]) for r in rows}

    def set_provenance(self, doc_id: str, provenance: Provenance) -> None:
        with self._transaction(lock=f"doc:{doc_id}") as c:
            _write_provenance(c, doc_id, provenance)

    def resolve_references(self) -> None:
        with self._transaction(lock="resolve_references") as c:
            graph.resolve_references(c)

    # --- research memory ----------------------------------------------------------------

    def qa_memory(self, corpus: str) -> list[tuple[npt.NDArray[np.float32], str]]:
        with self._read() as c:
            rows = c.execute("SELECT vector, payload FROM qa_memory WHERE corpus = %s",
                             (corpus,)).fetchall()
        return [(np.frombuffer(bytes(r[0]), dtype=np.float32), str(r[1])) for r in rows]

    def remember_qa(self, corpus: str, question: str, vector: npt.NDArray[np.float32],
                    payload: str) -> None:
        """Store an answer for ``corpus``; answers for any other corpus are dropped."""
        with self._pool.connection() as c, c.transaction():
            c.execute("DELETE FROM qa_memory WHERE corpus != %s", (corpus,))
            c.execute("INSERT INTO qa_memory VALUES (%s,%s,%s,%s,%s) ON CONFLICT (corpus,"
                      " question) DO UPDATE SET vector=excluded.vector,"
                      " payload=excluded.payload, created_at=excluded.created_at",
                      (corpus, question, np.asarray(vector, dtype=np.float32).tobytes(),
                       payload, datetime.now(UTC).isoformat()))

    def set_document_metadata(self, doc_id: str, values: Mapping[str, str]) -> None:
        """Replace the metadata of ``doc_id`` (contract parties, dates, law, signatories)."""
        with self._transaction(lock=f"doc:{doc_id}") as c:
            c.execute("DELETE FROM document_metadata WHERE doc_id = %s", (doc_id,))
            with c.cursor() as cur:
                cur.executemany("INSERT INTO document_metadata VALUES (%s,%s,%s)",
                                [(doc_id, k, v) for k, v in values.items()])

    def document_metadata(self, doc_id: str) -> dict[str, str]:
        """The metadata stored for ``doc_id`` ({} when none was extracted)."""
        with self._read() as c:
            rows = c.execute("SELECT key, value FROM document_metadata WHERE doc_id = %s"
                             " ORDER BY key", (doc_id,)).fetchall()
        return {str(k): str(v) for k, v in rows}

    def provision_neighbours(self, full_id: str) -> ProvisionNeighbours:
        with self._read() as c:
            return outline.neighbours(c, full_id)

    def graph_nodes(self, ids: Sequence[str]) -> list[GraphNode]:
        with self._read() as c:
            return outline.graph_nodes(c, ids)

    def topology(self, doc_ids: Sequence[str] | None, types: Sequence[str] | None,
                 max_nodes: int) -> Topology:
        with self._read() as c:
            return outline.topology(c, doc_ids, types, max_nodes)

    # --- graph and metadata -------------------------------------------------------------

    def edges(self, node: str, direction: str = "out",
              types: Sequence[str] | None = None) -> list[GraphEdge]:
        with self._read() as c:
            return graph.edges_of(c, node, direction, types)

    def unresolved_references(self, node: str) -> list[GraphEdge]:
        with self._read() as c:
            return graph.unresolved_references(c, node)

    def neighbourhood(self, start: Sequence[str], hops: int,
                      types: Sequence[str]) -> dict[str, int]:
        with self._read() as c:
            return graph.neighbourhood(c, start, hops, types)

    def definitions_for(self, terms: Sequence[str],
                        doc_ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
        with self._read() as c:
            return graph.definitions_for(c, terms, doc_ids)

    def amendments_of(self, provision_ids: Sequence[str]) -> list[Amendment]:
        with self._read() as c:
            return graph.amendments_of(c, provision_ids)

    def dates_of(self, doc_id: str) -> list[DatedEvent]:
        with self._read() as c:
            return graph.dates_of(c, doc_id)

    def graph_stats(self) -> GraphStats:
        with self._read() as c:
            return graph.graph_stats(c)

    # --- reads ------------------------------------------------------------------------

    def documents(self) -> list[DocumentInfo]:
        with self._read() as c:
            rows = c.execute(
                "SELECT d.id, d.title, d.short_title, d.source, d.jurisdiction, d.doc_type,"
                " d.aliases, d.content_hash,"
                " (SELECT count(*) FROM provisions p WHERE p.doc_id = d.id),"
                " (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id AND c.valid_to IS NULL)"
                " FROM documents d ORDER BY d.id").fetchall()
        return [DocumentInfo(r[0], r[1], r[2], r[3], r[4], r[5], tuple(json.loads(r[6])),
                             r[7], int(r[8]), int(r[9])) for r in rows]

    def document(self, doc_id: str) -> Document:
        with self._read() as c:
            r = c.execute(
                "SELECT id, title, text, source, jurisdiction, doc_type, short_title, aliases,"
                " effective_date, parent_id FROM documents WHERE id = %s", (doc_id,)).fetchone()
        if r is None:
            raise NotFoundError(f"no document {doc_id!r} in the index; "
                                "`civicsetu documents` lists what is there")
        return document_from_row(r)

    def provision(self, full_id: str, as_of: date | None = None) -> Provision:
        """The provision as in force now, or on ``as_of`` (from history if superseded)."""
        doc_id, path = split_provision_id(full_id)
        with self._read() as c:
            row = c.execute(f"SELECT {_COLS} FROM provisions p JOIN documents d ON"
                            " d.id = p.doc_id WHERE p.id = %s", (full_id,)).fetchone()
            if as_of is not None and (row is None or (row[10] and row[10] > as_of.isoformat())):
                where, params = valid_clause("p", as_of)
                row = c.execute(
                    f"SELECT {_COLS} FROM provision_history p JOIN document_versions d"
                    f" ON d.doc_id = p.doc_id AND d.content_hash = p.version_hash"
                    f" WHERE p.id = %s AND {where}", [full_id, *params]).fetchone()
                if row is None:
                    raise NotFoundError(f"{doc_id} has no provision {path} in force on "
                                        f"{as_of.isoformat()}; `civicsetu show {full_id} "
                                        "--history` lists its versions")
            if row is None:
                if c.execute("SELECT 1 FROM documents WHERE id = %s",
                             (doc_id,)).fetchone() is None:
                    raise NotFoundError(f"no document {doc_id!r} in the index; "
                                        "`civicsetu documents` lists what is there")
                section = path.partition("(")[0]
                has_section = c.execute("SELECT 1 FROM provisions WHERE id = %s",
                                        (f"{doc_id}#{section}",)).fetchone() is not None
                hint = (f"try the whole section: `civicsetu show {doc_id}#{section}`"
                        if section != path and has_section
                        else f"find the number with `civicsetu search QUERY --doc {doc_id}`")
                raise NotFoundError(f"{doc_id} has no provision {path}; {hint}")
        return provision_from_row(row)

    def provisions_of_section(self, doc_id: str, section: str,
                              as_of: date | None = None) -> list[Provision]:
        with self._read() as c:
            rows = c.execute(
                f"SELECT {_COLS} FROM provisions p JOIN documents d ON d.id = p.doc_id"
                " WHERE p.doc_id = %s AND p.section = %s ORDER BY p.ordinal",
                (doc_id, section)).fetchall()
            if as_of is not None and (not rows or (rows[0][10]
                                                   and rows[0][10] > as_of.isoformat())):
                where, params = valid_clause("p", as_of)
                rows = c.execute(
                    f"SELECT {_COLS} FROM provision_history p JOIN document_versions d"
                    f" ON d.doc_id = p.doc_id AND d.content_hash = p.version_hash"
                    f" WHERE p.doc_id = %s AND p.section = %s AND {where} ORDER BY p.ordinal",
                    [doc_id, section, *params]).fetchall()
        return [provision_from_row(r) for r in rows]

    def history(self, full_id: str) -> list[Provision]:
        """Every stored version of a provision, oldest first (the current one last)."""
        with self._read() as c:
            past = c.execute(
                f"SELECT {_COLS} FROM provision_history p JOIN document_versions d"
                f" ON d.doc_id = p.doc_id AND d.content_hash = p.version_hash"
                f" WHERE p.id = %s ORDER BY p.valid_to", (full_id,)).fetchall()
            now = c.execute(f"SELECT {_COLS} FROM provisions p JOIN documents d ON"
                            " d.id = p.doc_id WHERE p.id = %s", (full_id,)).fetchall()
        return [provision_from_row(r) for r in [*past, *now]]

    def chunks(self, rowids: Sequence[int]) -> list[ChunkRow]:
        if not rowids:
            return []
        with self._read() as c:
            rows = c.execute(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE rowid = ANY(%s)",
                             (list(rowids),)).fetchall()
        by_id = {r[0]: ChunkRow(*r) for r in rows}
        return [by_id[i] for i in rowids if i in by_id]

    def chunks_of_section(self, doc_id: str, section: str,
                          as_of: date | None = None) -> list[ChunkRow]:
        where, params = valid_clause("chunks", as_of)
        with self._read() as c:
            rows = c.execute(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE doc_id = %s AND"
                             f" section = %s AND {where} ORDER BY ordinal",
                             [doc_id, section, *params]).fetchall()
        return [ChunkRow(*r) for r in rows]

    def chunk_covering(self, doc_id: str, path: str) -> int | None:
        """The first chunk of ``doc_id`` overlapping provision ``path`` (its rowid)."""
        with self._read() as c:
            row = c.execute(
                'SELECT c.rowid FROM chunks c JOIN provisions p ON p.doc_id = c.doc_id'
                ' AND p.path = %s WHERE c.doc_id = %s AND c.section = p.section AND'
                ' c.start < p."end" AND c."end" > p.start AND c.valid_to IS NULL'
                ' ORDER BY c.ordinal LIMIT 1', (path, doc_id)).fetchone()
        return int(row[0]) if row else None

    def keyword_search(self, fts_query: str, limit: int,
                       doc_ids: Sequence[str] | None = None,
                       as_of: date | None = None) -> list[tuple[int, float]]:
        """BM25 (FTS5's formula, title hits count twice) over chunks in force now or on
        ``as_of``; higher is better."""
        with self._read() as c:
            try:
                return search.bm25_search(c, self._stats, fts_query, limit, doc_ids, as_of)
            except self._psycopg.Error as exc:
                raise StoreError(f"full-text query failed ({exc}); query was "
                                 f"{fts_query!r}") from exc

    def term_document_frequency(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks contain each term (stemmed as the index stems it)."""
        with self._read() as c:
            return self._stats.document_frequency(c, list(terms))

    def chunk_count(self) -> int:
        with self._read() as c:
            return int(c.execute("SELECT count(*) FROM chunks WHERE valid_to IS NULL")
                       .fetchone()[0])

    def dense_search(self, model_id: str, vector: npt.NDArray[np.float32], k: int,
                     doc_ids: Sequence[str] | None = None,
                     as_of: date | None = None) -> list[tuple[int, float]]:
        """The ``k`` chunks nearest ``vector`` (inner product, higher first) among those in
        force now or on ``as_of`` in ``doc_ids`` (all when None); HNSW, widened until ``k``
        rows pass the filters."""
        with self._read() as c:
            dim = self._dims.get(model_id)
            if dim is None:
                row = c.execute("SELECT vector_dims(vector) FROM embeddings WHERE model_id = %s"
                                " LIMIT 1", (model_id,)).fetchone()
                if row is None:
                    return []
                dim = self._dims[model_id] = int(row[0])
            return search.dense_search(c, model_id, dim, vector, k, doc_ids, as_of)

    def rebuild_dense_index(self, model_id: str) -> DenseIndexStatus:
        """REINDEX the model's pgvector HNSW index (pgvector keeps it current on writes)."""
        import time

        name = vector_index_name(model_id)
        t = time.perf_counter()
        with self._read() as c:
            if c.execute("SELECT to_regclass(%s)", (name,)).fetchone()[0] is None:
                raise NotFoundError("the index has no vectors yet; run `civicsetu ingest` first")
            c.execute(f"REINDEX INDEX {name}")
            rows = int(c.execute("SELECT count(*) FROM embeddings WHERE model_id = %s",
                                 (model_id,)).fetchone()[0])
        return DenseIndexStatus("hnsw (pgvector)", rows, name,
                                round(time.perf_counter() - t, 2))

    def vector_index(self, model_id: str) -> VectorIndex:
        """Every chunk vector of one model as a matrix (for tools; search uses HNSW)."""
        if model_id in self._vector_cache:
            return self._vector_cache[model_id]
        with self._read() as c:
            rows = c.execute(
                "SELECT c.rowid, c.doc_id, e.vector::real[], coalesce(c.valid_from, ''),"
                " coalesce(c.valid_to, '') FROM chunks c JOIN embeddings e ON e.model_id = %s"
                " AND e.text_hash = c.embed_hash ORDER BY c.rowid", (model_id,)).fetchall()
        matrix = (np.asarray([r[2] for r in rows], dtype=np.float32) if rows
                  else np.zeros((0, 0), dtype=np.float32))
        index = VectorIndex(np.array([r[0] for r in rows], dtype=np.int64),
                            np.array([r[1] for r in rows], dtype=np.str_), matrix,
                            np.array([r[3] for r in rows], dtype=np.str_),
                            np.array([r[4] for r in rows], dtype=np.str_))
        self._vector_cache[model_id] = index
        return index

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """A pooled connection (autocommit) for tools such as ``store migrate``."""
        with self._pool.connection() as conn:
            yield conn
        self._stats.clear()
        self._vector_cache.clear()


def _write_provenance(c: Any, doc_id: str, provenance: Provenance) -> None:
    c.execute("UPDATE documents SET origin = %s, origin_path = %s, origin_at = %s,"
              " lookalike_of = %s WHERE id = %s",
              (provenance.origin, provenance.path, provenance.ingested_at,
               provenance.lookalike_of, doc_id))


def _redact(url: str) -> str:
    """The URL without its password."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, userinfo = head.partition("://")
    return f"{scheme}://{userinfo.partition(':')[0]}@{tail}"




def _implements_the_protocol(store: PostgresStore) -> Store:
    return store  # mypy checks here that PostgresStore satisfies every Store method
