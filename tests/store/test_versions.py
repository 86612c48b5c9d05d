"""Versions: a changed document supersedes changed sections and keeps their history."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.hybrid import SearchFilters

V1 = """# The Model Deposit Act, 2030.

## Section 1 - Short title.

This Act may be called the Model Deposit Act, 2030.

## Section 2 - Security deposit.

The security deposit for a residential premises shall not exceed two months' rent.

## Section 3 - Refund of deposit.

The landlord shall refund the security deposit within one month of the tenant vacating.

## Section 4 - Interest on deposit.

A deposit held beyond the refund date carries interest at six per cent.
"""

V2 = V1.replace("within one month of the tenant vacating",
                "within fifteen days of the tenant vacating").replace(
    """## Section 4 - Interest on deposit.

A deposit held beyond the refund date carries interest at six per cent.
""", """## Section 5 - Deposit register.

Every landlord shall keep a register of deposits received.
""")

DOC = "model-deposit-act-2030"
OLD, NEW = date(2030, 6, 1), date(2032, 1, 1)


@pytest.fixture()
def engine(tmp_path: Path) -> Engine:
    path = tmp_path / f"{DOC}.md"
    engine = Engine(Settings(home=tmp_path / "home"))
    path.write_text(V1, encoding="utf-8")
    first = engine.ingest([SourceSpec(path, effective_date=date(2030, 1, 1))])
    assert first[0].status == "added"
    path.write_text(V2, encoding="utf-8")
    second = engine.ingest([SourceSpec(path, effective_date=date(2031, 6, 1))])
    assert second[0].status == "updated"
    assert second[0].reused >= 2  # unchanged sections were not embedded again
    return engine


def test_unchanged_sections_keep_their_dates_and_changed_ones_supersede(engine: Engine) -> None:
    with engine:
        assert engine.show(f"{DOC}#s.2").valid_from == date(2030, 1, 1)
        current = engine.show(f"{DOC}#s.3")
        assert current.valid_from == date(2031, 6, 1) and "fifteen days" in current.text
        old = engine.show(f"{DOC}#s.3", OLD)
        assert old.valid_to == date(2031, 6, 1) and "one month" in old.text
        versions = engine.store.history(f"{DOC}#s.3")
        assert ["one month" in v.text for v in versions] == [True, False]


def test_removed_and_added_sections_by_date(engine: Engine) -> None:
    with engine:
        with pytest.raises(NotFoundError):
            engine.show(f"{DOC}#s.4")
        assert "six per cent" in engine.show(f"{DOC}#s.4", OLD).text
        with pytest.raises(NotFoundError, match="in force on 2030-06-01"):
            engine.show(f"{DOC}#s.5", OLD)
        assert "register" in engine.show(f"{DOC}#s.5", NEW).text


def test_search_and_ask_as_of_a_date(engine: Engine) -> None:
    query = "When must the landlord refund the security deposit?"
    with engine:
        now = engine.search(query, k=5)
        assert all("one month" not in h.text for h in now.hits)
        then = engine.search(query, k=5, filters=SearchFilters(as_of=OLD))
        assert any("one month" in h.text for h in then.hits)
        assert all(h.provision_path != "s.5" for h in then.hits)
        answer = engine.ask(query, filters=SearchFilters(as_of=OLD))
        assert not answer.abstained
        assert any("one month" in c.quote for c in answer.citations)
        assert engine.ask(query).citations[0].quote != answer.citations[0].quote


def test_a_document_changed_back_and_forth_keeps_every_version(tmp_path: Path) -> None:
    """A -> B -> A -> B used to fail with ``UNIQUE constraint failed: chunks.id``: the
    superseded chunks of the second A were re-keyed to the same id as the first A's.
    Found by tests/store/test_concurrency.py."""
    from civicsetu.embed import get_embedder
    from civicsetu.ingest.pipeline import ingest
    from civicsetu.store import SQLiteStore
    from tests.store.corpus import act_text, settings, specs

    st = settings(tmp_path / "home")
    store = SQLiteStore(st.resolved_db_path)
    path = tmp_path / "test-act-1.md"
    a, b = act_text(1), act_text(1).replace("keep record 3", "keep ledger 3")
    try:
        statuses = []
        for text in (a, b, a, b):
            path.write_text(text, encoding="utf-8")
            statuses += [r.status for r in ingest(specs([path]), store,
                                                  get_embedder(st.embedder), st)]
        assert statuses == ["added", "updated", "updated", "updated"]
        assert "ledger 3" in store.provision("test-act-1#s.3").text
        assert [f for f in store.doctor() if f.problems] == []
    finally:
        store.close()
