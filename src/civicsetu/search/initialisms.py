"""Acronyms a document spells out: "NCLAT" is known to the Insolvency and Bankruptcy Code,
which writes "National Company Law Appellate Tribunal" though no chunk holds "NCLAT".

A question's acronym that no chunk contains is a name the corpus never mentions
(``answer/evidence._unknown_names``) unless a document the answer would quote from (one
of the leading hits') writes it out. Every run of capitalised words, joined by "of",
"and", "for", "the", "to", "in", "on" or "&", is cut at those joining words into parts;
every sequence of consecutive parts gives its initials with and without the joining words
("Right to Information": RTI; "Securities and Exchange Board of India": SEBI), and so do
each part without its first word (which may be capitalised only because it opens a
sentence) and a name without a final "Act" or "Code" ("the RTI Act"). Slices inside a
part do not count: "Chairperson of the National Company Law Appellate Tribunal" gives
NCLAT, not "CLA". Only initials of 3 to 8 letters are kept.

Why the leading documents and not the whole corpus (measured on the 846 central Acts,
42 million characters): a document yields a few dozen to a few hundred initialisms (the
11 bundled Acts 1,234 together), but the 846 Acts yield 24,270, a quarter of all
three-letter strings, so an invented three-letter acronym would pass one time in four;
and collecting them all takes about 1.9 s per process, against a median of 1 ms per Act
(128 ms for the Income Tax Act, 20 ms for the Insolvency Code). A document's initials
are kept by its text's hash for the life of the process.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

from civicsetu.store.base import DocumentInfo, Store

_JOINERS = frozenset({"of", "and", "for", "the", "to", "in", "on", "&"})
_CAPITALISED = r"(?:[A-Z][a-z]+|[A-Z]{2,})"
_SPACE = r"(?:[ \t]+|[ \t]*\n[ \t]*)"  # a line may break inside a name, a paragraph not
_RUN = re.compile(
    rf"(?<![\w-]){_CAPITALISED}(?:{_SPACE}(?:(?:of|and|for|the|to|in|on|&|OF|AND|FOR|THE|"
    rf"TO|IN|ON){_SPACE})*{_CAPITALISED})+(?![\w-])")
# A law is called by the initials of its name without "Act" ("the RTI Act").
_LAW = frozenset({"Act", "ACT", "Code", "CODE"})
MIN_LETTERS = 3
MAX_LETTERS = 8

# Initials by document text hash, shared by every index this process opens.
_BY_TEXT: dict[str, frozenset[str]] = {}
_LOCK = threading.Lock()


def text_initialisms(text: str) -> frozenset[str]:
    """The lower-cased initials of the capitalised names ``text`` writes out."""
    out: set[str] = set()
    for m in _RUN.finditer(text):
        parts: list[list[str]] = [[]]
        for word in m.group(0).split():
            if word.lower() in _JOINERS:
                parts[-1].append(word.lower())  # a joining word ends its part
                parts.append([])
            else:
                parts[-1].append(word)
        parts = [p for p in parts if p]
        for i, first in enumerate(parts):
            if len(first) > 2:
                _add(first[1:], out)
            words: list[str] = []
            for part in parts[i:]:
                words += part
                _add(words, out)
    return frozenset(out)


def _add(words: list[str], out: set[str]) -> None:
    """The initials of ``words`` with and without their joining words (and without a
    final "Act" or "Code")."""
    while words and words[-1] in _JOINERS:
        words = words[:-1]
    if len(words) > 2 and words[-1] in _LAW:
        _add(words[:-1], out)
    every = "".join(w[0] for w in words).lower()
    content = "".join(w[0] for w in words if w not in _JOINERS).lower()
    for initials in (every, content):
        if MIN_LETTERS <= len(initials) <= MAX_LETTERS:
            out.add(initials)


def spells_out(store: Store, documents: Sequence[DocumentInfo], acronym: str) -> bool:
    """Whether one of ``documents`` writes a name with these initials ("NCLAT",
    "NCLATs")."""
    letters = acronym.lower()
    if letters.endswith("s") and not acronym[-1].isupper():
        letters = letters[:-1]
    return any(letters in document_initialisms(store, d) for d in documents)


def document_initialisms(store: Store, document: DocumentInfo) -> frozenset[str]:
    """``text_initialisms`` of ``document``'s text, collected once per text."""
    key = document.content_hash or document.id
    with _LOCK:
        found = _BY_TEXT.get(key)
    if found is None:
        found = text_initialisms(store.document(document.id).text)
        with _LOCK:
            _BY_TEXT[key] = found
    return found
