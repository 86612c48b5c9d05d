"""Metadata read from the parsed text: definitions, amendment footnotes and dates.

- Definitions: a quoted term followed by ``means`` / ``includes`` / ``has the meaning``
  (``(d) "allottee" ... means``) defines that term at the deepest provision holding it; in
  a section headed Definitions, so does a clause opening with an unquoted term
  (``(7) financial creditor means``).
- Amendments: India Code footnotes such as ``Subs. by Act 14 of 2019, s. 3, for clause (a)
  (w.e.f. 25-7-2019).``, attached to the provision where the footnote's marker is printed.
- Dates: the enactment date printed before the first section (``[25th March, 2016.]``),
  commencement notes (``1st May, 2016, vide notification ...`` or ``shall come into force
  on ...``) and the ``w.e.f.`` dates of amendments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from civicsetu.ingest.dates import find_dates, parse_date
from civicsetu.types import Amendment, DatedEvent, Definition, Document, Provision

_DEFINED = re.compile(
    r"[\"“”](?P<term>[^\"“”\n]{1,80}?)[\"”“](?P<between>[^\"“”;.]{0,200}?)\b(?:means|includes|"
    r"shall\s+mean|shall\s+include|has\s+the\s+(?:same\s+)?meaning|shall\s+have\s+the\s+meaning)"
    r"\b")
_ACTIONS = [
    (re.compile(r"\bSubs(?:tituted)?\.?\b", re.I), "substituted"),
    (re.compile(r"\bIns(?:erted)?\.?\b", re.I), "inserted"),
    (re.compile(r"\bOmitted\b|\bomitted\b|\bOmit\.", re.I), "omitted"),
    (re.compile(r"\bRep(?:ealed)?\.?\b", re.I), "repealed"),
    (re.compile(r"\bAdded\b|\bAmended\b|\bRenumbered\b", re.I), "amended"),
]
_BY = re.compile(r"\bby\s+(?P<by>.{3,200}?)(?=,\s*s\s?\.\s*\d|,?\s*\(w\.\s?e\.\s?f|,\s*for\b"
                 r"|\s*\[|\s+S\.O\.|,\s*vide\b|\s+vide\b|\.\s*$|$)")
_WEF = re.compile(r"w\.\s?e\.\s?f\.\s*(?P<date>[^)]{6,40})", re.I)
_ENACTED = re.compile(r"\[\s*(?P<date>\d{1,2}\s?(?:st|nd|rd|th)?\s+[A-Z][a-z]+,?\s+\d{4})\.?\s*\]")
_COMMENCES = re.compile(r"(?:come|came)\s+into\s+force\s+on\s+(?:the\s+)?", re.I)


def extract_definitions(provisions: Sequence[Provision]) -> list[Definition]:
    """The terms the provisions define, each credited to the deepest provision defining it."""
    found: dict[str, Definition] = {}
    glossaries = {p.path for p in provisions
                  if p.parent_path is None and _GLOSSARY_TITLE.search(p.title)}
    for p in _leaves_first(provisions):
        terms = []
        for m in _DEFINED.finditer(p.text):
            if m.start() > 40 and not _is_explanation(p.text, m.start()):
                continue  # a defined term leads its clause; deeper quotes are usage
            terms.append(m.group("term"))
        if not terms and p.section in glossaries and p.parent_path is not None:
            bare = _UNQUOTED_DEFINED.match(p.text)
            words = bare.group("term").split() if bare else []
            if words and words[0] not in _NOT_A_TERM and words[-1] not in _NOT_A_TERM:
                terms.append(" ".join(words))
        for term in terms:
            key = " ".join(term.lower().split()).strip(" ,")
            if 1 < len(key) <= 60 and key not in found:
                found[key] = Definition(key, p.id)
    return list(found.values())


# A definitions section's clause that prints its term without quotes, as some India Code
# texts do (``(7) financial creditor means any person to whom a financial debt is owed``).
_GLOSSARY_TITLE = re.compile(r"\b(?:Definitions?|Interpretation)\b", re.IGNORECASE)
_UNQUOTED_DEFINED = re.compile(
    r"^\W{0,3}\(\w{1,4}\)[ \t]+(?P<term>[a-z][a-z-]*(?:[ \t][a-z-]+){0,4}?)\s+"
    r"(?:means|includes|shall\s+mean|shall\s+include)\b")
_NOT_A_TERM = frozenset({"the", "a", "an", "any", "in", "such", "this", "that", "every",
                         "where", "when", "if", "references", "reference", "words", "which", "who",
                         "whom", "shall", "may"})


def _is_explanation(text: str, offset: int) -> bool:
    """Whether the quoted term at ``offset`` is defined by an Explanation: just after its
    opening words, or leading one of its items (``(b) "company secretary" means``), which
    stay inside the provision the Explanation belongs to (ingest/statute.py)."""
    before = text[:offset]
    if "Explanation" in before[-120:]:
        return True
    return "Explanation" in before and bool(_ITEM_START.search(before))


# A paragraph opened by an item marker and at most six words before the quote
# (``(b) the word "signed" means``, ``(ii) In Exception 3, the expression "a ..." means``).
_ITEM_START = re.compile(r"(?:^|\n)[ \t]*\(\w{1,4}\)[ \t]*(?:[\w,'-]+[ \t]+){0,6}$")


def _leaves_first(provisions: Sequence[Provision]) -> list[Provision]:
    """Deepest provisions first, so a term is credited to ``s.2(d)``, not ``s.2``."""
    return sorted(provisions, key=lambda p: (-p.path.count("("), p.ordinal))


def extract_amendments(document: Document, provisions: Sequence[Provision]) -> list[Amendment]:
    out: list[Amendment] = []
    by_section = {p.path: p for p in provisions if p.parent_path is None}
    for section in by_section.values():
        family = [p for p in provisions if p.section == section.path]
        for note in section.footnotes:
            action = next((name for pattern, name in _ACTIONS if pattern.search(note.text)),
                          None)
            if action is None:
                continue
            by = _BY.search(note.text)
            by_text = by.group("by").strip() if by else ""
            if _letter_spaced(by_text):
                by_text = ""  # ``s . 1 9 . 2 . I n s``: extraction debris, not a citation
            wef = _WEF.search(note.text)
            target = _marked_provision(document, family, note.marker) or section
            out.append(Amendment(target.id, action, by_text,
                                 parse_date(wef.group("date")) if wef else None, note.text))
    return out


def _letter_spaced(text: str) -> bool:
    """True for text whose words are mostly single characters (a PDF's letter-spacing)."""
    words = text.split()
    return len(words) >= 6 and sum(len(w) == 1 for w in words) * 2 > len(words)


def _marked_provision(document: Document, family: list[Provision],
                      marker: str) -> Provision | None:
    """The deepest provision whose text carries the footnote marker ``^N``."""
    if not marker.isdigit():
        return None
    pattern = re.compile(rf"\^{marker}(?!\d)")
    best: Provision | None = None
    for p in family:
        if pattern.search(p.text) and (best is None or len(p.path) > len(best.path)):
            best = p
    return best


def extract_dates(document: Document, provisions: Sequence[Provision],
                  amendments: Sequence[Amendment]) -> list[DatedEvent]:
    events: list[DatedEvent] = []
    first = min((p.start for p in provisions), default=len(document.text))
    preamble = document.text[:first]
    enacted = _ENACTED.search(preamble)
    if enacted and (on := parse_date(enacted.group("date"))):
        events.append(DatedEvent(document.id, "enacted", on, None, enacted.group(0)))
    for p in provisions:
        if p.parent_path is None:
            for note in p.footnotes:
                head = note.text[:40]
                if "vide notification" in note.text.lower() and (on := parse_date(head)):
                    events.append(DatedEvent(document.id, "commencement", on, p.path,
                                             note.text[:300]))
        for m in _COMMENCES.finditer(p.text):
            tail = p.text[m.end():m.end() + 60]
            for on, start, _ in find_dates(tail):
                if start < 12:
                    events.append(DatedEvent(document.id, "commencement", on, p.path,
                                             " ".join(p.text[m.start():m.end() + 60].split())))
                    break
    for a in amendments:
        if a.effective:
            events.append(DatedEvent(document.id, "effective", a.effective,
                                     a.provision_id.partition("#")[2], a.note[:300]))
    return events
