"""The agent's state contract: what each node of the graph reads and writes.

    guard     reads query                   writes refusal, pii, off_topic
    classify  reads query                   writes query_type, rewritten
    retrieve  reads rewritten, query_type   writes result, attempts   (corrective loop <= 2)
    generate  reads result, problems        writes sources, shown, draft, generations
    validate  reads draft, sources          writes problems           (retry generate <= 2)
    generate  also writes confidence (the calibrated answer score of the kept retrieval)
    finalize  reads everything              writes answer

Records that are not JSON (search results, citations) live only within one run; a
conversation checkpoint keeps the question, the answer text and its cited ids.
"""

from __future__ import annotations

from typing import Any, TypedDict

from civicsetu.search.hybrid import SearchFilters
from civicsetu.types import Answer, Citation


class AgentState(TypedDict, total=False):
    query: str
    filters: SearchFilters | None  # documents, jurisdiction, type, as-of date
    refusal: str
    off_topic: str  # no legal word: the refusal to show if the evidence is weak too
    pii: list[str]
    query_type: str
    rewritten: str
    result: Any  # SearchResult of the latest retrieval
    attempts: int  # retrievals run (the first plus corrective retries)
    sources: list[Citation]  # the numbered context the generator saw
    shown: list[Citation]  # the extractive answer's quotes (sources before screening)
    draft: str
    generations: int
    problems: list[str]
    llm_error: str  # the generator could not answer (unreachable, HTTP error): a notice
    llm_calls: int
    tokens: int
    usage: dict[str, dict[str, float]]  # by call type: calls, tokens, estimated cost
    confidence: Any  # answer.confidence.Confidence of the kept retrieval, once computed
    answer: Answer
