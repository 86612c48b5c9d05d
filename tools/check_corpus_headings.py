"""Check structure detection on a Markdown corpus: every ``## Section N - Title`` heading
must become a provision ``s.N``; also time parsing, chunking and enrichment.

    python tools/check_corpus_headings.py ../shared/corpus/india-central-acts [--json OUT]

The expected ids are read from the headings with a plain regular expression, independent
of CivicSetu's parser. Exit status 1 when fewer than 99% of headings come through.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from civicsetu.config import Settings
from civicsetu.errors import CivicSetuError
from civicsetu.ingest.loader import load_document
from civicsetu.ingest.pipeline import parse_document

HEADING = re.compile(r"^## Section (\S+?) - ", re.MULTILINE)
THRESHOLD = 0.99


def check(folder: Path) -> dict[str, object]:
    settings = Settings()
    files = sorted(folder.glob("*.md"))
    expected_total = found_total = provisions = chunks = references = 0
    total_bytes = 0
    misses: dict[str, list[str]] = {}
    failures: dict[str, str] = {}
    fallback = 0
    t0 = time.perf_counter()
    for path in files:
        total_bytes += path.stat().st_size
        text = path.read_text(encoding="utf-8")
        expected = {f"s.{n}" for n in HEADING.findall(text)}
        try:
            parsed = parse_document(load_document(path), settings)
        except CivicSetuError as exc:
            failures[path.name] = str(exc)
            expected_total += len(expected)
            continue
        got = {p.path for p in parsed.provisions if p.parent_path is None}
        if any(p.path.startswith("p.") for p in parsed.provisions):
            fallback += 1
        expected_total += len(expected)
        found_total += len(expected & got)
        if expected - got:
            misses[path.name] = sorted(expected - got)
        provisions += len(parsed.provisions)
        chunks += len(parsed.chunks)
        references += len(parsed.references)
    seconds = time.perf_counter() - t0
    ratio = found_total / expected_total if expected_total else 1.0
    return {
        "files": len(files), "megabytes": round(total_bytes / 1e6, 2),
        "headings": expected_total, "found": found_total, "ratio": round(ratio, 5),
        "files_with_misses": len(misses), "failed_files": failures,
        "paragraph_fallback_files": fallback,
        "provisions": provisions, "chunks": chunks, "references": references,
        "parse_seconds": round(seconds, 1),
        "provisions_per_s": round(provisions / seconds, 1),
        "mb_per_s": round(total_bytes / 1e6 / seconds, 3),
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", type=Path, help="write the full result here")
    args = parser.parse_args()
    result = check(args.folder)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    summary = {k: v for k, v in result.items() if k != "misses"}
    print(json.dumps(summary, indent=1))
    worst = sorted(result["misses"].items(), key=lambda kv: -len(kv[1]))[:10]  # type: ignore[attr-defined]
    for name, missing in worst:
        print(f"{name}: {len(missing)} missing, e.g. {missing[:5]}")
    sys.exit(0 if float(result["ratio"]) >= THRESHOLD else 1)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
