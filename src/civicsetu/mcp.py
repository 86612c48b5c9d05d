"""The MCP server (placeholder until the stdio server lands)."""

from __future__ import annotations

from civicsetu.config import Settings


def run_stdio(settings: Settings) -> None:
    """Serve the MCP tools on stdin/stdout."""
    raise NotImplementedError
