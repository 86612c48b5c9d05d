"""Stores: SQLite (embedded default). Open one with ``open_store``."""

from __future__ import annotations

from civicsetu.config import Settings
from civicsetu.store.base import ChunkRow, DocumentInfo, Store, VectorIndex
from civicsetu.store.dense import DenseSettings
from civicsetu.store.sqlite import SQLiteStore

__all__ = ["ChunkRow", "DocumentInfo", "SQLiteStore", "Store", "VectorIndex", "open_store"]


def open_store(settings: Settings) -> Store:
    """The configured store; callers depend on the ``Store`` protocol only."""
    return SQLiteStore(settings.resolved_db_path, DenseSettings(
        ann=settings.ann, ann_min_chunks=settings.ann_min_chunks,
        ann_exact_below=settings.ann_exact_below, ann_ef=settings.ann_ef))


def _sqlite_implements_the_protocol(store: SQLiteStore) -> Store:
    return store  # mypy checks here that SQLiteStore satisfies every Store method
