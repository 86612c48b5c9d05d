"""The service's shared state: the answering ``Engine`` behind a lock, a second read-only
``Engine`` for light reads behind its own lock, the answer cache, the job table and the
corpus generation that tells every worker process when to re-read the index.

SQLite connections are not shared between threads here: request threads take an engine's
lock around every call, so one worker answers one question at a time (run more workers to
use more cores) while provision, document and graph reads go on beside it. Background ingest
jobs use their own ``Engine`` (SQLite WAL lets them write while requests read) and bump the
generation when they finish.
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
        # A second Engine on its own connection for the light reads (provisions, documents,
        # graph): they never load the embedder and need not wait behind an answer.
        self.reader = Engine(settings)
        self.read_lock = threading.RLock()
        self.cache = AnswerCache(settings.api.cache_ttl_seconds, settings.api.cache_max_entries)
        self._generation = self.db.generation()
        self._reader_generation = self._generation
        self._fingerprint: str | None = None
        self._fingerprint_generation = -1

    def close(self) -> None:
        with self.lock:
            self.engine.close()
        with self.read_lock:
            self.reader.close()
        self.db.close()

    @contextmanager
    def reader_locked(self) -> Iterator[Engine]:
        """The read-only engine, current with the corpus; for reads that need no embedder."""
        with self.read_lock:
            generation = self.db.generation()
            if generation != self._reader_generation:
                self.reader.refresh()
                self._reader_generation = generation
            yield self.reader

    def read(self, fn: Callable[[Engine], T]) -> T:
        """Call ``fn`` with the read-only engine under its lock."""
        with self.reader_locked() as engine:
            return fn(engine)

    @contextmanager
    def engine_locked(self) -> Iterator[Engine]:
        """The engine, current with the corpus, held by this thread until the block ends."""
        with self.lock:
            generation = self.db.generation()
            if generation != self._generation:
                self.engine.refresh()
                self.cache.clear()
                self._generation = generation
            yield self.engine

    def run(self, fn: Callable[[Engine], T]) -> T:
        """Call ``fn`` with the engine under the lock."""
        with self.engine_locked() as engine:
            return fn(engine)

    def fingerprint(self) -> str:
        """A hash of every document id and content hash: changes whenever the corpus does."""
        generation = self.db.generation()
        if self._fingerprint is not None and self._fingerprint_generation == generation:
            return self._fingerprint  # the common case: one tiny read, no engine lock
        with self.reader_locked() as engine:
            self._fingerprint = corpus_fingerprint(engine)
            self._fingerprint_generation = generation
            return self._fingerprint

    def corpus_changed(self) -> None:
        """Tell every worker (and this one) to re-read the index and drop cached answers."""
        with self.lock:
            self.db.bump_generation()


def corpus_fingerprint(engine: Engine) -> str:
    """sha256 over the sorted ``id:content_hash`` pairs, 16 hex digits."""
    parts = sorted(f"{d.id}:{d.content_hash}" for d in engine.documents())
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:16]
