"""Errors at the HTTP boundary: every failure becomes RFC 9457 ``application/problem+json``.

``CivicSetuError`` subclasses map to statuses; request validation becomes 422; anything
unexpected is logged with its traceback and answered with a bare 500 that names the
request id and never shows the stack.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from civicsetu.errors import (
    CivicSetuError,
    InputError,
    ModelError,
    NotFoundError,
    NotIngestedError,
    SourceError,
    StoreError,
)
from civicsetu.llm.base import LLMError

log = logging.getLogger("civicsetu.api")

PROBLEM_TYPE = "https://civicsetu.dev/problems/"
MEDIA_TYPE = "application/problem+json"

_STATUS: list[tuple[type[CivicSetuError], int, str]] = [
    (InputError, 400, "bad-input"),
    (SourceError, 422, "unusable-source"),
    (NotFoundError, 404, "not-found"),
    (NotIngestedError, 409, "not-ingested"),
    (StoreError, 503, "store-unavailable"),
    (ModelError, 503, "model-unavailable"),
    (LLMError, 502, "llm-failed"),
]

_TITLES = {400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found",
           405: "Method not allowed", 409: "Conflict", 411: "Length required",
           413: "Content too large", 415: "Unsupported media type",
           422: "Unprocessable content", 429: "Too many requests",
           500: "Internal server error", 502: "Bad gateway", 503: "Service unavailable"}


class ApiProblem(Exception):
    """Raise in a route to answer with a problem document."""

    def __init__(self, status: int, detail: str, slug: str = "",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.slug = slug or _TITLES.get(status, "error").lower().replace(" ", "-")
        self.headers = headers or {}


def problem_body(status: int, detail: str, slug: str, instance: str,
                 request_id: str) -> dict[str, Any]:
    """The problem document (``type``, ``title``, ``status``, ``detail``, ...)."""
    return {"type": PROBLEM_TYPE + slug, "title": _TITLES.get(status, "Error"),
            "status": status, "detail": detail, "instance": instance,
            "request_id": request_id}


def problem_response(request: Request, status: int, detail: str, slug: str = "",
                     headers: dict[str, str] | None = None) -> JSONResponse:
    request_id = getattr(request.state, "request_id", "")
    slug = slug or _TITLES.get(status, "error").lower().replace(" ", "-")
    return JSONResponse(problem_body(status, detail, slug, request.url.path, request_id),
                        status_code=status, media_type=MEDIA_TYPE, headers=headers)


def status_of(exc: CivicSetuError) -> tuple[int, str]:
    """HTTP status and problem slug for a CivicSetu error."""
    for cls, status, slug in _STATUS:
        if isinstance(exc, cls):
            return status, slug
    return 400, "error"


_AT = re.compile(r",? at line (\d+) column (\d+)$")


def invalid_json_detail(err: Mapping[str, Any], body: Any) -> str:
    """Plain words for a body that is not JSON: what the parser expected and where (line
    and column), from FastAPI's error (a character offset into ``body``) or pydantic's."""
    ctx = err.get("ctx") or {}
    what = str(ctx.get("error") or err.get("msg") or "it cannot be parsed").strip()
    line = column = None
    at = _AT.search(what)
    if at:  # pydantic: "EOF while parsing a value at line 1 column 10"
        what, line, column = what[:at.start()], int(at[1]), int(at[2])
    loc = [p for p in err.get("loc", ()) if p != "body"]
    if line is None and loc and isinstance(loc[-1], int):  # FastAPI: a character offset
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        pos = loc[-1]
        if isinstance(text, str) and 0 <= pos <= len(text):
            line = text.count("\n", 0, pos) + 1
            column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    if what.startswith("EOF"):
        what = "the body ends before the JSON value is complete"
    else:
        what = what[:1].lower() + what[1:]
    where = f" at line {line}, column {column}" if line is not None else ""
    return (f"the request body is not valid JSON: {what}{where}; send one JSON object "
            "(check for a missing or extra comma, quote or bracket there)")


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into problem+json."""

    async def on_problem(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiProblem)
        return problem_response(request, exc.status, exc.detail, exc.slug, exc.headers)

    async def on_civicsetu(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, CivicSetuError)
        status, slug = status_of(exc)
        return problem_response(request, status, str(exc), slug)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        parts = []
        for err in exc.errors()[:5]:
            if err.get("type") == "json_invalid":
                return problem_response(request, 422, invalid_json_detail(err, exc.body),
                                        "invalid-json")
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return problem_response(request, 422, "; ".join(parts) or "invalid request",
                                "invalid-request")

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        return problem_response(request, exc.status_code, str(exc.detail),
                                headers=dict(exc.headers or {}))

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error request_id=%s path=%s",
                      getattr(request.state, "request_id", ""), request.url.path)
        return problem_response(request, 500, "The server failed to answer this request; "
                                "it has been logged. Quote the request id when reporting it.",
                                "internal")

    app.add_exception_handler(ApiProblem, on_problem)
    app.add_exception_handler(CivicSetuError, on_civicsetu)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_unexpected)
