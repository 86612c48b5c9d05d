"""The engineers' own check sets in tests/search/data (each written before the change it
checks): the sizes they were written with, and every key fact stated in its gold."""

from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.eval.metrics import normalise_for_match
from civicsetu.eval.runner import load_dataset

DATA = Path(__file__).resolve().parents[1] / "search" / "data"
# file -> (rows, answerable rows)
SETS = {"abstain_a14.jsonl": (22, 10), "plainparts_p14.jsonl": (10, 10)}


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_set_has_the_rows_it_was_written_with(name: str) -> None:
    rows = load_dataset(DATA / name)
    total, answerable = SETS[name]
    assert len({r["id"] for r in rows}) == len(rows) == total
    with_gold = [r for r in rows if r["gold_provisions"]]
    assert len(with_gold) == answerable and all(r["key_facts"] for r in with_gold)
    assert all(not r["key_facts"] for r in rows if not r["gold_provisions"])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SETS))
def test_every_key_fact_is_stated_in_its_gold_provision(bundled: Engine, name: str) -> None:
    unstated = [f"{r['id']}: {fact!r}" for r in load_dataset(DATA / name)
                for fact in r["key_facts"]
                if not any(normalise_for_match(fact)
                           in normalise_for_match(bundled.store.provision(g).text)
                           for g in r["gold_provisions"])]
    assert not unstated, unstated
