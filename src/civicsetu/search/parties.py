"""A provision headed for another party does not lead a question about one party.

Acts often repeat a rule once per party, each with its own marginal note: RERA's
"Penalty for failure to comply with orders of Authority by promoter" (s.63), "... by real
estate agent" (s.65), "... by allottee" (s.67). Their texts share nearly every word, so
rank fusion puts them side by side and the question's party decides nothing. When a
question names a party (in the statute's word or a lay one: builder -> promoter, buyer ->
allottee, broker -> agent) and a candidate's heading names only other parties, that
candidate moves below the first ten sections' other candidates (``search/window.py``).
"""

from __future__ import annotations

import re

from civicsetu.search.lexicon import LAY_TO_STATUTE
from civicsetu.search.window import demoted_in_window
from civicsetu.types import Hit, section_of

# Statute nouns for the parties a rule is addressed to (singular).
PARTIES = frozenset({"promoter", "allottee", "agent", "lessor", "lessee", "mortgagor",
                     "mortgagee", "seller", "buyer", "purchaser",
                     "employer", "employee", "landlord", "tenant", "consumer"})
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
    ten sections. Unchanged when the question names no party."""
    asked = parties_in(question, lay=True)
    if not asked:
        return hits

    def other(h: Hit) -> bool:
        named = parties_in(headings.get(f"{h.doc_id}#{section_of(h.provision_path)}", ""))
        return bool(named) and not named & asked

    return demoted_in_window(hits, other)
