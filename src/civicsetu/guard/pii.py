"""Personal data in questions: found, and redacted before anything is logged."""

from __future__ import annotations

import logging
import re

PII_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")),
    ("aadhaar", re.compile(r"\b\d{4}[ -]?\d{4}[ -]?\d{4}\b")),
    ("pan", re.compile(r"\b[A-Z]{5}\d{4}[A-Z]\b")),
    ("phone", re.compile(r"(?<!\d)(?:\+91[ -]?)?[6-9]\d{4}[ -]?\d{5}(?!\d)")),
    ("account", re.compile(r"\b(?:a/?c|account)\s*(?:no\.?|number)?\s*[:#]?\s*\d{9,18}\b",
                           re.IGNORECASE)),
]


def find_pii(text: str) -> list[str]:
    return [name for name, pattern in PII_PATTERNS if pattern.search(text)]


def redact(text: str) -> str:
    for name, pattern in PII_PATTERNS:
        text = pattern.sub(f"[{name.upper()}]", text)
    return text


class RedactingFilter(logging.Filter):
    """Attach to a handler: every record's message is redacted before it is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = redact(message), ()
        return True
