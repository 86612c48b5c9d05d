"""The store contract on the embedded default: a real SQLite file in tmp_path."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from civicsetu.store import SQLiteStore
from civicsetu.store.base import Store
from tests.store.contract import StoreContract


class TestSQLiteStore(StoreContract):
    integrity_errors: ClassVar[tuple[type[BaseException], ...]] = (sqlite3.IntegrityError,)

    @pytest.fixture()
    def store(self, tmp_path: Path) -> Iterator[Store]:
        store = SQLiteStore(tmp_path / "contract.db")
        yield store
        store.close()
