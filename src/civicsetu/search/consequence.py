"""A named provision's consequence first, when that is what the question asks.

"Section 7 gives the officer thirty days. What penalty can he face?" names section 7 but
asks for the penalty, which another section states (one that cites section 7, or one
section 7 cites). The searcher pins the named provision first and the sections linked to
it (``Searcher._referents``, best first for the question) right after it. When the
question asks for a kind of consequence — a penalty, an appeal, who decides, how an
order is enforced — that no named provision's heading is about, the best linked section
headed as that kind ranks first, whole, and the named ones follow: it holds the
asked-for thing. The kinds are read from the asker's words (not the statute's words the
question quotes) and the sections' headings (marginal notes), never from which Act or
section it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from civicsetu.types import Hit, section_of

SOURCE = "consequence"  # marks the linked hit moved first (search/decompose.py keeps it)


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of consequence: how a question asks for it, how a heading names it."""

    name: str
    asked: re.Pattern[str]
    headed: re.Pattern[str]


KINDS: tuple[Kind, ...] = (
    Kind("penalty",
         re.compile(r"\b(?:penalt\w*|punish\w*|fined?|imprison\w*|jail|prosecut\w*)\b", re.I),
         re.compile(r"\b(?:penalt\w*|punish\w*|offences?)\b", re.I)),
    Kind("appeal",
         re.compile(r"\b(?:appeal\w*|challeng\w*)\b", re.I),
         re.compile(r"\bappeal\w*\b", re.I)),
    Kind("adjudication",
         re.compile(r"\bwho\s+(?:\w+\s+){0,2}(?:decides?|determines?|fix(?:es)?|assess(?:es)?|"
                    r"awards?|quantif(?:y|ies)|adjudicates?|hears?)\b", re.I),
         re.compile(r"\badjudicat\w*|\badjudg\w*", re.I)),
    Kind("enforcement",
         re.compile(r"\b(?:enforc\w*|execut(?:e|ed|ion)|recover\w*)\b", re.I),
         re.compile(r"\b(?:enforc\w*|execut\w*|recover\w*|decree)\b", re.I)),
)


def asked_kinds(query: str, quotes: Sequence[str] = ()) -> list[Kind]:
    """The kinds of consequence ``query`` asks for, in the order of ``KINDS``; its
    ``quotes`` (the statute's words, "'shall be enforced'") are not the asker's."""
    for quote in quotes:
        query = query.replace(quote, " ")
    return [k for k in KINDS if k.asked.search(query)]


def wanted_kinds(query: str, quotes: Sequence[str], named: Sequence[Hit],
                 heading: Callable[[str], str]) -> list[Kind]:
    """The kinds ``query`` asks for that no ``named`` provision's heading is about."""
    heads = [heading(_section(h)) for h in named]
    return [k for k in asked_kinds(query, quotes)
            if not any(k.headed.search(t) for t in heads)]


def consequence_target(kinds: Sequence[Kind], linked_ids: Sequence[str],
                       heading: Callable[[str], str]) -> str | None:
    """The first of ``linked_ids`` (provision ids, best first) whose section is headed as
    one of ``kinds``, the first kind first; None when none is."""
    for kind in kinds:
        for full_id in linked_ids:
            doc_id, _, path = full_id.partition("#")
            if path and kind.headed.search(heading(f"{doc_id}#{section_of(path)}")):
                return full_id
    return None


def consequence_first(kinds: Sequence[Kind], named: list[Hit], linked: list[Hit],
                      heading: Callable[[str], str]) -> list[Hit]:
    """``named + linked``, or with the first linked hit headed as one of ``kinds`` (those
    the question asks for and no named one is about) moved in front of the named ones."""
    for kind in kinds:
        for i, hit in enumerate(linked):
            if kind.headed.search(heading(_section(hit))):
                hit.sources = {SOURCE: 1.0, **hit.sources}
                return [hit, *named, *linked[:i], *linked[i + 1:]]
    return named + linked


def _section(hit: Hit) -> str:
    return f"{hit.doc_id}#{section_of(hit.provision_path)}"
