"""Search on PostgreSQL: BM25 over ``tsvector`` and filtered HNSW dense search.

BM25 is computed in SQL the way FTS5's ``bm25()`` computes it (k1 1.2, b 0.75, a term's
frequency is title hits x2 + body hits, document length counts every token, IDF from the
number of chunks containing the term, floored at 1e-6) over the ``chunk_terms`` inverted
index, so rankings match the SQLite store's up to the stemmer (Snowball English here,
Porter there). A quoted phrase of several words counts where all its words occur (its
frequency is that of its rarest word); word order is not checked.

Dense search asks the per-model HNSW index (pgvector 0.6: no iterative scan) for a
candidate list, joins it to the chunks that pass the filters, and widens the list
(``hnsw.ef_search`` with it) until ``k`` rows pass; past pgvector's ``ef_search`` ceiling
it falls back to an exact scan of the filtered rows, so a filter never returns fewer than
``k`` rows when ``k`` exist.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np
import numpy.typing as npt

K1 = 1.2
B = 0.75
EF_SEARCH_MAX = 1000  # pgvector's upper bound for hnsw.ef_search
EF_SEARCH_MIN = 100  # recall@60 against exact on the bundle: 0.938 at 40 candidates
# Filters leaving at most this many chunks are scanned exactly at once (as the SQLite
# store's ``ann_exact_below``): widening HNSW lists until k rows of a 1% filter pass cost
# three index searches and then the same scan (10x the time of the scan alone at 10^4).
EXACT_BELOW = 5_000
_PHRASE = re.compile(r'"((?:[^"]|"")*)"')


def phrases(fts_query: str) -> list[str]:
    """The quoted phrases of an FTS5 ``"a" OR "b"`` query (``search.query.fts_query``)."""
    found = [m.group(1).replace('""', '"') for m in _PHRASE.finditer(fts_query)]
    if not found and fts_query.strip():
        found = [w for w in re.split(r"\s+OR\s+|\s+", fts_query.strip()) if w]
    return [p for p in found if p.strip()]


def valid_clause(alias: str, as_of: date | None) -> tuple[str, list[object]]:
    """SQL (and parameters) selecting rows of ``alias`` in force ``as_of`` (None: now)."""
    if as_of is None:
        return f"{alias}.valid_to IS NULL", []
    day = as_of.isoformat()
    return (f"({alias}.valid_from IS NULL OR {alias}.valid_from <= %s) AND "
            f"({alias}.valid_to IS NULL OR {alias}.valid_to > %s)", [day, day])


def vector_literal(vector: npt.NDArray[np.float32]) -> str:
    """pgvector's text form; nine significant digits round-trip a float32 exactly."""
    return "[" + ",".join(f"{x:.9g}" for x in np.asarray(vector, dtype=np.float32)) + "]"


class CorpusStats:
    """Chunk count, average length and per-phrase document frequencies, cached until the
    next write through this store (another worker's writes shift them only slightly)."""

    def __init__(self) -> None:
        self.n: int | None = None
        self.avgdl = 1.0
        self.df: dict[str, int] = {}
        self.lexemes: dict[str, tuple[str, ...]] = {}

    def clear(self) -> None:
        self.n = None
        self.df.clear()

    def load(self, conn: Any) -> None:
        if self.n is None:
            n, total = conn.execute("SELECT count(*), coalesce(sum(ntokens), 0) FROM chunks"
                                    ).fetchone()
            self.n = int(n)
            self.avgdl = float(total) / n if n else 1.0

    def lexemes_of(self, conn: Any, texts: Sequence[str]) -> dict[str, tuple[str, ...]]:
        todo = [t for t in dict.fromkeys(texts) if t not in self.lexemes]
        if todo:
            rows = conn.execute(
                "SELECT t.p, coalesce((SELECT array_agg(u.lexeme ORDER BY u.positions[1])"
                " FROM unnest(to_tsvector('civicsetu', t.p)) u), '{}')"
                " FROM unnest(%s::text[]) AS t(p)", (todo,)).fetchall()
            for text, lexemes in rows:
                self.lexemes[text] = tuple(lexemes)
        return {t: self.lexemes[t] for t in texts}

    def document_frequency(self, conn: Any, texts: Sequence[str]) -> dict[str, int]:
        """Chunks (every version, as FTS5 counts) containing each phrase."""
        lex = self.lexemes_of(conn, texts)
        todo = [t for t in dict.fromkeys(texts) if t not in self.df]
        single = {lex[t][0]: t for t in todo if len(lex[t]) == 1}
        if single:
            counts = dict(conn.execute(
                "SELECT lexeme, count(*) FROM chunk_terms WHERE lexeme = ANY(%s)"
                " GROUP BY lexeme", (list(single),)).fetchall())
            for lexeme, text in single.items():
                self.df[text] = int(counts.get(lexeme, 0))
        for text in todo:
            if text in self.df:
                continue
            if not lex[text]:
                self.df[text] = 0
                continue
            row = conn.execute("SELECT count(*) FROM chunks WHERE tsv @@ "
                               "plainto_tsquery('civicsetu', %s)", (text,)).fetchone()
            self.df[text] = int(row[0])
        return {t: self.df[t] for t in texts}


def bm25_search(conn: Any, stats: CorpusStats, fts_query: str, limit: int,
                doc_ids: Sequence[str] | None, as_of: date | None) -> list[tuple[int, float]]:
    """Chunks matching any phrase, best BM25 first (higher is better)."""
    texts = [p for p in dict.fromkeys(phrases(fts_query))]
    if not texts:
        return []
    stats.load(conn)
    lex = stats.lexemes_of(conn, texts)
    df = stats.document_frequency(conn, texts)
    n = stats.n or 0
    terms: list[tuple[int, str, float, int]] = []  # phrase index, lexeme, idf, lexemes
    for i, text in enumerate(t for t in texts if lex[t]):
        idf = math.log((n - df[text] + 0.5) / (df[text] + 0.5))
        idf = idf if idf > 0 else 1e-6
        for lexeme in dict.fromkeys(lex[text]):
            terms.append((i, lexeme, idf, len(set(lex[text]))))
    if not terms:
        return []
    where, params = valid_clause("c", as_of)
    sql = f"""
        WITH q(i, lexeme, idf, nlex) AS (
            SELECT * FROM unnest(%s::int[], %s::text[], %s::float8[], %s::int[])),
        per_phrase AS (
            SELECT t.rowid, q.i, max(q.idf) AS idf, min(t.tf) AS tf
            FROM q JOIN chunk_terms t ON t.lexeme = q.lexeme
            GROUP BY t.rowid, q.i HAVING count(*) = max(q.nlex))
        SELECT p.rowid,
               sum(p.idf * (p.tf * %s) / (p.tf + %s * (1 - %s + %s * c.ntokens / %s)))
               AS score
        FROM per_phrase p JOIN chunks c ON c.rowid = p.rowid
        WHERE {where} {{scope}}
        GROUP BY p.rowid ORDER BY score DESC, p.rowid LIMIT %s"""
    args: list[object] = [[t[0] for t in terms], [t[1] for t in terms],
                          [t[2] for t in terms], [t[3] for t in terms],
                          K1 + 1, K1, B, B, max(stats.avgdl, 1e-9), *params]
    scope = ""
    if doc_ids:
        scope = "AND c.doc_id = ANY(%s)"
        args.append(list(doc_ids))
    args.append(limit)
    rows = conn.execute(sql.replace("{scope}", scope), args).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def dense_search(conn: Any, model_id: str, dim: int, vector: npt.NDArray[np.float32], k: int,
                 doc_ids: Sequence[str] | None, as_of: date | None,
                 ) -> list[tuple[int, float]]:
    """The ``k`` chunks nearest ``vector`` (inner product) among those passing the
    filters; widened HNSW candidate lists, then an exact scan as the last resort."""
    if k < 1:
        return []
    literal = vector_literal(vector)
    where, params = valid_clause("c", as_of)
    scope = ""
    scope_args: list[object] = []
    if doc_ids is not None:
        scope = "AND c.doc_id = ANY(%s)"
        scope_args = [list(doc_ids)]
    cast = f"vector({dim})"
    want = min(max(2 * k, EF_SEARCH_MIN), EF_SEARCH_MAX)
    if doc_ids is not None or as_of is not None:
        allowed = conn.execute(f"SELECT count(*) FROM (SELECT 1 FROM chunks c WHERE {where}"
                               f" {scope} LIMIT %s) t",
                               [*params, *scope_args, EXACT_BELOW + 1]).fetchone()[0]
        exact = int(allowed) <= EXACT_BELOW  # skip the index: the scan below answers
    else:
        exact = False
    while not exact:
        with conn.transaction():
            conn.execute(f"SET LOCAL hnsw.ef_search = {int(want)}")
            rows = conn.execute(
                f"""WITH near AS MATERIALIZED (
                        SELECT e.text_hash, (e.vector::{cast} <#> %s::{cast}) AS dist
                        FROM embeddings e WHERE e.model_id = %s
                        ORDER BY e.vector::{cast} <#> %s::{cast} LIMIT %s)
                    SELECT c.rowid, -near.dist FROM near
                    JOIN chunks c ON c.embed_hash = near.text_hash
                    WHERE {where} {scope} ORDER BY near.dist, c.rowid LIMIT %s""",
                [literal, model_id, literal, want, *params, *scope_args, k]).fetchall()
            seen = conn.execute("SELECT count(*) FROM (SELECT 1 FROM embeddings WHERE "
                                "model_id = %s LIMIT %s) t", (model_id, want)).fetchone()[0]
        if len(rows) >= k:
            return [(int(r[0]), float(r[1])) for r in rows]
        if int(seen) < want or want >= EF_SEARCH_MAX:
            break  # every vector was a candidate, or the index cannot widen further
        want = min(want * 4, EF_SEARCH_MAX)
    rows = conn.execute(
        f"""SELECT c.rowid, -(e.vector::{cast} <#> %s::{cast}) AS score FROM chunks c
            JOIN embeddings e ON e.model_id = %s AND e.text_hash = c.embed_hash
            WHERE {where} {scope} ORDER BY score DESC, c.rowid LIMIT %s""",
        [literal, model_id, *params, *scope_args, k]).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]
