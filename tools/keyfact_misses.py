"""Why each key fact of an answerable question is missing from the shown answer.

    python tools/keyfact_misses.py ../shared/eval/legal_qa_dev.jsonl [--json]

Runs the same ``ask`` as ``civicsetu eval`` (index in ``CIVICSETU_HOME``, no LLM) and, for
every key fact the evaluation's matcher (``eval.metrics``) does not find in the answer
text, gives one class, the first that applies:

- ``(e) matcher``: the answer does state it, in another form (punctuation, dashes, or a
  number written differently) that the matcher does not equate;
- ``(c) truncated``: a cited provision holds the fact, but beyond what its quote shows
  (a clause's sub-clauses, the rest of a long provision);
- ``(d) sibling``: a cited section holds the fact in a provision that is not shown (another
  sub-section, a proviso, an explanation);
- ``(b) not quoted``: a retrieved section (gold or not) holds it, but no citation quotes
  that section;
- ``(a) not retrieved``: only a gold section holds it, and ask did not retrieve it;
- ``(f) other``: no gold or retrieved provision states it in the dataset's words (the
  key fact is a paraphrase, or lives in an Act or section the gold does not name).

Nothing here changes answers; it reads them.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError
from civicsetu.eval.metrics import normalise_for_match, section_key
from civicsetu.eval.runner import load_dataset
from civicsetu.store.base import Store

CLASSES = ["(a) not retrieved", "(b) not quoted", "(c) truncated", "(d) sibling",
           "(e) matcher", "(f) other"]
_NON_WORD = re.compile(r"[^a-z0-9]+")


def _loose(text: str) -> str:
    """Normalised text with every run of punctuation or space as one space."""
    return " ".join(_NON_WORD.split(normalise_for_match(text))).strip()


def _section_text(store: Store, key: str, cache: dict[str, str]) -> str:
    if key not in cache:
        try:
            cache[key] = normalise_for_match(store.provision(key).text)
        except NotFoundError:
            cache[key] = ""
    return cache[key]


def classify(fact: str, answer_text: str, cited: list[str], retrieved: list[str],
             golds: list[str], store: Store, cache: dict[str, str]) -> str:
    """The class of one missing key fact (see the module docstring)."""
    f = normalise_for_match(fact)
    if _loose(fact) and _loose(fact) in _loose(answer_text):
        return "(e) matcher"
    for pid in cited:
        if f in _section_text(store, pid, cache):
            return "(c) truncated"
    cited_sections = list(dict.fromkeys(section_key(c) for c in cited))
    if any(f in _section_text(store, s, cache) for s in cited_sections):
        return "(d) sibling"
    retrieved_sections = list(dict.fromkeys(section_key(r) for r in retrieved))
    if any(f in _section_text(store, s, cache) for s in retrieved_sections):
        return "(b) not quoted"
    if any(f in _section_text(store, section_key(g), cache) for g in golds):
        return "(a) not retrieved"
    return "(f) other"


def holder(fact: str, retrieved: list[str], golds: list[str], store: Store,
           cache: dict[str, str]) -> str:
    """Where the fact is: the first retrieved (else gold) section holding it, its rank
    among the retrieved sections (0 if not retrieved) and whether it is a gold section."""
    f = normalise_for_match(fact)
    sections = list(dict.fromkeys(section_key(r) for r in retrieved))
    gold_sections = {section_key(g) for g in golds}
    for rank, s in enumerate(sections, start=1):
        if f in _section_text(store, s, cache):
            return f"{s} rank {rank}{' gold' if s in gold_sections else ''}"
    return "not retrieved"


def main() -> None:
    """Print one line per missing key fact and the counts per class."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [r for r in load_dataset(args.dataset)
            if r.get("gold_provisions") and r.get("key_facts")]
    counts: Counter[str] = Counter()
    details: list[dict[str, Any]] = []
    total = 0
    cache: dict[str, str] = {}
    with Engine() as engine:
        for row in rows:
            answer = engine.ask(row["query"])
            hay = normalise_for_match(answer.text)
            cited = [c.provision_id for c in answer.citations]
            retrieved = [h.provision_id for h in answer.retrieved]
            for fact in row["key_facts"]:
                total += 1
                if normalise_for_match(fact) in hay:
                    continue
                label = classify(fact, answer.text, cited, retrieved,
                                 row["gold_provisions"], engine.store, cache)
                counts[label] += 1
                details.append({"id": row["id"], "type": row.get("query_type"),
                                "fact": fact, "class": label, "cited": cited,
                                "gold": row["gold_provisions"],
                                "holder": holder(fact, retrieved, row["gold_provisions"],
                                                 engine.store, cache)})
    if args.json:
        print(json.dumps({"facts": total, "counts": counts, "misses": details}, indent=1))
        return
    for d in details:
        print(f"{d['id']:<16} {d['class']:<18} {d['fact']!r}")
        print(f"{'':>18}gold {', '.join(d['gold'])}; cited {', '.join(d['cited'])}")
        print(f"{'':>18}held by {d['holder']}")
    print(json.dumps({"facts": total, "missing": sum(counts.values()),
                      **{c: counts.get(c, 0) for c in CLASSES}}))


if __name__ == "__main__":
    main()
