"""A repealed or omitted section is not evidence.

India Code keeps a repealed section's number with a heading such as ``[Repealed.]`` and a
note (``[Notice of seller's claim.] Rep. by s. 65, ibid.``). It holds no law, yet its few
words can rank for a question that shares them ("seller", "claim") and be quoted as an
answer. Such a section leaves the ranking unless the question names it (a pinned hit
still shows the user what became of "section 105").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from civicsetu.types import Hit, section_of

# ``[Repealed.]``, ``Omitted``, ``. Repealed``, ``[ Omitted ]``: the whole heading.
_SPENT = re.compile(r"^\W*(?:repealed|omitted)\W*$", re.IGNORECASE)


def is_spent(heading: str) -> bool:
    """Whether a section heading says only that the section was repealed or omitted."""
    return bool(_SPENT.match(heading))


def without_spent(hits: list[Hit], heading: Callable[[str], str]) -> list[Hit]:
    """``hits`` without the unpinned ones of repealed or omitted sections (``heading`` maps
    a section id to its heading)."""
    return [h for h in hits
            if h.pinned or not is_spent(heading(f"{h.doc_id}#{section_of(h.provision_path)}"))]
