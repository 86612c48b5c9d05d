"""CLI commands of the service: ``civicsetu serve``, ``civicsetu keys ...``, ``civicsetu mcp``.

Registered in ``cli.py``; the web and MCP dependencies load only when these commands run.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from civicsetu.config import Settings
from civicsetu.errors import InputError

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

HomeOpt = Annotated[Path | None, typer.Option(
    "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)]

keys_app = typer.Typer(help="API keys for the web service: create, list, revoke. Keys are "
                            "stored hashed in $CIVICSETU_HOME/service.db.",
                       no_args_is_help=True)


def _settings(home: Path | None) -> Settings:
    return Settings(home=home) if home else Settings()


def _service_db(home: Path | None):  # type: ignore[no-untyped-def]
    from civicsetu.api.servicedb import ServiceDB

    settings = _settings(home)
    return ServiceDB(settings.home / "service.db")


@keys_app.command("create")
def keys_create(
    name: Annotated[str, typer.Argument(help="Who or what the key is for.")],
    home: HomeOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Create a key and print its secret once (it is stored only as a hash)."""
    db = _service_db(home)
    try:
        key, secret = db.create_key(name)
    finally:
        db.close()
    if as_json:
        print(json.dumps({"id": key.id, "name": key.name, "key": secret}))
        return
    out.print(f"created key {key.id} for {escape(name)}; the secret is shown only now:")
    print(secret)


@keys_app.command("list")
def keys_list(home: HomeOpt = None,
              as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False
              ) -> None:
    """List keys (ids, names, when created and revoked; never the secrets)."""
    db = _service_db(home)
    try:
        keys = db.keys()
    finally:
        db.close()
    if as_json:
        print(json.dumps([{"id": k.id, "name": k.name, "created_at": k.created_at,
                           "revoked_at": k.revoked_at} for k in keys]))
        return
    table = Table("id", "name", "created", "revoked")
    for k in keys:
        table.add_row(k.id, escape(k.name), k.created_at, k.revoked_at or "")
    out.print(table)


@keys_app.command("revoke")
def keys_revoke(key_id: Annotated[str, typer.Argument(help="The key id (see keys list).")],
                home: HomeOpt = None) -> None:
    """Revoke a key: requests with it are refused from now on."""
    db = _service_db(home)
    try:
        db.revoke_key(key_id)
    finally:
        db.close()
    out.print(f"revoked key {escape(key_id)}")


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes.")] = 1,
    home: HomeOpt = None,
) -> None:
    """Serve the REST API, the web UI (at /) and /metrics. Every /api/v1 route needs a key
    from `civicsetu keys create` unless CIVICSETU_API_OPEN_MODE=1 on a loopback address."""
    from civicsetu.api import require_server_extra
    from civicsetu.api.auth import is_loopback

    require_server_extra()
    if home is not None:
        os.environ["CIVICSETU_HOME"] = str(home)
    settings = Settings()
    if settings.api.open_mode and not is_loopback(host):
        raise InputError(f"open mode (no API keys) is only allowed on a loopback address, "
                         f"not {host}; unset CIVICSETU_API_OPEN_MODE or bind 127.0.0.1")
    import uvicorn

    from civicsetu.api.logs import configure_json_logging

    if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        metrics_dir = Path(tempfile.mkdtemp(prefix="civicsetu-metrics-"))
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    configure_json_logging()
    err.print(f"serving on http://{host}:{port}/ (API docs at /docs)")
    uvicorn.run("civicsetu.api.asgi:app", host=host, port=port, workers=workers,
                access_log=False, log_config=None, timeout_graceful_shutdown=5,
                # A worker loads the index and ONNX runtime before it answers the
                # supervisor's first ping: on a busy machine that takes longer than 5 s.
                timeout_worker_healthcheck=60)


def mcp(home: HomeOpt = None) -> None:
    """Run the MCP server on stdio (tools: search, ask, get_provision, related_provisions,
    list_documents) for AI assistants."""
    from civicsetu.mcp import run_stdio

    run_stdio(_settings(home))
