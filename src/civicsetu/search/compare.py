"""Comparison questions: each compared side searched in its own Act, once per aspect asked.

A comparison ("Compare the time limit and pre-deposit for a builder appealing a RERA order
with those for ... a District Consumer Commission order") asks the same aspects of two or
more sides. ``search/decompose.py`` splits it into its sides; this module turns the sides
into the searches ("probes") whose best provisions the fusion then guarantees a place:

- **A side in its own Act.** A side that names or implies an Act (by name, initials or
  subject words, as the whole question is routed) is searched in that Act only, not in
  every Act of the question; a side that names none keeps the question's Acts.
- **One probe per aspect.** "the time limit and pre-deposit for X" asks two things of X:
  each is searched on its own ("the time limit for X", "the pre-deposit for X"). Aspects
  asked after the sides ("... compared with after Y: which forum and what deadline?") are
  asked of every side.
- **"Both", "each", "one ... the other".** A part that asks about every side at once
  ("Do both laws allow a complaint?") is searched once in each side's Act, so neither
  Act's provision crowds the other's out.
- **The next step of a chain.** "the next appeal after the Appellate Tribunal" asks for the
  provision that appeals *from* that body, not the one that appeals *to* it: among a
  probe's hits, a provision whose text has an order "of" or "made by" the named body comes
  first, and one that only sends appeals "to" or "before" it moves down.

Nothing here names an Act, a section or a body: the sides, aspects and names are read from
the question, and the Acts from the corpus's own routing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from civicsetu.search.lexicon import focus_terms
from civicsetu.search.query import analyze

if TYPE_CHECKING:
    from civicsetu.search.decompose import SubQuestion
    from civicsetu.search.hybrid import Searcher, SearchFilters
    from civicsetu.types import Hit

MAX_PROBES = 6  # searches per comparison question beyond the whole question's
# "the A and B for X": two aspects (one or two words each) asked of the same thing.
_ASPECT_PAIR = re.compile(
    r"^(?P<pre>.*?\b(?:the|its|their|any)\s+)(?P<a>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+and\s+"
    r"(?:the\s+)?(?P<b>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?P<post>(?:for|of|to|under|in|on)"
    r"\s+.+)$", re.IGNORECASE | re.DOTALL)
# Aspects asked after the last side, for every side: "...: which forum and what deadline?"
_SHARED_ASPECTS = re.compile(
    r"\s*(?:[—–:]|\s-\s|,)\s*(?P<asks>(?:which|what|how|within|by\s+when)\b[^?]*)\??\s*$",
    re.IGNORECASE)
_ALL_SIDES = re.compile(r"\b(?:both|each|either|neither|one\b.{0,30}\bthe\s+other)\b",
                        re.IGNORECASE)
# A side that refers back to the question's Act ("other provisions of the Act").
_SAME_ACT = re.compile(r"\b(?:the|this|that|same)\s+(?:act|law|code|statute)\b", re.IGNORECASE)
# The later side stands for the same aspects: "... with those for ...", "... with that of".
_THOSE = re.compile(r"\bwith\s+th(?:ose|at)\s+(?:for|of|under|in)\b", re.IGNORECASE)
# A later side whose subject is a pronoun standing for the first side's subject.
_PRONOUN = re.compile(r"^(?:\w+\s+){0,2}(?:it|they|them)\b", re.IGNORECASE)
_SIDE_START = re.compile(r"^(?:where|what|how|who|which|when|does|do|is|are|can)\b",
                         re.IGNORECASE)
_APPEAL = re.compile(r"\bappeal\w*\b", re.IGNORECASE)
# The body a chain step starts from: "after the Real Estate Appellate Tribunal".
_AFTER = re.compile(r"\b(?:(?:after|beyond|above|from)\s+|appeal\w*\s+(?:against\s+)?"
                    r"(?:(?:an?|the)\s+)?(?:order\s+(?:of|by|made\s+by)\s+)?)"
                    r"(?:the\s+|a\s+|an\s+)?"
                    r"(?P<name>(?:[\w'-]+\s+){0,4}?(?:tribunal|commission|officer|authority|"
                    r"court|forum|board|collector|magistrate))\b", re.IGNORECASE)
_NAME_STOP = frozenset({"the", "a", "an", "of", "act", "s"})


@dataclass(frozen=True, slots=True)
class Probe:
    """One search of a comparison: its text and the Acts it is searched in."""

    text: str
    docs: list[str]
    after: str = ""  # a chain step: the body the asked step follows ("" when none)
    # Searched in one side's own Act(s) among the question's several: a narrow search,
    # whose first section is that side's answer (the fusion guarantees it a place).
    narrow: bool = False


def shared_aspects(question: str) -> list[str]:
    """Aspects the question asks of every side after naming them ("which forum", "what
    deadline"); empty when it asks none that way."""
    m = _SHARED_ASPECTS.search(question)
    if not m:
        return []
    return [a.strip(" ,") for a in re.split(r"\s+and\s+|,\s*", m.group("asks")) if a.strip(" ,")]


def strip_shared(part: str) -> str:
    """``part`` without the trailing aspects it shares with the other sides."""
    return _SHARED_ASPECTS.sub("", part).strip() or part


def aspects(part: str) -> list[str]:
    """The part once per aspect it asks ("the time limit and pre-deposit for X" -> "the
    time limit for X", "the pre-deposit for X"); the part itself when it asks one."""
    m = _ASPECT_PAIR.match(part.strip())
    if not m:
        return [part]
    pre, post = m.group("pre"), m.group("post")
    return [f"{pre}{m.group('a')} {post}", f"{pre}{m.group('b')} {post}"]


def _plain_words(searcher: Searcher, text: str, docs: list[str]) -> list[str]:
    """The content words of ``text`` that name or imply no Act."""
    from civicsetu.search.decompose import content_words

    return [w for w in content_words(text) if not own_docs(searcher, w, docs)
            and not re.fullmatch(r"compar\w*|differ\w*", w)]


def _without_acts(searcher: Searcher, text: str, docs: list[str]) -> str:
    """``text`` without its words that name or imply an Act (the aspect it asks)."""
    return " ".join(w for w in text.split() if not own_docs(searcher, w.strip("?,.;:"), docs))


def aspect_pair(part: str) -> tuple[str, str] | None:
    """The two aspects a part asks of one thing ("time limit", "pre-deposit"), if any."""
    m = _ASPECT_PAIR.match(part.strip())
    return (m.group("a"), m.group("b")) if m else None


def own_docs(searcher: Searcher, text: str, docs: list[str]) -> list[str]:
    """The Acts among ``docs`` that ``text`` names or implies itself (may be empty)."""
    allowed = set(docs)
    analysis = analyze(text, searcher.aliases,
                       allowed if len(allowed) < len(searcher.documents) else None)
    implied = searcher.route(analysis, allowed) if len(allowed) > 1 else []
    return [d for d in docs if d in analysis.named_docs or d in implied]


def probes(searcher: Searcher, question: str, subs: list[SubQuestion],
           docs: list[str]) -> list[Probe]:
    """The searches of a comparison's sides (see the module docstring)."""
    shared = shared_aspects(question)
    appeal = bool(_APPEAL.search(question))
    every = [d.id for d in searcher.documents]
    owners = [own_docs(searcher, strip_shared(s.part), every) for s in subs]
    claimed = {d for o in owners for d in o}
    first = strip_shared(subs[0].part) if subs else ""
    pair = next((p for p in (aspect_pair(strip_shared(s.part)) for s in subs) if p), None)
    out: list[Probe] = []
    for sub, mine in zip(subs, owners, strict=True):
        part = strip_shared(sub.part) if shared else sub.part
        context = sub.text[len(sub.part):]  # the kept Acts/parties/focus words, "(...)"
        if len(mine or docs) >= 2 and _ALL_SIDES.search(part):
            targets = [[d] for d in mine or docs]  # every side, each in its own Act
        elif not mine and len(docs) == 1 and docs[0] in claimed and not _SAME_ACT.search(part):
            # The question's one Act is another side's ("the time for presenting a
            # document for registration compared with the time a Collector has ..."):
            # this side's Act is not known, so it is searched in every Act.
            targets = [[]]
        else:
            targets = [mine or docs]
        side_docs = {d for t in targets for d in t} if len(targets) == 1 else set()
        if sub is not subs[0] and len(_plain_words(searcher, part, every)) < 2:
            # A side that is only its Act ("... compare with RERA's?") asks what the first
            # side asks: it borrows the first side's words that name no Act.
            part = f"{_without_acts(searcher, first, every)} ({part})"
        elif sub is not subs[0] and _PRONOUN.match(part) and _SIDE_START.match(part):
            # "where it goes after the National Consumer Commission" (it = the appeal the
            # first side asks about): the first side's words that name no Act come along.
            part = f"{part} ({_without_acts(searcher, first, every)})"
        mine_aspects = aspects(part)
        if len(mine_aspects) == 1 and pair and _THOSE.search(question):
            # "... with those for a promoter ...": this side is asked the first side's aspects.
            mine_aspects = [f"the {a} for {part}" for a in pair]
        asked = [f"{a} {s}" for a in mine_aspects for s in shared] if shared else mine_aspects
        # The kept context without the words that name another side's Act ("RERA
        # commission consumer" is noise in a search of one Act).
        kept = " ".join(w for w in context.strip(" ()").split()
                        if set(own_docs(searcher, w, every)) <= side_docs)
        for text in asked:
            focus = [t for t in focus_terms(text) if t.lower() not in f"{text} {kept}".lower()]
            extra = " ".join([kept, *focus]).strip()
            full = f"{text} ({extra})" if extra else text
            after = _chain_source(text) if appeal else ""
            out.extend(Probe(full, t, after, narrow=0 < len(t) < len(docs)) for t in targets)
    return out[:MAX_PROBES]


def search_probes(searcher: Searcher, plan: list[Probe], k: int,
                  filters: SearchFilters | None) -> list[list[Hit]]:
    """Each probe's ranking, a chain step's reordered so the step after its body leads; a
    probe searched in every Act whose own search routes it to one Act is replaced in
    ``plan`` by a narrow probe of that Act."""
    from civicsetu.search.decompose import scoped

    out = []
    for i, p in enumerate(plan):
        # A chain step looks deeper: the step after a body is often below the many
        # sub-sections of the provision that appeals to it.
        result = searcher.search(p.text, k=2 * k if p.after else k,
                                 filters=scoped(filters, p.docs))
        routed = list(dict.fromkeys(result.analysis.named_docs + result.analysis.implied_docs))
        if not p.docs and len(routed) == 1:
            # A side searched in every Act whose own words route it to one Act is that
            # Act's side: as narrow as one searched there (its first section answers it).
            plan[i] = replace(p, docs=routed, narrow=True)
        hits = result.hits
        out.append(chain_order(hits, p.after)[:k] if p.after else hits)
    return out


def _chain_source(text: str) -> str:
    """The body the asked appeal follows ("after the Appellate Tribunal"; "" when none)."""
    m = _AFTER.search(text)
    return m.group("name") if m else ""


def _name_words(name: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", name.lower()) if w not in _NAME_STOP]


def chain_order(hits: list[Hit], name: str) -> list[Hit]:
    """``hits`` with the provisions that appeal from the body ``name`` first and those that
    only appeal to it last (the rest keep their order between them)."""
    words = _name_words(name)
    if not words:
        return hits
    head = words[-1]
    body = rf"(?:[A-Za-z]+\s+){{0,4}}?{re.escape(head)}"
    source = re.compile(rf"\b(?:order|decision|direction|award)s?\b[^.;]{{0,60}}?\b(?:of|by)\s+"
                        rf"(?:the\s+|an?\s+|any\s+)?(?P<body>{body})\b", re.IGNORECASE)
    target = re.compile(rf"\bappeal\w*\b[^.;]{{0,40}}?\b(?:to|before)\s+(?:the\s+|an?\s+)?"
                        rf"(?P<body>{body})\b", re.IGNORECASE)

    def names_it(pattern: re.Pattern[str], text: str) -> bool:
        for m in pattern.finditer(text):
            found = _name_words(m.group("body"))
            # The text's name ("National Commission") is the question's ("National
            # Consumer Commission") when its last two words are among the question's
            # ("... of the Authority or the adjudicating officer": "adjudicating officer").
            if found and found[-1] == head and set(found[-2:]) <= set(words):
                return True
        return False

    first, middle, last = [], [], []
    for h in hits:
        # An order of the body counts only where the text provides an appeal from it
        # (a Chairperson's powers over the Tribunal's staff name its orders too).
        if names_it(source, h.text) and _APPEAL.search(h.text):
            first.append(h)
        elif names_it(target, h.text):
            last.append(h)
        else:
            middle.append(h)
    return first + middle + last
