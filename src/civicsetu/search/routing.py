"""Act routing learned from the corpus: which ingested document a question implies.

Two signals, both read from the index rather than a hand list, so they hold for any
corpus that is ingested:

- **Initials of the title**: "Insolvency and Bankruptcy Code" -> IBC, "Right to
  Information Act" -> RTI/RTIA, "Consumer Protection Act" -> CPA. An upper-case token in
  the question equal to a document's initials names that document. Written in lower
  case ("rera", "ibc", "rti"), the initials or a document's all-capitals alias name it
  too, provided the corpus never uses that token as a word (so "act" or "its" never
  name anything).
- **Subject words**: a word of a document's title ("consumer", "insolvency", "stamp")
  implies that document when the corpus itself ties the word to it: at least
  ``DISTINCT_SHARE`` of the chunks that contain the word belong to that document. A title
  word used everywhere ("compensation", "registration", "property") implies nothing.

- **Subject phrases**: two adjacent words of the question that are both words of a
  document's title ("real estate", "consumer protection") imply it by the same share,
  counted over the chunks holding the phrase. In a library a title word alone is often
  shared ("consumer" also runs through the Electricity Act) while the phrase is not.

- **Names**: two or more capitalised words in a row ("District Consumer Commission",
  "Real Estate Appellate Tribunal") are the name of a body or office; the document that
  holds ``DISTINCT_SHARE`` of the chunks containing all of the name's words is implied,
  beside a named Act too. The Act's own text calls it "the District Consumer Disputes
  Redressal Commission", so the words are counted together, not as a phrase; a name
  every Act uses ("High Court", "State Commission") implies nothing.

- **Subject words the ranking confirms**: a word of a short title (at most
  ``SUBJECT_TITLE_WORDS`` content words) in the question, whose document
  holds the most of the question's own first ``RANKED_SUBJECT_DEPTH`` hits (at least
  ``RANKED_SUBJECT_MIN``, more than any other Act not named) implies that document even
  when the word is shared across a library ("limitation" is used in 196 Acts, the
  Limitation Act holds 0.06 of its chunks, yet 3 of the first 10 hits of "...before my
  limitation period ran out"). The word says what the question is about, the ranking says
  which of the Acts titled by it the question's other words agree with.

When nothing is implied the caller searches every document with no preference.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from civicsetu.search.query import STOPWORDS, fts_query
from civicsetu.store.base import DocumentInfo, Store

DISTINCT_SHARE = 0.8  # share of a word's chunks that must sit in one document
# With an Act already named, a second is implied only by a near-exclusive word: "the
# consumer commission" next to RERA is a comparison, "the development authority" next to
# the RTI Act is not.
SECOND_ACT_SHARE = 0.95
MIN_CHUNKS = 3  # a title word found in fewer chunks is too rare to route on
RANKED_SUBJECT_DEPTH = 10  # the question's first hits a title word's document must lead
RANKED_SUBJECT_MIN = 2  # one hit is a look-alike section, two are the Act's subject
# A short title names its subject ("The Limitation Act", "Consumer Protection"); a long
# one lists several ("Right to Fair Compensation and Transparency in Land Acquisition,
# Rehabilitation and Resettlement"), and one of its words is no more than a topic.
SUBJECT_TITLE_WORDS = 2
_TITLE_FILLER = frozenset({"and", "of", "the", "to", "in", "for", "on", "act", "code",
                           "rules", "regulations", "amendment"})
_WORD = re.compile(r"[A-Za-z]+")
# Two words with only white space or a hyphen between them: a phrase of the question.
_PAIR = re.compile(r"(?=\b([A-Za-z]{3,})[\s-]+([A-Za-z]{3,})\b)")


def stem(word: str) -> str:
    """A crude shared stem so "consumers"/"consumer" and "insolvent"/"insolvency" meet."""
    w = word.lower()
    return w[:7] if len(w) > 7 else w.rstrip("s")


@functools.lru_cache(maxsize=8192)  # every ask checks every title (answer/evidence)
def title_initials(title: str) -> frozenset[str]:
    """Initials of a title's words, with and without its filler words and a final "Act"."""
    words = [w for w in _WORD.findall(re.sub(r",?\s*\d{4}\s*$", "", title))]
    if words and words[0].lower() == "the":  # "The Right to Information Act": RTI, not TRTI
        words = words[1:]
    if len(words) < 2:
        return frozenset()
    content = [w for w in words if w.lower() not in _TITLE_FILLER]
    out = set()
    for seq in (words, content, [w for w in words if w.lower() not in {"act", "code"}],
                [w for w in words if w.lower() not in _TITLE_FILLER - {"act", "code"}]):
        if len(seq) >= 2:
            out.add("".join(w[0] for w in seq).upper())
    if words[-1].lower() in {"act", "code"}:
        # A common name keeps the first content words and the final "Act": "The Real Estate
        # (Regulation and Development) Act" is called RERA (Real Estate Regulation Act).
        for k in range(2, len(content)):
            out.add("".join(w[0] for w in content[:k]).upper() + words[-1][0].upper())
    return frozenset(i for i in out if 3 <= len(i) <= 6)


@dataclass(slots=True)
class Router:
    """Per-index cache of title words and their document shares."""

    store: Store
    documents: list[DocumentInfo]
    model_id: str
    _shares: dict[str, tuple[str, float]] = field(default_factory=dict)
    _title_words: dict[str, set[str]] = field(default_factory=dict)
    _subject_words: dict[str, set[str]] = field(default_factory=dict)  # of short titles
    _initials: dict[str, set[str]] = field(default_factory=dict)
    _abbrev: dict[str, set[str]] = field(default_factory=dict)  # lower-cased initials, aliases
    _is_word: dict[str, bool] = field(default_factory=dict)
    _doc_of_row: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[str]] | None = None

    def __post_init__(self) -> None:
        for d in self.documents:
            content = {stem(w) for w in _WORD.findall(d.title)
                       if len(w) > 3 and w.lower() not in STOPWORDS | _TITLE_FILLER}
            for key in content:
                self._title_words.setdefault(key, set()).add(d.id)
                if len(content) <= SUBJECT_TITLE_WORDS:
                    self._subject_words.setdefault(key, set()).add(d.id)
            for initials in title_initials(d.title):
                self._initials.setdefault(initials, set()).add(d.id)
                self._abbrev.setdefault(initials.lower(), set()).add(d.id)
            for alias in d.aliases:
                if alias.isalpha() and alias.isupper() and 3 <= len(alias) <= 6:
                    self._abbrev.setdefault(alias.lower(), set()).add(d.id)

    def named_by_initials(self, query: str,
                          elsewhere: Sequence[tuple[int, int]] = ()) -> list[str]:
        """Documents whose title initials appear as an upper-case token in ``query``, or
        whose initials or all-capitals alias appear in another case and are no word of
        the corpus; not in the ``elsewhere`` spans (a law of another year: "CPA 1986")."""
        out: list[str] = []
        for m in re.finditer(r"(?<![\w-])[A-Za-z]{3,6}(?![\w-])", query):
            if any(s <= m.start() < e for s, e in elsewhere):
                continue
            token = m.group(0)
            if token.isupper():
                docs = self._initials.get(token, set())
            else:
                docs = self._abbrev.get(token.lower(), set())
                if docs and self._corpus_word(token.lower()):
                    docs = set()
            if len(docs) == 1:
                out.extend(docs)
        return list(dict.fromkeys(out))

    def _corpus_word(self, token: str) -> bool:
        """Whether any chunk contains ``token`` (any case): then it is a word, not a name."""
        if token not in self._is_word:
            self._is_word[token] = self.store.term_document_frequency([token]).get(token, 0) > 0
        return self._is_word[token]

    def implied(self, terms: list[str], named: bool = False,
                phrases: list[str] | None = None, names: list[str] | None = None) -> list[str]:
        """Documents a question's subject words or title phrases tie to, most distinctive
        first (``named``: the question already names an Act, so the bar is
        ``SECOND_ACT_SHARE``)."""
        found = self._tied(terms, [], SECOND_ACT_SHARE if named else DISTINCT_SHARE)
        # A title phrase is nearly the Act's name, so ``DISTINCT_SHARE`` holds beside a
        # named Act too ("the IBC ... a 'real estate project'").
        by_name = [d for d, share in (self._name_share(n) for n in names or [])
                   if share >= DISTINCT_SHARE]
        return list(dict.fromkeys(self._tied([], phrases or [], DISTINCT_SHARE) + by_name
                                  + found))

    def confirmed(self, terms: list[str], hit_docs: list[str], named: list[str]) -> str | None:
        """The document a word of ``terms`` names (a word of its title of at most
        ``SUBJECT_TITLE_WORDS`` content words) that also holds the most of the question's
        first hits (``hit_docs``, the document of each, best first), or None."""
        counts: dict[str, int] = {}
        for doc_id in hit_docs[:RANKED_SUBJECT_DEPTH]:
            if doc_id not in named:
                counts[doc_id] = counts.get(doc_id, 0) + 1
        if not counts:
            return None
        most = max(counts.values())
        leaders = [d for d, n in counts.items() if n == most]
        if most < RANKED_SUBJECT_MIN or len(leaders) > 1:
            return None
        titled = {d for t in terms for w in _WORD.findall(t)
                  for d in self._subject_words.get(stem(w), set())}
        return leaders[0] if leaders[0] in titled else None

    def _name_share(self, name: str) -> tuple[str, float]:
        """The document holding most of the chunks that contain every word of ``name``,
        and its share (none below ``MIN_CHUNKS`` such chunks)."""
        key = "name:" + name
        if key not in self._shares:
            held: set[int] | None = None
            for word in name.split():
                rows = {r for r, _ in self.store.keyword_search(fts_query([word]), 1_000_000,
                                                                None, None)}
                held = rows if held is None else held & rows
            self._shares[key] = self._owner(np.array(sorted(held or ()), dtype=np.int64))
        return self._shares[key]

    def _tied(self, terms: list[str], phrases: list[str], bar: float) -> list[str]:
        found: dict[str, float] = {}
        for phrase in phrases:
            owners = set.intersection(*(self._title_words.get(stem(w), set())
                                        for w in phrase.split()))
            if not owners:
                continue
            doc_id, share = self._share(phrase)
            if doc_id in owners and share >= bar:
                found[doc_id] = max(found.get(doc_id, 0.0), share)
        for term in terms:
            key = stem(term)
            if key not in self._title_words:
                continue
            doc_id, share = self._share(term)
            if doc_id in self._title_words[key] and share >= bar:
                found[doc_id] = max(found.get(doc_id, 0.0), share)
        return sorted(found, key=lambda d: -found[d])

    def _share(self, term: str) -> tuple[str, float]:
        """The document holding most of the chunks that contain ``term``, and its share."""
        if term in self._shares:
            return self._shares[term]
        query = fts_query([term])
        rowids = np.fromiter((r for r, _ in self.store.keyword_search(query, 100_000, None,
                                                                      None)), dtype=np.int64)
        self._shares[term] = self._owner(rowids)
        return self._shares[term]

    def _owner(self, rowids: npt.NDArray[np.int64]) -> tuple[str, float]:
        """The document most of ``rowids`` belong to, and its share of them."""
        if len(rowids) < MIN_CHUNKS:
            return ("", 0.0)
        # Counted with arrays (a Counter over 10^5 rowids took ~100 ms at 10^5 chunks);
        # a rowid the vectors do not know counts as document "" (code -1), as before.
        keys, codes, names = self._doc_map()
        at = np.minimum(np.searchsorted(keys, rowids), len(keys) - 1)
        code = np.where(keys[at] == rowids, codes[at], -1) if len(keys) else \
            np.full(len(rowids), -1)
        counts = np.bincount(code + 1)
        tied = np.flatnonzero(counts == counts.max()) - 1
        # Counter.most_common breaks ties by first appearance in the ranking.
        best = min(tied, key=lambda c: int(np.argmax(code == c)))
        doc_id = names[best] if best >= 0 else ""
        return (doc_id, int(counts.max()) / len(rowids))

    def _doc_map(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[str]]:
        """Sorted chunk rowids, their document codes and the code -> document id list."""
        if self._doc_of_row is None:
            index = self.store.vector_index(self.model_id)
            rowids = np.asarray(index.rowids, dtype=np.int64)
            names, codes = np.unique(np.asarray(index.doc_ids), return_inverse=True)
            order = np.argsort(rowids, kind="stable")
            self._doc_of_row = (rowids[order], codes.reshape(-1)[order].astype(np.int64),
                                [str(n) for n in names])
        return self._doc_of_row


def title_phrases(query: str) -> list[str]:
    """Adjacent word pairs of ``query`` (lower case, neither a stop word): the phrases
    routing checks against the documents' titles."""
    out = []
    for m in _PAIR.finditer(query):
        a, b = m.group(1).lower(), m.group(2).lower()
        if a not in STOPWORDS | _TITLE_FILLER and b not in STOPWORDS | _TITLE_FILLER:
            out.append(f"{a} {b}")
    return list(dict.fromkeys(out))


_NAME = re.compile(r"(?<![\w-])(?:[A-Z][a-z][\w'-]*\s+){1,5}[A-Z][a-z][\w'-]*(?![\w-])")


def capitalised_names(query: str) -> list[str]:
    """Runs of two or more capitalised words in ``query`` (stop words such as "The" or
    "Where" dropped): the names routing checks against the documents."""
    out = []
    for m in _NAME.finditer(query):
        words = [w for w in m.group(0).split() if w.lower() not in STOPWORDS]
        if len(words) >= 2:
            out.append(" ".join(w.lower() for w in words))
    return list(dict.fromkeys(out))
