"""The store contract on a real PostgreSQL + pgvector server (``conftest.pg_url``), plus
what only a server store does: concurrent writers, URL selection, pooled reopen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from threading import Thread
from typing import ClassVar

import pytest

from civicsetu.config import Settings
from civicsetu.errors import StoreError
from civicsetu.store import open_store
from civicsetu.store.base import Store
from tests.store.contract import ESCROW, HOUSING, MODEL, StoreContract, parse, put, write


def _integrity_errors() -> tuple[type[BaseException], ...]:
    try:
        import psycopg as pg
    except ImportError:
        return ()
    return (pg.errors.IntegrityError,)


class TestPostgresStore(StoreContract):
    integrity_errors: ClassVar[tuple[type[BaseException], ...]] = _integrity_errors()

    @pytest.fixture()
    def store(self, pg_url: str) -> Iterator[Store]:
        store = open_store(Settings(store=pg_url, store_pool_size=2))
        yield store
        store.close()


def test_the_url_selects_the_backend_and_reopens_the_same_data(pg_url: str,
                                                                tmp_path: Path) -> None:
    from civicsetu.store.postgres import PostgresStore

    settings = Settings(home=tmp_path, store=pg_url)
    first = open_store(settings)
    assert isinstance(first, PostgresStore)
    put(first, parse(write(tmp_path, "model-escrow-act-2030.md", ESCROW)))
    first.close()
    again = open_store(settings)  # migrations are not applied twice
    assert [d.id for d in again.documents()] == ["model-escrow-act-2030"]
    again.close()


def test_concurrent_writers_each_commit_whole_documents(pg_url: str, tmp_path: Path) -> None:
    """Two workers write the same document at once: the per-document lock serialises
    them, and the result is one complete copy, not a mix."""
    parsed = parse(write(tmp_path, "model-housing-act-2030.md", HOUSING))
    stores = [open_store(Settings(store=pg_url)) for _ in range(2)]
    errors: list[BaseException] = []

    def work(store: Store) -> None:
        try:
            for _ in range(3):
                put(store, parsed)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [Thread(target=work, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert stores[0].chunk_count() == len(parsed.chunks)
    assert len(stores[1].vector_index(MODEL).rowids) == len(parsed.chunks)
    for s in stores:
        s.close()


def test_a_server_that_is_not_there_gets_a_clear_error(tmp_path: Path) -> None:
    url = f"postgresql://nobody@/nowhere?host={tmp_path}&connect_timeout=1"
    with pytest.raises(StoreError, match=r"POSTGRES\.md"):
        open_store(Settings(store=url))
