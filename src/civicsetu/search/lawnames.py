"""The corpus's names for its laws, prepared once per document list (``Searcher.law_names``)
for the check of a question that names a law by title (``answer/evidence.unheld_laws``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from civicsetu.search.query import AliasTable
from civicsetu.search.routing import title_initials
from civicsetu.store.base import DocumentInfo

_TITLE_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True, slots=True)
class LawNames:
    """Every document's aliases and title (``AliasTable``), the title words that only one
    document's title has, with that document's place in the list, and the initials of
    every title ("RTI" names an ingested Act even where no alias was registered)."""

    aliases: AliasTable
    sole_title: dict[str, int]
    initials: frozenset[str] = frozenset()

    @classmethod
    def of(cls, documents: Sequence[DocumentInfo],
           aliases: AliasTable | None = None) -> LawNames:
        """The names of ``documents`` (``aliases``: their table, when already built)."""
        titles = [set(_TITLE_WORD.findall(d.title.lower())) for d in documents]
        counts = Counter(w for title in titles for w in title)
        sole = {w: i for i, title in enumerate(titles) for w in title if counts[w] == 1}
        initials = frozenset(i for d in documents for i in title_initials(d.title))
        return cls(aliases if aliases is not None else AliasTable.of(documents), sole, initials)
