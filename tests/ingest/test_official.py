"""An official bundled Act is never replaced by a registry entry, an upload or a user file
(``ingest/official.check_official``); ``ingest --bundled`` still writes it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.corpus import bundled_acts
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec, bundled_specs
from tests.conftest import FAKE_ACT, LIMITATION


@pytest.fixture()
def engine(official_home: Path, tmp_path: Path) -> Iterator[Engine]:
    home = tmp_path / "home"
    shutil.copytree(official_home, home)
    with Engine(Settings(home=home)) as e:
        yield e


@pytest.fixture()
def fake(tmp_path: Path) -> Path:
    path = tmp_path / f"{LIMITATION}.md"
    path.write_text(FAKE_ACT, encoding="utf-8")
    return path


@pytest.mark.parametrize(("doc_id", "kind", "remedy"), [
    (LIMITATION, "registry", "give the entry another id"),
    (LIMITATION, "user", "or none so that it gets one of its own"),
    ("the-indian-contract-act-1872", "registry", "give the entry another id"),  # not ingested
])
def test_another_text_under_an_official_id_is_refused(engine: Engine, fake: Path, doc_id: str,
                                                      kind: str, remedy: str) -> None:
    before = engine.store.document_hash(LIMITATION)
    report = engine.ingest([SourceSpec(fake, doc_id=doc_id, kind=kind)], force=True)[0]
    assert report.status == "failed" and report.doc_id == doc_id
    assert report.message.startswith(f"{fake}: {doc_id!r} is the id of an official Act")
    assert remedy in report.message and "civicsetu ingest --bundled" in report.message
    assert engine.store.document_hash(LIMITATION) == before
    assert engine.store.provenance([LIMITATION])[LIMITATION].official
    assert [d.id for d in engine.documents()] == [LIMITATION]


def test_a_user_file_named_like_an_official_act_gets_a_suffixed_id(engine: Engine,
                                                                  fake: Path) -> None:
    before = engine.store.document_hash(LIMITATION)
    report = engine.ingest([SourceSpec(fake)])[0]
    assert report.status == "added" and report.doc_id.startswith(f"{LIMITATION}-")
    assert engine.store.document_hash(LIMITATION) == before
    assert engine.store.provenance([report.doc_id])[report.doc_id].origin == "user"


def test_the_official_text_under_its_id_stays_official(engine: Engine, tmp_path: Path) -> None:
    official = next(a.path for a in bundled_acts() if a.id == LIMITATION)
    copy = tmp_path / "copy.md"
    shutil.copy(official, copy)
    report = engine.ingest([SourceSpec(copy, doc_id=LIMITATION, kind="registry")],
                           force=True)[0]
    assert report.status == "updated", report
    prov = engine.store.provenance([LIMITATION])[LIMITATION]
    assert prov.official and prov.path == str(official)


def test_ingest_bundled_still_writes_the_official_act(engine: Engine) -> None:
    spec = next(s for s in bundled_specs() if s.doc_id == LIMITATION)
    assert [r.status for r in engine.ingest([spec])] == ["unchanged"]
    assert [r.status for r in engine.ingest([spec], force=True)] == ["updated"]
    assert engine.store.provenance([LIMITATION])[LIMITATION].official


def test_an_upload_is_known_by_its_name_and_its_messages_hide_the_folder(
        engine: Engine, tmp_path: Path) -> None:
    """Each upload lands in its own server folder; the same name is the same document, and
    what the job reports names the file, never that folder."""
    ids = []
    for n, job in enumerate(("a" * 32, "b" * 32)):
        folder = engine.settings.home / "uploads" / job
        folder.mkdir(parents=True)
        path = folder / "rules.md"
        title, rest = FAKE_ACT.replace("one day", f"{n + 1} days").split("\n", 1)
        path.write_text(title + "\n\n" + "Prose in no numbered provision. " * 400 + rest,
                        encoding="utf-8")
        report = engine.ingest([SourceSpec(path, upload_name="rules.md")],
                               allow_partial=True)[0]
        assert str(folder) not in report.message and "rules.md" in report.source
        ids.append((report.doc_id, report.status))
    assert ids == [("rules", "added"), ("rules", "updated")]
    refused = engine.ingest([SourceSpec(path, upload_name="rules.md")], force=True)[0]
    assert refused.status == "failed"
    assert refused.message.startswith("rules.md: only ") and str(path) not in refused.message


def test_the_official_text_from_another_path_keeps_the_bundles_names(engine: Engine,
                                                                     tmp_path: Path) -> None:
    # A copy of the corpus file re-parsed (as after a parser upgrade) kept only the names
    # its title gives; "the law of limitation" then named no ingested Act.
    official = next(a.path for a in bundled_acts() if a.id == LIMITATION)
    copy = tmp_path / f"{LIMITATION}.md"
    shutil.copyfile(official, copy)
    [report] = engine.ingest([SourceSpec(copy)], force=True)
    assert (report.doc_id, report.status) == (LIMITATION, "updated")
    info = next(d for d in engine.store.documents() if d.id == LIMITATION)
    assert {"Limitation Act", "law of limitation"} <= set(info.aliases)
