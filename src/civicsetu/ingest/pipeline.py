"""Sources -> parsed documents -> embeddings -> one transaction per document in the store.

Parsing and embedding happen before the write, so a failure at any point leaves the
store exactly as it was for that document, and the batch goes on with the next file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from civicsetu.config import Settings
from civicsetu.embed.base import Embedder
from civicsetu.errors import CivicSetuError, SourceError
from civicsetu.ingest.chunker import chunk_document
from civicsetu.ingest.enrich import extract_amendments, extract_dates, extract_definitions
from civicsetu.ingest.loader import load_source
from civicsetu.ingest.references import extract_references
from civicsetu.ingest.statute import parse_provisions
from civicsetu.store.base import Store
from civicsetu.types import DocType, Document, Edge, EdgeType, ParsedDocument

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """One file to ingest, with what the file itself cannot tell us."""

    path: Path
    doc_id: str | None = None
    jurisdiction: str = "IN"
    doc_type: DocType = DocType.ACT
    aliases: tuple[str, ...] = ()
    title: str | None = None
    effective_date: date | None = None
    parent_id: str | None = None
    max_pages: int | None = None
    derived_from: tuple[tuple[str, str], ...] = ()  # (unit here, section of the parent)
    origin: str | None = None  # the URL a downloaded file came from


@dataclass(frozen=True, slots=True)
class IngestReport:
    source: str
    doc_id: str
    status: str  # added | updated | unchanged | failed
    provisions: int = 0
    chunks: int = 0
    embedded: int = 0
    reused: int = 0
    message: str = ""


def parse_document(document: Document, settings: Settings,
                   derived_from: tuple[tuple[str, str], ...] = ()) -> ParsedDocument:
    provisions, warnings = parse_provisions(document.id, document.text, document.doc_type,
                                            document.page_starts)
    if not provisions:
        raise SourceError(f"{document.source}: no text found to index")
    chunks = chunk_document(document, provisions, max_chars=settings.chunk_max_chars,
                            min_chars=settings.chunk_min_chars)
    edges = tuple(Edge(f"{document.id}#{p.parent_path}", p.id, EdgeType.HAS_PART)
                  for p in provisions if p.parent_path is not None)
    if document.parent_id:
        edges += tuple(Edge(f"{document.id}#{unit}", f"{document.parent_id}#{section}",
                            EdgeType.DERIVED_FROM) for unit, section in derived_from)
    amendments = extract_amendments(document, provisions)
    return ParsedDocument(
        document, tuple(provisions), tuple(chunks), edges, tuple(warnings),
        references=tuple(extract_references(document, provisions)),
        definitions=tuple(extract_definitions(provisions)),
        amendments=tuple(amendments),
        dates=tuple(extract_dates(document, provisions, amendments)),
    )


def ingest(specs: Sequence[SourceSpec], store: Store, embedder: Embedder,
           settings: Settings, *, force: bool = False,
           on_progress: ProgressCallback | None = None) -> list[IngestReport]:
    reports = []
    for spec in specs:
        try:
            reports.append(_ingest_one(spec, store, embedder, settings, force, on_progress))
        except CivicSetuError as exc:
            log.warning("ingest_failed source=%s error=%s", spec.path, exc)
            reports.append(IngestReport(spec.origin or str(spec.path),
                                        spec.doc_id or spec.path.stem, "failed",
                                        message=str(exc)))
    if any(r.status in {"added", "updated"} for r in reports):
        store.resolve_references()
    return reports


def _ingest_one(spec: SourceSpec, store: Store, embedder: Embedder, settings: Settings,
                force: bool, on_progress: ProgressCallback | None) -> IngestReport:
    document, read_warnings = load_source(
        spec.path, doc_id=spec.doc_id, title=spec.title, jurisdiction=spec.jurisdiction,
        doc_type=spec.doc_type, extra_aliases=spec.aliases,
        effective_date=spec.effective_date, parent_id=spec.parent_id,
        max_pages=spec.max_pages, max_bytes=settings.max_source_mb * 2**20,
        source=spec.origin)
    previous = store.document_hash(document.id)
    if previous == document.content_hash and not force:
        if on_progress:
            on_progress(document.id, 1, 1)
        return IngestReport(spec.origin or str(spec.path), document.id, "unchanged")
    parsed = parse_document(document, settings, spec.derived_from)
    hashes = [c.text_hash for c in parsed.chunks]
    cached = store.cached_vectors(embedder.model_id, hashes)
    todo = [c for c in parsed.chunks if c.text_hash not in cached]
    todo = list({c.text_hash: c for c in todo}.values())
    new_vectors = {}
    step = max(1, settings.embed_batch_size * 16)  # a wide window sorts lengths well
    for i in range(0, len(todo), step):
        batch = todo[i:i + step]
        vectors = embedder.embed_documents([c.embed_text for c in batch])
        new_vectors.update({c.text_hash: v for c, v in zip(batch, vectors, strict=True)})
        if on_progress:
            on_progress(document.id, i + len(batch), len(todo))
    if on_progress and not todo:
        on_progress(document.id, 1, 1)
    store.replace_document(parsed, embedder.model_id, new_vectors)
    return IngestReport(
        spec.origin or str(spec.path), document.id, "updated" if previous else "added",
        provisions=len(parsed.provisions), chunks=len(parsed.chunks),
        embedded=len(new_vectors), reused=len(parsed.chunks) - len(new_vectors),
        message="; ".join(read_warnings + parsed.warnings),
    )


def bundled_specs() -> list[SourceSpec]:
    from civicsetu.corpus import bundled_acts

    return [SourceSpec(a.path, doc_id=a.id, aliases=a.aliases) for a in bundled_acts()]
