"""Ingest, re-ingest and delete in one process while several threads and another process
search and ask: no errors, and no torn reads (a document is seen wholly in one of its
versions, or not at all).

The writer and the reader process are forked before any reader thread starts; every
reader has its own ``Engine`` (its own SQLite connection), as separate clients would.
``HashEmbedder`` (tests/store/corpus.py) is registered through the real embedder registry:
this test is about what readers see while the store commits, not about ranking.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from civicsetu.embed import get_embedder
from civicsetu.engine import Engine
from civicsetu.errors import NotIngestedError
from civicsetu.ingest.pipeline import ingest
from civicsetu.store import SQLiteStore
from tests.store.corpus import settings, specs
from tests.store.test_crash import DOCS, Version, _expected, _write_versions

CTX = mp.get_context("fork")
ROUNDS = int(os.environ.get("CIVICSETU_CRASH_RUNS", "60")) // 20 + 1
QUESTIONS = ["What penalty may the authority levy for record 3?",
             "Who shall keep record 12 of the Charlie Records Act?",
             "inspect record under section 7"]


def _writer(home: Path, v1: list[Path], v2: list[Path], rounds: int) -> None:
    st = settings(home)
    store = SQLiteStore(st.resolved_db_path)
    embedder = get_embedder(st.embedder)
    for _ in range(rounds):
        for paths in (v1, v2):
            ingest(specs(paths), store, embedder, st)
        for path in v2[: DOCS // 2]:
            store.delete_document(path.stem)
        ingest(specs(v1), store, embedder, st)
    store.close()


def _read_once(engine: Engine, versions: dict[str, list[Version]]) -> int:
    """One round of a client; returns how many documents it saw."""
    docs = engine.documents()
    for d in docs:
        whole = [(v.provisions, v.chunks) for v in versions[d.id]
                 if v.content_hash == d.content_hash]
        assert whole == [(d.provisions, d.chunks)], f"torn read of {d.id}: {d}"
    for question in QUESTIONS:
        try:
            result = engine.search(question)
            assert {h.doc_id for h in result.hits} <= set(versions)
            engine.ask(question)
        except NotIngestedError:
            pass  # the writer had not committed the first document yet
    return len(docs)


def _reader(home: Path, versions: dict[str, list[Version]], stop: threading.Event,
            errors: list[str], seen: list[int]) -> None:
    try:
        with Engine(settings(home)) as engine:
            while not stop.is_set():
                seen.append(_read_once(engine, versions))
    except BaseException:
        errors.append(traceback.format_exc())
        stop.set()


def _reader_process(home: Path, versions: dict[str, list[Version]],
                    pipe: Connection) -> None:
    stop, errors, seen = threading.Event(), [], []  # type: ignore[var-annotated]
    timer = threading.Timer(8.0, stop.set)
    timer.start()
    _reader(home, versions, stop, errors, seen)
    timer.cancel()
    pipe.send((errors, len(seen)))


def test_readers_never_see_a_partial_document_while_ingest_runs(tmp_path: Path) -> None:
    v1 = _write_versions(tmp_path / "v1", 1)
    v2 = _write_versions(tmp_path / "v2", 2)
    home = tmp_path / "home"
    exp1, exp2 = _expected(v1, home), _expected(v2, home)
    versions = {d: [exp1[d], exp2[d]] for d in exp1}
    SQLiteStore(settings(home).resolved_db_path).close()  # schema first, then clients
    writer = CTX.Process(target=_writer, args=(home, v1, v2, ROUNDS))
    parent, child = CTX.Pipe(duplex=False)
    other = CTX.Process(target=_reader_process, args=(home, versions, child))
    writer.start()
    other.start()
    stop = threading.Event()
    errors: list[str] = []
    seen: list[list[int]] = [[] for _ in range(3)]
    threads = [threading.Thread(target=_reader, args=(home, versions, stop, errors, s))
               for s in seen]
    for t in threads:
        t.start()
    writer.join(300)
    stop.set()
    for t in threads:
        t.join(60)
    assert parent.poll(60)
    other_errors, other_rounds = parent.recv()
    other.join(30)
    assert writer.exitcode == 0
    assert errors == [] and other_errors == [], (errors + other_errors)[0]
    counts: list[Any] = [len(s) for s in seen]
    sizes = {n for s in seen for n in s}
    print(f"\nreader rounds per thread {counts}, reader process {other_rounds}, "
          f"documents seen per round {sorted(sizes)}")
    assert all(counts) and other_rounds > 0
    # Rounds ran while the index changed: readers saw different document counts.
    assert len(sizes) > 1
    store = SQLiteStore(settings(home).resolved_db_path)
    try:
        assert [f for f in store.doctor() if f.problems] == []
    finally:
        store.close()


@pytest.fixture(autouse=True)
def _no_stray_children() -> Any:
    yield
    for proc in mp.active_children():
        proc.kill()
