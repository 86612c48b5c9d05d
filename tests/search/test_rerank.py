"""The second-stage ranker: its shipped weights, its features, and the re-ordering."""

from pathlib import Path

import numpy as np
import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import NotFoundError
from civicsetu.search.rerank import FEATURES, MODEL_PATH, RankerModel
from tests.conftest import RERA


def test_the_shipped_model_matches_the_features_this_code_computes() -> None:
    model = RankerModel.load(MODEL_PATH)
    assert model.names == FEATURES
    assert model.weights.shape == model.mean.shape == model.scale.shape == (len(FEATURES),)
    assert np.all(model.scale > 0)
    assert model.meta["questions"] > 0  # fitted, with its training report kept beside it


def test_a_model_saved_and_loaded_scores_the_same(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    model = RankerModel(FEATURES, rng.normal(size=len(FEATURES)), rng.normal(size=len(FEATURES)),
                        rng.uniform(0.5, 2, size=len(FEATURES)), {"note": "test"})
    model.save(tmp_path / "r.json")
    again = RankerModel.load(tmp_path / "r.json")
    x = rng.normal(size=(4, len(FEATURES)))
    assert np.allclose(model.score(x), again.score(x), atol=1e-4)
    assert again.meta == {"note": "test"}


def test_a_model_fitted_for_other_features_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    RankerModel(("a", "b"), np.ones(2), np.zeros(2), np.ones(2)).save(path)
    with pytest.raises(NotFoundError, match="re-fit"):
        RankerModel.load(path)


@pytest.mark.slow
def test_features_read_the_heading_the_cosine_and_the_named_act(bundled: Engine) -> None:
    searcher = bundled.searcher
    seen: list[tuple[list[str], np.ndarray]] = []
    searcher.reranker.recorder = lambda analysis, hits, x: seen.append(
        ([h.provision_id for h in hits], x))
    searcher.search("What is the penalty for non-registration under RERA?")
    ids, x = seen[0]
    assert x.shape == (len(ids), len(FEATURES))
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}
    s59 = next(i for i, p in enumerate(ids) if p.startswith(f"{RERA}#s.59"))
    # s.59's marginal note is "Punishment for non-registration under section 3".
    assert col["head_cover"][s59] > 0.5
    assert col["named_doc"][s59] == 1.0
    assert col["penalty_asked"][s59] == 1.0
    assert col["cosine_gap"].min() >= -1.0 and col["cosine_gap"].max() == 0.0
    assert np.all((col["cosine"] > 0) & (col["cosine"] <= 1.0))


@pytest.mark.slow
def test_reranking_permutes_the_candidates_and_keeps_the_score_scale(
        bundled_home: Path) -> None:
    query = "Who decides the compensation when possession of my flat is delayed?"
    with Engine(Settings(home=bundled_home, rerank=False)) as engine:
        before = engine.search(query, k=30).hits
    with Engine(Settings(home=bundled_home, rerank=True)) as engine:
        assert engine.searcher.reranker.model is not None
        after = engine.search(query, k=30).hits
    assert sorted(h.provision_id for h in before) == sorted(h.provision_id for h in after)
    assert [round(h.score, 9) for h in before] == [round(h.score, 9) for h in after]
