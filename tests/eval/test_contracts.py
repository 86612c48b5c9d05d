"""The ContractNLI harness on small files written here, and its metric functions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from civicsetu.cli import app
from civicsetu.errors import InputError
from civicsetu.eval.contracts import (
    average_precision,
    char_scores,
    describe,
    load_contractnli,
    nli_scores,
    recall_at,
    run_contract_eval,
)
from civicsetu.review.checklist import Label, load_checklist

DOC_A = ("MUTUAL NON-DISCLOSURE AGREEMENT\nThis Agreement is made between Alpha Robotics Ltd "
         "and Beta Foods Ltd.\n1. The Recipient shall not reverse engineer any sample.\n"
         "2. Notices go to the addresses above.\n3. Obligations survive termination.\n")
DOC_B = ("CONFIDENTIALITY AGREEMENT\nThis Agreement is made between Gamma Mining Inc and Delta "
         "Bank plc.\n1. Payment is due monthly.\n2. The Recipient may share information with "
         "its employees who need to know it.\n")


def _spans(text: str) -> list[list[int]]:
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            out.append([pos, pos + len(line.rstrip("\n"))])
        pos += len(line)
    return out


def write_file(path: Path) -> Path:
    data: dict[str, Any] = {
        "labels": {
            "nda-11": {"short_description": "No reverse engineering", "hypothesis":
                       load_checklist().get("nda-11").hypothesis},
            "custom-1": {"short_description": "Employees",
                         "hypothesis": "Receiving Party may share with employees."},
        },
        "documents": [
            {"id": 0, "file_name": "a.txt", "text": DOC_A, "spans": _spans(DOC_A),
             "annotation_sets": [{"annotations": {
                 "nda-11": {"choice": "Entailment", "spans": [2]},
                 "custom-1": {"choice": "NotMentioned", "spans": []}}}]},
            {"id": 1, "file_name": "b.txt", "text": DOC_B, "spans": _spans(DOC_B),
             "annotation_sets": [{"annotations": {
                 "nda-11": {"choice": "NotMentioned", "spans": []},
                 "custom-1": {"choice": "Entailment", "spans": [3]}}}]},
        ]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_metric_functions_by_hand() -> None:
    assert recall_at({1, 2}, [2, 5, 1], 1) == 0.5
    assert recall_at({1, 2}, [2, 5, 1], 3) == 1.0
    assert average_precision({1, 2}, [2, 5, 1]) == pytest.approx((1 / 1 + 2 / 3) / 2)
    assert average_precision({9}, [1, 2]) == 0.0
    precision, recall = char_scores([(0, 10)], [(5, 15), (20, 30)])
    assert (precision, recall) == (pytest.approx(5 / 20), pytest.approx(0.5))
    s = nli_scores([Label.ENTAILED, Label.NOT_MENTIONED, Label.CONTRADICTED],
                   [Label.ENTAILED, Label.ENTAILED, Label.CONTRADICTED])
    assert s["nli_accuracy"] == pytest.approx(2 / 3)
    assert s["nli_f1_not_mentioned"] == 0.0
    assert s["nli_f1_contradicted"] == 1.0
    assert s["nli_f1_entailed"] == pytest.approx(2 / 3)


def test_describe_names_title_and_parties() -> None:
    assert describe(DOC_A) == ("MUTUAL NON-DISCLOSURE AGREEMENT between Alpha Robotics Ltd "
                               "and Beta Foods Ltd")
    assert describe("no parties here\n") == "no parties here"


def test_any_contractnli_format_file(tmp_path: Path) -> None:
    data = load_contractnli(write_file(tmp_path / "tiny.json"))
    report = run_contract_eval(data, load_checklist(), embedder=None)
    assert report["documents"] == 2 and report["pairs"] == 4 and report["evidence_pairs"] == 2
    # The reviewer ranks the reverse-engineering clause first and labels both pairs right.
    assert report["per_hypothesis"]["nda-11"]["reviewer"]["evidence_recall_at_5"] == 1.0
    assert report["per_hypothesis"]["nda-11"]["reviewer"]["nli_accuracy"] == 1.0
    for scope in (report, report["baselines"]["majority"], report["baselines"]["bm25"]):
        for key in ("evidence_recall_at_5", "evidence_map", "nli_accuracy", "nli_macro_f1",
                    "corpus_char_recall_at_64"):
            assert 0.0 <= scope[key] <= 1.0
    assert report["baselines"]["majority"]["evidence_recall_at_1"] == 0.0
    assert report["corpus_char_recall_at_64"] == 1.0


@pytest.mark.parametrize("body, message", [
    ("[]", "not ContractNLI format"),
    ('{"labels": {}, "documents": []}', "holds no documents"),
    ('{"labels": {}, "documents": [{"text": "x"}]}', "lacks spans or annotations"),
    ("not json", "cannot read"),
])
def test_bad_files_say_what_is_wrong(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_contractnli(path)


def test_cli_json_has_the_required_keys(tmp_path: Path) -> None:
    path = write_file(tmp_path / "tiny.json")
    result = CliRunner().invoke(app, ["eval-contracts", str(path), "--json", "--no-dense",
                                      "--home", str(tmp_path / "home")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    for key in ("evidence_recall_at_5", "evidence_map", "nli_accuracy", "nli_macro_f1",
                "corpus_char_recall_at_64"):
        assert key in report
        assert key in report["baselines"]["majority"]
        assert key in report["baselines"]["bm25"]
    text = CliRunner().invoke(app, ["eval-contracts", str(path), "--no-dense", "--limit", "1",
                                    "--home", str(tmp_path / "home")])
    assert text.exit_code == 0 and "1 contracts, 2 pairs, 1 with evidence" in text.output
