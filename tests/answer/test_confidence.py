"""The calibrated answer score: signals from real retrievals over the bundled index."""

from __future__ import annotations

from pathlib import Path

import pytest

from civicsetu.answer.confidence import (
    Confidence,
    assess_confidence,
    combine,
    signals,
    stem,
)
from civicsetu.answer.confidence_model import FEATURES, WEIGHTS
from civicsetu.answer.evidence import assess
from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.serialize import answer_to_dict


def test_stem_joins_word_forms() -> None:
    assert stem("registered") == stem("registers") == stem("register")
    assert stem("penalties")[:5] == stem("penalty")[:5]


def test_the_score_rises_with_each_signal_the_model_weighs_up() -> None:
    base = {name: 0.3 for name in FEATURES}
    for i, name in enumerate(FEATURES):
        higher = {**base, name: 0.9}
        assert (combine(higher) > combine(base)) == (WEIGHTS[i] > 0)
    assert 0.0 < combine(base) < 1.0


@pytest.mark.slow
def test_an_in_corpus_question_outscores_an_off_corpus_one(bundled: Engine) -> None:
    good = bundled.searcher.search("What is the penalty for a promoter who does not "
                                   "register a real estate project?")
    off = bundled.searcher.search("What is the time of supply of goods for charging "
                                  "tax on a restaurant bill?")
    g, o = signals(good, bundled.searcher), signals(off, bundled.searcher)
    assert set(g) == {*FEATURES, "lead_agreed"}  # the last is read by the scope guard
    assert all(0.0 <= v <= 1.0 for v in (*g.values(), *o.values()))
    assert g["routing"] == 1.0  # "real estate project" implies RERA and RERA leads
    assert assess_confidence(good, bundled.searcher).score > \
        assess_confidence(off, bundled.searcher).score


@pytest.mark.slow
def test_a_score_below_the_floor_abstains_and_above_answers(bundled: Engine) -> None:
    result = bundled.searcher.search("What is the penalty for not registering a real "
                                     "estate project?")
    docs = bundled.searcher.documents
    assert assess(result, bundled.store, docs, 0.37, Confidence(0.2), 0.5).answerable is False
    assert assess(result, bundled.store, docs, 0.37, Confidence(0.8), 0.5).answerable is True
    # A named provision is answered whatever the score.
    named = bundled.searcher.search("What does section 59 of RERA say?")
    assert assess(named, bundled.store, docs, 0.37, Confidence(0.0), 0.5).answerable


@pytest.mark.slow
def test_the_answer_json_carries_the_score(bundled: Engine) -> None:
    answer = bundled.ask("What is the penalty for not registering a real estate project?")
    body = answer_to_dict(answer)
    assert body["score"] is not None and 0.0 <= body["score"] <= 1.0
    assert not answer.abstained
    assert body["score"] >= bundled.settings.answer_score_floor


@pytest.mark.slow
def test_calibrated_abstention_decides_on_the_score_when_switched_on(
        bundled_home: Path) -> None:
    q = "What is the penalty for not registering a real estate project?"
    strict = Settings(home=bundled_home, calibrated_abstention=True, answer_score_floor=0.999)
    loose = Settings(home=bundled_home, calibrated_abstention=True, answer_score_floor=0.0)
    with Engine(strict) as engine:
        refused = engine.ask(q)
    with Engine(loose) as engine:
        answered = engine.ask(q)
    assert refused.abstained and refused.score is not None and refused.score < 0.999
    assert not answered.abstained and answered.score == refused.score
