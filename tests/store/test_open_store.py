"""``open_store`` picks the backend from the CIVICSETU_STORE URL scheme."""

from __future__ import annotations

from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.errors import InputError
from civicsetu.store import SQLiteStore, open_store


def test_empty_setting_is_the_sqlite_file_in_home(tmp_path: Path) -> None:
    store = open_store(Settings(home=tmp_path))
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "civicsetu.db"
    store.close()


def test_sqlite_url_names_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIVICSETU_STORE", f"sqlite:{tmp_path / 'other.db'}")
    store = open_store(Settings(home=tmp_path))
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "other.db"
    store.close()
    assert (tmp_path / "other.db").is_file() and not (tmp_path / "civicsetu.db").exists()


def test_unknown_scheme_says_what_works(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="postgresql://"):
        open_store(Settings(home=tmp_path, store="mysql://user:secret@db/x"))
