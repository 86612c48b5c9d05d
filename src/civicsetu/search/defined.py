"""A term the question puts in quotes is asked about as the law defines it.

"Who is the 'promoter' under RERA?", "are those 'thirty days' calendar days?": quoting a
word is how a reader asks what the statute means by it. When the quoted phrase (or, for
a phrase of one or two words, its head noun) is a term the question's Act defines (the
store's ``definitions`` table, read from the Acts' own "X" means ... clauses), that
definition is placed first in the ranking: fusion by rank alone leaves it wherever the
rest of the question's words happen to put a long definitions section. A quoted passage
that no Act defines ('as provided under this Act') changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from civicsetu.search.query import STOPWORDS
from civicsetu.store.base import Store
from civicsetu.types import split_provision_id

# Quotes that open after a space, a bracket or the start (an apostrophe inside a word,
# "builder's", does not open one).
_QUOTED = re.compile(r"(?:^|(?<=[\s(\[—-]))['‘\"“]([^'’\"”]{2,80})['’\"”]")
_ARTICLES = frozenset({"the", "a", "an"})
MAX_TERMS = 2  # definitions placed per question


def quoted_phrases(query: str) -> list[str]:
    """The phrases the question puts in quotes, lower-cased, in order."""
    return [" ".join(m.lower().split()) for m in _QUOTED.findall(query)]


def term_variants(phrase: str, head_noun: bool = True) -> list[str]:
    """How a definitions table may key ``phrase``: as written, without articles, with its
    last word singular; for one or two words also the head noun alone ("thirty days" ->
    "day")."""
    words = re.findall(r"[a-z][a-z-]*", phrase)
    if not words:
        return []
    bare = [w for w in words if w not in _ARTICLES] or words
    out = [" ".join(words), " ".join(bare), " ".join([*bare[:-1], _singular(bare[-1])])]
    if len(bare) <= 2 and head_noun:
        out += [bare[-1], _singular(bare[-1])]
    return list(dict.fromkeys(v for v in out if len(v) > 2))


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


# What a question asks when it asks for a meaning. After the cue comes the term ("what
# does RERA mean by an allottee", "who counts as a consumer"); "include" follows it ("does
# immovable property include standing timber").
_TERM_AFTER = re.compile(
    r"\b(?:mean(?:s|t)?\s+by|meaning\s+of|definition\s+of|defined\s+as|"
    r"(?:counts?|qualif(?:y|ies)|regarded|treated|considered|classed)\s+as|"
    r"(?:who|what)\s+is\s+an?|(?:are|am|is)\s+(?:we|i|they|he|she|it|this|that)\s+an?)\s",
    re.IGNORECASE)
_TERM_BEFORE = re.compile(r"\s(?:includes?|cover|covers|mean|means)\b", re.IGNORECASE)
_DOES = re.compile(r"\b(?:does|do|is|are|would|will)\s", re.IGNORECASE)
MAX_TERM_WORDS = 5


def asked_definitions(store: Store, query: str, docs: Sequence[str]) -> list[str]:
    """Provision id of the definition of the term the question asks the meaning of without
    quoting it, in the first of ``docs`` that defines it; [] when it asks none."""
    spans = [(m.end(), len(query)) for m in _TERM_AFTER.finditer(query)]
    for m in _TERM_BEFORE.finditer(query):
        opener = list(_DOES.finditer(query, 0, m.start()))
        if opener:
            spans.append((opener[-1].end(), m.start()))
    for start, end in spans:
        words = re.findall(r"[a-z][a-z-]*", query[start:end].lower())
        while words and words[0] in _ARTICLES:
            words = words[1:]
        # The longest run of words next to the cue that the question's Acts define.
        for n in range(min(MAX_TERM_WORDS, len(words)), 0, -1):
            pid = definition_of(store, " ".join(words[:n]), docs, head_noun=False)
            if pid is not None:
                return [pid]
    return []


def quoted_definitions(store: Store, query: str, docs: Sequence[str]) -> list[str]:
    """Provision ids of the definitions of the question's quoted terms, looked up in
    ``docs`` (the question's Acts, most likely first); each term in the first of them that
    defines it, the longest matching form first."""
    out: list[str] = []
    for phrase in quoted_phrases(query):
        pid = definition_of(store, phrase, docs)
        if pid is not None and pid not in out:
            out.append(pid)
        if len(out) >= MAX_TERMS:
            break
    return out


def definition_of(store: Store, phrase: str, docs: Sequence[str],
                  head_noun: bool = True) -> str | None:
    """Provision id of the definition of ``phrase`` in the first of ``docs`` that defines
    it (its longest matching form first; without ``head_noun``, never the last word of the
    phrase alone), or None."""
    variants = term_variants(phrase, head_noun)
    if not variants or not docs:
        return None
    by_doc: dict[str, dict[str, str]] = {}
    for term, pid in store.definitions_for(variants, list(docs)):
        by_doc.setdefault(split_provision_id(pid)[0], {})[term] = pid
    for doc_id in docs:
        terms = by_doc.get(doc_id)
        if terms:
            return next(terms[v] for v in variants if v in terms)
    return None


# A term that more Acts than this define ("person", "notice") says nothing about which
# Act a question is about.
MAX_DEFINING_DOCS = 3
MAX_GRAM_WORDS = 3


def defining_document(store: Store, query: str, allowed: set[str]) -> str | None:
    """The document that defines the most of the question's terms, when it defines at
    least two, one of them a phrase of several words ("completion certificate", not only
    "project"), and more of them than any other document; None otherwise. Terms defined
    by more than ``MAX_DEFINING_DOCS`` documents are not counted. A question that speaks
    an Act's own defined vocabulary is about that Act even when it names none."""
    words = re.findall(r"[a-z][a-z-]*", query.lower())
    grams = {" ".join(words[i:i + n]) for n in range(1, MAX_GRAM_WORDS + 1)
             for i in range(len(words) - n + 1)
             if words[i] not in STOPWORDS and words[i + n - 1] not in STOPWORDS}
    if not any(" " in g for g in grams):
        # No phrase to define: nothing can be routed, so the store is not asked (the
        # comparison code routes every single word of a part).
        return None
    variant_of: dict[str, str] = {}
    for gram in grams:
        for v in term_variants(gram, head_noun=False):
            variant_of.setdefault(v, gram)
    definers: dict[str, set[str]] = {}  # gram -> documents defining it
    for term, pid in store.definitions_for(list(variant_of)):
        definers.setdefault(variant_of[term], set()).add(split_provision_id(pid)[0])
    terms: dict[str, set[str]] = {}  # document -> grams it defines
    for gram, docs in definers.items():
        if len(docs) <= MAX_DEFINING_DOCS:
            for doc_id in docs & allowed:
                terms.setdefault(doc_id, set()).add(gram)
    counted = {d: _distinct(g) for d, g in terms.items()}
    ranked = sorted(counted.items(), key=lambda kv: -len(kv[1]))
    if not ranked:
        return None
    doc_id, best = ranked[0]
    runner_up = len(ranked[1][1]) if len(ranked) > 1 else 0
    if len(best) >= 2 and len(best) > runner_up and any(" " in g for g in best):
        return doc_id
    return None


def _distinct(grams: set[str]) -> set[str]:
    """``grams`` less those inside a longer one ("project" in "real estate project") and
    plural forms of another ("allottees" beside "allottee")."""
    out = set()
    for g in grams:
        if any(g != o and f" {g} " in f" {o} " for o in grams):
            continue
        if _singular(g) != g and _singular(g) in grams:
            continue
        out.add(g)
    return out
