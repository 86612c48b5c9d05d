"""Section headings (marginal notes), read from the store once per holder.

The searcher (party headings, graph neighbours) and the learned reranker each ask for
the heading of the same few sections question after question; one read per section.
"""

from __future__ import annotations

from collections.abc import Iterable

from civicsetu.errors import NotFoundError
from civicsetu.store.base import Store
from civicsetu.types import Hit, section_of


class SectionHeadings:
    """``headings("doc#s.18")`` -> that section's heading ("" when it has none)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[str, str] = {}

    def __call__(self, section_id: str) -> str:
        if section_id not in self._cache:
            try:
                self._cache[section_id] = self.store.provision(section_id).title or ""
            except NotFoundError:
                self._cache[section_id] = ""
        return self._cache[section_id]

    def of(self, hits: Iterable[Hit]) -> dict[str, str]:
        """Section id -> heading for the sections of ``hits``."""
        return {key: self(key)
                for key in (f"{h.doc_id}#{section_of(h.provision_path)}" for h in hits)}
