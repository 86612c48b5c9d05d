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
    ``max_chars`` is the longest list quoted whole."""
    p_end = law_end(p)
    own_end = p_end
    for q in family:
        if q.start >= p_end:
            break
        if q.parent_path == p.path and (q.start > p.start if through_opening
                                        else q.start >= p.start):
            own_end = q.start
            break
    start, end = (p.start, own_end) if within is None else \
        (max(p.start, within[0]), min(own_end, within[1]))
    if own_end < p_end and opens_list(p.text[:own_end - p.start]) and \
            p_end - start <= max_chars:
        # "... including—" is finished by its clauses: quote them with it.
        end = p_end
    return start, end


def opens_list(text: str) -> bool:
    """Does this own text end by introducing its clauses ("namely:—", "including—")?"""
    return text.rstrip().endswith(("—", ":", ":-", "-", "–"))


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
