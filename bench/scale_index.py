"""Build a large SQLite index cheaply by replicating a real one with perturbed text and vectors.

    python -m bench.scale_index BASE_DB OUT_DB --chunks 100000 [--seed 14]

Embedding the whole 846-Act library takes about an hour on this machine, and 10^6 chunks
of real legal text do not exist here, so search at scale is measured on replicas of a real
index (normally the bundled 11 Acts, 3,547 chunks with real MiniLM vectors):

* replica ``r`` of document ``D`` is the document ``D~rN`` titled "<title> (replica N)",
  with the same provisions, graph edges and definitions (ids re-prefixed); every 4th
  replica is jurisdiction ``IN-KA`` and every 5th doc type ``rules``, so filters select
  a realistic fraction of the corpus;
* each chunk text has 15% of its words replaced by words drawn from the corpus vocabulary
  (so FTS5 posting lists grow like a real corpus and no two replicas score identically);
* each vector is the original plus Gaussian noise of norm 0.75, renormalised (cosine
  about 0.8 to the original): replicas cluster around the real vectors, which is harder
  for HNSW than a uniform cloud, so recall measured here is a conservative estimate.

Whole replicas are added until the chunk count reaches ``--chunks``. Vector keys
(``embed_hash``) are ``r<replica>-<hash>``, so they grow monotonically.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sqlite3
import time
from pathlib import Path

import numpy as np

NOISE_NORM = 0.75
SWAP_FRACTION = 0.15


def _checkpoint(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def build(base: Path, out: Path, chunks: int, seed: int = 14) -> int:
    """Write ``out`` as ``base`` plus perturbed replicas; return the chunk count."""
    out.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{out}{suffix}").unlink(missing_ok=True)
    for suffix in ("", "-wal"):  # the base is only read; its WAL is folded into the copy
        if Path(f"{base}{suffix}").exists():
            shutil.copyfile(f"{base}{suffix}", f"{out}{suffix}")
    _checkpoint(out)
    rng = np.random.default_rng(seed)
    c = sqlite3.connect(out, isolation_level=None)
    c.execute("PRAGMA journal_mode=OFF")
    c.execute("PRAGMA synchronous=OFF")
    c.execute("PRAGMA cache_size=-200000")
    model_id, dim = c.execute("SELECT model_id, length(vector) / 4 FROM embeddings "
                              "LIMIT 1").fetchone()
    docs = c.execute("SELECT id, short_title FROM documents ORDER BY id").fetchall()
    rows = c.execute(
        'SELECT c.id, c.doc_id, c.provision_path, c.section, c.ordinal, c.start, c."end",'
        " c.text, c.valid_from, e.vector, f.title FROM chunks c JOIN embeddings e"
        " ON e.model_id = ? AND e.text_hash = c.embed_hash JOIN chunks_fts f"
        " ON f.rowid = c.rowid WHERE c.valid_to IS NULL ORDER BY c.rowid",
        (model_id,)).fetchall()
    base_vectors = np.frombuffer(b"".join(r[9] for r in rows), dtype=np.float32)
    base_vectors = base_vectors.reshape(len(rows), dim)
    words = [r[7].split() for r in rows]
    vocab = np.array(sorted({w for ws in words for w in ws}))
    total = int(c.execute("SELECT count(*) FROM chunks").fetchone()[0])
    # Bulk-load: secondary indexes are dropped and rebuilt at the end, FTS5 merges are
    # deferred to one 'optimize', several replicas share a transaction and vector keys
    # grow monotonically (appends instead of random B-tree inserts). ~300 chunks/s
    # before this under load; see docs/SCALE.md.
    indexes = c.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql"
                        " IS NOT NULL AND tbl_name IN ('chunks', 'provisions', 'edges',"
                        " 'definitions', 'embeddings')").fetchall()
    for name, _ in indexes:
        c.execute(f'DROP INDEX "{name}"')
    # Copies read the (small, indexed) base: with the indexes dropped, reading the output's
    # own tables would scan every replica written so far, once per document.
    c.execute("ATTACH DATABASE ? AS base", (str(base),))
    c.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 0)")
    c.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('crisismerge', 64)")
    vocab_list = [str(w) for w in vocab]
    word_index = {w: i for i, w in enumerate(vocab_list)}
    base_ids = [np.array([word_index[w] for w in ws], dtype=np.int64) for ws in words]
    flat_ids = np.concatenate(base_ids) if base_ids else np.zeros(0, dtype=np.int64)
    bounds = np.concatenate([[0], np.cumsum([len(b) for b in base_ids])])
    replica = 0
    t0 = time.perf_counter()
    c.execute("BEGIN")
    while total < chunks:
        replica += 1
        for doc_id, short_title in docs:
            new = f"{doc_id}~r{replica}"
            jurisdiction = "IN-KA" if replica % 4 == 0 else "IN"
            doc_type = "rules" if replica % 5 == 0 else "act"
            c.execute("INSERT INTO documents (id, title, short_title, source, jurisdiction,"
                      " doc_type, aliases, effective_date, parent_id, content_hash, text,"
                      " ingested_at) SELECT ?, title || ?, short_title || ?, source, ?, ?, ?,"
                      " effective_date, NULL, content_hash, text, ingested_at FROM base.documents"
                      " WHERE id = ?",
                      (new, f" (replica {replica})", f" (replica {replica})", jurisdiction,
                       doc_type, json.dumps([f"{short_title} replica {replica}"]), doc_id))
            n = len(doc_id)
            c.execute('INSERT INTO provisions (id, doc_id, path, section, parent_path, kind,'
                      ' title, start, "end", ordinal, footnotes, valid_from, valid_to, page,'
                      ' page_end) SELECT ? || substr(id, ?), ?, path, section, parent_path,'
                      ' kind, title, start, "end", ordinal, footnotes, valid_from, valid_to,'
                      ' page, page_end FROM base.provisions WHERE doc_id = ?',
                      (new, n + 1, new, doc_id))
            c.execute("INSERT OR IGNORE INTO edges (src, dst, type, doc_id) SELECT"
                      " ? || substr(src, ?), CASE WHEN substr(dst, 1, ?) = ? THEN"
                      " ? || substr(dst, ?) ELSE dst END, type, ? FROM base.edges WHERE doc_id = ?",
                      (new, n + 1, n + 1, doc_id + "#", new, n + 1, new, doc_id))
            c.execute("INSERT OR IGNORE INTO definitions (doc_id, term, provision_id) SELECT"
                      " ?, term, ? || substr(provision_id, ?) FROM base.definitions"
                      " WHERE doc_id = ?", (new, new, n + 1, doc_id))
        noise = rng.standard_normal(base_vectors.shape).astype(np.float32)
        noise *= NOISE_NORM / np.linalg.norm(noise, axis=1, keepdims=True)
        vectors = base_vectors + noise
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        swap = rng.random(len(flat_ids)) < SWAP_FRACTION
        ids = np.where(swap, rng.integers(len(vocab_list), size=len(flat_ids)), flat_ids)
        ids_list = ids.tolist()
        chunk_rows, fts_rows, emb_rows = [], [], []
        for i, r in enumerate(rows):
            text = " ".join([vocab_list[j] for j in ids_list[bounds[i]:bounds[i + 1]]])
            new = f"{r[1]}~r{replica}"
            digest = hashlib.sha256(f"{replica}:{text}".encode()).hexdigest()
            text_hash = f"r{replica:06d}-{digest[:40]}"
            chunk_rows.append((f"{r[0]}~r{replica}", new, r[2], r[3], r[4], r[5], r[6],
                               text, text_hash, r[8]))
            fts_rows.append((f"{r[10]} (replica {replica})", text))
            emb_rows.append((model_id, text_hash, vectors[i].tobytes()))
        first = int(c.execute("SELECT coalesce(max(rowid), 0) FROM chunks").fetchone()[0]) + 1
        c.executemany('INSERT INTO chunks (id, doc_id, provision_path, section, ordinal, start,'
                      ' "end", text, embed_hash, valid_from) VALUES (?,?,?,?,?,?,?,?,?,?)',
                      chunk_rows)
        c.executemany("INSERT INTO chunks_fts (rowid, title, body) VALUES (?,?,?)",
                      [(first + i, t, b) for i, (t, b) in enumerate(fts_rows)])
        c.executemany("INSERT OR IGNORE INTO embeddings (model_id, text_hash, vector) "
                      "VALUES (?,?,?)", emb_rows)
        total += len(rows)
        if replica % 8 == 0:
            c.execute("COMMIT")
            c.execute("BEGIN")
        if replica % 20 == 0:
            print(f"replica {replica}: {total} chunks, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    c.execute("COMMIT")
    t1 = time.perf_counter()
    for _, sql in indexes:
        c.execute(sql)
    c.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 4)")
    c.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('crisismerge', 16)")
    c.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')")
    print(f"indexes and FTS optimize: {time.perf_counter() - t1:.0f} s", flush=True)
    c.execute("PRAGMA journal_mode=WAL")
    c.close()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path, help="a real index (civicsetu.db)")
    parser.add_argument("out", type=Path, help="the scaled index to write")
    parser.add_argument("--chunks", type=int, required=True, help="at least this many chunks")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    t0 = time.perf_counter()
    total = build(args.base, args.out, args.chunks, args.seed)
    print(f"{args.out}: {total} chunks in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
