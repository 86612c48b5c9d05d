"""The real ``civicsetu`` command in a subprocess, against real index files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import RERA

DEMO = "What is the penalty for not registering a real estate project?"


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CIVICSETU_HOME": str(home), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "civicsetu.cli", *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def db_bytes(home: Path) -> bytes:
    return (home / "civicsetu.db").read_bytes()


def test_ask_json_has_the_documented_shape(bundled_home: Path) -> None:
    proc = run(bundled_home, "ask", "--json", DEMO)
    assert proc.returncode == 0, proc.stderr
    obj = json.loads(proc.stdout)
    assert set(obj) >= {"query", "answer", "abstained", "citations", "retrieved", "timings_ms"}
    assert obj["abstained"] is False
    assert obj["citations"][0]["id"] == f"{RERA}#s.59(1)"
    assert {"id", "title", "quote"} <= set(obj["citations"][0])
    assert len(obj["retrieved"]) >= 10
    assert all({"id", "score"} <= set(r) for r in obj["retrieved"])
    scores = [r["score"] for r in obj["retrieved"]]
    assert scores == sorted(scores, reverse=True)


def test_ask_batch_keeps_order_one_object_per_line(bundled_home: Path, tmp_path: Path) -> None:
    batch = tmp_path / "q.jsonl"
    queries = [DEMO, "What GST rate applies to an under-construction flat?",
               "What does Section 79 of RERA say?"]
    batch.write_text("\n".join(json.dumps({"query": q, "id": i})
                               for i, q in enumerate(queries)) + "\n")
    proc = run(bundled_home, "ask", "--json", "--batch", str(batch))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["query"] for o in lines] == queries
    assert [o["abstained"] for o in lines] == [False, True, False]
    assert lines[2]["citations"][0]["id"].startswith(f"{RERA}#s.79")


def test_ask_text_output(bundled_home: Path) -> None:
    proc = run(bundled_home, "ask", DEMO)
    assert proc.returncode == 0
    assert "Section 59(1) of the Real Estate (Regulation and Development) Act, 2016" in proc.stdout
    assert "ten per cent" in proc.stdout


def test_show_prints_the_provision_with_footnotes(bundled_home: Path) -> None:
    proc = run(bundled_home, "show", "--json", f"{RERA}#s.1")
    obj = json.loads(proc.stdout)
    assert obj["id"] == f"{RERA}#s.1" and obj["footnotes"]
    assert obj["title"] == "Short title, extent and commencement"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["show", f"{RERA}#s.999"], 5, "has no provision s.999"),
        (["show", "nope#s.1"], 5, "no document 'nope'"),
        (["show", "s.18"], 2, "is not a provision id"),
        (["ask", "x" * 10_240], 2, "the limit is"),
        (["ask"], 2, "give a question or --batch"),
        (["ask", "penalty", "--doc-type", "poem"], 2, "unknown --doc-type"),
        (["search", "penalty", "--doc", "nope"], 5, "no document 'nope'"),
    ],
)
def test_bad_input_gets_one_line_and_a_nonzero_exit(bundled_home: Path, tmp_path: Path,
                                                   args: list[str], code: int,
                                                   message: str) -> None:
    home = tmp_path / "copy"
    shutil.copytree(bundled_home, home)
    before = db_bytes(home)
    proc = run(home, *args)
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr
    assert db_bytes(home) == before


def test_ask_before_ingest_says_to_ingest(tmp_path: Path) -> None:
    proc = run(tmp_path / "fresh", "ask", DEMO)
    assert proc.returncode == 4
    assert "civicsetu ingest --bundled" in proc.stderr


def test_ingest_reports_bad_files_and_keeps_the_good(tmp_path: Path, small_act: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("")
    home = tmp_path / "home"
    proc = run(home, "ingest", "--json", str(empty), str(small_act))
    assert proc.returncode == 3
    statuses = [json.loads(line)["status"] for line in proc.stdout.splitlines()]
    assert statuses == ["failed", "added"]
    again = run(home, "ingest", "--json", str(small_act))
    assert json.loads(again.stdout)["status"] == "unchanged"
    docs = run(home, "documents", "--json")
    assert [json.loads(line)["id"] for line in docs.stdout.splitlines()] == [
        "model-tenancy-act-2099"]


def test_a_reparse_after_an_upgrade_is_said_once(tmp_path: Path, small_act: Path) -> None:
    # Three copies of one Act under other names stand for a library an older CivicSetu
    # parsed: the next plain ingest re-parses each, and says why in one line, not three.
    import sqlite3

    from civicsetu.ingest.pipeline import REPARSED

    home = tmp_path / "home"
    sources = []
    for name in ("tenancy-a-2099", "tenancy-b-2099", "tenancy-c-2099"):
        copy = tmp_path / f"{name}.md"
        copy.write_text(small_act.read_text(encoding="utf-8").replace("2099", name[8]),
                        encoding="utf-8")
        sources.append(str(copy))
    assert run(home, "ingest", *sources).returncode == 0
    with sqlite3.connect(home / "civicsetu.db") as conn:
        conn.execute("UPDATE documents SET parser_version = 0")
    conn.close()
    proc = run(home, "ingest", *sources)
    assert proc.returncode == 0, proc.stderr
    notes = [line for line in proc.stderr.splitlines() if REPARSED in line]
    assert notes == [f"3 documents: {REPARSED}"], proc.stderr


def test_help_explains_every_command(tmp_path: Path) -> None:
    proc = run(tmp_path, "--help")
    for command in ("ingest", "search", "ask", "show", "eval", "documents", "graph"):
        assert command in proc.stdout


def test_ingest_a_pdf_then_show_its_page_and_history(tmp_path: Path) -> None:
    from fpdf import FPDF

    from tools.gazette_pdf import font_path

    def write_pdf(path: Path, fee: str) -> None:
        pdf = FPDF()
        pdf.add_font("serif", "", str(font_path()))
        pdf.set_font("serif", size=11)
        for n, body in enumerate(["These rules may be called the Model Rules, 2031.",
                                  f"The fee for registration is {fee} rupees."], start=1):
            pdf.add_page()
            pdf.multi_cell(0, 6, f"{n}. Rule {n}.—{body}")
        pdf.output(str(path))

    rules = tmp_path / "model-rules.pdf"
    home = tmp_path / "home"
    write_pdf(rules, "one thousand")
    first = run(home, "ingest", "--json", "--doc-type", "rules", str(rules))
    assert json.loads(first.stdout)["status"] == "added", first.stderr
    shown = json.loads(run(home, "show", "--json", "model-rules#r.2").stdout)
    assert shown["page"] == 2 and "one thousand" in shown["text"]
    write_pdf(rules, "two thousand")
    second = run(home, "ingest", "--json", "--doc-type", "rules", str(rules))
    assert json.loads(second.stdout)["status"] == "updated"
    history = json.loads(run(home, "show", "--json", "--history", "model-rules#r.2").stdout)
    assert ["one thousand" in v["text"] for v in history] == [True, False]
    assert history[0]["valid_to"] is not None and history[1]["valid_to"] is None
    bad = run(home, "search", "fee", "--as-of", "yesterday")
    assert bad.returncode == 2 and "YYYY-MM-DD" in bad.stderr
