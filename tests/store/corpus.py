"""Small generated Acts that cite each other, and a cheap embedder for storage tests.

``HashEmbedder`` is a boundary fake: a deterministic vector per text, registered through
the real embedder registry (``register_embedder``) under ``test-hash``. It is used only by
the crash, concurrency and doctor tests, which are about what the store commits, not about
retrieval quality; loading the ONNX model in each of 50+ killed processes would only make
them slow.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from civicsetu.config import Settings
from civicsetu.embed import register_embedder
from civicsetu.ingest.pipeline import SourceSpec

EMBEDDER = "test-hash"


class HashEmbedder:
    model_id = "test-hash-v1"
    dim = 32

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest(), dtype=np.uint8)
                for t in texts]
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim) - 127.5
        return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return self.embed_documents([text])[0]


register_embedder(EMBEDDER, HashEmbedder)


def specs(paths: list[Path]) -> list[SourceSpec]:
    """Sources with their file stem as id, so a new version in another folder updates the
    same document (user ids otherwise carry a hash of the path)."""
    return [SourceSpec(p, doc_id=p.stem) for p in paths]


def settings(home: Path) -> Settings:
    return Settings(home=home, embedder=EMBEDDER)


NAMES = ("Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India",
         "Juliett")


def act_name(n: int) -> str:
    return f"{NAMES[(n - 1) % len(NAMES)]} Records Act, {2090 + (n - 1) // len(NAMES)}"


def act_text(n: int, sections: int = 14, others: int = 3) -> str:
    """Act N: every section cites a section of itself and one of another Act."""
    lines = [f"# The {act_name(n)}.", ""]
    for s in range(1, sections + 1):
        other = (n + s) % others + 1
        lines += [f"## Section {s} - Duty number {s} of Act {n}.", "",
                  f"(1) Every promoter shall keep record {s} of Act {n} as required by "
                  f"section {s % sections + 1}.", "",
                  f"(2) The authority may inspect record {s} under section {s} of the "
                  f"{act_name(other)} and levy a penalty of {s * 1000} rupees.", ""]
    return "\n".join(lines)


def write_corpus(folder: Path, count: int = 3) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(1, count + 1):
        path = folder / f"test-act-{n}.md"
        path.write_text(act_text(n, others=count), encoding="utf-8")
        paths.append(path)
    return paths
