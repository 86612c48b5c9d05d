"""``documents remove``: a removed document leaves no row behind, anywhere."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import InputError, NotFoundError
from civicsetu.ingest.pipeline import SourceSpec

CITING = """# The Tenancy Rules, 2100.

## Rule 1 - Short title.

These rules may be called the Tenancy Rules, 2100.

## Rule 2 - Deposit.

The deposit shall be refunded as provided in section 3 of the Model Tenancy Act, 2099, and
the penalty in section 4 of the Model Tenancy Act, 2099 applies.
"""

TABLES = ["provisions", "chunks", "refs", "definitions", "amendments", "dates",
          "document_versions", "provision_history", "edges"]


def counts(db: Path, doc_id: str) -> dict[str, int]:
    with sqlite3.connect(db) as c:
        found = {t: c.execute(f"SELECT count(*) FROM {t} WHERE doc_id = ?",
                              (doc_id,)).fetchone()[0] for t in TABLES}
        found["edges into"] = c.execute(
            "SELECT count(*) FROM edges WHERE dst = ? OR dst LIKE ?",
            (doc_id, f"{doc_id}#%")).fetchone()[0]
        found["refs resolved into"] = c.execute(
            "SELECT count(*) FROM refs WHERE dst LIKE ?", (f"{doc_id}#%",)).fetchone()[0]
        found["fts without chunk"] = c.execute(
            "SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT rowid FROM chunks)"
        ).fetchone()[0]
        found["unused vectors"] = c.execute(
            "SELECT count(*) FROM embeddings WHERE text_hash NOT IN "
            "(SELECT embed_hash FROM chunks)").fetchone()[0]
        found["document"] = c.execute("SELECT count(*) FROM documents WHERE id = ?",
                                      (doc_id,)).fetchone()[0]
    return found


def test_remove_leaves_no_orphans_and_unresolves_references(tmp_path: Path,
                                                           small_act: Path) -> None:
    rules = tmp_path / "tenancy-rules.md"
    rules.write_text(CITING, encoding="utf-8")
    settings = Settings(home=tmp_path / "home")
    act_id = "model-tenancy-act-2099"
    with Engine(settings) as engine:
        engine.ingest([SourceSpec(small_act), SourceSpec(rules)])
        # A second version, so history rows exist too.
        small_act.write_text(small_act.read_text().replace("two months'", "three months'"))
        engine.ingest([SourceSpec(small_act)])
        before = counts(settings.resolved_db_path, act_id)
        assert before["provisions"] and before["provision_history"] and before["edges into"]
        assert before["refs resolved into"] == 2
        engine.remove_document(act_id)
        after = counts(settings.resolved_db_path, act_id)
        assert after == dict.fromkeys(after, 0), after
        assert [d.id for d in engine.documents()] == ["tenancy-rules"]
        unresolved = engine.store.unresolved_references("tenancy-rules#r.2")
        assert len(unresolved) == 2
        with pytest.raises(NotFoundError):
            engine.remove_document(act_id)
        with pytest.raises(InputError):
            engine.remove_document("not an id")
        # Ingested again, the references resolve again.
        engine.ingest([SourceSpec(small_act)])
        assert counts(settings.resolved_db_path, act_id)["refs resolved into"] == 2
