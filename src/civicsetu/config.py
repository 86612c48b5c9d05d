"""One settings tree. Every field can be set by an env var ``CIVICSETU_<FIELD>``."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return Path.home() / ".civicsetu"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CIVICSETU_", extra="ignore")

    home: Path = Field(
        default_factory=_default_home,
        description="Folder for the index and caches (env CIVICSETU_HOME).",
    )
    db_path: Path | None = Field(
        default=None, description="SQLite index file; defaults to <home>/civicsetu.db."
    )
    embedder: str = Field(
        default="minilm-onnx",
        description="Embedder backend by registry name (see civicsetu.embed.registry).",
    )
    llm: str | None = Field(
        default=None,
        description="LLM for answers, e.g. openai:gpt-4o-mini, ollama:qwen2.5:1.5b, "
                    "gguf:/path/model.gguf, several joined by ',' as a fallback chain; none "
                    "(the default) answers extractively. See civicsetu.llm.",
    )
    llm_classifies: bool = Field(
        default=False,
        description="Let the LLM classify and rewrite the question (one more call); the "
                    "rule-based classifier answers when its reply is unusable.",
    )
    llm_judge: bool = Field(
        default=False,
        description="After the citation, quote and number checks pass, ask the LLM whether "
                    "the answer follows from its sources (one more call); a NO is retried.",
    )
    embed_batch_size: int = Field(
        default=8, ge=1,
        description="Passages per model call; ingestion hands the embedder 16 batches at a "
                    "time, sorted by length (8 measured fastest, docs/BENCHMARKS.md).")
    chunk_max_chars: int = Field(
        default=1000,
        ge=200,
        description="Longest chunk; MiniLM reads ~256 tokens, so keep chunks near 180 words.",
    )
    chunk_min_chars: int = Field(
        default=120, ge=0, description="Fragments shorter than this merge into a neighbour."
    )
    max_source_mb: int = Field(
        default=200, ge=1, description="Source files larger than this are refused (MiB)."
    )
    rrf_k: int = Field(default=60, ge=1, description="Reciprocal-rank-fusion constant.")
    candidates: int = Field(
        default=60, ge=10, description="Hits taken from each of BM25 and dense before fusion."
    )
    graph_expansion: bool = Field(
        default=True,
        description="Add citation-graph neighbours of the best provisions to the candidates "
                    "for reference, penalty and time-limit questions (search.graph_expand).",
    )
    top_k: int = Field(default=10, ge=1, description="Ranked provisions returned by search.")
    max_query_chars: int = Field(
        default=2000, ge=20, description="Longer queries are refused with a clear error."
    )
    abstain_below: float = Field(
        default=0.37,
        description="Abstain when the best dense match (cosine) is below this; calibrated on "
                    "the dev set (docs/EVALUATION.md). See civicsetu.answer.evidence.",
    )

    # --- trust (issue 9, i9a) ---------------------------------------------------------
    min_indexed_share: float = Field(
        default=0.25, ge=0.0, le=1.0,
        description="Refuse a file of which a smaller share of the text would be indexed "
                    "(`ingest --allow-partial` indexes it anyway and says how much).",
    )

    # --- scale: approximate dense search (issue 14, store.dense / store.ann) -----------
    ann: Literal["auto", "on", "off"] = Field(
        default="auto",
        description="HNSW approximate dense search: auto uses it past ann_min_chunks when "
                    "faiss-cpu is installed (pip install 'civicsetu[ann]'); on requires it; "
                    "off always scans exactly.",
    )
    ann_min_chunks: int = Field(
        default=20_000, ge=0,
        description="Below this many chunks dense search is exact (a scan is fast enough).",
    )
    ann_exact_below: int = Field(
        default=5_000, ge=0,
        description="When filters leave at most this many chunks, scan them exactly.",
    )
    ann_ef: int = Field(
        default=512, ge=10,
        description="HNSW search expansion (ef): higher is more recall, more time. 512 "
                    "gave recall@10 0.968 at ~1 ms CPU on the 10^5-chunk replica index "
                    "(128: 0.82, 256: 0.945); docs/SCALE.md.",
    )

    @property
    def resolved_db_path(self) -> Path:
        return self.db_path if self.db_path is not None else self.home / "civicsetu.db"

