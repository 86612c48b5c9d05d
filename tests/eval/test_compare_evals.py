"""tools/compare_evals.py reads two eval reports, agrees with the runner's own summary and
names the questions whose outcome moved."""

import json
from pathlib import Path
from typing import Any

import pytest

from civicsetu.eval.runner import summarise
from tools.compare_evals import by_type, changed, load_rows, main


def _row(qid: str, qtype: str, gold: bool, rr: float | None, r5: float | None,
         kf: float | None, abstained: bool, cites: int = 2, on_gold: int = 1) -> dict[str, Any]:
    return {"id": qid, "query_type": qtype, "answerable": gold, "abstained": abstained,
            "recall@1": (1.0 if rr == 1.0 else 0.0) if gold else None, "recall@5": r5,
            "recall@10": r5, "rr": rr, "key_fact_recall": kf, "citations": cites,
            "valid_citations": cites, "gold_citations": on_gold if gold else 0,
            "latency_ms": 10.0}


BEFORE = [_row("a", "multi_hop", True, 1.0, 1.0, 1.0, False),
          _row("b", "multi_hop", True, 0.5, 0.5, 0.0, False),
          _row("c", "comparison", True, 0.0, 0.0, 0.5, True, cites=0, on_gold=0),
          _row("u", "out_of_scope", False, None, None, None, True, cites=0)]
AFTER = [BEFORE[0], _row("b", "multi_hop", True, 1.0, 1.0, 0.0, False), BEFORE[2],
         _row("u", "out_of_scope", False, None, None, None, False, cites=1)]


def _report(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"systems": {"hybrid": {"summary": summarise(rows),
                                                       "rows": rows}}}))
    return path


def test_overall_figures_agree_with_the_runner_summary(tmp_path: Path) -> None:
    rows = load_rows(_report(tmp_path / "a.json", BEFORE), "hybrid")
    ours = by_type(rows)["all"]
    theirs = summarise(BEFORE)
    for mine, runner in (("recall@5", "recall@5"), ("mrr", "mrr"),
                         ("key_facts", "key_fact_recall"), ("precision", "citation_precision"),
                         ("answered", "answer_rate_answerable"),
                         ("abstained", "abstention_unanswerable")):
        assert ours[mine] == pytest.approx(theirs[runner], abs=1e-4), mine
    assert ours["hit@1"] == pytest.approx(1 / 3)
    assert by_type(rows)["multi_hop"]["hit@1"] == 0.5


def test_changed_lists_only_the_questions_that_moved(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    a = _report(tmp_path / "a.json", BEFORE)
    b = _report(tmp_path / "b.json", AFTER)
    moved = changed(load_rows(a, "hybrid"), load_rows(b, "hybrid"))
    assert [line.split()[1] for line in moved] == ["b", "u"]
    assert "r@5 0.500 -> 1.000" in moved[0] and "hit@1 False -> True" in moved[0]
    assert "abstained True -> False" in moved[1]
    main([str(a), str(b)])
    out = capsys.readouterr().out
    assert "2 questions changed" in out and "| multi_hop | 2 |" in out


def test_reads_the_one_system_output_of_eval_hybrid(tmp_path: Path) -> None:
    path = tmp_path / "hybrid.json"
    path.write_text(json.dumps({"summary": summarise(AFTER), "rows": AFTER}))
    rows = load_rows(path, "hybrid")
    assert sorted(rows) == ["a", "b", "c", "u"] and rows["u"]["abstained"] is False
