"""Quote verification: a quote is shown only if it stands verbatim in the cited provision.

"Verbatim" ignores white space only (statute text wraps lines mid-sentence); every other
character must match. Verification works on offsets into the stored document text, so
the span a citation points at is exactly the text it quotes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from civicsetu.errors import NotFoundError
from civicsetu.store.base import Store
from civicsetu.types import Citation


def fold(text: str) -> str:
    return " ".join(text.split())


def locate_quote(haystack: str, quote: str) -> tuple[int, int] | None:
    """Offsets of ``quote`` in ``haystack``, matching any run of white space to any other."""
    words = quote.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, haystack)
    return (m.start(), m.end()) if m else None


@dataclass(frozen=True, slots=True)
class Rejected:
    citation: Citation
    reason: str


def verify_citations(citations: Iterable[Citation], store: Store,
                     as_of: date | None = None) -> tuple[list[Citation], list[Rejected]]:
    """Split citations into those that check out against the store and those that do not.

    The provision is read back as in force on ``as_of`` (now by default); its stored text
    is exactly its span of that version of the document, so the offsets are checked
    against the version the quote came from.
    """
    ok: list[Citation] = []
    rejected: list[Rejected] = []
    for c in citations:
        try:
            provision = store.provision(c.provision_id, as_of)
        except (NotFoundError, ValueError):
            rejected.append(Rejected(c, "cites a provision that is not in the index"))
            continue
        quoted = provision.text[c.start - provision.start:c.end - provision.start]
        if not (provision.start <= c.start < c.end <= provision.end):
            rejected.append(Rejected(c, "quote lies outside the cited provision"))
        elif fold(quoted) != fold(c.quote) or not c.quote.strip():
            rejected.append(Rejected(c, "quote is not verbatim at its offsets"))
        else:
            ok.append(c)
    return ok, rejected
