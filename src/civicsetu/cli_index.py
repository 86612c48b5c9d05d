"""``civicsetu index``: the approximate (HNSW) dense index of the store."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from civicsetu.config import Settings
from civicsetu.engine import Engine

index_app = typer.Typer(
    help="The approximate dense-search index (HNSW) kept next to the SQLite file; search "
         "keeps it in step with every ingest and delete, and it is rebuilt here on demand.",
    no_args_is_help=True)
out = Console(soft_wrap=True)


@index_app.command("rebuild")
def rebuild_cmd(
    home: Annotated[Path | None, typer.Option(
        "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Rebuild the HNSW index from every stored vector (needs the ann extra: faiss-cpu)."""
    settings = Settings(home=home) if home else Settings()
    with Engine(settings, create=False) as engine:
        status = engine.store.rebuild_dense_index(engine.embedder.model_id)
    if as_json:
        out.print_json(json.dumps(asdict(status)))
        return
    out.print(f"{status.kind}: {status.rows:,} vectors in {status.seconds:.1f} s -> "
              f"{status.location}", markup=False, highlight=False)
