"""tools/answer_dump.py and tools/answer_summary.py on real answers of the pipeline with the
scripted LLM: each outcome class is read from the pipeline's own notices and drafts."""

from __future__ import annotations

from civicsetu.engine import Engine
from tests.agent.test_pipeline import Q, ScriptedLLM, _source_number, engine  # noqa: F401
from tools.answer_dump import RecordingLLM, answer_row
from tools.answer_summary import outcome, report

GOLD = {"gold_provisions": ["model-tenancy-act-2099#s.2(2)"], "key_facts": ["one month"],
        "query_type": "temporal"}


def test_each_llm_outcome_is_summarised_from_the_pipelines_notices(engine: Engine) -> None:  # noqa: F811
    spec = "scripted:sum"
    engine.settings.llm_retries = 1  # so that the retry counts are read too
    with engine:
        agent = engine.agent(spec)
        assert agent.llm is not None
        recorder = RecordingLLM(agent.llm)
        agent.llm = recorder

        def row(name: str, *replies: str, query: str = Q) -> dict[str, object]:
            ScriptedLLM.replies = list(replies)
            return answer_row(engine, {"id": name, "query": query, **GOLD}, spec, recorder)

        insufficient = row("insufficient", "INSUFFICIENT")
        n = _source_number("Section 2(2)")
        good = f"The landlord must refund it within one month of the tenant vacating [{n}]."
        shown = row("shown", good)
        cut = row("cut", f"{good} If refused, you can appeal to the Rent Tribunal.")
        replaced = row("replaced", "It is within 15 days [1].", "It is within 15 days [1].")
        unverified = row("unverified", f"The answer is in [{n}].")
        no_call = row("no_call", query="How many days does the landlord have to refund the "
                                       "security deposit?")
        base = answer_row(engine, {"id": "shown", "query": Q, **GOLD}, None)
    rows = [shown, cut, replaced, unverified, insufficient, no_call]
    assert [outcome(r) for r in rows] == ["shown", "cut", "replaced", "unverified",
                                         "insufficient", "no_call"]
    assert [len(r["drafts"]) for r in rows] == [1, 1, 2, 1, 1, 0]  # type: ignore[arg-type]
    assert shown["key_fact_recall"] == base["key_fact_recall"] == 1.0
    assert base["drafts"] == [] and base["generator"] == "extractive"
    text = report(rows, [base], 87)
    assert text.startswith("6 LLM rows of 87 questions; 1 also in the no-LLM run.")
    for label in ("LLM draft shown whole | 1 |", "cut to its verified sentences | 1 |",
                  "the draft failed, no sentence verified | 1 |",
                  "INSUFFICIENT: the verified quotes shown | 1 |",
                  "or refused) | 1 |"):
        assert label in text
    assert "2 questions had" not in text and "word for word the first draft in 1" in text
