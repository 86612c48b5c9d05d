"""The ``civicsetu`` command. Errors become one line on stderr and a non-zero exit code."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from civicsetu.answer.provenance import annotate, sources_to_show
from civicsetu.cli_store import store_app
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import CivicSetuError, InputError
from civicsetu.ingest.pipeline import IngestReport, SourceSpec, bundled_specs
from civicsetu.render import (
    answer_lines,
    edge_lines,
    emit,
    hit_lines,
    notice_lines,
    provision_lines,
    styled,
)
from civicsetu.search.hybrid import Mode, SearchFilters
from civicsetu.serialize import answer_to_dict, hit_to_dict, provision_to_dict
from civicsetu.types import DocType, check_doc_id, check_node_id, split_provision_id

# Documented in --help and README; tests/test_cli_trust.py checks each command against it.
EXIT_CODES = ("Exit codes: 0 done; 1 other error; 2 bad input (argument, id, question, "
              "encoding); 3 a source file failed to ingest; 4 nothing ingested yet; 5 no such "
              "document or provision; 6 index cannot be opened; 7 model or LLM failed.")

app = typer.Typer(
    name="civicsetu",
    help="Answer questions about the law from the law itself, with verified pinpoint "
         "citations. Runs offline; the index lives in $CIVICSETU_HOME (default ~/.civicsetu), "
         "which `civicsetu ingest` creates (commands that only read never do).",
    epilog=EXIT_CODES,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
HomeOpt = Annotated[Path | None, typer.Option(
    "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)]
DocOpt = Annotated[list[str] | None, typer.Option(
    "--doc", help="Only search this document id (repeatable).", show_default=False)]
JurisdictionOpt = Annotated[str | None, typer.Option(
    "--jurisdiction", help="Only documents of this jurisdiction (e.g. IN).")]
DocTypeOpt = Annotated[str | None, typer.Option(
    "--doc-type", help="Only documents of this type: act, rules, regulations, contract.")]
AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", metavar="YYYY-MM-DD", help="The law as in force on this date: provisions "
    "superseded later are searched, ones not yet in force are not.", show_default=False)]
ModeOpt = Annotated[str, typer.Option(
    "--mode", help="Retrieval: hybrid (BM25 + dense, default), bm25 or dense.")]


def _engine(home: Path | None, *, create: bool = False) -> Engine:
    """The engine on ``home``; only ``create=True`` (ingest) may create a missing index,
    so a command that reads names a mistyped --home instead of answering from nothing."""
    settings = Settings(home=home) if home else Settings()
    return Engine(settings, create=create)


def _filters(doc: list[str] | None, jurisdiction: str | None,
             doc_type: str | None, as_of: str | None = None) -> SearchFilters | None:
    if doc_type and doc_type not in {t.value for t in DocType}:
        raise InputError(f"unknown --doc-type {doc_type!r}; use one of: "
                         + ", ".join(t.value for t in DocType))
    for doc_id in doc or []:
        check_doc_id(doc_id)
    if not (doc or jurisdiction or doc_type or as_of):
        return None
    return SearchFilters(doc_ids=doc or None, jurisdiction=jurisdiction, doc_type=doc_type,
                         as_of=_date(as_of))


def _date(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise InputError(f"--as-of {value!r} is not a date; use YYYY-MM-DD") from exc


def _mode(mode: str) -> Mode:
    if mode not in ("hybrid", "bm25", "dense"):
        raise InputError(f"unknown --mode {mode!r}; use hybrid, bm25 or dense")
    return mode  # type: ignore[return-value]


def _progress(*, disabled: bool) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    console=err, transient=True, disable=disabled)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


@app.command("ingest")
def ingest_cmd(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="Files to index: .pdf, .html, .docx, .md or .txt.", show_default=False)] = None,
    bundled: Annotated[bool, typer.Option(
        "--bundled", help="Index the 11 Acts that ship with CivicSetu.")] = False,
    registry: Annotated[Path | None, typer.Option(
        "--registry", help="A TOML registry of documents (paths or URLs, jurisdiction, type, "
                           "effective date, max_pages, parent Act); see docs/INGESTION.md. An "
                           "entry whose id is a bundled Act's but whose text is not is refused.",
        show_default=False)] = None,
    jurisdiction: Annotated[str, typer.Option(help="Jurisdiction of PATHS.")] = "IN",
    doc_type: Annotated[str, typer.Option(
        "--doc-type", help="Type of PATHS: act, rules, regulations, contract, other.")] = "act",
    parent: Annotated[str | None, typer.Option(
        "--parent", help="Parent Act id of PATHS (for rules and regulations).",
        show_default=False)] = None,
    max_pages: Annotated[int | None, typer.Option(
        "--max-pages", help="Read only the first N pages of PDF PATHS (forms come after).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(help="Re-parse even if a file is unchanged.")] = False,
    allow_partial: Annotated[bool, typer.Option(
        "--allow-partial", help="Index a file even when most of its text is not in numbered "
        "provisions (it is refused otherwise; the report says how much was indexed).")] = False,
    home: HomeOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Index documents. Unchanged files are skipped; a changed one supersedes its old
    version in one transaction (history kept, embeddings of unchanged text reused). A file
    that cannot be read is reported and the batch goes on."""
    if not paths and not bundled and registry is None:
        raise InputError("nothing to ingest; pass files, --registry FILE or --bundled")
    if doc_type not in {t.value for t in DocType}:
        raise InputError(f"unknown --doc-type {doc_type!r}")
    specs: list[SourceSpec] = []
    if bundled:
        specs += bundled_specs()
    specs += [SourceSpec(p, jurisdiction=jurisdiction, doc_type=DocType(doc_type),
                         parent_id=parent, max_pages=max_pages) for p in paths or []]
    progress = _progress(disabled=as_json)
    with _engine(home, create=True) as engine, progress:
        task = progress.add_task("ingest", total=len(specs))
        current: dict[str, int] = {}
        chunks = {"finished": 0, "doc": 0}
        started = time.perf_counter()

        def on_progress(doc_id: str, done: int, total: int) -> None:
            if doc_id not in current:
                current[doc_id] = len(current)
                chunks["finished"] += chunks["doc"]
                progress.update(task, completed=current[doc_id])
            chunks["doc"] = done
            rate = (chunks["finished"] + done) / max(time.perf_counter() - started, 1e-6)
            progress.update(task, description=f"{doc_id[:40]}: {done}/{total} chunks, "
                                              f"{rate:.0f} chunks/s")

        reports = engine.ingest(specs, force=force, on_progress=on_progress,
                                allow_partial=allow_partial) if specs else []
        if registry is not None:
            reports += engine.ingest_registry(registry, force=force, on_progress=on_progress)
        progress.update(task, completed=len(reports))
    if as_json:
        for r in reports:
            _print_json(asdict(r))
    else:
        table = Table("document", "status", "provisions", "chunks", "embedded", "reused")
        for r in reports:
            table.add_row(Text(r.doc_id), r.status, str(r.provisions), str(r.chunks),
                          str(r.embedded), str(r.reused))
        err.print(table)
        emit(err, _report_notes(reports))
    failed = [r for r in reports if r.status == "failed"]
    if failed:
        raise typer.Exit(3)


SHARED_NOTE_MIN = 3  # documents sharing a message before it is said once for all


def _report_notes(reports: list[IngestReport]) -> list[Text]:
    """One line per report with a message; a message several documents share (a re-parse
    after an upgrade touches every document) is said once, with how many it concerns."""
    shared = Counter(r.message for r in reports if r.message and r.status != "failed")
    lines: list[Text] = []
    said: set[str] = set()
    for r in reports:
        if not r.message:
            continue
        if r.status == "failed":
            lines.append(styled((r.message, "red")))
        elif shared[r.message] < SHARED_NOTE_MIN:
            lines.append(styled((f"{r.source}: {r.message}", "yellow")))
        elif r.message not in said:
            said.add(r.message)
            lines.append(styled((f"{shared[r.message]} documents: {r.message}", "yellow")))
    return lines


@app.command("search")
def search_cmd(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    k: Annotated[int, typer.Option("-k", "--top", min=1, help="How many provisions.")] = 10,
    mode: ModeOpt = "hybrid",
    doc: DocOpt = None,
    jurisdiction: JurisdictionOpt = None,
    doc_type: DocTypeOpt = None,
    as_of: AsOfOpt = None,
    home: HomeOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Ranked provisions for a query (no answer)."""
    with _engine(home) as engine:
        result = engine.search(query, k=k, mode=_mode(mode),
                               filters=_filters(doc, jurisdiction, doc_type, as_of))
    if as_json:
        _print_json({"query": result.analysis.query,
                     "hits": [hit_to_dict(h) for h in result.hits],
                     "timings_ms": result.timings_ms})
        return
    for i, h in enumerate(result.hits, start=1):
        emit(out, hit_lines(i, h.provision_id, h.score, h.pinned, h.text))


@app.command("ask")
def ask_cmd(
    query: Annotated[str | None, typer.Argument(
        help="A question in plain language.", show_default=False)] = None,
    batch: Annotated[Path | None, typer.Option(
        "--batch", help="JSONL file of rows with a 'query' field; one answer per line.")] = None,
    k: Annotated[int, typer.Option("-k", "--top", min=10,
                                   help="Ranked provisions to report (>= 10).")] = 10,
    mode: ModeOpt = "hybrid",
    doc: DocOpt = None,
    jurisdiction: JurisdictionOpt = None,
    doc_type: DocTypeOpt = None,
    as_of: AsOfOpt = None,
    llm: Annotated[str | None, typer.Option(
        "--llm", metavar="SPEC", help="Write the answer with an LLM, checked before it is "
        "shown: openai:MODEL, groq:MODEL, ollama:MODEL, openai-compatible:MODEL@URL, "
        "gguf:PATH (or gguf:smollm2); a,b is a fallback chain. Default: extractive "
        "(CIVICSETU_LLM).", show_default=False)] = None,
    research: Annotated[bool, typer.Option(
        "--research", help="Multi-hop research: plan up to three steps, retrieve for each, "
        "pool and de-duplicate, answer from all of them.")] = False,
    home: HomeOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Answer a question with verbatim, verified quotes and pinpoint citations, or say
    that the corpus does not answer it."""
    if (query is None) == (batch is None):
        raise InputError("give a question or --batch FILE (one of them)")
    queries = [query] if query is not None else _read_batch(batch)  # type: ignore[arg-type]
    filters = _filters(doc, jurisdiction, doc_type, as_of)
    with _engine(home) as engine:
        for q in queries:
            if research:
                answer = engine.research(q, filters=filters, llm=llm).answer
            else:
                answer = engine.ask(q, k=k, mode=_mode(mode), filters=filters, llm=llm)
            if as_json:
                _print_json(answer_to_dict(answer))
                continue
            emit(out, answer_lines(answer, sources_to_show(answer)))
            emit(err, notice_lines(answer.notices))


def _read_batch(path: Path) -> list[str]:
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    from civicsetu.guard.encoding import decode_utf8

    queries = []
    for n, line in enumerate(decode_utf8(path.read_bytes(), str(path)).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            queries.append(str(row["query"]))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InputError(f"{path}:{n}: expected a JSON object with a 'query' field") from exc
    if not queries:
        raise InputError(f"{path}: no rows with a 'query' field")
    return queries


@app.command("chat")
def chat_cmd(
    session: Annotated[str, typer.Option(
        "--session", help="Conversation name; the same name resumes it later.")] = "default",
    llm: Annotated[str | None, typer.Option(
        "--llm", metavar="SPEC", help="As for `ask`; default extractive.",
        show_default=False)] = None,
    home: HomeOpt = None,
) -> None:
    """Talk to the corpus: follow-ups such as "what about the penalty for that?" are
    resolved from the conversation; type 1-3 to pick a suggested follow-up, or an empty
    line / Ctrl-D to stop."""
    with _engine(home) as engine:
        conversation = engine.conversation(llm)
        try:
            while True:
                try:
                    question = input("you> ").strip()
                except EOFError:
                    break
                except UnicodeDecodeError:
                    emit(err, [styled(("error: that line is not valid UTF-8; retype it",
                                       "red"))])
                    continue
                if not question:
                    break
                try:
                    answer, standalone, suggestions = conversation.ask(session, question)
                except CivicSetuError as exc:
                    emit(err, [styled((f"error: {exc}", "red"))])
                    continue
                if standalone and standalone != question:
                    emit(err, [styled((f"(searched: {standalone})", "dim"))])
                emit(out, answer_lines(annotate(answer, engine.store),
                                       sources_to_show(answer)))
                emit(err, notice_lines(answer.notices))
                emit(out, [styled("  ", (str(i), "bold"), f". {s.question} ",
                                  (f"({s.kind})", "dim"))
                           for i, s in enumerate(suggestions, start=1)])
        finally:
            conversation.close()


@app.command("show")
def show_cmd(
    provision_id: Annotated[str, typer.Argument(
        metavar="DOC#PATH", help="e.g. the-real-estate-regulation-and-development-act-2016#s.18")],
    as_of: AsOfOpt = None,
    history: Annotated[bool, typer.Option(
        "--history", help="Every stored version, oldest first, with validity dates.")] = False,
    home: HomeOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Print one provision exactly as stored, with its page, validity and footnotes."""
    split_provision_id(provision_id)  # a clear InputError for DOC#, # and the like
    with _engine(home) as engine:
        when = _date(as_of)
        shown = engine.store.history(provision_id) if history else []
        if not shown:
            shown = [engine.show(provision_id, when)]
        first = shown[-1]
        title = first.title or engine.show(f"{first.doc_id}#{first.section}", when).title
        doc_title = engine.store.document(first.doc_id).title
    if as_json:
        rows = [provision_to_dict(p, title=title) for p in shown]
        _print_json(rows if history else rows[0])
        return
    for p in shown:
        emit(out, provision_lines(p, doc_title, title))


graph_app = typer.Typer(help="The citation graph: what cites what, and what derives from "
                                  "what.", no_args_is_help=True)
app.add_typer(graph_app, name="graph")
app.add_typer(store_app, name="store")  # issue 14: store migrate (civicsetu.cli_store)


@graph_app.command("stats")
def graph_stats_cmd(home: HomeOpt = None, as_json: JsonFlag = False) -> None:
    """Count documents, provisions, edges by type, and resolved vs unresolved references."""
    with _engine(home) as engine:
        stats = engine.store.graph_stats()
    if as_json:
        _print_json(asdict(stats))
        return
    table = Table("measure", "count")
    table.add_row("documents", str(stats.documents))
    table.add_row("provisions", str(stats.provisions))
    for edge_type, n in stats.edges.items():
        table.add_row(f"edges {edge_type}", str(n))
    table.add_row("references resolved", str(stats.references_resolved))
    table.add_row("  of which to the enclosing section", str(stats.references_to_section))
    table.add_row("references unresolved (target not ingested)",
                  str(stats.references_unresolved))
    table.add_row("definitions", str(stats.definitions))
    table.add_row("amendment notes", str(stats.amendments))
    table.add_row("dates", str(stats.dates))
    out.print(table)


@graph_app.command("show")
def graph_show_cmd(
    node: Annotated[str, typer.Argument(
        metavar="DOC#PATH", help="A provision id, or a document id for its document links.")],
    home: HomeOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """List a provision's edges: references out and in, derived-from both ways,
    definitions, parts, and the references whose target is not in the corpus."""
    check_node_id(node)
    with _engine(home) as engine:
        if "#" in node:
            engine.show(node)  # a clear error for an unknown provision
        else:
            engine.store.document(node)
        out_edges = engine.store.edges(node, "out")
        in_edges = engine.store.edges(node, "in")
        unresolved = engine.store.unresolved_references(node) if "#" in node else []
    if as_json:
        _print_json({"node": node, "out": [asdict(e) for e in out_edges],
                     "in": [asdict(e) for e in in_edges],
                     "unresolved": [asdict(e) for e in unresolved]})
        return
    emit(out, edge_lines(node, out_edges, in_edges, unresolved))


@app.command("eval")
def eval_cmd(
    dataset: Annotated[Path, typer.Argument(help="JSONL with query, gold_provisions, "
                                                 "key_facts, query_type.")],
    out_prefix: Annotated[Path, typer.Option(
        "--out", help="Writes OUT.md and OUT.json.")] = Path("eval-results/legal_qa_dev"),
    llm: Annotated[str | None, typer.Option(
        "--llm", metavar="SPEC", help="Compare answers with no LLM against this LLM "
        "instead of hybrid against BM25-only.", show_default=False)] = None,
    home: HomeOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Measure retrieval (section recall@1/5/10, MRR) and answers (key facts, citation
    validity, abstention, answer rate, latency, LLM calls), hybrid against a BM25-only
    baseline, or with --llm no LLM against that LLM."""
    from civicsetu.eval.report import write_report
    from civicsetu.eval.runner import load_dataset, run_evaluation

    rows = load_dataset(dataset)
    progress = _progress(disabled=as_json)
    with _engine(home) as engine, progress:
        task = progress.add_task("eval", total=len(rows) * 2)
        report = run_evaluation(engine, rows, dataset.name,
                                on_row=lambda: progress.advance(task), llm=llm)
    md_path, json_path = write_report(report, out_prefix)
    if as_json:
        _print_json(report)
    else:
        out.print(md_path.read_text(encoding="utf-8"), highlight=False, markup=False)
        err.print(f"wrote {md_path} and {json_path}", highlight=False, markup=False)


from civicsetu import cli_documents  # noqa: E402  (registers its group on ``app``)

cli_documents.register(app, _engine, out, err)

from civicsetu.cli_index import index_app  # noqa: E402

app.add_typer(index_app, name="index")


from civicsetu.cli_doctor import doctor_cmd  # noqa: E402  (issue 9: `civicsetu doctor`)

app.command("doctor")(doctor_cmd)

# Contract review (issue 11): commands live in cli_review.py.
from civicsetu.cli_review import contract_ask_cmd, eval_contracts_cmd, review_cmd  # noqa: E402

app.command("review")(review_cmd)
app.command("eval-contracts")(eval_contracts_cmd)
app.command("contract-ask")(contract_ask_cmd)

# Service commands (issue 10): serve, keys, mcp live in cli_serve.py.
from civicsetu import cli_serve  # noqa: E402

app.command("serve")(cli_serve.serve)
app.command("mcp")(cli_serve.mcp)
app.add_typer(cli_serve.keys_app, name="keys")


def main() -> None:
    try:
        app()
    except CivicSetuError as exc:
        err.print(f"error: {exc}", highlight=False, markup=False)
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
