"""Run a labelled question set through the engine: hybrid against a BM25-only baseline.

Citation validity is checked independently of the answerer: each quote must be found
verbatim (white space aside) in the text of the provision it cites, read from the store.
"""

from __future__ import annotations

import json
import platform
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from civicsetu.answer.verify import locate_quote
from civicsetu.engine import Engine
from civicsetu.errors import InputError, NotFoundError
from civicsetu.eval.metrics import (
    citation_precision_counts,
    key_fact_recall,
    percentile,
    recall_at_k,
    reciprocal_rank,
)
from civicsetu.search.hybrid import Mode
from civicsetu.types import Answer

SYSTEMS: dict[str, Mode] = {"hybrid": "hybrid", "bm25-only": "bm25"}


def load_dataset(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{n}: not JSON ({exc.msg})") from exc
            if "query" not in row:
                raise InputError(f"{path}:{n}: row has no 'query'")
            rows.append(row)
    return rows


def _citation_checks(engine: Engine, answer: Answer) -> tuple[int, int]:
    valid = 0
    for c in answer.citations:
        try:
            provision = engine.store.provision(c.provision_id)
        except NotFoundError:
            continue
        if locate_quote(provision.text, c.quote) is not None:
            valid += 1
    return valid, len(answer.citations)


def evaluate_system(engine: Engine, rows: list[dict[str, Any]], mode: Mode,
                    on_row: Callable[[], None] | None = None,
                    llm: str | None = None) -> dict[str, Any]:
    per_row = []
    for row in rows:
        t0 = time.perf_counter()
        answer = engine.ask(row["query"], mode=mode, llm=llm)
        latency = (time.perf_counter() - t0) * 1000
        retrieved = [h.provision_id for h in answer.retrieved]
        gold = row.get("gold_provisions") or []
        valid, cited = _citation_checks(engine, answer)
        on_gold = citation_precision_counts(gold, [c.provision_id for c in answer.citations])
        per_row.append({
            "id": row.get("id", ""), "query_type": row.get("query_type", ""),
            "answerable": bool(gold), "abstained": answer.abstained,
            "recall@1": recall_at_k(gold, retrieved, 1) if gold else None,
            "recall@5": recall_at_k(gold, retrieved, 5) if gold else None,
            "recall@10": recall_at_k(gold, retrieved, 10) if gold else None,
            "rr": reciprocal_rank(gold, retrieved) if gold else None,
            "key_fact_recall": key_fact_recall(row.get("key_facts") or [], answer.text)
            if gold and row.get("key_facts") else None,
            "citations": cited, "valid_citations": valid, "gold_citations": on_gold,
            "latency_ms": round(latency, 1),
            "llm_calls": answer.llm_calls, "tokens": answer.tokens,
            "llm_answer": answer.generator != "extractive" and not answer.abstained,
            "retrieved": retrieved[:10],
        })
        if on_row:
            on_row()
    return {"summary": summarise(per_row), "rows": per_row}


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def _precision(answerable: list[dict[str, Any]]) -> float | None:
    """Share of the citations shown for answerable questions that cite a gold section."""
    shown = sum(r["citations"] for r in answerable)
    if not shown:
        return None
    on_gold = sum(int(r.get("gold_citations", 0)) for r in answerable)
    return float(round(on_gold / shown, 4))


def summarise(per_row: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in per_row if r["answerable"]]
    unanswerable = [r for r in per_row if not r["answerable"]]
    cited = sum(r["citations"] for r in per_row)
    latencies = [r["latency_ms"] for r in per_row]
    by_type: dict[str, list[float]] = defaultdict(list)
    for r in answerable:
        by_type[r["query_type"]].append(r["recall@5"])
    return {
        "rows": len(per_row), "answerable": len(answerable), "unanswerable": len(unanswerable),
        "recall@1": _mean([r["recall@1"] for r in answerable]),
        "recall@5": _mean([r["recall@5"] for r in answerable]),
        "recall@10": _mean([r["recall@10"] for r in answerable]),
        "mrr": _mean([r["rr"] for r in answerable]),
        "key_fact_recall": _mean([r["key_fact_recall"] for r in answerable
                                  if r["key_fact_recall"] is not None]),
        "citation_validity": round(sum(r["valid_citations"] for r in per_row) / cited, 4)
        if cited else None,
        "citations": cited,
        "citation_precision": _precision(answerable),
        "citations_per_answer": _mean([float(r["citations"]) for r in answerable
                                       if not r["abstained"]]),
        "answer_rate_answerable": _mean([0.0 if r["abstained"] else 1.0 for r in answerable]),
        "abstention_unanswerable": _mean([1.0 if r["abstained"] else 0.0
                                          for r in unanswerable]),
        "llm_calls_per_question": _mean([float(r.get("llm_calls", 0)) for r in per_row]),
        "llm_answers_shown": sum(1 for r in per_row if r.get("llm_answer")),
        "latency_p50_ms": round(percentile(latencies, 50), 1),
        "latency_p95_ms": round(percentile(latencies, 95), 1),
        "recall@5_by_type": {t: _mean(v) for t, v in sorted(by_type.items())},
    }


def run_evaluation(engine: Engine, rows: list[dict[str, Any]], dataset_name: str,
                   on_row: Callable[[], None] | None = None,
                   llm: str | None = None) -> dict[str, Any]:
    """Hybrid against BM25-only; with ``llm``, no LLM against that LLM (both hybrid)."""
    docs = engine.documents()
    if not docs:
        from civicsetu.errors import NotIngestedError
        raise NotIngestedError("the index is empty; run `civicsetu ingest --bundled` first")
    engine.ask(rows[0]["query"])  # warm the model so the first row's latency is honest
    if llm:
        systems = {"no LLM": evaluate_system(engine, rows, "hybrid", on_row),
                   f"LLM {llm}": evaluate_system(engine, rows, "hybrid", on_row, llm)}
    else:
        systems = {name: evaluate_system(engine, rows, mode, on_row)
                   for name, mode in SYSTEMS.items()}
    return {
        "dataset": dataset_name,
        "documents": len(docs),
        "chunks": engine.store.chunk_count(),
        "embedder": engine.embedder.model_id,
        "machine": f"{platform.machine()}, {platform.system()}, Python "
                   f"{platform.python_version()}",
        "systems": systems,
    }
