"""A newer parser re-parses an unchanged document once: an index written by an older
CivicSetu must not keep quoting provision ids the current parser no longer mints.

Both backends, through the real ingest pipeline: a real SQLite file, and a real PostgreSQL
server (``conftest.pg_url``; skipped when none is available, a failure under CI). The
stored version is lowered with plain SQL, as an index from before the version existed
would have it (the migration's default, 0).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from civicsetu.config import Settings
from civicsetu.embed import get_embedder
from civicsetu.errors import NotFoundError
from civicsetu.ingest.pipeline import REPARSED, IngestReport, ingest
from civicsetu.ingest.version import PARSER_VERSION
from civicsetu.store import SQLiteStore, open_store
from civicsetu.store.base import Store
from tests.conftest import SMALL_ACT
from tests.store.contract import parse, put
from tests.store.corpus import EMBEDDER, specs

DOC = "model-tenancy-act-2099"


@dataclass
class Backend:
    store: Store
    settings: Settings
    sql: Callable[[str], None]


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    home = tmp_path / "home"
    if request.param == "sqlite":
        db = home / "civicsetu.db"
        store: Store = SQLiteStore(db)

        def run(sql: str) -> None:
            conn = sqlite3.connect(db)
            with conn:
                conn.execute(sql)
            conn.close()

        yield Backend(store, Settings(home=home, embedder=EMBEDDER), run)
        store.close()
        return
    url = request.getfixturevalue("pg_url")
    import psycopg

    def run_pg(sql: str) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql)

    settings = Settings(home=home, embedder=EMBEDDER, store=url)
    store = open_store(settings)
    yield Backend(store, settings, run_pg)
    store.close()


@pytest.fixture()
def act(tmp_path: Path) -> Path:
    path = tmp_path / "src" / f"{DOC}.md"
    path.parent.mkdir()
    path.write_text(SMALL_ACT, encoding="utf-8")
    return path


def _ingest(b: Backend, path: Path, **kwargs: Any) -> IngestReport:
    [report] = ingest(specs([path]), b.store, get_embedder(b.settings.embedder), b.settings,
                      **kwargs)
    return report


def test_an_index_from_an_older_parser_is_reparsed_once(backend: Backend, act: Path) -> None:
    first = _ingest(backend, act)
    assert first.status == "added" and not first.message
    assert backend.store.parser_version(DOC) == PARSER_VERSION
    backend.sql(f"UPDATE documents SET parser_version = 0 WHERE id = '{DOC}'")
    assert backend.store.parser_version(DOC) == 0

    again = _ingest(backend, act)  # no --force
    assert (again.status, again.message) == ("updated", REPARSED)
    # Same text, same chunks: every vector comes from the embeddings cache.
    assert again.chunks == first.chunks and (again.embedded, again.reused) == (0, first.chunks)
    assert backend.store.parser_version(DOC) == PARSER_VERSION

    third = _ingest(backend, act)
    assert third.status == "unchanged"
    forced = _ingest(backend, act, force=True)
    assert forced.status == "updated" and REPARSED not in forced.message


def test_the_old_parse_is_replaced_not_kept_as_history(backend: Backend, act: Path) -> None:
    """An older parser minted a clause the law does not have (as ``s.73(a)`` was minted
    from an Illustration); the re-parse removes it everywhere, and since the text did not
    change, it does not survive as a superseded version either."""
    parsed = parse(act, doc_id=DOC)
    s31 = next(p for p in parsed.provisions if p.path == "s.3(1)")
    ghost = replace(s31, path="s.3(1)(a)", parent_path="s.3(1)", ordinal=s31.ordinal)
    put(backend.store, replace(parsed, provisions=(*parsed.provisions, ghost),
                               parser_version=0))
    assert backend.store.provision(f"{DOC}#s.3(1)(a)").text == s31.text

    report = _ingest(backend, act)
    assert (report.status, report.message) == ("updated", REPARSED)
    with pytest.raises(NotFoundError):
        backend.store.provision(f"{DOC}#s.3(1)(a)")
    assert backend.store.history(f"{DOC}#s.3(1)(a)") == []
    assert [p.path for p in backend.store.provisions_of_section(DOC, "s.3")] == [
        p.path for p in parsed.provisions if p.section == "s.3"]


def test_a_text_once_indexed_in_part_is_reparsed_in_part(backend: Backend,
                                                         tmp_path: Path) -> None:
    """A file the user indexed with --allow-partial is not refused by the upgrade's
    re-parse: the index already holds it in part, by the user's choice."""
    path = tmp_path / "src" / "partial-notes-2099.md"
    path.parent.mkdir(exist_ok=True)
    prose = "An unnumbered paragraph of commentary about the Act and its history. " * 40
    path.write_text(f"{prose}\n\n## Section 1 - Short title\n\nThis is the Notes Act.\n",
                    encoding="utf-8")
    first = _ingest(backend, path, allow_partial=True)
    assert first.status == "added" and "only" in first.message
    doc = first.doc_id
    backend.sql(f"UPDATE documents SET parser_version = 0 WHERE id = '{doc}'")
    again = _ingest(backend, path)  # neither --force nor --allow-partial
    assert again.status == "updated"
    assert again.message.startswith(REPARSED) and "only" in again.message
    assert backend.store.parser_version(doc) == PARSER_VERSION
