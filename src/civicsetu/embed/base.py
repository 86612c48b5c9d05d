"""The ``Embedder`` protocol and its registry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from civicsetu.errors import ModelError

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 rows; ``model_id`` names the vector space."""

    model_id: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> Vectors: ...

    def embed_query(self, text: str) -> Vectors: ...


_FACTORIES: dict[str, Callable[[], Embedder]] = {}


def register_embedder(name: str, factory: Callable[[], Embedder]) -> None:
    _FACTORIES[name] = factory


def get_embedder(name: str) -> Embedder:
    if name not in _FACTORIES:
        _register_builtins()
    try:
        return _FACTORIES[name]()
    except KeyError:
        known = ", ".join(sorted(_FACTORIES)) or "(none)"
        raise ModelError(f"unknown embedder {name!r}; choose one of: {known}") from None


def _register_builtins() -> None:
    from civicsetu.embed.minilm_onnx import MiniLMOnnxEmbedder

    _FACTORIES.setdefault("minilm-onnx", MiniLMOnnxEmbedder)
