"""Embedders turn text into unit vectors. Backends register by name."""

from civicsetu.embed.base import Embedder, get_embedder, register_embedder

__all__ = ["Embedder", "get_embedder", "register_embedder"]
