"""The service's own SQLite file (``$CIVICSETU_HOME/service.db``): API keys, ingest jobs
and the corpus generation counter shared by every worker process.

Kept apart from the index so the index schema (and its migrations) stays the corpus's
alone. API keys are stored as SHA-256 hashes of 256-bit random secrets; the secret is
shown once, when it is created.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from civicsetu.errors import NotFoundError, StoreError

KEY_PREFIX = "cs_"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    payload TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL
);
INSERT OR IGNORE INTO generation (id, value) VALUES (1, 0);
"""


@dataclass(frozen=True, slots=True)
class ApiKey:
    id: str
    name: str
    created_at: str
    revoked_at: str | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def hash_key(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class ServiceDB:
    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file where the home folder should be, ...
            from civicsetu.store.sqlite import folder_problem

            raise StoreError(folder_problem(path.parent, exc)) from exc
        self.path = path
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            # Workers start together: wait for each other's schema set-up, do not fail.
            self._conn.execute("PRAGMA busy_timeout=10000")
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # --- API keys ---------------------------------------------------------------------

    def create_key(self, name: str) -> tuple[ApiKey, str]:
        """A new key and its secret (the secret is not stored and cannot be shown again)."""
        key_id = secrets.token_hex(4)
        secret = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
        created = _now()
        with self._lock:
            self._conn.execute("INSERT INTO api_keys (id, name, hash, created_at) "
                               "VALUES (?,?,?,?)", (key_id, name, hash_key(secret), created))
        return ApiKey(key_id, name, created, None), secret

    def keys(self) -> list[ApiKey]:
        with self._lock:
            rows = self._conn.execute("SELECT id, name, created_at, revoked_at FROM api_keys "
                                      "ORDER BY created_at, id").fetchall()
        return [ApiKey(*r) for r in rows]

    def revoke_key(self, key_id: str) -> None:
        """Revoke a key by id; NotFoundError when there is none."""
        with self._lock:
            n = self._conn.execute("UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) "
                                   "WHERE id = ?", (_now(), key_id)).rowcount
        if not n:
            raise NotFoundError(f"no API key {key_id!r}; `civicsetu keys list` shows the ids")

    def key_for(self, secret: str) -> ApiKey | None:
        """The key a secret belongs to (revoked ones included), or None."""
        with self._lock:
            row = self._conn.execute("SELECT id, name, created_at, revoked_at FROM api_keys "
                                     "WHERE hash = ?", (hash_key(secret),)).fetchone()
        return ApiKey(*row) if row else None

    # --- jobs -------------------------------------------------------------------------

    def save_job(self, job_id: str, payload: dict[str, Any]) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO jobs (id, payload, updated_at) "
                               "VALUES (?,?,?)", (job_id, json.dumps(payload), _now()))

    def job(self, job_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute("SELECT payload FROM jobs WHERE id = ?",
                                     (job_id,)).fetchone()
        return json.loads(row[0]) if row else None

    # --- corpus generation --------------------------------------------------------------

    def generation(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT value FROM generation").fetchone()[0])

    def bump_generation(self) -> None:
        with self._lock:
            self._conn.execute("UPDATE generation SET value = value + 1")
