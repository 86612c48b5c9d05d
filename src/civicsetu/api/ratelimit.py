"""Per-key token-bucket rate limit: ``burst`` requests at once, refilled at
``per_minute``/60 per second. An empty bucket answers 429 with ``Retry-After``.

Buckets live in the worker process, so with N workers a key may get up to N times the
rate; put a shared limiter in front (a reverse proxy) when that matters.
"""

from __future__ import annotations

import math
import threading
import time


class RateLimiter:
    def __init__(self, per_minute: int, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> float:
        """Spend one token for ``who``; 0 when allowed, else seconds until one is back."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(who, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[who] = (tokens - 1.0, now)
                return 0.0
            self._buckets[who] = (tokens, now)
            return (1.0 - tokens) / self.rate


def retry_after(seconds: float) -> str:
    """The Retry-After header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
