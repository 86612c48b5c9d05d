"""``doctor`` on a real PostgreSQL server: each fault is made on purpose with plain SQL (as a
restore, a tool or a hand edit could), the check finds it, ``--fix`` repairs what it can
and re-ingest the rest, and the CLI's exit code says whether problems remain."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from civicsetu.config import Settings
from civicsetu.embed import get_embedder
from civicsetu.ingest.pipeline import ingest
from civicsetu.store import open_store
from civicsetu.store.base import Finding, Store
from civicsetu.store.postgres_schema import vector_index_name
from tests.store.corpus import EMBEDDER, HashEmbedder, specs, write_corpus

Indexed = tuple[Store, list[Path], Settings]


def _settings(home: Path, url: str) -> Settings:
    return Settings(home=home, embedder=EMBEDDER, store=url)


@pytest.fixture()
def indexed(pg_url: str, tmp_path: Path) -> Iterator[Indexed]:
    paths = write_corpus(tmp_path / "src", 3)
    st = _settings(tmp_path / "home", pg_url)
    store = open_store(st)
    _ingest(store, paths, st)
    yield store, paths, st
    store.close()


def _ingest(store: Store, paths: list[Path], st: Settings) -> list[str]:
    return [r.status for r in ingest(specs(paths), store, get_embedder(st.embedder), st)]


def _problems(findings: list[Finding]) -> dict[str, int]:
    return {f.check: f.problems for f in findings if f.problems}


def _sql(st: Settings, sql: str, params: tuple[Any, ...] = (), *,
         replica: bool = False) -> list[tuple[Any, ...]]:
    """Run ``sql`` on its own connection; ``replica`` turns foreign keys and triggers off
    (``session_replication_role``), as a restore or a bulk tool may."""
    import psycopg

    with psycopg.connect(st.store, autocommit=True) as c:
        if replica:
            c.execute("SET session_replication_role = replica")
        cur = c.execute(sql, params)
        return cur.fetchall() if cur.description else []


def test_a_clean_index_has_no_problems(indexed: Indexed) -> None:
    store, _, _ = indexed
    findings = store.doctor()
    assert _problems(findings) == {}
    assert {f.check for f in findings} >= {
        "schema version", "orphan rows", "edges to missing provisions", "keyword index",
        "reference edges", "vectors", "HNSW index", "incomplete documents", "provenance"}


def test_fix_drops_orphan_rows(indexed: Indexed) -> None:
    store, _, st = indexed
    ghost = _sql(st, "INSERT INTO chunks (id, doc_id, provision_path, section, ordinal, start,"
                 ' "end", text, embed_hash) VALUES (\'ghost-c\', \'ghost\', \'s.1\', \'s.1\','
                 " 0, 0, 1, 'ghostly text', 'h') RETURNING rowid", replica=True)[0][0]
    _sql(st, "INSERT INTO chunk_terms VALUES ('ghost', %s, 1), ('ghost', 999999, 1)", (ghost,),
         replica=True)
    _sql(st, "DELETE FROM documents WHERE id = 'test-act-3'", replica=True)  # no cascade
    found = _problems(store.doctor())
    assert found["orphan rows"] > 10, found
    # Other documents' references into the deleted one now end nowhere.
    assert found["edges to missing provisions"] > 0, found
    assert store.keyword_search('"ghost"', 10) != []  # the orphan is still findable
    assert sum(f.remaining for f in store.doctor(fix=True)) == 0
    assert _problems(store.doctor()) == {}
    assert store.keyword_search('"ghost"', 10) == []
    assert _sql(st, "SELECT count(*) FROM provisions WHERE doc_id = 'test-act-3'") == [(0,)]


def test_fix_drops_edges_to_missing_provisions(indexed: Indexed) -> None:
    store, _, st = indexed
    _sql(st, "INSERT INTO edges VALUES ('test-act-1', 'test-act-1#s.99', 'HAS_PART',"
             " 'test-act-1'), ('test-act-2#s.77', 'test-act-1#s.1', 'DERIVED_FROM',"
             " 'test-act-2')")
    assert _problems(store.doctor()) == {"edges to missing provisions": 2}
    assert sum(f.remaining for f in store.doctor(fix=True)) == 0
    assert _problems(store.doctor()) == {}
    assert [e.dst for e in store.edges("test-act-1", "out") if e.dst.endswith("s.99")] == []


def test_fix_rebuilds_the_keyword_index(indexed: Indexed) -> None:
    store, _, st = indexed
    rowids = [r[0] for r in _sql(st, "SELECT rowid FROM chunks ORDER BY rowid LIMIT 3")]
    _sql(st, "DELETE FROM chunk_terms WHERE rowid = %s", (rowids[0],))
    _sql(st, "UPDATE chunk_terms SET tf = tf + 5 WHERE rowid = %s AND lexeme = 'record'",
         (rowids[1],))
    _sql(st, "INSERT INTO chunk_terms VALUES ('ghost', %s, 1)", (rowids[2],))
    assert rowids[0] not in [r for r, _ in store.keyword_search('"record"', 1000)]
    assert _problems(store.doctor()) == {"keyword index": 3}
    fixed = store.doctor(fix=True)
    assert {f.check: f.fixed for f in fixed}["keyword index"] == 3
    assert _problems(store.doctor()) == {}
    assert rowids[0] in [r for r, _ in store.keyword_search('"record"', 1000)]
    assert store.keyword_search('"ghost"', 10) == []


def test_fix_restores_lost_and_stale_reference_edges(indexed: Indexed) -> None:
    store, _, st = indexed
    lost = _sql(st, "DELETE FROM edges WHERE type = 'REFERENCES' AND doc_id = 'test-act-2'"
                    " RETURNING src")
    _sql(st, "INSERT INTO edges VALUES ('test-act-1#s.1', 'test-act-3#s.2', 'REFERENCES',"
             " 'test-act-1')")
    found = _problems(store.doctor())
    assert found == {"reference edges": len(lost) + 1} and lost, found
    assert sum(f.remaining for f in store.doctor(fix=True)) == 0
    assert _problems(store.doctor()) == {}


def test_a_missing_vector_marks_the_document_for_reingest(indexed: Indexed) -> None:
    store, paths, st = indexed
    _sql(st, "DELETE FROM embeddings WHERE text_hash = (SELECT embed_hash FROM chunks "
             "WHERE doc_id = 'test-act-2' ORDER BY rowid LIMIT 1)")
    assert _problems(store.doctor()) == {"vectors": 1}
    findings = store.doctor(fix=True)
    assert sum(f.remaining for f in findings) == 1  # test-act-2 now waits for re-ingest
    assert _problems(store.doctor()) == {"incomplete documents": 1}
    assert _ingest(store, paths, st) == ["unchanged", "updated", "unchanged"]
    assert _problems(store.doctor()) == {}


def test_a_document_without_provisions_is_incomplete(indexed: Indexed) -> None:
    store, paths, st = indexed
    _sql(st, "DELETE FROM provisions WHERE doc_id = 'test-act-3'")
    found = _problems(store.doctor())
    assert "incomplete documents" in found, found
    store.doctor(fix=True)
    assert _ingest(store, paths, st)[2] == "updated"
    assert _problems(store.doctor()) == {}


def test_a_missing_or_invalid_hnsw_index_is_rebuilt(indexed: Indexed) -> None:
    store, _, st = indexed
    name = vector_index_name(HashEmbedder.model_id)
    valid = f"SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('{name}')"
    assert _sql(st, valid) == [(True,)]
    _sql(st, f"DROP INDEX {name}")
    found = store.doctor()
    assert _problems(found) == {"HNSW index": 1}
    assert "missing" in next(f.detail for f in found if f.check == "HNSW index")
    assert sum(f.remaining for f in store.doctor(fix=True)) == 0
    assert _sql(st, valid) == [(True,)]
    # A failed CREATE INDEX CONCURRENTLY leaves an index PostgreSQL never uses.
    _sql(st, f"UPDATE pg_index SET indisvalid = false WHERE indexrelid = '{name}'::regclass")
    found = store.doctor()
    assert "invalid" in next(f.detail for f in found if f.check == "HNSW index")
    assert sum(f.remaining for f in store.doctor(fix=True)) == 0
    assert _sql(st, valid) == [(True,)]
    assert _problems(store.doctor()) == {}


def test_a_migration_missing_from_the_record_is_reported(indexed: Indexed) -> None:
    store, _, st = indexed
    last = _sql(st, "DELETE FROM civicsetu_migrations WHERE name = (SELECT max(name) FROM"
                    " civicsetu_migrations) RETURNING name")[0][0]
    found = store.doctor(fix=True)
    assert _problems(found) == {"schema version": 1}
    assert sum(f.remaining for f in found) == 1  # not something --fix can decide
    assert last in next(f.detail for f in found if f.check == "schema version")
    _sql(st, "INSERT INTO civicsetu_migrations (name) VALUES (%s)", (last,))
    assert _problems(store.doctor()) == {}


def _doctor_cli(st: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CIVICSETU_HOME": str(st.home), "CIVICSETU_STORE": st.store,
           "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "civicsetu.cli", "doctor", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_cli_exit_codes_and_json(indexed: Indexed) -> None:
    _, _, st = indexed
    proc = _doctor_cli(st, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["remaining"] == 0
    _sql(st, "DELETE FROM chunk_terms WHERE rowid IN (SELECT rowid FROM chunks ORDER BY"
             " rowid LIMIT 4)")
    proc = _doctor_cli(st)
    assert proc.returncode == 1 and "4 problems remain; run with --fix" in proc.stdout
    proc = _doctor_cli(st, "--fix", "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["remaining"] == 0, proc.stdout
    assert {f["check"]: f["fixed"] for f in report["findings"]}["keyword index"] == 4
