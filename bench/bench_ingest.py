"""Ingest profile: where the time of ``civicsetu ingest`` goes, stage by stage.

    python -m bench.bench_ingest CORPUS_DIR [-n 40] [--base HOME] [--embedder NAME]
                                 [--whole-pass] [--write docs/BENCHMARKS.md]

Ingests ``n`` real Acts (every k-th file of CORPUS_DIR, sorted by name) through the real
pipeline into a fresh index in a temporary folder (or into a copy of ``--base``'s index, to
see the costs that grow with the number of documents already stored; the sampled Acts
are first removed from the copy, by their provenance path), with a timer around
each stage's function: read, parse, chunk, enrich, embed, the write transaction (split
into versioning, rows + FTS + vectors + commit, metadata, reference resolution),
provenance and the final reference pass. The timers wrap the functions the pipeline and
the store call, by module attribute, so the code measured is the code that runs.
``--whole-pass`` resolves every reference of the index after each new document, as before
``resolve_new_document``, for a before/after comparison.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.bench_search import machine
from bench.sections import write_section
from civicsetu.config import Settings
from civicsetu.embed import get_embedder
from civicsetu.ingest import pipeline
from civicsetu.store import open_store, sqlite_graph, sqlite_versions
from civicsetu.store import sqlite as sqlite_store

# (stage, object, attribute): the stage a function's time is charged to. A stage inside
# another (reference resolution inside the write) is subtracted from the outer one.
STAGES: list[tuple[str, Any, str]] = [
    ("read (load + decode + checks)", pipeline, "load_source"),
    ("read (load + decode + checks)", pipeline, "several_acts"),
    ("parse (structure)", pipeline, "parse_provisions"),
    ("chunk", pipeline, "chunk_document"),
    ("enrich (references, definitions, amendments, dates)", pipeline, "extract_references"),
    ("enrich (references, definitions, amendments, dates)", pipeline, "extract_definitions"),
    ("enrich (references, definitions, amendments, dates)", pipeline, "extract_amendments"),
    ("enrich (references, definitions, amendments, dates)", pipeline, "extract_dates"),
    ("provenance + look-alike titles", pipeline, "_plan_provenance"),
    ("write: versioning", sqlite_versions, "supersede_changed"),
    ("write: versioning", sqlite_versions, "drop_current"),
    ("write: refs, definitions, dates rows", sqlite_graph, "write_metadata"),
    ("write: reference resolution (per document)", sqlite_graph, "resolve_references"),
    ("write: reference resolution (per document)", sqlite_graph, "resolve_new_document"),
]
WRITE = "write: rows + FTS + vectors + commit"
EMBED = "embed"
FINAL = "reference resolution (final pass)"
CACHE = "vector cache look-up"


class Timers:
    """Wall and CPU seconds per stage (CPU: every thread of this process, so a loaded
    machine inflates it far less than wall time); nested timed calls are charged to the
    innermost stage only."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        # per active call: [wall start, cpu start, wall of inner calls, cpu of inner calls]
        self._stack: list[list[float]] = []

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._stack.append([time.perf_counter(), time.process_time(), 0.0, 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                start, cpu_start, inner, inner_cpu = self._stack.pop()
                spent = time.perf_counter() - start
                cpu = time.process_time() - cpu_start
                self.seconds[stage] += spent - inner
                self.cpu[stage] += cpu - inner_cpu
                if self._stack:
                    self._stack[-1][2] += spent
                    self._stack[-1][3] += cpu
        return timed


def pick(corpus: Path, n: int) -> list[Path]:
    files = sorted(corpus.glob("*.md"))
    step = max(1, len(files) // n)
    return files[::step][:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--base", type=Path, help="a CIVICSETU_HOME whose index is copied first")
    parser.add_argument("--embedder", default="minilm-onnx")
    parser.add_argument("--whole-pass", action="store_true",
                        help="resolve all references after each document (the old way)")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    files = pick(args.corpus, args.n)
    timers = Timers()
    if args.whole_pass:
        def whole(c: Any, doc_id: str) -> None:
            sqlite_graph.resolve_references(c)
        sqlite_graph.resolve_new_document = whole
    for stage, owner, attr in STAGES:
        setattr(owner, attr, timers.wrap(stage, getattr(owner, attr)))
    store_cls = sqlite_store.SQLiteStore
    for stage, attr in ((WRITE, "replace_document"), (CACHE, "cached_vectors"),
                        (FINAL, "resolve_references")):
        setattr(store_cls, attr, timers.wrap(stage, getattr(store_cls, attr)))
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        home = Path(tmp)
        if args.base:
            shutil.copy(args.base / "civicsetu.db", home / "civicsetu.db")
        settings = Settings(home=home, embedder=args.embedder)
        embedder = get_embedder(settings.embedder)
        embedder.embed_documents(["warm-up"])  # model load is not an ingest stage
        embedder.embed_documents = timers.wrap(EMBED, embedder.embed_documents)  # type: ignore[method-assign]
        store = open_store(settings)
        if args.base:
            mine = {str(p.resolve()) for p in files}
            for doc_id, prov in store.provenance().items():
                if prov.path in mine:
                    store.delete_document(doc_id)
        started = machine()
        before = store.documents()
        t0, c0 = time.perf_counter(), time.process_time()
        reports = pipeline.ingest([pipeline.SourceSpec(p) for p in files], store, embedder,
                                  settings, allow_partial=True)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        store.close()
    chunks = sum(r.chunks for r in reports)
    embedded = sum(r.embedded for r in reports)
    failed = [r for r in reports if r.status == "failed"]
    rows = sorted(((stage, secs, timers.cpu[stage]) for stage, secs in timers.seconds.items()),
                  key=lambda row: -row[2])
    rows.append(("other (pipeline glue, identity checks)", wall - sum(timers.seconds.values()),
                 cpu - sum(timers.cpu.values())))
    mb = sum(p.stat().st_size for p in files) / 2**20
    where = (f"a copy of {args.base} ({len(before)} documents)" if args.base
             else "an empty index")
    lines = [
        f"{len(files)} Acts (every {max(1, len(list(args.corpus.glob('*.md'))) // args.n)}th "
        f"file of {args.corpus.name}, {mb:.1f} MB) into "
        f"{where}, embedder `{args.embedder}`"
        f"{', every reference resolved after each document' if args.whole_pass else ''}; "
        f"{started}.", "",
        f"{chunks} chunks ({embedded} embedded), {len(failed)} failed; wall {wall:.1f} s, "
        f"CPU {cpu:.1f} s; **{chunks / wall:.1f} chunks/s** end to end.", "",
        "| stage | CPU s | share of CPU | CPU ms per chunk | wall s |", "|---|---|---|---|---|"]
    for stage, secs, stage_cpu in rows:
        lines.append(f"| {stage} | {stage_cpu:.2f} | {stage_cpu / cpu:.1%} | "
                     f"{1000 * stage_cpu / max(chunks, 1):.2f} | {secs:.1f} |")
    body = "\n".join(lines)
    print(body)
    if args.write:
        base = f" --base {args.base}" if args.base else ""
        section = "ingest-profile" + ("-base" if args.base else "") + (
            "-whole" if args.whole_pass else "")
        flags = base + (" --whole-pass" if args.whole_pass else "")
        write_section(args.write, section,
                      f"## Ingest profile by stage{' (into a full index)' if args.base else ''}"
                      f"\n\n`python -m bench.bench_ingest {args.corpus} -n {args.n}{flags} "
                      f"--embedder {args.embedder}`\n\n{body}")


if __name__ == "__main__":
    main()
