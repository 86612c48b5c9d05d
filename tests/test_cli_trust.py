"""Issue 9 (trust) through the real command: ids, provenance, look-alikes, removal,
encodings, languages and a table of malformed arguments for every command."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from civicsetu.answer.messages import (
    LLM_UNREACHABLE_NOTICE,
    LOOKALIKE_NOTICE,
    UNSUPPORTED_LANGUAGE,
)
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from tests.conftest import RERA, SMALL_ACT

SMALL_ID = "model-tenancy-act-2099"
BAD_UTF8 = os.fsdecode(b"penalty \xff\xfe for a tenant")  # argv as Python receives it


def run(home: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CIVICSETU_HOME": str(home), "COLUMNS": "80"}
    proc = subprocess.run([sys.executable, "-m", "civicsetu.cli", *args], env=env,
                          capture_output=True, timeout=600, check=False, input=stdin)
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def jsonl(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def small_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small")
    act = root / f"{SMALL_ID}.md"
    act.write_text(SMALL_ACT, encoding="utf-8")
    with Engine(Settings(home=root / "home")) as engine:
        assert engine.ingest([SourceSpec(act)])[0].status == "added"
    return root / "home"


@pytest.fixture()
def home(small_home: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "home"
    shutil.copytree(small_home, copy)
    return copy


# --- malformed ids and arguments: a clear line on stderr and a documented exit code --------

BAD_BATCH = b'{"query": "pen\xffalty"}\n'

CASES = [
    (["show", "DOC#"], 2, "is not a provision id"),
    (["show", "#"], 2, "is not a provision id"),
    (["show", "#s.1"], 2, "is not a provision id"),
    (["show", f"{SMALL_ID}#"], 2, "is not a provision id"),
    (["show", "a b#s.1"], 2, "is not a provision id"),
    (["show", "s.3"], 2, "is not a provision id"),
    (["show", f"{SMALL_ID}#s.99"], 5, "has no provision"),
    (["show", "nope#s.1"], 5, "no document 'nope'"),
    (["show", f"{SMALL_ID}#s.3", "--as-of", "2020-13-01"], 2, "is not a date"),
    (["graph", "show", "#"], 2, "is not a provision id"),
    (["graph", "show", "DOC#"], 2, "is not a provision id"),
    (["graph", "show", "a b"], 2, "is not a document id"),
    (["graph", "show", "nope"], 5, "no document 'nope'"),
    (["documents", "remove", "nope"], 5, "no document 'nope'"),
    (["documents", "remove", "a b"], 2, "is not a document id"),
    (["documents", "remove", ""], 2, "is not a document id"),
    (["search", ""], 2, "the question is empty"),
    (["search", "deposit", "--doc", "#"], 2, "is not a document id"),
    (["search", "deposit", "--mode", "magic"], 2, "unknown --mode"),
    (["search", BAD_UTF8], 2, "not valid UTF-8"),
    (["ask"], 2, "give a question or --batch"),
    (["ask", "deposit", "--doc-type", "poem"], 2, "unknown --doc-type"),
    (["ask", "deposit", "--doc", "DOC#"], 2, "is not a document id"),
    (["ask", "deposit", "--as-of", "yesterday"], 2, "is not a date"),
    (["ask", BAD_UTF8], 2, "not valid UTF-8"),
    (["ask", "--batch", "/nonexistent/q.jsonl"], 2, "no such file"),
    (["ask", "--batch", "{bad_batch}"], 2, "not valid UTF-8"),
    (["ingest"], 2, "nothing to ingest"),
    (["ingest", "x.md", "--doc-type", "poem"], 2, "unknown --doc-type"),
    (["ingest", "/nonexistent/x.md"], 3, "no such file"),
    (["eval", "/nonexistent/d.jsonl"], 2, "no such file"),
]


@pytest.mark.parametrize(("args", "code", "message"), CASES,
                         ids=[" ".join(c[0])[:40] for c in CASES])
def test_malformed_arguments_get_a_clear_error_and_exit_code(
        home: Path, tmp_path: Path, args: list[str], code: int, message: str) -> None:
    bad_batch = tmp_path / "bad.jsonl"
    bad_batch.write_bytes(BAD_BATCH)
    args = [a.replace("{bad_batch}", str(bad_batch)) for a in args]
    proc = run(home, *args)
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_help_documents_the_exit_codes(home: Path) -> None:
    proc = run(home, "--help")
    shown = " ".join(proc.stdout.replace("│", " ").split())
    for code in ("2 bad input", "3 a source file failed", "4 nothing ingested", "5 no such"):
        assert code in shown


# --- identity -------------------------------------------------------------------------------

def test_same_file_names_in_two_folders_get_two_ids(home: Path, tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "rules.md").write_text(
            SMALL_ACT.replace("Model Tenancy Act, 2099", f"Model {folder.upper()} Rules, 2099"))
    first = jsonl(run(home, "ingest", "--json", str(tmp_path / "a" / "rules.md")).stdout)
    second = jsonl(run(home, "ingest", "--json", str(tmp_path / "b" / "rules.md")).stdout)
    assert first[0]["doc_id"] == "rules" and first[0]["status"] == "added"
    assert str(second[0]["doc_id"]).startswith("rules-") and second[0]["status"] == "added"
    again = jsonl(run(home, "ingest", "--json", str(tmp_path / "b" / "rules.md")).stdout)
    assert again[0]["doc_id"] == second[0]["doc_id"] and again[0]["status"] == "unchanged"
    listed = {d["id"]: d for d in jsonl(run(home, "documents", "--json").stdout)}
    assert listed["rules"]["origin_path"] == str((tmp_path / "a" / "rules.md").resolve())
    assert listed[str(second[0]["doc_id"])]["origin"] == "user"


def test_a_non_latin_file_name_gets_a_usable_id(home: Path, tmp_path: Path) -> None:
    hindi = tmp_path / "नियम.md"
    hindi.write_text(SMALL_ACT.replace("Model Tenancy Act, 2099", "Model Hindi Rules, 2099"))
    report = jsonl(run(home, "ingest", "--json", str(hindi)).stdout)[0]
    assert report["doc_id"] == "model-hindi-rules-2099"
    shown = run(home, "show", f"{report['doc_id']}#s.3")
    assert shown.returncode == 0 and "security deposit" in shown.stdout
    asked = run(home, "ask", "What is the security deposit a tenant pays?")
    assert asked.returncode == 0, asked.stderr


def test_documents_prints_long_ids_whole_at_80_columns(home: Path, tmp_path: Path) -> None:
    name = "the-" + "very-long-name-" * 8 + "act-2099"
    path = tmp_path / f"{name}.md"
    path.write_text(SMALL_ACT.replace("Model Tenancy Act, 2099", "Model Long Act, 2099"))
    doc_id = str(jsonl(run(home, "ingest", "--json", str(path)).stdout)[0]["doc_id"])
    assert len(doc_id) > 100 and name.startswith(doc_id)  # slugs stop at 120 characters
    assert doc_id in run(home, "documents").stdout.split()


# --- provenance, look-alikes, several Acts, partial files -----------------------------------

def test_a_lookalike_is_flagged_and_answers_quoting_it_warn(home: Path,
                                                           tmp_path: Path) -> None:
    fake = tmp_path / "notes.md"
    fake.write_text(SMALL_ACT.replace("two months' rent", "ten months' rent"))
    ingested = run(home, "ingest", str(fake))
    assert ingested.returncode == 0
    assert f"matches the document {SMALL_ID}" in ingested.stderr
    listed = {d["id"]: d for d in jsonl(run(home, "documents", "--json").stdout)}
    assert listed["notes"]["lookalike_of"] == SMALL_ID
    proc = run(home, "ask", "--json", "--doc", "notes",
               "What is the maximum security deposit a tenant pays?")
    answer = json.loads(proc.stdout)
    assert answer["citations"], answer
    assert {c["origin"] for c in answer["citations"]} == {"user"}
    assert all(str(fake.resolve()) in c["source"] for c in answer["citations"])
    head = LOOKALIKE_NOTICE.split("{")[0]
    assert any(n.startswith(head) for n in answer["notices"])
    text = run(home, "ask", "--doc", "notes",
               "What is the maximum security deposit a tenant pays?")
    assert f"source of notes: user file {fake.resolve()}" in text.stdout
    assert "notice: " + head in text.stderr


def test_a_file_with_two_acts_is_refused(home: Path, tmp_path: Path) -> None:
    both = tmp_path / "both.md"
    both.write_text(SMALL_ACT + "\n" + SMALL_ACT.replace("2099", "2100").split("---\n", 2)[2])
    proc = run(home, "ingest", str(both))
    assert proc.returncode == 3
    assert "holds several Acts" in proc.stderr and "Split it" in proc.stderr
    assert "both" not in run(home, "documents").stdout


def test_a_mostly_unindexed_file_fails_unless_allow_partial(home: Path,
                                                           tmp_path: Path) -> None:
    prose = "Words that belong to no numbered provision and are not indexed. " * 2000
    partial = tmp_path / "partial.md"
    partial.write_text("# The Partial Act, 2099.\n\n" + prose + "\n\n"
                       "## Section 1 - Short title.\n\nThis Act may be called the Partial "
                       "Act, 2099.\n")
    refused = run(home, "ingest", str(partial))
    assert refused.returncode == 3
    assert "of its text would be indexed" in refused.stderr and "--allow-partial" in refused.stderr
    assert "partial" not in run(home, "documents").stdout
    allowed = run(home, "ingest", "--json", "--allow-partial", str(partial))
    assert allowed.returncode == 0
    report = jsonl(allowed.stdout)[0]
    assert report["status"] == "added" and "of the text was indexed" in str(report["message"])


# --- encodings, languages, messages ---------------------------------------------------------

def test_chat_keeps_the_session_after_a_bad_line(home: Path) -> None:
    lines = (b"what security deposit \xff does a tenant pay\n"
             b"what security deposit does a tenant pay\n")
    proc = run(home, "chat", stdin=lines)
    assert proc.returncode == 0, proc.stderr
    assert "not valid UTF-8" in proc.stderr and "Traceback" not in proc.stderr
    assert "Section 3" in proc.stdout


@pytest.mark.parametrize("question", [
    "किरायेदार की सुरक्षा जमा राशि कितनी है?",
    "குத்தகைதாரரின் வைப்புத்தொகை எவ்வளவு?",
])
def test_a_question_in_an_unsupported_language_is_told_so(home: Path, question: str) -> None:
    proc = run(home, "ask", "--json", question)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["answer"] == UNSUPPORTED_LANGUAGE


def test_an_unreachable_llm_is_reported_as_unreachable(home: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens there
    proc = run(home, "ask", "--json", "--llm", f"openai-compatible:m@http://127.0.0.1:{port}/v1",
               "What is the maximum security deposit a tenant pays?")
    answer = json.loads(proc.stdout)
    head = LLM_UNREACHABLE_NOTICE.split("{")[0]
    assert any(n.startswith(head) for n in answer["notices"]), answer["notices"]
    assert not any("failed verification" in n for n in answer["notices"])


# --- against the bundle ---------------------------------------------------------------------

@pytest.mark.slow
def test_an_impersonating_file_cannot_pass_for_rera(bundled_home: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(bundled_home, home)
    fake = tmp_path / "rera.md"
    fake.write_text("# The Real Estate (Regulation and Development) Act, 2016.\n\n"
                    "## Section 59 - Punishment for non-registration under section 3.\n\n"
                    "(1) If any promoter does not register a real estate project, he shall be "
                    "liable to a penalty of one rupee only.\n")
    ingested = run(home, "ingest", "--json", str(fake))
    report = jsonl(ingested.stdout)[0]
    assert report["doc_id"] == "rera" and f"matches the document {RERA}" in str(report["message"])
    proc = run(home, "ask", "--json", "--doc", "rera", "--doc", RERA,
               "What is the penalty for not registering a real estate project?")
    answer = json.loads(proc.stdout)
    fake_cited = [c for c in answer["citations"] if str(c["id"]).startswith("rera#")]
    for c in fake_cited:
        assert c["origin"] == "user"
    if fake_cited:
        assert any(n.startswith(LOOKALIKE_NOTICE.split("{")[0]) for n in answer["notices"])
    assert all(c["origin"] == "bundled" for c in answer["citations"]
               if str(c["id"]).startswith(RERA))


@pytest.mark.slow
def test_bracketed_insertions_survive_show_and_ask_in_a_subprocess(bundled_home: Path) -> None:
    shown = run(bundled_home, "show", f"{RERA}#s.17")
    assert "[completion]" in shown.stdout  # Rich used to read it as markup and drop it
    with Engine(Settings(home=bundled_home)) as engine:
        stored = engine.show(f"{RERA}#s.17").text
    assert stored in shown.stdout
    asked = run(bundled_home, "ask", "What are the duties of a promoter on completion of "
                                    "a real estate project?")
    assert asked.returncode == 0
    for quote in [line for line in asked.stdout.splitlines() if line.startswith("“")]:
        assert "[" not in quote or "]" in quote


@pytest.mark.slow
def test_a_copy_of_a_bundled_act_keeps_its_id_and_a_changed_copy_does_not(
        bundled_home: Path, tmp_path: Path) -> None:
    """The shared corpus holds copies of the bundled Acts: same text, same id, unchanged.
    A changed copy under the same file name never replaces the official text."""
    from civicsetu.corpus import bundled_acts

    home = tmp_path / "home"
    shutil.copytree(bundled_home, home)
    official = next(a.path for a in bundled_acts() if a.id == RERA)
    (tmp_path / "copy").mkdir()
    (tmp_path / "changed").mkdir()
    copy = tmp_path / "copy" / official.name
    shutil.copy(official, copy)
    changed = tmp_path / "changed" / official.name
    changed.write_text(official.read_text(encoding="utf-8") + "\nAn invented line.\n",
                       encoding="utf-8")
    reports = jsonl(run(home, "ingest", "--json", str(copy), str(changed)).stdout)
    assert reports[0]["doc_id"] == RERA and reports[0]["status"] == "unchanged"
    assert str(reports[1]["doc_id"]).startswith(f"{RERA}-")
    assert reports[1]["status"] == "added"
    assert f"matches the document {RERA}" in str(reports[1]["message"])
    listed = {d["id"]: d for d in jsonl(run(home, "documents", "--json").stdout)}
    assert listed[RERA]["origin"] == "bundled"
    assert listed[str(reports[1]["doc_id"])]["origin"] == "user"
