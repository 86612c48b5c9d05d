import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from civicsetu.config import Settings
from civicsetu.embed.base import Vectors
from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError, StoreError
from civicsetu.ingest.pipeline import SourceSpec, ingest
from civicsetu.store import migrations
from civicsetu.store.migrations import known_migrations
from civicsetu.store.sqlite import SQLiteStore


def _counts(db: Path) -> tuple[int, ...]:
    conn = sqlite3.connect(db)
    try:
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("documents", "provisions", "chunks", "chunks_fts", "edges"))
    finally:
        conn.close()


def test_reingest_is_idempotent_and_skips_unchanged(empty_engine: Engine,
                                                    small_act: Path) -> None:
    first = empty_engine.ingest([SourceSpec(small_act)])
    assert first[0].status == "added" and first[0].embedded == first[0].chunks > 0
    before = _counts(empty_engine.store.path)
    again = empty_engine.ingest([SourceSpec(small_act)])
    assert again[0].status == "unchanged"
    forced = empty_engine.ingest([SourceSpec(small_act)], force=True)
    assert forced[0].status == "updated" and forced[0].embedded == 0
    assert _counts(empty_engine.store.path) == before


def test_changed_document_reuses_embeddings_of_unchanged_text(empty_engine: Engine,
                                                              small_act: Path) -> None:
    first = empty_engine.ingest([SourceSpec(small_act)])[0]
    text = small_act.read_text(encoding="utf-8")
    small_act.write_text(text.replace("fifty thousand rupees", "one lakh rupees"),
                         encoding="utf-8")
    second = empty_engine.ingest([SourceSpec(small_act)])[0]
    assert second.status == "updated"
    assert second.embedded == 1 and second.reused == first.chunks - 1
    s4 = empty_engine.show("model-tenancy-act-2099#s.4")
    assert "one lakh rupees" in s4.text


class ExplodingEmbedder:
    model_id = "exploding"
    dim = 384

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        raise RuntimeError("model crashed mid-batch")

    def embed_query(self, text: str) -> Vectors:
        return np.zeros(384, dtype=np.float32)


def test_failed_ingest_leaves_the_previous_version_untouched(tmp_path: Path,
                                                             small_act: Path) -> None:
    settings = Settings(home=tmp_path / "h")
    with Engine(settings) as engine:
        engine.ingest([SourceSpec(small_act)])
        before = _counts(engine.store.path)
        small_act.write_text(small_act.read_text().replace("two months'", "three months'"))
        with pytest.raises(RuntimeError):
            ingest([SourceSpec(small_act)], engine.store, ExplodingEmbedder(), settings)
        assert _counts(engine.store.path) == before
        assert "two months'" in engine.show("model-tenancy-act-2099#s.3(1)").text


def test_write_failure_rolls_back_the_whole_document(tmp_path: Path, small_act: Path) -> None:
    settings = Settings(home=tmp_path / "h")
    with Engine(settings) as engine:
        engine.ingest([SourceSpec(small_act)])
        before = _counts(engine.store.path)
        engine.store._conn.execute(
            "CREATE TRIGGER boom BEFORE INSERT ON edges BEGIN SELECT RAISE(ABORT, 'disk'); END")
        with pytest.raises(sqlite3.IntegrityError):
            engine.ingest([SourceSpec(small_act)], force=True)
        assert _counts(engine.store.path) == before


def test_a_bad_file_in_a_batch_is_reported_and_the_rest_goes_in(empty_engine: Engine,
                                                                small_act: Path,
                                                                tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("")
    reports = empty_engine.ingest([SourceSpec(empty), SourceSpec(small_act)])
    assert [r.status for r in reports] == ["failed", "added"]
    assert "empty" in reports[0].message
    assert [d.id for d in empty_engine.documents()] == ["model-tenancy-act-2099"]


def test_migrations_are_recorded_and_newer_databases_refused(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    SQLiteStore(db).close()
    conn = sqlite3.connect(db)
    assert [r[0] for r in conn.execute("SELECT name FROM migrations")] == known_migrations()
    conn.execute("INSERT INTO migrations VALUES ('9999_future', 'now')")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer CivicSetu"):
        SQLiteStore(db)


def test_an_index_from_before_parser_versions_gets_0(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening an index written before ``0050_parser_version`` adds the column; its
    documents get version 0, so the next ingest re-parses them."""
    db = tmp_path / "old.db"
    earlier = [m for m in migrations.MIGRATIONS if m[0] != "0050_parser_version"]
    monkeypatch.setattr(migrations, "MIGRATIONS", earlier)
    conn = sqlite3.connect(db, isolation_level=None)
    migrations.apply_migrations(conn)
    conn.execute("INSERT INTO documents (id, title, content_hash, text, ingested_at) "
                 "VALUES ('old-act', 'Old Act', 'h', 'text', 'then')")
    conn.close()
    monkeypatch.undo()
    store = SQLiteStore(db)
    assert store.parser_version("old-act") == 0
    assert store.parser_version("no-such-act") is None
    store.close()
    conn = sqlite3.connect(db)
    assert [r[0] for r in conn.execute("SELECT name FROM migrations")] == known_migrations()
    conn.close()


def test_corrupt_database_file_gets_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "bad.db"
    db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="delete it and ingest again"):
        SQLiteStore(db)


def test_unknown_provision_and_document(empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])
    with pytest.raises(NotFoundError, match=r"no provision s\.3\(9\); try the whole section"):
        empty_engine.show("model-tenancy-act-2099#s.3(9)")
    with pytest.raises(NotFoundError, match="no document 'nope'"):
        empty_engine.show("nope#s.1")


def test_has_part_edges_link_the_tree(empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])
    rows = empty_engine.store._conn.execute(
        "SELECT dst FROM edges WHERE src = ? AND type = 'HAS_PART' ORDER BY dst",
        ("model-tenancy-act-2099#s.3",)).fetchall()
    assert [r[0] for r in rows] == ["model-tenancy-act-2099#s.3(1)",
                                    "model-tenancy-act-2099#s.3(2)"]
