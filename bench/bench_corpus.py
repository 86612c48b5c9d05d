"""Benchmark real-document ingestion and write its section of docs/BENCHMARKS.md.

    python -m bench.bench_corpus [--corpus ../shared/corpus/india-central-acts]

Measures, in one run on this machine:
- structure detection on the whole Markdown corpus: headings that became provisions
  (``tools/check_corpus_headings.py``), and parse + chunk + enrich throughput;
- the PDF path: gazette-like PDFs of bundled Acts (``tools/gazette_pdf.py``) read and
  parsed, in pages/s, next to parsing the same Acts' Markdown;
- the citation graph of the bundled corpus after a real ingest (edges by type, resolved
  and unresolved references).
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from bench.sections import write_section
from civicsetu.config import Settings
from civicsetu.corpus import bundled_acts
from civicsetu.engine import Engine
from civicsetu.ingest.loader import load_document
from civicsetu.ingest.pipeline import parse_document
from civicsetu.ingest.readers import read_source
from civicsetu.store.base import GraphStats
from tools.check_corpus_headings import check
from tools.gazette_pdf import render

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "india-central-acts"
PDF_ACTS = ("the-real-estate-regulation-and-development-act-2016",
            "the-right-to-information-act-2005", "the-limitation-act-1963",
            "the-consumer-protection-act-2019", "the-indian-contract-act-1872")


def bench_pdf(tmp: Path) -> dict[str, float]:
    acts = {a.id: a.path for a in bundled_acts()}
    settings = Settings()
    pages = 0
    pdf_s = md_s = 0.0
    for act in PDF_ACTS:
        pdf = render(acts[act], tmp / f"{act}.pdf")
        t0 = time.perf_counter()
        pages += len(read_source(pdf).page_starts)
        parse_document(load_document(pdf), settings)
        pdf_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        parse_document(load_document(acts[act]), settings)
        md_s += time.perf_counter() - t0
    return {"pages": pages, "pdf_s": pdf_s, "md_s": md_s}


def bench_graph(home: Path) -> tuple[GraphStats, float]:
    with Engine(Settings(home=home)) as engine:
        t0 = time.perf_counter()
        engine.ingest_bundled()
        seconds = time.perf_counter() - t0
        stats = engine.store.graph_stats()
    return stats, seconds


def render_section(corpus: dict[str, object], pdf: dict[str, float], s: GraphStats,
                   ingest_s: float, corpus_path: Path) -> str:
    edges = ", ".join(f"{t} {n}" for t, n in s.edges.items())
    return "\n".join([
        "## Real documents and the citation graph",
        "",
        f"Machine: {platform.machine()}, {platform.system()}, Python "
        f"{platform.python_version()}. Produced by `python -m bench.bench_corpus` on "
        f"{time.strftime('%Y-%m-%d')}.",
        "",
        f"### Structure detection on {corpus['files']} Acts ({corpus_path.name})",
        "",
        f"{corpus['megabytes']} MB of Markdown. `## Section` headings that became a "
        f"provision with the same id: {corpus['found']} of {corpus['headings']} "
        f"(**{100 * float(str(corpus['ratio'])):.2f}%**, check: "
        f"`python tools/check_corpus_headings.py {_shown(corpus_path)}`). "
        f"{corpus['paragraph_fallback_files']} files have no numbered sections and were "
        "indexed paragraph by paragraph.",
        "",
        "| stage (no embedding) | seconds | provisions | chunks | references | "
        "provisions/s | MB/s |",
        "|---|---|---|---|---|---|---|",
        f"| read + parse + chunk + enrich | {corpus['parse_seconds']} | "
        f"{corpus['provisions']} | {corpus['chunks']} | {corpus['references']} | "
        f"{corpus['provisions_per_s']} | {corpus['mb_per_s']} |",
        "",
        f"### PDF path ({len(PDF_ACTS)} Acts rendered as gazette-like PDFs)",
        "",
        "| input | pages | seconds (read + parse + chunk + enrich) | pages/s |",
        "|---|---|---|---|",
        f"| PDF (pypdfium2, clean-up, structure) | {pdf['pages']:.0f} | {pdf['pdf_s']:.2f} | "
        f"{pdf['pages'] / pdf['pdf_s']:.0f} |",
        f"| the same Acts as Markdown | | {pdf['md_s']:.2f} | |",
        "",
        f"Reading a PDF costs {pdf['pdf_s'] / pdf['md_s']:.1f}x parsing its Markdown.",
        "",
        "### Citation graph of the bundled corpus",
        "",
        f"After `civicsetu ingest --bundled` ({ingest_s:.0f} s with embeddings): "
        f"{s.documents} documents, {s.provisions} provisions; edges: {edges}.",
        f"References: {s.references_resolved} resolved (of which "
        f"{s.references_to_section} to the enclosing section because the exact sub-clause "
        f"is not a provision), {s.references_unresolved} unresolved (other Acts not in the "
        f"bundle). {s.definitions} definitions, {s.amendments} amendment notes, "
        f"{s.dates} dates.",
    ])


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path.resolve(), ROOT)
    except ValueError:
        return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "BENCHMARKS.md")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        raise SystemExit(f"{args.corpus} not found; pass --corpus DIR (the 846-Act set)")
    corpus = check(args.corpus)
    with tempfile.TemporaryDirectory() as tmp:
        pdf = bench_pdf(Path(tmp))
        graph, ingest_s = bench_graph(Path(tmp) / "home")
    text = render_section(corpus, pdf, graph, ingest_s, args.corpus)
    write_section(args.out, "bench_corpus", text)
    print(text)


if __name__ == "__main__":
    main()
