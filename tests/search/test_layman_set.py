"""The layman question set (data/layman_r13.jsonl) points at sections of the bundled Acts
that hold the facts it expects."""

import json
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine

DATA = Path(__file__).parent / "data" / "layman_r13.jsonl"


def test_every_row_has_a_question_gold_sections_and_key_facts() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    assert 10 <= len(rows) <= 15
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["query"].endswith("?") and row["gold_provisions"] and row["key_facts"]


@pytest.mark.slow
def test_each_gold_section_states_its_key_facts(bundled_home: Path) -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    with Engine(Settings(home=bundled_home)) as engine:
        for row in rows:
            text = " ".join(" ".join(engine.store.provision(g).text.split())
                            for g in row["gold_provisions"]).lower()
            for fact in row["key_facts"]:
                assert fact.lower() in text, (row["id"], fact)
