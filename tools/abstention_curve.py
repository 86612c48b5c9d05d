"""Answer rate against abstention accuracy for the evidence scores, over thresholds.

    python tools/abstention_curve.py ../shared/eval/legal_qa_dev.jsonl [--dump FILE]

For every question the agent's retrieval runs (with its corrective retries, as ``ask``
does); two scores are thresholded: the calibrated answer score
(``answer/confidence.py``, what ``Settings.answer_score_floor`` thresholds) and, for
comparison, the best dense cosine alone (``Settings.abstain_below``). The other
evidence checks (unknown names, state scope, a named provision) are applied as the
answerer applies them. Prints, for each threshold, the share of answerable questions
answered and the share of unanswerable ones abstained on; ``--dump`` writes each
question's signals as JSONL.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from civicsetu.agent.state import AgentState
from civicsetu.answer.confidence import assess_confidence
from civicsetu.answer.evidence import assess
from civicsetu.engine import Engine
from civicsetu.eval.runner import load_dataset
from civicsetu.search.hybrid import SearchResult

Scored = tuple[float, bool, bool]  # (score, answerable, other checks pass)


def curve(scored: list[Scored], thresholds: list[float]) -> list[tuple[float, float, float]]:
    """(threshold, answer rate of the answerable, abstention rate of the unanswerable)."""
    answerable = sum(1 for _, a, _ in scored if a) or 1
    unanswerable = (len(scored) - sum(1 for _, a, _ in scored if a)) or 1
    out = []
    for t in thresholds:
        answered = sum(1 for s, a, ok in scored if a and ok and s >= t)
        abstained = sum(1 for s, a, ok in scored if not a and (not ok or s < t))
        out.append((t, answered / answerable, abstained / unanswerable))
    return out


def _table(name: str, rows: list[tuple[float, float, float]]) -> None:
    print(f"| {name} | answer rate (answerable) | abstention (unanswerable) |")
    print("|---|---|---|")
    for t, answered, abstained in rows:
        print(f"| {t:.2f} | {answered:.3f} | {abstained:.3f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--dump", type=Path, default=None)
    args = parser.parse_args()
    rows = load_dataset(args.dataset)
    by_score: list[Scored] = []
    by_cosine: list[Scored] = []
    dumped = []
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
            confidence = assess_confidence(result, engine.searcher)
            answerable = bool(row.get("gold_provisions"))
            by_score.append((confidence.score, answerable, ev.answerable))
            by_cosine.append((1.0 if pinned else (result.best_cosine or 0.0), answerable,
                              ev.answerable))
            dumped.append({"id": row.get("id", ""), "answerable": answerable,
                           "checks_pass": ev.answerable, "score": confidence.score,
                           **confidence.features})
    if args.dump:
        args.dump.write_text("".join(json.dumps(d) + "\n" for d in dumped))
    grid = sorted({s for s, _, _ in by_score} | {x / 100 for x in range(5, 96, 5)})
    rows_by_score = curve(by_score, grid)
    chosen = max((r for r in rows_by_score if r[1] >= 0.97), key=lambda r: (r[2], r[1], r[0]),
                 default=None)
    if chosen:
        print(f"highest-abstention floor answering >= 0.97 of the answerable: "
              f"{chosen[0]:.4f} (answer rate {chosen[1]:.3f}, abstention {chosen[2]:.3f})\n")
    # Print only where the curve changes, plus the round thresholds.
    shown, last = [], None
    for r in rows_by_score:
        if (r[1], r[2]) != last or round(r[0] * 20) == r[0] * 20:
            shown.append(r)
        last = (r[1], r[2])
    _table("answer score floor", shown)
    _table("cosine floor", curve(by_cosine, [x / 100 for x in range(30, 51, 2)]))


if __name__ == "__main__":
    main()
