"""``civicsetu review`` and ``civicsetu eval-contracts``: contract review from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import InputError

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)
RISK_STYLE = {"HIGH": "bold red", "MEDIUM": "yellow", "LOW": "green"}


def review_cmd(
    targets: Annotated[list[str], typer.Argument(
        help="Contract files (PDF, DOCX, HTML, Markdown, text; ingested as contracts) or ids "
             "of documents already in the index.", metavar="FILE_OR_DOC...")],
    fmt: Annotated[str | None, typer.Option(
        "--format", help="Also write a report: json, md or html (needs --out).")] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Report file for --format.", show_default=False)] = None,
    checklist_file: Annotated[Path | None, typer.Option(
        "--checklist", help="Your own checklist YAML: adds items, replaces same ids.",
        show_default=False)] = None,
    group: Annotated[str | None, typer.Option(
        "--group", help="Only items of this group: nda (the 17 ContractNLI items) or "
                        "commercial.", show_default=False)] = None,
    llm: Annotated[str | None, typer.Option(
        "--llm", metavar="SPEC", help="Label with this LLM over the ranked evidence "
        "(validated; the model-free label stays on an invalid reply).",
        show_default=False)] = None,
    no_dense: Annotated[bool, typer.Option(
        "--no-dense", help="Rank evidence without the embedder (faster).")] = False,
    home: Annotated[Path | None, typer.Option(
        "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)] = None,
) -> None:
    """Review contracts clause by clause: for each checklist item the label (yes / no /
    not mentioned), a risk level with its reason, the clause and a verbatim quote; then
    conflicts across the contracts (governing law, courts, caps, notice, terms)."""
    from civicsetu.review import report
    from civicsetu.review.checklist import load_checklist
    from civicsetu.review.service import review

    if fmt is not None and fmt not in ("json", "md", "html"):
        raise InputError(f"unknown --format {fmt!r}; use json, md or html")
    if fmt is not None and out_file is None:
        raise InputError("--format needs --out FILE")
    checklist = load_checklist(checklist_file)
    settings = Settings(home=home) if home else Settings()
    with Engine(settings) as engine:
        run = review(engine, targets, checklist, group=group, llm=llm or settings.llm,
                     dense=not no_dense)
    name = f"{checklist.name} v{checklist.version}"
    for r in run.reviews:
        caption = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in r.metadata.items())
        table = Table(title=f"{escape(r.title)} ({escape(r.doc_id)})", show_lines=False,
                      caption=escape(caption) if caption else None)
        for col in ("Item", "Label", "Risk", "Clause", "Quote"):
            table.add_column(col, overflow="fold")
        for f in r.findings:
            c = f.citations[0] if f.citations else None
            quote = " ".join(c.quote.split()) if c else ""
            table.add_row(escape(f.title), report.LABEL_TEXT[f.label.value],
                          f"[{RISK_STYLE[f.risk.value]}]{f.risk.value}[/]",
                          escape(c.label) if c else "",
                          escape(quote[:160] + ("…" if len(quote) > 160 else "")))
        out.print(table)
        if r.rejected_quotes:
            err.print(f"{r.rejected_quotes} quote(s) failed verbatim verification and were "
                      "left out")
    if run.conflicts:
        out.print("[bold]Conflicts across contracts[/bold]")
        for cf in run.conflicts:
            out.print(f"- {escape(cf.description)}")
            for s in cf.sides:
                out.print(f"    {escape(s.doc_id)} {escape(s.citation.label)}: "
                          f"{escape(s.value)}  \"{escape(' '.join(s.citation.quote.split()))}\"")
    if fmt and out_file:
        render = {"json": report.to_json, "md": report.to_markdown, "html": report.to_html}[fmt]
        out_file.parent.mkdir(parents=True, exist_ok=True)
        out_file.write_text(render(run.reviews, run.conflicts, name), encoding="utf-8")
        err.print(f"wrote {out_file}")


def eval_contracts_cmd(
    path: Annotated[Path, typer.Argument(help="A ContractNLI-format JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    limit: Annotated[int | None, typer.Option(
        "--limit", help="Only the first N documents.", show_default=False)] = None,
    no_dense: Annotated[bool, typer.Option(
        "--no-dense", help="Rank evidence without the embedder.")] = False,
    llm: Annotated[str | None, typer.Option(
        "--llm", metavar="SPEC", help="Labels from this LLM over the reviewer's top-5 "
        "evidence (one call per contract and hypothesis).", show_default=False)] = None,
    checklist_file: Annotated[Path | None, typer.Option(
        "--checklist", help="Checklist YAML to use on top of the shipped one.",
        show_default=False)] = None,
    home: Annotated[Path | None, typer.Option(
        "--home", help="Folder for the embedding cache (overrides CIVICSETU_HOME).",
        show_default=False)] = None,
) -> None:
    """Measure contract review on a ContractNLI file: evidence recall@1/3/5 and MAP, NLI
    accuracy and F1, corpus-wide character precision/recall@1/4/16/64, against a majority
    and a BM25 baseline in the same run."""
    from civicsetu.embed.base import get_embedder
    from civicsetu.eval.contracts import load_contractnli, run_contract_eval, unit_texts_of
    from civicsetu.llm.base import get_llm
    from civicsetu.review.checklist import Item, Label, load_checklist
    from civicsetu.review.llm_label import llm_label

    settings = Settings(home=home) if home else Settings()
    data = load_contractnli(path, limit)
    embedder = None if no_dense else get_embedder(settings.embedder, settings)
    model = get_llm(llm) if llm else None
    labeler = None
    if model is not None:
        def labeler(item: Item, doc: Any, top: list[int]) -> Label | None:
            return llm_label(model, item, unit_texts_of(doc, top))
    result = run_contract_eval(data, load_checklist(checklist_file), embedder,
                               settings.home / "cache", labeler=labeler)
    result["file"] = str(path)
    result["llm"] = llm
    if as_json:
        out.print_json(json.dumps(result))
        return
    _print_eval(result)


def _print_eval(r: dict[str, Any]) -> None:
    keys = ("evidence_recall_at_1", "evidence_recall_at_3", "evidence_recall_at_5",
            "evidence_map", "nli_accuracy", "nli_f1_entailed", "nli_f1_contradicted",
            "nli_f1_not_mentioned", "nli_macro_f1", "corpus_char_precision_at_1",
            "corpus_char_precision_at_4", "corpus_char_recall_at_1", "corpus_char_recall_at_4",
            "corpus_char_recall_at_16", "corpus_char_recall_at_64")
    t = Table(title=f"{escape(r['file'])}: {r['documents']} contracts, {r['pairs']} pairs, "
                    f"{r['evidence_pairs']} with evidence")
    t.add_column("metric")
    for name in ("reviewer", "bm25", "majority", "reviewer even", "reviewer odd"):
        t.add_column(name, justify="right")
    for k in keys:
        cells = [r[k], r["baselines"]["bm25"][k], r["baselines"]["majority"][k]]
        cells += [r["halves"][h].get(k) for h in ("even_docs", "odd_docs")]
        t.add_row(k, *("" if c is None else f"{c:.3f}" for c in cells))
    out.print(t)
    h = Table(title="per hypothesis: evidence recall@5 / NLI accuracy")
    for col in ("item", "title", "reviewer", "bm25", "majority"):
        h.add_column(col)
    for key, row in r["per_hypothesis"].items():
        h.add_row(escape(key), escape(row["title"]), *(
            f"{row[s]['evidence_recall_at_5']:.2f} / {row[s]['nli_accuracy']:.2f}"
            for s in ("reviewer", "bm25", "majority")))
    out.print(h)


def contract_ask_cmd(
    questions: Annotated[list[str], typer.Argument(
        help="One or more questions, asked in order as one conversation (follow-ups such as "
             "'what about the vendor agreement?' keep the previous question; '1'-'3' pick a "
             "suggestion).", metavar="QUESTION...")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    home: Annotated[Path | None, typer.Option(
        "--home", help="Index folder (overrides CIVICSETU_HOME).", show_default=False)] = None,
) -> None:
    """Ask about the contracts in the index: answers quote the clauses (verified verbatim),
    risk questions get risk levels, 'across the agreements' questions list conflicts, and
    drafting or strategy requests are refused."""
    from dataclasses import asdict

    from civicsetu.review.assistant import ContractAssistant

    settings = Settings(home=home) if home else Settings()
    results = []
    with Engine(settings, create=False) as engine:
        chat = ContractAssistant(engine.store)
        for q in questions:
            a = chat.ask(q)
            results.append(a)
            if not as_json:
                scope = f" [{', '.join(a.scope)}]" if a.scope else ""
                out.print(f"[bold]Q: {escape(q)}[/bold]  ({a.route.value}{escape(scope)})")
                out.print(a.text, markup=False, highlight=False)
                for i, s in enumerate(a.suggestions, 1):
                    out.print(f"  {i}. {escape(s)}", style="dim")
                out.print()
    if as_json:
        out.print_json(json.dumps([{**asdict(a), "route": a.route.value} for a in results]))
