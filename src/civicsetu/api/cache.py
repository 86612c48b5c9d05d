"""The TTL answer cache, keyed by the normalised question, filters and corpus fingerprint.

A changed corpus changes the fingerprint, so stale answers are never served; ingest and
delete also clear the cache to free the memory at once.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from typing import Any


def normalise_question(question: str) -> str:
    """Case-folded, whitespace collapsed, trailing punctuation dropped."""
    return " ".join(question.casefold().split()).rstrip(" ?.!")


def cache_key(question: str, params: dict[str, Any], fingerprint: str) -> str:
    """The key for one answer: what was asked, how, and of which corpus."""
    payload = json.dumps({"q": normalise_question(question), "p": params, "c": fingerprint},
                         sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class AnswerCache:
    """A thread-safe LRU map whose entries expire ``ttl`` seconds after they were stored."""

    def __init__(self, ttl_seconds: int, max_entries: int) -> None:
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self._items: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached value, or None when absent or expired."""
        if self.ttl <= 0:
            return None
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            stored, value = item
            if time.monotonic() - stored > self.ttl:
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value``; the least recently used entry goes when the cache is full."""
        if self.ttl <= 0:
            return
        with self._lock:
            self._items[key] = (time.monotonic(), value)
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
