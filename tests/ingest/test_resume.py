"""A killed ingest continues where it stopped: each document is written in one
transaction, so a re-run skips the documents already written and adds the rest whole."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec, bundled_specs


def _documents(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(db, timeout=5)
        try:
            return int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_killed_ingest_resumes_without_half_written_documents(tmp_path: Path) -> None:
    home = tmp_path / "home"
    paths = [s.path for s in bundled_specs()[:3]]
    env = {**os.environ, "CIVICSETU_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "civicsetu.cli", "ingest", "--json",
                             *map(str, paths)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    db = home / "civicsetu.db"
    while _documents(db) == 0 and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    written = _documents(db)
    assert 1 <= written < len(paths), "the kill must land between documents"
    with Engine(Settings(home=home)) as engine:
        reports = engine.ingest([SourceSpec(p) for p in paths])
        statuses = [r.status for r in reports]
        assert statuses.count("unchanged") == written
        assert statuses.count("added") == len(paths) - written
        stored = {d.id: d.chunks for d in engine.store.documents()}
    first = _documents(db)
    assert first == len(paths)
    for r in reports:
        if r.status == "added":
            assert stored[r.doc_id] == r.chunks
