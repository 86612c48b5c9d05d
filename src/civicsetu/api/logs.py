"""JSON log lines with the request id, personal data redacted (``guard.pii``).

The request id comes from the ``X-Request-ID`` header when it is a short token, else a new
one; it is echoed in the response header and in every problem document.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime

from civicsetu.guard.pii import redact

request_id_var: ContextVar[str] = ContextVar("civicsetu_request_id", default="")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def new_request_id(offered: str | None) -> str:
    """The client's id when it is a safe token, else a fresh uuid4 hex."""
    if offered and _SAFE_ID.match(offered):
        return offered
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, request_id (+ exc when any)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(
                     timespec="milliseconds"),
                 "level": record.levelname.lower(), "logger": record.name,
                 "msg": redact(record.getMessage()),
                 "request_id": getattr(record, "request_id", "") or request_id_var.get()}
        for extra in ("method", "path", "status", "ms", "client"):
            if hasattr(record, extra):
                entry[extra] = getattr(record, extra)
        if record.exc_info:
            entry["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def configure_json_logging(level: str = "INFO") -> None:
    """Send civicsetu and uvicorn error logs to stderr as JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in ("civicsetu", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False
