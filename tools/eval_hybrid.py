"""The dev evaluation of the hybrid system alone (``civicsetu eval`` also runs BM25-only).

    python tools/eval_hybrid.py ../shared/eval/legal_qa_dev.jsonl --out result.json

Same code as ``civicsetu eval`` (``eval/runner.evaluate_system``) on the index in
``$CIVICSETU_HOME``; for big indexes where the second system doubles the time. Prints
the summary as JSON and writes summary and rows to ``--out``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.eval.runner import evaluate_system, load_dataset


def main() -> None:
    """Run and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = load_dataset(args.dataset)
    with Engine() as engine:
        engine.ask(rows[0]["query"])  # warm up: the first question's latency is honest
        result = evaluate_system(engine, rows, "hybrid")
    args.out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps(result["summary"], indent=1))


if __name__ == "__main__":
    main()
