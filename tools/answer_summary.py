"""Summarise the JSONL rows of ``tools/answer_dump.py``: the dev metrics of an LLM run, like
for like against a no-LLM run of the same questions, and what happened to each LLM draft.

    python tools/answer_summary.py /work/cache/l12-qwen.jsonl \
        --baseline /work/cache/l12-nollm.jsonl --dataset ../shared/eval/legal_qa_dev.jsonl

It reads rows as they are (a run still going is summarised over the rows it has written)
and prints Markdown. Each LLM answer is put in one outcome class, from its generator, its
notices and its recorded drafts (the notices are the pipeline's own, agent/pipeline.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

Row = dict[str, Any]

OUTCOMES = {
    "shown": "LLM draft shown whole",
    "cut": "LLM draft cut to its verified sentences",
    "replaced": "replaced by the extractive answer: the draft failed, no sentence verified",
    "unverified": "replaced: the draft passed, but no sentence cites and says what its "
                  "source says",
    "insufficient": "LLM replied INSUFFICIENT: the verified quotes shown",
    "no_call": "no LLM call (abstained on the evidence, the quantity check, or refused)",
}


def load(path: Path) -> list[Row]:
    """The rows of a dump, in file order; a half-written last line is skipped."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def outcome(row: Row) -> str:
    """The outcome class of one answer (a key of ``OUTCOMES``)."""
    notices = " ".join(row.get("notices") or [])
    if not row.get("llm_calls"):
        return "no_call"
    if row.get("generator") != "extractive":
        return "cut" if "left out" in notices else "shown"
    if "failed verification" in notices:
        return "replaced"
    if "No sentence of the LLM's answer" in notices:
        return "unverified"
    return "insufficient"


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0-100) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, round(q / 100 * len(ordered) + 0.4999))
    return ordered[min(rank, len(ordered)) - 1]


def metrics(rows: list[Row]) -> dict[str, float]:
    """Key facts, citation validity, answer rate, abstention, latency and LLM calls."""
    facts = [r["key_fact_recall"] for r in rows if r.get("key_fact_recall") is not None]
    answerable = [r for r in rows if r.get("answerable")]
    unanswerable = [r for r in rows if not r.get("answerable")]
    cited = sum(r.get("citations", 0) for r in rows)
    wall = [r["wall_ms"] / 1000 for r in rows]
    cpu = [r["cpu_ms"] / 1000 for r in rows]
    return {
        "questions": len(rows),
        "key facts": statistics.fmean(facts) if facts else float("nan"),
        "citation validity": sum(r.get("valid_citations", 0) for r in rows) / cited
        if cited else float("nan"),
        "citations checked": cited,
        "answer rate (answerable)": sum(not r["abstained"] for r in answerable)
        / len(answerable) if answerable else float("nan"),
        "abstention (unanswerable)": sum(r["abstained"] for r in unanswerable)
        / len(unanswerable) if unanswerable else float("nan"),
        "wall s p50": percentile(wall, 50),
        "wall s p95": percentile(wall, 95),
        "CPU s per question (mean)": statistics.fmean(cpu) if cpu else float("nan"),
        "LLM calls per question": statistics.fmean(r.get("llm_calls", 0) for r in rows)
        if rows else float("nan"),
    }


def _fmt(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def report(llm_rows: list[Row], base_rows: list[Row], total: int | None) -> str:
    """The Markdown summary: metrics side by side on the same questions, then outcomes."""
    base = {r["id"]: r for r in base_rows}
    same = [r for r in llm_rows if r["id"] in base]
    lines = [f"{len(llm_rows)} LLM rows" + (f" of {total} questions" if total else "")
             + (f"; {len(same)} also in the no-LLM run" if base_rows else "") + ".", ""]
    ours = metrics(same if base_rows else llm_rows)
    theirs = metrics([base[r["id"]] for r in same]) if base_rows else {}
    lines += ["| metric (same questions) | no LLM | LLM |" if base_rows else "| metric | LLM |",
              "|---|---:|---:|" if base_rows else "|---|---:|"]
    for name, value in ours.items():
        cells = [_fmt(theirs[name])] if base_rows else []
        lines.append(f"| {name} | " + " | ".join([*cells, _fmt(value)]) + " |")
    if base_rows:
        pairs = [(r["key_fact_recall"], base[r["id"]]["key_fact_recall"]) for r in same
                 if r.get("key_fact_recall") is not None
                 and base[r["id"]].get("key_fact_recall") is not None]
        lines += ["", f"Key facts per question against no LLM: "
                  f"{sum(a > b for a, b in pairs)} higher, {sum(a == b for a, b in pairs)} "
                  f"equal, {sum(a < b for a, b in pairs)} lower (of {len(pairs)})."]
    counts = Counter(outcome(r) for r in llm_rows)
    lines += ["", "| outcome | questions |", "|---|---:|"]
    lines += [f"| {label} | {counts.get(key, 0)} |" for key, label in OUTCOMES.items()]
    retried = [r for r in llm_rows if len(r.get("drafts") or []) >= 2]
    same_again = sum(1 for r in retried
                     if r["drafts"][0]["text"].strip() == r["drafts"][1]["text"].strip())
    rescued = sum(1 for r in retried if outcome(r) == "shown")
    drafts = [d for r in llm_rows for d in r.get("drafts") or []]
    lines += ["", f"Retries: {len(retried)} questions had a second draft; it passed whole in "
              f"{rescued}, was cut in {sum(outcome(r) == 'cut' for r in retried)}, and was "
              f"word for word the first draft in {same_again}."]
    if drafts:
        lines.append(
            f"Per LLM call: prompt tokens mean "
            f"{statistics.fmean(d['prompt_tokens'] for d in drafts):.0f}, completion tokens "
            f"mean {statistics.fmean(d['completion_tokens'] for d in drafts):.0f}, CPU s mean "
            f"{statistics.fmean(d['cpu_s'] for d in drafts):.1f} ({len(drafts)} calls).")
    return "\n".join(lines)


def main() -> None:
    """Print the summary of an answer_dump run, against a no-LLM run when given."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rows", type=Path, help="answer_dump JSONL of the LLM run")
    parser.add_argument("--baseline", type=Path, help="answer_dump JSONL without --llm")
    parser.add_argument("--dataset", type=Path, help="the question file, to count its rows")
    args = parser.parse_args()
    total = None
    if args.dataset:
        total = sum(1 for line in args.dataset.read_text(encoding="utf-8").splitlines()
                    if line.strip())
    print(report(load(args.rows), load(args.baseline) if args.baseline else [], total))


if __name__ == "__main__":
    main()
