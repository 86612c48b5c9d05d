"""A quotable unit of a provision (a span of its own text) and how spans are cut.

Shared by the extractive answerer (``answer/extractive.py``), which scores and chooses
units, and the completion rules (``answer/completions.py``), which add the units that
finish a chosen quote's rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from civicsetu.ingest.chunker import SENTENCE_END
from civicsetu.ingest.statute import STATE_AMENDMENTS
from civicsetu.types import Provision

MAX_QUOTE_CHARS = 1200
# A definition the question asks about is quoted with its whole list ("affected family"
# includes-- (i) ... (vi)) up to this length: any one item alone answers "who counts".
MAX_DEFINITION_CHARS = 2400
# The sentence after a list's last clause that finishes its rule, not its commentary.
_CLOSING_WORDS = re.compile(r"\s*(?!Explanation|Illustration|Provided|\(|\^)"
                            r"(?:[^\n]|\n(?![ \t]*\n))*?[.;](?=\s|$)")
# A quote "answers on its own merit" when it scores at least this share of the best one.
KEEP_RELATIVE = 0.6
_SUBSECTION_PATH = re.compile(r"^[a-z]+\.\w+\((\w{1,4})\)")


@dataclass(slots=True)
class Unit:
    """A span of one provision's text, with the retrieval rank of the hit it came from."""

    provision: Provision
    start: int
    end: int
    text: str
    rank: int
    pinned: bool
    score: float = 0.0
    matched: dict[str, float] = field(default_factory=dict)  # question stems it holds


def law_end(p: Provision) -> int:
    """Where ``p``'s own law ends: before the States' amendments India Code prints after
    a section's text (kept with the section for search, never quoted as the section)."""
    m = STATE_AMENDMENTS.search(p.text)
    return p.start + m.start() if m else p.end


def own_span(p: Provision, family: Sequence[Provision],
             within: tuple[int, int] | None = None, *,
             through_opening: bool = False,
             max_chars: int = MAX_QUOTE_CHARS) -> tuple[int, int]:
    """The span of ``p``'s own text to quote, inside ``within`` (a hit's span) when given:
    up to its first sub-provision, or with all its clauses when its own text only
    introduces them ("namely:—") and the whole fits one quote; never past ``law_end``.
    ``family`` is ``p``'s section in the Act's order. With ``through_opening`` a
    sub-provision that opens where ``p`` opens ("14. (1) ...") is quoted as ``p``'s text;
    ``max_chars`` is the longest list quoted whole; a longer one is quoted with the clauses
    that fit."""
    p_end = law_end(p)
    own_end = _first_part(p, family, p_end, through_opening)
    start, end = (p.start, own_end) if within is None else \
        (max(p.start, within[0]), min(own_end, within[1]))
    if start < own_end < p_end and unfinished(p.text[:own_end - p.start]):
        # "... including—", "... is void, unless" is finished by its clauses: quote them
        # with it, the whole provision when it fits, else the list and the words that
        # close it ("In any of these cases, such an agreement is a contract.").
        if p_end - start <= max_chars:
            end = p_end
        else:
            closed = _list_end(p, family, p_end)
            if closed - start <= max_chars:
                end = closed
            else:
                # Too long to quote whole: its clauses as far as they fit, each whole
                # (the answer says the provision goes on, ``list_continues``).
                end = max((q.end for q in family if q.parent_path == p.path
                           and q.end - start <= max_chars), default=end)
    return start, end


def list_continues(p: Provision, family: Sequence[Provision], end: int) -> bool:
    """Whether a quote of ``p`` ending at ``end`` holds its opening words and some of the
    clauses they introduce, but not all of them."""
    lead_in = opening_words(p, family)
    return lead_in < end < _list_end(p, family, law_end(p)) and \
        unfinished(p.text[:lead_in - p.start])


def opening_words(p: Provision, family: Sequence[Provision]) -> int:
    """Where ``p``'s own opening text ends: at its first sub-provision, else its law's end."""
    return _first_part(p, family, law_end(p), through_opening=True)


def _first_part(p: Provision, family: Sequence[Provision], p_end: int,
                through_opening: bool) -> int:
    """Where ``p``'s first sub-provision starts (``family`` in the Act's order), else
    ``p_end``; with ``through_opening`` one that opens where ``p`` opens does not count."""
    for q in family:
        if q.start >= p_end:
            break
        if q.parent_path == p.path and (q.start > p.start if through_opening
                                        else q.start >= p.start):
            return q.start
    return p_end


def _list_end(p: Provision, family: Sequence[Provision], p_end: int) -> int:
    """Where the list ``p``'s own text introduces ends: after its last clause and the
    sentence that closes it, when one follows that is not an Explanation or Illustration."""
    last = max((q.end for q in family if q.parent_path == p.path), default=p_end)
    rest = p.text[last - p.start:p_end - p.start]
    closing = _CLOSING_WORDS.match(rest)
    return last + closing.end() if closing else last


# What may follow a sentence's last word: closing brackets and quotes, a footnote marker.
_CLOSING = re.compile(r"(?:[\s\]\)\"'”’]|\^\w{1,4}|\*+)+$")
# A sentence or a clause ends; "; or" and "; and" end a clause of the law's own list.
_FINISHED = re.compile(r"(?:[.;]|;\s*(?:or|and))$", re.IGNORECASE)


def unfinished(text: str) -> bool:
    """Does this own text stop before its sentence does, introducing its clauses
    ("namely:—", "such person--", "is void, unless")?"""
    return not _FINISHED.search(_CLOSING.sub("", text))


def whole_sentences(p: Provision, start: int, end: int) -> tuple[int, int]:
    """``start``-``end`` (inside ``p``) widened to the sentences they cut: a chunk of a
    sentence longer than the embedder's window starts or ends inside it, and a quote cut
    there ("... shall be without" / "prejudice to the validity ...") says another thing."""
    rel_start, rel_end = start - p.start, end - p.start
    new_start, new_end = 0, len(p.text)
    for m in SENTENCE_END.finditer(p.text):  # the gaps between sentences, in order
        if m.end() <= rel_start:
            new_start = m.end()
        if m.start() >= rel_end:
            new_end = m.start()
            break
    return p.start + new_start, p.start + new_end


def subsection_of(path: str) -> tuple[str, str] | None:
    """``s.59(1)(a)`` -> (``s.59(1)``, ``1``); None for a path with no sub-section."""
    m = _SUBSECTION_PATH.match(path)
    return (m.group(0), m.group(1)) if m else None


def sentences(text: str, base: int, start: int, end: int,
              max_chars: int = MAX_QUOTE_CHARS) -> list[tuple[int, int]]:
    """Absolute (start, end) spans of ``text`` between ``start`` and ``end``, sentence-cut
    only where the span is longer than ``max_chars``."""
    local = text[start - base:end - base]
    if len(local.strip()) == 0:
        return []
    if len(local) <= max_chars:
        return [_strip(text, base, start, end)]
    spans, pos = [], 0
    for m in SENTENCE_END.finditer(local):
        spans.append(_strip(text, base, start + pos, start + m.start()))
        pos = m.end()
    spans.append(_strip(text, base, start + pos, end))
    return [(s, e) for s, e in spans if e - s > 20]


def _strip(text: str, base: int, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start - base].isspace():
        start += 1
    while end > start and text[end - base - 1].isspace():
        end -= 1
    return start, end
