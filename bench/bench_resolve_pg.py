"""Reference resolution per written document on PostgreSQL: the whole pass against
``postgres_graph.resolve_new_document``.

    python -m bench.bench_resolve_pg POSTGRES_URL [--docs 5] [--write]

For a few documents of the database (every k-th by id), times inside a transaction that
is rolled back: the whole pass (``postgres_graph.resolve_references``, what every
document write ran before) and the incremental one for that document (what a first write
runs now). Both start from the stored state, so they write little; the time is the
look-up and compare work a write pays. CPU is this process's plus the server backend's
(read from ``/proc``, so the server must run on this machine). ``--write`` replaces the
``ingest-resolve-pg`` section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.bench_resolve import resolve_table
from bench.bench_search import machine
from bench.bench_store_scale import _server_cpu
from bench.sections import write_section
from civicsetu.store import postgres_graph

ROOT = Path(__file__).resolve().parents[1]


def timed(conn: Any, pid: int, work: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU) seconds of ``work`` inside a transaction that is rolled back."""
    conn.execute("BEGIN")
    try:
        s0, c0, t0 = _server_cpu([pid]), time.process_time(), time.perf_counter()
        work()
        t1, c1, s1 = time.perf_counter(), time.process_time(), _server_cpu([pid])
        return t1 - t0, c1 - c0 + s1 - s0
    finally:
        conn.execute("ROLLBACK")


def main() -> None:
    import psycopg

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("--docs", type=int, default=5)
    parser.add_argument("--label", default="")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    with psycopg.connect(args.url, autocommit=True) as conn:
        pid = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        sizes = [int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
                 for t in ("documents", "provisions", "refs", "edges")]
        ids = [r[0] for r in conn.execute("SELECT id FROM documents ORDER BY id").fetchall()]
        picked = ids[::max(1, len(ids) // args.docs)][:args.docs]
        started = machine()
        whole = [timed(conn, pid, lambda: postgres_graph.resolve_references(conn))
                 for _ in picked]
        mine = [timed(conn, pid,
                      lambda d=d: postgres_graph.resolve_new_document(conn, d))  # type: ignore[misc]
                for d in picked]
    body = resolve_table(args.label or "the database", sizes, started, whole, mine,
                         "CPU ms (client + server)")
    print(body)
    if args.write:
        write_section(ROOT / "docs" / "BENCHMARKS.md", "ingest-resolve-pg",
                      "## Reference resolution per document on PostgreSQL\n\n"
                      f"`python -m bench.bench_resolve_pg POSTGRES_URL --docs {args.docs}` "
                      "(PostgreSQL 16.2 from `pgserver` on the same machine)\n\n" + body)


if __name__ == "__main__":
    main()
