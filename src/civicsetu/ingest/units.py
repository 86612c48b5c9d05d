"""Find the top-level units of a document: sections, rules, regulations, articles,
contract clauses, schedules and forms, in every numbering style we have met.

Each style is one regular expression that marks where a unit's heading starts, its
number and title, and where its body (the span the provision covers) begins. Styles:

- Markdown headings ``## Section 18 - Title`` (the India Code Markdown corpus);
- Act and rule text ``18. Return of amount.—(1) If ...`` (em dash, en dash or ``.-``);
- ``5.`` alone on a line, the title on the next (newline-dot-newline);
- ``Rule 5 - Title`` / ``Regulation 5. Title``;
- ``3-(1)`` then the title line, and ``3-`` then the title line (UP rules);
- ``ARTICLE IV`` / ``Article 21``; contract clauses ``1.``, ``1.1``, ``Section 5.2``;
- ``THE FIRST SCHEDULE`` and ``FORM 'A'`` (appendices after the rules).

Rule numbers are capped at two digits so years (``2016.``) never become ids, and only
the longest increasing run of numbers is kept, so a numbered list inside a rule or a
table of contents cannot masquerade as units.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from civicsetu.types import DocType, ProvisionKind


@dataclass(frozen=True, slots=True)
class Unit:
    path: str
    kind: ProvisionKind
    title: str
    start: int
    body_start: int
    style: str


_TITLE = r"(?P<title>[A-Z\[\^\u201c\"'][^\n]{0,250}?)"
_DASH = r"(?:[ \t]*[.,:]?[ \t]*[—–]|\.[ \t]?-{1,2}(?![a-z]))[ \t]*"
MARKDOWN = re.compile(
    r"^#{2,3}[ \t]+(?P<unit>Section|Rule|Regulation|Article|Clause)[ \t]+"
    r"(?P<num>\d{1,4}(?:-?[A-Z]{1,3})?(?:\.\d+)*)[ \t]*(?:[-–—.:][ \t]*(?P<title>.*?))?[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
# ``18. Title.—(1) ...``: Acts allow three digits and letter suffixes (``18A``).
# Text read from a PDF prints an inserted section behind its footnote's bracket
# (``4 [ 80C. Deduction ...``), and a heading too long for one line wraps onto the next
# (``80-IB. Deduction in respect of profits ... other than`` / ``infrastructure
# development undertakings. — (1)``).
_INSERTED = r"(?:\d{1,2}[ \t]?\[[ \t]?)?"
_WRAPPED_TITLE = r"(?P<wrapped>[A-Z\[\^\u201c\"'][^\n]{20,250}\n[ \t]*[a-z][^\n]{0,200}?)"
ACT_DASH = re.compile(
    r"^[ \t]*" + _INSERTED + r"(?P<num>\d{1,3}(?:[A-Z]{1,4}|-[A-Z]{1,3})?)\.[ \t]+(?:"
    + _TITLE + _DASH + "|" + _WRAPPED_TITLE + _DASH + ")", re.M)
RULE_DASH = re.compile(r"^[ \t]*(?P<num>\d{1,2}[A-Z]?)\.[ \t]+" + _TITLE + _DASH, re.M)
RULE_NEWLINE_DOT = re.compile(
    r"^[ \t]*(?P<num>\d{1,2}[A-Z]?)\.[ \t]*\n(?:[ \t]*\n)?[ \t]*(?P<title>[A-Z][^\n]{2,200}?)"
    r"[ \t]*\n",
    re.M)
RULE_WORD = re.compile(
    r"^[ \t]*(?P<unit>Rule|RULE|Regulation|REGULATION)[ \t]+(?P<num>\d{1,2}[A-Z]?)[ \t]*"
    r"[.:\-–—]?[ \t]*(?P<title>[^\n]*?)(?:" + _DASH + r"|[ \t]*\n)", re.M)
RULE_DASH_PAREN = re.compile(
    r"^[ \t]*(?P<num>\d{1,2}[A-Z]?)-(?=\(1\))(?:\(1\)[ \t]*\n(?:[ \t]*\n)?[ \t]*"
    r"(?P<title>[^\n]{2,200}))?",
    re.M)
RULE_DASH_NEWLINE = re.compile(
    r"^[ \t]*(?P<num>\d{1,2}[A-Z]?)-(?!\()[ \t]*\n(?:[ \t]*\n)?[ \t]*(?P<title>[^\n]{2,200}?)"
    r"[ \t]*\n", re.M)
ARTICLE = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?(?:Article|ARTICLE)[ \t]+(?P<num>\d{1,3}[A-Z]?|[IVXLC]{1,7})\b"
    r"[ \t]*[.:\-–—]?[ \t]*(?P<title>[^\n]*)", re.M)
CLAUSE_WORD = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?(?:Section|SECTION|Clause|CLAUSE)[ \t]+"
    r"(?P<num>\d{1,2}(?:\.\d{1,2}){0,3})\.?[ \t]+(?P<title>[^\n]*)", re.M)
CLAUSE_DECIMAL = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?(?P<num>\d{1,2}(?:\.\d{1,2}){1,3})\.?[ \t]+(?P<title>\S[^\n]*)",
    re.M)
CLAUSE_NUMBER = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?(?P<num>\d{1,2})\.[ \t]+(?P<title>[A-Z\u201c\"][^\n]*)", re.M)
SCHEDULE = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?(?:THE[ \t]+)?(?P<num>FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH|"
    r"SEVENTH|EIGHTH|NINTH|TENTH|ELEVENTH|TWELFTH)?[ \t]*SCHEDULE(?:[ \t]+(?P<roman>[IVX]{1,5}"
    r"|\d{1,2}))?\b[ \t]*(?P<title>[^\n]{0,120})$", re.M)
FORM = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?FORM[ \t]*[-–—]?[ \t]*[\'‘\"“]?(?P<num>[A-Z0-9]{1,3})[\'’\"”]?"
    r"[ \t]*(?:[.:\-–—][ \t]*(?P<title>[^\n]{0,100}))?$", re.M)

_ORDINALS = {w: i for i, w in enumerate(
    ("FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH",
     "TENTH", "ELEVENTH", "TWELFTH"), start=1)}
_PREFIX = {DocType.ACT: ("s.", ProvisionKind.SECTION),
           DocType.RULES: ("r.", ProvisionKind.RULE),
           DocType.REGULATIONS: ("reg.", ProvisionKind.REGULATION),
           DocType.CONTRACT: ("cl.", ProvisionKind.SECTION),
           DocType.OTHER: ("s.", ProvisionKind.SECTION)}
_MARKDOWN_PREFIX = {"section": ("s.", ProvisionKind.SECTION),
                    "rule": ("r.", ProvisionKind.RULE),
                    "regulation": ("reg.", ProvisionKind.REGULATION),
                    "article": ("art.", ProvisionKind.ARTICLE),
                    "clause": ("cl.", ProvisionKind.SECTION)}

Finder = Callable[[str, DocType], list[Unit]]


def find_units(text: str, doc_type: DocType) -> list[Unit]:
    """The document's units in order, by the first family of styles that finds any."""
    markdown = _markdown_units(text)
    if markdown:
        return markdown
    families: dict[DocType, list[Finder]] = {
        DocType.ACT: [_act_units, _rule_units],
        DocType.RULES: [_rule_units, _act_units],
        DocType.REGULATIONS: [_rule_units, _act_units],
        DocType.CONTRACT: [_contract_units],
        DocType.OTHER: [_act_units, _rule_units, _contract_units],
    }
    for finder in families[doc_type]:
        units = _without_overlaps(finder(text, doc_type))
        if len(units) >= 2 or (units and doc_type is not DocType.OTHER):
            return _without_overlaps(_with_appendices(text, units))
    return []


def _without_overlaps(units: list[Unit]) -> list[Unit]:
    """Drop a unit whose heading starts inside the previous unit's heading (a title line
    that itself looks like ``7. Fees.—``)."""
    kept: list[Unit] = []
    for unit in units:
        if kept and unit.start < kept[-1].body_start:
            continue
        kept.append(unit)
    return kept


def _markdown_units(text: str) -> list[Unit]:
    units = []
    for m in MARKDOWN.finditer(text):
        prefix, kind = _MARKDOWN_PREFIX[m.group("unit").lower()]
        units.append(Unit(prefix + m.group("num"), kind, _clean_title(m.group("title")),
                          m.start(), m.end(), "markdown"))
    return units


# An amending Act quotes the section it inserts; that heading is not a unit of this text.
_QUOTED_AFTER = re.compile(
    r"(?:(?:following|new)\s+(?:sections?|rules?|clauses?)\b[^.]{0,200}?"
    r"|(?:inserted|substituted),?\s+)namely\s*[:;,]?\s*[-—–]*\W*$", re.IGNORECASE)


def _act_units(text: str, doc_type: DocType) -> list[Unit]:
    found = [_unit(m, "s.", ProvisionKind.SECTION, "act-dash") for m in ACT_DASH.finditer(text)
             if not _QUOTED_AFTER.search(text, max(0, m.start() - 300), m.start())]
    return _increasing(found)


def _rule_units(text: str, doc_type: DocType) -> list[Unit]:
    prefix, kind = _PREFIX[doc_type]
    if doc_type not in (DocType.RULES, DocType.REGULATIONS):
        prefix, kind = "r.", ProvisionKind.RULE
    found: list[Unit] = []
    for style, pattern in (("newline-dot", RULE_NEWLINE_DOT), ("dash", RULE_DASH),
                           ("rule-word", RULE_WORD), ("dash-paren", RULE_DASH_PAREN),
                           ("dash-newline", RULE_DASH_NEWLINE)):
        for m in pattern.finditer(text):
            unit_prefix = prefix
            if style == "rule-word":
                unit_prefix = "reg." if m.group("unit").lower() == "regulation" else "r."
            if style == "dash-paren":
                found.append(Unit(unit_prefix + m.group("num"), kind,
                                  _clean_title(m.group("title")), m.start(),
                                  m.start() + len(m.group(0).split("-", 1)[0]) + 1, style))
            else:
                found.append(_unit(m, unit_prefix, kind, style))
    return _increasing(_first_per_position(found))


def _contract_units(text: str, doc_type: DocType) -> list[Unit]:
    found: list[Unit] = []
    for m in ARTICLE.finditer(text):
        number = _arabic(m.group("num"))
        found.append(Unit(f"art.{number}", ProvisionKind.ARTICLE,
                          _clean_title(m.group("title")), m.start(), m.end(), "article"))
    clauses: list[Unit] = []
    for style, pattern in (("clause-word", CLAUSE_WORD), ("decimal", CLAUSE_DECIMAL),
                           ("number", CLAUSE_NUMBER)):
        for m in pattern.finditer(text):
            title, body_start = _clause_title(m)
            clauses.append(Unit("cl." + m.group("num"), ProvisionKind.SECTION, title,
                                m.start(), body_start, style))
    units = _increasing(_first_per_position(clauses))
    articles = [a for a in found if not any(c.start == a.start for c in units)]
    numbered = sorted(_increasing(articles) + units, key=lambda u: u.start)
    if not numbered:
        return _headed_paragraphs(text)
    return numbered + _contract_schedules(text, numbered[-1].body_start)


# Contract appendices in any case: ``Schedule 2 Fees``, ``Annex A``, ``Exhibit B``.
CONTRACT_SCHEDULE = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]+)?(?:SCHEDULE|Schedule|ANNEX|Annex|EXHIBIT|Exhibit|APPENDIX|"
    r"Appendix)[ \t]+(?P<num>\d{1,2}|[A-Z]|[IVX]{1,4})\b[ \t]*[.:\-–—]?[ \t]*"
    r"(?P<title>[^\n]{0,120})$", re.M)
# An unnumbered heading: a short line without final punctuation after a blank line, with
# a body line under it.
HEADED_PARAGRAPH = re.compile(
    r"(?:\A|\n[ \t]*\n)[ \t]*(?P<title>[A-Z][A-Za-z&'’,\- ]{1,58}[A-Za-z])[ \t]*\n"
    r"(?=[ \t]*\S[^\n]{39,})")


def _contract_schedules(text: str, after: int) -> list[Unit]:
    out: list[Unit] = []
    for m in CONTRACT_SCHEDULE.finditer(text, after):
        label = m.group("num").lower()
        number = _arabic(label.upper()) if re.fullmatch(r"[ivx]+", label) and len(label) > 1 \
            else label
        out.append(Unit(f"sch.{number}", ProvisionKind.SCHEDULE,
                        _clean_title(m.group("title")), m.start(), m.end(), "schedule"))
    return out


def _headed_paragraphs(text: str) -> list[Unit]:
    """Units for a contract with no numbering: each headed paragraph is ``p.N``."""
    out: list[Unit] = []
    for m in HEADED_PARAGRAPH.finditer(text):
        if len(m.group("title").split()) > 8:
            continue
        out.append(Unit(f"p.{len(out) + 1}", ProvisionKind.PARAGRAPH,
                        _clean_title(m.group("title")), m.start("title"), m.end(), "heading"))
    return out if len(out) >= 2 else []


def _clause_title(m: re.Match[str]) -> tuple[str, int]:
    """A short heading line is the clause title; otherwise the words up to the first full
    stop are, and the body keeps the whole sentence."""
    line = m.group("title").strip()
    body_start = m.start("title")
    if len(line) <= 80 and not re.search(r"[.;:]\s+\S", line):
        return _clean_title(line), body_start
    head = re.match(r"([^.;:]{2,60})[.:]\s", line)
    return (_clean_title(head.group(1)) if head else ""), body_start


def _with_appendices(text: str, units: list[Unit]) -> list[Unit]:
    """Schedules and forms printed after the last unit end it and become units too."""
    if not units:
        return units
    tail_from = units[-1].body_start
    extra: list[Unit] = []
    for m in SCHEDULE.finditer(text, tail_from):
        number = m.group("num") or m.group("roman") or ""
        label = str(_ORDINALS[number]) if number in _ORDINALS else _arabic(number)
        path = f"sch.{label}" if label else "sch"
        extra.append(Unit(path, ProvisionKind.SCHEDULE, _clean_title(m.group("title")),
                          m.start(), m.end(), "schedule"))
    for m in FORM.finditer(text, tail_from):
        extra.append(Unit(f"form.{m.group('num')}", ProvisionKind.FORM,
                          _clean_title(m.group("title")), m.start(), m.end(), "form"))
    seen = {u.path for u in units}
    kept = []
    for unit in sorted(extra, key=lambda u: u.start):
        if unit.path not in seen:
            seen.add(unit.path)
            kept.append(unit)
    return units + kept


def _unit(m: re.Match[str], prefix: str, kind: ProvisionKind, style: str) -> Unit:
    title = m.group("title") or " ".join((m.groupdict().get("wrapped") or "").split())
    return Unit(prefix + m.group("num"), kind, _clean_title(title), m.start(), m.end(), style)


def _clean_title(title: str | None) -> str:
    return (title or "").strip().strip("#").strip().rstrip(".,:;—–-").strip()


def _first_per_position(units: Iterable[Unit]) -> list[Unit]:
    """Where two styles match the same heading, keep the first style's reading."""
    by_line: dict[int, Unit] = {}
    for unit in units:
        by_line.setdefault(unit.start, unit)
    return sorted(by_line.values(), key=lambda u: u.start)


def _sort_key(path: str) -> tuple[tuple[int, str], ...]:
    """A unit number's place in the Act's order, piece by dotted piece. Inserted numbers
    sort letter by letter as India Code numbers them: 80C < 80CC < 80CCA < 80D, and
    80-I < 80-IA < 80-IB < 80J."""
    number = path.split(".", 1)[1]
    parts = []
    for piece in number.split("."):
        m = re.match(r"(\d+)-?([A-Z]*)", piece)
        if not m:
            return ((0, ""),)
        parts.append((int(m.group(1)), m.group(2)))
    return tuple(parts)


def _increasing(units: list[Unit]) -> list[Unit]:
    """The longest run of units whose numbers strictly increase in document order.

    Among runs of equal length the one with the smallest jumps wins, so in ``7. 1. 8. 9.``
    the stray ``1.`` of a list goes, not the rule ``7.`` before it.
    """
    n = len(units)
    if n < 2:
        return units
    keys = [_sort_key(u.path) for u in units]
    lead = [k[0][0] for k in keys]
    best: list[tuple[int, int]] = [(1, 0)] * n  # (length, -total jump)
    previous = [-1] * n
    for i in range(n):
        for j in range(i):
            if keys[j] < keys[i]:
                jump = abs(lead[i] - lead[j] - 1)
                candidate = (best[j][0] + 1, best[j][1] - jump)
                if candidate > best[i]:
                    best[i], previous[i] = candidate, j
    i = max(range(n), key=lambda k: best[k])
    out = []
    while i >= 0:
        out.append(units[i])
        i = previous[i]
    return out[::-1]


_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _arabic(number: str) -> str:
    if number.isdigit() or not number or any(ch not in _ROMAN_VALUES for ch in number):
        return number
    total, prev = 0, 0
    for ch in reversed(number):
        value = _ROMAN_VALUES[ch]
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return str(total)
