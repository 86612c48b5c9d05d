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
from dataclasses import dataclass, field, replace
from datetime import date
from typing import TYPE_CHECKING

from civicsetu.answer.evidence import assess, missing_quantity, missing_quantity_notice
from civicsetu.answer.messages import ABSTENTION, DISCLAIMER
from civicsetu.answer.verify import fold, verify_citations
from civicsetu.errors import NotFoundError
from civicsetu.guard.injection import screen
from civicsetu.ingest.chunker import SENTENCE_END, display_path
from civicsetu.search.hybrid import SearchResult
from civicsetu.store.base import DocumentInfo, Store
from civicsetu.types import Answer, Citation, Hit, Provision, section_of

if TYPE_CHECKING:
    from civicsetu.answer.confidence import Confidence

MAX_QUOTES = 4
MAX_QUOTE_CHARS = 1200
MAX_TOTAL_CHARS = 3000
CANDIDATE_HITS = 6
RANK_WEIGHT = 0.35
# Our synonyms for the user's words count half: the user's own wording is the better signal.
EXPANSION_WEIGHT = 0.5
_TOKEN = re.compile(r"[a-z0-9]+")
MAX_COMPLETIONS = 2
# Fewer, better citations: after the lead, a unit scoring below KEEP_RELATIVE of the best
# is quoted only if it holds at least NEW_TERMS_SHARE of the question's (idf-weighted)
# words that the quotes before it do not. Chosen on the dev set as the point that raises
# citation precision most for the least key-fact loss (docs/EVALUATION.md).
KEEP_RELATIVE = 0.6
NEW_TERMS_SHARE = 0.1
_SUBSECTION_PATH = re.compile(r"^[a-z]+\.\w+\((\w{1,4})\)")


@dataclass(slots=True)
class _Unit:
    provision: Provision
    start: int
    end: int
    text: str
    rank: int
    pinned: bool
    score: float = 0.0
    matched: dict[str, float] = field(default_factory=dict)  # question stems it holds


def without_instructions(result: SearchResult) -> SearchResult:
    """Drop retrieved passages that carry instructions (``guard.injection``): they are
    not law, and quoting them would let a planted document change an answer's sources.
    No provision of the bundled Acts is flagged (tests/guard/test_injection_suite.py)."""
    kept = [h for h in result.hits if not screen(h.text).flagged]
    return result if len(kept) == len(result.hits) else replace(result, hits=kept)


def answer_extractive(result: SearchResult, store: Store,
                      documents: list[DocumentInfo], abstain_below: float,
                      complete: bool = True, confidence: Confidence | None = None,
                      score_floor: float = 0.0, quantity_check: bool = True) -> Answer:
    """Quote the best verified units of the evidence, or abstain (``evidence.assess``; with
    ``quantity_check``, also when the question asks for a number the quotes never state)."""
    t0 = time.perf_counter()
    retrieved = result.hits  # reported as retrieved; only the quoting skips instructions
    result = without_instructions(result)
    query = result.analysis.query
    evidence = assess(result, store, documents, abstain_below, confidence, score_floor)
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
                  {**result.timings_ms, "answer": _ms(t0)}, evidence.notices)


def quoted_evidence(result: SearchResult, store: Store, documents: list[DocumentInfo],
                    max_quotes: int = MAX_QUOTES,
                    max_chars: int = MAX_TOTAL_CHARS,
                    complete: bool = True,
                    selective: bool = True) -> tuple[list[Citation], int]:
    """The best verbatim units of the top hits, as verified citations (and how many
    candidates failed verification). The extractive answer quotes them; an LLM gets them
    as its numbered context. With ``complete``, the sub-sections that finish the best
    provision's rule follow it (see ``completions``); with ``selective`` (the shown answer,
    not an LLM's context) weak units that add no question words are left out."""
    result = without_instructions(result)
    units = _candidate_units(result.hits[:max(CANDIDATE_HITS, max_quotes)], store,
                             result.as_of)
    _score(units, result, store)
    chosen = _choose(units, max_quotes, max_chars, selective)
    if complete and chosen:
        extra = completions(chosen[0], store, result.as_of,
                            {u.provision.id for u in chosen})
        budget = max_chars - sum(len(u.text) for u in chosen)
        fitting = []
        for u in extra:
            if len(u.text) <= budget:
                fitting.append(u)
                budget -= len(u.text)
        chosen = [chosen[0], *fitting, *chosen[1:]][:max_quotes + len(fitting)]
        chosen = _with_penalty_of_duty(chosen, result, store, max_chars)
        chosen = _without_other_duties_penalties(chosen, result, store)
        chosen = _with_rules_of_provisos(chosen, store, result.as_of, max_chars)
        chosen = _with_referents(chosen, result, store, max_chars)
    titles = {d.id: d.title for d in documents}
    section_titles = _section_titles(chosen, store, result.as_of)
    citations = [_citation(u, titles, section_titles) for u in chosen]
    ok, rejected = verify_citations(citations, store, result.as_of)
    return ok, len(rejected)


def _candidate_units(hits: list[Hit], store: Store,
                     as_of: date | None = None) -> list[_Unit]:
    units: list[_Unit] = []
    sections: dict[tuple[str, str], list[Provision]] = {}
    seen: set[tuple[str, int]] = set()
    for rank, hit in enumerate(hits):
        key = (hit.doc_id, section_of(hit.provision_path))
        if key not in sections:
            sections[key] = store.provisions_of_section(*key, as_of)
        provisions = sections[key]
        for i, p in enumerate(provisions):
            if p.end <= hit.start or p.start >= hit.end:
                continue
            own_end = p.end
            for q in provisions[i + 1:]:
                if q.start >= p.end:
                    break
                if q.parent_path == p.path:
                    own_end = q.start
                    break
            start, end = max(p.start, hit.start), min(own_end, hit.end)
            if own_end < p.end and _opens_list(p.text[:own_end - p.start]) and \
                    p.end - start <= MAX_QUOTE_CHARS:
                # "... including—" is finished by its clauses: quote them with it.
                end = p.end
            for s, e in _sentences(p.text, p.start, start, end):
                if (p.doc_id, s) in seen:
                    continue
                seen.add((p.doc_id, s))
                units.append(_Unit(p, s, e, p.text[s - p.start:e - p.start], rank, hit.pinned))
    return units


def _opens_list(text: str) -> bool:
    """Does this own text end by introducing its clauses ("namely:—", "including—")?"""
    return text.rstrip().endswith(("—", ":", ":-", "-", "–"))


def _subsection_of(path: str) -> tuple[str, str] | None:
    """``s.59(1)(a)`` -> (``s.59(1)``, ``1``); None for a path with no sub-section."""
    m = _SUBSECTION_PATH.match(path)
    return (m.group(0), m.group(1)) if m else None


def completions(lead: _Unit, store: Store, as_of: date | None,
                taken: set[str]) -> list[_Unit]:
    """The sibling sub-sections that finish the lead provision's rule: those that refer
    back to the lead's own sub-section ("continues to violate ... sub-section (1)",
    "Notwithstanding anything contained in sub-section (1) ... after the period"), which is
    how an Act writes a penalty's continuing form, a duty's exception and a period's
    extension. At most ``MAX_COMPLETIONS``, in the Act's order."""
    anchor = _subsection_of(lead.provision.path)
    if anchor is None:
        return []
    anchor_path, label = anchor
    back_ref = re.compile(rf"sub-sections?\s*(?:\([^)]{{1,4}}\)\s*(?:,|and|or|to)\s*)*"
                          rf"\({re.escape(label)}\)", re.IGNORECASE)
    out: list[_Unit] = []
    for p in store.provisions_of_section(lead.provision.doc_id, lead.provision.section,
                                         as_of):
        sub = _subsection_of(p.path)
        if sub is None or sub[0] != p.path or p.path == anchor_path or p.id in taken:
            continue
        if not back_ref.search(p.text):
            continue
        spans = _sentences(p.text, p.start, p.start, p.end)
        if not spans:
            continue
        s, e = spans[0]
        out.append(_Unit(p, s, e, p.text[s - p.start:e - p.start], lead.rank, lead.pinned,
                         lead.score))
        if len(out) >= MAX_COMPLETIONS:
            break
    return out


def _own_unit(p: Provision, store: Store, as_of: date | None, like: _Unit) -> _Unit | None:
    """The first quotable span of ``p``'s own text (its sub-provisions left out unless
    its own text only introduces them), ranked like ``like``; None if nothing to quote."""
    family = store.provisions_of_section(p.doc_id, p.section, as_of)
    own_end = next((q.start for q in family if q.parent_path == p.path and q.start > p.start),
                   p.end)
    if own_end < p.end and _opens_list(p.text[:own_end - p.start]) and \
            p.end - p.start <= MAX_QUOTE_CHARS:
        own_end = p.end
    spans = _sentences(p.text, p.start, p.start, own_end)
    if not spans:
        return None
    s, e = spans[0]
    return _Unit(p, s, e, p.text[s - p.start:e - p.start], like.rank, like.pinned, like.score)


_PROVISO = re.compile(r"^(?:Provided|Explanation)\b")


def _with_rules_of_provisos(chosen: list[_Unit], store: Store, as_of: date | None,
                            max_chars: int) -> list[_Unit]:
    """A proviso or explanation quoted from the middle of a long provision is shown after
    the rule it qualifies (the provision's opening sentence): "Provided that ..." read
    alone drops the rule, e.g. a penalty's amount and cap before its hearing proviso."""
    out: list[_Unit] = []
    shown = {(u.provision.id, u.start) for u in chosen}
    added = False
    strong = _strong(chosen)
    for u in chosen:
        if u in strong and _PROVISO.match(u.text) and u.start > u.provision.start:
            rule = _own_unit(u.provision, store, as_of, u)
            if rule is not None and rule.start < u.start and \
                    (rule.provision.id, rule.start) not in shown:
                out.append(rule)
                shown.add((rule.provision.id, rule.start))
                added = True
        out.append(u)
    if not added:
        return out
    # The rule outranks the weakest quotes: drop them from the end to keep the budget.
    while len(out) > 2 and sum(len(u.text) for u in out) > max_chars:
        out.pop()
    return out


_ASKS_PENALTY = re.compile(r"\b(?:penalt|punish|fine[ds]?\b|imprison|jail|prosecut)",
                           re.IGNORECASE)
_PENALTY_TITLE = re.compile(r"\b(?:penalt|punish|offence|fine\b)", re.IGNORECASE)
_RESIDUAL = re.compile(r"\bany\s+other\s+provisions?\s+of\s+this\s+(?:Act|Code)",
                       re.IGNORECASE)


def _with_penalty_of_duty(chosen: list[_Unit], result: SearchResult, store: Store,
                          max_chars: int) -> list[_Unit]:
    """A question about the penalty whose best quote is a duty ("shall not accept an
    advance ...") is shown the penalty for breaking that duty, after it: a penalty
    provision of the same Act that names the duty's section, else the Act's residual
    penalty ("contravenes any other provisions of this Act, other than ... section 3")
    when it does not exclude that section and the retrieval found it."""
    lead = chosen[0]
    if not _ASKS_PENALTY.search(result.analysis.query):
        return chosen
    doc, section = lead.provision.doc_id, lead.provision.section
    titles: dict[str, str] = {}

    def title(pid: str) -> str:
        key = pid.partition("#")[0] + "#" + section_of(pid.partition("#")[2])
        if key not in titles:
            try:
                titles[key] = store.provision(key, result.as_of).title
            except NotFoundError:
                titles[key] = ""
        return titles[key]

    if _PENALTY_TITLE.search(title(lead.provision.id)) or any(
            _PENALTY_TITLE.search(title(u.provision.id)) and
            any(e.dst.startswith(f"{doc}#{section}") for e in
                store.edges(u.provision.id, "out", ["REFERENCES"])) for u in chosen):
        return chosen  # the lead is a penalty, or the duty's own penalty is shown
    target: str | None = None
    for edge in store.edges(f"{doc}#{section}", "in", ["REFERENCES"]):
        if edge.src.startswith(f"{doc}#") and _PENALTY_TITLE.search(title(edge.src)):
            target = edge.src
            break
    if target is None:
        for hit in result.hits[:PENALTY_HITS]:
            pid = hit.provision_id
            if hit.doc_id != doc or not _PENALTY_TITLE.search(title(pid)) or \
                    not _RESIDUAL.search(hit.text):
                continue
            excluded = {section_of(e.dst.partition("#")[2]) for e in
                        store.edges(pid, "out", ["REFERENCES"]) if e.dst.startswith(doc)}
            if section not in excluded:
                target = pid
                break
    if target is None or any(u.provision.id == target for u in chosen):
        return chosen
    try:
        provision = store.provision(target, result.as_of)
    except NotFoundError:
        return chosen
    unit = _own_unit(provision, store, result.as_of, lead)
    if unit is None:
        return chosen
    out = [lead, unit, *chosen[1:]]
    while len(out) > 2 and sum(len(u.text) for u in out) > max_chars:
        out.pop()
    return out


PENALTY_HITS = 10


def _named_sections(u: _Unit, store: Store, as_of: date | None) -> set[str]:
    """Sections of the unit's own Act that the quoted span refers to ("section 3")."""
    family = store.provisions_of_section(u.provision.doc_id, u.provision.section, as_of)
    printers = [p.id for p in family
                if (p.path == u.provision.path or p.path.startswith(u.provision.path + "("))
                and p.start < u.end and p.end > u.start] or [u.provision.id]
    doc = u.provision.doc_id
    return {section_of(e.dst.partition("#")[2]) for pid in printers
            for e in store.edges(pid, "out", ["REFERENCES"])
            if e.dst.startswith(f"{doc}#")} - {u.provision.section}


def _without_other_duties_penalties(chosen: list[_Unit], result: SearchResult,
                                    store: Store) -> list[_Unit]:
    """When the lead quote is the penalty for breaking named sections ("contravenes
    section 3"), another penalty of the same Act that punishes only other sections
    ("section 9 or section 10"), or the residual one that excludes the lead's ("other than
    ... section 3"), does not bear on the question and is not shown."""
    lead = chosen[0]
    if not _ASKS_PENALTY.search(result.analysis.query):
        return chosen
    doc = lead.provision.doc_id
    lead_title = store.provision(f"{doc}#{lead.provision.section}", result.as_of).title
    duties = _named_sections(lead, store, result.as_of)
    if not _PENALTY_TITLE.search(lead_title) or not duties:
        return chosen
    out = [lead]
    for u in chosen[1:]:
        if u.provision.doc_id == doc and u.provision.section != lead.provision.section:
            title = store.provision(f"{doc}#{u.provision.section}", result.as_of).title
            named = _named_sections(u, store, result.as_of)
            if _PENALTY_TITLE.search(title) and named and (
                    named.isdisjoint(duties) if not _RESIDUAL.search(u.text)
                    else not named.isdisjoint(duties)):
                continue
        out.append(u)
    return out


def _strong(chosen: list[_Unit]) -> list[_Unit]:
    """The quotes that answer on their own merit: the lead and any scoring at least
    ``KEEP_RELATIVE`` of the best (not the weaker ones kept for another part's words)."""
    best = max((u.score for u in chosen), default=0.0)
    return [u for i, u in enumerate(chosen) if i == 0 or u.score >= KEEP_RELATIVE * best]


MAX_REFERENTS = 2
REFERENT_SECTIONS = 10


def _with_referents(chosen: list[_Unit], result: SearchResult, store: Store,
                    max_chars: int) -> list[_Unit]:
    """Provisions a quote refers to by number, shown after it: a sibling sub-section
    ("the period specified in sub-section (1)") always, another section only when the
    retrieval also found it among its first ``REFERENT_SECTIONS`` sections (the question
    bears on it). At most ``MAX_REFERENTS``, within the character budget."""
    retrieved = list(dict.fromkeys(f"{h.doc_id}#{section_of(h.provision_path)}"
                                   for h in result.hits))[:REFERENT_SECTIONS]
    shown = {u.provision.id for u in chosen}
    budget = max_chars - sum(len(u.text) for u in chosen)
    added = 0
    out: list[_Unit] = []
    strong = _strong(chosen)
    for u in chosen:
        out.append(u)
        if added >= MAX_REFERENTS or u not in strong:
            continue
        quote = " ".join(u.text.split())
        # The quote's provision and the sub-provisions inside the quoted span print them.
        printers = [p.id for p in store.provisions_of_section(
            u.provision.doc_id, u.provision.section, result.as_of)
            if (p.path == u.provision.path or p.path.startswith(u.provision.path + "("))
            and p.start < u.end and p.end > u.start]
        edges = [e for pid in printers for e in store.edges(pid, "out", ["REFERENCES"])]
        for edge in edges:
            if added >= MAX_REFERENTS or edge.dst in shown or "#" not in edge.dst:
                continue
            if edge.text and " ".join(edge.text.split()) not in quote:
                continue  # printed in a part of the provision this quote does not show
            doc_id, _, path = edge.dst.partition("#")
            same_section = doc_id == u.provision.doc_id and \
                section_of(path) == u.provision.section
            if not same_section and (path == section_of(path) or
                                     f"{doc_id}#{section_of(path)}" not in retrieved):
                # A whole other section ("contravenes section 3") is the rule's subject,
                # not a missing piece of it; a pinpointed one ("the account specified
                # under sub-clause (D) of clause (l) ...") completes what the quote says.
                continue
            try:
                target = store.provision(edge.dst, result.as_of)
            except NotFoundError:
                continue
            ref = _own_unit(target, store, result.as_of, u)
            if ref is None or len(ref.text) > budget:
                continue
            out.append(ref)
            shown.add(edge.dst)
            budget -= len(ref.text)
            added += 1
    return out


def _sentences(text: str, base: int, start: int, end: int) -> list[tuple[int, int]]:
    """Absolute (start, end) spans of ``text`` between ``start`` and ``end``, sentence-cut
    only where the span is too long to quote whole."""
    local = text[start - base:end - base]
    if len(local.strip()) == 0:
        return []
    if len(local) <= MAX_QUOTE_CHARS:
        return [_strip(text, base, start, end)]
    spans, pos = [], 0
    for m in SENTENCE_END.finditer(local):
        spans.append(_strip(text, base, start + pos, start + m.start()))
        pos = m.end()
    spans.append(_strip(text, base, start + pos, end))
    return [(s, e) for s, e in spans if e - s > 20]


def _strip(text: str, base: int, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start - base].isspace():
        start += 1
    while end > start and text[end - base - 1].isspace():
        end -= 1
    return start, end


def _stem(word: str) -> str:
    return word[:6] if len(word) > 6 else word


def _score(units: list[_Unit], result: SearchResult, store: Store) -> None:
    own = list(dict.fromkeys(result.analysis.terms))
    added = [w for e in result.analysis.expansions for w in e.split() if w not in own]
    terms = own + list(dict.fromkeys(added))
    df = store.term_document_frequency(terms) if terms else {}
    n = max(store.chunk_count(), 1)
    weights: dict[str, float] = {}
    for t in terms:
        factor = 1.0 if t in own else EXPANSION_WEIGHT
        weights.setdefault(_stem(t.lower()), factor * math.log(1 + n / (1 + df.get(t, 0))))
    total = sum(weights.values()) or 1.0
    for u in units:
        tokens = {_stem(t) for t in _TOKEN.findall(u.text.lower())}
        u.matched = {t: w / total for t, w in weights.items() if t in tokens}
        coverage = sum(u.matched.values())
        brevity = 1.0 if len(u.text) < 80 else 1.1  # headings-only fragments rarely answer
        u.score = coverage * brevity + RANK_WEIGHT / (1 + u.rank) + (0.5 if u.pinned else 0.0)


def _choose(units: list[_Unit], max_quotes: int = MAX_QUOTES,
            max_chars: int = MAX_TOTAL_CHARS, selective: bool = True) -> list[_Unit]:
    """Follow the retriever's order of provisions; from each hit quote its best unit."""
    best_per_hit: dict[int, _Unit] = {}
    for u in units:
        if u.rank not in best_per_hit or u.score > best_per_hit[u.rank].score:
            best_per_hit[u.rank] = u
    chosen: list[_Unit] = []
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


def _section_titles(units: list[_Unit], store: Store,
                    as_of: date | None) -> dict[str, str]:
    keys = {f"{u.provision.doc_id}#{u.provision.section}" for u in units}
    return {key: store.provision(key, as_of).title for key in keys}


def _citation(u: _Unit, titles: dict[str, str], section_titles: dict[str, str]) -> Citation:
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
