"""The MCP server through the SDK's own client over stdio: ``civicsetu mcp`` runs as a
subprocess on the bundled index; the client lists the tools and calls each."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

RERA = "the-real-estate-regulation-and-development-act-2016"
TOOLS = {"search", "ask", "get_provision", "related_provisions", "list_documents"}


def _params(home: Path) -> StdioServerParameters:
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {"PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
           "CIVICSETU_HOME": str(home)}
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "civicsetu.cli", "mcp", "--home", str(home)],
                                 env=env)


async def _session(home: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with Client(_params(home), read_timeout_seconds=120) as client:
        listed = await client.list_tools()
        out["tools"] = {t.name: t for t in listed.tools}
        out["search"] = await client.call_tool(
            "search", {"query": "penalty for not registering a real estate project", "k": 3})
        out["ask"] = await client.call_tool(
            "ask", {"question": "What is the penalty for not registering a real estate "
                                "project?"})
        out["get_provision"] = await client.call_tool("get_provision", {"id": f"{RERA}#s.59"})
        out["related"] = await client.call_tool("related_provisions",
                                                {"id": f"{RERA}#s.59", "depth": 1})
        out["documents"] = await client.call_tool("list_documents", {})
        out["missing"] = await client.call_tool("get_provision", {"id": f"{RERA}#s.999"})
        out["invalid"] = await client.call_tool("search", {"query": "", "k": 500})
    return out


@pytest.mark.slow
def test_the_sdk_client_lists_and_calls_every_tool(bundled_home: Path) -> None:
    got = anyio.run(_session, bundled_home)
    tools = got["tools"]
    assert set(tools) == TOOLS
    search_schema = tools["search"].input_schema
    assert search_schema["required"] == ["query"]
    assert search_schema["properties"]["k"]["type"] == "integer"
    assert "citations" in tools["ask"].output_schema["properties"]
    for name in ("search", "ask", "get_provision", "related", "documents"):
        result = got[name]
        assert not result.is_error, (name, result)
        data = result.structured_content
        assert data["citations"], name  # every result cites
        for c in data["citations"]:
            assert c["id"] and c["label"]
    assert any(c["id"] == f"{RERA}#s.59(1)" or c["id"].startswith(f"{RERA}#s.59")
               for c in got["ask"].structured_content["citations"])
    provision = got["get_provision"].structured_content
    assert provision["text"].lstrip().startswith("(1)") or "promoter" in provision["text"]
    assert provision["citations"][0]["quote"] == provision["text"]
    assert provision["next"] == f"{RERA}#s.60" and provision["previous"] == f"{RERA}#s.58"
    related = got["related"].structured_content["related"]
    assert any(r["id"].startswith(f"{RERA}#s.3") for r in related)
    assert len(got["documents"].structured_content["documents"]) == 11
    assert got["missing"].is_error and "s.999" in got["missing"].content[0].text
    assert got["invalid"].is_error
