"""Dump every answer of a labelled question set to JSONL, one line per question, as it goes.

For inspecting an LLM run while it runs (``civicsetu eval`` writes only at the end):
each line holds the answer text, its citations, generator, the key-fact recall and the
citation validity of that question, measured with the same code as ``civicsetu eval``.

    python tools/answer_dump.py ../shared/eval/legal_qa_dev.jsonl --out answers.jsonl \
        --llm gguf:qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from civicsetu.engine import Engine
from civicsetu.eval.metrics import key_fact_recall
from civicsetu.eval.runner import _citation_checks, load_dataset
from civicsetu.llm.base import LLM, Completion, Message


class RecordingLLM:
    """Passes calls to the real LLM and keeps each draft with its tokens and time."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.name = llm.name
        self.calls: list[dict[str, Any]] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        """The real call, recorded."""
        c0 = time.process_time()
        out = self.llm.complete(messages, max_tokens=max_tokens, temperature=temperature,
                                stop=stop)
        self.calls.append({"text": out.text, "prompt_tokens": out.usage.prompt_tokens,
                           "completion_tokens": out.usage.completion_tokens,
                           "seconds": round(out.seconds, 2),
                           "cpu_s": round(time.process_time() - c0, 2)})
        return out


def answer_row(engine: Engine, row: dict[str, Any], llm: str | None,
               recorder: RecordingLLM | None = None) -> dict[str, Any]:
    """Answer one labelled question and measure it as ``civicsetu eval`` does."""
    if recorder is not None:
        recorder.calls = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    answer = engine.ask(row["query"], llm=llm)
    wall = (time.perf_counter() - t0) * 1000
    cpu = (time.process_time() - c0) * 1000
    gold = row.get("gold_provisions") or []
    valid, cited = _citation_checks(engine, answer)
    facts = row.get("key_facts") or []
    return {
        "id": row.get("id", ""), "query_type": row.get("query_type", ""),
        "answerable": bool(gold), "abstained": answer.abstained,
        "generator": answer.generator, "llm_calls": answer.llm_calls,
        "key_fact_recall": key_fact_recall(facts, answer.text) if gold and facts else None,
        "citations": cited, "valid_citations": valid,
        "cited": [c.provision_id for c in answer.citations],
        "notices": answer.notices, "text": answer.text,
        "wall_ms": round(wall, 1), "cpu_ms": round(cpu, 1),
        "drafts": list(recorder.calls) if recorder is not None else [],
    }


def main() -> None:
    """Answer each question and append one JSON line per answer to --out."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--llm", default=None)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--stride", type=int, default=1,
                        help="answer every n-th question only (a documented subset)")
    args = parser.parse_args()
    rows = load_dataset(args.dataset)
    rows = rows[:: max(args.stride, 1)]
    if args.limit:
        rows = rows[: args.limit]
    engine = Engine()
    recorder = None
    if args.llm:
        agent = engine.agent(args.llm)
        if agent.llm is not None:
            recorder = RecordingLLM(agent.llm)
            agent.llm = recorder
    done = set()
    if args.out.exists():
        done = {json.loads(line)["id"] for line in args.out.read_text().splitlines() if line}
    with args.out.open("a", encoding="utf-8") as fh:
        for row in rows:
            if row.get("id") in done:
                continue
            fh.write(json.dumps(answer_row(engine, row, args.llm, recorder),
                                ensure_ascii=False) + "\n")
            fh.flush()


if __name__ == "__main__":
    main()
