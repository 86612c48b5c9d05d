"""Prometheus metrics (``prometheus-client``): requests and latency by route, answer phase
durations, LLM tokens and cost by call type, cache hits, ingest jobs, cancelled streams.

With several workers, ``civicsetu serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` and the scrape
aggregates every process's files.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    def __init__(self) -> None:
        self.multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        self.registry = CollectorRegistry()
        # In multiprocess mode the values live in files; the scrape registry only collects.
        kw: dict[str, Any] = {"registry": None if self.multiprocess else self.registry}
        self.requests = Counter("civicsetu_http_requests_total", "HTTP requests.",
                                ["route", "method", "status"], **kw)
        self.latency = Histogram("civicsetu_http_request_seconds", "HTTP request latency.",
                                 ["route", "method"], buckets=_LATENCY_BUCKETS, **kw)
        self.phases = Histogram("civicsetu_answer_phase_seconds",
                                "Time spent per answering phase (retrieve, generate, ...).",
                                ["phase"], buckets=_LATENCY_BUCKETS, **kw)
        self.tokens = Counter("civicsetu_llm_tokens_total", "LLM tokens by call type.",
                              ["call", "kind"], **kw)
        self.cost = Counter("civicsetu_llm_cost_usd_total", "Estimated LLM cost by call type.",
                            ["call"], **kw)
        self.cache = Counter("civicsetu_answer_cache_total", "Answer cache look-ups.",
                             ["result"], **kw)
        self.jobs = Counter("civicsetu_ingest_jobs_total", "Ingest jobs by final status.",
                            ["status"], **kw)
        self.cancelled = Counter("civicsetu_stream_cancelled_total",
                                 "Streams whose client went away before the answer.", **kw)
        if self.multiprocess:
            from prometheus_client import multiprocess

            multiprocess.MultiProcessCollector(self.registry)  # type: ignore[no-untyped-call]

    def observe_answer(self, answer: dict[str, Any]) -> None:
        """Record an answer's phase timings and LLM usage."""
        for phase, ms in answer.get("timings_ms", {}).items():
            if phase != "total":
                self.phases.labels(phase).observe(float(ms) / 1000)
        for call, row in answer.get("usage_by_call", {}).items():
            self.tokens.labels(call, "prompt").inc(float(row.get("prompt_tokens", 0)))
            self.tokens.labels(call, "completion").inc(float(row.get("completion_tokens", 0)))
            self.cost.labels(call).inc(float(row.get("cost_usd", 0.0)))

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
