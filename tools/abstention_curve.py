"""Answer rate against abstention accuracy for the evidence scores, over thresholds.

    python tools/abstention_curve.py ../shared/eval/legal_qa_dev.jsonl [--dump FILE]

Every question runs through the agent as ``ask`` runs it (scope guard, corrective
retries, unknown names, state scope, quote verification, the quantity check) with the
floors switched off, so each question is recorded as: passes every other check or not,
its best dense cosine (1.0 when it names an existing provision) and its calibrated answer
score (``answer/confidence.py``). Two floors are then swept: the best cosine
(``Settings.abstain_below``, the default decision) and the answer score
(``Settings.answer_score_floor``). Prints, for each, the share of answerable questions
answered and of unanswerable ones abstained on, and a leave-one-out estimate of the rule
that picks the floor (the highest floor answering every answerable question of the other
rows): how often the floor chosen without a question decides that question rightly.
``--dump`` writes each question's signals as JSONL.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from civicsetu.agent.pipeline import Agent
from civicsetu.agent.state import AgentState
from civicsetu.answer.confidence import assess_confidence
from civicsetu.engine import Engine
from civicsetu.eval.runner import load_dataset
from civicsetu.search.hybrid import SearchResult


@dataclass(frozen=True, slots=True)
class Scored:
    score: float
    answerable: bool
    others_pass: bool  # every check but the floor answers


def curve(scored: list[Scored], thresholds: list[float]) -> list[tuple[float, float, float]]:
    """(threshold, answer rate of the answerable, abstention rate of the unanswerable)."""
    answerable = sum(1 for s in scored if s.answerable) or 1
    unanswerable = (len(scored) - sum(1 for s in scored if s.answerable)) or 1
    out = []
    for t in thresholds:
        answered = sum(1 for s in scored if s.answerable and s.others_pass and s.score >= t)
        abstained = sum(1 for s in scored if not s.answerable
                        and (not s.others_pass or s.score < t))
        out.append((t, answered / answerable, abstained / unanswerable))
    return out


def dev_floor(scored: list[Scored]) -> float:
    """The rule the floors were chosen by: just below the lowest answerable question that
    passes the other checks (the highest floor that answers all of them)."""
    lowest = min((s.score for s in scored if s.answerable and s.others_pass), default=0.0)
    return lowest - 1e-4


def leave_one_out(scored: list[Scored]) -> tuple[float, float]:
    """Answer rate and abstention when each question is decided by the floor chosen
    (``dev_floor``) on all the other questions."""
    answered = abstained = 0
    for i, s in enumerate(scored):
        floor = dev_floor(scored[:i] + scored[i + 1:])
        decided_answer = s.others_pass and s.score >= floor
        answered += s.answerable and decided_answer
        abstained += not s.answerable and not decided_answer
    n_ans = sum(1 for s in scored if s.answerable) or 1
    return answered / n_ans, abstained / ((len(scored) - n_ans) or 1)


def _table(name: str, rows: list[tuple[float, float, float]]) -> None:
    print(f"| {name} | answer rate (answerable) | abstention (unanswerable) |")
    print("|---|---|---|")
    for t, answered, abstained in rows:
        print(f"| {t:.4f} | {answered:.3f} | {abstained:.3f} |")
    print()


def _changes(rows: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Only the thresholds where the curve changes, plus the round ones."""
    shown, last = [], None
    for r in rows:
        if (r[1], r[2]) != last or round(r[0] * 20) == r[0] * 20:
            shown.append(r)
        last = (r[1], r[2])
    return shown


def _run(agent: Agent, query: str) -> tuple[SearchResult | None, bool]:
    """The kept retrieval (None when refused before it) and whether the answerer, with
    the floor off, answers."""
    state: AgentState = {"query": query, "filters": None, "attempts": 0, "generations": 0,
                         "llm_calls": 0, "tokens": 0, "problems": []}
    final = agent._run_straight(state)
    return final.get("result"), not final["answer"].abstained


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
        agent = Agent(engine.searcher, engine.store, -1.0)  # the cosine floor off
        for row in rows:
            result, others_pass = _run(agent, row["query"])
            answerable = bool(row.get("gold_provisions"))
            if result is None:  # refused before retrieval (drafting, advice, injection)
                by_score.append(Scored(0.0, answerable, False))
                by_cosine.append(Scored(0.0, answerable, False))
                continue
            pinned = any(h.pinned for h in result.hits)
            confidence = assess_confidence(result, engine.searcher)
            cosine = 1.0 if pinned else (result.best_cosine or 0.0)
            by_score.append(Scored(confidence.score, answerable, others_pass))
            by_cosine.append(Scored(cosine, answerable, others_pass))
            dumped.append({"id": row.get("id", ""), "answerable": answerable,
                           "checks_pass": others_pass, "cosine": round(cosine, 4),
                           "score": confidence.score, **confidence.features})
    if args.dump:
        args.dump.write_text("".join(json.dumps(d) + "\n" for d in dumped))
    for name, scored, grid in (
            ("cosine floor", by_cosine, sorted({s.score for s in by_cosine if s.score < 0.6}
                                               | {x / 100 for x in range(20, 61, 5)})),
            ("answer score floor", by_score, sorted({s.score for s in by_score}
                                                     | {x / 100 for x in range(5, 96, 5)}))):
        floor = dev_floor(scored)
        (_, answered, abstained), = curve(scored, [floor])
        loo_answered, loo_abstained = leave_one_out(scored)
        print(f"{name}: the highest floor answering every answerable question is "
              f"{floor:.4f} (answer rate {answered:.3f}, abstention {abstained:.3f}); "
              f"leave-one-out: answer rate {loo_answered:.3f}, abstention "
              f"{loo_abstained:.3f}\n")
        _table(name, _changes(curve(scored, grid)))


if __name__ == "__main__":
    main()
