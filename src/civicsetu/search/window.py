"""Moving some hits below the others at the top of a ranking, without dropping them.

Used by the rules that know a hit is about the wrong party (``search/parties.py``) or the
wrong territory (``search/places.py``): such a hit is still found, just not first.
"""

from __future__ import annotations

from collections.abc import Callable

from civicsetu.types import Hit, section_of

WINDOW = 10  # sections re-ordered at the top of the ranking


def demoted_in_window(hits: list[Hit], demoted: Callable[[Hit], bool],
                      window: int = WINDOW) -> list[Hit]:
    """``hits`` with the ``demoted`` ones among the hits of the first ``window`` sections
    moved after the others of those sections; later hits keep their places."""
    sections: list[str] = []
    cut = len(hits)
    for i, h in enumerate(hits):
        key = f"{h.doc_id}#{section_of(h.provision_path)}"
        if key not in sections:
            if len(sections) == window:
                cut = i
                break
            sections.append(key)
    head, tail = hits[:cut], hits[cut:]
    return [h for h in head if not demoted(h)] + [h for h in head if demoted(h)] + tail
