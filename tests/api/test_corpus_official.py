"""Uploads and registry entries never replace an official bundled Act, over real HTTP; job
messages name the uploaded file, not the server's folder; malformed JSON is explained."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from civicsetu.config import ApiSettings, Settings
from tests.api.conftest import Live, serve
from tests.api.test_auth import _assert_problem
from tests.api.test_corpus import _wait
from tests.conftest import FAKE_ACT, LIMITATION

CONTRACT_ACT = "the-indian-contract-act-1872"  # bundled, but not ingested in official_home


@pytest.fixture()
def official_live(official_home: Path, tmp_path: Path) -> Iterator[Live]:
    home = tmp_path / "home"
    shutil.copytree(official_home, home)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "fake.md").write_text(FAKE_ACT, encoding="utf-8")
    with serve(Settings(home=home, api=ApiSettings(source_roots=[sources]))) as live:
        yield live


def _official(c: httpx.Client) -> dict[str, Any]:
    doc: dict[str, Any] = next(d for d in c.get("/api/v1/documents").json()["documents"]
                               if d["id"] == LIMITATION)
    return doc


def _upload(c: httpx.Client, name: str, text: str, **form: str) -> httpx.Response:
    return c.post("/api/v1/documents", files={"file": (name, text.encode(), "text/markdown")},
                  data=form)


def test_an_upload_named_like_an_official_act_gets_its_own_id(official_live: Live) -> None:
    with official_live.client() as c:
        before = _official(c)
        r = _upload(c, f"{LIMITATION}.md", FAKE_ACT)
        assert r.status_code == 202, r.text
        done = _wait(c, r.json()["id"])
        assert done["status"] == "done", done
        own = done["result"]["doc_id"]
        assert own.startswith(f"{LIMITATION}-") and done["result"]["status"] == "added"
        assert _official(c) == before  # same text, title and counts
        # The same name uploaded again is the same upload: updated in place, not a third id.
        again = _wait(c, _upload(c, f"{LIMITATION}.md",
                                 FAKE_ACT.replace("one day", "two days")).json()["id"])
        assert again["result"] == {**again["result"], "doc_id": own, "status": "updated"}
        # Answers quoting the upload say where it came from: its name, not a server path.
        answer = c.post("/api/v1/query", json={"question": "Within what time shall every "
                                               "suit be instituted?", "documents": [own]}).json()
        sources = {ci["source"] for ci in answer["citations"]}
        assert sources and all(s.startswith(f"uploaded file {LIMITATION}.md") for s in sources)
        assert str(official_live.settings.home) not in str(answer)
        ids = [d["id"] for d in c.get("/api/v1/documents").json()["documents"]]
        assert sorted(ids) == sorted([LIMITATION, own])


def test_an_upload_with_an_official_title_is_flagged(official_live: Live) -> None:
    lookalike = FAKE_ACT.replace("Fake Things Act, 2024", "Limitation Act, 1963")
    with official_live.client() as c:
        before = _official(c)
        done = _wait(c, _upload(c, "limitation.md", lookalike).json()["id"])
        assert done["status"] == "done", done
        assert done["result"]["doc_id"] == "limitation"
        assert f"matches the document {LIMITATION}" in done["result"]["message"]
        assert "look-alike" in done["result"]["message"]
        assert _official(c) == before


@pytest.mark.parametrize("doc_id", [LIMITATION, CONTRACT_ACT])
def test_an_explicit_official_id_is_refused_with_409(official_live: Live, doc_id: str) -> None:
    with official_live.client() as c:
        before = _official(c)
        body = _assert_problem(_upload(c, "fake.md", FAKE_ACT, doc_id=doc_id), 409)
        assert body["type"].endswith("/official-document")
        assert doc_id in body["detail"] and "official Act" in body["detail"]
        sources = official_live.settings.api.source_roots[0]
        entry = {"id": doc_id, "name": "The Fake Things Act, 2024",
                 "source": str(sources / "fake.md")}
        body = _assert_problem(c.post("/api/v1/documents", json=entry), 409)
        assert body["type"].endswith("/official-document")
        assert _official(c) == before
        assert [d["id"] for d in c.get("/api/v1/documents").json()["documents"]] == [LIMITATION]
        assert not (official_live.settings.home / "uploads").exists()  # nothing was stored


def test_a_failed_job_names_the_file_not_the_server_folder(official_live: Live,
                                                           tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    empty = tmp_path / "nothing.pdf"
    pdf = pdfium.PdfDocument.new()  # a valid PDF with no pages
    pdf.save(str(empty))
    pdf.close()
    with official_live.client() as c:
        r = c.post("/api/v1/documents", files={"file": ("nothing.pdf", empty.read_bytes(),
                                                        "application/pdf")})
        done = _wait(c, r.json()["id"])
    assert done["status"] == "failed"
    assert done["error"].startswith("nothing.pdf: the PDF has no pages")
    assert done["result"]["message"] == done["error"]
    assert "PDFium" not in done["error"] and "uploads" not in str(done)
    assert str(official_live.settings.home) not in str(done)


@pytest.mark.parametrize(("route", "body", "detail"), [
    ("/api/v1/query", b'{"question": "rent",,}',
     "not valid JSON: expecting property name enclosed in double quotes at line 1, column 21"),
    ("/api/v1/query", b'{"question":\n "rent"\n "k": 3}',
     "not valid JSON: expecting ',' delimiter at line 3, column 2"),
    ("/api/v1/query", b"{not json", "not valid JSON: expecting property name enclosed in "
                                    "double quotes at line 1, column 2"),
    ("/api/v1/documents", b'{"id": 12,',
     "not valid JSON: the body ends before the JSON value is complete at line 1, column 10"),
])
def test_malformed_json_is_explained_in_plain_words(official_live: Live, route: str,
                                                    body: bytes, detail: str) -> None:
    with official_live.client() as c:
        problem = _assert_problem(c.post(route, content=body,
                                         headers={"content-type": "application/json"}), 422)
    assert problem["type"].endswith("/invalid-json")
    assert detail in problem["detail"], problem["detail"]
    assert "JSON decode error" not in problem["detail"]
