"""Completing a chosen quote: the provisions that finish the rule it states.

A penalty and its continuing or aggravated form, a duty and its exception, a period and
its extension, a proviso and the rule it qualifies, a duty and the penalty for breaking
it, and what a quote refers to by number. Each rule follows the store's citation graph or
the Act's own wording; none knows any particular Act. ``complete_quotes`` applies them in
order, within the answer's character budget.
"""

from __future__ import annotations

import re
from datetime import date

from civicsetu.answer.units import (
    KEEP_RELATIVE,
    Unit,
    law_end,
    own_span,
    sentences,
    subsection_of,
)
from civicsetu.errors import NotFoundError
from civicsetu.search.hybrid import SearchResult
from civicsetu.store.base import Store
from civicsetu.types import Provision, section_of

MAX_COMPLETIONS = 2


def complete_quotes(chosen: list[Unit], result: SearchResult, store: Store, max_quotes: int,
                    max_chars: int, answers: list[Unit] | None = None) -> list[Unit]:
    """``chosen`` with what finishes the lead's rule after it (sibling sub-sections that
    refer back to it, or to another strong quote of the lead's section or to a part
    answer (``answers``, answer/parts.py): at most
    ``MAX_COMPLETIONS`` beyond the lead's own, within the budget), then a duty's penalty,
    without other duties' penalties, provisos with their rules, and the provisions strong
    quotes refer to."""
    taken = {u.provision.id for u in chosen}
    budget = max_chars - sum(len(u.text) for u in chosen)
    out: list[Unit] = []
    added = 0
    lead = chosen[0].provision
    strong = [u for u in _strong(chosen) if u.provision.doc_id == lead.doc_id
              and u.provision.section == lead.section] + list(answers or [])
    for i, quoted in enumerate(chosen[:max_quotes]):
        out.append(quoted)
        if i > 0 and (quoted not in strong or added >= MAX_COMPLETIONS):
            continue
        for u in completions(quoted, store, result.as_of, taken):
            if len(u.text) <= budget and (i == 0 or added < MAX_COMPLETIONS):
                out.append(u)
                taken.add(u.provision.id)
                budget -= len(u.text)
                added += 1
    chosen = out
    chosen = _with_penalty_of_duty(chosen, result, store, max_chars)
    chosen = _without_other_duties_penalties(chosen, result, store)
    chosen = _with_rules_of_provisos(chosen, store, result.as_of, max_chars)
    chosen = _with_explanation_of_lead(chosen, store, result.as_of, max_chars)
    return _with_referents(chosen, result, store, max_chars)


# An explanation that qualifies a whole clause or sub-section, written after its last item
# ("Explanation.-- For the purposes of this clause, ... both of them shall be deemed ...").
_EXPLANATION = re.compile(r"Explanation\s*\.?\s*[-—–:]+\s*For\s+the\s+purposes\s+of\s+this\s+"
                          r"(?:clause|sub-clause|sub-section|section)\b")


# The lead's explanation is shown beyond the answer's budget up to this length: it is part
# of the lead's own rule.
EXPLANATION_CHARS = 600


def _with_explanation_of_lead(chosen: list[Unit], store: Store, as_of: date | None,
                              max_chars: int) -> list[Unit]:
    """``chosen`` with the explanation that qualifies the clause the lead quote is an item
    of (a definition's "(iii) ..." and the clause's closing "Explanation.-- For the
    purposes of this clause ..."), right after the lead, when no quote shows it yet."""
    lead = chosen[0]
    path = lead.provision.path
    budget = max_chars - sum(len(u.text) for u in chosen)
    family = store.provisions_of_section(lead.provision.doc_id, lead.provision.section, as_of)
    for a in sorted(family, key=lambda p: -len(p.path)):  # the nearest enclosing clause
        if a.path == path or not path.startswith(a.path + "(") or not a.text:
            continue
        for m in _EXPLANATION.finditer(a.text):
            s = a.start + m.start()
            if s < lead.end:
                continue
            spans = sentences(a.text, a.start, s, law_end(a))
            if not spans:
                continue
            start, end = spans[0]
            if any(u.provision.doc_id == a.doc_id and u.start <= start < u.end
                   for u in chosen) or end - start > max(budget, EXPLANATION_CHARS):
                continue
            unit = Unit(a, start, end, a.text[start - a.start:end - a.start], lead.rank,
                        lead.pinned, lead.score)
            return [lead, unit, *chosen[1:]]
    return chosen


def completions(lead: Unit, store: Store, as_of: date | None,
                taken: set[str]) -> list[Unit]:
    """The sibling sub-sections that finish the lead provision's rule: those that refer
    back to the lead's own sub-section ("continues to violate ... sub-section (1)",
    "Notwithstanding anything contained in sub-section (1) ... after the period"), which is
    how an Act writes a penalty's continuing form, a duty's exception and a period's
    extension. At most ``MAX_COMPLETIONS``, in the Act's order."""
    anchor = subsection_of(lead.provision.path)
    if anchor is None:
        return []
    anchor_path, label = anchor
    back_ref = re.compile(rf"sub-sections?\s*(?:\([^)]{{1,4}}\)\s*(?:,|and|or|to)\s*)*"
                          rf"\({re.escape(label)}\)", re.IGNORECASE)
    out: list[Unit] = []
    for p in store.provisions_of_section(lead.provision.doc_id, lead.provision.section,
                                         as_of):
        sub = subsection_of(p.path)
        if sub is None or sub[0] != p.path or p.path == anchor_path or p.id in taken:
            continue
        if not back_ref.search(p.text):
            continue
        spans = sentences(p.text, p.start, p.start, law_end(p))
        if not spans:
            continue
        s, e = spans[0]
        out.append(Unit(p, s, e, p.text[s - p.start:e - p.start], lead.rank, lead.pinned,
                         lead.score))
        if len(out) >= MAX_COMPLETIONS:
            break
    return out


def _own_unit(p: Provision, store: Store, as_of: date | None, like: Unit) -> Unit | None:
    """The first quotable span of ``p``'s own text (its sub-provisions left out unless
    its own text only introduces them), ranked like ``like``; None if nothing to quote."""
    family = store.provisions_of_section(p.doc_id, p.section, as_of)
    start, end = own_span(p, family, through_opening=True)
    spans = sentences(p.text, p.start, start, end)
    if not spans:
        return None
    s, e = spans[0]
    return Unit(p, s, e, p.text[s - p.start:e - p.start], like.rank, like.pinned, like.score)


_PROVISO = re.compile(r"^(?:Provided|Explanation)\b")


def _with_rules_of_provisos(chosen: list[Unit], store: Store, as_of: date | None,
                            max_chars: int) -> list[Unit]:
    """A proviso or explanation quoted from the middle of a long provision is shown after
    the rule it qualifies (the provision's opening sentence): "Provided that ..." read
    alone drops the rule, e.g. a penalty's amount and cap before its hearing proviso."""
    out: list[Unit] = []
    shown = {(u.provision.id, u.start) for u in chosen}
    placed: set[tuple[str, int]] = set()
    added = False
    strong = _strong(chosen)
    for u in chosen:
        if (u.provision.id, u.start) in placed:
            continue  # a rule already moved before its proviso
        if u in strong and _PROVISO.match(u.text) and u.start > u.provision.start:
            rule = _own_unit(u.provision, store, as_of, u)
            key = (rule.provision.id, rule.start) if rule is not None else None
            if rule is not None and key is not None and rule.start < u.start and \
                    key not in placed and key not in {(o.provision.id, o.start) for o in out}:
                # Not shown yet, or shown only after the proviso: it comes first.
                out.append(rule)
                placed.add(key)
                added = key not in shown or added
                shown.add(key)
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


def _with_penalty_of_duty(chosen: list[Unit], result: SearchResult, store: Store,
                          max_chars: int) -> list[Unit]:
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


def _named_sections(u: Unit, store: Store, as_of: date | None) -> set[str]:
    """Sections of the unit's own Act that the quoted span refers to ("section 3")."""
    family = store.provisions_of_section(u.provision.doc_id, u.provision.section, as_of)
    printers = [p.id for p in family
                if (p.path == u.provision.path or p.path.startswith(u.provision.path + "("))
                and p.start < u.end and p.end > u.start] or [u.provision.id]
    doc = u.provision.doc_id
    return {section_of(e.dst.partition("#")[2]) for pid in printers
            for e in store.edges(pid, "out", ["REFERENCES"])
            if e.dst.startswith(f"{doc}#")} - {u.provision.section}


def _without_other_duties_penalties(chosen: list[Unit], result: SearchResult,
                                    store: Store) -> list[Unit]:
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


def _strong(chosen: list[Unit]) -> list[Unit]:
    """The quotes that answer on their own merit: the lead and any scoring at least
    ``KEEP_RELATIVE`` of the best (not the weaker ones kept for another part's words)."""
    best = max((u.score for u in chosen), default=0.0)
    return [u for i, u in enumerate(chosen) if i == 0 or u.score >= KEEP_RELATIVE * best]


MAX_REFERENTS = 2
REFERENT_SECTIONS = 10


def _with_referents(chosen: list[Unit], result: SearchResult, store: Store,
                    max_chars: int) -> list[Unit]:
    """Provisions a quote refers to by number, shown after it: a sibling sub-section
    ("the period specified in sub-section (1)") always, another section only when the
    retrieval also found it among its first ``REFERENT_SECTIONS`` sections (the question
    bears on it). At most ``MAX_REFERENTS``, within the character budget."""
    retrieved = list(dict.fromkeys(f"{h.doc_id}#{section_of(h.provision_path)}"
                                   for h in result.hits))[:REFERENT_SECTIONS]
    shown = {u.provision.id for u in chosen}
    budget = max_chars - sum(len(u.text) for u in chosen)
    added = 0
    out: list[Unit] = []
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
