"""The ``Store`` protocol: what ingestion writes and retrieval reads.

SQLite is the embedded default; ``store.postgres`` implements the same protocol on
PostgreSQL + pgvector. ``tests/store/contract.py`` is the behaviour every backend owes.
Records cross this boundary as plain dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import date
from typing import Protocol

import numpy as np
import numpy.typing as npt

from civicsetu.types import Amendment, DatedEvent, Document, ParsedDocument, Provision


@dataclass(frozen=True, slots=True)
class ChunkRow:
    rowid: int
    id: str
    doc_id: str
    provision_path: str
    section: str
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    id: str
    title: str
    short_title: str
    source: str
    jurisdiction: str
    doc_type: str
    aliases: tuple[str, ...]
    content_hash: str
    provisions: int
    chunks: int


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a document came from. ``origin`` is ``bundled`` (the official text shipped
    with CivicSetu), ``registry`` (a registry entry), ``user`` (a file the user ingested)
    or ``""`` (an index written before provenance was recorded). ``path`` is the file's
    absolute path, a URL, or ``upload:NAME`` for an API upload. ``lookalike_of`` names
    the document whose title this one shares (an impersonation flag), else ``""``."""

    origin: str
    path: str = ""
    ingested_at: str = ""
    lookalike_of: str = ""

    @property
    def official(self) -> bool:
        return self.origin == "bundled"

    def label(self) -> str:
        """A short human description: ``user file /x/rules.txt, ingested 2026-11-23``
        (``uploaded file rules.txt, ...`` for an API upload, whose path is ``upload:NAME``)."""
        names = {"bundled": "official text bundled with CivicSetu", "registry":
                 "registry entry", "user": "user file", "": "unknown origin"}
        text = names.get(self.origin, self.origin)
        if self.path.startswith("upload:"):  # an API upload is known by its file name
            text = f"uploaded file {self.path.removeprefix('upload:')}"
        elif self.path and self.origin != "bundled":
            text += f" {self.path}"
        if self.ingested_at and self.origin != "bundled":
            text += f", ingested {self.ingested_at[:19].replace('T', ' ')} UTC"
        if self.lookalike_of:
            text += f"; its title matches {self.lookalike_of}"
        return text


@dataclass(frozen=True, slots=True)
class VectorIndex:
    """All chunk vectors of one model as a matrix, row ``i`` belonging to ``rowids[i]``."""

    rowids: npt.NDArray[np.int64]
    doc_ids: npt.NDArray[np.str_]
    matrix: npt.NDArray[np.float32]
    valid_from: npt.NDArray[np.str_]  # ISO dates, "" when open
    valid_to: npt.NDArray[np.str_]

    def in_force(self, as_of: date | None) -> npt.NDArray[np.bool_]:
        """Rows in force now (``as_of`` None) or on ``as_of``."""
        if as_of is None:
            return np.asarray(self.valid_to == "", dtype=np.bool_)
        day = as_of.isoformat()
        started = (self.valid_from == "") | (self.valid_from <= day)
        ongoing = (self.valid_to == "") | (self.valid_to > day)
        return np.asarray(started & ongoing, dtype=np.bool_)


@dataclass(frozen=True, slots=True)
class DenseIndexStatus:
    """What ``rebuild_dense_index`` built: its kind, rows, where it lives, seconds taken."""

    kind: str
    rows: int
    location: str
    seconds: float


@dataclass(frozen=True, slots=True)
class GraphEdge:
    src: str
    dst: str
    type: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class GraphStats:
    documents: int
    provisions: int
    edges: dict[str, int]
    references_resolved: int
    references_to_section: int
    references_unresolved: int
    definitions: int
    amendments: int
    dates: int


@dataclass(frozen=True, slots=True)
class Finding:
    """One ``doctor`` check: problems found, how many ``--fix`` repaired, and what to do."""

    check: str
    problems: int
    fixed: int
    detail: str
    remedy: str = ""

    @property
    def remaining(self) -> int:
        return self.problems - self.fixed


@dataclass(frozen=True, slots=True)
class ProvisionNeighbours:
    """Where a provision sits: its parent, its children and its siblings before and after."""

    parent: str | None
    children: tuple[str, ...]
    previous: str | None
    next: str | None


@dataclass(frozen=True, slots=True)
class GraphNode:
    """A graph node for display: a provision (``doc#path``) or a whole document."""

    id: str
    doc_id: str
    path: str
    title: str


@dataclass(frozen=True, slots=True)
class Topology:
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool  # more nodes matched than the cap; the best-connected were kept


class Store(Protocol):
    """What ingestion writes and retrieval reads; SQLite and PostgreSQL implement it.

    ``as_of`` selects the law as in force on a date (history included); ``None`` is now.
    """

    def document_hash(self, doc_id: str) -> str | None: ...

    def parser_version(self, doc_id: str) -> int | None:
        """The parser version ``doc_id`` was written with (``ParsedDocument.parser_version``;
        0 for a document stored before versions were recorded); None when unknown."""
        ...

    def cached_vectors(self, model_id: str,
                       text_hashes: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]: ...

    def replace_document(self, parsed: ParsedDocument, model_id: str,
                         new_vectors: Mapping[str, npt.NDArray[np.float32]],
                         provenance: Provenance | None = None) -> None:
        """Write a document with everything of it (and its provenance) in one transaction."""
        ...

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document and everything that belongs to it; False when unknown."""
        ...

    def documents(self) -> list[DocumentInfo]: ...

    def provenance(self, doc_ids: Sequence[str] | None = None) -> dict[str, Provenance]:
        """Provenance of ``doc_ids`` (every document when None); unknown ids are absent."""
        ...

    def set_provenance(self, doc_id: str, provenance: Provenance) -> None:
        """Record where ``doc_id`` came from (after it is written)."""
        ...

    def document(self, doc_id: str) -> Document: ...

    def provision(self, full_id: str, as_of: date | None = None) -> Provision: ...

    def provisions_of_section(self, doc_id: str, section: str,
                              as_of: date | None = None) -> list[Provision]: ...

    def history(self, full_id: str) -> list[Provision]: ...

    def chunks(self, rowids: Sequence[int]) -> list[ChunkRow]: ...

    def chunks_of_section(self, doc_id: str, section: str,
                          as_of: date | None = None) -> list[ChunkRow]: ...

    def chunk_covering(self, doc_id: str, path: str) -> int | None: ...

    def keyword_search(self, fts_query: str, limit: int,
                       doc_ids: Sequence[str] | None = None,
                       as_of: date | None = None) -> list[tuple[int, float]]: ...

    def vector_index(self, model_id: str) -> VectorIndex: ...

    def dense_search(self, model_id: str, vector: npt.NDArray[np.float32], k: int,
                     doc_ids: Sequence[str] | None = None,
                     as_of: date | None = None) -> list[tuple[int, float]]:
        """The ``k`` chunk rowids nearest ``vector`` (inner product, best first) among the
        chunks in force now (or on ``as_of``) of ``doc_ids`` (all when None). Returns
        ``k`` rows whenever ``k`` rows pass the filters (approximate indexes widen)."""
        ...

    def rebuild_dense_index(self, model_id: str) -> DenseIndexStatus:
        """Rebuild the approximate (HNSW) index over every stored vector of ``model_id``."""
        ...

    def chunk_count(self) -> int: ...

    def term_document_frequency(self, terms: Sequence[str]) -> dict[str, int]: ...

    def resolve_references(self) -> None: ...

    def edges(self, node: str, direction: str = "out",
              types: Sequence[str] | None = None) -> list[GraphEdge]: ...

    def unresolved_references(self, node: str) -> list[GraphEdge]: ...

    def neighbourhood(self, start: Sequence[str], hops: int,
                      types: Sequence[str]) -> dict[str, int]: ...

    def definitions_for(self, terms: Sequence[str],
                        doc_ids: Sequence[str] | None = None) -> list[tuple[str, str]]: ...

    def amendments_of(self, provision_ids: Sequence[str]) -> list[Amendment]: ...

    def dates_of(self, doc_id: str) -> list[DatedEvent]: ...

    def graph_stats(self) -> GraphStats: ...

    def provision_neighbours(self, full_id: str) -> ProvisionNeighbours:
        """Parent, children, previous and next sibling ids (current version)."""
        ...

    def graph_nodes(self, ids: Sequence[str]) -> list[GraphNode]:
        """Display records for provision or document ids; unknown ids are left out."""
        ...

    def topology(self, doc_ids: Sequence[str] | None, types: Sequence[str] | None,
                 max_nodes: int) -> Topology:
        """Edges within ``doc_ids`` (all when None) of ``types``, capped at ``max_nodes``."""
        ...

    # Research mode's QA memory (cosine look-up of earlier answers), keyed by a corpus
    # fingerprint so a changed corpus starts empty.
    def qa_memory(self, corpus: str) -> list[tuple[npt.NDArray[np.float32], str]]: ...

    def remember_qa(self, corpus: str, question: str, vector: npt.NDArray[np.float32],
                    payload: str) -> None: ...

    def read_snapshot(self) -> AbstractContextManager[None]:
        """Reads inside see one committed state of the index (re-entrant)."""
        ...

    def data_version(self) -> int:
        """Changes when another connection or process commits to the index."""
        ...

    def doctor(self, fix: bool = False) -> list[Finding]:
        """Check the index for inconsistencies (``civicsetu doctor``); repair with ``fix``."""
        ...

    # Document metadata (contracts: parties, effective date, term, governing law,
    # signatories); set replaces every key of the document.
    def set_document_metadata(self, doc_id: str, values: Mapping[str, str]) -> None: ...

    def document_metadata(self, doc_id: str) -> dict[str, str]: ...

    def close(self) -> None: ...
