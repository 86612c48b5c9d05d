"""The app factory: ``create_app(settings) -> FastAPI``.

Routers by concern (``query``, ``corpus``, ``graph``, ``ops``); every ``/api/v1`` route
needs an API key (``auth``) and passes the rate limit; one ASGI middleware gives each
request an id, enforces the body limit, logs a JSON line and records metrics. The web UI's
static files (``civicsetu/web/static``) are served at ``/``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from civicsetu.api import corpus, graph, ops, query
from civicsetu.api.auth import authorize
from civicsetu.api.jobs import JobRunner
from civicsetu.api.logs import new_request_id, request_id_var
from civicsetu.api.metrics import Metrics
from civicsetu.api.problems import MEDIA_TYPE, install, problem_body
from civicsetu.api.ratelimit import RateLimiter
from civicsetu.api.state import ServiceState
from civicsetu.config import Settings

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
UPLOAD_PATH = "/api/v1/documents"
access_log = logging.getLogger("civicsetu.api.access")


class RequestMiddleware:
    """Request id, body-size limit, access log and metrics, for every HTTP request."""

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Metrics) -> None:
        self.app = app
        self.settings = settings
        self.metrics = metrics

    def _limit(self, scope: Scope) -> int:
        if scope["method"] == "POST" and scope["path"] == UPLOAD_PATH:
            return self.settings.api.max_upload_mb * 1024 * 1024 + 64 * 1024
        return self.settings.api.max_body_kb * 1024

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        request_id = new_request_id(headers.get("x-request-id"))
        scope.setdefault("state", {})["request_id"] = request_id
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        status_holder = {"status": 500}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"],
                                      (b"x-request-id", request_id.encode("latin-1"))]
            await send(message)

        try:
            refusal = self._check_body(scope, headers)
            if refusal is not None:
                status, detail, slug = refusal
                await _send_problem(send_with_id, status, detail, slug, scope["path"],
                                    request_id)
            else:
                await self.app(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            route = scope.get("route")
            template = getattr(route, "path", None) or ("static" if scope["path"] == "/" or
                                                        not scope["path"].startswith("/api")
                                                        else "unmatched")
            status = status_holder["status"]
            self.metrics.requests.labels(template, scope["method"], str(status)).inc()
            self.metrics.latency.labels(template, scope["method"]).observe(elapsed)
            client = scope.get("client")
            access_log.info("%s %s %s", scope["method"], scope["path"], status,
                            extra={"method": scope["method"], "path": scope["path"],
                                   "status": status, "ms": round(elapsed * 1000, 2),
                                   "client": client[0] if client else ""})
            request_id_var.reset(token)

    def _check_body(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        if scope["method"] not in {"POST", "PUT", "PATCH"}:
            return None
        length = headers.get("content-length")
        if length is None:
            if "chunked" in headers.get("transfer-encoding", ""):
                return 411, "send a Content-Length header (chunked bodies are not accepted)", \
                    "length-required"
            return None
        try:
            size = int(length)
        except ValueError:
            return 400, "Content-Length is not a number", "bad-request"
        limit = self._limit(scope)
        if size > limit:
            return 413, f"the request body is larger than {limit // 1024} KiB", "too-large"
        return None


async def _send_problem(send: Send, status: int, detail: str, slug: str, path: str,
                        request_id: str) -> None:
    import json

    body = json.dumps(problem_body(status, detail, slug, path, request_id)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", MEDIA_TYPE.encode()),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The CivicSetu service: REST API, SSE, metrics and the web UI, on one ``Engine``."""
    settings = settings or Settings()
    state = ServiceState(settings)
    metrics = Metrics()
    state.metrics = metrics  # type: ignore[attr-defined]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        app.state.jobs.close()
        state.close()

    app = FastAPI(
        title="CivicSetu API",
        version=ops.version(),
        summary="Answers questions about the law from the law itself, with verified "
                "pinpoint citations.",
        description="Send an API key as `Authorization: Bearer <key>` or `X-API-Key`. "
                    "Errors are RFC 9457 problem documents (application/problem+json).",
        lifespan=lifespan,
    )
    app.state.civicsetu = state
    app.state.metrics = metrics
    app.state.limiter = RateLimiter(settings.api.rate_limit_per_minute,
                                    settings.api.rate_limit_burst)
    app.state.jobs = JobRunner(state)
    install(app)
    problem_responses: dict[int | str, dict[str, Any]] = {
        code: {"model": _problem_model(), "description": desc,
               "content": {MEDIA_TYPE: {}}}
        for code, desc in ((400, "Bad input"), (401, "Missing, unknown or revoked key"),
                           (403, "Refused by the server's settings"),
                           (404, "Not found"), (409, "Nothing ingested yet"),
                           (411, "Body without Content-Length"), (413, "Too large"),
                           (415, "Upload type not accepted"), (422, "Invalid request"),
                           (429, "Rate limited (see Retry-After)"),
                           (500, "Unexpected failure (logged)"), (502, "The LLM failed"),
                           (503, "Index or model unavailable"))}
    for router in (query.router, corpus.router, graph.router):
        app.include_router(router, dependencies=[Depends(authorize)],
                           responses=problem_responses)
    app.include_router(ops.router, responses={500: problem_responses[500]})
    if settings.api.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.api.cors_origins,
                           allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type",
                                          "X-Request-ID"],
                           expose_headers=["X-Request-ID", "Retry-After"])
    app.add_middleware(RequestMiddleware, settings=settings, metrics=metrics)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="web")
    return app


def _problem_model() -> type:
    from civicsetu.api.models import Problem

    return Problem
