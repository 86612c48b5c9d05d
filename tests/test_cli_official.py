"""Through the real command: no registry entry or user file replaces an official bundled
Act; a registry entry naming one is refused (exit 3, as a refused file), a user file named
like one gets its own id; ``ingest --bundled`` still re-indexes the official Acts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import FAKE_ACT, LIMITATION
from tests.test_cli_trust import jsonl, run


@pytest.fixture()
def home(official_home: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "home"
    shutil.copytree(official_home, copy)
    return copy


def _listed(home: Path) -> dict[str, dict[str, object]]:
    return {str(d["id"]): d for d in jsonl(run(home, "documents", "--json").stdout)}


def _registry(tmp_path: Path, *ids: str) -> Path:
    (tmp_path / "fake.md").write_text(FAKE_ACT, encoding="utf-8")
    registry = tmp_path / "registry.toml"
    registry.write_text("".join(f'[[document]]\nid = "{i}"\nname = "The Fake Things Act, '
                                f'2024"\nsource = "fake.md"\n\n' for i in ids),
                        encoding="utf-8")
    return registry


@pytest.mark.parametrize("official_id", [LIMITATION, "the-indian-contract-act-1872"])
def test_a_registry_entry_with_an_official_id_is_refused(home: Path, tmp_path: Path,
                                                         official_id: str) -> None:
    before = _listed(home)[LIMITATION]
    registry = _registry(tmp_path, official_id, "fake-things-act-2024")
    proc = run(home, "ingest", "--json", "--registry", str(registry))
    assert proc.returncode == 3, proc.stderr
    refused, added = jsonl(proc.stdout)
    assert refused["doc_id"] == official_id and refused["status"] == "failed"
    message = str(refused["message"])
    assert f"{official_id!r} is the id of an official Act" in message
    assert "give the entry another id" in message
    assert added["doc_id"] == "fake-things-act-2024" and added["status"] == "added"
    after = _listed(home)
    assert after[LIMITATION] == before and after[LIMITATION]["origin"] == "bundled"
    assert official_id == LIMITATION or official_id not in after
    text = run(home, "ingest", "--registry", str(registry))
    assert text.returncode == 3 and "is the id of an official Act" in text.stderr


def test_a_user_file_named_like_an_official_act_gets_its_own_id(home: Path,
                                                                tmp_path: Path) -> None:
    fake = tmp_path / f"{LIMITATION}.md"
    fake.write_text(FAKE_ACT.replace("Fake Things Act, 2024", "Limitation Act, 1963"),
                    encoding="utf-8")
    before = _listed(home)[LIMITATION]
    report = jsonl(run(home, "ingest", "--json", str(fake)).stdout)[0]
    own = str(report["doc_id"])
    assert own.startswith(f"{LIMITATION}-") and report["status"] == "added"
    assert f"matches the document {LIMITATION}" in str(report["message"])
    after = _listed(home)
    assert after[LIMITATION] == before
    assert after[own]["origin"] == "user" and after[own]["lookalike_of"] == LIMITATION
    shown = run(home, "show", f"{LIMITATION}#s.3")
    assert "within one day" not in shown.stdout and "Bar of limitation" in shown.stdout


@pytest.mark.slow
def test_ingest_bundled_still_works_after_refusals(bundled_home: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(bundled_home, home)
    registry = _registry(tmp_path, LIMITATION)
    assert run(home, "ingest", "--registry", str(registry)).returncode == 3
    proc = run(home, "ingest", "--json", "--bundled")
    assert proc.returncode == 0, proc.stderr
    reports = jsonl(proc.stdout)
    assert len(reports) == 11 and {r["status"] for r in reports} == {"unchanged"}
    listed = _listed(home)
    assert {str(d["origin"]) for d in listed.values()} == {"bundled"}
    forced = run(home, "ingest", "--json", "--bundled", "--force")
    assert forced.returncode == 0, forced.stderr
    assert {json.loads(line)["status"] for line in forced.stdout.splitlines()} == {"updated"}
