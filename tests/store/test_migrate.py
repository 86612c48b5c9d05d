"""``civicsetu store migrate``: a real SQLite index copied into a real PostgreSQL, verified
by counts and checksums, resumable, and searchable the same way afterwards."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from civicsetu.cli import app
from civicsetu.ingest.version import PARSER_VERSION
from civicsetu.store import SQLiteStore
from civicsetu.store.migrate import migrate
from civicsetu.store.postgres import PostgresStore
from civicsetu.types import DocType
from tests.store.contract import (
    DEPOSIT_V1,
    DEPOSIT_V2,
    ESCROW,
    HOUSING,
    MODEL,
    RULES,
    parse,
    put,
    vector_for,
    write,
)


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    """An SQLite index with a rule, an Act, a superseded version and QA memory."""
    db = tmp_path / "civicsetu.db"
    store = SQLiteStore(db)
    put(store, parse(write(tmp_path, "model-housing-act-2030.md", HOUSING)))
    put(store, parse(write(tmp_path, "model-housing-rules-2031.txt", RULES),
                     doc_type=DocType.RULES, parent_id="model-housing-act-2030",
                     title="Model Housing Rules, 2031"))
    deposit = write(tmp_path, "model-deposit-act-2030.md", DEPOSIT_V1)
    put(store, parse(deposit, effective_date=date(2030, 1, 1)))
    deposit.write_text(DEPOSIT_V2, encoding="utf-8")
    put(store, parse(deposit, effective_date=date(2031, 6, 1)))
    store.resolve_references()
    store.remember_qa("corpus", "a question", vector_for("q"), "{}")
    store.close()
    return db


def test_cli_copies_everything_and_verifies(source: Path, pg_url: str) -> None:
    result = CliRunner().invoke(app, ["store", "migrate", "--from", f"sqlite:{source}",
                                      "--to", pg_url])
    assert result.exit_code == 0, result.output
    assert "verified: equal counts and checksums" in result.output
    assert "3 documents copied, 0 already there" in result.output
    again = CliRunner().invoke(app, ["store", "migrate", "--from", f"sqlite:{source}",
                                     "--to", pg_url])
    assert again.exit_code == 0, again.output
    assert "0 documents copied, 3 already there" in again.output


def test_migration_resumes_and_recopies_only_what_changed(source: Path, pg_url: str,
                                                          tmp_path: Path) -> None:
    target = PostgresStore(pg_url)
    first = migrate(source, target)
    assert first.verified and first.source_counts["provision_history"] > 0
    assert first.source_counts == first.target_counts
    store = SQLiteStore(source)
    put(store, parse(write(tmp_path / "v2", "model-escrow-act-2030.md", ESCROW)))
    store.close()
    second = migrate(source, target)
    assert second.verified
    assert {d.doc_id: d.status for d in second.documents} == {
        "model-deposit-act-2030": "skipped", "model-escrow-act-2030": "copied",
        "model-housing-act-2030": "skipped", "model-housing-rules-2031": "skipped"}
    assert target.parser_version("model-escrow-act-2030") == PARSER_VERSION
    # The parser version is part of a document's checksum: a change is copied again.
    conn = sqlite3.connect(source)
    with conn:
        conn.execute("UPDATE documents SET parser_version = 0 WHERE id = 'model-escrow-act-2030'")
    conn.close()
    third = migrate(source, target)
    assert third.verified
    assert [d.doc_id for d in third.documents if d.status == "copied"] == [
        "model-escrow-act-2030"]
    assert target.parser_version("model-escrow-act-2030") == 0
    target.close()


def test_the_copy_searches_like_the_original(source: Path, pg_url: str) -> None:
    target = PostgresStore(pg_url)
    assert migrate(source, target).verified
    original = SQLiteStore(source)
    for query in ('"promoter"', '"deposit" OR "refund"', '"application" OR "form"'):
        assert ([r for r, _ in target.keyword_search(query, 10)]
                == [r for r, _ in original.keyword_search(query, 10)])
    for seed in ("one", "two", "three"):
        q = vector_for(seed)
        want = original.dense_search(MODEL, q, 8)
        got = target.dense_search(MODEL, q, 8)
        assert [r for r, _ in got] == [r for r, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
    assert target.qa_memory("corpus")[0][0].tobytes() == vector_for("q").tobytes()
    assert target.history("model-deposit-act-2030#s.3") == original.history(
        "model-deposit-act-2030#s.3")
    original.close()
    target.close()


@pytest.mark.slow
def test_the_bundle_round_trips_with_equal_counts_and_checksums(bundled_home: Path,
                                                                 pg_url: str) -> None:
    target = PostgresStore(pg_url)
    report = migrate(bundled_home / "civicsetu.db", target)
    target.close()
    assert report.verified
    assert report.source_counts["chunks"] == report.target_counts["chunks"] > 3000
    assert report.source_checksum == report.target_checksum
