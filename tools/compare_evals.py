"""Put two ``civicsetu eval --out`` JSON reports side by side, per question type, and list
the questions whose outcome changed.

    python tools/compare_evals.py eval-results/heldout-main.json eval-results/heldout-b.json
    python tools/compare_evals.py eval-results/heldout-main.json   # one report, by type

A report may also be ``tools/eval_hybrid.py``'s output (one system, no ``systems`` key).
Both files must come from the same question set (rows are matched by ``id``). For each
question type (and "all") it prints recall@1/@5/@10, hit@1 (a gold section ranked first),
MRR, key-fact recall, citation precision, answer rate on answerable questions and
abstention on unanswerable ones, computed from the per-question rows, so the figures
agree with the report's own summary where the summary has them. A question "changed" when
its recall@5, hit@1, key-fact recall or abstention differs between the two runs.
Output is Markdown.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

Row = dict[str, Any]
METRICS = ("recall@1", "recall@5", "recall@10", "hit@1", "mrr", "key_facts", "precision",
           "answered", "abstained")


def load_rows(path: Path, system: str) -> dict[str, Row]:
    """The per-question rows of one system in an eval report, keyed by question id."""
    report = json.loads(path.read_text(encoding="utf-8"))
    if "rows" in report:  # tools/eval_hybrid.py writes one system's summary and rows
        return {str(r["id"]): r for r in report["rows"]}
    systems = report.get("systems", {})
    if system not in systems:
        raise SystemExit(f"{path}: no system {system!r}; it has {sorted(systems)}")
    return {str(r["id"]): r for r in systems[system]["rows"]}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def group_metrics(rows: list[Row]) -> dict[str, float | None]:
    """The metrics of a group of rows (None where the group has no row it applies to)."""
    ans = [r for r in rows if r["answerable"]]
    una = [r for r in rows if not r["answerable"]]
    shown = sum(int(r["citations"]) for r in ans)
    return {
        "n": float(len(rows)),
        "recall@1": _mean([r["recall@1"] for r in ans]),
        "recall@5": _mean([r["recall@5"] for r in ans]),
        "recall@10": _mean([r["recall@10"] for r in ans]),
        "hit@1": _mean([1.0 if r["rr"] == 1.0 else 0.0 for r in ans]),
        "mrr": _mean([r["rr"] for r in ans]),
        "key_facts": _mean([r["key_fact_recall"] for r in ans
                            if r.get("key_fact_recall") is not None]),
        "precision": sum(int(r.get("gold_citations", 0)) for r in ans) / shown
        if shown else None,
        "answered": _mean([0.0 if r["abstained"] else 1.0 for r in ans]),
        "abstained": _mean([1.0 if r["abstained"] else 0.0 for r in una]),
    }


def by_type(rows: dict[str, Row]) -> dict[str, dict[str, float | None]]:
    """Metrics per question type, plus "all"."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows.values():
        groups[str(r.get("query_type") or "?")].append(r)
    out = {t: group_metrics(g) for t, g in sorted(groups.items())}
    out["all"] = group_metrics(list(rows.values()))
    return out


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _cell(a: float | None, b: float | None) -> str:
    if b is None and a is None:
        return "-"
    if b is None or a is None:
        return f"{_fmt(a)} / {_fmt(b)}"
    delta = b - a
    sign = "" if abs(delta) < 5e-4 else f" ({delta:+.3f})"
    return f"{a:.3f} / {b:.3f}{sign}"


def table(a: dict[str, dict[str, float | None]],
          b: dict[str, dict[str, float | None]] | None) -> list[str]:
    """A Markdown table: one line per type, one column per metric ("A / B (delta)")."""
    lines = ["| type | n | " + " | ".join(METRICS) + " |",
             "|---|---|" + "---|" * len(METRICS)]
    for t, m in a.items():
        other = b.get(t) if b is not None else None
        cells = [(_cell(m[k], other[k]) if other is not None else _fmt(m[k])) for k in METRICS]
        lines.append(f"| {t} | {int(m['n'] or 0)} | " + " | ".join(cells) + " |")
    return lines


def _outcome(r: Row) -> tuple[Any, ...]:
    return (r["recall@5"], r["rr"] == 1.0 if r["rr"] is not None else None,
            r.get("key_fact_recall"), r["abstained"])


def changed(a: dict[str, Row], b: dict[str, Row]) -> list[str]:
    """One Markdown line per question whose recall@5, hit@1, key facts or abstention moved."""
    lines = []
    for qid in a:
        if qid in b and _outcome(a[qid]) != _outcome(b[qid]):
            ra, rb = a[qid], b[qid]
            parts = []
            for key, label in (("recall@5", "r@5"), ("key_fact_recall", "kf")):
                if ra.get(key) != rb.get(key):
                    parts.append(f"{label} {_fmt(ra.get(key))} -> {_fmt(rb.get(key))}")
            if (ra["rr"] == 1.0) != (rb["rr"] == 1.0):
                parts.append(f"hit@1 {ra['rr'] == 1.0} -> {rb['rr'] == 1.0}")
            if ra["abstained"] != rb["abstained"]:
                parts.append(f"abstained {ra['abstained']} -> {rb['abstained']}")
            lines.append(f"- {qid} ({ra.get('query_type', '?')}): " + "; ".join(parts))
    return lines


def main(argv: list[str] | None = None) -> None:
    """Print the comparison (or one report's per-type table) as Markdown."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("a", type=Path, help="eval report JSON (the baseline)")
    ap.add_argument("b", type=Path, nargs="?", help="eval report JSON to compare with A")
    ap.add_argument("--system", default="hybrid", help="system in the reports (default hybrid)")
    args = ap.parse_args(argv)
    a = load_rows(args.a, args.system)
    b = load_rows(args.b, args.system) if args.b else None
    if b is not None:
        only = sorted(set(a) ^ set(b))
        if only:
            raise SystemExit(f"the reports hold different questions, e.g. {only[:5]}")
        print(f"A = {args.a}, B = {args.b} (system {args.system}); cells are A / B (B - A)\n")
    print("\n".join(table(by_type(a), by_type(b) if b is not None else None)))
    if b is not None:
        moved = changed(a, b)
        print(f"\n{len(moved)} questions changed:\n")
        print("\n".join(moved) if moved else "(none)")


if __name__ == "__main__":
    main()
