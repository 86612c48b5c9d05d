"""A provision headed for another party does not lead a question about one party.

Acts often repeat a rule once per party, each with its own marginal note: RERA's
"Penalty for failure to comply with orders of Authority by promoter" (s.63), "... by real
estate agent" (s.65), "... by allottee" (s.67). Their texts share nearly every word, so
rank fusion puts them side by side and the question's party decides nothing. When a
question names a party (in the statute's word or a lay one: builder -> promoter, buyer ->
allottee, broker -> agent) and a candidate's heading names only other parties, that
candidate moves below the first ``WINDOW`` sections' other candidates.
"""

from __future__ import annotations

import re

from civicsetu.search.lexicon import LAY_TO_STATUTE
from civicsetu.types import Hit, section_of

# Statute nouns for the parties a rule is addressed to (singular).
PARTIES = frozenset({"promoter", "allottee", "agent", "lessor", "lessee", "mortgagor",
                     "mortgagee", "seller", "buyer", "purchaser",
                     "employer", "employee", "landlord", "tenant", "consumer"})
WINDOW = 10  # sections re-ordered at the top of the ranking
_WORD = re.compile(r"[A-Za-z]+")


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def parties_in(text: str, lay: bool = False) -> set[str]:
    """The parties ``text`` names; with ``lay`` also through the lay words (builder)."""
    words = [w.lower() for w in _WORD.findall(text)]
    found = {_singular(w) for w in words} & PARTIES
    if lay:
        for w in words:
            for statute in LAY_TO_STATUTE.get(w, ()):
                found |= {_singular(s) for s in statute.lower().split()} & PARTIES
    return found


def others_after(question: str, hits: list[Hit], headings: dict[str, str]) -> list[Hit]:
    """``hits`` with those whose section heading (``headings``: section id -> heading)
    names only parties the question does not, moved after the other hits of the first
    ``WINDOW`` sections. Unchanged when the question names no party."""
    asked = parties_in(question, lay=True)
    if not asked:
        return hits
    sections: list[str] = []
    cut = len(hits)
    for i, h in enumerate(hits):
        key = f"{h.doc_id}#{section_of(h.provision_path)}"
        if key not in sections:
            if len(sections) == WINDOW:
                cut = i
                break
            sections.append(key)
    head, tail = hits[:cut], hits[cut:]

    def other(h: Hit) -> bool:
        named = parties_in(headings.get(f"{h.doc_id}#{section_of(h.provision_path)}", ""))
        return bool(named) and not named & asked

    return [h for h in head if not other(h)] + [h for h in head if other(h)] + tail
