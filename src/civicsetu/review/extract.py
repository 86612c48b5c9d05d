"""Values pulled from evidence for cross-contract comparison, and a contract's metadata
(parties, effective date, term, governing law, signature block) from its text."""

from __future__ import annotations

import re
from collections.abc import Callable

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "thirty": 30,
                 "sixty": 60, "ninety": 90, "forty-five": 45, "fourteen": 14, "twenty": 20}
_QTY = r"(?P<n>\d+|[a-z]+(?:-[a-z]+)?)(?:\s*\(\d+\))?"
_PLACE = r"(?P<place>[A-Z][A-Za-z]+(?:[ ,]+(?:and\s+)?[A-Z][A-Za-z]+){0,4})"


def number(word: str) -> int | None:
    """``30`` or ``thirty`` -> 30."""
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word.lower())


def governing_law(text: str) -> str | None:
    """``laws of the State of New York`` -> ``New York``."""
    m = re.search(r"laws?\s+of\s+(?:the\s+)?(?:State\s+of\s+|Republic\s+of\s+|Commonwealth\s+"
                  r"of\s+|Province\s+of\s+)?" + _PLACE, text)
    return _clean_place(m.group("place")) if m else None


def forum(text: str) -> str | None:
    """``courts of Mumbai`` / ``arbitration in Singapore`` -> the place."""
    m = re.search(r"(?:courts?|tribunals?|arbitration)\b[^.;]{0,40}?\b(?:of|in|at)\s+(?:the\s+)?"
                  r"(?:State\s+of\s+|City\s+of\s+)?" + _PLACE, text)
    return _clean_place(m.group("place")) if m else None


def _clean_place(place: str) -> str:
    words = re.split(r"[ ,]+", place)
    stop = {"Without", "And", "Excluding", "Including", "Shall", "The", "In", "Any", "Each"}
    kept = []
    for w in words:
        if w in stop:
            break
        kept.append(w)
    return " ".join(kept) or place


def notice_period(text: str) -> str | None:
    """``thirty (30) days' written notice`` -> ``30 days``."""
    m = re.search(_QTY + r"\s+(?P<unit>days?|months?|business days)['’]?\s+(?:prior\s+|advance\s+)?"
                  r"(?:written\s+)?notice", text, re.I)
    if not m:
        m = re.search(r"notice\s+of\s+(?:at\s+least\s+)?" + _QTY + r"\s+(?P<unit>days?|months?)",
                      text, re.I)
    return _quantity(m)


def confidentiality_term(text: str) -> str | None:
    """``for five (5) years`` -> ``5 years``; ``perpetual``/``indefinitely`` kept."""
    if re.search(r"perpetu|indefinite", text, re.I):
        return "perpetual"
    m = re.search(_QTY + r"\s+(?P<unit>years?|months?)", text, re.I)
    return _quantity(m)


def payment_days(text: str) -> str | None:
    """``within thirty (30) days`` -> ``30 days``."""
    m = re.search(r"within\s+" + _QTY + r"\s+(?P<unit>days?)", text, re.I)
    return _quantity(m)


def uptime(text: str) -> str | None:
    """``99.9%`` -> ``99.9%``."""
    m = re.search(r"(\d{2,3}(?:\.\d+)?)\s?%", text)
    return f"{m.group(1)}%" if m else None


def liability_cap(text: str) -> str | None:
    """``shall not exceed the fees paid in the twelve months`` -> that phrase."""
    m = re.search(r"(?:shall\s+not\s+exceed|not\s+exceed|limited\s+to|capped\s+at)\s+([^.;]{3,90})",
                  text, re.I)
    return " ".join(m.group(1).split()) if m else None


def _quantity(m: re.Match[str] | None) -> str | None:
    if m is None:
        return None
    n = number(m.group("n"))
    if n is None:
        return None
    unit = m.group("unit").lower().rstrip("s")
    return f"{n} {unit}{'' if n == 1 else 's'}"


EXTRACTORS: dict[str, Callable[[str], str | None]] = {
    "governing_law": governing_law, "forum": forum, "notice_period": notice_period,
    "confidentiality_term": confidentiality_term, "payment_days": payment_days,
    "uptime": uptime, "liability_cap": liability_cap,
}

_DEFINITION = re.compile(r"[\"“']([A-Z][\w\- ]{1,40})[\"”']\s+(?:shall\s+)?(?:means?|refers?\s+to)"
                         r"\s+([^;]{5,300}?)(?:[.;]\s|$)")


def definitions(text: str) -> dict[str, tuple[str, int, int]]:
    """Defined terms: term -> (definition sentence, start, end) for ``"X" means ...``."""
    out: dict[str, tuple[str, int, int]] = {}
    for m in _DEFINITION.finditer(text):
        out.setdefault(m.group(1).strip(), (m.group(0).strip(), m.start(), m.end()))
    return out


_DATE = (r"(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?[A-Z][a-z]+,?\s+\d{4}"
         r"|[A-Z][a-z]+\s+\d{1,2},\s+\d{4}|\d{4}-\d{2}-\d{2})")


def metadata(text: str) -> dict[str, str]:
    """Parties, effective date, term, governing law and signatories, where printed."""
    out: dict[str, str] = {}
    head = text[:4000]
    m = re.search(r"\b(?:between|by and between|among)\b[:\s]+(.{5,300}?)(?:\.\s*\n|\.\s+(?=[A-Z]"
                  r"[a-z])|\n\s*\n|\bWHEREAS\b|\bRECITALS?\b|\bBACKGROUND\b)", head, re.S)
    if m:
        out["parties"] = " ".join(m.group(1).split())
    m = re.search(r"(?:effective\s+(?:as\s+of|date|from|on)[^.\n]{0,30}?|dated\s+(?:as\s+of\s+)?)"
                  r"(" + _DATE + ")", text, re.I)
    if m:
        out["effective_date"] = m.group(1)
    m = re.search(r"(?:term\s+of|period\s+of|remain\s+in\s+(?:full\s+)?(?:force|effect)\s+for)"
                  r"\s+(?:this\s+Agreement\s+(?:is|shall\s+be)\s+)?" + _QTY
                  + r"\s+(?P<unit>years?|months?)", text, re.I)
    term = _quantity(m)
    if term:
        out["term"] = term
    law = governing_law(" ".join(re.findall(r"[^.]*govern[^.]*\.", text)))
    if law:
        out["governing_law"] = law
    sig = re.search(r"(IN WITNESS WHEREOF|SIGNED by|Signed for and on behalf|Signatures?:)",
                    text, re.I)
    if sig:
        block = text[sig.start():sig.start() + 600]
        names = re.findall(r"(?:Name|By)\s*:\s*([^\n_]{2,60})", block)
        out["signatories"] = "; ".join(n.strip() for n in names if n.strip()) or "block present"
    return out
