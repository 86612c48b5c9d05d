"""Cross-references printed in provisions: ``section 11``, ``sub-section (1) of section
71``, ``clause (l) of sub-section (2) of section 4``, ``sections 3 to 19``, ``rule 7``,
``section 4 of the Act`` and other named Acts (``the Architects Act, 1972``).

Each printed reference becomes one ``Reference`` per target (a list or range fans out).
Targets inside the same document are written as full paths; a bare ``sub-section (2)``
or ``clause (a)`` is read relative to the provision it sits in, the way drafters mean it.
Whether a target exists is decided later, in the store, so that a reference to an Act
ingested afterwards still resolves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from civicsetu.types import DocType, Document, Provision, Reference

_PIN = r"\(\s?[0-9]{1,3}[A-Z]{0,3}\s?\)|\(\s?[a-zA-Z]{1,5}\s?\)"
_LEVEL_WORD = (r"(?:sub-clauses?|sub-clause|clauses?|sub-sections?|sub-rules?|"
               r"sub-regulations?|items?)")
_PINLIST = rf"(?:{_PIN})(?:\s*(?:,|and|or|to)\s*(?:{_PIN}))*"
_NUM = r"\d{1,3}(?:[A-Z]{1,3}|-[A-Z]{1,2})?(?![\d/])"
_UNIT_WORD = r"(?P<unit>[Ss]ections?|[Rr]ules?|[Rr]egulations?|[Aa]rticles?)"
_NUMLIST = (rf"{_NUM}(?:{_PIN})*(?:\s*(?:,|and|or|to)\s*(?:(?:section|rule|regulation|article)"
            rf"\s+)?{_NUM}(?:{_PIN})*)*")
_ACT_NAME = (r"(?:the\s+)?(?P<name>[A-Z][\w'’.&-]*(?:\s+(?:[A-Z(][\w'’().&-]*|of|and|the|for|"
             r"in|on|to|&)){0,14}?\s+(?:Act|Code|Sanhita|Adhiniyam)|Code\s+of(?:\s+[A-Z][a-z]+){1,4})"
             r"(?:,?\s*(?P<year>1[6-9]\d\d|"
             r"20\d\d))(?:\s*\(\d{1,3}\s+of\s+\d{4}\))?")
_OWNER = (r"(?:\s+of\s+(?P<owner>this\s+(?:Act|Code)|the\s+said\s+(?:Act|Code)|the\s+(?:Act|Code)"
          rf"(?!\s*,?\s*\d)|{_ACT_NAME}))?")
REFERENCE = re.compile(
    rf"(?P<levels>(?:(?:the\s+proviso\s+to\s+)?{_LEVEL_WORD}\s+{_PINLIST}\s+of\s+)*)"
    rf"(?:{_UNIT_WORD}\s+(?P<nums>{_NUMLIST})"
    rf"|(?:the\s+proviso\s+to\s+)?(?P<bare_word>{_LEVEL_WORD})\s+(?P<bare>{_PINLIST}))"
    + _OWNER,
)
NAMED_ACT = re.compile(_ACT_NAME)
SCHEDULE = re.compile(r"\b(?:the\s+)?(?P<ord>First|Second|Third|Fourth|Fifth|Sixth|Seventh|"
                      r"Eighth|Ninth|Tenth|Eleventh|Twelfth)\s+Schedule\b")
_ORDINAL = {w: str(i) for i, w in enumerate(
    ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth",
     "Tenth", "Eleventh", "Twelfth"), start=1)}
_PIN_TOKEN = re.compile(r"\(\s?([0-9A-Za-z]{1,5})\s?\)")
_LIST_ITEM = re.compile(rf"({_NUM})((?:{_PIN})*)|\bto\b")
_DERIVING = re.compile(r"(?:under|referred\s+to\s+in|specified\s+in|required\s+by|in\s+accordance"
                       r"\s+with|for\s+the\s+purposes?\s+of|mentioned\s+in|provided\s+in|"
                       r"prescribed\s+in|made\s+under)\s*$", re.IGNORECASE)
# Between a bare level and a full reference: ``sub-section (1) or clause (a) of ... section 7``
_DISTRIBUTES = re.compile(r"\s*(?:,|or|and)\s*(?:under\s+)?")
_UNIT_PREFIX = {"section": "s.", "rule": "r.", "regulation": "reg.", "article": "art."}
_OWN_UNIT = {DocType.ACT: "s.", DocType.RULES: "r.", DocType.REGULATIONS: "reg.",
             DocType.CONTRACT: "cl.", DocType.OTHER: "s."}
MAX_RANGE = 60


@dataclass(frozen=True, slots=True)
class _Located:
    start: int
    end: int
    text: str
    paths: list[str]
    target_doc: str | None
    target_name: str


def extract_references(document: Document, provisions: Sequence[Provision]) -> list[Reference]:
    """Every reference printed inside ``provisions`` (footnotes and preambles excluded)."""
    known = {p.path for p in provisions}
    roots = [p for p in provisions if p.parent_path is None]
    refs: list[Reference] = []
    for root in roots:
        family = [p for p in provisions if p.section == root.path] or [root]
        refs.extend(_references_in(document, root, family, known))
    return refs


def _references_in(document: Document, root: Provision, family: list[Provision],
                   known: set[str]) -> Iterable[Reference]:
    text = document.text
    matches = list(REFERENCE.finditer(text, root.start, root.end))
    located: list[_Located] = []
    taken: list[tuple[int, int]] = []
    for i, m in enumerate(matches):
        src = _deepest(family, m.start())
        if m.group("bare") is not None and i + 1 < len(matches):
            following = matches[i + 1]
            gap = text[m.end():following.start()]
            if following.group("nums") and _DISTRIBUTES.fullmatch(gap):
                located.append(_located(document, src, m, known, borrow=following))
                taken.append((m.start(), m.end()))
                continue
        located.append(_located(document, src, m, known))
        taken.append((m.start(), m.end()))
    for m in NAMED_ACT.finditer(text, root.start, root.end):
        if any(s <= m.start() < e or s < m.end() <= e for s, e in taken):
            continue
        name = _act_name(m)
        if name.lower() == _act_name_of(document).lower():
            continue
        located.append(_Located(m.start(), m.end(), m.group(0), [""], None, name))
    for m in SCHEDULE.finditer(text, root.start, root.end):
        located.append(_Located(m.start(), m.end(), m.group(0),
                                [f"sch.{_ORDINAL[m.group('ord')]}"], document.id, ""))
    for loc in sorted(located, key=lambda x: x.start):
        src = _deepest(family, loc.start)
        derived = bool(document.parent_id and loc.target_doc == document.parent_id
                       and _DERIVING.search(text, max(0, loc.start - 40), loc.start))
        for path in loc.paths:
            if loc.target_doc == document.id and path and (
                    path == src.path or src.path.startswith(path + "(")):
                continue  # a provision naming its own ancestor is not a cross-reference
            yield Reference(src.id, loc.start, loc.end, " ".join(loc.text.split()), path,
                            loc.target_doc, loc.target_name, derived)


def _located(document: Document, src: Provision, m: re.Match[str], known: set[str],
             borrow: re.Match[str] | None = None) -> _Located:
    owner_match = borrow if borrow is not None else m
    target_doc, target_name = _owner(document, owner_match, borrow or m)
    levels = _level_lists(m.group("levels"))
    if m.group("nums") is not None:
        prefix = _UNIT_PREFIX[m.group("unit").lower().rstrip("s")]
        bases = [prefix + n for n in _unit_numbers(m.group("nums"))]
        paths = [base + suffix for base in bases for suffix in _suffixes(levels)]
        if target_doc == document.id and prefix != _OWN_UNIT[document.doc_type]:
            target_doc, target_name = (document.parent_id, "") if document.parent_id else (
                None, "the Act" if prefix == "s." else "")
    else:
        bare = [_pins(m.group("bare"))]
        if borrow is not None:
            prefix = _UNIT_PREFIX[borrow.group("unit").lower().rstrip("s")]
            bases = [prefix + n for n in _unit_numbers(borrow.group("nums"))]
            paths = [b + s for b in bases for s in _suffixes(levels + bare)]
        else:
            paths = [_relative(src, suffix, known, m.group("bare_word"))
                     for suffix in _suffixes(levels + bare)]
    return _Located(m.start(), m.end(), m.group(0), paths, target_doc, target_name)


def _owner(document: Document, m: re.Match[str], unit_match: re.Match[str]) -> tuple[
        str | None, str]:
    owner = m.group("owner")
    if owner is None or owner.startswith("this"):
        return document.id, ""
    if re.fullmatch(r"the\s+(?:said\s+)?(?:Act|Code)", owner):
        if document.parent_id:
            return document.parent_id, ""
        if owner.endswith("Code") and "code" not in document.title.lower():
            return None, "the Code"  # an Act's "the Code" is another enactment
        return document.id, ""
    return None, _act_name(m)


def _act_name(m: re.Match[str]) -> str:
    name = " ".join(m.group("name").split())
    year = m.group("year")
    return f"{name}, {year}" if year else name


def _act_name_of(document: Document) -> str:
    return re.sub(r"^the\s+", "", document.title, flags=re.IGNORECASE).rstrip(".")


def _level_lists(levels: str) -> list[list[str]]:
    """``clause (l) of sub-section (2) of`` -> ``[["l"], ["2"]]`` (innermost first)."""
    if not levels:
        return []
    parts = re.split(r"\s+of\s+", levels.strip())
    return [_pins(part) for part in parts if _PIN_TOKEN.search(part)]


def _pins(text: str) -> list[str]:
    return [t for t in _PIN_TOKEN.findall(text)]


def _suffixes(levels: list[list[str]]) -> list[str]:
    """Innermost-first lists of pins -> every path suffix they name, outermost first."""
    suffixes = [""]
    for pins in reversed(levels):
        suffixes = [s + f"({p})" for s in suffixes for p in pins]
    return suffixes


def _unit_numbers(nums: str) -> list[str]:
    """``12, 14, 18 and section 19`` -> four numbers; ``3 to 19`` -> the range."""
    out: list[str] = []
    pending_range = False
    for m in _LIST_ITEM.finditer(nums):
        if m.group(0) == "to":
            pending_range = True
            continue
        number = m.group(1) + "".join(f"({p})" for p in _pins(m.group(2) or ""))
        if pending_range and out and out[-1].isdigit() and m.group(1).isdigit():
            low, high = int(out[-1]), int(m.group(1))
            if 0 < high - low <= MAX_RANGE:
                out.extend(str(n) for n in range(low + 1, high))
        out.append(number)
        pending_range = False
    return out


def _relative(src: Provision, suffix: str, known: set[str], word: str) -> str:
    """A bare ``sub-section (2)`` / ``clause (a)`` means one in the provision's own family:
    try the nearest ancestor first, then widen to the section."""
    ancestors = []
    path = src.path
    while True:
        ancestors.append(path)
        if "(" not in path:
            break
        path = path[: path.rindex("(")]
    if word.startswith("sub-section") or word.startswith("sub-rule") \
            or word.startswith("sub-regulation"):
        return ancestors[-1] + suffix
    for ancestor in ancestors[1:] + ancestors[:1]:
        if ancestor + suffix in known:
            return ancestor + suffix
    return ancestors[-1] + suffix


def _deepest(family: list[Provision], offset: int) -> Provision:
    best = family[0]
    for p in family:
        if p.start <= offset < p.end and len(p.path) >= len(best.path):
            best = p
    return best
