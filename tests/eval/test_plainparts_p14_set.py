"""p14's plain-words several-part set (tests/search/data/plainparts_p14.jsonl, written before
the part-answer changes it checks): every row is answerable and its key facts are real."""

from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.eval.metrics import normalise_for_match
from civicsetu.eval.runner import load_dataset

SET = Path(__file__).resolve().parents[1] / "search" / "data" / "plainparts_p14.jsonl"


def test_the_set_has_ten_answerable_several_part_rows() -> None:
    rows = load_dataset(SET)
    assert len({r["id"] for r in rows}) == len(rows) == 10
    assert all(r["gold_provisions"] and r["key_facts"] for r in rows)


@pytest.mark.slow
def test_every_key_fact_is_stated_in_its_gold_provision(bundled: Engine) -> None:
    unstated = [f"{r['id']}: {fact!r}" for r in load_dataset(SET) for fact in r["key_facts"]
                if not any(normalise_for_match(fact)
                           in normalise_for_match(bundled.store.provision(g).text)
                           for g in r["gold_provisions"])]
    assert not unstated, unstated
