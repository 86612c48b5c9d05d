"""Is the evidence strong enough to answer, or should we abstain?

Four signals, each cheap and explainable:
- the question names a law by its title ("the Motor Vehicles Act") and no ingested
  document at all: the nearest provision of another law would answer another question;
- the question names something the corpus never mentions (an acronym or proper noun
  with no occurrence at all, such as a tax or a court case that is not ingested);
- the question is scoped to a state whose instruments (rules, notifications) are not
  ingested: central Acts leave fees, forms, timelines and procedure to state rules, so
  quoting only the central Act would pass a partial answer off as the state's law. The
  notice names the nearest central provision so the user still has a place to start;
- the evidence is weak: the calibrated answer score (``answer/confidence.py``) is below
  ``Settings.answer_score_floor`` when the caller computed it, else the best dense match
  is below ``Settings.abstain_below`` (both chosen on the dev set; docs/EVALUATION.md).
A question that names a provision that exists is always answered from it; one that names
a provision the index does not hold ("Section 999 of RERA") is told so, and abstains unless
the closest enclosing provision (Section 18 for 18(9)) or another named one is shown.

A question with no legal word (``guard.scope``'s "off-topic") is refused as off-topic
unless its evidence is not weak and the dense and the lexical retrieval each rank the
lead provision in their top five (``lay_question_supported``).

After the quotes are chosen, one more check (``missing_quantity``): a question that asks
for a number of days, weeks, months or years, or for a percentage, is not answered by
quotes that state no such number (a grace period the Acts never fix is not answered by
the provisions on delay interest).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from civicsetu.answer.messages import (
    MISSING_QUANTITY_NOTICE,
    NEAREST_CENTRAL_NOTICE,
    NOT_IN_FORCE_ANYWHERE_NOTICE,
    NOT_YET_ENACTED_NOTICE,
    NOT_YET_IN_FORCE_NOTICE,
    NOT_YET_LAW_NOTICE,
    OTHER_YEAR_NOTICE,
    STATE_INSTRUMENT_NOTICE,
    UNFOUND_ANYWHERE_NOTICE,
    UNFOUND_NEAREST_NOTICE,
    UNFOUND_PROVISION_NOTICE,
    UNHELD_LAW_NOTICE,
    UNKNOWN_TERM_NOTICE,
)
from civicsetu.answer.numbers import canonical
from civicsetu.ingest.chunker import display_path
from civicsetu.search.hybrid import SearchResult
from civicsetu.search.in_force import NotYetLaw
from civicsetu.search.initialisms import spells_out
from civicsetu.search.lawnames import LawNames
from civicsetu.search.lexicon import LAY_TO_STATUTE
from civicsetu.search.places import STATES_AND_CITIES
from civicsetu.search.query import STOPWORDS, OtherYear, document_mentions
from civicsetu.search.routing import title_initials
from civicsetu.search.unfound import UnfoundReference
from civicsetu.store.base import DocumentInfo, Store

if TYPE_CHECKING:
    from civicsetu.answer.confidence import Confidence

_SALIENT = re.compile(r"(?<![\w-])([A-Z]{2,}[a-z]?|[A-Z][a-z]+)(?![\w-])")


@dataclass(slots=True)
class Evidence:
    answerable: bool
    reasons: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def assess(result: SearchResult, store: Store, documents: list[DocumentInfo],
           abstain_below: float, confidence: Confidence | None = None,
           score_floor: float = 0.0, names: LawNames | None = None) -> Evidence:
    """Answer or abstain, with the reasons and the notices to show (``names``: the
    documents' ``LawNames`` when prepared once, as ``Searcher.law_names`` is)."""
    unfound = [unfound_notice(u, documents, result) for u in result.unfound]
    later = [not_yet_law_notice(n, result) for n in result.not_yet_law]
    if later and not result.analysis.named_docs:
        # Every Act the question names came later: another law's provisions (even one of
        # the same number) would be quoted as if they were the one asked about.
        return Evidence(False, ["names only laws not yet in force on the date asked"],
                        later)
    other = [other_year_notice(o, documents) for o in result.analysis.other_years]
    if other and not result.analysis.named_docs:
        # "Section 18 of the Consumer Protection Act, 1986" where the corpus holds the Act
        # of 2019: its section 18 would be quoted as if it were the one asked about.
        return Evidence(False, ["names a law not in the corpus: " + ", ".join(
            o.asked for o in result.analysis.other_years)], later + other)
    if any(h.pinned for h in result.hits):
        return Evidence(True, ["names an existing provision"], later + other + unfound)
    query = result.analysis.query
    ev = Evidence(True, notices=later + other)
    if unfound:
        ev.answerable = False
        ev.reasons.append("names a provision the index does not hold: "
                          + ", ".join(u.words for u in result.unfound))
        ev.notices += unfound

    place = _state_asked_about(query, documents)
    if place:
        ev.answerable = False
        ev.reasons.append(f"state-specific ({place}) with no {place} instruments ingested")
        ev.notices.append(STATE_INSTRUMENT_NOTICE.format(place=place))
        if result.hits:
            top = result.hits[0]
            ev.notices.append(NEAREST_CENTRAL_NOTICE.format(
                label=display_path(top.provision_path),
                title=next((d.title for d in documents if d.id == top.doc_id), top.doc_id)))

    unheld = unheld_laws(query, names if names is not None else documents)
    if unheld:
        ev.answerable = False
        ev.reasons.append(f"asks about a law not in the corpus: {', '.join(unheld)}")
        ev.notices.append(UNHELD_LAW_NOTICE.format(laws=" and ".join(unheld)))

    lead_ids = dict.fromkeys(h.doc_id for h in result.hits[:LEAD_HITS])
    unknown = _unknown_names(query, store, documents,
                             [d for d in documents if d.id in lead_ids])
    if unknown:
        ev.answerable = False
        ev.reasons.append(f"names what the corpus never mentions: {', '.join(unknown)}")
        ev.notices.append(UNKNOWN_TERM_NOTICE.format(terms=", ".join(unknown)))

    weak = weak_evidence(result, abstain_below, confidence, score_floor)
    if weak:
        ev.answerable = False
        ev.reasons.append(weak)
    return ev


def not_yet_law_notice(later: NotYetLaw, result: SearchResult) -> str:
    """What to tell the user of a named document that was not yet law on the date asked."""
    on = result.as_of.isoformat() if result.as_of else ""
    if later.printed:
        return NOT_YET_LAW_NOTICE.format(title=later.title, date=on,
                                         start=later.law_from.isoformat())
    return NOT_YET_ENACTED_NOTICE.format(title=later.title, date=on, year=later.law_from.year)


def other_year_notice(other: OtherYear, documents: Sequence[DocumentInfo]) -> str:
    """What to tell the user of a law named as an ingested one with another year."""
    held = next((d.title for d in documents if d.id == other.doc_id), other.doc_id)
    held = re.sub(r"^the\s+", "", held, flags=re.IGNORECASE)
    return OTHER_YEAR_NOTICE.format(asked=other.asked, held=held)


def unfound_notice(ref: UnfoundReference, documents: Sequence[DocumentInfo],
                   result: SearchResult) -> str:
    """What to tell the user of a named provision the index does not hold."""
    label = display_path(ref.path)
    if ref.doc_id is None:
        return UNFOUND_ANYWHERE_NOTICE.format(label=label) if not ref.not_yet else \
            NOT_IN_FORCE_ANYWHERE_NOTICE.format(label=label, date=result.as_of)
    title = next((d.title for d in documents if d.id == ref.doc_id), ref.doc_id)
    if ref.not_yet:
        return NOT_YET_IN_FORCE_NOTICE.format(label=label, title=title, date=result.as_of)
    if ref.nearest is not None:
        return UNFOUND_NEAREST_NOTICE.format(title=title, label=label,
                                             nearest=display_path(ref.nearest))
    return UNFOUND_PROVISION_NOTICE.format(title=title, label=label)


def weak_evidence(result: SearchResult, abstain_below: float,
                  confidence: Confidence | None = None, score_floor: float = 0.0) -> str | None:
    """Why the evidence is too weak to answer from (the calibrated score below its floor
    when given, else the best cosine below ``abstain_below``), or None when it is not."""
    if any(h.pinned for h in result.hits):
        return None
    if confidence is not None:
        if confidence.score < score_floor:
            return f"answer score {confidence.score:.2f} < {score_floor:.2f}"
    elif result.best_cosine is not None and result.best_cosine < abstain_below:
        return f"best match {result.best_cosine:.2f} < {abstain_below:.2f}"
    return None


def _state_asked_about(query: str, documents: list[DocumentInfo]) -> str | None:
    low = f" {query.lower()} "
    covered = {d.jurisdiction.lower() for d in documents}
    for name, state in STATES_AND_CITIES.items():
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", low) and \
                state.lower() not in covered:
            return state
    return None


# A law named by its title: capitalised words ending in "Act" or "Code", with its year.
_TITLED_LAW = re.compile(r"(?<![\w-])(?:[A-Z][\w'()-]*\s+(?:(?:and|of|to|for|the|in|on)\s+)?)"
                         r"{1,8}(?:Act|Code)\b(?:,?\s+\d{4})?")


def unheld_laws(query: str, documents: Sequence[DocumentInfo] | LawNames) -> list[str]:
    """Laws the question names by title ("the Motor Vehicles Act") when it names no
    ingested document at all: such a question is about a law the corpus does not hold,
    and quoting the nearest provision of another law would answer a different question.
    A question that also names an ingested Act (a cross-reference) is left to the rest.
    ``documents`` may be their ``LawNames``, prepared once (``Searcher.law_names``)."""
    names = documents if isinstance(documents, LawNames) else LawNames.of(documents)
    named, other_years = document_mentions(query, names.aliases)
    if named:
        return []
    out = []
    for m in _TITLED_LAW.finditer(query):
        if any(o.start < m.end() and m.start() < o.end for o in other_years):
            continue  # an ingested Act's name with another year: told so on its own
        words = m.group(0).split()
        while words and words[0].lower() in STOPWORDS:
            words = words[1:]
        # "This Act" or "the Act" names no particular law; a short name of an ingested
        # Act that is no alias of it ("the Fair Compensation Act") names that Act.
        if len(words) == 2 and words[0].isupper() and words[0] in names.initials:
            continue  # "the RTI Act": an ingested Act by its initials
        if len(words) >= 2 and not _short_title(words[:-1], names):
            out.append(" ".join(words))
    return list(dict.fromkeys(out))


def _short_title(words: list[str], names: LawNames) -> bool:
    """At least half of ``words`` are title words that only one ingested document's
    title has, the same document for all of them ("the Stamp Duty Act": "stamp" is the
    Indian Stamp Act's alone)."""
    content = [w.lower() for w in words if w.lower() not in STOPWORDS]
    owners = Counter(names.sole_title[w] for w in content if w in names.sole_title)
    return bool(content) and any(n * 2 >= len(content) for n in owners.values())


def _initialisms(query: str) -> set[str]:
    """Initials of every run of 2-5 consecutive words: "managing director" -> "md"."""
    words = re.findall(r"[A-Za-z]+", query.lower())
    return {"".join(w[0] for w in words[i:i + n]) for n in range(2, 6)
            for i in range(len(words) - n + 1)}


def _unknown_names(query: str, store: Store, documents: list[DocumentInfo],
                   lead: Sequence[DocumentInfo] = ()) -> list[str]:
    """Acronyms and names of a case, body, scheme or thing that occur nowhere in the corpus.
    An acronym that occurs nowhere is still known when a ``lead`` document (one the
    answer would quote from) writes out a name with its initials ("NCLAT": "National
    Company Law Appellate Tribunal", ``search/initialisms.py``).

    A capitalised word is grammar, not a name, when it opens a sentence; an honorific (Mr,
    Shri) marks a person. What is left are runs of capitalised words. A run is a party to
    the user's own facts, saying nothing about which law is asked, when it is one word
    with no article ("sold it to Suresh"), follows an honorific, or follows a party word
    or a preposition of a dealing ("my landlord Ramesh Kumar", "bought from Lodha
    Developers"). It names a thing the law may cover when an article precedes it ("the
    Zorblax deposit", but not "the Sharma family"), or a case when a court or "v." stands
    beside it ("the High Court in Neelkamal Realtors"); so does a run of several words in
    no party's place ("Is Aadhaar Card needed?")."""
    known = {a.lower() for d in documents for a in d.aliases} | set(LAY_TO_STATUTE)
    # An Act's initials name it even when no alias was registered (a plain-file ingest).
    known |= {i.lower() for d in documents for i in title_initials(d.title)}
    known |= set(STATES_AND_CITIES)
    words = []
    for run in _capitalised_runs(query):
        acronyms = [w for w in run.words if w.isupper()]
        if _names_a_thing(query, run):
            words += [w for w in run.words if w.lower() not in known]
        else:
            words += [w for w in acronyms if w.lower() not in known]
    spelled_out = _initialisms(query)
    words = [w for w in dict.fromkeys(words) if not (w.isupper() and w.lower() in spelled_out)]
    if not words:
        return []
    df = store.term_document_frequency([w.lower() for w in words])
    return [w for w in words if df.get(w.lower(), 0) == 0
            and not (_ACRONYM.fullmatch(w) and spells_out(store, lead, w))]


_ACRONYM = re.compile(r"[A-Z]{3,}s?")
# The leading hits whose documents may spell out an acronym of the question.
LEAD_HITS = 5


@dataclass(frozen=True, slots=True)
class _Run:
    words: list[str]
    start: int
    end: int
    honorific: bool  # an honorific stood before it: a person's name


def _capitalised_runs(query: str) -> list[_Run]:
    """Runs of capitalised words (and acronyms) joined by single spaces, without the word
    that opens a sentence and without honorifics, which end a run."""
    runs: list[_Run] = []
    current: list[re.Match[str]] = []
    honorific = False
    last_end = -2  # where the previous capitalised word (or honorific) ended

    def close() -> None:
        if current:
            runs.append(_Run([m.group(1) for m in current], current[0].start(),
                             current[-1].end(), honorific))

    for m in _SALIENT.finditer(query):
        word = m.group(1)
        gap = query[last_end:m.start()]
        if not (gap == " " or (gap == ". " and honorific and not current)):
            close()
            current, honorific = [], False
        last_end = m.end()
        if word.lower() in _HONORIFICS:
            close()
            current, honorific = [], True
            continue
        if _opens_sentence(query[:m.start()]) and not word.isupper() and not honorific:
            continue  # capitalised because it opens the sentence
        current.append(m)
    close()
    return runs


def _opens_sentence(before: str) -> bool:
    """Whether a word after ``before`` opens a sentence (so is capitalised by grammar); the
    full stop of "v." or "Mr." ends no sentence."""
    before = before.rstrip()
    if not before or before[-1] in "?!:;\"“(":
        return True
    if before[-1] != ".":
        return False
    last = re.search(r"(\w+)\.$", before)
    return last is None or last.group(1).lower() not in _ABBREVIATIONS


def _names_a_thing(query: str, run: _Run) -> bool:
    """Whether a run of capitalised words names a case, body, scheme or thing rather than a
    party to the user's facts (see ``_unknown_names``)."""
    before, after = query[:run.start], query[run.end:]
    if _CASE_BEFORE.search(before) or _CASE_AFTER.match(after):
        return True
    if run.honorific:
        return False
    if _ARTICLE_BEFORE.search(before):
        return not _PERSONS_AFTER.match(after)
    if len(run.words) == 1:
        return False
    return not _PARTY_BEFORE.search(before)


# A person's name takes no article; "the Zorblax deposit" names a thing the law may cover.
_ARTICLE_BEFORE = re.compile(r"(?<![\w-])(?:the|a|an)[ \t]+$", re.IGNORECASE)
_PERSONS_AFTER = re.compile(r"[ \t]+(?:family|families|household|brothers|sisters|couple|"
                            r"heirs|sons|daughters|children|parents)\b", re.IGNORECASE)
_ABBREVIATIONS = frozenset({"v", "vs", "no", "nos", "rs", "s", "ss", "sec", "st", "co", "ltd",
                            "pvt", "mr", "mrs", "ms", "dr", "smt"})
_HONORIFICS = frozenset({"mr", "mrs", "ms", "miss", "dr", "shri", "sri", "smt", "shrimati",
                         "kumari", "km", "late", "sir", "madam"})
# Who a party is to the user, or a dealing with one: "my landlord Ramesh Kumar", "sold it
# to Ramesh Kumar", "a complaint against Lodha Developers".
_PARTY_BEFORE = re.compile(
    r"(?<![\w-])(?:landlord|landlady|tenant|lessee|lessor|builder|developer|promoter|seller|"
    r"buyer|vendor|purchaser|owner|neighbou?r|brother|sister|father|mother|son|daughter|"
    r"wife|husband|uncle|aunt|cousin|friend|employer|employee|agent|broker|partner|"
    r"contractor|lender|borrower|client|to|from|by|with|against|and|or)[ \t]+$",
    re.IGNORECASE)
# A case asked about: "the High Court in X", "X v. Y", "the X case".
_CASE_BEFORE = re.compile(r"(?<![\w-])(?:(?:court|tribunal|bench|judgment|judgement|ruling|"
                          r"decision|verdict)\s+in|v\.|vs\.?|versus)[ \t]+(?:the[ \t]+)?$",
                          re.IGNORECASE)
_CASE_AFTER = re.compile(r"[ \t]+(?:v\.|vs\.?|versus|case|judgment|judgement|ruling)(?![\w-])",
                         re.IGNORECASE)


_ASKS_QUANTITY = re.compile(
    r"\bhow\s+many\s+(?:more\s+)?(?P<unit>days|weeks|months|years)\b"
    r"|\b(?:what|which)\s+(?P<percent>percentage|per\s*cent)", re.IGNORECASE)


def missing_quantity(query: str, quotes: list[str]) -> str | None:
    """The unit a question asks a number of ("how many months", "what percentage") when
    none of ``quotes`` states a number of it; None when it asks for none or one is stated.
    Numbers are compared in canonical form ("three months" = "3 months")."""
    m = _ASKS_QUANTITY.search(query)
    if m is None:
        return None
    if m.group("percent"):
        unit, stated = "per cent", re.compile(r"\b\d+(?:\.\d+)?\s+per cent\b")
    else:
        unit = m.group("unit").lower()
        # "thirty days", "3 calendar months", "six clear days" all state a number of them.
        stated = re.compile(rf"\b\d+(?:\.\d+)?\s+(?:[a-z]+\s+)?{unit[:-1]}s?\b",
                            re.IGNORECASE)
    if any(stated.search(canonical(q)) for q in quotes):
        return None
    return unit


def missing_quantity_notice(unit: str, label: str, title: str) -> str:
    """What to tell the user when the quotes state no number of ``unit``."""
    return MISSING_QUANTITY_NOTICE.format(unit=unit, label=label, title=title)


def lay_question_supported(result: SearchResult, confidence: Confidence,
                           abstain_below: float, calibrated: bool = False,
                           score_floor: float = 0.0) -> bool:
    """A question with no legal word (``guard.scope``) is answered only when its evidence
    is not weak and the dense and the lexical retrieval, each on its own, rank the lead
    provision in their top five: plain words about a legal dispute find the provision
    both ways, while a question off the corpus's topics matches on incidental words."""
    if any(h.pinned for h in result.hits):
        return True
    if weak_evidence(result, abstain_below, confidence if calibrated else None, score_floor):
        return False
    return confidence.features.get("lead_agreed", 0.0) >= 1.0
