"""Why each answerable question's gold section is not in the top 5: one class per miss.

    python tools/miss_analysis.py ../shared/eval/legal_qa_dev.jsonl [--json]

Classes (the first that applies, per missed gold section; the bundled index in
CIVICSETU_HOME, the same ``ask`` the evaluation runs):

- ``part dropped``: the question has several gold sections and another is in the top 5;
- ``wrong Act``: none of the top 5 is from the gold section's Act;
- ``near a hit``: a top-5 hit is in the gold's Act within two section numbers of it
  (a neighbouring or related section, the same chapter's rule);
- ``ranked 6-10`` / ``ranked 11-60``: the gold is found, just not high enough
  (vocabulary partly shared);
- ``vocabulary gap``: not among the first 60 at all.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.eval.metrics import ranked_sections, section_key
from civicsetu.eval.runner import load_dataset
from civicsetu.search.decompose import search_decomposed

DEPTH = 60


def _number(section_id: str) -> int | None:
    m = re.search(r"#(?:s|r|art|reg)\.(\d+)", section_id)
    return int(m.group(1)) if m else None


def classify(gold: str, golds: set[str], top: list[str], deep: list[str]) -> str:
    """The class of one missed gold section (see the module docstring)."""
    doc = gold.split("#")[0]
    if len(golds) > 1 and golds & set(top[:5]):
        return "part dropped"
    if not any(s.split("#")[0] == doc for s in top[:5]):
        return "wrong Act"
    n = _number(gold)
    near = [s for s in top[:5] if s.split("#")[0] == doc and n is not None
            and (m := _number(s)) is not None and abs(m - n) <= 2]
    if near:
        return "near a hit"
    if gold in deep[:10]:
        return "ranked 6-10"
    if gold in deep:
        return "ranked 11-60"
    return "vocabulary gap"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [r for r in load_dataset(args.dataset) if r.get("gold_provisions")]
    counts: Counter[str] = Counter()
    details = []
    with Engine() as engine:
        for row in rows:
            answer = engine.ask(row["query"])
            top = ranked_sections([h.provision_id for h in answer.retrieved])
            result, _ = search_decomposed(engine.searcher, row["query"], k=DEPTH)
            deep = list(dict.fromkeys(top + ranked_sections(
                [h.provision_id for h in result.hits])))
            golds = {section_key(g) for g in row["gold_provisions"]}
            for gold in sorted(golds - set(top[:5])):
                label = classify(gold, golds, top, deep)
                counts[label] += 1
                details.append({"id": row["id"], "type": row.get("query_type"),
                                "gold": gold, "class": label,
                                "rank": deep.index(gold) + 1 if gold in deep else None,
                                "top5": top[:5]})
    if args.json:
        print(json.dumps({"counts": counts, "misses": details}, indent=1))
        return
    for d in details:
        print(f"{d['id']:<16} {d['type']:<18} {d['class']:<15} rank={d['rank']} {d['gold']}")
        for s in d["top5"]:
            print(f"{'':>20}{s}")
    print(json.dumps(dict(counts.most_common())))


if __name__ == "__main__":
    main()
