"""``civicsetu documents``: list the indexed documents (full ids), or remove one."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from civicsetu.answer.provenance import resolved_provenance
from civicsetu.engine import Engine
from civicsetu.render import document_lines, emit, styled

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
HomeOpt = Annotated[Path | None, typer.Option(
    "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)]


def register(app: typer.Typer, engine: Callable[[Path | None], Engine], out: Console,
             err: Console) -> None:
    """Add the ``documents`` group (list by default, ``remove ID``) to ``app``."""

    def print_json(obj: object) -> None:
        sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")

    docs_app = typer.Typer(help="List the indexed documents, or remove one.",
                           invoke_without_command=True)

    @docs_app.callback()
    def documents_cmd(ctx: typer.Context, home: HomeOpt = None,
                      as_json: JsonFlag = False) -> None:
        """List the indexed documents with their full ids and where each came from."""
        if ctx.invoked_subcommand is not None:
            return
        with engine(home) as cs:
            docs = cs.documents()
            provenance = resolved_provenance(cs.store)
        if as_json:
            for d in docs:
                prov = provenance.get(d.id)
                print_json({"id": d.id, "title": d.title, "jurisdiction": d.jurisdiction,
                                 "doc_type": d.doc_type, "provisions": d.provisions,
                                 "chunks": d.chunks, "source": d.source,
                                 "origin": prov.origin if prov else "",
                                 "origin_path": prov.path if prov else "",
                                 "ingested_at": prov.ingested_at if prov else "",
                                 "lookalike_of": prov.lookalike_of if prov else ""})
            return
        if not docs:
            err.print("The index is empty; run `civicsetu ingest --bundled`.")
            return
        emit(out, document_lines(docs))
        flagged = [(d.id, provenance[d.id]) for d in docs
                   if d.id in provenance and provenance[d.id].lookalike_of]
        emit(err, [styled((f"warning: {doc_id} is flagged: {p.label()}", "yellow"))
                       for doc_id, p in flagged])

    @docs_app.command("remove")
    def remove_cmd(
        doc_id: Annotated[str, typer.Argument(metavar="ID", help="A document id, as "
                                              "`civicsetu documents` prints it.")],
        home: HomeOpt = None,
    ) -> None:
        """Remove a document with its provisions, chunks, vectors, graph edges and history;
        references from other documents into it become unresolved."""
        with engine(home) as cs:
            cs.remove_document(doc_id)
        emit(err, [styled(f"removed {doc_id}")])

    app.add_typer(docs_app, name="documents")
