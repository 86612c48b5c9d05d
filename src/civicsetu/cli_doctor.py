"""``civicsetu doctor``: check the index for what a crash or a bug left inconsistent, and
repair what can be repaired. Registered on the main app in ``cli.py``.

Exit code 0 when nothing is wrong (or everything found was fixed), 1 when problems remain,
6 when the index cannot be opened.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from civicsetu.config import Settings
from civicsetu.store import open_store

PROBLEMS_REMAIN = 1


def doctor_cmd(
    fix: Annotated[bool, typer.Option(
        "--fix", help="Repair what can be repaired: drop orphan rows, re-index the "
                      "keyword index, resolve references again, on PostgreSQL also drop "
                      "edges to missing provisions and rebuild a missing or invalid HNSW "
                      "index, and mark incomplete documents so the "
                      "next ingest of their files writes them again.")] = False,
    home: Annotated[Path | None, typer.Option(
        "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Check the index: SQLite integrity (on PostgreSQL: the schema and each model's HNSW
    index), orphan rows, edges to missing provisions, a vector for every chunk, the
    keyword index in step with the chunks, reference edges, incomplete documents.
    Exits 1 while problems remain."""
    settings = Settings(home=home) if home else Settings()
    store = open_store(settings, create=False)
    try:
        findings = store.doctor(fix=fix)
    finally:
        store.close()
    remaining = sum(f.remaining for f in findings)
    if as_json:
        sys.stdout.write(json.dumps({
            "path": _where(settings), "fix": fix, "remaining": remaining,
            "findings": [{**asdict(f), "remaining": f.remaining} for f in findings]},
            ensure_ascii=False) + "\n")
    else:
        out = Console(soft_wrap=True)
        table = Table("check", "problems", "fixed", "detail")
        for f in findings:
            table.add_row(f.check, str(f.problems), str(f.fixed), escape(f.detail))
        out.print(table)
        for f in findings:
            if f.remaining and f.remedy:
                out.print(f"{f.check}: {f.remedy}", markup=False, highlight=False)
        out.print("no problems found" if remaining == 0 else
                  f"{remaining} problems remain" + ("" if fix else "; run with --fix"),
                  markup=False, highlight=False)
    if remaining:
        raise typer.Exit(PROBLEMS_REMAIN)


def _where(settings: Settings) -> str:
    """The SQLite file, or the server store's URL without its password."""
    if not settings.store:
        return str(settings.resolved_db_path)
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(settings.store)
    if parts.password is None:
        return settings.store
    netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
