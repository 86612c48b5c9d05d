"""WordLlama static embeddings (an option, not the default): a token-embedding table, averaged.

No neural network runs: a text's vector is the mean of its tokens' rows of a 256-wide table
(``l2_supercat_256``, MIT), L2-normalised. The table and tokenizer ship inside the PyPI
wheel ``wordllama``; they are read straight from the installed package folder (importing
``wordllama`` itself would reconfigure the root logger and may try the network). Hundreds of
times faster than MiniLM on a CPU and lower retrieval quality: docs/BENCHMARKS.md,
``embed-models``. Install: ``pip install 'civicsetu[wordllama]'``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from civicsetu.embed.base import EmbedderOptions, Vectors
from civicsetu.errors import ModelError

_WEIGHTS = ("weights", "l2_supercat_256.safetensors")
_TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")


def _package_dir() -> Path:
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("the wordllama embedder needs its weights; run: "
                         "pip install 'civicsetu[wordllama]'")
    return Path(next(iter(spec.submodule_search_locations)))


class WordLlamaEmbedder:
    model_id = "wordllama-l2-supercat-256"
    dim = 256

    def __init__(self, batch_size: int = 64, max_tokens: int | None = None) -> None:
        from safetensors import safe_open
        from tokenizers import Tokenizer

        folder = _package_dir()
        weights, tokenizer = folder.joinpath(*_WEIGHTS), folder.joinpath(*_TOKENIZER)
        for path in (weights, tokenizer):
            if not path.is_file():
                raise ModelError(f"{path} is missing from the wordllama package; reinstall it "
                                 "(pip install --force-reinstall wordllama)")
        with safe_open(str(weights), framework="np") as f:
            table = f.get_tensor("embedding.weight")
        self._table = np.ascontiguousarray(table, dtype=np.float32)
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.no_truncation()
        if max_tokens:
            self._tokenizer.enable_truncation(max_length=max_tokens)
            self.model_id = f"{type(self).model_id}-w{max_tokens}"
        self._batch_size = batch_size

    @classmethod
    def from_options(cls, options: EmbedderOptions) -> WordLlamaEmbedder:
        """The registry's factory (a table look-up: threads do not apply; batches of 64)."""
        return cls(batch_size=max(options.batch_size, 64), max_tokens=options.max_tokens)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for b in range(0, len(texts), self._batch_size):
            out[b:b + self._batch_size] = self._embed_batch(list(texts[b:b + self._batch_size]))
        return out

    def embed_query(self, text: str) -> Vectors:
        vec: Vectors = self._embed_batch([text])[0]
        return vec

    def _embed_batch(self, texts: list[str]) -> Vectors:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, enc in enumerate(self._tokenizer.encode_batch(texts, add_special_tokens=False)):
            ids = np.asarray(enc.ids, dtype=np.int64)
            ids = ids[(ids >= 0) & (ids < len(self._table))]
            if len(ids):
                rows[i] = self._table[ids].mean(axis=0)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        result: Vectors = (rows / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result
