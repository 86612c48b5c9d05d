"""The records that flow through CivicSetu, from parsed source to cited answer.

Identifiers are canonical and stable: a document id is a slug (for the shared corpus the
file stem), a provision path is ``s.18(1)(b)`` style, and a provision's full id is
``<doc>#<path>``. Re-ingesting the same text always yields the same ids.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from civicsetu.errors import InvalidIdError

# A document id: no whitespace, no ``#``, no control characters, at most 200 characters.
# Ids we create are ASCII slugs (``ingest/identity.py``); registry ids are slugs too.
_DOC_ID = re.compile(r"[^\s#\x00-\x1f\x7f]{1,200}")
# A provision path: ``s.18(1)(b)``, ``r.3``, ``sch.I``; no whitespace or ``#``.
_PATH = re.compile(r"[^\s#\x00-\x1f\x7f]{1,200}")
_EXAMPLE = "the-real-estate-regulation-and-development-act-2016#s.18(1)"


def stable_hash(*parts: str, length: int = 16) -> str:
    """A short hex digest of ``parts``; the same input gives the same id on every machine."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:length]


def provision_id(doc_id: str, path: str) -> str:
    return f"{doc_id}#{path}"


def split_provision_id(full_id: str) -> tuple[str, str]:
    """``DOC#PATH`` -> ``(DOC, PATH)``; ``InvalidIdError`` (an ``InputError`` and a
    ``ValueError``) when either half is empty or malformed."""
    doc_id, sep, path = full_id.partition("#")
    if not sep or not _DOC_ID.fullmatch(doc_id) or not _PATH.fullmatch(path):
        raise InvalidIdError(f"{full_id!r} is not a provision id; use DOC#PATH, e.g. "
                             f"{_EXAMPLE} (`civicsetu documents` lists the document ids)")
    return doc_id, path


def check_doc_id(doc_id: str) -> str:
    """``doc_id`` unchanged when it is a well-formed document id, else ``InvalidIdError``."""
    if not _DOC_ID.fullmatch(doc_id):
        raise InvalidIdError(f"{doc_id!r} is not a document id (no spaces, no '#', not "
                             "empty); `civicsetu documents` lists the ids")
    return doc_id


def check_node_id(node: str) -> str:
    """A graph node: a provision id ``DOC#PATH`` or a document id."""
    if "#" in node:
        split_provision_id(node)
    else:
        check_doc_id(node)
    return node


def section_of(path: str) -> str:
    """The top-level unit of a path: ``s.18(1)(b)`` -> ``s.18``."""
    head, _, _ = path.partition("(")
    return head


class DocType(StrEnum):
    ACT = "act"
    RULES = "rules"
    REGULATIONS = "regulations"
    CONTRACT = "contract"
    OTHER = "other"


class ProvisionKind(StrEnum):
    SECTION = "section"
    RULE = "rule"
    REGULATION = "regulation"
    ARTICLE = "article"
    SCHEDULE = "schedule"
    FORM = "form"
    SUBSECTION = "subsection"
    CLAUSE = "clause"
    SUBCLAUSE = "subclause"
    ITEM = "item"
    SUBITEM = "subitem"
    PARAGRAPH = "paragraph"


@dataclass(frozen=True, slots=True)
class Footnote:
    """An editorial or amendment note printed under a section (``1. Subs. by Act 7 of 2017``)."""

    marker: str
    text: str


@dataclass(frozen=True, slots=True)
class Document:
    id: str
    title: str
    text: str
    source: str
    jurisdiction: str = "IN"
    doc_type: DocType = DocType.ACT
    short_title: str = ""
    aliases: tuple[str, ...] = ()
    effective_date: date | None = None
    parent_id: str | None = None
    page_starts: tuple[int, ...] = ()

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Provision:
    """One numbered unit of a document; ``start``/``end`` index into ``Document.text``.

    The span covers the provision and all its children, so ``text`` is exactly
    ``document.text[start:end]``: quotes can always be checked against the source.
    """

    doc_id: str
    path: str
    kind: ProvisionKind
    title: str
    start: int
    end: int
    text: str
    parent_path: str | None
    ordinal: int
    footnotes: tuple[Footnote, ...] = ()
    valid_from: date | None = None
    valid_to: date | None = None
    page: int | None = None
    page_end: int | None = None

    @property
    def id(self) -> str:
        return provision_id(self.doc_id, self.path)

    @property
    def section(self) -> str:
        return section_of(self.path)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A retrievable span of one section, sized for the embedder.

    ``provision_path`` is the deepest provision containing the whole chunk; ``embed_text``
    carries the act and section title so a sub-clause keeps its context when embedded.
    """

    doc_id: str
    provision_path: str
    ordinal: int
    start: int
    end: int
    text: str
    embed_text: str

    @property
    def id(self) -> str:
        return stable_hash(self.doc_id, self.provision_path, str(self.ordinal))

    @property
    def provision_id(self) -> str:
        return provision_id(self.doc_id, self.provision_path)

    @property
    def text_hash(self) -> str:
        return hashlib.sha256(self.embed_text.encode("utf-8")).hexdigest()


class EdgeType(StrEnum):
    HAS_PART = "HAS_PART"
    REFERENCES = "REFERENCES"
    DERIVED_FROM = "DERIVED_FROM"
    DEFINES = "DEFINES"


@dataclass(frozen=True, slots=True)
class Edge:
    """A directed graph edge between provision ids (``doc#path``) or document ids."""

    src: str
    dst: str
    type: EdgeType


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference printed in ``src`` (``sub-section (1) of section 71``), with its span.

    ``target_doc`` is the referenced document's id when it is known (the same document,
    the parent Act of a rule, or a named Act in the corpus); ``target_name`` keeps a named
    Act's words when it is not. Resolution to an existing provision happens in the store,
    so a reference to an Act ingested later resolves then.
    """

    src: str
    start: int
    end: int
    text: str
    target_path: str
    target_doc: str | None = None
    target_name: str = ""
    derived: bool = False


@dataclass(frozen=True, slots=True)
class Definition:
    """``term`` is defined by the provision ``provision_id`` (``allottee`` -> ``s.2(d)``)."""

    term: str
    provision_id: str


@dataclass(frozen=True, slots=True)
class Amendment:
    """An amendment footnote: what was done to ``provision_id``, by which Act, from when."""

    provision_id: str
    action: str  # substituted | inserted | omitted | amended | repealed
    by: str
    effective: date | None
    note: str


@dataclass(frozen=True, slots=True)
class DatedEvent:
    """A date printed in the document: enactment, commencement or an effective date."""

    doc_id: str
    kind: str  # enacted | commencement | effective
    on: date
    provision_path: str | None
    text: str


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    document: Document
    provisions: tuple[Provision, ...]
    chunks: tuple[Chunk, ...]
    edges: tuple[Edge, ...]
    warnings: tuple[str, ...] = ()
    references: tuple[Reference, ...] = ()
    definitions: tuple[Definition, ...] = ()
    amendments: tuple[Amendment, ...] = ()
    dates: tuple[DatedEvent, ...] = ()
    # The parser that produced this (ingest.version.PARSER_VERSION); 0 is unknown, so a
    # document stored with it is re-parsed by the next ingest.
    parser_version: int = 0


@dataclass(slots=True)
class Hit:
    """One ranked search result: a chunk and the provision it belongs to."""

    chunk_id: str
    doc_id: str
    provision_path: str
    text: str
    start: int
    end: int
    score: float
    pinned: bool = False
    sources: dict[str, float] = field(default_factory=dict)
    rowid: int | None = None  # the chunk's row in the store; None for a looked-up provision

    @property
    def provision_id(self) -> str:
        return provision_id(self.doc_id, self.provision_path)


@dataclass(frozen=True, slots=True)
class Citation:
    """A verified quote: ``quote`` is ``document.text[start:end]`` with whitespace folded."""

    provision_id: str
    label: str
    title: str
    quote: str
    start: int
    end: int
    # Provenance of the quoted document (answer/provenance.py); not part of a quote's identity.
    source: str = field(default="", compare=False)  # human-readable
    origin: str = field(default="", compare=False)  # bundled | registry | user | "" (unknown)


@dataclass(slots=True)
class Answer:
    query: str
    text: str
    abstained: bool
    citations: list[Citation]
    retrieved: list[Hit]
    timings_ms: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    query_type: str = ""
    confidence: str = ""  # high | medium | low, from the evidence, never the model's say-so
    generator: str = "extractive"  # extractive | the LLM's name
    llm_calls: int = 0
    tokens: int = 0
    usage_by_call: dict[str, dict[str, float]] = field(default_factory=dict)
    cost_usd: float = 0.0  # estimated from llm/pricing.py
    # The calibrated probability that the evidence answers the question (answer/confidence.py);
    # None when it was not computed (refusals, measurement modes).
    score: float | None = None
