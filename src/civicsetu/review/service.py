"""Review contracts held in (or added to) the index: files are ingested as contracts,
every quote is verified verbatim against the stored text before it is reported."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from civicsetu.answer.verify import verify_citations
from civicsetu.engine import Engine
from civicsetu.errors import InputError, NotFoundError
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.ingest.statute import parse_provisions
from civicsetu.llm.base import get_llm
from civicsetu.review.checklist import Checklist
from civicsetu.review.conflicts import Conflict, find_conflicts
from civicsetu.review.reviewer import ContractReview, review_document
from civicsetu.types import DocType


@dataclass
class ReviewRun:
    reviews: list[ContractReview]
    conflicts: list[Conflict]
    ingested: list[str]


def resolve_targets(engine: Engine, targets: Sequence[str]) -> tuple[list[str], list[str]]:
    """Document ids for files (ingested as contracts when new or changed) and ids/aliases."""
    specs: list[SourceSpec] = []
    ids: list[str | None] = []
    for t in targets:
        path = Path(t)
        if path.exists() and path.is_file():
            specs.append(SourceSpec(path=path, doc_type=DocType.CONTRACT, jurisdiction=""))
            ids.append(None)
        else:
            ids.append(find_document(engine, t))
    ingested: list[str] = []
    if specs:
        reports = engine.ingest(specs)
        failed = [r for r in reports if r.status == "failed"]
        if failed:
            raise InputError(f"could not ingest {failed[0].source}: {failed[0].message}")
        ingested = [r.doc_id for r in reports]
    it = iter(ingested)
    return [i if i is not None else next(it) for i in ids], ingested


def find_document(engine: Engine, name: str) -> str:
    """A document id from an id, an alias or a unique title fragment."""
    docs = engine.store.documents()
    key = name.strip().lower()
    for d in docs:
        if d.id.lower() == key or key in (a.lower() for a in d.aliases):
            return d.id
    hits = [d for d in docs if key in d.title.lower()]
    if len(hits) == 1:
        return hits[0].id
    raise NotFoundError(f"{name!r} is neither a file nor a document in the index; give a path "
                        "or an id from `civicsetu documents`")


def review(engine: Engine, targets: Sequence[str], checklist: Checklist, *,
           group: str | None = None, llm: str | None = None,
           dense: bool = True) -> ReviewRun:
    """Review each target against ``checklist``; quotes that fail verification are dropped."""
    doc_ids, ingested = resolve_targets(engine, targets)
    model = get_llm(llm) if llm else None
    reviews = []
    for doc_id in dict.fromkeys(doc_ids):
        doc = engine.store.document(doc_id)
        provisions = parse_provisions(doc.id, doc.text, DocType.CONTRACT)[0]
        r = review_document(doc, checklist, embedder=engine.embedder if dense else None,
                            llm=model, group=group, provisions=provisions)
        r.metadata = engine.store.document_metadata(doc_id) or r.metadata
        for f in r.findings:
            ok, rejected = verify_citations(f.citations, engine.store)
            f.citations = ok
            r.rejected_quotes += len(rejected)
        ok_defs, rejected_defs = verify_citations(list(r.definitions.values()), engine.store)
        kept = {(c.start, c.end) for c in ok_defs}
        r.definitions = {t: c for t, c in r.definitions.items() if (c.start, c.end) in kept}
        r.rejected_quotes += len(rejected_defs)
        reviews.append(r)
    return ReviewRun(reviews, find_conflicts(reviews), ingested)
