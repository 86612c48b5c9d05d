"""A law of one territory does not lead a question that never names it (real SQLite
index of two small Acts, real parser and embedder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.places import elsewhere_after, places_in
from civicsetu.types import Hit

GENERAL = """---
title: "The Tenancy Act, 2099."
source: "test fixture"
---
# The Tenancy Act, 2099.

## Section 1 - Notice to quit.

A lease of immovable property for no fixed term may be ended by either party by fifteen
days' notice in writing to the other party.

## Section 2 - Security deposit.

The landlord shall return the security deposit within one month of the tenant leaving.
"""

TERRITORIAL = """---
title: "The Delhi Premises Tenancy Act, 2099."
source: "test fixture"
---
# The Delhi Premises Tenancy Act, 2099.

## Section 1 - Notice to quit premises.

A landlord may end the tenancy of premises by notice in writing to the tenant: fifteen
days' notice in writing for a lease of premises with no fixed term.

## Section 2 - Rent Controller.

The Rent Controller shall decide disputes about the rent of premises.
"""


def test_places_are_read_in_current_and_former_names() -> None:
    assert places_in("The Delhi Rent Control Act, 1958") == {"Delhi"}
    assert places_in("The Bombay Civil Courts Act") == {"Maharashtra"}
    assert places_in("a flat in Mumbai") == {"Maharashtra"}
    assert places_in("The Indian Stamp Act, 1899") == set()


def _hit(doc: str, path: str) -> Hit:
    return Hit(chunk_id=doc + path, doc_id=doc, provision_path=path, text="", start=0,
               end=0, score=1.0)


def test_a_territorial_law_moves_below_the_window_others_unless_asked_about() -> None:
    titles = {"d": "The Delhi Rent Control Act", "g": "The Transfer of Property Act"}
    hits = [_hit("d", "s.14"), _hit("g", "s.106"), _hit("d", "s.15"), _hit("g", "s.107")]
    moved = [(h.doc_id, h.provision_path) for h in elsewhere_after(
        "How much notice must my landlord give?", hits, titles)]
    assert moved == [("g", "s.106"), ("g", "s.107"), ("d", "s.14"), ("d", "s.15")]
    kept = elsewhere_after("How much notice must my landlord in Delhi give?", hits, titles)
    assert kept == hits


@pytest.fixture()
def two_tenancy_acts(tmp_path: Path) -> Iterator[Engine]:
    for name, text in (("general.md", GENERAL), ("delhi.md", TERRITORIAL)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest([SourceSpec(tmp_path / "general.md"),
                       SourceSpec(tmp_path / "delhi.md")])
        yield engine


def test_a_question_naming_no_place_is_led_by_the_general_law(
        two_tenancy_acts: Engine) -> None:
    question = "How many days' notice in writing must a landlord give to end a tenancy of " \
               "premises with no fixed term?"
    search = two_tenancy_acts.searcher.search
    assert "delhi" in search(question, k=4).hits[1].doc_id or \
        "delhi" in search(question, k=4).hits[2].doc_id  # still found
    assert "delhi" not in search(question, k=4).hits[0].doc_id
    assert "delhi" in search(question + " I live in Delhi.", k=4).hits[0].doc_id
    off = Engine(Settings(home=two_tenancy_acts.settings.home, territorial_extent=False))
    with off:
        assert "delhi" in off.searcher.search(question, k=4).hits[0].doc_id
