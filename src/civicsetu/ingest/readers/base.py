"""What every reader returns: the document text as indexed, with its page map."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ExtractedText:
    """A source file turned into the text CivicSetu indexes and quotes from.

    ``page_starts[i]`` is the offset in ``text`` where page ``i + 1`` begins; it is empty
    for formats without pages. Warnings are for the user (scanned pages, a page cap).
    """

    text: str
    format: str
    title: str = ""
    page_starts: tuple[int, ...] = ()
    warnings: tuple[str, ...] = ()
    meta: dict[str, str] = field(default_factory=dict)

    def page_at(self, offset: int) -> int | None:
        return page_at(self.page_starts, offset)


def page_at(page_starts: tuple[int, ...], offset: int) -> int | None:
    """The 1-based page holding ``offset``, or ``None`` when the source has no pages."""
    if not page_starts:
        return None
    return max(1, bisect.bisect_right(page_starts, offset))


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
