"""Numbers as Indian statutes write them, reduced to one form so they can be compared.

The Acts spell quantities out ("sixty days", "ten lakh rupees", "two hundred and fifty
rupees", "ten per cent."), people and LLMs write digits ("60 days", "Rs. 10,00,000",
"₹250", "10%"), and amounts come grouped the Indian way (10,00,000) or the international
way (1,000,000). ``canonical`` rewrites every number in a text as plain digits, currency as
"N rupees" and percentages as "N per cent", so "sixty days" and "60 days" are the same
string; ``values`` lists the numbers a text states. The answer validator and the key-fact
matcher both use them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"thousand": 1_000, "lakh": 100_000, "lakhs": 100_000, "crore": 10_000_000,
           "crores": 10_000_000, "million": 1_000_000, "billion": 1_000_000_000}
_NUMBER_WORD = "|".join(sorted([*_UNITS, "hundred", *_SCALES], key=len, reverse=True))
# A run of number words: "two hundred and fifty", "forty-five", "one crore ten lakh".
_WORDS = re.compile(
    rf"(?<!\d\s)(?<!\d)\b(?:{_NUMBER_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_NUMBER_WORD}))*\b",
    re.IGNORECASE)
# Digits, grouped either way, with an optional decimal part and scale word ("1.5 crore").
_DIGITS = re.compile(
    r"(?<![\w.])(\d{1,3}(?:,\d{2,3})+|\d+)(\.\d+)?(?:\s*(lakhs?|crores?|thousand|million|"
    r"billion)\b)?", re.IGNORECASE)
_CURRENCY = re.compile(r"(?:₹|\bRs\.?|\bINR)\s*(\d+(?:\.\d+)?)(?!\s*rupees)", re.IGNORECASE)
_RUPEES_FIRST = re.compile(r"\brupees\s+(\d+(?:\.\d+)?)(?![\d.])", re.IGNORECASE)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|per\s*cent\.?|percent\b)", re.IGNORECASE)
_CANON_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")


def words_to_number(text: str) -> int | None:
    """``"two hundred and fifty"`` -> 250, ``"ten lakh"`` -> 1000000; None if not a number."""
    tokens = [t for t in re.split(r"[\s-]+", text.lower()) if t and t != "and"]
    if not tokens:
        return None
    total, current, seen = 0, 0, False
    for t in tokens:
        if t in _UNITS:
            current += _UNITS[t]
        elif t == "hundred":
            current = max(current, 1) * 100
        elif t in _SCALES:
            total += max(current, 1) * _SCALES[t]
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def canonical(text: str) -> str:
    """``text`` with every number as plain digits, currency as "N rupees", percentages as
    "N per cent" (everything else unchanged)."""
    out = _WORDS.sub(lambda m: _word_value(m), text)
    out = _DIGITS.sub(_digit_value, out)
    out = _CURRENCY.sub(lambda m: f"{m.group(1)} rupees", out)
    out = _RUPEES_FIRST.sub(lambda m: f"{m.group(1)} rupees", out)
    return _PERCENT.sub(lambda m: f"{m.group(1)} per cent", out)


def values(text: str) -> set[str]:
    """The numbers ``text`` states, in canonical form ({"60", "1000000", ...})."""
    return set(_CANON_NUMBER.findall(canonical(text)))


def _word_value(m: re.Match[str]) -> str:
    value = words_to_number(m.group(0))
    return str(value) if value is not None else m.group(0)


def _digit_value(m: re.Match[str]) -> str:
    try:
        number = Decimal(m.group(1).replace(",", "") + (m.group(2) or ""))
    except InvalidOperation:
        return m.group(0)
    scale = (m.group(3) or "").lower()
    if scale:
        number *= _SCALES[scale]
    return _plain(number)


# A rupee threshold as the Acts write it, in canonical form ("exceeds 10000000 rupees, but
# does not exceed 100000000 rupees", "not less than 500 rupees", "up to 2000 rupees"). The
# bound's side is read from the words before the amount: a "does not exceed" / "up to" /
# "not more than" caps it (inclusive), an "exceeds" / "more than" opens above it
# (exclusive), a "not less than" / "at least" opens at it (inclusive).
_BOUND = re.compile(
    r"\b(?P<side>(?:does|do|shall|did)\s+not\s+exceed|not\s+exceeding|up\s*to|not\s+more\s+than|"
    r"less\s+than|below|exceeds?|exceeding|more\s+than|above|not\s+less\s+than|at\s+least)"
    r"\s+(?P<value>\d+(?:\.\d+)?)\s+rupees\b", re.IGNORECASE)
# A bound on a punishment ("fine which shall not be less than twenty-five thousand rupees")
# sets what is imposed, not which matters a provision covers.
_PUNISHMENT = re.compile(r"\b(?:fine|penalty|imprisonment|punish\w*|compensation)\b[^.;:]{0,40}$",
                         re.IGNORECASE)
_AMOUNT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s+rupees\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Range:
    """The rupee values a provision's thresholds admit (``None``: open on that side)."""

    low: Decimal | None = None
    low_inclusive: bool = True
    high: Decimal | None = None

    def holds(self, value: Decimal) -> bool:
        """Does ``value`` lie inside the range?"""
        if self.low is not None and (value < self.low or
                                     (value == self.low and not self.low_inclusive)):
            return False
        return self.high is None or value <= self.high


def rupee_range(text: str) -> Range | None:
    """The range of rupee values a threshold in ``text`` admits ("exceeds rupees one crore,
    but does not exceed rupees ten crore" -> (10000000, 100000000]); None if it sets none.
    The first bound of each side counts, so a unit's own threshold decides, not one a
    later proviso quotes."""
    low: Decimal | None = None
    low_inclusive = True
    high: Decimal | None = None
    canon = canonical(text)
    for m in _BOUND.finditer(canon):
        if _PUNISHMENT.search(canon[max(0, m.start() - 60):m.start()]):
            continue
        side = " ".join(m.group("side").lower().split())
        value = Decimal(m.group("value"))
        if side.startswith(("does not", "do not", "shall not", "did not", "not exceeding",
                            "up", "not more", "less", "below")):
            if high is None:
                high = value
        elif low is None:
            low, low_inclusive = value, side in ("not less than", "at least")
        if low is not None and high is not None:
            break
    if low is None and high is None:
        return None
    return Range(low, low_inclusive, high)


def rupee_amounts(text: str) -> list[Decimal]:
    """The rupee amounts ``text`` states outright ("my flat cost ₹1.5 crore" ->
    [15000000]); amounts inside a threshold phrase are left out."""
    canon = canonical(text)
    inside = {m.start("value") for m in _BOUND.finditer(canon)}
    return [Decimal(m.group(1)) for m in _AMOUNT.finditer(canon) if m.start(1) not in inside]
