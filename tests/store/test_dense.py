"""Dense search in the SQLite store: HNSW agrees with the exact scan, follows every write
(its own and another connection's), survives a reopen, and filters still return k rows."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.store import open_store
from civicsetu.store.ann import AnnIndex
from tests.conftest import SMALL_ACT

pytest.importorskip("faiss", reason="the [ann] extra is not installed")

QUERY = "how soon must the landlord refund the security deposit"


def _settings(home: Path, ann: str = "on") -> Settings:
    return Settings(home=home, ann=ann, ann_min_chunks=0, ann_exact_below=0)  # type: ignore[arg-type]


def _acts(tmp_path: Path, n: int, offset: int = 0) -> list[SourceSpec]:
    specs = []
    for i in range(offset, offset + n):
        path = tmp_path / f"act-{i}.md"
        text = SMALL_ACT.replace("Model Tenancy Act, 2099", f"Model Tenancy Act No. {i}, 2099")
        path.write_text(text.replace("two months' rent", f"{i + 2} months' rent"),
                        encoding="utf-8")
        specs.append(SourceSpec(path, doc_id=f"act-{i}"))
    return specs


def _both(engine: Engine, **kw: object) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    vector = engine.embedder.embed_query(QUERY)
    model = engine.embedder.model_id
    approx = engine.store.dense_search(model, vector, 5, **kw)  # type: ignore[arg-type]
    exact = engine.store.dense_search(model, vector, 5, exact=True, **kw)  # type: ignore[arg-type]
    return approx, exact


def _doc_of(engine: Engine, rowids: list[int]) -> set[str]:
    return {row.doc_id for row in engine.store.chunks(rowids)}


def test_ann_follows_writes_and_never_serves_deleted_rows(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Engine(_settings(home)) as engine:
        engine.ingest(_acts(tmp_path, 3))
        approx, exact = _both(engine)
        assert [r for r, _ in approx] == [r for r, _ in exact] and len(approx) == 5
        assert engine.store.delete_document("act-0")
        approx, exact = _both(engine)
        assert "act-0" not in _doc_of(engine, [r for r, _ in approx])
        assert [r for r, _ in approx] == [r for r, _ in exact]
        # Another connection deletes a document: this one notices (PRAGMA data_version).
        other = open_store(_settings(home, ann="off"))
        assert other.delete_document("act-1")
        other.close()
        approx, _ = _both(engine)
        assert _doc_of(engine, [r for r, _ in approx]) == {"act-2"}
    assert (AnnIndex.folder(home / "civicsetu.db") / "meta.json").is_file()


def test_saved_index_is_resynced_after_rowids_are_reused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Engine(_settings(home)) as engine:
        engine.ingest(_acts(tmp_path, 2))
        _both(engine)  # builds the HNSW index; closing saves it
    # Without ANN: delete the last document and add another, whose chunks take the
    # freed rowids (SQLite reuses the highest ones) with different vectors.
    with Engine(_settings(home, ann="off")) as engine:
        assert engine.store.delete_document("act-1")
        engine.ingest(_acts(tmp_path, 1, offset=7))
    with Engine(_settings(home)) as engine:
        approx, exact = _both(engine)
        assert [r for r, _ in approx] == [r for r, _ in exact]
        assert [s for _, s in approx] == pytest.approx([s for _, s in exact])
        assert _doc_of(engine, [r for r, _ in approx]) <= {"act-0", "act-7"}


def test_filtered_dense_search_still_returns_k(tmp_path: Path) -> None:
    with Engine(_settings(tmp_path / "home")) as engine:
        engine.ingest(_acts(tmp_path, 4))
        in_doc = next(d.chunks for d in engine.store.documents() if d.id == "act-2")
        approx, exact = _both(engine, doc_ids=["act-2"])
        assert len(approx) == min(5, in_doc) > 0
        assert _doc_of(engine, [r for r, _ in approx]) == {"act-2"}
        assert [r for r, _ in approx] == [r for r, _ in exact]
        before, _ = _both(engine, as_of=date(1990, 1, 1))
        now, _ = _both(engine, as_of=date.today())
        assert len(now) == 5 and len(before) == 5  # undated Acts are open-ended
