"""The embedder registry hands the ``embed_*`` settings to the backend it builds."""

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from civicsetu.config import Settings
from civicsetu.embed import get_embedder, register_embedder
from civicsetu.embed.base import EmbedderOptions
from civicsetu.embed.minilm_onnx import MiniLMOnnxEmbedder
from civicsetu.engine import Engine

LONG = ("The promoter shall not advertise, market, book, sell or offer for sale any plot, "
        "apartment or building in any real estate project without registering it with the "
        "Real Estate Regulatory Authority established under this Act. ") * 6


def test_settings_reach_the_minilm_embedder() -> None:
    settings = Settings(embed_batch_size=3, embed_threads=1, embed_max_tokens=128)
    embedder = get_embedder("minilm-onnx", settings)
    assert isinstance(embedder, MiniLMOnnxEmbedder)
    assert (embedder.batch_size, embedder.threads, embedder.max_tokens) == (3, 1, 128)
    assert embedder._session.get_session_options().intra_op_num_threads == 1
    # A 128-token window is another vector space: its own model id, other long vectors.
    default = get_embedder("minilm-onnx")
    assert default.model_id == "all-MiniLM-L6-v2-int8-onnx"
    assert embedder.model_id == "all-MiniLM-L6-v2-int8-onnx-w128"
    short = "Registration of real estate projects."
    assert np.allclose(embedder.embed_query(short), default.embed_query(short), atol=1e-4)
    assert not np.allclose(embedder.embed_query(LONG), default.embed_query(LONG), atol=1e-3)


def test_engine_builds_its_embedder_from_its_settings(tmp_path: Path) -> None:
    with Engine(Settings(home=tmp_path, embed_batch_size=5)) as engine:
        embedder = engine.embedder
        assert isinstance(embedder, MiniLMOnnxEmbedder) and embedder.batch_size == 5


class _Recorder:
    model_id, dim = "recorder", 2
    seen: ClassVar[list[EmbedderOptions]] = []

    def __init__(self, options: EmbedderOptions | None = None) -> None:
        if options is not None:
            self.seen.append(options)

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows: npt.NDArray[np.float32] = np.full((len(texts), 2), 0.5**0.5, dtype=np.float32)
        return rows

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        row: npt.NDArray[np.float32] = self.embed_documents([text])[0]
        return row


def test_factories_with_and_without_options() -> None:
    register_embedder("test-options", lambda options: _Recorder(options))
    register_embedder("test-plain", lambda: _Recorder())
    get_embedder("test-options", Settings(embed_batch_size=7, embed_max_tokens=64))
    assert _Recorder.seen[-1] == EmbedderOptions(batch_size=7, threads=None, max_tokens=64,
                                                 workers=None)
    before = len(_Recorder.seen)
    assert get_embedder("test-plain", Settings(embed_batch_size=7)).model_id == "recorder"
    assert len(_Recorder.seen) == before


def test_parallel_workers_give_the_same_vectors() -> None:
    texts = [LONG[:n] for n in (40, 900, 120, 300, 75, 600, 10)]
    default = get_embedder("minilm-onnx").embed_documents(texts)
    parallel = get_embedder("minilm-onnx", Settings(embed_workers=2, embed_batch_size=2))
    assert isinstance(parallel, MiniLMOnnxEmbedder) and parallel.workers == 2
    assert np.allclose(parallel.embed_documents(texts), default, atol=1e-5)
    # Passages run one thread per worker; queries keep onnxruntime's default threads.
    assert parallel._batch_session is not None
    assert parallel._batch_session.get_session_options().intra_op_num_threads == 1
    assert parallel._session.get_session_options().intra_op_num_threads == 0


def test_one_worker_per_core_unless_set() -> None:
    import os

    embedder = get_embedder("minilm-onnx", Settings())
    assert isinstance(embedder, MiniLMOnnxEmbedder)
    assert embedder.workers == (os.cpu_count() or 1)
    alone = get_embedder("minilm-onnx")  # no settings: one run at a time
    assert isinstance(alone, MiniLMOnnxEmbedder) and alone.workers == 1
