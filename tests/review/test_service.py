"""Reviewing the shipped sample contracts end to end: real files, real SQLite, real parser,
every quote verified against the stored text, the planted conflicts all found."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError
from civicsetu.review.checklist import Label, Risk, load_checklist
from civicsetu.review.report import to_html, to_json, to_markdown
from civicsetu.review.service import ReviewRun, find_document, review

SAMPLES = Path(str(resources.files("civicsetu.corpus") / "contracts"))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, ReviewRun]]:
    home = tmp_path_factory.mktemp("review-home")
    with Engine(Settings(home=home)) as engine:
        files = sorted(str(p) for p in SAMPLES.glob("*.txt"))
        yield engine, review(engine, files, load_checklist(), group="commercial", dense=False)


def _finding(run: ReviewRun, doc_id: str, item_id: str) -> tuple[Label, Risk, str]:
    r = next(r for r in run.reviews if r.doc_id == doc_id)
    f = next(f for f in r.findings if f.item_id == item_id)
    return f.label, f.risk, f.citations[0].label if f.citations else ""


def test_every_quote_is_verbatim_and_pinned_to_a_clause(run: tuple[Engine, ReviewRun]) -> None:
    engine, result = run
    assert len(result.reviews) == 4
    assert sorted(result.ingested) == sorted(r.doc_id for r in result.reviews)
    for r in result.reviews:
        text = engine.store.document(r.doc_id).text
        assert r.rejected_quotes == 0
        for f in r.findings:
            if f.label is not Label.NOT_MENTIONED:
                assert f.citations, (r.doc_id, f.item_id)
            for c in f.citations:
                assert text[c.start:c.end] == c.quote
                assert c.provision_id.startswith(f"{r.doc_id}#cl.")


def test_planted_features_are_found(run: tuple[Engine, ReviewRun]) -> None:
    _, result = run
    assert _finding(result, "acme-umbrella-vendor-services", "unlimited-liability") == \
        (Label.ENTAILED, Risk.HIGH, "Clause 9.3")
    assert _finding(result, "acme-initech-sla", "auto-renewal")[::2] == \
        (Label.ENTAILED, "Clause 2.2")
    for doc_id in ("acme-globex-nda", "acme-initech-sla", "acme-employment-agreement"):
        assert _finding(result, doc_id, "unlimited-liability")[0] is Label.NOT_MENTIONED
    sla = next(r for r in result.reviews if r.doc_id == "acme-initech-sla")
    uptime = next(f for f in sla.findings if f.item_id == "service-levels")
    assert (uptime.label, uptime.value) == (Label.ENTAILED, "99.9%")
    assert uptime.citations[0].label in {"Clause 3.1", "Clause 3.2"}


def test_all_planted_conflicts_are_found_with_both_sides(run: tuple[Engine, ReviewRun]) -> None:
    _, result = run
    by_kind = {c.kind: c for c in result.conflicts}
    assert set(by_kind) >= {"governing-law", "jurisdiction", "termination-notice",
                            "confidentiality-term", "liability-cap", "defined-term"}
    laws = {s.doc_id: s.value for s in by_kind["governing-law"].sides}
    assert laws == {"acme-globex-nda": "India", "acme-employment-agreement": "India",
                    "acme-initech-sla": "New York",
                    "acme-umbrella-vendor-services": "England and Wales"}
    notice = {s.doc_id: s.value for s in by_kind["termination-notice"].sides}
    assert notice == {"acme-globex-nda": "30 days", "acme-initech-sla": "60 days",
                      "acme-umbrella-vendor-services": "90 days",
                      "acme-employment-agreement": "45 days"}
    caps = {s.doc_id: s.value for s in by_kind["liability-cap"].sides}
    assert caps["acme-umbrella-vendor-services"] == "unlimited"
    for c in result.conflicts:
        assert len({s.doc_id for s in c.sides}) >= 2
        assert all(s.citation.quote for s in c.sides)


def test_metadata_is_read_from_the_text(run: tuple[Engine, ReviewRun]) -> None:
    _, result = run
    nda = next(r for r in result.reviews if r.doc_id == "acme-globex-nda")
    assert "Acme Robotics Private Limited" in nda.metadata["parties"]
    assert nda.metadata["effective_date"] == "1 April 2025"
    assert nda.metadata["term"] == "2 years"
    assert nda.metadata["governing_law"] == "India"
    assert "Priya Raman" in nda.metadata["signatories"]


def test_reports_render_and_escape(run: tuple[Engine, ReviewRun]) -> None:
    _, result = run
    html = to_html(result.reviews, result.conflicts, "test")
    assert "<mark>The Vendor&#x27;s liability for breach of clause 4" in html
    assert "<script" not in html and "http" not in html.split("</style>")[0]
    md = to_markdown(result.reviews, result.conflicts, "test")
    assert "Different governing laws" in md
    assert '"unlimited"' in to_json(result.reviews, result.conflicts)


def test_documents_are_found_by_id_alias_or_title(run: tuple[Engine, ReviewRun]) -> None:
    engine, _ = run
    assert find_document(engine, "acme-initech-sla") == "acme-initech-sla"
    assert find_document(engine, "vendor services") == "acme-umbrella-vendor-services"
    with pytest.raises(NotFoundError, match="neither a file nor a document"):
        find_document(engine, "no such contract")


def test_contract_metadata_and_definitions_are_stored(run: tuple[Engine, ReviewRun]) -> None:
    engine, _ = run
    meta = engine.store.document_metadata("acme-initech-sla")
    assert meta["governing_law"] == "New York" and meta["effective_date"] == "15 May 2025"
    assert engine.store.document_metadata("no-such-doc") == {}
    defines = engine.store.edges("acme-globex-nda#cl.1.1", "out", ["DEFINES"])
    assert [e.dst for e in defines] == ["term:confidential information"]


def test_a_docx_contract_is_reviewed_through_the_reader(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    for line in (SAMPLES / "acme-initech-sla.txt").read_text(encoding="utf-8").splitlines():
        document.add_paragraph(line)
    path = tmp_path / "initech-sla.docx"
    document.save(str(path))
    with Engine(Settings(home=tmp_path / "home")) as engine:
        result = review(engine, [str(path)], load_checklist(), group="commercial",
                        dense=False)
        (r,) = result.reviews
        text = engine.store.document(r.doc_id).text
    renewal = next(f for f in r.findings if f.item_id == "auto-renewal")
    assert renewal.label is Label.ENTAILED and renewal.citations[0].label == "Clause 2.2"
    assert r.rejected_quotes == 0
    assert all(text[c.start:c.end] == c.quote for f in r.findings for c in f.citations)
