import pytest

from civicsetu.eval.metrics import (
    key_fact_recall,
    percentile,
    ranked_sections,
    recall_at_k,
    reciprocal_rank,
)

GOLD = ["act#s.18(1)", "act#s.71(1)"]
RETRIEVED = ["act#s.18(2)", "act#s.18(1)", "act#s.4", "act#s.72", "act#s.71(3)", "act#s.9"]


def test_section_level_ranking_dedupes_in_order() -> None:
    assert ranked_sections(RETRIEVED) == ["act#s.18", "act#s.4", "act#s.72", "act#s.71",
                                          "act#s.9"]


@pytest.mark.parametrize(("k", "expected"), [(1, 0.5), (3, 0.5), (4, 1.0)])
def test_recall_at_k(k: int, expected: float) -> None:
    assert recall_at_k(GOLD, RETRIEVED, k) == expected


def test_reciprocal_rank() -> None:
    assert reciprocal_rank(GOLD, RETRIEVED) == 1.0
    assert reciprocal_rank(["act#s.9"], RETRIEVED) == 1 / 5
    assert reciprocal_rank(["act#s.99"], RETRIEVED) == 0.0


def test_key_fact_recall_ignores_case_wrapping_and_amendment_marks() -> None:
    answer = "liable to a PENALTY which may\nextend up to ^1[ten per cent.]"
    assert key_fact_recall(["penalty which may extend", "ten per cent"], answer) == 1.0
    assert key_fact_recall(["five per cent"], answer) == 0.0


def test_percentile() -> None:
    assert percentile([5, 1, 3], 50) == 3
    assert percentile([], 95) == 0.0
