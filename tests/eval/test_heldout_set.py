"""The blind held-out sets (bench/eval/heldout_multipart.jsonl, heldout_w14.jsonl,
heldout_b16.jsonl) are well formed and their gold is real: every gold provision exists in a
freshly ingested bundle and every key fact is stated in the text of its question's gold
provisions."""

from collections import Counter
from pathlib import Path

import pytest

from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError
from civicsetu.eval.metrics import normalise_for_match
from civicsetu.eval.runner import load_dataset

BENCH = Path(__file__).resolve().parents[2] / "bench" / "eval"
HELDOUT = BENCH / "heldout_multipart.jsonl"
HELDOUT_W14 = BENCH / "heldout_w14.jsonl"
HELDOUT_B16 = BENCH / "heldout_b16.jsonl"
SETS = pytest.mark.parametrize("path", [HELDOUT, HELDOUT_W14, HELDOUT_B16], ids=lambda p: p.stem)
KEYS = {"id", "query", "query_type", "gold_provisions", "key_facts", "reference_answer", "notes"}


def test_heldout_rows_have_the_dev_schema_and_the_intended_mix() -> None:
    rows = load_dataset(HELDOUT)
    assert all(set(r) == KEYS for r in rows), [r["id"] for r in rows if set(r) != KEYS]
    assert len({r["id"] for r in rows}) == len(rows)
    types = Counter(r["query_type"] for r in rows)
    assert types["multi_part"] >= 10 and types["comparison"] >= 8 and types["multi_hop"] >= 8
    unanswerable = [r for r in rows if not r["gold_provisions"]]
    assert len(unanswerable) >= 5
    assert all(not r["key_facts"] and r["notes"] for r in unanswerable)
    assert all(r["key_facts"] and r["reference_answer"] for r in rows if r["gold_provisions"])


def test_w14_set_has_the_mix_it_was_written_to() -> None:
    rows = load_dataset(HELDOUT_W14)
    assert all(set(r) == KEYS for r in rows), [r["id"] for r in rows if set(r) != KEYS]
    assert len({r["id"] for r in rows}) == len(rows) == 40
    types = Counter(r["query_type"] for r in rows)
    plain = types["fact_lookup"] + types["penalty_lookup"] + types["temporal"]
    assert (types["multi_hop"], types["multi_part"], plain, types["comparison"]) == (14, 10, 8, 3)
    assert all(1 <= len(r["key_facts"]) <= 3 and r["reference_answer"]
               for r in rows if r["gold_provisions"])
    unanswerable = [r for r in rows if not r["gold_provisions"]]
    assert len(unanswerable) == types["out_of_scope"] == 5
    assert all(not r["key_facts"] and r["notes"] for r in unanswerable)
    cross_act = [r for r in rows if r["query_type"] == "multi_hop"
                 and len({g.split("#")[0] for g in r["gold_provisions"]}) > 1]
    assert len(cross_act) >= 4


def test_b16_set_has_the_mix_it_was_written_to() -> None:
    """b16 leans on single-answer questions (the first result must be right): 22 of them."""
    rows = load_dataset(HELDOUT_B16)
    assert all(set(r) == KEYS for r in rows), [r["id"] for r in rows if set(r) != KEYS]
    assert len({r["id"] for r in rows}) == len(rows) == 40
    assert all(r["id"].startswith("b16-") for r in rows)
    types = Counter(r["query_type"] for r in rows)
    assert types == {"fact_lookup": 6, "penalty_lookup": 6, "temporal": 6, "definition": 4,
                     "multi_part": 6, "multi_hop": 4, "comparison": 2, "out_of_scope": 6}
    single = [r for r in rows if r["query_type"] in
              ("fact_lookup", "penalty_lookup", "temporal", "definition")]
    assert all(len(r["gold_provisions"]) == 1 for r in single)
    assert all(len(r["gold_provisions"]) == 2 for r in rows
               if r["query_type"] in ("multi_hop", "comparison"))
    assert all(1 <= len(r["key_facts"]) <= 3 and r["reference_answer"]
               for r in rows if r["gold_provisions"])
    unanswerable = [r for r in rows if not r["gold_provisions"]]
    assert len(unanswerable) == types["out_of_scope"] == 6
    assert all(not r["key_facts"] and r["notes"] for r in unanswerable)
    acts = {g.split("#")[0] for r in rows for g in r["gold_provisions"]}
    assert len(acts) == 11, sorted(acts)


@pytest.mark.slow
@SETS
def test_every_gold_provision_exists_and_states_its_key_facts(bundled: Engine,
                                                              path: Path) -> None:
    missing: list[str] = []
    unstated: list[str] = []
    for row in load_dataset(path):
        texts = []
        for gold in row["gold_provisions"]:
            try:
                texts.append(normalise_for_match(bundled.store.provision(gold).text))
            except NotFoundError:
                missing.append(f"{row['id']}: {gold}")
        for fact in row["key_facts"]:
            if not any(normalise_for_match(fact) in t for t in texts):
                unstated.append(f"{row['id']}: {fact!r}")
    assert not missing, missing
    assert not unstated, unstated
