"""One settings tree. Every field can be set by an env var ``CIVICSETU_<FIELD>``."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return Path.home() / ".civicsetu"


class ApiSettings(BaseSettings):
    """The HTTP service (``civicsetu serve``); env vars ``CIVICSETU_API_<FIELD>``."""

    model_config = SettingsConfigDict(env_prefix="CIVICSETU_API_", extra="ignore")

    open_mode: bool = Field(
        default=False,
        description="Serve without API keys. Honoured only when bound to 127.0.0.1/::1/"
                    "localhost; on any other address the server refuses to start.",
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description="Origins allowed to call the API from a browser (JSON list); the UI the "
                    "server itself serves needs none.",
    )
    rate_limit_per_minute: int = Field(
        default=120, ge=1, description="Requests per minute per API key (per client address "
                                       "in open mode); more get 429 with Retry-After.")
    rate_limit_burst: int = Field(
        default=30, ge=1, description="Requests a key may make at once before the per-minute "
                                      "rate applies.")
    max_body_kb: int = Field(default=64, ge=1,
                             description="Largest JSON request body (KiB); uploads excepted.")
    max_upload_mb: int = Field(default=20, ge=1, description="Largest uploaded file (MiB).")
    upload_types: list[str] = Field(
        default_factory=lambda: [".md", ".txt", ".html", ".htm", ".pdf", ".docx"],
        description="File name extensions accepted by POST /api/v1/documents.",
    )
    cache_ttl_seconds: int = Field(default=600, ge=0,
                                   description="How long an answer is cached; 0 disables.")
    cache_max_entries: int = Field(default=1024, ge=1, description="Answers kept in the cache.")
    topology_max_nodes: int = Field(default=3000, ge=10,
                                    description="Cap on nodes returned by the graph topology.")
    graph_max_depth: int = Field(default=3, ge=1,
                                 description="Deepest neighbourhood /graph/provision serves.")
    llm_choices: list[str] = Field(
        default_factory=list,
        description="LLM specs a request may pick with \"llm\" besides the default "
                    "(CIVICSETU_LLM) and none; anything else is refused, so clients cannot "
                    "make the server load files or call URLs.",
    )


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
    embed_batch_size: int = Field(default=32, ge=1, description="Passages per embedding call.")
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
        default=0.5, ge=0.0, le=1.0,
        description="Refuse a file of which a smaller share of the text would be indexed "
                    "(`ingest --allow-partial` indexes it anyway and says how much).",
    )

    # --- service (issue 10: REST API, MCP) -----------------------------------------------
    api: ApiSettings = Field(default_factory=ApiSettings,
                             description="The HTTP service; see ApiSettings.")

    @property
    def resolved_db_path(self) -> Path:
        return self.db_path if self.db_path is not None else self.home / "civicsetu.db"
