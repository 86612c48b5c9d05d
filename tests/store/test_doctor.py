"""``doctor`` on real index files damaged the ways a crash, a bug or an older version can
damage them: each fault is found, ``--fix`` repairs what it can, re-ingest repairs the
rest, and the command's exit code says whether problems remain."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from civicsetu.embed import get_embedder
from civicsetu.ingest.pipeline import ingest
from civicsetu.store import SQLiteStore
from civicsetu.store.base import Finding
from tests.store.corpus import settings, specs, write_corpus


@pytest.fixture()
def indexed(tmp_path: Path) -> Iterator[tuple[SQLiteStore, list[Path], Path]]:
    paths = write_corpus(tmp_path / "src", 3)
    home = tmp_path / "home"
    store = SQLiteStore(settings(home).resolved_db_path)
    _ingest(store, paths, home)
    yield store, paths, home
    store.close()


def _ingest(store: SQLiteStore, paths: list[Path], home: Path) -> list[str]:
    st = settings(home)
    return [r.status for r in ingest(specs(paths), store,
                                     get_embedder(st.embedder), st)]


def _problems(findings: list[Finding]) -> dict[str, int]:
    return {f.check: f.problems for f in findings if f.problems}


def _raw(store: SQLiteStore) -> sqlite3.Connection:
    conn = sqlite3.connect(store.path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=OFF")
    return conn


def test_a_clean_index_has_no_problems(indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, _, _ = indexed
    assert _problems(store.doctor()) == {}


def test_edges_lost_by_the_old_crash_gap_are_found_and_reingest_repairs_them(
        indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, paths, home = indexed
    # The state an older version left after a kill between the write and the
    # separately committed reference resolution.
    _raw(store).execute("DELETE FROM edges WHERE type = 'REFERENCES'")
    assert set(_problems(store.doctor())) == {"reference edges"}
    assert _ingest(store, paths, home) == ["unchanged"] * 3
    assert _problems(store.doctor()) == {}


def test_fix_rebuilds_the_full_text_index(
        indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, _, _ = indexed
    raw = _raw(store)
    rowids = [r[0] for r in raw.execute("SELECT rowid FROM chunks ORDER BY rowid LIMIT 2")]
    raw.execute("DELETE FROM chunks_fts WHERE rowid = ?", (rowids[0],))
    raw.execute("UPDATE chunks_fts SET body = 'nothing' WHERE rowid = ?", (rowids[1],))
    raw.execute("INSERT INTO chunks_fts (rowid, title, body) VALUES (999999, 't', 'ghost')")
    assert _problems(store.doctor()) == {"full-text index": 3}
    fixed = store.doctor(fix=True)
    assert sum(f.remaining for f in fixed) == 0
    assert _problems(store.doctor()) == {}
    assert rowids[0] in [r for r, _ in store.keyword_search('"record"', 1000)]
    assert store.keyword_search("ghost", 10) == []


def test_fix_drops_orphan_rows(indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, _, _ = indexed
    raw = _raw(store)  # foreign keys off, as in a tool or an older version writing
    raw.execute("INSERT INTO provisions (id, doc_id, path, section, kind, start, \"end\", "
                "ordinal) VALUES ('ghost#s.1', 'ghost', 's.1', 's.1', 'section', 0, 1, 0)")
    raw.execute("INSERT INTO edges (src, dst, type, doc_id) VALUES ('ghost#s.1', "
                "'test-act-1#s.1', 'REFERENCES', 'ghost')")
    raw.execute("INSERT INTO chunks (id, doc_id, provision_path, section, ordinal, start, "
                "\"end\", text, embed_hash) VALUES ('ghost-c', 'ghost', 's.1', 's.1', 0, 0, "
                "1, 'ghost text', 'h')")
    raw.execute("INSERT INTO chunks_fts (rowid, title, body) SELECT rowid, '', text FROM "
                "chunks WHERE id = 'ghost-c'")
    raw.execute("DELETE FROM documents WHERE id = 'test-act-3'")  # children left behind
    found = _problems(store.doctor())
    assert found["orphan rows"] > 3, found
    assert sum(f.remaining for f in store.doctor(fix=True)) == 0
    assert _problems(store.doctor()) == {}
    assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
    assert store.keyword_search("ghost", 10) == []


def test_a_missing_vector_marks_the_document_for_reingest(
        indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, paths, home = indexed
    raw = _raw(store)
    raw.execute("DELETE FROM embeddings WHERE text_hash = (SELECT embed_hash FROM chunks "
                "WHERE doc_id = 'test-act-2' LIMIT 1)")
    assert _problems(store.doctor()) == {"vectors": 1}
    findings = store.doctor(fix=True)
    assert sum(f.remaining for f in findings) == 1  # test-act-2 now waits for re-ingest
    assert _problems(store.doctor()) == {"incomplete documents": 1}
    assert _ingest(store, paths, home) == ["unchanged", "updated", "unchanged"]
    assert _problems(store.doctor()) == {}


def test_a_document_without_provisions_is_incomplete(
        indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, paths, home = indexed
    _raw(store).execute("DELETE FROM provisions WHERE doc_id = 'test-act-3'")
    assert "incomplete documents" in _problems(store.doctor())
    store.doctor(fix=True)
    assert _ingest(store, paths, home)[2] == "updated"
    assert _problems(store.doctor()) == {}


def _doctor_cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CIVICSETU_HOME": str(home), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "civicsetu.cli", "doctor", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_cli_exit_codes_and_json(indexed: tuple[SQLiteStore, list[Path], Path]) -> None:
    store, _, home = indexed
    proc = _doctor_cli(home, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["remaining"] == 0
    _raw(store).execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks "
                        "LIMIT 4)")
    proc = _doctor_cli(home)
    assert proc.returncode == 1 and "4 problems remain; run with --fix" in proc.stdout
    proc = _doctor_cli(home, "--fix", "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["remaining"] == 0
    assert {f["check"]: f["fixed"] for f in report["findings"]}["full-text index"] == 4


def test_cli_on_a_damaged_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "civicsetu.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)
    proc = _doctor_cli(home)
    assert proc.returncode == 6, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("error: cannot open")
