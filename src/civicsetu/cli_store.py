"""``civicsetu store``: move an index between backends (``store migrate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from civicsetu.config import Settings
from civicsetu.errors import InputError, StoreError

store_app = typer.Typer(help="The index's storage backend: copy an SQLite index into a "
                             "shared PostgreSQL + pgvector server.", no_args_is_help=True)
out = Console(soft_wrap=True)


@store_app.command("migrate")
def migrate_command(
    to: Annotated[str, typer.Option(
        "--to", help="Target store URL, postgresql://user:password@host:5432/dbname.",
        show_default=False)],
    source: Annotated[str | None, typer.Option(
        "--from", help="Source SQLite index as sqlite:PATH (default: the configured "
                       "index, $CIVICSETU_HOME/civicsetu.db).", show_default=False)] = None,
) -> None:
    """Copy documents, provisions, chunks, vectors, edges, history and metadata from an
    SQLite index into PostgreSQL without re-embedding; resumable; verified at the end."""
    from civicsetu.store.migrate import migrate
    from civicsetu.store.postgres import PostgresStore

    settings = Settings()
    path = settings.resolved_db_path
    if source is not None:
        if not source.startswith("sqlite:"):
            raise InputError(f"--from must be sqlite:PATH, not {source!r}")
        path = Path(source.removeprefix("sqlite:").removeprefix("//")).expanduser()
    if not to.startswith(("postgresql://", "postgres://")):
        raise InputError("--to must be a postgresql://user:password@host/dbname URL")
    target = PostgresStore(to, pool_size=1)
    try:
        report = migrate(path, target, on_document=lambda d: out.print(
            f"{d.status:8} {d.doc_id}  chunks={d.counts['chunks']}  "
            f"vectors={d.counts['embeddings']}  checksum={d.checksum[:12]}",
            markup=False, highlight=False))
    finally:
        target.close()
    table = Table(title="store migrate: source vs target")
    table.add_column("table")
    table.add_column("sqlite", justify="right")
    table.add_column("postgresql", justify="right")
    for name, n in report.source_counts.items():
        table.add_row(name, str(n), str(report.target_counts.get(name, "-")))
    out.print(table)
    out.print(f"checksum sqlite     {report.source_checksum}", markup=False, highlight=False)
    out.print(f"checksum postgresql {report.target_checksum}", markup=False, highlight=False)
    copied = sum(d.status == "copied" for d in report.documents)
    out.print(f"{copied} documents copied, {len(report.documents) - copied} already there",
              markup=False)
    if report.extra_in_target:
        out.print(f"the target also holds documents the source does not: "
                  f"{', '.join(report.extra_in_target)}", markup=False)
    if not report.verified:
        raise StoreError("counts or checksums differ between source and target (table "
                         "above); run the migration again to recopy what differs")
    out.print("verified: equal counts and checksums", markup=False)
