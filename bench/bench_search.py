"""Search latency at scale: BM25, dense and hybrid, with and without filters, exact vs ANN.

Filled in below; ``machine`` names the machine and its load next to every number.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A main checkout sits next to ``shared``; a worktree one level deeper.
DEFAULT_QUERIES = next((p / "shared" / "eval" / "legal_qa_dev.jsonl" for p in ROOT.parents
                        if (p / "shared" / "eval" / "legal_qa_dev.jsonl").exists()),
                       ROOT.parent / "shared" / "eval" / "legal_qa_dev.jsonl")


def machine() -> str:
    """Cores, Python and the 1-minute load average (other people share these cores)."""
    load = os.getloadavg()[0]
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python "
            f"{platform.python_version()}, load average {load:.1f} at start")
