"""Writing a new document resolves only the references it can change, with the same result
as resolving every reference in the index again (``sqlite_graph.resolve_new_document``,
``postgres_graph.resolve_new_document``), on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.corpus import bundled_acts
from civicsetu.ingest.loader import load_source
from civicsetu.ingest.pipeline import parse_document
from civicsetu.store.base import Store
from civicsetu.store.sqlite import SQLiteStore
from civicsetu.types import DocType, ParsedDocument
from tests.store.corpus import write_corpus
from tests.store.test_graph import ACT, RULES

Snapshot = tuple[dict[int, str | None], set[tuple[str, str, str, str]]]


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> list[ParsedDocument]:
    """The bundled Acts, generated Acts citing each other, an Act and a rule made under it."""
    tmp_path = tmp_path_factory.mktemp("sources")
    settings = Settings(home=tmp_path)
    act = tmp_path / "model-housing-act-2030.md"
    act.write_text(ACT, encoding="utf-8")
    rules = tmp_path / "model-housing-rules-2031.txt"
    rules.write_text(RULES, encoding="utf-8")
    documents = [load_source(a.path, doc_id=a.id, extra_aliases=a.aliases)[0]
                 for a in bundled_acts()]
    documents += [load_source(p, doc_id=p.stem)[0]
                  for p in write_corpus(tmp_path / "generated", 4)]
    documents.append(load_source(act, doc_id="model-housing-act-2030")[0])
    documents.append(load_source(rules, doc_id="model-housing-rules-2031",
                                 doc_type=DocType.RULES, parent_id="model-housing-act-2030",
                                 title="Model Housing Rules, 2031")[0])
    return [parse_document(d, settings) for d in documents]


def _sqlite_snapshot(path: Path) -> Snapshot:
    with sqlite3.connect(path) as c:
        refs = {int(r[0]): r[1] for r in c.execute("SELECT rowid, dst FROM refs")}
        edges = {(str(r[0]), str(r[1]), str(r[2]), str(r[3]))
                 for r in c.execute("SELECT src, dst, type, doc_id FROM edges")}
    return refs, edges


def _pg_snapshot(url: str) -> Snapshot:
    import psycopg

    with psycopg.connect(url) as c:
        refs = {int(r[0]): r[1] for r in c.execute("SELECT id, dst FROM refs").fetchall()}
        edges = {(str(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in c.execute(
            "SELECT src, dst, type, doc_id FROM edges").fetchall()}
    return refs, edges


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest,
            tmp_path: Path) -> Iterator[tuple[Store, Callable[[], Snapshot]]]:
    """An empty store of each kind and a function reading its refs and edges raw."""
    store: Store
    if request.param == "sqlite":
        path = tmp_path / "index.db"
        store = SQLiteStore(path)
        yield store, lambda: _sqlite_snapshot(path)
    else:
        from civicsetu.store.postgres import PostgresStore

        url = str(request.getfixturevalue("pg_url"))
        store = PostgresStore(url, pool_size=1)
        yield store, lambda: _pg_snapshot(url)
    store.close()


@pytest.mark.parametrize("order", ["as listed", "reversed"])
def test_each_new_document_leaves_what_a_whole_pass_would(
        backend: tuple[Store, Callable[[], Snapshot]], documents: list[ParsedDocument],
        order: str) -> None:
    store, snapshot = backend
    parsed = list(documents)
    if order == "reversed":  # rules before their Act, Acts before the Acts they cite
        parsed.reverse()
    resolved = 0
    for doc in parsed:
        store.replace_document(doc, "no-vectors", {})
        incremental = snapshot()
        store.resolve_references()
        assert snapshot() == incremental, doc.document.id
        resolved = sum(dst is not None for dst in incremental[0].values())
    refs, edges = snapshot()
    # The corpus exercises what the shortcut must get right: references across documents
    # by id and by name, a rule derived from its Act, and references left unresolved.
    assert resolved > 1000 and None in refs.values()
    assert any(t == "REFERENCES" and s.split("#")[0] != d.split("#")[0]
               for s, d, t, _ in edges)
    assert ("model-housing-rules-2031#r.2", "model-housing-act-2030#s.2", "DERIVED_FROM",
            "model-housing-rules-2031") in edges


def test_both_orders_end_with_the_same_graph(
        backend: tuple[Store, Callable[[], Snapshot]], documents: list[ParsedDocument],
        tmp_path: Path) -> None:
    """Ingesting in the opposite order (each document resolved incrementally) gives the
    same resolved targets and the same edges as the listed order."""
    store, snapshot = backend
    for doc in documents:
        store.replace_document(doc, "no-vectors", {})
    forward = snapshot()
    for doc in documents:
        store.delete_document(doc.document.id)
    for doc in reversed(documents):
        store.replace_document(doc, "no-vectors", {})
    backward = snapshot()

    def by_reference(refs: dict[int, str | None]) -> list[str | None]:
        return sorted(refs.values(), key=lambda d: d or "")

    assert backward[1] == forward[1]
    assert by_reference(backward[0]) == by_reference(forward[0])


def test_a_new_version_of_a_stored_document_is_resolved_whole(
        backend: tuple[Store, Callable[[], Snapshot]],
        documents: list[ParsedDocument]) -> None:
    store, snapshot = backend
    for doc in documents:
        store.replace_document(doc, "no-vectors", {})
    store.replace_document(documents[0], "no-vectors", {})  # the same id again
    again = snapshot()
    store.resolve_references()
    assert snapshot() == again
