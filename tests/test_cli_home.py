"""``--home`` / ``CIVICSETU_HOME`` through the real command: a file in the folder's place is
one line and exit 6; a folder that does not exist is an error for the commands that read
(exit 4, naming the folder and how to create it) and is created by ``ingest``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SMALL_ACT


def run(*args: str, home_env: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CIVICSETU_HOME"}
    env["COLUMNS"] = "200"
    if home_env is not None:
        env["CIVICSETU_HOME"] = str(home_env)
    return subprocess.run([sys.executable, "-m", "civicsetu.cli", *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


READERS = [
    ["documents"],
    ["documents", "remove", "x"],
    ["ask", "What is the security deposit?"],
    ["search", "security deposit"],
    ["show", "model-tenancy-act-2099#s.3"],
    ["graph", "stats"],
    ["graph", "show", "model-tenancy-act-2099"],
    ["doctor"],
]


@pytest.fixture()
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\n")
    return path


@pytest.mark.parametrize("args", [*READERS, ["ingest", "--bundled"]],
                         ids=lambda a: " ".join(a))
@pytest.mark.parametrize("how", ["--home", "CIVICSETU_HOME"])
def test_a_file_as_home_is_one_line_and_exit_6(a_file: Path, args: list[str],
                                               how: str) -> None:
    proc = (run(*args, "--home", str(a_file)) if how == "--home"
            else run(*args, home_env=a_file))
    assert proc.returncode == 6, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert f"{a_file} is a file, not a folder" in lines[0] and "--home" in lines[0]
    assert a_file.read_text().startswith("root:")  # untouched


@pytest.mark.parametrize("args", READERS, ids=lambda a: " ".join(a))
def test_a_missing_home_is_an_error_for_commands_that_read(tmp_path: Path,
                                                           args: list[str]) -> None:
    home = tmp_path / "no" / "such home"
    proc = run(*args, "--home", str(home))
    assert proc.returncode == 4, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert f"no index in {home}: the folder does not exist" in lines[0]
    assert f"civicsetu ingest --bundled --home '{home}'" in lines[0]
    assert not (tmp_path / "no").exists()  # nothing was created


def test_a_home_without_an_index_is_not_given_one(tmp_path: Path) -> None:
    proc = run("search", "deposit", home_env=tmp_path)
    assert proc.returncode == 4
    assert f"no index in {tmp_path}: it has no civicsetu.db" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_ingest_creates_a_missing_home(tmp_path: Path) -> None:
    act = tmp_path / "model-tenancy-act-2099.md"
    act.write_text(SMALL_ACT, encoding="utf-8")
    home = tmp_path / "new" / "home"
    proc = run("ingest", "--json", str(act), "--home", str(home))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "added"
    listed = run("documents", "--home", str(home))
    assert listed.returncode == 0 and "model-tenancy-act-2099" in listed.stdout
