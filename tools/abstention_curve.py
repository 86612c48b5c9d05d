"""Answer rate against abstention accuracy for the evidence score, over thresholds.

    python tools/abstention_curve.py ../shared/eval/legal_qa_dev.jsonl

For every question the agent's retrieval runs (with its corrective retries, as ``ask``
does); the score is the best dense cosine of the retrieval kept (what
``Settings.abstain_below`` thresholds), and the other evidence checks (unknown
names, state scope, a named provision) are applied as the answerer applies them. Prints,
for each threshold, the share of answerable questions answered and the share of
unanswerable ones abstained on.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from civicsetu.agent.state import AgentState
from civicsetu.answer.evidence import assess
from civicsetu.engine import Engine
from civicsetu.eval.runner import load_dataset
from civicsetu.search.hybrid import SearchResult


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    args = parser.parse_args()
    rows = load_dataset(args.dataset)
    scored: list[tuple[float, bool, bool]] = []  # (score, answerable, other checks pass)
    with Engine() as engine:
        agent = engine.agent(None)
        for row in rows:
            state: AgentState = {"query": row["query"], "rewritten": row["query"],
                                 "attempts": 0, "filters": None}
            state.update(agent._retrieve(state))
            while agent._after_retrieve(state) == "again":
                state.update(agent._retrieve(state))
            result: SearchResult = state["result"]
            # Run the other checks with the floor off, to separate them from the score.
            ev = assess(result, engine.store, engine.searcher.documents, -1.0)
            pinned = any(h.pinned for h in result.hits)
            score = 1.0 if pinned else (result.best_cosine or 0.0)
            scored.append((score, bool(row.get("gold_provisions")), ev.answerable))
    answerable = sum(1 for _, a, _ in scored if a)
    unanswerable = len(scored) - answerable
    print("| threshold | answer rate (answerable) | abstention (unanswerable) |")
    print("|---|---|---|")
    for t in [x / 100 for x in range(30, 51)]:
        answered = sum(1 for s, a, ok in scored if a and ok and s >= t)
        abstained = sum(1 for s, a, ok in scored if not a and (not ok or s < t))
        print(f"| {t:.2f} | {answered / answerable:.3f} | {abstained / unanswerable:.3f} |")


if __name__ == "__main__":
    main()
