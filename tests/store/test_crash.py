"""Crash consistency: ingest and delete are killed with SIGKILL at random points, many of
them inside the store's write, and after every kill the index must open, ``doctor`` must
find nothing, every document must be wholly there (in one of its versions) or wholly
absent, and ingesting again must complete without duplicates.

The writer is a forked child (``multiprocessing`` fork start method), so a run costs
milliseconds rather than an interpreter start-up; it reports "begin"/"end" around each
store write through a pipe, which lets half of the runs aim the kill inside a write.
Deletes are crashed through ``Store.delete_document``, the one transaction that
``civicsetu documents remove`` (``Engine.remove_document``, branch i9a) runs; killing the
CLI process instead would add an interpreter start-up to every run, not another code path.

``CIVICSETU_CRASH_RUNS`` (default 60) sets the number of kills per test family split as
ingest-into-empty, ingest-over-older-version and delete (one third each).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import shutil
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from civicsetu.embed import get_embedder
from civicsetu.ingest.loader import load_document
from civicsetu.ingest.pipeline import ingest, parse_document
from civicsetu.store import SQLiteStore
from tests.store.corpus import act_text, settings, specs

RUNS = int(os.environ.get("CIVICSETU_CRASH_RUNS", "60"))
DOCS = 6
SECTIONS = 60
CTX = mp.get_context("fork")


@dataclass(frozen=True)
class Version:
    content_hash: str
    provisions: int
    chunks: int


def _write_versions(folder: Path, version: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(1, DOCS + 1):
        if version == 1:
            text = act_text(n, sections=SECTIONS, others=DOCS)
        else:  # two sections added, sections 3 and 30-39 reworded
            text = act_text(n, sections=SECTIONS + 2, others=DOCS).replace(
                "keep record 3", "keep ledger 3")
        path = folder / f"test-act-{n}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _expected(paths: list[Path], home: Path) -> dict[str, Version]:
    st = settings(home)
    out = {}
    for path in paths:
        document = load_document(path)
        parsed = parse_document(document, st)
        out[document.id] = Version(document.content_hash, len(parsed.provisions),
                                   len(parsed.chunks))
    return out


class _Reporting:
    """Wraps the store so the parent learns when each write begins and ends."""

    def __init__(self, store: SQLiteStore, pipe: Connection) -> None:
        self._store, self._pipe = store, pipe

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def replace_document(self, parsed: Any, *args: Any) -> None:
        self._pipe.send(("begin", parsed.document.id))
        self._store.replace_document(parsed, *args)
        self._pipe.send(("end", parsed.document.id))

    def delete_document(self, doc_id: str) -> bool:
        self._pipe.send(("begin", doc_id))
        removed = self._store.delete_document(doc_id)
        self._pipe.send(("end", doc_id))
        return removed


def _child_ingest(db: Path, home: Path, paths: list[Path], pipe: Connection) -> None:
    st = settings(home)
    store = _Reporting(SQLiteStore(db), pipe)
    pipe.send(("start", ""))
    ingest(specs(paths), store, get_embedder(st.embedder), st)  # type: ignore[arg-type]
    pipe.send(("done", ""))


def _child_delete(db: Path, home: Path, doc_ids: list[str], pipe: Connection) -> None:
    store = _Reporting(SQLiteStore(db), pipe)
    pipe.send(("start", ""))
    for doc_id in doc_ids:
        store.delete_document(doc_id)
    pipe.send(("done", ""))


def _run_and_kill(target: Callable[..., None], args: tuple[Any, ...], rng: random.Random,
                  write_seconds: float, span_seconds: float) -> str:
    """Run ``target`` in a forked child and SIGKILL it; return where the kill landed."""
    parent, child = CTX.Pipe(duplex=False)
    proc = CTX.Process(target=target, args=(*args, child))
    proc.start()
    child.close()
    events: list[tuple[str, str]] = []

    def receive(timeout: float) -> bool:
        if parent.poll(timeout):
            try:
                events.append(parent.recv())
                return True
            except EOFError:
                return False
        return False

    receive(30)  # "start": the child is running
    if rng.random() < 0.5:  # aim inside the k-th write
        k = rng.randrange(DOCS)
        begins = 0
        deadline = time.monotonic() + 30
        while begins <= k and time.monotonic() < deadline:
            if receive(0.5) and events[-1][0] == "begin":
                begins += 1
            if events and events[-1][0] == "done":
                break
        time.sleep(rng.uniform(0, write_seconds))
    else:  # anywhere in the run
        time.sleep(rng.uniform(0, span_seconds))
    os.kill(proc.pid or 0, signal.SIGKILL)
    proc.join(30)
    while receive(0):
        pass
    parent.close()
    if events and events[-1][0] == "begin":
        return "inside a write"
    if events and events[-1][0] == "done":
        return "after the run"
    return "between writes"


def _check(db: Path, versions: list[dict[str, Version]]) -> set[str]:
    """The index opens, doctor is clean, each document is one whole version; return the
    ids present."""
    store = SQLiteStore(db)
    try:
        findings = store.doctor()
        assert [f for f in findings if f.problems] == [], findings
        present = set()
        for info in store.documents():
            whole = [v for v in versions if info.id in v and
                     v[info.id].content_hash == info.content_hash]
            assert whole, f"{info.id}: content hash of no known version"
            v = whole[0][info.id]
            assert (info.provisions, info.chunks) == (v.provisions, v.chunks), info
            present.add(info.id)
        assert all(p.origin == "user" for p in store.provenance().values())
        return present
    finally:
        store.close()


def _reingest_and_check(db: Path, home: Path, paths: list[Path],
                        final: dict[str, Version]) -> None:
    st = settings(home)
    store = SQLiteStore(db)
    try:
        reports = ingest(specs(paths), store, get_embedder(st.embedder), st)
        assert {r.status for r in reports} <= {"added", "updated", "unchanged"}, reports
        docs = {d.id: d for d in store.documents()}
        assert set(docs) == set(final)
        for doc_id, v in final.items():
            assert (docs[doc_id].provisions, docs[doc_id].chunks, docs[doc_id].content_hash) \
                == (v.provisions, v.chunks, v.content_hash)
        assert [f for f in store.doctor() if f.problems] == []
    finally:
        store.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("crash")
    v1, v2 = _write_versions(root / "v1", 1), _write_versions(root / "v2", 2)
    home = root / "home"
    exp1, exp2 = _expected(v1, home), _expected(v2, home)
    assert all(exp1[d] != exp2[d] for d in exp1)
    # A template index holding version 1, and the time one write takes.
    st = settings(home)
    template = root / "template.db"
    store = SQLiteStore(template)
    t0 = time.perf_counter()
    ingest(specs(v1), store, get_embedder(st.embedder), st)
    span = time.perf_counter() - t0
    store.close()
    scratch = root / "scratch.db"
    shutil.copy(template, scratch)
    store = SQLiteStore(scratch)
    t0 = time.perf_counter()
    for doc_id in sorted(exp1):
        store.delete_document(doc_id)
    delete_span = time.perf_counter() - t0
    store.close()
    return {"root": root, "v1": v1, "v2": v2, "exp1": exp1, "exp2": exp2, "home": home,
            "template": template, "write": span / DOCS, "span": span,
            "delete_write": delete_span / DOCS, "delete_span": delete_span}


@pytest.mark.parametrize("family", ["ingest into empty", "ingest over v1", "delete"])
def test_kill_9_never_leaves_a_partial_document(corpus: dict[str, Any], family: str,
                                                tmp_path: Path) -> None:
    rng = random.Random(f"{family}-9")
    landed: dict[str, int] = {}
    runs = max(1, RUNS // 3)
    for run in range(runs):
        db = tmp_path / f"run{run}.db"
        if family == "ingest into empty":
            target: Callable[..., None] = _child_ingest
            args: tuple[Any, ...] = (db, corpus["home"], corpus["v1"])
            versions, final, paths = [corpus["exp1"]], corpus["exp1"], corpus["v1"]
        elif family == "ingest over v1":
            shutil.copy(corpus["template"], db)
            target, args = _child_ingest, (db, corpus["home"], corpus["v2"])
            versions, final, paths = [corpus["exp1"], corpus["exp2"]], corpus["exp2"], \
                corpus["v2"]
        else:
            shutil.copy(corpus["template"], db)
            target = _child_delete
            args = (db, corpus["home"], sorted(corpus["exp1"]))
            versions, final, paths = [corpus["exp1"]], corpus["exp1"], corpus["v1"]
        key = "delete_" if family == "delete" else ""
        where = _run_and_kill(target, args, rng, corpus[f"{key}write"] * 1.5,
                              corpus[f"{key}span"] * 1.2)
        landed[where] = landed.get(where, 0) + 1
        present = _check(db, versions)
        if family == "delete":
            # Deletes run in id order: what is gone is a prefix, never a middle document.
            order = sorted(corpus["exp1"])
            assert sorted(present) == order[len(order) - len(present):], present
        _reingest_and_check(db, corpus["home"], paths, final)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    print(f"\n{family}: {runs} kills: {landed}")
    assert sum(landed.values()) == runs
