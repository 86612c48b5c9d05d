"""The pipeline's contract door stays shut for statute questions and statute-only indexes."""

from __future__ import annotations

from pathlib import Path

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.review.route import contract_answer
from civicsetu.search.hybrid import SearchFilters
from civicsetu.types import DocType
from tests.conftest import SMALL_ACT

NDA = """MUTUAL NON-DISCLOSURE AGREEMENT

This Agreement is made between Red Ltd ("Red") and Blue Ltd ("Blue").

1. TERM
1.1 Either party may terminate this Agreement by giving thirty (30) days' written notice.
1.2 This Agreement shall be governed by the laws of India.
"""


def test_no_contracts_no_detour(tmp_path: Path) -> None:
    act = tmp_path / "model-tenancy-act.md"
    act.write_text(SMALL_ACT, encoding="utf-8")
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest([SourceSpec(path=act)])
        assert contract_answer(engine.store, "What is the notice period in the NDA?") is None
        nda = tmp_path / "red-blue-nda.txt"
        nda.write_text(NDA, encoding="utf-8")
        engine.ingest([SourceSpec(path=nda, doc_type=DocType.CONTRACT, jurisdiction="")])
        # A statute question does not name a contract: the agent answers it.
        assert contract_answer(engine.store, "What is the security deposit limit?") is None
        assert contract_answer(engine.store, "What is the notice in the NDA?",
                               SearchFilters(doc_type="act")) is None
        got = contract_answer(engine.store, "What is the notice period in the NDA?")
        assert got is not None and "30 days" in got.text
        assert got.citations[0].provision_id == "red-blue-nda#cl.1.1"
