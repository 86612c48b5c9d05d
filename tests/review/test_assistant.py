"""The seed's sample questions, end to end on the shipped sample contracts: real files
ingested into a real SQLite index, routing, document scope, follow-ups, refusals."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from civicsetu.answer.messages import OUT_OF_SCOPE_ADVICE, OUT_OF_SCOPE_DRAFTING
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.review.assistant import ContractAssistant, Route
from civicsetu.types import Citation, DocType

SAMPLES = Path(str(resources.files("civicsetu.corpus") / "contracts"))


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    home = tmp_path_factory.mktemp("contracts-home")
    with Engine(Settings(home=home)) as e:
        e.ingest([SourceSpec(path=p, doc_type=DocType.CONTRACT, jurisdiction="")
                  for p in sorted(SAMPLES.glob("*.txt"))])
        yield e


def _verbatim(engine: Engine, answer_citations: list[Citation]) -> None:
    assert answer_citations
    for c in answer_citations:
        text = engine.store.document(c.provision_id.split("#")[0]).text
        assert text[c.start:c.end] == c.quote


def test_seed_questions_end_to_end(engine: Engine) -> None:
    chat = ContractAssistant(engine.store)

    a = chat.ask("What is the termination notice period in the NDA?")
    assert a.route is Route.ANALYSIS and a.scope == ["acme-globex-nda"]
    assert "30 days" in a.text and "Clause 4.2" in a.text
    _verbatim(engine, a.citations)

    a = chat.ask("What is the SLA's uptime commitment?")
    assert a.route is Route.ANALYSIS and a.scope == ["acme-initech-sla"]
    assert "99.9%" in a.text
    _verbatim(engine, a.citations)

    a = chat.ask("Are there conflicting governing laws across the agreements?")
    assert a.route is Route.CONFLICT
    for law in ("India", "New York", "England and Wales"):
        assert law in a.text
    assert {c.provision_id.split("#")[0] for c in a.citations} == {
        "acme-globex-nda", "acme-initech-sla", "acme-umbrella-vendor-services",
        "acme-employment-agreement"}
    _verbatim(engine, a.citations)

    a = chat.ask("Is there unlimited liability in any agreement?")
    assert a.route is Route.RISK
    assert "Vendor Services Agreement" in a.text and "HIGH" in a.text
    assert [c.provision_id for c in a.citations] == ["acme-umbrella-vendor-services#cl.9.3"]
    _verbatim(engine, a.citations)

    a = chat.ask("Draft a better NDA")
    assert (a.route, a.text, a.citations) == (Route.REFUSAL, OUT_OF_SCOPE_DRAFTING, [])
    a = chat.ask("What legal strategy should Acme take?")
    assert (a.route, a.text, a.citations) == (Route.REFUSAL, OUT_OF_SCOPE_ADVICE, [])

    a = chat.ask("Summarize the SLA")
    assert a.route is Route.SUMMARY and a.scope == ["acme-initech-sla"]
    for fact in ("99.9%", "60 days", "New York", "Auto-renewal"):
        assert fact in a.text
    _verbatim(engine, a.citations)

    a = chat.ask("What about the vendor agreement?")
    assert a.route is Route.SUMMARY and a.scope == ["acme-umbrella-vendor-services"]
    assert "90 days" in a.text and "England and Wales" in a.text
    assert all(c.provision_id.startswith("acme-umbrella-vendor-services#")
               for c in a.citations)
    assert len(a.suggestions) >= 1


def test_follow_up_keeps_the_question_and_numbers_pick_suggestions(engine: Engine) -> None:
    chat = ContractAssistant(engine.store)
    first = chat.ask("What is the notice period in the employment agreement?")
    assert "45 days" in first.text
    follow = chat.ask("and the SLA?")
    assert follow.scope == ["acme-initech-sla"] and "60 days" in follow.text
    risky = chat.ask(str(len(follow.suggestions)))  # the last suggestion: the risk one
    assert risky.route is Route.RISK
    assert risky.question.startswith("What are the high-risk clauses")


def test_party_and_alias_scope(engine: Engine) -> None:
    chat = ContractAssistant(engine.store)
    a = chat.ask("What does Acme's SLA say about service credits?")
    assert a.scope == ["acme-initech-sla"]
    a = chat.ask("What is the governing law in the Umbrella contract?")
    assert a.scope == ["acme-umbrella-vendor-services"] and "England and Wales" in a.text


def test_engine_ask_routes_contract_questions(engine: Engine) -> None:
    a = engine.ask("What is the termination notice period in the NDA?")
    assert a.query_type == "contract_analysis" and "30 days" in a.text
    assert a.citations[0].provision_id == "acme-globex-nda#cl.4.2"
    r = engine.ask("Is there unlimited liability in any agreement?")
    assert r.query_type == "contract_risk"
    assert r.citations[0].provision_id == "acme-umbrella-vendor-services#cl.9.3"
    refused = engine.ask("Draft a better NDA")
    assert refused.text.startswith(OUT_OF_SCOPE_DRAFTING)
    assert refused.query_type != "contract_analysis"
