"""Question types, by rules when there is no LLM (and as the LLM's fallback).

One output schema for both paths: ``Classification(query_type, rewritten, reason)``.
The types decide routing: lookups pin and search, references and penalties and time
limits walk the citation graph, conflicts retrieve per jurisdiction or Act, multi-hop
questions are split into steps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from civicsetu.llm.base import LLM, Completion


class QueryType(StrEnum):
    FACT_LOOKUP = "fact_lookup"
    DEFINITION = "definition"
    CROSS_REFERENCE = "cross_reference"
    PENALTY_LOOKUP = "penalty_lookup"
    TEMPORAL = "temporal"
    CONFLICT_DETECTION = "conflict_detection"
    MULTI_HOP = "multi_hop"
    CONTRACT_ANALYSIS = "contract_analysis"
    OUT_OF_SCOPE = "out_of_scope"


@dataclass(frozen=True, slots=True)
class Classification:
    query_type: QueryType
    rewritten: str
    reason: str


_I = re.IGNORECASE
_RULES: list[tuple[QueryType, re.Pattern[str], str]] = [
    (QueryType.CONTRACT_ANALYSIS, re.compile(
        r"\b(?:this|my|the attached|our)\s+(?:agreement|contract|nda|lease|deed)\b.*\b(?:clause|"
        r"risk|review|terms?)\b|\breview\b.*\b(?:contract|agreement|nda)\b", _I),
     "asks about a specific contract's clauses"),
    (QueryType.CONFLICT_DETECTION, re.compile(
        r"\bcompar\w*|\bdiffer\w*|\bversus\b|\bvs\.?\s|\bline\s+up\s+with\b|\bconflict\w*|"
        r"\binconsisten\w*|\bor\s+to\s+the\b|\bboth\s+laws\b|\bexclude\s+the\s+other\b", _I),
     "compares two laws, forums or provisions"),
    (QueryType.PENALTY_LOOKUP, re.compile(
        r"\bpenal\w*|\bfined?\b|\bfines\b|\bpunish\w*|\bimprison\w*|\bjail\b|\bcompound\w*|"
        r"\bprosecut\w*", _I),
     "asks what sanction applies"),
    (QueryType.CROSS_REFERENCE, re.compile(
        r"\b(?:section|sec\.?|s\.)\s*\d+[A-Z]?(?:\(\w+\))*\s+(?:says|lets|tells|requires|points|"
        r"refers|gives|mentions)\b|\bpoints?\s+to\b|\bas\s+provided\s+under\b|\breferred\s+to\b|"
        r"\bwhich\s+(?:account|section|provision)\b.*\b(?:section|under)\b|\bunder\s+section\s+"
        r"\d+.*\?", _I),
     "follows a reference from one provision to another"),
    (QueryType.TEMPORAL, re.compile(
        r"\bhow\s+long\b|\bhow\s+soon\b|\bwithin\s+what\s+(?:time|period)\b|\bhow\s+(?:many|much)\s+(?:days|months|years|time|"
        r"notice)\b|\bwithin\s+how\b|\bdeadline\b|\btime\s+limit\b|\blimitation\s+period\b|"
        r"\bcome\s+into\s+force\b|\bcame\s+into\s+force\b|\bstill\s+on\s+the\s+hook\b|"
        r"\bafter\s+(?:getting|the)\b.*\bhow\b|\bin\s+time\b|\bwhen\s+\w+\s+came\b", _I),
     "asks about a period, deadline or date"),
    (QueryType.DEFINITION, re.compile(
        r"\bwhat\s+counts\s+as\b|\bdefin\w*|\bmeaning\s+of\b|\bwhat\s+is\s+meant\b|"
        r"[‘'\"“][\w -]{2,40}[’'\"”]\s*(?:under|mean|include|\?)|\bis\s+\w+(?:\s+\w+)?\s+a\s+"
        r"[‘'\"“]\w+|\bwho\s+is\s+(?:the\s+)?[‘'\"“]|\bcalendar\s+days\b|\bcarpet\s+area\b", _I),
     "asks what a term means"),
]
_MULTI_HOP = re.compile(
    r"\?.+\?|,\s+and\s+(?:if|where|then)\b|\band\s+if\s+(?:i|we|the|it)\b|\bwho\s+decides\b|"
    r"\bwhat\s+procedure\b|\bhow\s+is\s+the\b.*\benforced\b|\band\s+what\s+(?:if|happens)\b|"
    r"\bhow\s+do\s+i\s+challenge\b|\bwho\s+pays\b.*\band\b", _I)
_ORDER = (QueryType.CONTRACT_ANALYSIS, QueryType.CONFLICT_DETECTION, QueryType.CROSS_REFERENCE,
          QueryType.TEMPORAL, QueryType.MULTI_HOP, QueryType.PENALTY_LOOKUP,
          QueryType.DEFINITION)
MULTI_HOP_MIN_CHARS = 90


def classify_rules(query: str) -> Classification:
    """The question's type by ordered rules; ``fact_lookup`` when none fires.

    Time questions are judged on their first question, so "how long ..., and can a late
    complaint be admitted?" stays temporal; a long question with linked parts ("..., and
    if I lose there, where ...") is multi-hop before it is a penalty question.
    """
    text = " ".join(query.split())
    sentences = re.split(r"(?<=[?.])\s", text)
    first = next((x for x in sentences if x.endswith("?")), text)
    rules = {query_type: (pattern, reason) for query_type, pattern, reason in _RULES}
    for query_type in _ORDER:
        if query_type is QueryType.MULTI_HOP:
            if len(text) > MULTI_HOP_MIN_CHARS and _MULTI_HOP.search(text):
                return Classification(query_type, text, "asks two or more linked questions")
            continue
        pattern, reason = rules[query_type]
        scope = first if query_type is QueryType.TEMPORAL else text
        if pattern.search(scope):
            return Classification(query_type, text, reason)
    return Classification(QueryType.FACT_LOOKUP, text, "a direct question about the law")


def classify_with_llm(query: str, llm: LLM) -> tuple[Classification, Completion | None]:
    """The LLM's classification in the same schema; the rules answer when the reply is not
    valid JSON with a known type. Returns the classification and the LLM's completion."""
    import json

    from civicsetu.agent.prompts import CLASSIFY_SYSTEM
    from civicsetu.llm.base import LLMError, Message

    try:
        completion = llm.complete([Message("system", CLASSIFY_SYSTEM),
                                   Message("user", query)], max_tokens=120)
    except LLMError:
        return classify_rules(query), None
    match = re.search(r"\{.*\}", completion.text, re.DOTALL)
    try:
        data = json.loads(match.group(0)) if match else {}
        query_type = QueryType(str(data.get("query_type")))
    except (ValueError, TypeError):
        return classify_rules(query), completion
    rewritten = str(data.get("rewritten") or "").strip()
    if not rewritten or len(rewritten) > 2 * len(query) + 40:
        rewritten = " ".join(query.split())
    return Classification(query_type, rewritten, "classified by the LLM"), completion
