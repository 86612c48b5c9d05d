"""Stores: SQLite (embedded default) and PostgreSQL + pgvector. Open one with ``open_store``.

The backend is picked by the URL scheme of ``CIVICSETU_STORE`` from ``BACKENDS``; an
empty setting is the SQLite file at ``db_path``.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from civicsetu.config import Settings
from civicsetu.errors import InputError, NotIngestedError, StoreError
from civicsetu.store.base import ChunkRow, DocumentInfo, Store, VectorIndex
from civicsetu.store.dense import DenseSettings
from civicsetu.store.sqlite import SQLiteStore

__all__ = ["BACKENDS", "ChunkRow", "DocumentInfo", "SQLiteStore", "Store", "VectorIndex",
           "open_store", "open_store_url"]


def dense_settings(settings: Settings) -> DenseSettings:
    """The SQLite store's dense-search settings (exact or HNSW, see ``store.dense``)."""
    return DenseSettings(ann=settings.ann, ann_min_chunks=settings.ann_min_chunks,
                         ann_exact_below=settings.ann_exact_below, ann_ef=settings.ann_ef,
                         lexical=settings.bm25_index)


def _sqlite(url: str, settings: Settings) -> Store:
    path = url.partition(":")[2]
    if path.startswith("//"):
        path = path[2:]
    return SQLiteStore(Path(path).expanduser() if path else settings.resolved_db_path,
                       dense_settings(settings))


def _postgres(url: str, settings: Settings) -> Store:
    from civicsetu.store.postgres import PostgresStore  # lazy: psycopg is an extra

    return PostgresStore(url, pool_size=settings.store_pool_size)


# Built-in backends by URL scheme.
BACKENDS: dict[str, Callable[[str, Settings], Store]] = {
    "sqlite": _sqlite,
    "postgresql": _postgres,
    "postgres": _postgres,
}


def open_store_url(url: str, settings: Settings | None = None) -> Store:
    """The store a URL names (``sqlite:PATH`` or ``postgresql://...``)."""
    settings = settings or Settings()
    scheme = url.partition(":")[0].lower()
    if scheme not in BACKENDS:
        raise InputError(f"unknown store {url.split('@')[-1]!r}; use sqlite:PATH or "
                         f"postgresql://user:password@host/dbname ({', '.join(BACKENDS)})")
    return BACKENDS[scheme](url, settings)


def open_store(settings: Settings, *, create: bool = True) -> Store:
    """The configured store; callers depend on the ``Store`` protocol only.

    With ``create=False`` (commands that only read) a SQLite index that is not there is an
    error naming its folder instead of a new, empty index in a mistyped ``--home``."""
    if not settings.store:
        if not create:
            require_index(settings)
        return SQLiteStore(settings.resolved_db_path, dense_settings(settings))
    return open_store_url(settings.store, settings)


def require_index(settings: Settings) -> None:
    """``NotIngestedError`` unless the SQLite index file exists (``StoreError`` when a
    file stands where its folder should be); the message says how to create it."""
    db = settings.resolved_db_path
    if db.is_file():
        return
    folder = db.parent
    if folder.exists() and not folder.is_dir():
        raise StoreError(f"{folder} is a file, not a folder; give --home (or CIVICSETU_HOME) "
                         "the folder that holds the index")
    reason = "the folder does not exist" if not folder.exists() else f"it has no {db.name}"
    create = (f"`civicsetu ingest --bundled --home {shlex.quote(str(settings.home))}`"
              if settings.db_path is None else
              f"`civicsetu ingest --bundled` (with CIVICSETU_DB_PATH={db})")
    raise NotIngestedError(f"no index in {folder}: {reason}. Create one with {create} (or "
                           "ingest your own files there), or point --home / CIVICSETU_HOME at "
                           "an existing index")


def _sqlite_implements_the_protocol(store: SQLiteStore) -> Store:
    return store  # mypy checks here that SQLiteStore satisfies every Store method
