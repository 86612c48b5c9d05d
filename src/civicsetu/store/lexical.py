"""BM25 for the SQLite store from an in-memory inverted index kept in step with the DB.

FTS5 ranks by calling ``bm25()`` on every row that matches any query term (an OR query
of 8-15 words matches 30-90% of the chunks), which cost ~250 ms per question at 10^5
chunks and grows linearly. This index holds the same postings in numpy arrays and scores
a question with a few vectorised gathers over the postings of its terms only.

Equivalence with FTS5 (the ranking the rest of the search was tuned on):

* Tokens come from the FTS table's own tokenizer (its ``tokenize=`` spec read from the
  schema), run in a private in-memory FTS5 table over each distinct whitespace-separated
  piece of text: a whitespace is a separator for every unicode61 tokenizer, so a column's
  tokens are the concatenation of its pieces' tokens.
* The score is FTS5's ``bm25(chunks_fts, 2.0, 1.0)`` formula (k1 1.2, b 0.75, per-phrase
  IDF over all FTS rows, the title counted twice, the row's total token count against the
  average), in float64 and phrase order, so scores agree with FTS5's to rounding.
* A two-token phrase ("buyer's" is the phrase ``buyer s``, "real-estate" ``real estate``)
  is looked up in a postings list of adjacent token pairs, which is what FTS5's phrase
  match means. A longer phrase is approximated by the rows holding all of its pairs, its
  frequency the smallest of theirs (rare in questions; FTS5 would require the pairs to be
  chained).
* Only rows in force (or in force on ``as_of``) and in the allowed documents are ranked,
  after scoring, as the FTS5 queries filter them; ties are broken by rowid.

Kept in step like the dense matrix (``store.dense``): each write stamps its document, and
the rows of documents whose stamp changed are re-read, re-tokenized and merged. Saved
next to the database (``civicsetu.db.bm25.npz``, with the stamps) by the process that
built or changed it, when it closes the store; a later process loads it, re-reads the
documents whose stamp changed since, and rebuilds when the row count or highest rowid
still disagree with the database (a repair that did not stamp its document).
A query that is not the plain ``"a" OR "b c"`` form ``search.query.fts_query`` writes
returns None, and the caller asks FTS5 instead.
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path

import numpy as np
import numpy.typing as npt

from civicsetu.store.row_filters import OPEN_END, allowed_rows, day_numbers, document_stamps

log = logging.getLogger(__name__)

FORMAT = 1  # of the saved file
K1 = 1.2
B = 0.75
COLUMN_WEIGHTS = (2.0, 1.0)  # title, body: as bm25(chunks_fts, 2.0, 1.0)
DEFAULT_TOKENIZE = "'porter unicode61 remove_diacritics 2'"
_TOKENIZE = re.compile(r"tokenize\s*=\s*('(?:[^']|'')*'|\"[^\"]*\"|\w+)", re.IGNORECASE)
_OR_QUERY = re.compile(r'^"(?:[^"]|"")*"(?: OR "(?:[^"]|"")*")*$')
_PHRASE = re.compile(r'"((?:[^"]|"")*)"')
_BATCH = 20_000
_SELECT = ("SELECT c.rowid, c.doc_id, c.valid_from, c.valid_to, f.title, f.body"
           " FROM chunks c JOIN chunks_fts f ON f.rowid = c.rowid")

IntArray = npt.NDArray[np.int64]


def tokenize_spec(conn: sqlite3.Connection) -> str:
    """The ``tokenize=`` argument ``chunks_fts`` was created with."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").fetchone()
    found = _TOKENIZE.search(row[0]) if row and row[0] else None
    return found.group(1) if found else DEFAULT_TOKENIZE


def parse_or_query(fts_query: str) -> list[str] | None:
    """The phrases of a ``"a" OR "b c"`` query, or None for any other FTS5 syntax."""
    if not _OR_QUERY.match(fts_query):
        return None
    return [m.group(1).replace('""', '"') for m in _PHRASE.finditer(fts_query)]


class Tokenizer:
    """The FTS table's tokenizer, run in a private in-memory database, cached per piece."""

    def __init__(self, spec: str) -> None:
        self._conn = sqlite3.connect(":memory:", check_same_thread=False)
        self._conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize = {spec})")
        self._conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        self.cache: dict[str, tuple[str, ...]] = {}

    def learn(self, pieces: Iterable[str]) -> None:
        """Tokenize every piece not seen before."""
        missing = [p for p in dict.fromkeys(pieces) if p not in self.cache]
        for i in range(0, len(missing), 50_000):
            part = missing[i:i + 50_000]
            self._conn.execute("DELETE FROM t")
            self._conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)",
                                   enumerate(part))
            out: list[list[str]] = [[] for _ in part]
            for doc, term in self._conn.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
                out[doc].append(term)
            for piece, tokens in zip(part, out, strict=True):
                self.cache[piece] = tuple(tokens)

    def tokens(self, text: str) -> list[str]:
        """The tokens of ``text`` in order."""
        pieces = text.split()
        self.learn(pieces)
        return [t for p in pieces for t in self.cache[p]]


class _Postings:
    """Term-major postings: for term id ``t``, rows ``pos[ptr[t]:ptr[t+1]]`` with weighted
    frequencies ``freq[...]`` (title occurrences count 2, body 1)."""

    def __init__(self) -> None:
        self.ptr = np.zeros(1, dtype=np.int64)
        self.pos = np.zeros(0, dtype=np.int32)
        self.freq = np.zeros(0, dtype=np.float32)

    def get(self, term: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32]]:
        if term + 1 >= len(self.ptr):
            return self.pos[:0], self.freq[:0]
        s, e = int(self.ptr[term]), int(self.ptr[term + 1])
        return self.pos[s:e], self.freq[s:e]

    def append(self, new_pos_of_added: IntArray,
               added: tuple[IntArray, IntArray, npt.NDArray[np.float32]], n_terms: int) -> None:
        """Add entries of rows numbered after every existing row: each goes at the end of
        its term's segment, so the arrays are copied once and nothing is renumbered."""
        rows_added, terms_added, freq_added = added
        keys = (terms_added << 32) | new_pos_of_added[rows_added]
        order = np.argsort(keys)
        keys = keys[order]
        terms = keys >> 32
        ptr = np.concatenate([self.ptr, np.full(n_terms + 1 - len(self.ptr), self.ptr[-1],
                                                dtype=np.int64)])
        at = ptr[terms + 1]
        self.pos = np.insert(self.pos, at, (keys & 0xFFFFFFFF).astype(np.int32))
        self.freq = np.insert(self.freq, at, freq_added[order].astype(np.float32))
        counts = np.bincount(terms, minlength=n_terms)
        self.ptr = ptr + np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    def rebuild(self, keep_row: npt.NDArray[np.bool_], new_pos_of_old: IntArray,
                new_pos_of_added: IntArray, added: tuple[IntArray, IntArray,
                                                         npt.NDArray[np.float32]],
                n_terms: int) -> None:
        """Drop postings of rows not kept, renumber rows, merge the added
        (row index into ``new_pos_of_added``, term, freq) entries, sort by term."""
        # Entries are kept sorted by (term, row). Rows keep their relative order when rows
        # are added or removed, so the surviving entries stay sorted after renumbering and
        # only the (few) added ones are sorted and merged in: a refresh after one
        # document is linear numpy work, not a sort of every entry.
        old_terms = np.repeat(np.arange(len(self.ptr) - 1, dtype=np.int64), np.diff(self.ptr))
        live = keep_row[self.pos] if len(self.pos) else np.zeros(0, dtype=bool)
        old_keys = (old_terms[live] << 32) | new_pos_of_old[self.pos[live]]
        rows_added, terms_added, freq_added = added
        add_keys = (terms_added << 32) | new_pos_of_added[rows_added]
        order = np.argsort(add_keys)
        add_keys, add_freq = add_keys[order], freq_added[order]
        at = np.searchsorted(old_keys, add_keys)
        keys = np.insert(old_keys, at, add_keys)
        self.freq = np.insert(self.freq[live], at, add_freq).astype(np.float32)
        self.pos = (keys & 0xFFFFFFFF).astype(np.int32)
        counts = np.bincount(keys >> 32, minlength=n_terms)
        self.ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


class LexicalIndex:
    """BM25 postings of every FTS row (superseded ones included, as FTS5 counts them)."""

    vocab: dict[str, int]
    stamps: dict[str, str]
    _doc_codes: dict[str, int]
    rowids: IntArray
    codes: npt.NDArray[np.int32]
    valid_from: npt.NDArray[np.int32]
    valid_to: npt.NDArray[np.int32]
    length: npt.NDArray[np.float64]

    def __init__(self, conn: sqlite3.Connection, db_path: Path | None = None) -> None:
        self._conn = conn
        self.db_path = db_path
        self.spec = tokenize_spec(conn)
        self.tokenizer = Tokenizer(self.spec)
        self.changed = False  # built or refreshed since loaded: worth saving
        self.last_refresh = ""  # how the last change was taken in: "append" or "merge"
        self._reset()
        t = time.perf_counter()
        if self._load():
            changed = self.refresh()
            if self._shape() == self._db_shape():
                log.info("lexical_loaded rows=%d refreshed=%d seconds=%.1f", len(self.rowids),
                         len(changed), time.perf_counter() - t)
                return
            log.warning("lexical_file_stale %s: rebuilding", self.file(db_path))
            self._reset()
        self.stamps = self._read_stamps()
        self._replace(set(), self._conn.execute(_SELECT))
        self.changed = True
        log.info("lexical_built rows=%d terms=%d pairs=%d seconds=%.1f", len(self.rowids),
                 len(self.vocab), len(self._pair_keys), time.perf_counter() - t)

    def _reset(self) -> None:
        """Empty postings (before a build)."""
        self.vocab = {}
        # adjacent token pairs: sorted keys (first << 32 | second) and their pair ids
        self._pair_keys = np.zeros(0, dtype=np.int64)
        self._pair_ids = np.zeros(0, dtype=np.int64)
        self._doc_codes = {}
        self.stamps = {}
        self.rowids = np.zeros(0, dtype=np.int64)
        self.codes = np.zeros(0, dtype=np.int32)
        self.valid_from = np.zeros(0, dtype=np.int32)
        self.valid_to = np.zeros(0, dtype=np.int32)
        self.length = np.zeros(0, dtype=np.float64)
        self.unigrams = _Postings()
        self.bigrams = _Postings()
        self._norm = np.zeros(0, dtype=np.float64)

    # --- persistence ------------------------------------------------------------------

    @staticmethod
    def file(db_path: Path | None) -> Path | None:
        """Where the postings of ``db_path`` are saved (next to it, like the ANN folder)."""
        return None if db_path is None else db_path.with_name(db_path.name + ".bm25.npz")

    def _shape(self) -> tuple[int, int]:
        return len(self.rowids), int(self.rowids.max()) if len(self.rowids) else 0

    def _db_shape(self) -> tuple[int, int]:
        n, top = self._conn.execute("SELECT count(*), coalesce(max(c.rowid), 0) FROM chunks c"
                                    " JOIN chunks_fts f ON f.rowid = c.rowid").fetchone()
        return int(n), int(top)

    def save(self) -> Path | None:
        """Write the postings next to the database (atomically: a temp file, then rename)."""
        path = self.file(self.db_path)
        if path is None:
            return None
        meta = {"format": FORMAT, "spec": self.spec, "vocab": list(self.vocab),
                "docs": list(self._doc_codes), "stamps": self.stamps}
        # A temp name of its own per call: engines in threads of one process share a pid,
        # and two closing at once had renamed each other's file away.
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez(out, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
                         rowids=self.rowids, codes=self.codes, valid_from=self.valid_from,
                         valid_to=self.valid_to, length=self.length,
                         pair_keys=self._pair_keys, pair_ids=self._pair_ids,
                         uni_ptr=self.unigrams.ptr, uni_pos=self.unigrams.pos,
                         uni_freq=self.unigrams.freq, bi_ptr=self.bigrams.ptr,
                         bi_pos=self.bigrams.pos, bi_freq=self.bigrams.freq)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.changed = False
        return path

    def _load(self) -> bool:
        """Read the saved postings; False when there are none or they do not fit."""
        path = self.file(self.db_path)
        if path is None or not path.is_file():
            return False
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                if meta.get("format") != FORMAT or meta.get("spec") != self.spec:
                    return False
                arrays = {k: data[k] for k in data.files if k != "meta"}
        except (OSError, ValueError, KeyError) as exc:
            log.warning("lexical_file_unreadable %s: %s", path, exc)
            return False
        self.vocab = {t: i for i, t in enumerate(meta["vocab"])}
        self._doc_codes = {d: i for i, d in enumerate(meta["docs"])}
        self.stamps = dict(meta["stamps"])
        self.rowids, self.codes = arrays["rowids"], arrays["codes"]
        self.valid_from, self.valid_to = arrays["valid_from"], arrays["valid_to"]
        self.length = arrays["length"]
        self._pair_keys, self._pair_ids = arrays["pair_keys"], arrays["pair_ids"]
        self.unigrams.ptr, self.unigrams.pos = arrays["uni_ptr"], arrays["uni_pos"]
        self.unigrams.freq = arrays["uni_freq"]
        self.bigrams.ptr, self.bigrams.pos = arrays["bi_ptr"], arrays["bi_pos"]
        self.bigrams.freq = arrays["bi_freq"]
        self._set_norm()
        return True

    def __len__(self) -> int:
        return len(self.rowids)

    def _read_stamps(self) -> dict[str, str]:
        return document_stamps(self._conn)

    def refresh(self) -> list[str]:
        """Re-read the rows of documents written since the last look; return their ids."""
        stamps = self._read_stamps()
        changed = sorted({d for d in stamps.keys() | self.stamps.keys()
                          if stamps.get(d) != self.stamps.get(d)})
        if changed:
            rows: list[tuple[int, str, str | None, str | None, str, str]] = []
            for i in range(0, len(changed), 500):
                part = changed[i:i + 500]
                rows += self._conn.execute(
                    _SELECT + f" WHERE c.doc_id IN ({','.join('?' * len(part))})",
                    part).fetchall()
            self._replace(set(changed), rows)
            self.changed = True
        self.stamps = stamps
        return changed

    # --- building ---------------------------------------------------------------------

    def _term(self, token: str) -> int:
        found = self.vocab.get(token)
        if found is None:
            found = self.vocab[token] = len(self.vocab)
        return found

    def _pairs_of(self, keys: IntArray) -> IntArray:
        """Pair ids of sorted distinct ``keys``, numbering the unseen ones."""
        at = np.searchsorted(self._pair_keys, keys)
        known = at < len(self._pair_keys)
        known[known] = self._pair_keys[at[known]] == keys[known]
        fresh = keys[~known]
        start = len(self._pair_keys)
        ids = np.empty(len(keys), dtype=np.int64)
        ids[known] = self._pair_ids[at[known]]
        ids[~known] = np.arange(start, start + len(fresh), dtype=np.int64)
        if len(fresh):
            where = at[~known]
            self._pair_keys = np.insert(self._pair_keys, where, fresh)
            self._pair_ids = np.insert(self._pair_ids, where, ids[~known])
        return ids

    def _pair(self, a: int, b: int) -> int | None:
        key = (a << 32) | b
        at = int(np.searchsorted(self._pair_keys, key))
        if at < len(self._pair_keys) and int(self._pair_keys[at]) == key:
            return int(self._pair_ids[at])
        return None

    def _replace(self, docs: set[str],
                 rows: Iterable[tuple[int, str, str | None, str | None, str, str]]) -> None:
        """Drop every row of ``docs`` and add ``rows`` (read in batches)."""
        meta: list[tuple[int, str, str | None, str | None]] = []
        uni: list[tuple[IntArray, IntArray, npt.NDArray[np.float32]]] = []
        bi: list[tuple[IntArray, IntArray, npt.NDArray[np.float32]]] = []
        lengths: list[npt.NDArray[np.float64]] = []
        batch: list[tuple[int, str, str | None, str | None, str, str]] = []
        iterator = iter(rows)
        while True:
            batch = [r for _, r in zip(range(_BATCH), iterator, strict=False)]
            if not batch:
                break
            u, b, n = self._tokenize_batch(batch, len(meta))
            uni.append(u)
            bi.append(b)
            lengths.append(n)
            meta += [(r[0], r[1], r[2], r[3]) for r in batch]
        keep = np.ones(len(self.rowids), dtype=bool)
        if docs:
            gone = [self._doc_codes[d] for d in docs if d in self._doc_codes]
            keep = ~np.isin(self.codes, np.array(gone, dtype=np.int32))
        added_rowids = np.array([m[0] for m in meta], dtype=np.int64)
        # A new document (nothing of it held, every row after the last one held) is the
        # common write: its postings are appended, the held ones stay where they are.
        appended = bool(keep.all()) and (len(self.rowids) == 0 or len(added_rowids) == 0
                                         or int(added_rowids.min()) > int(self.rowids[-1]))
        rowids = np.concatenate([self.rowids[keep], added_rowids])
        order = np.argsort(rowids, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        n_kept = int(keep.sum())
        new_pos_of_old = np.full(len(self.rowids), -1, dtype=np.int64)
        new_pos_of_old[keep] = rank[:n_kept]
        new_pos_of_added = rank[n_kept:]
        self.rowids = rowids[order]
        self.codes = np.concatenate([self.codes[keep], np.array(
            [self._doc_codes.setdefault(m[1], len(self._doc_codes)) for m in meta],
            dtype=np.int32)])[order]
        self.valid_from = np.concatenate([self.valid_from[keep],
                                          day_numbers([m[2] for m in meta], 0)])[order]
        self.valid_to = np.concatenate([self.valid_to[keep],
                                        day_numbers([m[3] for m in meta], OPEN_END)])[order]
        self.length = np.concatenate([self.length[keep], *lengths])[order]
        if appended:
            self.unigrams.append(new_pos_of_added, _merge(uni), len(self.vocab))
            self.bigrams.append(new_pos_of_added, _merge(bi), len(self._pair_keys))
        else:
            self.unigrams.rebuild(keep, new_pos_of_old, new_pos_of_added, _merge(uni),
                                  len(self.vocab))
            self.bigrams.rebuild(keep, new_pos_of_old, new_pos_of_added, _merge(bi),
                                 len(self._pair_keys))
        self.last_refresh = "append" if appended else "merge"
        self._set_norm()

    def _set_norm(self) -> None:
        """Each row's BM25 length normalisation, k1 * (1 - b + b * length / average)."""
        average = float(self.length.sum()) / len(self.length) if len(self.length) else 1.0
        self._norm = K1 * (1 - B + B * self.length / (average or 1.0))

    def _tokenize_batch(self, batch: Sequence[tuple[int, str, str | None, str | None, str,
                                                    str]], first: int,
                        ) -> tuple[tuple[IntArray, IntArray, npt.NDArray[np.float32]],
                                   tuple[IntArray, IntArray, npt.NDArray[np.float32]],
                                   npt.NDArray[np.float64]]:
        """Unigram and adjacent-pair entries (row, term, weighted count) and row lengths."""
        cache = self.tokenizer.cache
        columns = [col.split() for r in batch for col in (r[4], r[5])]  # title, body, ...
        pieces = set().union(*columns)
        self.tokenizer.learn(pieces)
        term = self._term
        ids = {p: tuple(term(t) for t in cache[p]) for p in pieces}
        flat: list[int] = []
        sizes: list[int] = []  # tokens per (row, column), title then body
        for col in columns:
            seq = [t for p in col for t in ids[p]]
            sizes.append(len(seq))
            flat += seq
        tokens = np.asarray(flat, dtype=np.int64)
        size = np.asarray(sizes, dtype=np.int64)
        segment = np.repeat(np.arange(len(size), dtype=np.int64), size)
        rows = first + segment // 2
        weight = np.where(segment % 2 == 0, COLUMN_WEIGHTS[0], COLUMN_WEIGHTS[1])
        lengths = size.reshape(-1, 2).sum(axis=1).astype(np.float64)
        # adjacent pairs inside one column
        same = segment[1:] == segment[:-1]
        keys = (tokens[:-1][same] << 32) | tokens[1:][same]
        unique, inverse = np.unique(keys, return_inverse=True)
        pair_ids = self._pairs_of(unique)
        return (_count(rows, tokens, weight),
                _count(rows[:-1][same], pair_ids[inverse].reshape(-1), weight[:-1][same]),
                lengths)

    # --- search -----------------------------------------------------------------------

    def _phrase(self, text: str) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32]]:
        """Rows holding the phrase and its weighted frequency in each."""
        tokens = self.tokenizer.tokens(text)
        ids = [self.vocab.get(t) for t in tokens]
        empty = self.unigrams.pos[:0], self.unigrams.freq[:0]
        if not ids or any(i is None for i in ids):
            return empty
        if len(ids) == 1:
            return self.unigrams.get(int(ids[0]))  # type: ignore[arg-type]
        pairs = [self._pair(int(a), int(b))  # type: ignore[arg-type]
                 for a, b in itertools.pairwise(ids)]
        if any(p is None for p in pairs):
            return empty
        pos, freq = self.bigrams.get(int(pairs[0]))  # type: ignore[arg-type]
        for p in pairs[1:]:
            other_pos, other_freq = self.bigrams.get(int(p))  # type: ignore[arg-type]
            common, i, j = np.intersect1d(pos, other_pos, assume_unique=True,
                                          return_indices=True)
            pos, freq = common.astype(np.int32), np.minimum(freq[i], other_freq[j])
        return pos, freq

    def _terms(self, phrases: Sequence[str],
               ) -> list[tuple[npt.NDArray[np.int32], npt.NDArray[np.float32], float]]:
        """Each phrase found in the index: its rows, weighted frequencies and IDF."""
        n = len(self.rowids)
        out = []
        for text in phrases:
            pos, freq = self._phrase(text)
            if len(pos) == 0:
                continue
            hits = len(pos)
            idf = math.log((n - hits + 0.5) / (hits + 0.5))
            out.append((pos, freq, idf if idf > 0.0 else 1e-6))
        return out

    def _gain(self, rows: npt.NDArray[np.int32] | IntArray, freq: npt.NDArray[np.float32],
              idf: float) -> npt.NDArray[np.float64]:
        """One phrase's BM25 contribution to ``rows`` (FTS5's formula, in float64)."""
        f = freq.astype(np.float64)
        gain: npt.NDArray[np.float64] = idf * ((f * (K1 + 1.0)) / (f + self._norm[rows]))
        return gain

    def search(self, phrases: Sequence[str], limit: int, doc_ids: Sequence[str] | None,
               as_of: date | None) -> list[tuple[int, float]]:
        """The ``limit`` best rows by BM25 (higher is better), as FTS5 ranks them."""
        if len(self.rowids) == 0 or limit <= 0:
            return []
        terms = self._terms(phrases)
        if not terms:
            return []
        # One weighted bincount over every phrase's postings (1.4x faster than a gather
        # and scatter per phrase at 10^6 chunks); it sums each row's gains in phrase
        # order, as adding them one phrase at a time does, so the scores are identical.
        scores = np.bincount(np.concatenate([pos for pos, _, _ in terms]),
                             weights=np.concatenate([self._gain(*t) for t in terms]),
                             minlength=len(self.rowids))
        # every gain is > 0, so the rows scored are the nonzero ones
        touched = np.flatnonzero(scores) if len(terms) > 1 else terms[0][0].astype(np.int64)
        # the filters are evaluated on these rows only, not on every row of the library
        candidates = touched[self._allowed(touched, doc_ids, as_of)]
        if len(candidates) == 0:
            return []
        found = scores[candidates]
        if len(candidates) > limit:
            cut = np.argpartition(-found, limit - 1)[:limit]
            # rows tied with the last one kept are all considered, so ties break by rowid
            least = found[cut].min()
            cut = np.flatnonzero(found >= least)
            candidates, found = candidates[cut], found[cut]
        ranked = np.lexsort((self.rowids[candidates], -found))[:limit]
        return list(zip(self.rowids[candidates[ranked]].tolist(), found[ranked].tolist(),
                        strict=True))

    def _allowed(self, rows: npt.NDArray[np.int64], doc_ids: Sequence[str] | None,
                 as_of: date | None) -> npt.NDArray[np.bool_]:
        """Which of ``rows`` pass the filters (computed for these rows only)."""
        return allowed_rows(self.codes[rows], self.valid_from[rows], self.valid_to[rows],
                            self._doc_codes, doc_ids, as_of)


def _count(rows: IntArray, terms: IntArray, weights: npt.NDArray[np.float64],
           ) -> tuple[IntArray, IntArray, npt.NDArray[np.float32]]:
    """Sum the weights of equal (row, term) entries."""
    if len(rows) == 0:
        return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.float32))
    key = (rows << 32) | terms
    unique, inverse = np.unique(key, return_inverse=True)
    summed = np.bincount(inverse, weights=weights)
    return unique >> 32, unique & 0xFFFFFFFF, summed.astype(np.float32)


def _merge(parts: list[tuple[IntArray, IntArray, npt.NDArray[np.float32]]],
           ) -> tuple[IntArray, IntArray, npt.NDArray[np.float32]]:
    if not parts:
        return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.float32))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))
