"""Sources -> parsed documents -> embeddings -> one transaction per document in the store.

Parsing and embedding happen before the write, so a failure at any point leaves the
store exactly as it was for that document, and the batch goes on with the next file.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path

from civicsetu.config import Settings
from civicsetu.embed.base import Embedder
from civicsetu.errors import CivicSetuError, SourceError
from civicsetu.ingest.chunker import chunk_document
from civicsetu.ingest.enrich import extract_amendments, extract_dates, extract_definitions
from civicsetu.ingest.identity import lookalikes, several_acts, user_doc_id
from civicsetu.ingest.loader import load_source
from civicsetu.ingest.official import (
    check_official,
    official_act,
    official_hash,
    official_or,
    with_official_names,
)
from civicsetu.ingest.references import extract_references
from civicsetu.ingest.statute import parse_provisions
from civicsetu.ingest.version import PARSER_VERSION
from civicsetu.store.base import Provenance, Store
from civicsetu.types import DocType, Document, Edge, EdgeType, ParsedDocument

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]

REPARSED = "re-parsed: the parser changed since this document was indexed"


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
    kind: str = "user"  # provenance: bundled | registry | user (store.base.Provenance)
    # A file uploaded through the API: its name, which identifies it across uploads (a
    # second upload of ``rules.md`` updates the first); the server folder is never shown.
    upload_name: str | None = None


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
        parser_version=PARSER_VERSION,
    )


def ingest(specs: Sequence[SourceSpec], store: Store, embedder: Embedder,
           settings: Settings, *, force: bool = False,
           on_progress: ProgressCallback | None = None,
           allow_partial: bool = False) -> list[IngestReport]:
    """Ingest each spec; one that fails is reported and the batch goes on. A file of
    which less than ``settings.min_indexed_share`` would be indexed fails unless
    ``allow_partial``."""
    reports = []
    for spec in specs:
        try:
            reports.append(_ingest_one(spec, store, embedder, settings, force, on_progress,
                                       allow_partial))
        except CivicSetuError as exc:
            log.warning("ingest_failed source=%s error=%s", spec.path, exc)
            reports.append(IngestReport(_shown_source(spec),
                                        spec.doc_id or spec.path.stem, "failed",
                                        message=_shown(str(exc), spec)))
    if any(r.status != "failed" for r in reports):
        # Each write resolves references in its own transaction; this pass repairs an
        # index written by an older version that committed edges separately.
        store.resolve_references()
    return reports


def _ingest_one(spec: SourceSpec, store: Store, embedder: Embedder, settings: Settings,
                force: bool, on_progress: ProgressCallback | None,
                allow_partial: bool = False) -> IngestReport:
    document, read_warnings = load_source(
        spec.path, doc_id=spec.doc_id, title=spec.title, jurisdiction=spec.jurisdiction,
        doc_type=spec.doc_type, extra_aliases=spec.aliases,
        effective_date=spec.effective_date, parent_id=spec.parent_id,
        max_pages=spec.max_pages, max_bytes=settings.max_source_mb * 2**20,
        source=spec.origin, limits=settings.read_limits())
    where = _where(spec)
    if spec.doc_id is None:
        document = replace(document, id=user_doc_id(
            spec.path.resolve(), document.title,
            _holder(store, spec.path, where, document.content_hash,
                    settings.home / "uploads"), key=where))
    check_official(store, document, spec.kind, _shown_source(spec))
    document = with_official_names(document, spec.kind)
    acts = several_acts(document.text)
    if acts:
        raise SourceError(f"{spec.path}: holds several Acts ({'; '.join(acts)}); their "
                          "sections would be quoted under one title, so it was not indexed. "
                          "Split it into one file per Act and ingest each")
    previous = store.document_hash(document.id)
    same_text = previous == document.content_hash
    # An unchanged text stored by an older parser still holds that parser's provisions
    # (ids the law does not have): it is re-parsed once, without --force.
    reparse = same_text and (store.parser_version(document.id) or 0) < PARSER_VERSION
    if same_text and not force and not reparse:
        if not store.provenance([document.id]).get(document.id, Provenance("")).origin:
            _record_provenance(store, *official_or(document, spec.kind, where))  # older index
        if on_progress:
            on_progress(document.id, 1, 1)
        return IngestReport(_shown_source(spec), document.id, "unchanged")
    parsed = parse_document(document, settings, spec.derived_from)
    share = indexed_share(parsed)
    partial = share < settings.min_indexed_share
    # A re-parse of a text the index already holds was allowed in part once; an upgrade
    # does not turn it into a failure.
    if partial and not allow_partial and not (reparse and not force):
        raise SourceError(f"{spec.path}: only {share:.0%} of its text would be indexed (the "
                          "rest is not in numbered provisions); nothing was written. Check the "
                          "file, or pass --allow-partial to index that part anyway")
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
    provenance, others, look_notes = _plan_provenance(
        store, *official_or(document, spec.kind, where))
    # The provenance commits with the document (a kill -9 cannot separate them).
    store.replace_document(parsed, embedder.model_id, new_vectors, provenance)
    for other, theirs in others:
        store.set_provenance(other, theirs)
    if document.doc_type is DocType.CONTRACT:
        from civicsetu.review.extract import metadata  # contract parties, dates, law

        store.set_document_metadata(document.id, metadata(document.text))
    notes = list(read_warnings + parsed.warnings)
    if reparse and not force:
        notes.insert(0, REPARSED)
    if partial:
        notes.append(f"only {share:.0%} of the text was indexed (--allow-partial)")
    notes += look_notes
    return IngestReport(
        _shown_source(spec), document.id, "updated" if previous else "added",
        provisions=len(parsed.provisions), chunks=len(parsed.chunks),
        embedded=len(new_vectors), reused=len(parsed.chunks) - len(new_vectors),
        message=_shown("; ".join(notes), spec),
    )


def indexed_share(parsed: ParsedDocument) -> float:
    """The share of the document's non-blank characters that its chunks cover."""
    text = parsed.document.text
    total = len(text) - sum(text.count(c) for c in " \t\r\n")
    covered, last = 0, 0
    for chunk in sorted(parsed.chunks, key=lambda c: c.start):
        start = max(chunk.start, last)
        if chunk.end > start:
            span = text[start:chunk.end]
            covered += len(span) - sum(span.count(c) for c in " \t\r\n")
            last = chunk.end
    return covered / total if total else 1.0


def _where(spec: SourceSpec) -> str:
    """Where a source comes from, as provenance records it: the URL it was downloaded
    from, ``upload:<name>`` for an API upload, else its absolute path."""
    if spec.origin:
        return spec.origin
    if spec.upload_name:
        return f"upload:{spec.upload_name}"
    return str(spec.path.resolve())


def _shown_source(spec: SourceSpec) -> str:
    """The source a report names: the URL, ``upload:<name>``, else the path as given."""
    return _where(spec) if spec.origin or spec.upload_name else str(spec.path)


def _shown(message: str, spec: SourceSpec) -> str:
    """``message`` with an upload's server path replaced by the file's name."""
    if not spec.upload_name or not message:
        return message
    for path in (str(spec.path.resolve()), str(spec.path)):
        message = message.replace(path, spec.upload_name)
    return message


_JOB_FOLDER = re.compile(r"^[0-9a-f]{32}$")


def _upload_key(where: str, uploads: Path) -> str:
    """``upload:<name>`` for a path inside an upload folder (where an index written before
    uploads were recorded by name keeps them), else ``where`` unchanged."""
    path = Path(where)
    if path.is_absolute() and _JOB_FOLDER.match(path.parent.name) \
            and path.parent.parent == uploads.resolve():
        return f"upload:{path.name}"
    return where


def _holder(store: Store, path: Path, mine: str, content_hash: str,
            uploads: Path) -> Callable[[str], str | None]:
    """``user_doc_id``'s look-up: where the document holding an id came from (compared
    with ``mine``, this source's ``_where``), or None when the id is free.

    A stored document with the same text is this document (the shared corpus holds copies
    of the bundled Acts: they keep the bundled ids). A bundled Act's id is held even when
    that Act is not ingested, unless this file is its text: a user file never takes an
    official Act's id."""
    def holder(doc_id: str) -> str | None:
        stored = store.document_hash(doc_id)
        if stored is not None:
            if stored == content_hash:
                return mine
            prov = store.provenance([doc_id]).get(doc_id, Provenance(""))
            if prov.path:
                return _upload_key(prov.path, uploads)
            source = store.document(doc_id).source  # an index from before provenance
            if source in {str(path), str(path.resolve())}:
                return mine
            return _upload_key(source, uploads)
        act = official_act(doc_id)
        if act is not None:
            return None if official_hash(doc_id) == content_hash else str(act.path)
        return None
    return holder


def _record_provenance(store: Store, document: Document, kind: str, where: str) -> list[str]:
    """Store where ``document`` came from; flag look-alike titles. Returns warnings."""
    provenance, flagged, warnings = _plan_provenance(store, document, kind, where)
    for other, theirs in flagged:
        store.set_provenance(other, theirs)
    store.set_provenance(document.id, provenance)
    return warnings


def _plan_provenance(store: Store, document: Document, kind: str, where: str
                     ) -> tuple[Provenance, list[tuple[str, Provenance]], list[str]]:
    """Where ``document`` came from, the other documents its (official) title flags as
    look-alikes, and the warnings; nothing is written."""
    others = [d for d in store.documents() if d.id != document.id]
    provenance = store.provenance()
    same = lookalikes((document.title, document.short_title),
                      ((d.id, (d.title, d.short_title)) for d in others))
    now = datetime.now(UTC).isoformat(timespec="seconds")
    flag = ""
    warnings = []
    flagged: list[tuple[str, Provenance]] = []
    for other in same:
        theirs = provenance.get(other, Provenance(""))
        if kind == "bundled" and not theirs.official:
            flagged.append((other, replace(theirs, lookalike_of=document.id)))
            warnings.append(f"{other} has the title of this official Act and is flagged")
        elif kind != "bundled":
            flag = flag or other
    if flag:
        warnings.append(f"the title {document.title!r} matches the document {flag}; it is "
                        "flagged as a look-alike and answers quoting it carry a warning")
    return Provenance(kind, where, now, flag), flagged, warnings


def bundled_specs() -> list[SourceSpec]:
    from civicsetu.corpus import bundled_acts

    return [SourceSpec(a.path, doc_id=a.id, aliases=a.aliases, kind="bundled")
            for a in bundled_acts()]
