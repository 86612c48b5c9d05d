"""Evaluation results -> Markdown table + JSON file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_ROWS = [
    ("recall@1", "Section recall@1"), ("recall@5", "Section recall@5"),
    ("recall@10", "Section recall@10"), ("mrr", "MRR"),
    ("key_fact_recall", "Key-fact recall (answerable)"),
    ("citation_validity", "Citation validity"), ("citations", "Citations checked"),
    ("citation_precision", "Citation precision (answerable: cites a gold section)"),
    ("citations_per_answer", "Citations per answer"),
    ("answer_rate_answerable", "Answer rate (answerable)"),
    ("abstention_unanswerable", "Abstention (unanswerable)"),
    ("latency_p50_ms", "Latency p50 (ms)"), ("latency_p95_ms", "Latency p95 (ms)"),
    ("llm_calls_per_question", "LLM calls per question"),
    ("llm_answers_shown", "LLM-written answers shown (passed validation)"),
]


def render_markdown(report: dict[str, Any]) -> str:
    systems = report["systems"]
    names = list(systems)
    first = systems[names[0]]["summary"]
    lines = [
        f"# Evaluation: {report['dataset']}",
        "",
        f"{first['rows']} questions ({first['answerable']} answerable, "
        f"{first['unanswerable']} unanswerable); {report['documents']} documents, "
        f"{report['chunks']} chunks; embedder {report['embedder']}; {report['machine']}.",
        "",
        "| metric | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for key, label in _ROWS:
        cells = [_fmt(systems[n]["summary"].get(key)) for n in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "Section recall@5 by question type:", "",
              "| type | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    types = sorted({t for n in names for t in systems[n]["summary"]["recall@5_by_type"]})
    for t in types:
        cells = [_fmt(systems[n]["summary"]["recall@5_by_type"].get(t)) for n in names]
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}" if value <= 1.0 else f"{value:.1f}"
    return str(value)


def write_report(report: dict[str, Any], out_prefix: Path) -> tuple[Path, Path]:
    out_prefix.parent.mkdir(parents=True, exist_ok=True)
    md_path = out_prefix.with_suffix(".md")
    json_path = out_prefix.with_suffix(".json")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    json_path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    return md_path, json_path
