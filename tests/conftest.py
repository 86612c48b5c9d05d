"""Shared fixtures: real SQLite files, the real parser, the real ONNX embedder."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine

RERA = "the-real-estate-regulation-and-development-act-2016"
SHARED = Path(os.environ.get("CIVICSETU_SHARED",
                           Path(__file__).resolve().parents[2] / "shared"))

SMALL_ACT = """---
title: "The Model Tenancy Act, 2099."
source: "test fixture"
---
# The Model Tenancy Act, 2099.

## Section 1 - Short title and commencement.

(1) This Act may be called the Model Tenancy Act, 2099.

(2) It shall come into force on such date as the Government may appoint.

## Section 2 - Definitions.

In this Act, unless the context otherwise requires,--

(a) "landlord" means a person who receives rent for a premises;

(b) "premises" means any building or part of a building let for residence;

(c) "tenant" means a person by whom rent is payable for a premises.

## Section 3 - Security deposit.

(1) The security deposit paid by a tenant shall not exceed two months' rent.

(2) The landlord shall refund the security deposit within one month of the tenant
vacating the premises, after deducting any amount lawfully due.

### Footnotes

1. Illustrative footnote for the fixture.

## Section 4 - Penalty for unlawful eviction.

If any landlord evicts a tenant without an order of the Rent Court, he shall be liable to
a penalty which may extend to fifty thousand rupees.
"""


@pytest.fixture(scope="session")
def bundled_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the whole bundled corpus ingested once per test session (~2 minutes).

    For the edit-run loop only: ``CIVICSETU_TEST_BUNDLED_SEED=DIR`` copies an already
    ingested home instead (its index must come from the code under test). CI never sets it.
    """
    home = tmp_path_factory.mktemp("bundled-home")
    seed = os.environ.get("CIVICSETU_TEST_BUNDLED_SEED")
    if seed and (Path(seed) / "civicsetu.db").is_file():
        # The write-ahead log too: a seed whose last writes were never checkpointed holds
        # them there.
        for name in ("civicsetu.db", "civicsetu.db-wal"):
            if (Path(seed) / name).is_file():
                shutil.copy2(Path(seed) / name, home / name)
        return home
    with Engine(Settings(home=home)) as engine:
        reports = engine.ingest_bundled()
    assert {r.status for r in reports} == {"added"}, reports
    return home


LIMITATION = "the-limitation-act-1963"  # the smallest bundled Act (about 80 chunks)

FAKE_ACT = """# The Fake Things Act, 2024.

## Section 1 - Short title.

(1) This Act may be called the Fake Things Act, 2024.

## Section 2 - Definitions.

In this Act, "thing" means a fake thing that exists only in the tests of this product.

## Section 3 - Period of limitation.

Every suit shall be instituted within one day, whatever the Limitation Act may say.
"""


@pytest.fixture(scope="session")
def official_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home holding one official Act, the Limitation Act, written as ``ingest --bundled``
    writes it (origin "bundled"); a few seconds, so it is no ``slow`` test. Copy it."""
    from civicsetu.ingest.pipeline import bundled_specs

    home = tmp_path_factory.mktemp("official-home")
    with Engine(Settings(home=home)) as engine:
        reports = engine.ingest([s for s in bundled_specs() if s.doc_id == LIMITATION])
    assert [r.status for r in reports] == ["added"], reports
    return home


@pytest.fixture()
def bundled(bundled_home: Path) -> Iterator[Engine]:
    with Engine(Settings(home=bundled_home)) as engine:
        yield engine


@pytest.fixture()
def small_act(tmp_path: Path) -> Path:
    path = tmp_path / "model-tenancy-act-2099.md"
    path.write_text(SMALL_ACT, encoding="utf-8")
    return path


@pytest.fixture()
def empty_engine(tmp_path: Path) -> Iterator[Engine]:
    with Engine(Settings(home=tmp_path / "home")) as engine:
        yield engine


@pytest.fixture()
def small_act_text() -> str:
    return SMALL_ACT
