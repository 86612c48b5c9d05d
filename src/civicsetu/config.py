"""One settings tree. Every field can be set by an env var ``CIVICSETU_<FIELD>``."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from civicsetu.ingest.readers.limits import ReadLimits


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
    # Registry entries posted to /api/v1/documents (issue 10): what a JSON body may name.
    source_roots: list[Path] = Field(
        default_factory=list,
        description="Folders a registry entry posted to POST /api/v1/documents may name files "
                    "in (JSON list); the path must resolve, after symlinks, inside one of "
                    "them. Empty (the default) refuses every path.",
    )
    allow_url_sources: bool = Field(
        default=False,
        description="Let a registry entry posted to POST /api/v1/documents name an http(s) "
                    "URL the server then downloads. Off by default: it makes the server "
                    "fetch addresses a client chooses.",
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
        description="Embedder backend by registry name: minilm-onnx (default) or wordllama "
                    "(static, much faster, lower recall; pip install 'civicsetu[wordllama]'; "
                    "docs/SCALE.md). See civicsetu.embed.base.",
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
        description="Passages per model call, passed to the embedder (get_embedder); "
                    "ingestion hands it 16 batches at a time, sorted by length (8 measured "
                    "fastest for MiniLM, docs/BENCHMARKS.md embed-throughput).")
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
                    "the dev set as the highest value that still answers every answerable "
                    "question (tools/abstention_curve.py, docs/EVALUATION.md). See "
                    "civicsetu.answer.evidence.",
    )

    # --- answer quality (issue 12) ---
    act_routing: bool = Field(
        default=True,
        description="Prefer the Act a question implies by its title initials or subject words "
                    "(learned from the corpus, search.routing); when none is implied, all are "
                    "searched alike.",
    )
    decompose: bool = Field(
        default=True,
        description="Split multi-part and comparison questions into sub-questions that keep "
                    "the question's Act and actor, retrieve each, and merge so every part is "
                    "covered in the top results (search.decompose).",
    )
    complete_answers: bool = Field(
        default=True,
        description="Quote the sibling sub-sections that finish the best provision's rule "
                    "(a penalty's continuing form, a duty's exception, a period's extension), "
                    "and give each part of a several-part question the quote that states "
                    "what it asks (a period, an amount, an authority: answer.parts).",
    )
    rerank: bool = Field(
        default=False,
        description="Re-order the fused top candidates with the learned linear ranker "
                    "(search.rerank; weights fitted on corpus-generated questions by "
                    "tools/train_ranker.py). Off by default: on the dev set it raised "
                    "recall@1 0.610 -> 0.623 but lowered key facts 0.702 -> 0.673 "
                    "(docs/EVALUATION.md).",
    )

    # --- trust (issue 9, i9a) ---------------------------------------------------------
    min_indexed_share: float = Field(
        default=0.25, ge=0.0, le=1.0,
        description="Refuse a file of which a smaller share of the text would be indexed "
                    "(`ingest --allow-partial` indexes it anyway and says how much).",
    )

    # --- hostile files (issue 9): limits per source file, see ingest/readers/limits.py ---
    max_unpacked_mb: int = Field(
        default=64, ge=1,
        description="A .docx (a ZIP) inflating to more than this is refused (MiB), checked "
                    "while inflating, before python-docx parses it.")
    max_zip_entries: int = Field(
        default=2000, ge=1, description="A .docx with more ZIP entries than this is refused.")
    max_zip_ratio: float = Field(
        default=200.0, ge=1.0,
        description="A .docx entry over 1 MiB inflating more than this many times its packed "
                    "size (a ZIP bomb) is refused.")
    max_html_depth: int = Field(
        default=256, ge=8, description="HTML nested deeper than this many elements is refused.")
    max_pdf_pages: int = Field(
        default=3000, ge=1,
        description="A PDF with more pages to read than this is refused (--max-pages reads "
                    "fewer).")
    max_read_seconds: float = Field(
        default=120.0, gt=0,
        description="Reading one source file may take this long (seconds); a file still "
                    "being read after it is refused and the batch goes on.")

    # --- store backend (issue 14, PostgreSQL) ---
    store: str = Field(
        default="",
        description="Where the index lives: empty for the SQLite file at db_path, "
                    "sqlite:PATH for another SQLite file, or postgresql://user:pass@host/db "
                    "for a shared PostgreSQL + pgvector server (extra [postgres]; "
                    "docs/POSTGRES.md).",
    )
    store_pool_size: int = Field(
        default=4, ge=1,
        description="Most connections one process keeps open to a PostgreSQL store.",
    )

    # --- service (issue 10: REST API, MCP) -----------------------------------------------
    api: ApiSettings = Field(default_factory=ApiSettings,
                             description="The HTTP service; see ApiSettings.")

    def read_limits(self) -> ReadLimits:
        """The hostile-file limits above, as the readers take them."""
        return ReadLimits(max_unpacked_bytes=self.max_unpacked_mb * 2**20,
                          max_zip_entries=self.max_zip_entries,
                          max_zip_ratio=self.max_zip_ratio,
                          max_html_depth=self.max_html_depth,
                          max_pdf_pages=self.max_pdf_pages,
                          max_read_seconds=self.max_read_seconds)

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
        default=256, ge=10,
        description="HNSW search expansion (ef): higher is more recall, more time. With "
                    "M 32 / efConstruction 256, 256 gave recall@10 0.988 unfiltered and "
                    "0.970 under a 24% filter on the 10^5-chunk replica index (docs/SCALE.md).",
    )

    # --- scale: search latency (issue 14, store.lexical) --------------------------------
    bm25_index: Literal["memory", "fts"] = Field(
        default="memory",
        description="Where the SQLite store ranks BM25: memory scores FTS5's bm25() from "
                    "in-memory postings (same ranking, a fraction of the time past 10^4 "
                    "chunks; built once per process); fts asks FTS5 for every query.",
    )

    # --- scale: ingest throughput (issue 14, embed/) -------------------------------------
    embed_threads: int | None = Field(
        default=None, ge=1,
        description="onnxruntime intra-op threads per embedder run; unset: query embedding "
                    "uses the cores present and each passage worker one thread "
                    "(embed_workers). Set, it applies to both.",
    )
    embed_workers: int | None = Field(
        default=None, ge=1, le=64,
        description="Passage batches the embedder runs at the same time while ingesting, "
                    "each on one onnxruntime thread unless embed_threads says otherwise; "
                    "unset is one per core (1.27x one run on all cores here, same vectors: "
                    "docs/BENCHMARKS.md embed-throughput). Queries keep embed_threads.",
    )
    embed_max_tokens: int | None = Field(
        default=None, ge=8, le=512,
        description="Token window of the embedder; unset is the model's own (256 for "
                    "MiniLM). Another window is another vector space (its own model id): "
                    "re-ingest after changing it. 128 measured in docs/BENCHMARKS.md embed-models.",
    )

    # --- calibrated abstention (issue 12, answer/confidence.py) ---------------------------
    calibrated_abstention: bool = Field(
        default=False,
        description="Abstain on the calibrated answer score (answer/confidence.py: dense "
                    "cosine, BM25/dense agreement, key-term coverage, heading match, Act "
                    "routing; a logistic model fitted on corpus-generated questions) instead "
                    "of the best cosine alone (abstain_below). Off by default: on the dev set "
                    "it abstained as often (0.80) while answering fewer (0.987 against 1.0; "
                    "docs/EVALUATION.md). The score is reported in every answer either way.",
    )
    answer_score_floor: float = Field(
        default=0.057, ge=0.0, le=1.0,
        description="With calibrated_abstention, abstain when the answer score is below "
                    "this; chosen on the dev set as the highest floor answering >= 0.97 of "
                    "the answerable (the midpoint between the two dev scores at that step; "
                    "tools/abstention_curve.py, docs/EVALUATION.md).",
    )

    # --- answer completeness and the quantity check (issue 12, q12d) -----------------------
    quantity_check: bool = Field(
        default=True,
        description="Abstain when the question asks for a number of days, weeks, months or "
                    "years, or a percentage (\"how many months\", \"what percentage\"), "
                    "and none of the chosen quotes states one (answer/evidence.py "
                    "missing_quantity; the no-LLM answer, and the LLM path: it is then not "
                    "asked).",
    )

    # --- the LLM path's retry (issue 12, l12) ---------------------------------------------
    llm_retries: int = Field(
        default=0, ge=0, le=2,
        description="Drafts the LLM may write again after one fails validation. 0 by "
                    "default: on the dev set with Qwen2.5-Coder-1.5B the retry rarely "
                    "passed (1 of 9; the model often repeated its draft word for word) and "
                    "cost about a quarter more CPU; a failing draft is cut to its verified "
                    "sentences instead (docs/EVALUATION.md).",
    )

    # --- retrieval ranking (issue 12, r12) ---------------------------------------------------
    quoted_definitions: bool = Field(
        default=True,
        description="Place first the definition of a term the question puts in quotes "
                    "(\"who is the 'promoter'?\") when the question's Act defines it "
                    "(search.defined).",
    )
    skip_spent_sections: bool = Field(
        default=True,
        description="Leave out of the ranking the sections whose heading says only that they "
                    "were repealed or omitted, unless the question names them "
                    "(search.spent).",
    )
    asked_definitions: bool = Field(
        default=True,
        description="Also place first the definition of a term the question asks the meaning "
                    "of without quotes (\"who counts as a consumer?\", \"does immovable "
                    "property include timber?\") when the question's Act defines it "
                    "(search.defined.asked_definitions).",
    )
    defined_vocabulary: bool = Field(
        default=True,
        description="When a question names and implies no Act, prefer the one that defines "
                    "at least two of its terms, one of several words (\"completion "
                    "certificate\"), and more of them than any other Act "
                    "(search.defined.defining_document).",
    )
    pinned_references: bool = Field(
        default=True,
        description="Place after a provision the question names the (at most two) other "
                    "sections that provision itself refers to (search.hybrid).",
    )
    territorial_extent: bool = Field(
        default=True,
        description="Move a provision of an Act whose title names a State or city the "
                    "question does not (\"The Delhi Rent Control Act\") below the first "
                    "ten sections' others (search.places).",
    )
    party_headings: bool = Field(
        default=True,
        description="Move a provision whose heading names only other parties (\"... by "
                    "real estate agent\") below the first ten sections' others when the "
                    "question names a party (builder, allottee; search.parties).",
    )

    # --- multi-hop questions (issue 12, g14) -------------------------------------------
    graph_relevance: bool = Field(
        default=True,
        description="Rank the citation-graph neighbours of the best provisions (and the "
                    "sections a named provision cites or is cited by) by their likeness "
                    "to the question instead of by edge order, so the neighbour that "
                    "answers rises (search.neighbours).",
    )
    graph_every_question: bool = Field(
        default=True,
        description="With graph_relevance, expand every question through the citation "
                    "graph, not only those whose words ask for a reference, penalty or "
                    "period (\"who decides\", \"where do I appeal\" match none).",
    )
    consequence_first: bool = Field(
        default=True,
        description="When a question names a provision and asks for a consequence its "
                    "heading is not about (a penalty, an appeal, who decides, how it is "
                    "enforced), a section linked to it by a citation and headed as that "
                    "consequence ranks first (search.consequence).",
    )
    routed_other_weight: float = Field(
        default=0.5, ge=0.0, le=1.0,
        description="In a several-part question with an Act named or implied, the share "
                    "of its vote a provision of another Act keeps when the whole question "
                    "found it (the second Act of a cross-Act question; 0 silences it).",
    )

    # --- comparison questions (issue 12, c13) -------------------------------------------
    compare_sides: bool = Field(
        default=True,
        description="Search each compared side of a comparison question in the Act it "
                    "names or implies, once per aspect the question asks (\"the time "
                    "limit and pre-deposit\"), a \"both\" part once per side's Act, and "
                    "\"the next appeal after X\" as the appeal from X (search.compare).",
    )

    @property
    def resolved_db_path(self) -> Path:
        return self.db_path if self.db_path is not None else self.home / "civicsetu.db"
