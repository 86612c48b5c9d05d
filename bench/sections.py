"""Each benchmark owns one section of docs/BENCHMARKS.md, between HTML comment markers, so
running one benchmark never erases another's numbers."""

from __future__ import annotations

import re
from pathlib import Path

HEADER = ("# Benchmarks\n\nEach section is written by the script it names, on the machine it "
          "names; these machines are noisy, so compare ratios within one run.\n")


def write_section(path: Path, name: str, body: str) -> None:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = f"{start}\n{body.rstrip()}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else HEADER
    if start in text and end in text:
        text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, text,
                      flags=re.DOTALL)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
