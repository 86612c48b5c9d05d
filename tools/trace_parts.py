"""Trace a multi-part question end to end: its parts, each part's own top sections, the
whole question's, and the fused top 5, with the gold sections marked.

    python tools/trace_parts.py ../shared/eval/legal_qa_dev.jsonl [--ids A,B] [--misses]

Reads the bundled index in CIVICSETU_HOME, the same search ``ask`` runs. ``--misses``
prints only questions with a gold section outside the fused top 5. A comparison prints
its probes instead of its parts (search/compare.py: each side, aspect and Act searched).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.eval.metrics import ranked_sections, section_key
from civicsetu.eval.runner import load_dataset
from civicsetu.search.compare import probes, search_probes
from civicsetu.search.decompose import (
    _CONTRAST,
    COMPARE_PARTS,
    decompose,
    scoped,
    search_decomposed,
)
from civicsetu.search.query import named_documents


def _short(section: str) -> str:
    doc, _, sec = section.partition("#")
    return f"{''.join(w[0] for w in doc.split('-') if w and not w.isdigit())}:{sec}"


def main() -> None:
    """Print the trace."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--ids", default="")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    ids = set(filter(None, args.ids.split(",")))
    rows = [r for r in load_dataset(args.dataset) if r.get("gold_provisions")
            and (not ids or r["id"] in ids)]
    with Engine() as engine:
        s = engine.searcher
        for row in rows:
            q = row["query"]
            golds = {section_key(g) for g in row["gold_provisions"]}
            fused, subs = search_decomposed(s, q, k=10)
            top = ranked_sections([h.provision_id for h in fused.hits])[:5]
            if args.misses and golds <= set(top):
                continue

            def mark(secs: list[str], golds: set[str] = golds) -> str:
                return " ".join(("*" if x in golds else "") + _short(x) for x in secs)

            print(f"== {row['id']} ({row.get('query_type')}): {q}")
            print(f"   gold: {mark(sorted(golds))}")
            whole = s.search(q, k=10, rerank=False)
            print(f"   whole: {mark(ranked_sections([h.provision_id for h in whole.hits])[:6])}")
            mentions = [q[a:b] for _, a, b in named_documents(q, s.documents)]
            prefer = whole.analysis.named_docs + whole.analysis.implied_docs
            if not prefer and whole.hits:
                prefer = [whole.hits[0].doc_id]
            routed = whole.analysis.named_docs + whole.analysis.implied_docs
            compared = bool(_CONTRAST.search(q)) or len(set(routed)) >= 2  # as in decompose
            if len(subs) > 1 and compared and s.settings.compare_sides:
                # A comparison: the probes search/compare.py runs (side, aspect, Act).
                plan = probes(s, q, decompose(q, mentions, max_parts=COMPARE_PARTS), prefer)
                for p, hits in zip(plan, search_probes(s, plan, 10, None), strict=True):
                    docs = ",".join(_short(d + "#")[:-1] for d in p.docs) or "every Act"
                    after = f", after {p.after!r}" if p.after else ""
                    print(f"   probe: {p.text!r} [{docs}{after}]")
                    print(f"      -> {mark(ranked_sections([h.provision_id for h in hits])[:6])}")
            for sub in decompose(q, mentions) if len(subs) > 1 and not compared else []:
                part = s.search(sub.text, k=10, filters=scoped(None, prefer))
                print(f"   part: {sub.text!r}")
                print(f"      -> {mark(ranked_sections([h.provision_id for h in part.hits])[:6])}")
            print(f"   fused: {mark(top)}")


if __name__ == "__main__":
    main()
