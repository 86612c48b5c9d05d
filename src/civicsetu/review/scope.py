"""Document scope for contract questions: which contracts a question names, by id, title,
type alias ("the NDA", "the vendor agreement", "the SLA") or party ("Acme's SLA")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from civicsetu.review.extract import metadata
from civicsetu.types import Document

# Contract types people name by a short alias: alias pattern -> title pattern.
TYPE_ALIASES: tuple[tuple[str, str], ...] = (
    (r"\bndas?\b|non-?disclosure|confidentiality agreement", r"non-?disclosure|confidential"),
    (r"\bslas?\b|service[- ]level", r"service level"),
    (r"\bvendor\b|\bsupplier\b|services agreement", r"vendor|supplier|services agreement"),
    (r"\bemployment\b|\bemployee\b|\bemployer\b|\bjob\b", r"employment"),
    (r"\blease\b|\btenancy\b", r"lease|tenancy"),
)
_GENERIC = {"limited", "private", "inc", "llp", "llc", "ltd", "the", "company", "corporation",
            "agreement", "party", "parties", "and", "between", "of"}


@dataclass(frozen=True)
class ContractRef:
    doc_id: str
    title: str
    parties: tuple[str, ...]


def contract_refs(docs: Sequence[Document]) -> list[ContractRef]:
    """Each contract with the distinctive words of its parties' names."""
    refs = []
    for d in docs:
        names = metadata(d.text).get("parties", "")
        words = {w for w in re.findall(r"[A-Z][A-Za-z]{2,}", names)
                 if w.lower() not in _GENERIC}
        refs.append(ContractRef(d.id, d.title, tuple(sorted(words))))
    return refs


def named_contracts(question: str, refs: Sequence[ContractRef]) -> list[str]:
    """Ids of the contracts ``question`` names; [] when it names none (search them all)."""
    q = question.lower()
    by_id = [r.doc_id for r in refs if r.doc_id.lower() in q]
    if by_id:
        return by_id
    typed: set[str] = set()
    for alias, title in TYPE_ALIASES:
        if re.search(alias, q):
            typed |= {r.doc_id for r in refs if re.search(title, r.title, re.I)}
    party = {r.doc_id for r in refs
             if any(re.search(rf"\b{re.escape(p.lower())}\b", q) for p in r.parties)}
    if typed and party:
        both = typed & party
        chosen = both or typed
    else:
        chosen = typed or party
    if len(chosen) == len(refs) and len(refs) > 1 and not typed:
        return []  # a party every contract shares does not narrow anything
    return [r.doc_id for r in refs if r.doc_id in chosen]
