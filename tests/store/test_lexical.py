"""In-memory BM25 (store.lexical) ranks exactly as FTS5's bm25() does, follows every write
(its own and another connection's, superseded versions included) and hands any other
FTS5 syntax to FTS5."""

from __future__ import annotations

import logging
import sqlite3
import threading
from datetime import date
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.query import analyze, fts_query
from civicsetu.store import dense_settings
from civicsetu.store.lexical import LexicalIndex, Tokenizer, parse_or_query
from civicsetu.store.sqlite import SQLiteStore
from tests.conftest import SMALL_ACT

QUERIES = [
    fts_query(["landlord's", "refund", "deposit"]),
    fts_query(["security", "deposit", "tenant"]),
    fts_query(["two", "months", "rent"]),
    fts_query(["penalty", "eviction", "rent-court"]),  # a phrase spanning whitespace
    fts_query(["model", "tenancy"]),  # title words (weighted 2x)
    fts_query(["nothing-like-this", "zzz"]),
]


def _acts(tmp_path: Path, n: int, offset: int = 0, change: str = "") -> list[SourceSpec]:
    specs = []
    for i in range(offset, offset + n):
        path = tmp_path / f"act-{i}.md"
        text = SMALL_ACT.replace("Model Tenancy Act, 2099", f"Model Tenancy Act No. {i}, 2099")
        text = text.replace("two months' rent", f"{i + 2} months' rent{change}")
        path.write_text(text, encoding="utf-8")
        specs.append(SourceSpec(path, doc_id=f"act-{i}"))
    return specs


def _fts(home: Path) -> SQLiteStore:
    settings = Settings(home=home, bm25_index="fts")
    return SQLiteStore(settings.resolved_db_path, dense_settings(settings))


def _same(memory: list[tuple[int, float]], fts: list[tuple[int, float]]) -> None:
    assert [r for r, _ in memory] == [r for r, _ in fts]
    for (_, a), (_, b) in zip(memory, fts, strict=True):
        assert a == pytest.approx(b, rel=1e-9)


def _compare(engine: Engine, fts: SQLiteStore, **kw: object) -> int:
    found = 0
    for query in QUERIES:
        memory = engine.store.keyword_search(query, 20, **kw)  # type: ignore[arg-type]
        _same(memory, fts.keyword_search(query, 20, **kw))  # type: ignore[arg-type]
        found += len(memory)
    return found


def test_memory_bm25_equals_fts5_and_follows_writes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Engine(Settings(home=home)) as engine:
        engine.ingest(_acts(tmp_path, 3))
        fts = _fts(home)
        assert _compare(engine, fts) > 0
        assert _compare(engine, fts, doc_ids=["act-1", "act-2"]) > 0
        assert engine.store.delete_document("act-0")  # this connection writes
        assert _compare(engine, fts) > 0
        hits = engine.store.keyword_search(QUERIES[1], 50)
        assert {r.doc_id for r in engine.store.chunks([r for r, _ in hits])} == {"act-1",
                                                                                 "act-2"}
        assert fts.delete_document("act-1")  # another connection writes
        hits = engine.store.keyword_search(QUERIES[1], 50)
        assert {r.doc_id for r in engine.store.chunks([r for r, _ in hits])} == {"act-2"}
        # A changed version supersedes section 3: now and as of before the change.
        engine.ingest(_acts(tmp_path, 1, offset=2, change=" or more"))
        assert _compare(engine, fts) > 0
        assert _compare(engine, fts, as_of=date(2000, 1, 1)) >= 0
        assert _compare(engine, fts, as_of=date.today()) > 0
        fts.close()


def test_saved_postings_are_reloaded_and_resynced(tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    home = tmp_path / "home"
    db = home / "civicsetu.db"
    with Engine(Settings(home=home)) as engine:
        engine.ingest(_acts(tmp_path, 3))
        first = engine.store.keyword_search(QUERIES[1], 20)
    saved = LexicalIndex.file(db)
    assert saved is not None and saved.is_file()
    caplog.set_level(logging.INFO, logger="civicsetu.store.lexical")
    store = SQLiteStore(db)
    assert store.keyword_search(QUERIES[1], 20) == first
    assert "lexical_loaded" in caplog.text and "lexical_built" not in caplog.text
    store.close()
    # Written while no process held the postings: the document's stamp changed.
    fts = _fts(home)
    assert fts.delete_document("act-0")
    fts.close()
    caplog.clear()
    store, fts = SQLiteStore(db), _fts(home)
    for query in QUERIES:
        _same(store.keyword_search(query, 20), fts.keyword_search(query, 20))
    assert "refreshed=1" in caplog.text
    store.close()
    # A change that stamps no document (as a repair may make) is caught by the row count.
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM chunks_fts WHERE rowid = (SELECT max(rowid) FROM chunks)")
    conn.execute("DELETE FROM chunks WHERE rowid = (SELECT max(rowid) FROM chunks)")
    conn.commit()
    conn.close()
    caplog.clear()
    store = SQLiteStore(db)
    for query in QUERIES:
        _same(store.keyword_search(query, 20), fts.keyword_search(query, 20))
    assert "lexical_file_stale" in caplog.text
    store.close()
    fts.close()


def test_other_fts5_syntax_goes_to_fts5(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Engine(Settings(home=home)) as engine:
        engine.ingest(_acts(tmp_path, 2))
        assert parse_or_query('"security" OR "deposit"') == ["security", "deposit"]
        assert parse_or_query('"say ""hi"""') == ['say "hi"']
        for query in ("security AND deposit", 'NEAR("security" "refund", 3)', "secur*"):
            assert parse_or_query(query) is None
            fts = _fts(home)
            assert engine.store.keyword_search(query, 10) == fts.keyword_search(query, 10)
            fts.close()


def test_tokenizer_is_the_fts_tables_own() -> None:
    tokenizer = Tokenizer("'porter unicode61 remove_diacritics 2'")
    assert tokenizer.tokens("The Landlord's duties, sub-section (2); café") == [
        "the", "landlord", "s", "duti", "sub", "section", "2", "cafe"]


QUESTIONS = ["What is the penalty if a promoter does not register a real estate project?",
             "Can a buyer's complaint about a flat go to the consumer commission?",
             "How long does the collector have to make an award after the declaration?",
             "Who appoints the information commissioner and for how long?"]


@pytest.mark.slow
def test_bundle_rankings_equal_fts5(bundled_home: Path) -> None:
    """Every dev-style question's top 60 on the bundled Acts, as FTS5 ranks it."""
    memory_store = SQLiteStore(bundled_home / "civicsetu.db")
    fts = _fts(bundled_home)
    for question in QUESTIONS:
        analysis = analyze(question, [])
        query = fts_query(analysis.terms + [w for e in analysis.expansions for w in e.split()])
        memory = memory_store.keyword_search(query, 60)
        assert len(memory) == 60
        _same(memory, fts.keyword_search(query, 60))
    memory_store.close()
    fts.close()


def test_a_new_document_is_appended_as_a_full_build_would_hold_it(tmp_path: Path) -> None:
    """Adding a document appends its postings (no renumbering, no merge of every entry);
    the result holds, term by term, what building from scratch holds."""
    home = tmp_path / "home"
    with Engine(Settings(home=home)) as engine:
        engine.ingest(_acts(tmp_path, 2))
        assert engine.store.keyword_search(QUERIES[1], 5)
        index = engine.store._lexical_index()  # type: ignore[attr-defined]
        engine.ingest(_acts(tmp_path, 2, offset=2))
        engine.store.keyword_search(QUERIES[1], 5)
        assert index.last_refresh == "append" and len(index.stamps) == 4
        conn = sqlite3.connect(home / "civicsetu.db")
        fresh = LexicalIndex(conn, None)
        assert list(index.rowids) == list(fresh.rowids)
        assert index.vocab.keys() == fresh.vocab.keys()
        for term, tid in fresh.vocab.items():
            pos, freq = fresh.unigrams.get(tid)
            mine, my_freq = index.unigrams.get(index.vocab[term])
            assert list(index.rowids[mine]) == list(fresh.rowids[pos]), term
            assert list(my_freq) == list(freq), term
        for query in QUERIES:
            phrases = parse_or_query(query)
            assert phrases is not None
            assert index.search(phrases, 20, None, None) == fresh.search(phrases, 20, None,
                                                                          None)
        # A changed document is merged (its old rows go): the general path.
        engine.ingest(_acts(tmp_path, 1, offset=0, change=" or more"))
        engine.store.keyword_search(QUERIES[1], 5)
        assert index.last_refresh == "merge"
        conn.close()


def test_stores_closing_at_once_in_threads_each_save_whole_postings(tmp_path: Path) -> None:
    # Threads of one process share a pid: a temp file named by the pid was renamed away
    # under another thread's store (FileNotFoundError in tests/store/test_concurrency.py).
    home = tmp_path / "home"
    db = home / "civicsetu.db"
    with Engine(Settings(home=home)) as engine:
        engine.ingest(_acts(tmp_path, 3))
    saved = LexicalIndex.file(db)
    assert saved is not None
    stores = []
    for _ in range(6):
        saved.unlink(missing_ok=True)
        store = SQLiteStore(db)
        store.keyword_search(QUERIES[1], 20)  # built, not loaded: worth saving on close
        stores.append(store)
    start, errors = threading.Barrier(len(stores)), []

    def close(store: SQLiteStore) -> None:
        start.wait()
        try:
            store.close()
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=close, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(p.name for p in saved.parent.iterdir() if p.name.endswith(".tmp")) == []
    fresh, fts = SQLiteStore(db), _fts(home)
    for query in QUERIES:
        _same(fresh.keyword_search(query, 20), fts.keyword_search(query, 20))
    fresh.close()
    fts.close()
