"""Each question's first gold section rank in BM25 alone, dense alone and the hybrid fusion.

    python tools/retriever_ranks.py tests/search/data/layman_r13.jsonl

One ``Searcher.search`` per retriever (whole question, no decomposition, no reranker) on
the index in ``$CIVICSETU_HOME``; ``-`` means not among the first 60 sections. Unlike the
evaluation it does not depend on whether the answerer abstains, so it shows a vocabulary
gap (BM25 ``-``, dense 1-3) and what the fusion made of it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.eval.metrics import section_key
from civicsetu.eval.runner import load_dataset

DEPTH = 60
MODES = ("bm25", "dense", "hybrid")


def main() -> None:
    """Print one line per answerable question: id, rank per retriever, best cosine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    args = parser.parse_args()
    with Engine() as engine:
        searcher = engine.searcher
        for row in load_dataset(args.dataset):
            gold = {section_key(g) for g in row.get("gold_provisions") or []}
            if not gold:
                continue
            ranks = []
            cosine = 0.0
            for mode in MODES:
                result = searcher.search(row["query"], k=DEPTH, mode=mode, rerank=False)
                sections = list(dict.fromkeys(section_key(h.provision_id) for h in result.hits))
                found = [i for i, s in enumerate(sections, start=1) if s in gold]
                ranks.append(f"{mode}={found[0] if found else '-'}")
                cosine = result.best_cosine or cosine
            print(row["id"], *ranks, f"cos={cosine:.3f}")


if __name__ == "__main__":
    main()
