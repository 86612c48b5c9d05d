import json
from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.errors import InputError
from civicsetu.eval.report import write_report
from civicsetu.eval.runner import load_dataset, run_evaluation
from tests.conftest import RERA, SHARED

ROWS = [
    {"id": "a", "query": "What is the penalty for not registering a real estate project?",
     "query_type": "penalty_lookup", "gold_provisions": [f"{RERA}#s.59(1)"],
     "key_facts": ["ten per cent"]},
    {"id": "b", "query": "What GST rate applies to an under-construction flat?",
     "query_type": "unanswerable", "gold_provisions": [], "key_facts": []},
]


def test_report_compares_hybrid_with_bm25(bundled: Engine, tmp_path: Path) -> None:
    report = run_evaluation(bundled, ROWS, "tiny")
    hybrid = report["systems"]["hybrid"]["summary"]
    assert hybrid["recall@1"] == 1.0 and hybrid["key_fact_recall"] == 1.0
    assert hybrid["citation_validity"] == 1.0
    assert hybrid["abstention_unanswerable"] == 1.0
    assert "bm25-only" in report["systems"]
    md, js = write_report(report, tmp_path / "out" / "tiny")
    assert "| Section recall@5 |" in md.read_text()
    assert json.loads(js.read_text())["dataset"] == "tiny"


def test_dataset_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\nnot json\n')
    with pytest.raises(InputError, match=r"bad\.jsonl:2"):
        load_dataset(bad)


DEV = SHARED / "eval" / "legal_qa_dev.jsonl"


@pytest.mark.skipif(not DEV.exists(), reason="../shared/eval/legal_qa_dev.jsonl not present")
def test_dev_set_quality_bar(bundled: Engine) -> None:
    """The issue's acceptance numbers, as a regression gate on the real dev set."""
    report = run_evaluation(bundled, load_dataset(DEV), DEV.name)
    hybrid = report["systems"]["hybrid"]["summary"]
    bm25 = report["systems"]["bm25-only"]["summary"]
    assert hybrid["recall@5"] >= 0.80
    assert hybrid["recall@5"] > bm25["recall@5"]
    assert hybrid["citation_validity"] == 1.0
    assert hybrid["answer_rate_answerable"] >= 0.9
    assert hybrid["abstention_unanswerable"] >= 0.5
