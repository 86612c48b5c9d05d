"""Named, ordered schema migrations. Append new ones; never edit an applied one."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

MIGRATIONS: list[tuple[str, str]] = [
    ("0001_core", """
        CREATE TABLE documents (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            short_title TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT '',
            jurisdiction TEXT NOT NULL DEFAULT 'IN',
            doc_type TEXT NOT NULL DEFAULT 'act',
            aliases TEXT NOT NULL DEFAULT '[]',
            effective_date TEXT,
            parent_id TEXT,
            content_hash TEXT NOT NULL,
            text TEXT NOT NULL,
            ingested_at TEXT NOT NULL
        );
        CREATE TABLE provisions (
            id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            section TEXT NOT NULL,
            parent_path TEXT,
            kind TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            ordinal INTEGER NOT NULL,
            footnotes TEXT NOT NULL DEFAULT '[]',
            valid_from TEXT,
            valid_to TEXT
        );
        CREATE INDEX provisions_by_section ON provisions(doc_id, section, ordinal);
        CREATE TABLE chunks (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            provision_path TEXT NOT NULL,
            section TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            text TEXT NOT NULL,
            embed_hash TEXT NOT NULL
        );
        CREATE INDEX chunks_by_section ON chunks(doc_id, section, ordinal);
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            title, body, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TABLE embeddings (
            model_id TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (model_id, text_hash)
        ) WITHOUT ROWID;
        CREATE TABLE edges (
            src TEXT NOT NULL,
            dst TEXT NOT NULL,
            type TEXT NOT NULL,
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            PRIMARY KEY (src, dst, type)
        ) WITHOUT ROWID;
        CREATE INDEX edges_by_dst ON edges(dst, type);
    """),
    ("0002_graph_and_pages", """
        ALTER TABLE provisions ADD COLUMN page INTEGER;
        ALTER TABLE provisions ADD COLUMN page_end INTEGER;
        CREATE TABLE refs (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            src TEXT NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            text TEXT NOT NULL,
            target_doc TEXT,
            target_path TEXT NOT NULL,
            target_name TEXT NOT NULL DEFAULT '',
            derived INTEGER NOT NULL DEFAULT 0,
            dst TEXT
        );
        CREATE INDEX refs_by_src ON refs(src);
        CREATE INDEX refs_by_dst ON refs(dst);
        CREATE TABLE definitions (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            term TEXT NOT NULL,
            provision_id TEXT NOT NULL,
            PRIMARY KEY (doc_id, term)
        ) WITHOUT ROWID;
        CREATE INDEX definitions_by_term ON definitions(term);
        CREATE TABLE amendments (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            provision_id TEXT NOT NULL,
            action TEXT NOT NULL,
            by_text TEXT NOT NULL,
            effective TEXT,
            note TEXT NOT NULL
        );
        CREATE INDEX amendments_by_provision ON amendments(provision_id);
        CREATE TABLE dates (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            on_date TEXT NOT NULL,
            provision_path TEXT,
            text TEXT NOT NULL
        );
    """),
    ("0003_versions", """
        CREATE TABLE document_versions (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            content_hash TEXT NOT NULL,
            text TEXT NOT NULL,
            superseded_on TEXT NOT NULL,
            PRIMARY KEY (doc_id, content_hash)
        ) WITHOUT ROWID;
        CREATE TABLE provision_history (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            path TEXT NOT NULL,
            section TEXT NOT NULL,
            parent_path TEXT,
            kind TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            ordinal INTEGER NOT NULL,
            footnotes TEXT NOT NULL DEFAULT '[]',
            valid_from TEXT,
            valid_to TEXT NOT NULL,
            page INTEGER,
            page_end INTEGER,
            version_hash TEXT NOT NULL
        );
        CREATE INDEX provision_history_by_id ON provision_history(id, valid_to);
        CREATE INDEX provision_history_by_section ON provision_history(doc_id, section, ordinal);
        ALTER TABLE chunks ADD COLUMN valid_from TEXT;
        ALTER TABLE chunks ADD COLUMN valid_to TEXT;
        CREATE INDEX chunks_current ON chunks(doc_id, valid_to);
    """),
    ("0004_qa_memory", """
        CREATE TABLE qa_memory (
            corpus TEXT NOT NULL,
            question TEXT NOT NULL,
            vector BLOB NOT NULL,
            payload TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (corpus, question)
        ) WITHOUT ROWID;
    """),
    # Provenance (issue 9): where each document came from, so a citation can say whether
    # it quotes the official text or a user's file, and a look-alike can be flagged.
    ("0010_provenance", """
        ALTER TABLE documents ADD COLUMN origin TEXT NOT NULL DEFAULT '';
        ALTER TABLE documents ADD COLUMN origin_path TEXT NOT NULL DEFAULT '';
        ALTER TABLE documents ADD COLUMN origin_at TEXT NOT NULL DEFAULT '';
        ALTER TABLE documents ADD COLUMN lookalike_of TEXT NOT NULL DEFAULT '';
    """),
    # Contract review (issue 11): parties, effective date, term, governing law and
    # signatories read from a contract's text at ingestion (civicsetu.review.extract).
    ("0040_document_metadata", """
        CREATE TABLE document_metadata (
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (doc_id, key)
        ) WITHOUT ROWID;
    """),
    # The parser version each document was parsed with (civicsetu.ingest.version): an
    # unchanged text parsed by an older parser is re-parsed. Rows from before get 0.
    ("0050_parser_version", """
        ALTER TABLE documents ADD COLUMN parser_version INTEGER NOT NULL DEFAULT 0;
    """),
]


def apply_migrations(conn: sqlite3.Connection) -> list[str]:
    """Apply the migrations this database has not seen; return their names."""
    conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, "
                 "applied_at TEXT NOT NULL)")
    done = {row[0] for row in conn.execute("SELECT name FROM migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        # One script, one transaction: a migration is applied whole or not at all.
        conn.executescript("BEGIN;" + sql + ";"
                           f"INSERT INTO migrations VALUES ('{name}', "
                           f"'{datetime.now(UTC).isoformat()}');COMMIT;")
        applied.append(name)
    return applied


def known_migrations() -> list[str]:
    return [name for name, _ in MIGRATIONS]
