"""Gold-section coverage of research mode's quotes against a plain answer's quotes.

    python tools/research_coverage.py ../shared/eval/legal_qa_dev.jsonl \
        --types multi_hop,comparison

Coverage is the share of a question's gold sections that the answer's citations quote,
averaged over the selected answerable questions (the bundled index in CIVICSETU_HOME).
``--per-question`` also prints one line per question (id, plain and research coverage),
to compare two runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.eval.metrics import section_key
from civicsetu.eval.runner import load_dataset


def _coverage(gold: list[str], cited: list[str]) -> float:
    want = {section_key(g) for g in gold}
    return len(want & {section_key(c) for c in cited}) / len(want)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--types", default="multi_hop,comparison")
    parser.add_argument("--per-question", action="store_true",
                        help="also print each question's id and both coverages")
    args = parser.parse_args()
    types = set(args.types.split(","))
    rows = [r for r in load_dataset(args.dataset)
            if r.get("gold_provisions") and r.get("query_type") in types]
    plain, research, n_plain, n_research = [], [], [], []
    with Engine() as engine:
        for row in rows:
            a = engine.ask(row["query"])
            r = engine.research(row["query"]).answer
            plain.append(_coverage(row["gold_provisions"], [c.provision_id for c in a.citations]))
            research.append(_coverage(row["gold_provisions"],
                                      [c.provision_id for c in r.citations]))
            n_plain.append(len(a.citations))
            n_research.append(len(r.citations))
            if args.per_question:
                print(json.dumps({"id": row["id"], "plain": round(plain[-1], 3),
                                  "research": round(research[-1], 3)}))
    print(json.dumps({"questions": len(rows),
                      "plain_coverage": round(sum(plain) / len(rows), 3),
                      "research_coverage": round(sum(research) / len(rows), 3),
                      "plain_citations": round(sum(n_plain) / len(rows), 2),
                      "research_citations": round(sum(n_research) / len(rows), 2)}))


if __name__ == "__main__":
    main()
