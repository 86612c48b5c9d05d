"""The answering pipeline's door to contract analysis: a question that names a contract
in the index (or asks across "the agreements") is answered by ``ContractAssistant``;
anything else, and every out-of-scope request, stays with the statute agent."""

from __future__ import annotations

import re
import time

from civicsetu.guard.scope import check_scope
from civicsetu.review.assistant import ContractAssistant
from civicsetu.review.scope import contract_refs, named_contracts
from civicsetu.search.hybrid import SearchFilters
from civicsetu.store.base import Store
from civicsetu.types import Answer, DocType

ACROSS = re.compile(r"\b(?:any|every|each)\s+(?:of\s+the\s+)?(?:agreement|contract)s?\b|"
                    r"\b(?:all|the|these|our|both)\s+(?:agreements|contracts)\b|"
                    r"\bacross\s+(?:the\s+)?(?:agreements|contracts)\b", re.IGNORECASE)
NOT_FOUND = "The contracts in scope do not address this"


def contract_answer(store: Store, query: str,
                    filters: SearchFilters | None = None) -> Answer | None:
    """An answer from the contracts when the question is about them, else ``None``."""
    if filters is not None and (filters.as_of is not None or filters.jurisdiction or (
            filters.doc_type and filters.doc_type != DocType.CONTRACT.value)):
        return None
    if not check_scope(query).in_scope and check_scope(query).reason != "off-topic":
        return None  # drafting and advice: the agent's guard gives the fixed refusal
    contracts = [d for d in store.documents() if d.doc_type == DocType.CONTRACT.value]
    if not contracts:
        return None
    t0 = time.perf_counter()
    assistant = ContractAssistant(store)
    docs = assistant.contracts()
    asked_ids = set(filters.doc_ids or []) if filters else set()
    if asked_ids and not asked_ids <= {d.id for d in docs}:
        return None
    if not (asked_ids or named_contracts(query, contract_refs(docs)) or ACROSS.search(query)):
        return None
    reply = assistant.ask(query)
    answer = Answer(query=query, text=reply.text, abstained=reply.text.startswith(NOT_FOUND),
                    citations=reply.citations, retrieved=[],
                    query_type=f"contract_{reply.route.value}", generator="contract-review")
    answer.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 2)
    return answer
