"""The rule-based classifier: each type on a plain example, and the dev-set bar."""

from __future__ import annotations

import json

import pytest

from civicsetu.agent.classify import QueryType, classify_rules
from tests.conftest import SHARED


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the penalty for not registering a project?", QueryType.PENALTY_LOOKUP),
        ("How long does the Authority have to decide an application?", QueryType.TEMPORAL),
        ("What counts as 'common areas' under RERA?", QueryType.DEFINITION),
        ("Section 18 says compensation is 'as provided under this Act'. Who fixes it?",
         QueryType.CROSS_REFERENCE),
        ("Compare the appeal period under RERA with the one under the Consumer Protection Act.",
         QueryType.CONFLICT_DETECTION),
        ("Possession is two years late and I want out of the project. What can I claim, who "
         "decides the compensation, and where do I appeal?", QueryType.MULTI_HOP),
        ("Review the termination clause of this agreement for risk.",
         QueryType.CONTRACT_ANALYSIS),
        ("Can a builder take bookings before registration?", QueryType.FACT_LOOKUP),
    ],
)
def test_each_type(query: str, expected: QueryType) -> None:
    assert classify_rules(query).query_type is expected


def test_dev_set_accuracy_is_at_least_080() -> None:
    path = SHARED / "eval" / "legal_qa_dev.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} not found (set CIVICSETU_SHARED to the shared data folder)")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if r["query_type"] != "unanswerable"]
    names = {"comparison": "conflict_detection"}
    right = sum(classify_rules(r["query"]).query_type.value ==
                names.get(r["query_type"], r["query_type"]) for r in rows)
    assert right / len(rows) >= 0.8
