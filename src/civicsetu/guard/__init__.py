"""Input guards: prompt-injection screen, PII redaction for logs, scope checks."""
