"""Review one contract against the checklist: evidence ranked inside it, a label per item
(model-free, or an LLM over the same evidence, validated), a risk level with a one-line
rationale, and citations pinned to the clause with offsets into the document text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from civicsetu.embed.base import Embedder
from civicsetu.ingest.chunker import display_path
from civicsetu.ingest.statute import parse_provisions
from civicsetu.llm.base import LLM
from civicsetu.review.checklist import Checklist, Item, Label, Risk
from civicsetu.review.extract import EXTRACTORS, metadata
from civicsetu.review.nli import classify, evidence_for
from civicsetu.review.rank import rank_units
from civicsetu.review.text import BM25, segment
from civicsetu.types import Citation, DocType, Document, Provision

MAX_QUOTE = 400


@dataclass
class Finding:
    item_id: str
    title: str
    group: str
    label: Label
    risk: Risk
    rationale: str
    citations: list[Citation] = field(default_factory=list)
    value: str | None = None
    label_source: str = "model-free"


@dataclass
class ContractReview:
    doc_id: str
    title: str
    metadata: dict[str, str]
    findings: list[Finding]
    definitions: dict[str, Citation] = field(default_factory=dict)
    rejected_quotes: int = 0


def clause_of(provisions: Sequence[Provision], start: int, end: int) -> Provision | None:
    """The provision that holds most of ``[start, end)``; the deepest one on a tie.

    Provision spans start after their printed number (``1.1 ``), so a line is matched to
    the clause that covers most of it, not only one that holds it whole.
    """
    best: Provision | None = None
    best_key = (0, 0)
    for p in provisions:
        overlap = min(end, p.end) - max(start, p.start)
        if overlap <= 0:
            continue
        key = (overlap, -(p.end - p.start))
        if key > best_key:
            best, best_key = p, key
    return best


def cite(doc: Document, provisions: Sequence[Provision], start: int, end: int) -> Citation:
    """A citation of ``doc.text[start:end]`` cut to its clause and to MAX_QUOTE chars."""
    clause = clause_of(provisions, start, end)
    if clause is not None:
        start, end = max(start, clause.start), min(end, clause.end)
    if end - start > MAX_QUOTE:
        end = start + MAX_QUOTE
        cut = doc.text.rfind(" ", start, end)
        end = cut if cut > start + 40 else end
    raw = doc.text[start:end]
    quote = raw.strip()
    start += len(raw) - len(raw.lstrip())
    end = start + len(quote)
    if clause is None:
        return Citation(f"{doc.id}#", "", doc.title, quote, start, end)
    return Citation(f"{doc.id}#{clause.path}", display_path(clause.path), clause.title, quote,
                    start, end)


def review_document(doc: Document, checklist: Checklist, *,
                    embedder: Embedder | None = None, llm: LLM | None = None,
                    group: str | None = None,
                    provisions: Sequence[Provision] | None = None) -> ContractReview:
    """Findings for every checklist item (of ``group``) in ``doc``."""
    from civicsetu.review.extract import definitions as find_definitions

    if provisions is None:
        provisions = parse_provisions(doc.id, doc.text, DocType.CONTRACT)[0]
    spans = segment(doc.text)
    texts = [doc.text[a:b] for a, b in spans]
    bm25 = BM25(texts)
    vecs = embedder.embed_documents(texts) if embedder is not None and texts else None
    findings: list[Finding] = []
    for item in checklist.only(group):
        qvec = embedder.embed_query(item.search_text) if vecs is not None and embedder else None
        ranked = rank_units(item, texts, bm25, vecs, qvec)
        label = classify(item, ranked)
        source = "model-free"
        if llm is not None:
            from civicsetu.review.llm_label import llm_label

            top = [texts[s.index] for s in ranked[:5]]
            got = llm_label(llm, item, top)
            if got is not None:
                label, source = got, "llm"
        chosen = evidence_for(label, ranked, k=4)
        # A bare heading ("DATA PROTECTION") is a weaker quote than the clause under it.
        chosen = sorted(chosen, key=lambda s: len(texts[s.index].split()) < 4)[:3]
        if label is not Label.NOT_MENTIONED and not chosen:
            chosen = list(ranked[:2])
        # Text outside every clause (the title, the recitals' heading) is not cited.
        cites = [c for c in (cite(doc, provisions, *spans[s.index]) for s in chosen)
                 if not c.provision_id.endswith("#")]
        findings.append(_finding(item, label, cites, source))
    defs = {term: cite(doc, provisions, s, e)
            for term, (_, s, e) in find_definitions(doc.text).items()}
    return ContractReview(doc.id, doc.title, metadata(doc.text), findings, defs)


def _finding(item: Item, label: Label, cites: list[Citation], source: str) -> Finding:
    value = None
    if item.extract and cites and label is Label.ENTAILED:
        fn = EXTRACTORS.get(item.extract)
        for i, c in enumerate(cites):
            value = fn(c.quote) if fn else None
            if value:
                cites.insert(0, cites.pop(i))  # the clause the value comes from leads
                break
    rule = item.risk[label]
    clause = cites[0].label if cites and cites[0].label else "the contract"
    rationale = rule.rationale.replace("{clause}", clause).replace("{value}", value or "see quote")
    return Finding(item.id, item.title, item.group, label, rule.level, rationale, cites, value,
                   source)
