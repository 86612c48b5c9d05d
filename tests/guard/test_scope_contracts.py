"""Contract-flavoured out-of-scope requests get the fixed refusals; contract questions pass."""

from __future__ import annotations

import pytest

from civicsetu.answer.messages import OUT_OF_SCOPE_ADVICE, OUT_OF_SCOPE_DRAFTING
from civicsetu.guard.scope import check_scope


@pytest.mark.parametrize("query, message", [
    ("Draft a better NDA", OUT_OF_SCOPE_DRAFTING),
    ("please write me a new mutual NDA", OUT_OF_SCOPE_DRAFTING),
    ("What legal strategy should Acme take?", OUT_OF_SCOPE_ADVICE),
    ("what strategy should we use against the vendor?", OUT_OF_SCOPE_ADVICE),
])
def test_refused(query: str, message: str) -> None:
    check = check_scope(query)
    assert (check.in_scope, check.message) == (False, message)


@pytest.mark.parametrize("query", [
    "What is the termination notice period in the NDA agreement?",
    "Is there unlimited liability in any agreement?",
    "What must a notice under section 7 contain?",
])
def test_contract_questions_pass(query: str) -> None:
    assert check_scope(query).in_scope
