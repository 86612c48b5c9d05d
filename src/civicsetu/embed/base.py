"""The ``Embedder`` protocol and its registry; settings reach a backend as ``EmbedderOptions``."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from civicsetu.errors import ModelError

if TYPE_CHECKING:
    from civicsetu.config import Settings

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 rows; ``model_id`` names the vector space."""

    model_id: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> Vectors: ...

    def embed_query(self, text: str) -> Vectors: ...


@dataclass(frozen=True, slots=True)
class EmbedderOptions:
    """What the settings say about running an embedder; a backend uses what applies to it."""

    batch_size: int = 8
    threads: int | None = None  # None: the runtime's default (the cores present)
    max_tokens: int | None = None  # None: the model's own window
    workers: int | None = 1  # passage batches embedded at once; None: one per core

    @classmethod
    def from_settings(cls, settings: Settings) -> EmbedderOptions:
        """The ``embed_*`` fields of ``settings``."""
        return cls(batch_size=settings.embed_batch_size, threads=settings.embed_threads,
                   max_tokens=settings.embed_max_tokens, workers=settings.embed_workers)


# A factory takes the options, or nothing (a backend with no knobs).
Factory = Callable[[EmbedderOptions], Embedder] | Callable[[], Embedder]
_FACTORIES: dict[str, Factory] = {}


def register_embedder(name: str, factory: Factory) -> None:
    """Make ``factory`` available as ``CIVICSETU_EMBEDDER=name``."""
    _FACTORIES[name] = factory


def get_embedder(name: str, settings: Settings | EmbedderOptions | None = None) -> Embedder:
    """The embedder registered as ``name``, built with the ``embed_*`` settings given."""
    if name not in _FACTORIES:
        _register_builtins()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES)) or "(none)"
        raise ModelError(f"unknown embedder {name!r}; choose one of: {known}") from None
    if settings is None:
        options = EmbedderOptions()
    elif isinstance(settings, EmbedderOptions):
        options = settings
    else:
        options = EmbedderOptions.from_settings(settings)
    if inspect.signature(factory).parameters:
        return factory(options)  # type: ignore[call-arg]
    return factory()  # type: ignore[call-arg]


def _register_builtins() -> None:
    from civicsetu.embed.minilm_onnx import MiniLMOnnxEmbedder
    from civicsetu.embed.wordllama import WordLlamaEmbedder

    _FACTORIES.setdefault("minilm-onnx", MiniLMOnnxEmbedder.from_options)
    _FACTORIES.setdefault("wordllama", WordLlamaEmbedder.from_options)
