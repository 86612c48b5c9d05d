"""The service's shared state: one ``Engine`` behind a lock, the answer cache, the job
table and the corpus generation that tells every worker process when to re-read the index.

SQLite connections are not shared between threads here: request threads take the lock
around every engine call. Background ingest jobs use their own ``Engine`` (SQLite WAL lets
them write while requests read) and bump the generation when they finish.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from civicsetu.api.cache import AnswerCache
from civicsetu.api.servicedb import ServiceDB
from civicsetu.config import Settings
from civicsetu.engine import Engine

T = TypeVar("T")


class ServiceState:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = ServiceDB(settings.home / "service.db")
        self.engine = Engine(settings)
        self.lock = threading.RLock()
        self.cache = AnswerCache(settings.api.cache_ttl_seconds, settings.api.cache_max_entries)
        self._generation = self.db.generation()
        self._fingerprint: str | None = None

    def close(self) -> None:
        with self.lock:
            self.engine.close()
        self.db.close()

    @contextmanager
    def engine_locked(self) -> Iterator[Engine]:
        """The engine, current with the corpus, held by this thread until the block ends."""
        with self.lock:
            generation = self.db.generation()
            if generation != self._generation:
                self.engine.refresh()
                self.cache.clear()
                self._fingerprint = None
                self._generation = generation
            yield self.engine

    def run(self, fn: Callable[[Engine], T]) -> T:
        """Call ``fn`` with the engine under the lock."""
        with self.engine_locked() as engine:
            return fn(engine)

    def fingerprint(self) -> str:
        """A hash of every document id and content hash: changes whenever the corpus does."""
        with self.engine_locked() as engine:
            if self._fingerprint is None:
                self._fingerprint = corpus_fingerprint(engine)
            return self._fingerprint

    def corpus_changed(self) -> None:
        """Tell every worker (and this one) to re-read the index and drop cached answers."""
        with self.lock:
            self.db.bump_generation()


def corpus_fingerprint(engine: Engine) -> str:
    """sha256 over the sorted ``id:content_hash`` pairs, 16 hex digits."""
    parts = sorted(f"{d.id}:{d.content_hash}" for d in engine.documents())
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:16]
