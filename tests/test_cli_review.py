"""``civicsetu review`` on real files: the table, escaped document text, the reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

from typer.testing import CliRunner

from civicsetu.cli import app

SAMPLES = Path(str(resources.files("civicsetu.corpus") / "contracts"))

BRACKETS = """SUPPLY AGREEMENT

This Supply Agreement is made between Red Ltd and Blue Ltd.

1. GOVERNING LAW
1.1 This Agreement shall be governed by the laws of [bold]Kenya[/bold] as amended.

2. LIABILITY
2.1 The Supplier's liability shall be unlimited <script>alert(1)</script> in all cases.
"""


def test_review_escapes_markup_and_writes_reports(tmp_path: Path) -> None:
    contract = tmp_path / "supply.txt"
    contract.write_text(BRACKETS, encoding="utf-8")
    home = tmp_path / "home"
    runner = CliRunner()
    result = runner.invoke(app, ["review", str(contract), "--group", "commercial",
                                 "--no-dense", "--home", str(home), "--format", "html",
                                 "--out", str(tmp_path / "r.html")], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert "[bold]Kenya[/bold]" in result.output  # printed literally, not as Rich markup
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert "<mark>The Supplier&#x27;s liability shall be unlimited" in html
    # The second run reviews the stored document by id, no file needed.
    again = runner.invoke(app, ["review", "supply", "--group", "commercial", "--no-dense",
                                "--home", str(home), "--format", "json",
                                "--out", str(tmp_path / "r.json")])
    assert again.exit_code == 0, again.output
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    findings = {f["item"]: f for f in data["contracts"][0]["findings"]}
    assert findings["unlimited-liability"]["risk"] == "HIGH"
    assert findings["unlimited-liability"]["citations"][0]["provision_id"] == "supply#cl.2.1"


def test_review_errors_exit_with_their_codes(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "CIVICSETU_HOME": str(tmp_path)}
        return subprocess.run([sys.executable, "-m", "civicsetu.cli", *args], env=env,
                              capture_output=True, text=True, timeout=300, check=False)

    bad = run("review", "x", "--format", "pdf", "--out", "a")
    assert bad.returncode == 2 and "use json, md or html" in bad.stderr
    missing = run("review", "no-such-contract")
    assert missing.returncode == 5 and "neither a file nor a document" in missing.stderr


def test_contract_ask_cli(tmp_path: Path) -> None:
    home = tmp_path / "home"
    runner = CliRunner()
    nda = str(SAMPLES / "acme-globex-nda.txt")
    assert runner.invoke(app, ["review", nda, "--no-dense", "--group", "commercial",
                               "--home", str(home)]).exit_code == 0
    result = runner.invoke(app, ["contract-ask", "What is the notice period in the NDA?",
                                 "Draft a better NDA", "--json", "--home", str(home)])
    assert result.exit_code == 0, result.output
    answers = json.loads(result.output)
    assert answers[0]["route"] == "analysis" and "30 days" in answers[0]["text"]
    assert answers[1]["route"] == "refusal"
