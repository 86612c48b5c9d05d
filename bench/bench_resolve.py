"""Reference resolution per written document at library size: the whole pass against
``resolve_new_document``.

    python -m bench.bench_resolve HOME [--docs 5] [--write docs/BENCHMARKS.md]

Copies HOME's index to a temporary folder and, for a few of its documents (every k-th by
id), times inside a transaction that is rolled back: the whole pass
(``sqlite_graph.resolve_references``, what every document write ran before) and the
incremental one for that document (what a first write runs now). Both start from a
consistent index, so they write nothing new; the time is the look-up and compare work a
write pays. Reports CPU and wall milliseconds per document (CPU hardly depends on load).
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.bench_search import machine
from bench.sections import write_section
from civicsetu.store import sqlite_graph


def timed(conn: sqlite3.Connection, work: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU) seconds of ``work`` inside a transaction that is rolled back."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        conn.execute("ROLLBACK")


def resolve_table(label: str, sizes: Sequence[int], started: str,
                  whole: list[tuple[float, float]], mine: list[tuple[float, float]],
                  cpu_label: str) -> str:
    """The whole pass against ``resolve_new_document``: (wall, CPU) seconds per document."""
    n = len(mine)
    lines = [f"Index {label}: {sizes[0]} documents, {sizes[1]} provisions, {sizes[2]} "
             f"references, {sizes[3]} edges; {n} documents timed; {started}.", "",
             f"| per written document | {cpu_label} | wall ms | whole ingest of this many "
             "documents, CPU (x N/2 average size) |", "|---|---|---|---|"]
    for name, times in [("whole pass (before)", whole), ("resolve_new_document (now)", mine)]:
        cpu = sum(c for _, c in times) / n
        wall = sum(w for w, _ in times) / n
        lines.append(f"| {name} | {1000 * cpu:.1f} | {1000 * wall:.1f} | "
                     f"~{cpu * sizes[0] / 2:.1f} s |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("home", type=Path)
    parser.add_argument("--docs", type=int, default=5)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-resolve-") as tmp:
        db = Path(tmp) / "civicsetu.db"
        with sqlite3.connect(args.home / "civicsetu.db") as src, sqlite3.connect(db) as dst:
            src.backup(dst)  # a consistent copy even while another process writes
        conn = sqlite3.connect(db, isolation_level=None)
        sizes = [int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
                 for t in ("documents", "provisions", "refs", "edges")]
        ids = [r[0] for r in conn.execute("SELECT id FROM documents ORDER BY id")]
        picked = ids[::max(1, len(ids) // args.docs)][:args.docs]
        started = machine()
        whole = [timed(conn, lambda: sqlite_graph.resolve_references(conn)) for _ in picked]
        mine = [timed(conn, lambda d=d: sqlite_graph.resolve_new_document(conn, d))  # type: ignore[misc]
                for d in picked]
        conn.close()
    body = resolve_table(str(args.home), sizes, started, whole, mine, "CPU ms")
    print(body)
    if args.write:
        write_section(args.write, "ingest-resolve",
                      "## Reference resolution per document at library size\n\n"
                      f"`python -m bench.bench_resolve {args.home} --docs {args.docs}`\n\n"
                      f"{body}")


if __name__ == "__main__":
    main()
