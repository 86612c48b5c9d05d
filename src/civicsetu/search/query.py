"""What a question says about where to look: named provisions, named documents, terms."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from civicsetu.search.lexicon import expansions
from civicsetu.store.base import DocumentInfo

# "section 18", "s. 11(4)(a)", "Sec 59", "sub-section (2) of section 4" (the section part),
# "Rule 7(2)", "Article 21", "Regulation 5"
_REFERENCE = re.compile(
    r"\b(?P<unit>sections?|secs?\.?|ss?\.|rules?|r\.|articles?|art\.|regulations?|reg\.)"
    r"\s*(?P<num>\d{1,4}[A-Z]{0,2})(?P<sub>(?:\s?\((?:\d{1,3}[A-Z]?|[a-zA-Z]{1,4})\))*)",
    re.IGNORECASE,
)
# What may stand between a reference and the Act it belongs to.
_LINK_AFTER = re.compile(r"\s*,?\s*(?:(?:of|under|in|from)\s+)?(?:the\s+)?", re.IGNORECASE)
_LINK_BEFORE = re.compile(r"(?:['’]s)?\s*,?\s*")
_UNIT_PREFIX = {"s": "s.", "se": "s.", "r": "r.", "ru": "r.", "a": "art.", "ar": "art.",
                "re": "reg."}
_FIRST_WORD = re.compile(r"\w+")
# A passage the question quotes: 'in the manner as provided under this Act'. The opening
# mark follows no letter (so "buyer's" opens nothing), the closing one precedes none.
_QUOTED = re.compile(r"(?<![\w'’])['‘\"“](?P<text>[^'‘’\"“”]{3,300}?)['’\"”](?![\w'’])")
MIN_QUOTE_WORDS = 3  # a quoted single term ('service') is a word, not a passage
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]|\d+")

STOPWORDS = frozenset("""
a about above after again against all am an and any are aren't as at be because been
before being below between both but by can can't cannot could did didn't do does doesn't
doing don't down during each few for from further had has have having he her here hers
herself him himself his how i i'd i'm if in into is isn't it it's its itself just let me
more most my myself no nor not now of off on once only or other ought our ours ourselves
out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves
act section sections law laws rule rules say says tell explain mean means under per also
still get got must may shall one two us what's who's whose within
""".split())  # noqa: SIM905 - a word list reads better as text


@dataclass(frozen=True, slots=True)
class ProvisionRef:
    path: str
    doc_id: str | None
    text: str
    # The Act is named right beside the reference ("s.59 of RERA", "RERA section 59"), not
    # only somewhere else in the question (search/unfound.py).
    tied: bool = False


@dataclass(frozen=True, slots=True)
class OtherYear:
    """A law the question names by an ingested document's name with another year ("the
    Consumer Protection Act, 1986" where the corpus holds the Act of 2019): a different
    law, which the corpus does not hold."""

    doc_id: str  # the ingested document of that name
    asked: str  # the law asked about, as a title: "Consumer Protection Act, 1986"
    start: int
    end: int  # the end of the year


@dataclass(slots=True)
class QueryAnalysis:
    query: str
    terms: list[str]
    expansions: list[str]
    named_docs: list[str]
    references: list[ProvisionRef] = field(default_factory=list)
    implied_docs: list[str] = field(default_factory=list)  # by subject words (routing.py)
    quotes: list[str] = field(default_factory=list)  # passages quoted from a provision
    other_years: list[OtherYear] = field(default_factory=list)  # named laws of another year

    @property
    def dense_text(self) -> str:
        return self.query


@lru_cache(maxsize=65536)
def _alias_pattern(alias: str) -> re.Pattern[str]:
    flags = 0 if (alias.isupper() and len(alias) <= 5) else re.IGNORECASE
    return re.compile(r"(?<![\w-])" + re.escape(alias) + r"(?![\w-])", flags)


@dataclass(frozen=True, slots=True)
class AliasTable:
    """Every document's names (aliases and title), lower-cased once, longest first, and
    indexed by their first word: a question is checked only against the names that begin
    with one of its words (tens, where a library of 10^4 documents has 4 x 10^4 names)."""

    entries: tuple[tuple[str, str, bool, str], ...]  # name, lower-cased, ASCII?, doc_id
    by_first_word: dict[str, tuple[int, ...]]  # entry numbers by the name's first word
    always: tuple[int, ...]  # names not ASCII or not starting with a word: always checked
    # Each document's title and the year its title ends with ("2019"), when it has one;
    # and, by a name without a year and a year, the document of that name and year.
    titles: dict[str, tuple[str, str]] = field(default_factory=dict)
    by_name_and_year: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def of(cls, documents: Sequence[DocumentInfo]) -> AliasTable:
        """The table of ``documents`` (in their order where names are equally long)."""
        names = sorted(((a, a.lower(), a.isascii(), d.id) for d in documents
                        for a in (*d.aliases, d.title)), key=lambda x: -len(x[0]))
        titles = {d.id: (d.title, title_year(d.title)) for d in documents}
        by_name_and_year = {(lowered, titles[doc_id][1]): doc_id
                            for _, lowered, _, doc_id in reversed(names)
                            if titles[doc_id][1] and not title_year(lowered)}
        by_word: dict[str, list[int]] = {}
        always: list[int] = []
        for i, (_, lowered, ascii_name, _) in enumerate(names):
            first = _FIRST_WORD.match(lowered)
            if ascii_name and first:
                by_word.setdefault(first.group(0), []).append(i)
            else:
                always.append(i)
        return cls(tuple(names), {w: tuple(i) for w, i in by_word.items()}, tuple(always),
                   titles, by_name_and_year)

    def candidates(self, lowered_query: str) -> Sequence[int]:
        """Entry numbers, in table order, of the names an ASCII question can contain: a
        name matches at a word start, so its first word is one of the question's words."""
        found = set(self.always)
        for word in set(_FIRST_WORD.findall(lowered_query)):
            found.update(self.by_first_word.get(word, ()))
        return sorted(found)


# Non-ASCII letters that re.IGNORECASE matches to ASCII ones (after str.lower()).
_ASCII_TWINS = str.maketrans({"ı": "i", "ſ": "s"})


def _fold(text: str) -> str:
    """Lower-cased as the name index holds names, with "İ" (lower: "i" + a combining dot),
    "ı" and "ſ" as the ASCII letters a case-insensitive regex takes them for."""
    return text.lower().replace("i\u0307", "i").translate(_ASCII_TWINS)


def named_documents(query: str, documents: Sequence[DocumentInfo] | AliasTable,
                    allowed: Collection[str] | None = None) -> list[tuple[str, int, int]]:
    """(doc_id, start, end) for every mention of a document's alias, longest alias first
    (only documents in ``allowed``, when given). A name followed by another year than its
    document's title ("Consumer Protection Act, 1986" for the Act of 2019) names another
    law (``document_mentions``)."""
    return document_mentions(query, documents, allowed)[0]


def document_mentions(query: str, documents: Sequence[DocumentInfo] | AliasTable,
                      allowed: Collection[str] | None = None,
                      ) -> tuple[list[tuple[str, int, int]], list[OtherYear]]:
    """``named_documents``, and the laws named by an ingested document's name with another
    year that no ingested document of that name has (of any document, ``allowed`` or not:
    the corpus does not hold them)."""
    table = documents if isinstance(documents, AliasTable) else AliasTable.of(documents)
    found: list[tuple[str, int, int]] = []
    other: list[OtherYear] = []
    taken: list[tuple[int, int]] = []
    # Only names starting with one of the question's words can match, and of those a
    # substring test on the folded question rules out most before their regex runs. Both
    # are exact for ASCII names (the regex's case-insensitive matching is mirrored by
    # _fold); non-ASCII names always take the regex.
    lowered = _fold(query)
    for number in table.candidates(lowered):
        alias, alias_lower, ascii_alias, doc_id = table.entries[number]
        if ascii_alias and alias_lower not in lowered:
            continue
        for m in _alias_pattern(alias).finditer(query):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            named, end = doc_id, m.end()
            title, year = table.titles.get(doc_id, ("", ""))
            after = _YEAR_AFTER.match(query, m.end()) if year else None
            if after is not None and after.group("year") != year \
                    and not title_year(alias_lower):
                asked = after.group("year")
                end = after.end()
                same_name = table.by_name_and_year.get((alias_lower, asked))
                if same_name is None:
                    taken.append((m.start(), end))
                    start = _title_start(query, m.start())
                    name = " ".join((query[start:m.start()] + alias).split())
                    other.append(OtherYear(doc_id, _named_with_year(name, title, asked),
                                           start, end))
                    continue
                named = same_name
            if allowed is not None and named not in allowed:
                continue
            taken.append((m.start(), end))
            found.append((named, m.start(), m.end()))
    return sorted(found, key=lambda x: x[1]), sorted(other, key=lambda o: o.start)


# A year right after a law's name ("Consumer Protection Act, 1986", "CPA 1986", "the Act of
# 1986"), not a number of things ("RERA, 2000 sq ft").
_YEAR_AFTER = re.compile(
    r"\s*,?\s*(?:of\s+)?(?P<year>1[6-9]\d\d|20\d\d)(?![\w-])(?!\s*(?:sq|square|rupees|rs|"
    r"crores?|lakhs?|units?|flats?|apartments?|plots?|acres?|hectares?|persons?|people|"
    r"metres?|meters?|feet|ft|days?|months?|years?|allottees?|members?)\b)", re.IGNORECASE)
_TITLE_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\W*$")
# Capitalised words right before a law's name that are part of the title asked about
# ("the Indian Limitation Act, 1908").
_WORDS_BEFORE_EACH = re.compile(r"(?<![\w'-])([A-Z][\w'-]*)(?=(?:\s+[A-Z][\w'-]*)*\s+$)")


def _title_start(query: str, start: int) -> int:
    """Where the title of a law named at ``start`` begins: with the capitalised words
    right before the name that are no stopwords ("the Indian Limitation Act, 1908")."""
    for m in _WORDS_BEFORE_EACH.finditer(query, 0, start):
        if m.group(1).lower() not in STOPWORDS:
            return m.start(1)
    return start


def title_year(title: str) -> str:
    """The year a title ends with ("2019" of "Consumer Protection Act, 2019"), else ""."""
    m = _TITLE_YEAR.search(title)
    return m.group(1) if m else ""


def _named_with_year(alias: str, title: str, year: str) -> str:
    """The title of the law a name and a year name: the name when it is a law's ("Land
    Acquisition Act" -> "Land Acquisition Act, 1894"), else its document's title with the
    year ("CPA" -> "Consumer Protection Act, 1986")."""
    if re.search(r"\b(?:Act|Code)$", alias):
        return f"{alias}, {year}"
    base = _TITLE_YEAR.sub("", title).rstrip(" ,")
    base = re.sub(r"^the\s+", "", base, flags=re.IGNORECASE)
    return f"{base}, {year}"


def analyze(query: str, documents: Sequence[DocumentInfo] | AliasTable,
            allowed: Collection[str] | None = None) -> QueryAnalysis:
    """Named documents (among ``allowed``, when given), provision references and the
    words to search for."""
    mentions, other_years = document_mentions(query, documents, allowed)
    named = list(dict.fromkeys(doc_id for doc_id, _, _ in mentions))
    elsewhere = [(o.doc_id, o.start, o.end) for o in other_years]
    refs = []
    for m in _REFERENCE.finditer(query):
        if _document_beside(query, m.start(), m.end(), elsewhere) is not None:
            continue  # a provision of a law the corpus does not hold
        unit = m.group("unit").lower()
        prefix = _UNIT_PREFIX.get(unit[:2], _UNIT_PREFIX.get(unit[:1], "s."))
        sub = re.sub(r"\s+", "", m.group("sub") or "")
        path = f"{prefix}{m.group('num').upper()}{sub}"
        beside = _document_beside(query, m.start(), m.end(), mentions)
        refs.append(ProvisionRef(path, beside or _only_document(mentions),
                                 m.group(0), beside is not None))
    # Words inside a reference ("section 18(1)") or a document name are looked up, not
    # searched for: as BM25 terms they would only match every other "18" in the corpus.
    mention_spans = [(s, e) for _, s, e in mentions] + [m.span() for m in
                                                         _REFERENCE.finditer(query)]
    words = []
    for w in _WORD.finditer(query):
        if any(s <= w.start() < e for s, e in mention_spans):
            continue
        token = w.group(0).lower().replace("’", "'")
        if token in STOPWORDS or (len(token) < 3 and not token.isdigit()):
            continue
        words.append(token)
    extra = expansions(query)
    return QueryAnalysis(query, list(dict.fromkeys(words)), extra, named, refs,
                         quotes=quoted_passages(query), other_years=other_years)


def quoted_passages(query: str) -> list[str]:
    """Passages of at least ``MIN_QUOTE_WORDS`` words the question puts in quotes."""
    out = []
    for m in _QUOTED.finditer(query):
        text = " ".join(m.group("text").split())
        if len(_WORD.findall(text)) >= MIN_QUOTE_WORDS:
            out.append(text)
    return out


def normalized(text: str) -> str:
    """Lower-cased with runs of white space as one space: how a quote is matched."""
    return " ".join(text.lower().replace("’", "'").split())


def _document_beside(query: str, ref_start: int, ref_end: int,
                     mentions: list[tuple[str, int, int]]) -> str | None:
    """The document named right after a reference ("s.59 of RERA", "section 3 of the
    Act") or right before it ("RERA section 59", "RERA's s.59"), else None."""
    for doc_id, start, end in mentions:
        if start >= ref_end and _LINK_AFTER.fullmatch(query[ref_end:start]):
            return doc_id
        if end <= ref_start and _LINK_BEFORE.fullmatch(query[end:ref_start]):
            return doc_id
    return None


def _only_document(mentions: list[tuple[str, int, int]]) -> str | None:
    """The one document the question names, else None."""
    distinct = {d for d, _, _ in mentions}
    return distinct.pop() if len(distinct) == 1 else None


def fts_query(terms: list[str]) -> str:
    """An FTS5 OR-query of quoted terms (quoting keeps user text from being FTS syntax)."""
    parts = []
    for term in terms:
        clean = term.replace('"', " ").strip()
        if clean:
            parts.append(f'"{clean}"')
    return " OR ".join(parts)
