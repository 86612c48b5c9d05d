"""A law of one territory does not lead a question that never names it.

The central library holds Acts whose extent is one State or city: "The Delhi Rent Control
Act", "The Bengal Indigo Contracts Act", "The Bombay Civil Courts Act". Their text shares
the general law's words (rent, deadlines, appeals), so a question that names no place can
be led by one. When a hit's document title names a place the question does not, the hit
moves below the other hits of the first ten sections (``search/window.py``): still
found, not first.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from civicsetu.search.window import demoted_in_window
from civicsetu.types import Hit

# States, Union territories and cities, as questions and titles write them, to the State.
STATES_AND_CITIES: dict[str, str] = {
    **{s.lower(): s for s in (
        "Andhra Pradesh", "Arunachal Pradesh", "Assam", "Bihar", "Chhattisgarh", "Goa",
        "Gujarat", "Haryana", "Himachal Pradesh", "Jharkhand", "Karnataka", "Kerala",
        "Madhya Pradesh", "Maharashtra", "Manipur", "Meghalaya", "Mizoram", "Nagaland",
        "Odisha", "Punjab", "Rajasthan", "Sikkim", "Tamil Nadu", "Telangana", "Tripura",
        "Uttar Pradesh", "Uttarakhand", "West Bengal", "Delhi", "Chandigarh", "Puducherry",
        "Jammu and Kashmir", "Ladakh")},
    "mumbai": "Maharashtra", "pune": "Maharashtra", "maharera": "Maharashtra",
    "bengaluru": "Karnataka", "bangalore": "Karnataka", "chennai": "Tamil Nadu",
    "kolkata": "West Bengal", "hyderabad": "Telangana", "lucknow": "Uttar Pradesh",
    "noida": "Uttar Pradesh", "gurugram": "Haryana", "gurgaon": "Haryana",
    "ahmedabad": "Gujarat", "up rera": "Uttar Pradesh", "k-rera": "Karnataka",
    "tnrera": "Tamil Nadu", "hrera": "Haryana",
}
# Older names that the titles of pre-1950 Acts still carry.
FORMER_NAMES: dict[str, str] = {
    "bombay": "Maharashtra", "madras": "Tamil Nadu", "calcutta": "West Bengal",
    "bengal": "West Bengal", "orissa": "Odisha", "mysore": "Karnataka",
}


def _pattern(names: Mapping[str, str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


_ALL = {**STATES_AND_CITIES, **FORMER_NAMES}
_PLACE = _pattern(_ALL)


def places_in(text: str) -> set[str]:
    """The States ``text`` names (a city or a former name counts as its State)."""
    return {_ALL[m.group(0).lower()] for m in _PLACE.finditer(text)}


def elsewhere_after(question: str, hits: list[Hit], titles: Mapping[str, str]) -> list[Hit]:
    """``hits`` with those whose document's title (``titles``: doc id -> title) names a
    place the question does not, moved after the other hits of the first ten sections."""
    asked = places_in(question)

    def elsewhere(h: Hit) -> bool:
        named = _title_places(titles.get(h.doc_id, ""))
        return bool(named) and not named & asked

    return demoted_in_window(hits, elsewhere)


@functools.lru_cache(maxsize=16384)  # every search checks the titles of its top hits
def _title_places(title: str) -> frozenset[str]:
    return frozenset(places_in(title))
