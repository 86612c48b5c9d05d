"""Plain-language words -> the words statutes use for the same thing.

People ask about "builders", "flats" and "fines"; Indian statutes say "promoter",
"apartment" and "penalty". BM25 only matches words, so a question's lay terms are
expanded with their statutory counterparts. Entries are general legal vocabulary, not
answers to particular questions; add to them when a user's wording is missed.

``QUESTION_FOCUS`` maps question forms ("who decides", "which court", "how fast") to the
words of the provisions that answer them; it is used for the parts of a several-part
question only (search/decompose.py).
"""

from __future__ import annotations

import re

LAY_TO_STATUTE: dict[str, tuple[str, ...]] = {
    # parties
    "builder": ("promoter",),
    "developer": ("promoter",),
    "homebuyer": ("allottee",),
    "homebuyers": ("allottees", "allottee"),
    "buyer": ("allottee", "purchaser"),
    "buyers": ("allottees", "allottee"),
    "broker": ("real estate agent", "agent"),
    "dealer": ("real estate agent", "agent"),
    "landlord": ("lessor",),
    "tenant": ("lessee",),
    "government": ("appropriate Government",),
    "regulator": ("Authority",),
    "pio": ("Public Information Officer",),
    "nclt": ("Adjudicating Authority", "National Company Law Tribunal"),
    "tribunal": ("Appellate Tribunal",),
    "judge": ("adjudicating officer",),
    # property
    "flat": ("apartment",),
    "flats": ("apartments", "apartment"),
    "home": ("apartment",),
    "house": ("apartment", "building"),
    "land": ("land", "immoveable property"),
    "property": ("immoveable property",),
    "brochure": ("advertisement", "prospectus"),
    "ad": ("advertisement",),
    "advert": ("advertisement",),
    "advertising": ("advertisement",),
    "ads": ("advertisement",),
    # consequences
    "fine": ("penalty", "fine"),
    "fined": ("penalty",),
    "penalised": ("penalty", "punishable"),
    "penalized": ("penalty", "punishable"),
    "jail": ("imprisonment",),
    "prison": ("imprisonment",),
    "punishment": ("punishable", "imprisonment", "penalty"),
    "refund": ("return", "amount", "interest"),
    "compensation": ("compensation",),
    "cancel": ("cancel", "terminate"),
    "cancelled": ("cancel", "terminate"),
    # time
    "deadline": ("within", "period", "days"),
    "late": ("delay", "period"),
    "delayed": ("delay", "unable to give possession"),
    "delay": ("delay",),
    "how long": ("within", "period"),
    "time limit": ("within", "period", "limitation"),
    "handover": ("possession",),
    # procedure
    "complain": ("complaint",),
    "sue": ("suit", "complaint"),
    "court": ("court", "Commission"),
    "appeal": ("appeal", "Appellate"),
    "register": ("registration", "register"),
    "registering": ("registration", "register"),
    "unregistered": ("nonregistration", "registration"),
    "not registering": ("nonregistration",),
    "not registered": ("nonregistration",),
    "never registered": ("nonregistration",),
    "without registering": ("nonregistration",),
    "without registration": ("nonregistration",),
    "penalty": ("penalty", "punishment", "punishable"),
    "penalties": ("penalty", "punishment", "punishable"),
    "bank account": ("separate account", "scheduled bank"),
    "loan": ("loan", "charge", "mortgage"),
    "mortgaged": ("mortgage", "charge"),
    "insurance": ("insurance", "insure"),
    "bookings": ("advance", "booking"),
}


def expansions(query: str) -> list[str]:
    """Statutory terms for the lay words and phrases in ``query`` (lower-cased match)."""
    text = f" {' '.join(query.lower().replace('-', ' ').split())} "
    found: list[str] = []
    for lay, terms in LAY_TO_STATUTE.items():
        if f" {lay} " in text or f" {lay}'" in text or f" {lay}?" in text or \
                f" {lay}," in text or f" {lay}." in text:
            found.extend(terms)
    return list(dict.fromkeys(found))


# What kind of provision answers a question part, read from its question form, in the
# words statutes use for it. A part such as "who decides the compensation?" asks for the
# provision that gives someone the power to decide ("adjudging compensation", "the
# adjudicating officer"); "in which court?" for the one on jurisdiction and cognizance.
# These are applied to the parts of a several-part question only (search/decompose.py):
# added to a whole question they pulled one-part questions off their subject.
QUESTION_FOCUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bwho\s+(?:\w+\s+){0,2}(?:decides?|determines?|fix(?:es)?|assess(?:es)?|awards?|"
     r"quantif(?:y|ies)|adjudicates?|settles?)\b", ("adjudge", "adjudicating officer")),
    # Where an offence is tried (not where a complaint or an appeal is filed).
    (r"\b(?:which|what)\s+(?:\w+\s+)?(?:court|courts|magistrate)\b|"
     r"\bwhere\s+(?:\w+\s+){0,3}(?:tried|prosecuted)\b",
     ("court", "cognizance", "jurisdiction", "try")),
    (r"\bwho\s+(?:can|may|could|is\s+eligible\s+to)\s+(?:head|chair|lead|become|be\s+"
     r"appointed|be\s+(?:a|the)\s+(?:member|chairperson|president))\b|"
     r"\beligib\w*\b|\bqualif\w*\b", ("qualifications", "appointment", "Chairperson")),
    (r"\bhow\s+(?:fast|soon|quickly|long)\b|\bby\s+when\b|\bwithin\s+(?:what|which|how)\b|"
     r"\bwhat\s+(?:is\s+the\s+)?(?:deadline|time\s+limit)\b|"
     r"\bthe\s+time\s+(?:allowed|given|available)\b|"
     r"\bthe\s+time\s+(?:an?\s+|the\s+)?\w+\s+(?:has|gets?|is\s+given)\s+to\b",
     ("within", "period", "days")),
    # Whether / where a complaint may be made: the provision that lets a person file it.
    (r"\b(?:allow\w*|permit\w*|can|may|entitled|right\s+to)\b.{0,25}\bcomplain\w*\b|"
     r"\b(?:file|lodge)\w*\s+(?:a\s+|my\s+|the\s+)?complaint\b|"
     # the asker's "where do I complain?", "who do I complain to?"
     r"\b(?:where|who|whom)\s+(?:\w+\s+){0,3}complain\w*\b", ("may file", "filed")),
    # Where a decision goes next, in plain words ("where can I take it next?", "where do I
    # go to challenge that?"): the provision on the appeal from it.
    (r"\bwhere\s+(?:\w+\s+){0,3}(?:go|take|turn)\b(?:\s+\w+){0,2}?\s+(?:next|from\s+here|"
     r"to\s+(?:challenge|contest|dispute))\b|\bwhere\s+(?:\w+\s+){0,3}"
     r"(?:challenge|contest)\w*\b", ("appeal", "prefer an appeal")),
    # How one law stands to another: overrides it, excludes it, or adds to it (c13).
    (r"\b(?:overrid\w*|exclud\w*|oust\w*|prevail\w*|derogat\w*|relat\w*\s+to|bars?|"
     r"supersed\w*|displac\w*|(?:shut|rule)s?\s+out|takes?\s+away)\b"
     r".{0,30}\b(?:other|another)\b",
     # the statute's fixed phrasings: a savings clause ("in addition to, and not in
     # derogation of"), an overriding clause ("notwithstanding anything inconsistent"), a
     # heading ("Act to have overriding effect", "Application of other laws not barred")
     ("in addition to", "not in derogation", "overriding effect", "other laws", "not barred",
      "notwithstanding anything inconsistent")),
)
_FOCUS = tuple((re.compile(p, re.IGNORECASE), terms) for p, terms in QUESTION_FOCUS)


def focus_terms(part: str) -> list[str]:
    """Statutory words for the kind of provision that answers ``part`` (see QUESTION_FOCUS)."""
    found: list[str] = []
    for pattern, terms in _FOCUS:
        if pattern.search(part):
            found.extend(terms)
    return list(dict.fromkeys(found))
