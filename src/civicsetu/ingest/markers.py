"""Numbering markers inside a provision: ``(1)``, ``(a)``, ``(i)``, ``(A)``, ``(I)``.

Indian drafting nests sub-section (1) > clause (a) > sub-clause (i) > item (A) > (I).
``(i)``, ``(v)`` and ``(x)`` are both letters and roman numerals; which one a marker is
depends on what is open around it, so classification takes that context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from civicsetu.types import ProvisionKind


class Level(IntEnum):
    """Nesting rank of a marker family; a smaller rank encloses a larger one."""

    NUMBER = 1
    LETTER = 2
    ROMAN = 3
    UPPER_LETTER = 4
    UPPER_ROMAN = 5


KIND_OF_LEVEL: dict[Level, ProvisionKind] = {
    Level.NUMBER: ProvisionKind.SUBSECTION,
    Level.LETTER: ProvisionKind.CLAUSE,
    Level.ROMAN: ProvisionKind.SUBCLAUSE,
    Level.UPPER_LETTER: ProvisionKind.ITEM,
    Level.UPPER_ROMAN: ProvisionKind.SUBITEM,
}

# A paragraph opens a provision when it starts with a marker, optionally behind an
# amendment bracket such as ``^1[`` (India Code prints inserted text that way; text taken
# from PDFs prints it ``1 [`` and spaces the marker out as ``( a )``).
PARAGRAPH_MARKER = re.compile(
    r"""^[ \t]*(?:\^[\w*]{1,4}\s*|\d{1,3}[ \t]*(?=\[))?\[?[ \t]*
        \([ \t]?(?P<token>\d{1,3}[A-Z]{0,3}|[a-z]{1,4}|[A-Z]{1,4})[ \t]?\)
        (?=[\s"“'‘A-Za-z—–-]|$)""",
    re.VERBOSE | re.MULTILINE,
)

_ROMAN = re.compile(r"^(?=[ivxl])l?x{0,3}(ix|iv|v?i{0,3})$")
_AMBIGUOUS_PREDECESSOR = {"i": "h", "v": "u", "x": "w", "l": "k"}
INTRO_ENDINGS = (":", "—", "–", "-")
_SEQUENCE_STARTS = frozenset({"1", "a", "i", "A", "I"})


def is_roman(token: str) -> bool:
    return bool(_ROMAN.match(token.lower())) and token != ""


def is_sequence_start(token: str) -> bool:
    return token in _SEQUENCE_STARTS


def roman_value(token: str) -> int:
    values = {"i": 1, "v": 5, "x": 10, "l": 50}
    total, prev = 0, 0
    for ch in reversed(token.lower()):
        v = values[ch]
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


@dataclass(frozen=True, slots=True)
class OpenLevel:
    """What the classifier needs to know about one open level of nesting."""

    level: Level
    token: str


def classify(token: str, open_levels: list[OpenLevel], previous_text: str) -> Level:
    """The level of ``token`` given the levels open above it and the text just before it."""
    if token[0].isdigit():
        return Level.NUMBER
    upper = token.isupper()
    letter, roman = (
        (Level.UPPER_LETTER, Level.UPPER_ROMAN) if upper else (Level.LETTER, Level.ROMAN)
    )
    low = token.lower()
    if not is_roman(low):
        return letter
    if low not in _AMBIGUOUS_PREDECESSOR:
        return roman  # ii, iii, iv, vi, ...: never a letter

    last_roman = _last_token(open_levels, roman)
    if last_roman is not None and roman_value(last_roman) + 1 == roman_value(low):
        return roman
    # ``(i)`` continues an open ``(h)`` -- the last letter, or one further out when
    # ``(h)`` holds a list of its own ("(h) ... (d) ..., and includes (i) ... (ii) ...;
    # (i) "record" includes") -- unless the text just before introduces a list.
    if any(o.level == letter and o.token.lower() == _AMBIGUOUS_PREDECESSOR[low]
           for o in open_levels):
        if low == "i" and previous_text.rstrip().endswith(INTRO_ENDINGS):
            return roman
        return letter
    return roman if low == "i" else letter


def continues(previous: str, token: str, level: Level) -> bool:
    """Whether ``token`` is the marker after ``previous`` in the numbering of ``level``
    ("h" -> "i" as letters, "i" -> "ii" as roman numerals, "3" -> "4"), inserted clauses
    included ("zd" -> "ze", "z" -> "za")."""
    if level in (Level.ROMAN, Level.UPPER_ROMAN):
        return is_roman(previous) and is_roman(token) and \
            roman_value(previous) + 1 == roman_value(token)
    if level is Level.NUMBER:
        return previous.isdigit() and token.isdigit() and int(previous) + 1 == int(token)
    if not (previous.isalpha() and token.isalpha()):
        return False
    if len(previous) == len(token):  # "h" -> "i", and inserted clauses "zd" -> "ze"
        return previous[:-1] == token[:-1] and ord(previous[-1]) + 1 == ord(token[-1])
    return token == previous + "a"  # "z" -> "za", "zz" -> "zza"


def comes_after(previous: str, token: str, level: Level) -> bool:
    """Whether ``token`` is numbered after ``previous`` in the numbering of ``level``, not
    necessarily next: ``(zb)`` after ``(za)``, ``(2A)`` after ``(2)``, ``(v)`` after ``(ii)``."""
    key_a, key_b = _order_key(previous, level), _order_key(token, level)
    return key_a is not None and key_b is not None and key_b > key_a


def _order_key(token: str, level: Level) -> tuple[int, str] | None:
    if level is Level.NUMBER:
        m = re.fullmatch(r"(\d+)([A-Z]*)", token)
        return (int(m.group(1)), m.group(2)) if m else None
    if level in (Level.ROMAN, Level.UPPER_ROMAN):
        return (roman_value(token), "") if is_roman(token) else None
    if not token.isalpha():
        return None
    # Inserted clauses sort alphabetically: (a) < (aa) < (ab) < (b) < (z) < (za) < (zza).
    return 0, token.lower()


def _last_token(open_levels: list[OpenLevel], level: Level) -> str | None:
    for item in reversed(open_levels):
        if item.level == level:
            return item.token
    return None
