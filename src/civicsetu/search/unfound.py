"""Provisions a question names that the index does not hold ("Section 999 of RERA",
"section 18(9)"). Quoting another provision in their place would answer a question the
user did not ask, so the search reports them (``SearchResult.unfound``) and the answer says
so (``answer/evidence.py``): it shows the closest provision that exists (Section 18 for
18(9)) or, when none of the named unit exists, abstains.

A reference counts as tied to an Act only when the Act is named right beside it ("s.59 of
RERA", "RERA section 59"): in "section 420 IPC ... my RERA complaint" section 420 belongs
to a law the corpus does not hold, not to RERA.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import date

from civicsetu.types import Provision

# The last bracketed part of a path: "s.18(1)(b)" -> "(b)".
_LAST_PART = re.compile(r"\([^()]*\)$")
# A bracketed part of letters only: "(B)", "(IV)"; the law prints them lower-case.
_LETTER_PART = re.compile(r"\(([A-Za-z]{1,4})\)")

Lookup = Callable[[str, str, date | None], Provision | None]


@dataclass(frozen=True, slots=True)
class UnfoundReference:
    """A provision the question names that is not in the index."""

    words: str  # as the question writes it: "Section 18(9)"
    path: str  # "s.18(9)"
    doc_id: str | None  # the Act it was looked for in; None: looked for in every document
    nearest: str | None = None  # the closest provision that exists ("s.18"), shown instead
    not_yet: bool = False  # it exists, but not in the version in force on the date asked


def spellings(path: str) -> list[str]:
    """``path`` as written, then with its letter parts lower-cased ("s.18(1)(B)")."""
    lowered = _LETTER_PART.sub(lambda m: f"({m.group(1).lower()})", path)
    return [path] if lowered == path else [path, lowered]


def ancestors(path: str) -> list[str]:
    """The enclosing provisions of ``path``, nearest first: "s.18(1)(z)" -> ["s.18(1)",
    "s.18"]."""
    out = []
    while _LAST_PART.search(path):
        path = _LAST_PART.sub("", path)
        out.append(path)
    return out


def look_up(lookup: Lookup, doc_id: str, path: str, as_of: date | None) -> Provision | None:
    """The provision at ``path`` in ``doc_id`` under any of its spellings, else None."""
    for spelled in spellings(path):
        found = lookup(doc_id, spelled, as_of)
        if found is not None:
            return found
    return None


def in_named_act(lookup: Lookup, words: str, path: str, docs: list[str],
                 as_of: date | None) -> tuple[Provision | None, UnfoundReference]:
    """For a reference tied to an Act that has no such provision: the closest enclosing
    provision that exists in the first of ``docs`` holding one (None when the named unit
    itself is missing), and the report of what was not found."""
    not_yet = as_of is not None and any(look_up(lookup, d, path, None) is not None
                                        for d in docs)
    for doc_id in docs:
        for parent in ancestors(path):
            found = look_up(lookup, doc_id, parent, as_of)
            if found is not None:
                return found, UnfoundReference(words, path, doc_id, found.path, not_yet)
    return None, UnfoundReference(words, path, docs[0], None, not_yet)


def in_no_document(lookup: Lookup, words: str, path: str, docs: Collection[str],
                   as_of: date | None) -> UnfoundReference | None:
    """The report for a reference naming no Act that none of ``docs`` holds, else None."""
    if any(look_up(lookup, d, path, as_of) is not None for d in docs):
        return None
    not_yet = as_of is not None and any(look_up(lookup, d, path, None) is not None
                                        for d in docs)
    return UnfoundReference(words, path, None, None, not_yet)
