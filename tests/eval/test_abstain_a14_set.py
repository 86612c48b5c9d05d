"""a14's abstention check set (tests/search/data/abstain_a14.jsonl, written before the
abstention change it checks): the gold is real, and unanswerable rows name no gold."""

from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.eval.metrics import normalise_for_match
from civicsetu.eval.runner import load_dataset

SET = Path(__file__).resolve().parents[1] / "search" / "data" / "abstain_a14.jsonl"


def test_the_set_has_ten_answerable_and_twelve_unanswerable_rows() -> None:
    rows = load_dataset(SET)
    assert len({r["id"] for r in rows}) == len(rows) == 22
    answerable = [r for r in rows if r["gold_provisions"]]
    assert len(answerable) == 10 and all(r["key_facts"] for r in answerable)
    assert all(not r["key_facts"] for r in rows if not r["gold_provisions"])


@pytest.mark.slow
def test_every_key_fact_is_stated_in_its_gold_provision(bundled: Engine) -> None:
    unstated = [f"{r['id']}: {fact!r}" for r in load_dataset(SET) for fact in r["key_facts"]
                if not any(normalise_for_match(fact)
                           in normalise_for_match(bundled.store.provision(g).text)
                           for g in r["gold_provisions"])]
    assert not unstated, unstated
