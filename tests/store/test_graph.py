"""The citation graph on real SQLite: resolution across documents in either ingest order,
edges by type, k-hop neighbourhoods, definitions, and graph expansion in search."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.types import DocType

ACT = """---
title: "The Model Housing Act, 2030."
---
# The Model Housing Act, 2030.

## Section 1 - Definitions.

In this Act,--

(a) "allottee" means a person to whom a flat is allotted;

(b) "promoter" means a person who builds flats for sale.

## Section 2 - Registration of projects.

(1) No promoter shall sell a flat without registering the project with the Authority.

(2) The application under sub-section (1) shall be made in the prescribed form.

## Section 3 - Penalty for non-registration.

If any promoter contravenes section 2, he shall be liable to a penalty of ten per cent of
the cost of the project.

## Section 4 - Transfer of title.

The promoter shall execute a conveyance deed in favour of the allottee as provided under
the Model Registration Act, 2031.
"""

RULES = """MODEL HOUSING RULES, 2031
1. Short title.—These rules may be called the Model Housing Rules, 2031.
2. Application for registration.—(1) An application under sub-section (1) of section 2
of the Act shall be made in Form A.
(2) The fee for the application under rule 2 is one thousand rupees.
"""


@pytest.fixture()
def sources(tmp_path: Path) -> tuple[SourceSpec, SourceSpec]:
    act = tmp_path / "model-housing-act-2030.md"
    act.write_text(ACT, encoding="utf-8")
    rules = tmp_path / "model-housing-rules-2031.txt"
    rules.write_text(RULES, encoding="utf-8")
    return (SourceSpec(act),
            SourceSpec(rules, doc_type=DocType.RULES, parent_id="model-housing-act-2030",
                       title="Model Housing Rules, 2031"))


A = "model-housing-act-2030"
R = "model-housing-rules-2031"


@pytest.mark.parametrize("rules_first", [False, True])
def test_rule_to_act_edges_resolve_in_either_order(
        tmp_path: Path, sources: tuple[SourceSpec, SourceSpec], rules_first: bool) -> None:
    act, rules = sources
    with Engine(Settings(home=tmp_path / "home")) as engine:
        for spec in ([rules, act] if rules_first else [act, rules]):
            engine.ingest([spec])
        out = {(e.type, e.dst) for e in engine.store.edges(f"{R}#r.2(1)", "out")}
        assert ("REFERENCES", f"{A}#s.2(1)") in out
        derived = {(e.type, e.dst) for e in engine.store.edges(f"{R}#r.2", "out")}
        assert ("DERIVED_FROM", f"{A}#s.2") in derived
        assert ("DERIVED_FROM", A) in {(e.type, e.dst) for e in engine.store.edges(R, "out")}
        incoming = {(e.type, e.src) for e in engine.store.edges(f"{A}#s.2", "in")}
        assert ("REFERENCES", f"{A}#s.3") in incoming
        assert ("DERIVED_FROM", f"{R}#r.2") in incoming


def test_stats_neighbourhood_definitions_and_unresolved(
        tmp_path: Path, sources: tuple[SourceSpec, SourceSpec]) -> None:
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest(list(sources))
        stats = engine.store.graph_stats()
        assert stats.edges["DEFINES"] == 2 and stats.edges["REFERENCES"] >= 3
        assert stats.references_unresolved == 1  # the Model Registration Act is not ingested
        unresolved = engine.store.unresolved_references(f"{A}#s.4")
        assert unresolved[0].dst == "Model Registration Act, 2031"
        hops = engine.store.neighbourhood([f"{A}#s.3"], 2, ["REFERENCES"])
        assert hops[f"{A}#s.2"] == 1
        assert engine.store.definitions_for(["allottee"]) == [("allottee", f"{A}#s.1(a)")]


def test_graph_list_offers_the_neighbours_of_the_seed_and_definitions(
        tmp_path: Path, sources: tuple[SourceSpec, SourceSpec]) -> None:
    from civicsetu.search.graph_expand import graph_list, wants_graph
    from civicsetu.search.query import analyze
    from civicsetu.types import Hit

    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest(list(sources))
        store = engine.store
        docs = store.documents()
        analysis = analyze("What is the penalty for a promoter who does not register?", docs)
        assert wants_graph(analysis)
        assert not wants_graph(analyze("Who builds flats for sale?", docs))
        seed = Hit("", A, "s.3", "", 0, 0, 1.0)
        rowids = graph_list(store, analysis, [seed], {A, R})
        sections = {row.section for row in store.chunks(rowids)}
        assert "s.2" in sections  # s.3 punishes a contravention of s.2
        assert "s.1" in sections  # "promoter" is a defined term
        only_rules = {row.doc_id for row in store.chunks(graph_list(store, analysis, [seed], {R}))}
        assert only_rules <= {R}  # filters hold: nothing from a document outside the scope


def test_graph_cli_stats_and_show(tmp_path: Path,
                                  sources: tuple[SourceSpec, SourceSpec]) -> None:
    home = tmp_path / "home"
    with Engine(Settings(home=home)) as engine:
        engine.ingest(list(sources))
    run = [sys.executable, "-c", "from civicsetu.cli import main; main()"]
    stats = subprocess.run([*run, "graph", "stats", "--home", str(home), "--json"],
                           capture_output=True, text=True, check=True)
    assert json.loads(stats.stdout)["edges"]["DERIVED_FROM"] >= 2
    show = subprocess.run([*run, "graph", "show", f"{A}#s.4", "--home", str(home)],
                          capture_output=True, text=True, check=True)
    assert "UNRESOLVED" in show.stdout and "Model Registration Act, 2031" in show.stdout
    bad = subprocess.run([*run, "graph", "show", f"{A}#s.99", "--home", str(home)],
                         capture_output=True, text=True)
    assert bad.returncode == 5 and "no provision s.99" in bad.stderr


def test_resolution_tolerates_hyphenated_numbers_and_old_indian_names(tmp_path: Path) -> None:
    act = tmp_path / "model-housing-act-2030.md"
    act.write_text(ACT + "\n## Section 4A - Escrow.\n\nMoney is kept in escrow.\n\n"
                   "## Section 5 - Appeals.\n\nAn order under section 4-A may be appealed "
                   "as under section 2 of the Indian Model Housing Act, 2030.\n",
                   encoding="utf-8")
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest([SourceSpec(act)])
        out = {e.dst for e in engine.store.edges(f"{A}#s.5", "out")}
    assert {f"{A}#s.4A", f"{A}#s.2"} <= out


def test_the_code_in_an_act_is_another_enactment() -> None:
    from civicsetu.ingest.references import extract_references
    from civicsetu.ingest.statute import parse_provisions
    from civicsetu.types import Document

    body = "## Section 9 - Powers.\n\nThe powers under sections 145 to 146 of the Code.\n"
    provisions, _ = parse_provisions("stamp", body)
    refs = extract_references(Document("stamp", "Stamp Act, 1899", body, "t"), provisions)
    assert {(r.target_doc, r.target_name, r.target_path) for r in refs} == {
        (None, "the Code", "s.145"), (None, "the Code", "s.146")}
