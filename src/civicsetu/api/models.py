"""Request and response models of the REST API: the JSON shapes ``docs/API.md`` documents.

Every route declares its response model here, so the OpenAPI schema at ``/openapi.json``
is complete and schemathesis can check responses against it.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DocTypeName = Literal["act", "rules", "regulations", "contract", "other"]
EdgeTypeName = Literal["HAS_PART", "REFERENCES", "DERIVED_FROM", "DEFINES"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Problem(BaseModel):
    """RFC 9457 problem details; every error response has this body."""

    type: str = Field(description="A URI naming the kind of problem.")
    title: str
    status: int
    detail: str = Field(description="What went wrong and what to do next.")
    instance: str = Field(description="The request path.")
    request_id: str = Field(description="Quote this when reporting a problem.")


class QueryRequest(_Model):
    question: str = Field(min_length=1, max_length=2000, description="The question.")
    documents: list[str] | None = Field(
        default=None, max_length=50, description="Only these document ids.")
    jurisdiction: str | None = Field(default=None, max_length=20)
    doc_type: DocTypeName | None = None
    as_of: date | None = Field(default=None, description="The law as in force on this date.")
    mode: Literal["answer", "research"] = Field(
        default="answer", description="research runs multi-step research mode.")
    llm: str | None = Field(
        default=None, max_length=200,
        description="A configured LLM provider spec; omitted: the server's default "
                    "(extractive when none is configured).")
    k: int | None = Field(default=None, ge=1, le=50, description="Provisions retrieved.")


class CitationOut(BaseModel):
    id: str = Field(description="Provision id DOC#PATH.")
    title: str = Field(description="The document's title.")
    label: str = Field(description="e.g. Section 18(1)(b) of the ... Act, 2016.")
    quote: str = Field(description="Verbatim text, verified against the source.")
    start: int = Field(description="Character offset of the quote in the document text.")
    end: int
    source: str = Field(default="", description="Provenance of the quoted document.")
    origin: str = Field(default="", description="bundled | registry | user | empty.")


class RetrievedOut(BaseModel):
    id: str
    score: float
    pinned: bool


class ResearchStepOut(BaseModel):
    question: str
    provisions: list[str]


class QueryResponse(BaseModel):
    query: str
    answer: str
    abstained: bool
    citations: list[CitationOut]
    retrieved: list[RetrievedOut]
    notices: list[str] = Field(description="Warnings, amendment notices, the disclaimer.")
    disclaimer: str
    query_type: str
    confidence: str = Field(description="high | medium | low, or empty when refused.")
    score: float | None = Field(
        default=None, description="Calibrated probability (0-1) that the evidence answers "
        "the question; answers below Settings.answer_score_floor abstain.")
    generator: str = Field(description="extractive, or the LLM that wrote the answer.")
    llm_calls: int
    tokens: int
    usage_by_call: dict[str, dict[str, float]]
    cost_usd: float
    timings_ms: dict[str, float]
    cached: bool = Field(description="Served from the answer cache.")
    research_steps: list[ResearchStepOut] | None = Field(
        default=None, description="The steps run in research mode; null otherwise.")
    suggestions: list[SuggestionOut] = Field(
        default_factory=list, description="Follow-up questions grounded in the corpus "
        "(deepen, broaden, risk), as `civicsetu chat` offers them.")


class SessionMessageRequest(_Model):
    message: str = Field(min_length=1, max_length=2000,
                         description="A follow-up question, or 1-3 to pick a suggestion.")
    llm: str | None = Field(default=None, max_length=200)


class SuggestionOut(BaseModel):
    kind: str = Field(description="deepen | broaden | risk")
    question: str


class SessionMessageResponse(BaseModel):
    session: str
    searched: str = Field(description="The standalone question that was searched; empty "
                          "when nothing was (a number that picks no suggestion).")
    answer: QueryResponse
    suggestions: list[SuggestionOut]


class SearchHitOut(BaseModel):
    id: str
    doc_id: str
    path: str
    label: str
    title: str = Field(description="The provision's heading.")
    text: str = Field(description="The matching chunk.")
    start: int
    end: int
    score: float
    pinned: bool


class SearchResponse(BaseModel):
    query: str
    hits: list[SearchHitOut]
    best_cosine: float | None
    timings_ms: dict[str, float]


class FootnoteOut(BaseModel):
    marker: str
    text: str


class LinkOut(BaseModel):
    id: str
    label: str


class EdgeOut(BaseModel):
    id: str = Field(description="The provision or document at the other end.")
    type: str
    text: str = Field(description="The words of the reference, when there are some.")


class VersionOut(BaseModel):
    valid_from: date | None
    valid_to: date | None


class ProvisionResponse(BaseModel):
    id: str
    doc_id: str
    path: str
    label: str = Field(description="e.g. Section 18(1)(b)")
    kind: str
    title: str
    text: str
    start: int
    end: int
    page: int | None
    page_end: int | None
    valid_from: date | None
    valid_to: date | None
    footnotes: list[FootnoteOut]
    document_title: str
    breadcrumb: list[LinkOut] = Field(
        description="From the document down to this provision; the first id is the document.")
    parent: LinkOut | None
    children: list[LinkOut]
    previous: LinkOut | None
    next: LinkOut | None
    versions: list[VersionOut]
    references_out: list[EdgeOut]
    references_in: list[EdgeOut]
    unresolved: list[EdgeOut] = Field(description="References to documents not ingested.")


class DocumentOut(BaseModel):
    id: str
    title: str
    short_title: str
    source: str
    jurisdiction: str
    doc_type: str
    content_hash: str
    provisions: int
    chunks: int


class DocumentsResponse(BaseModel):
    documents: list[DocumentOut]
    fingerprint: str = Field(description="Changes whenever the corpus changes.")


class JobResult(BaseModel):
    doc_id: str
    status: str = Field(description="added | updated | unchanged | failed")
    provisions: int
    chunks: int
    message: str


class JobOut(BaseModel):
    id: str
    kind: Literal["ingest"]
    status: Literal["queued", "running", "done", "failed"]
    stage: str = Field(description="What the job is doing now (parse, embed, ...).")
    done: int
    total: int
    filename: str
    created_at: str
    finished_at: str | None
    result: JobResult | None
    error: str | None


class GraphNodeOut(BaseModel):
    id: str
    doc_id: str
    path: str = Field(description="Empty for a whole-document node.")
    label: str
    title: str
    kind: Literal["provision", "document"]
    distance: int | None = Field(default=None,
                                 description="Hops from the centre (provision graph only).")


class GraphEdgeOut(BaseModel):
    source: str
    target: str
    type: str


class TopologyResponse(BaseModel):
    nodes: list[GraphNodeOut]
    edges: list[GraphEdgeOut]
    truncated: bool = Field(description="More nodes matched than max_nodes.")


class NeighbourhoodResponse(BaseModel):
    center: str
    depth: int
    nodes: list[GraphNodeOut]
    edges: list[GraphEdgeOut]
    truncated: bool


class CorpusHealth(BaseModel):
    documents: int
    provisions: int
    chunks: int
    fingerprint: str


class HealthResponse(BaseModel):
    status: Literal["ok", "degraded"]
    version: str
    store: bool = Field(description="The index can be read.")
    embedder: str
    embedder_loaded: bool
    llm: str | None
    corpus: CorpusHealth | None
    degraded: list[str] = Field(description="Why the status is degraded, one line each.")
