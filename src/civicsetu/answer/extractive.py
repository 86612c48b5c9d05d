"""The no-LLM answerer: choose the provisions and sentences that answer, quote them.

Candidate units are the "own text" of each provision inside the top hits (a clause
without its sub-clauses), cut into sentences when long. Each unit is scored by the
idf-weighted share of the question's terms it contains plus the retrieval rank of its hit;
the best few become verbatim quotes with pinpoint citations, verified before return.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from civicsetu.answer.completions import complete_quotes
from civicsetu.answer.evidence import assess, missing_quantity, missing_quantity_notice
from civicsetu.answer.messages import ABSTENTION, DISCLAIMER, LIST_CONTINUES_NOTICE
from civicsetu.answer.numbers import rupee_amounts
from civicsetu.answer.parts import PartAnswers, answering_units, fits_amount
from civicsetu.answer.pinpoint import pinpointed, without_repeats
from civicsetu.answer.units import (
    KEEP_RELATIVE,
    MAX_DEFINITION_CHARS,
    MAX_QUOTE_CHARS,
    Unit,
    law_end,
    list_continues,
    opening_words,
    own_span,
    sentences,
    unfinished,
    whole_sentences,
)
from civicsetu.answer.verify import fold, verify_citations
from civicsetu.guard.injection import screen
from civicsetu.ingest.chunker import display_path
from civicsetu.search.hybrid import SearchResult
from civicsetu.search.lawnames import LawNames
from civicsetu.search.parties import parties_in
from civicsetu.search.query import AliasTable, named_documents
from civicsetu.store.base import DocumentInfo, Store
from civicsetu.types import Answer, Citation, Hit, Provision, section_of, split_provision_id

if TYPE_CHECKING:
    from civicsetu.answer.confidence import Confidence

MAX_QUOTES = 4
MAX_TOTAL_CHARS = 3000
CANDIDATE_HITS = 6
RANK_WEIGHT = 0.35
# Our synonyms for the user's words count half: the user's own wording is the better signal.
EXPANSION_WEIGHT = 0.5
_TOKEN = re.compile(r"[a-z0-9]+")
# Fewer, better citations: after the lead, a unit scoring below KEEP_RELATIVE of the best
# (answer/units.py) is quoted only if it holds at least NEW_TERMS_SHARE of the question's
# (idf-weighted) words that the quotes before it do not. Chosen on the dev set as the
# point that raises citation precision most for the least key-fact loss
# (docs/EVALUATION.md).
NEW_TERMS_SHARE = 0.1
# Each part of the question is answered from the hits of the first PART_SECTIONS sections
# and those sections: a unit stating what the part asks (answer/parts.py) holding at least
# PART_FLOOR of the part's words. A unit past the first PART_HITS hits answers only an ask
# that no unit of its Act before them answers: with all 10 sections competing alike,
# "decided by a majority of votes" outbid the adjudicating officer on a paraphrase
# (tests/answer/test_parts.py); with only the first 10 hits, the second Act of a comparison
# or the 10th section (the appeal's pre-deposit) was never reached.
PART_HITS = 10
PART_SECTIONS = 10
PART_FLOOR = 0.3


def without_instructions(result: SearchResult) -> SearchResult:
    """Drop retrieved passages that carry instructions (``guard.injection``): they are
    not law, and quoting them would let a planted document change an answer's sources.
    No provision of the bundled Acts is flagged (tests/guard/test_injection_suite.py)."""
    kept = [h for h in result.hits if not screen(h.text).flagged]
    return result if len(kept) == len(result.hits) else replace(result, hits=kept)


def answer_extractive(result: SearchResult, store: Store,
                      documents: list[DocumentInfo], abstain_below: float,
                      complete: bool = True, confidence: Confidence | None = None,
                      score_floor: float = 0.0, quantity_check: bool = True,
                      names: LawNames | None = None) -> Answer:
    """Quote the best verified units of the evidence, or abstain (``evidence.assess``, given
    ``names`` when prepared once; with ``quantity_check``, also when the question asks for
    a number the quotes never state)."""
    t0 = time.perf_counter()
    retrieved = result.hits  # reported as retrieved; only the quoting skips instructions
    result = without_instructions(result)
    query = result.analysis.query
    evidence = assess(result, store, documents, abstain_below, confidence, score_floor,
                      names)
    if not evidence.answerable or not result.hits:
        return Answer(query, ABSTENTION, True, [], retrieved,
                      {**result.timings_ms, "answer": _ms(t0)}, evidence.notices)

    citations, rejected = quoted_evidence(result, store, documents, complete=complete)
    if not citations:
        return Answer(query, ABSTENTION, True, [], retrieved,
                      {**result.timings_ms, "answer": _ms(t0)},
                      [f"{rejected} candidate quotes failed verification"])
    unit = missing_quantity(query, [c.quote for c in citations]) if quantity_check else None
    if unit is not None:
        lead = citations[0]
        return Answer(query, ABSTENTION, True, [], retrieved,
                      {**result.timings_ms, "answer": _ms(t0)},
                      [*evidence.notices, missing_quantity_notice(unit, lead.label,
                                                                   lead.title)])
    text = _compose(citations)
    return Answer(query, text, False, citations, retrieved,
                  {**result.timings_ms, "answer": _ms(t0)},
                  [*evidence.notices, *_continuing(citations, store, result.as_of)])


def _continuing(citations: list[Citation], store: Store, as_of: date | None) -> list[str]:
    """A notice for each quote that holds a provision's opening words and only the first
    of the clauses they introduce (the rest would not fit one answer)."""
    notes = []
    for c in citations:
        doc_id, path = split_provision_id(c.provision_id)
        family = store.provisions_of_section(doc_id, section_of(path), as_of)
        p = next((q for q in family if q.path == path), None)
        if p is not None and list_continues(p, family, c.end):
            notes.append(LIST_CONTINUES_NOTICE.format(label=c.label))
    return notes


def quoted_evidence(result: SearchResult, store: Store, documents: list[DocumentInfo],
                    max_quotes: int = MAX_QUOTES,
                    max_chars: int = MAX_TOTAL_CHARS,
                    complete: bool = True,
                    selective: bool = True) -> tuple[list[Citation], int]:
    """The best verbatim units of the top hits, as verified citations (and how many
    candidates failed verification). The extractive answer quotes them; an LLM gets them
    as its numbered context. With ``complete``, what finishes the chosen quotes' rules
    follows them (``answer/completions.py``); with ``selective`` (the shown answer, not
    an LLM's context) weak units that add no question words are left out, and with both,
    each part of a several-part question is given the unit that states what it asks
    (``answer/parts.py``)."""
    result = without_instructions(result)
    read: dict[tuple[str, str], list[Provision]] = {}  # provisions by section, read once
    units = _candidate_units(result.hits[:max(CANDIDATE_HITS, max_quotes)], store,
                             result.as_of, read)
    idf = _score(units, result, store)
    if selective:
        units = _of_the_lead_party(units, result.analysis.query, store, result.as_of)
    chosen = _choose(units, max_quotes, max_chars, selective)
    added: list[Unit] = []
    if selective and complete and chosen:
        # Each part of the question gets the unit that states what it asks (parts.py).
        def candidates() -> list[Unit]:
            pool = _of_first_sections(result.hits, PART_SECTIONS)
            near = _candidate_units(pool, store, result.as_of, read)
            whole = _section_units(pool, store, result.as_of, near, read)
            _score(near + whole, result, store)
            return near + whole

        found = _part_answers(chosen, candidates, result, documents, idf)
        added = found.added
        if found.asks and not found.unanswered:
            # Every part answered by a quote: a weak quote that answers none of them is
            # left out (the budget follows the evidence).
            best = max(u.score for u in chosen)
            chosen = [u for i, u in enumerate(chosen) if i == 0 or
                      u.score >= KEEP_RELATIVE * best or
                      (u.provision.id, u.start) in found.answering]
        chosen = _within_amount([*chosen, *added], result.analysis.query)
    if complete and chosen:
        chosen = complete_quotes(chosen, result, store, max_quotes + len(added),
                                 max_chars + sum(len(u.text) for u in added), added)
    def read_section(doc_id: str, section: str) -> list[Provision]:
        if (doc_id, section) not in read:
            read[doc_id, section] = store.provisions_of_section(doc_id, section, result.as_of)
        return read[doc_id, section]

    chosen = pinpointed(without_repeats(chosen), read_section)
    titles = {d.id: d.title for d in documents}
    section_titles = _section_titles(chosen, store, result.as_of)
    citations = [_citation(u, titles, section_titles) for u in chosen]
    ok, rejected = verify_citations(citations, store, result.as_of)
    return ok, len(rejected)


def _candidate_units(hits: list[Hit], store: Store, as_of: date | None = None,
                     sections: dict[tuple[str, str], list[Provision]] | None = None
                     ) -> list[Unit]:
    """The quotable units of ``hits`` (``sections``: provisions already read, by section)."""
    units: list[Unit] = []
    sections = {} if sections is None else sections
    seen: set[tuple[str, int]] = set()
    for rank, hit in enumerate(hits):
        key = (hit.doc_id, section_of(hit.provision_path))
        if key not in sections:
            sections[key] = store.provisions_of_section(*key, as_of)
        provisions = sections[key]
        for p in provisions:
            if p.end <= hit.start or p.start >= hit.end:
                continue
            # A looked-up definition (search/defined.py) is quoted with its whole list, and
            # so is a provision the question names.
            cap = MAX_DEFINITION_CHARS if ("definition" in hit.sources or hit.pinned) and \
                p.path == hit.provision_path else MAX_QUOTE_CHARS
            start, end = own_span(p, provisions, whole_sentences(p, max(p.start, hit.start),
                                                                 min(p.end, hit.end)),
                                  max_chars=cap)
            lead_in = opening_words(p, provisions)
            if end > lead_in:
                cap = max(cap, end - start)  # a list quoted with its opening words stays whole
            for s, e in sentences(p.text, p.start, start, end, cap):
                if lead_in < law_end(p) and e <= lead_in and \
                        not p.text[e - p.start:lead_in - p.start].strip() and \
                        unfinished(p.text[s - p.start:e - p.start]):
                    continue  # opening words alone ("such person--") misstate the rule
                if (p.doc_id, s) in seen:
                    continue
                seen.add((p.doc_id, s))
                units.append(Unit(p, s, e, p.text[s - p.start:e - p.start], rank, hit.pinned))
    return units


def _of_first_sections(hits: list[Hit], n: int) -> list[Hit]:
    """The hits of the first ``n`` distinct sections of ``hits``, in order."""
    seen: list[tuple[str, str]] = []
    out: list[Hit] = []
    for hit in hits:
        key = (hit.doc_id, section_of(hit.provision_path))
        if key not in seen:
            if len(seen) >= n:
                continue
            seen.append(key)
        out.append(hit)
    return out


def _section_units(hits: list[Hit], store: Store, as_of: date | None, known: list[Unit],
                   read: dict[tuple[str, str], list[Provision]] | None = None) -> list[Unit]:
    """The units of the hits' whole sections that ``known`` does not hold (a sibling
    sub-section the retrieval did not return on its own), ranked by their section's first
    hit."""
    seen = {(u.provision.doc_id, u.start) for u in known}
    units: list[Unit] = []
    done: set[tuple[str, str]] = set()
    for rank, hit in enumerate(hits):
        key = (hit.doc_id, section_of(hit.provision_path))
        if key in done:
            continue
        done.add(key)
        whole = replace(hit, start=0, end=1 << 62)
        for u in _candidate_units([whole], store, as_of, read):
            if (u.provision.doc_id, u.start) not in seen:
                u.rank = rank
                units.append(u)
    return units


def _stem(word: str) -> str:
    return word[:6] if len(word) > 6 else word


def _score(units: list[Unit], result: SearchResult, store: Store) -> dict[str, float]:
    """Score ``units`` in place; the idf of each (lower-cased) question word."""
    own = list(dict.fromkeys(result.analysis.terms))
    added = [w for e in result.analysis.expansions for w in e.split() if w not in own]
    terms = own + list(dict.fromkeys(added))
    df = store.term_document_frequency(terms) if terms else {}
    n = max(store.chunk_count(), 1)
    weights: dict[str, float] = {}
    idf: dict[str, float] = {}
    for t in terms:
        factor = 1.0 if t in own else EXPANSION_WEIGHT
        idf.setdefault(t.lower(), math.log(1 + n / (1 + df.get(t, 0))))
        weights.setdefault(_stem(t.lower()), factor * idf[t.lower()])
    total = sum(weights.values()) or 1.0
    for u in units:
        tokens = {_stem(t) for t in _TOKEN.findall(u.text.lower())}
        u.matched = {t: w / total for t, w in weights.items() if t in tokens}
        coverage = sum(u.matched.values())
        brevity = 1.0 if len(u.text) < 80 else 1.1  # headings-only fragments rarely answer
        u.score = coverage * brevity + RANK_WEIGHT / (1 + u.rank) + (0.5 if u.pinned else 0.0)
    return idf


def _part_answers(chosen: list[Unit], units: Callable[[], list[Unit]], result: SearchResult,
                  documents: list[DocumentInfo], idf: dict[str, float]) -> PartAnswers:
    """Units that answer the parts of the question the chosen quotes leave unanswered
    (``answer/parts.py``), from the Acts of the question (else of the lead quote)."""
    analysis = result.analysis
    docs = set(analysis.named_docs + analysis.implied_docs) or {chosen[0].provision.doc_id}
    named = [d for d in documents if d.id in analysis.named_docs]
    table = AliasTable.of(named) if named else None

    def names(text: str) -> list[str]:
        if table is None:
            return []
        return list(dict.fromkeys(d for d, _, _ in named_documents(text, table)))

    return answering_units(analysis.query, chosen, units, docs, idf, PART_FLOOR, names,
                           PART_HITS)


def _of_the_lead_party(units: list[Unit], question: str, store: Store,
                       as_of: date | None) -> list[Unit]:
    """``units`` less those of sections headed for parties that neither the question nor
    the lead unit names, when the question names none: "the penalty for not registering a
    project" answered by the promoter's penalty is not finished by the agents' duty to
    register ("Registration of real estate agents")."""
    if not units or parties_in(question, lay=True):
        return units
    lead = max(units, key=lambda u: (u.score, -u.rank))
    titles = _section_titles(units, store, as_of)

    def heading(u: Unit) -> str:
        return titles[f"{u.provision.doc_id}#{u.provision.section}"]

    own = parties_in(lead.text) | parties_in(heading(lead))
    if not own:
        return units
    return [u for u in units if u is lead or not (parties := parties_in(heading(u)))
            or parties & own]


def _within_amount(units: list[Unit], question: str) -> list[Unit]:
    """``units`` without those whose rupee threshold leaves out the amount the question
    states ("my flat cost ₹1.5 crore": not the Commission for claims above ten crore),
    when another unit is left to show."""
    amounts = rupee_amounts(question)
    kept = [u for u in units if fits_amount(u, amounts) is not False]
    return kept or units


def _choose(units: list[Unit], max_quotes: int = MAX_QUOTES,
            max_chars: int = MAX_TOTAL_CHARS, selective: bool = True) -> list[Unit]:
    """Follow the retriever's order of provisions; from each hit quote its best unit."""
    best_per_hit: dict[int, Unit] = {}
    for u in units:
        if u.rank not in best_per_hit or u.score > best_per_hit[u.rank].score:
            best_per_hit[u.rank] = u
    chosen: list[Unit] = []
    per_section: dict[str, int] = {}
    total = 0
    best = max((u.score for u in best_per_hit.values()), default=0.0)
    for rank in sorted(best_per_hit):
        u = best_per_hit[rank]
        if selective and chosen and u.score < KEEP_RELATIVE * best:
            covered = {t for c in chosen for t in c.matched}
            new_terms = sum(w for t, w in u.matched.items() if t not in covered)
            if new_terms < NEW_TERMS_SHARE:
                # A weaker match is shown beside a strong one only when it holds question
                # words the quotes so far do not (another part of the question).
                continue
        sec = f"{u.provision.doc_id}#{u.provision.section}"
        if len(chosen) >= max_quotes:
            break
        if per_section.get(sec, 0) >= 3 or total + len(u.text) > max_chars:
            continue
        chosen.append(u)
        per_section[sec] = per_section.get(sec, 0) + 1
        total += len(u.text)
    return chosen


def _section_titles(units: list[Unit], store: Store,
                    as_of: date | None) -> dict[str, str]:
    keys = {f"{u.provision.doc_id}#{u.provision.section}" for u in units}
    return {key: store.provision(key, as_of).title for key in keys}


def _citation(u: Unit, titles: dict[str, str], section_titles: dict[str, str]) -> Citation:
    label = f"{display_path(u.provision.path)} of the {titles.get(u.provision.doc_id, '')}"
    title = section_titles.get(f"{u.provision.doc_id}#{u.provision.section}", "")
    return Citation(u.provision.id, label.strip(), title, fold(u.text), u.start, u.end)


def _compose(citations: list[Citation]) -> str:
    first = citations[0]
    lead = f"The most relevant provision is {first.label}"
    lead += f" ({first.title})." if first.title else "."
    first_doc = first.provision_id.partition("#")[0]
    others = []
    for c in citations[1:]:
        doc_id, _, path = c.provision_id.partition("#")
        others.append(display_path(path) if doc_id == first_doc else c.label)
    others = [o for o in dict.fromkeys(others) if o != display_path(
        first.provision_id.partition("#")[2])]
    if others:
        lead += " See also " + "; ".join(others) + "."
    lines = [lead, ""]
    for i, c in enumerate(citations, start=1):
        lines.append(f"[{i}] {c.label}" + (f" — {c.title}" if c.title else "") + ":")
        lines.append(f"“{c.quote}”")
        lines.append("")
    lines.append(DISCLAIMER)
    return "\n".join(lines)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
