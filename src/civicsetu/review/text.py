"""Evidence units of a contract and the small in-memory BM25 that ranks them.

An evidence unit is a character range of the contract text: a line, or a sentence of a
long line. ContractNLI files bring their own spans; any other contract is segmented here,
so the same ranking works on both.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=[A-Z(\"“])")
_WORD = re.compile(r"[a-z0-9]+")
_FINAL = re.compile(r"[.;:!?]\s*$")
_STOP = ("a an the and or of to in on for by with any all such this that these those is are "
         "be shall may will which who its it as at from into other than not no nor if")
STOPWORDS = frozenset(_STOP.split())


def segment(text: str, max_chars: int = 600) -> list[tuple[int, int]]:
    """Character ranges of the non-empty lines of ``text``; a line that continues a wrapped
    sentence (the previous one has no final punctuation, this one starts in lower case)
    joins it; long lines split at sentences."""
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        start = pos
        pos += len(line)
        stripped = line.strip()
        if not stripped:
            continue
        lead = start + len(line) - len(line.lstrip())
        tail = lead + len(stripped)
        if lines and stripped[0].islower() and not _FINAL.search(text[lines[-1][0]:lines[-1][1]]) \
                and tail - lines[-1][0] <= max_chars and "\n\n" not in text[lines[-1][1]:lead]:
            lines[-1] = (lines[-1][0], tail)
        else:
            lines.append((lead, tail))
    spans: list[tuple[int, int]] = []
    for lead, tail in lines:
        if tail - lead <= max_chars:
            spans.append((lead, tail))
            continue
        cut = lead
        for m in _SENTENCE_END.finditer(text, lead, tail):
            if m.start() - cut >= 40:
                spans.append((cut, m.start()))
                cut = m.end()
        spans.append((cut, tail))
    return spans


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens without stop words, with a light plural/suffix fold."""
    out = []
    for w in _WORD.findall(text.lower()):
        if w in STOPWORDS:
            continue
        if len(w) > 4 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


class BM25:
    """Okapi BM25 over a fixed list of texts (k1=1.2, b=0.75)."""

    def __init__(self, texts: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.docs = [Counter(tokens(t)) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
        self.k1, self.b = k1, b

    def scores(self, query: str) -> list[float]:
        """One score per text for ``query``."""
        q = set(tokens(query))
        out = []
        for d, length in zip(self.docs, self.lengths, strict=True):
            s = 0.0
            norm = self.k1 * (1 - self.b + self.b * length / (self.avg or 1.0))
            for w in q:
                f = d.get(w)
                if f:
                    s += self.idf[w] * f * (self.k1 + 1) / (f + norm)
            out.append(s)
        return out
