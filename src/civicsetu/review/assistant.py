"""Questions about the contracts in the index, answered from their clauses.

Routing: out-of-scope requests (drafting, legal strategy) get the fixed refusal of
``guard.scope``; conflict questions compare the contracts; risk questions run the
checklist's risk rules; "summarize X" summarises one contract; everything else is
analysis: the clauses that answer, quoted and cited. A question naming a contract ("the
NDA", "Acme's SLA", an id) searches inside it; follow-ups ("what about the vendor
agreement?") keep the previous question and switch the contract. Every quote is verified
verbatim against the stored text before it is shown; suggestions follow the
deepen / broaden / risk pattern and can be picked by number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from civicsetu.answer.verify import verify_citations
from civicsetu.embed.base import Embedder
from civicsetu.guard.scope import check_scope
from civicsetu.ingest.statute import parse_provisions
from civicsetu.review.checklist import Checklist, Item, Label, Risk, load_checklist
from civicsetu.review.conflicts import Conflict, find_conflicts
from civicsetu.review.rank import Scored, rank_units
from civicsetu.review.reviewer import ContractReview, cite, review_document
from civicsetu.review.scope import contract_refs, named_contracts
from civicsetu.review.text import BM25, segment
from civicsetu.store.base import Store
from civicsetu.types import Citation, DocType, Document


class Route(StrEnum):
    REFUSAL = "refusal"
    ANALYSIS = "analysis"
    RISK = "risk"
    CONFLICT = "conflict"
    SUMMARY = "summary"


_I = re.IGNORECASE
CONFLICT_Q = re.compile(r"\b(?:conflict\w*|inconsisten\w*|differ\w*|disagree\w*|contradict\w*|"
                        r"mismatch\w*|compare|across)\b", _I)
RISK_Q = re.compile(r"\b(?:risks?|risky|unlimited|uncapped|exposure|red\s+flags?|dangerous|"
                    r"onerous|one-sided|high-risk)\b", _I)
SUMMARY_Q = re.compile(r"\b(?:summar\w+|overview|outline|key\s+terms|gist)\b", _I)
FOLLOW_UP = re.compile(r"^\s*(?:and|what\s+about|how\s+about|and\s+what\s+about|same\s+for|"
                       r"also)\b", _I)
CONFLICT_KINDS = {"governing-law": r"govern|law", "jurisdiction": r"court|jurisdiction|forum",
                  "termination-notice": r"notice", "liability-cap": r"liabilit|cap",
                  "confidentiality-term": r"confidential", "defined-term": r"defin|term"}
NO_CONTRACTS = ("No contracts are in the index. Add them with `civicsetu review FILE...` or "
                "`civicsetu ingest FILE --doc-type contract`.")


@dataclass
class ContractAnswer:
    question: str
    route: Route
    text: str
    citations: list[Citation] = field(default_factory=list)
    scope: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


@dataclass
class _Turn:
    question: str
    route: Route
    scope: list[str]
    suggestions: list[str]


class ContractAssistant:
    """A conversation about the contracts in ``store`` (the last turn is remembered)."""

    def __init__(self, store: Store, checklist: Checklist | None = None,
                 embedder: Embedder | None = None) -> None:
        self.store = store
        self.checklist = checklist or load_checklist()
        self.embedder = embedder
        self._docs: dict[str, Document] = {}
        self._reviews: dict[str, ContractReview] = {}
        self.last: _Turn | None = None

    # ------------------------------------------------------------ public

    def contracts(self) -> list[Document]:
        """The contracts in the index."""
        ids = [d.id for d in self.store.documents() if d.doc_type == DocType.CONTRACT.value]
        for i in ids:
            if i not in self._docs:
                self._docs[i] = self.store.document(i)
        return [self._docs[i] for i in ids]

    def ask(self, question: str) -> ContractAnswer:
        """Answer one question, using the previous turn for follow-ups."""
        question = self._picked_suggestion(question)
        docs = self.contracts()
        named = named_contracts(question, contract_refs(docs))
        check = check_scope(question)
        if not check.in_scope and (check.reason != "off-topic" or not (named or self.last)):
            return self._remember(ContractAnswer(question, Route.REFUSAL, check.message))
        if not docs:
            return ContractAnswer(question, Route.ANALYSIS, NO_CONTRACTS)
        route = self.route(question)
        effective = question
        if self.last is not None and FOLLOW_UP.search(question) and self.last.route is not \
                Route.REFUSAL:
            if named:  # "what about the vendor agreement?": same question, new contract
                route = self.last.route if not _own_intent(question) else route
                effective = self.last.question if not _own_intent(question) else question
            else:
                named = self.last.scope
        if route is Route.SUMMARY and not named and self.last is not None:
            named = self.last.scope
        scope = named or [d.id for d in docs]
        handler = {Route.ANALYSIS: self._analysis, Route.RISK: self._risk,
                   Route.CONFLICT: self._conflict, Route.SUMMARY: self._summary}[route]
        answer = handler(effective, scope)
        answer.question, answer.scope = question, scope if named else []
        self._suggest(answer, effective, scope)
        self.last = _Turn(effective, route, named, answer.suggestions)
        return answer

    @staticmethod
    def route(question: str) -> Route:
        """Which path a (in-scope) contract question takes."""
        if SUMMARY_Q.search(question):
            return Route.SUMMARY
        if CONFLICT_Q.search(question) and re.search(r"\b(?:agreements|contracts|all)\b",
                                                      question, _I):
            return Route.CONFLICT
        if RISK_Q.search(question):
            return Route.RISK
        return Route.ANALYSIS

    # ------------------------------------------------------------ routes

    def _analysis(self, question: str, scope: Sequence[str]) -> ContractAnswer:
        item = self._item_for(question)
        probe = replace(item, hypothesis=question) if item else Item(
            id="question", title="Question", group="question", hypothesis=question, query="",
            cues=(), contra_cues=(), contra_first=False, risk={})
        lines, cites = [], []
        per_doc = []
        for doc_id in scope:
            doc = self._docs[doc_id]
            spans = segment(doc.text)
            texts = [doc.text[a:b] for a, b in spans]
            ranked = _rank(probe, texts)
            if not ranked or ranked[0].score <= 0:
                continue
            per_doc.append((ranked[0].score + (2.0 if ranked[0].cue else 0.0), doc, spans,
                            ranked))
        per_doc.sort(key=lambda t: -t[0])
        provisions_of = {d.id: parse_provisions(d.id, d.text, DocType.CONTRACT)[0]
                         for _, d, _, _ in per_doc[:3]}
        for _, doc, spans, ranked in per_doc[:3]:
            best = [s for s in ranked[:5] if s.cue] or list(ranked[:1])
            for s in best[:2]:
                c = cite(doc, provisions_of[doc.id], *spans[s.index])
                if c.provision_id.endswith("#"):
                    continue
                ok = self._verified([c])
                if not ok:
                    continue
                value = _value(item, ok[0].quote)
                lines.append(f"{doc.title}, {ok[0].label}: " + (f"{value}. " if value else "")
                             + f"“{_one_line(ok[0].quote)}”")
                cites += ok
            if len(scope) > 1 and len(lines) >= 2:
                break
        if not lines:
            return ContractAnswer(question, Route.ANALYSIS,
                                  "The contracts in scope do not address this; no clause "
                                  "matches the question closely enough to quote.")
        return ContractAnswer(question, Route.ANALYSIS, "\n".join(lines), cites)

    def _risk(self, question: str, scope: Sequence[str]) -> ContractAnswer:
        item = self._item_for(question)
        lines, cites = [], []
        for doc_id in scope:
            review = self._review(doc_id)
            findings = [f for f in review.findings if item is not None and f.item_id == item.id]
            if item is None:
                findings = [f for f in review.findings if f.risk is Risk.HIGH]
            for f in findings:
                if item is not None and item.id == "unlimited-liability" and \
                        f.label is not Label.ENTAILED:
                    continue
                quote = f"“{_one_line(f.citations[0].quote)}”" if f.citations else ""
                lines.append(f"{review.title}: {f.title} — {f.risk.value}. {f.rationale} "
                             f"{quote}".strip())
                cites += f.citations[:1]
        if not lines:
            what = item.title.lower() if item else "high-risk clause"
            return ContractAnswer(question, Route.RISK,
                                  f"No {what} found in the contracts in scope "
                                  f"({', '.join(scope)}).")
        return ContractAnswer(question, Route.RISK, "\n".join(lines), cites)

    def _conflict(self, question: str, scope: Sequence[str]) -> ContractAnswer:
        reviews = [self._review(d) for d in scope]
        conflicts = find_conflicts(reviews)
        wanted = [k for k, pat in CONFLICT_KINDS.items() if re.search(pat, question, _I)]
        if wanted:
            conflicts = [c for c in conflicts if c.kind in wanted] or \
                ([] if "defined-term" not in wanted else conflicts)
        if not conflicts:
            return ContractAnswer(question, Route.CONFLICT,
                                  "No conflicts of that kind across the contracts in scope.")
        return ContractAnswer(question, Route.CONFLICT, _conflict_text(conflicts),
                              [s.citation for c in conflicts for s in c.sides])

    def _summary(self, question: str, scope: Sequence[str]) -> ContractAnswer:
        lines, cites = [], []
        for doc_id in scope[:1] if len(scope) < len(self._docs) else scope:
            review = self._review(doc_id)
            meta = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in review.metadata.items()
                             if k != "signatories")
            lines.append(f"{review.title} ({doc_id}). {meta}.")
            for f in review.findings:
                if f.label is Label.NOT_MENTIONED or not f.citations:
                    continue
                detail = f.value or _one_line(f.citations[0].quote)
                lines.append(f"- {f.title} ({f.citations[0].label}): {detail} "
                             f"[{f.risk.value}]")
                cites.append(f.citations[0])
        return ContractAnswer(question, Route.SUMMARY, "\n".join(lines), cites)

    # ------------------------------------------------------------ helpers

    def _review(self, doc_id: str) -> ContractReview:
        if doc_id not in self._reviews:
            doc = self._docs[doc_id]
            r = review_document(doc, self.checklist, embedder=self.embedder, group="commercial")
            for f in r.findings:
                f.citations = self._verified(f.citations)
            kept = set(map(id, self._verified(list(r.definitions.values()))))
            r.definitions = {t: c for t, c in r.definitions.items() if id(c) in kept}
            self._reviews[doc_id] = r
        return self._reviews[doc_id]

    def _verified(self, citations: list[Citation]) -> list[Citation]:
        ok, _ = verify_citations(citations, self.store)
        return ok

    def _item_for(self, question: str) -> Item | None:
        """The checklist item the question is about, if one clearly is."""
        items = self.checklist.only("commercial") + self.checklist.only("nda")
        bm25 = BM25([f"{i.title} {i.title} {i.query}" for i in items])
        for d in self._docs.values():  # contract names say which contract, not what about
            question = re.sub(re.escape(d.title), " ", question, flags=_I)
        scores = bm25.scores(question)
        best = max(range(len(items)), key=lambda i: scores[i])
        return items[best] if scores[best] >= 2.0 else None

    def _suggest(self, answer: ContractAnswer, question: str, scope: Sequence[str]) -> None:
        if answer.route is Route.REFUSAL:
            return
        item = self._item_for(question)
        lead = answer.citations[0].provision_id.split("#")[0] if answer.citations else scope[0]
        first = self._docs[lead].title if lead in self._docs else "the contracts"
        out = []
        if item is not None and answer.citations:
            out.append(f"What else does {answer.citations[0].label} of the {first} say?")
        if item is not None and len(scope) < len(self._docs):
            out.append(f"How do the other agreements handle {item.title.lower()}?")
        out.append(f"What are the high-risk clauses in the {first}?")
        answer.suggestions = out[:3]

    def _picked_suggestion(self, question: str) -> str:
        m = re.fullmatch(r"\s*([1-3])\s*", question)
        if m and self.last is not None and int(m.group(1)) <= len(self.last.suggestions):
            return self.last.suggestions[int(m.group(1)) - 1]
        return question

    def _remember(self, answer: ContractAnswer) -> ContractAnswer:
        self.last = _Turn(answer.question, answer.route, [], [])
        return answer


def _own_intent(question: str) -> bool:
    """A follow-up that asks something new itself ("and the risks in the SLA?")."""
    return bool(SUMMARY_Q.search(question) or RISK_Q.search(question)
                or len(re.findall(r"\w+", question)) > 9)


def _rank(item: Item, texts: Sequence[str]) -> list[Scored]:

    return rank_units(item, texts, BM25(texts)) if texts else []


def _value(item: Item | None, quote: str) -> str | None:
    from civicsetu.review.extract import EXTRACTORS

    if item is None or not item.extract or item.extract not in EXTRACTORS:
        return None
    return EXTRACTORS[item.extract](quote)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _conflict_text(conflicts: Sequence[Conflict]) -> str:
    lines = []
    for c in conflicts:
        lines.append(f"{c.description}:")
        for s in c.sides:
            lines.append(f"- {s.doc_id}, {s.citation.label}: {s.value} — "
                         f"“{_one_line(s.citation.quote)}”")
    return "\n".join(lines)
