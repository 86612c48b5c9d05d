"""The MCP server (``civicsetu mcp``, stdio, the official ``mcp`` SDK v2 ``MCPServer``).

Tools: ``search``, ``ask``, ``get_provision``, ``related_provisions``, ``list_documents``.
Inputs are typed (JSON Schema from the annotations); every result is structured and
carries ``citations`` (provision or document id, label, and the verified quote or source)
so an assistant can always point at the law it used. Everything runs on the same
``Engine`` as the CLI and the REST API.
"""

from __future__ import annotations

import threading
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import CivicSetuError, InputError
from civicsetu.ingest.chunker import display_path
from civicsetu.search.hybrid import SearchFilters
from civicsetu.types import EdgeType

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

INSTALL_HINT = "the MCP server needs the server extra: pip install 'civicsetu[server]'"


class Citation(BaseModel):
    id: str = Field(description="Provision id DOC#PATH, or a document id.")
    label: str = Field(description="e.g. Section 18(1)(b) of the ... Act, 2016")
    quote: str = Field(default="", description="Verbatim text (verified) when quoted.")
    source: str = Field(default="", description="Where the document came from.")


class SearchHit(BaseModel):
    id: str
    label: str
    title: str
    text: str
    score: float


class SearchOutput(BaseModel):
    query: str
    hits: list[SearchHit]
    citations: list[Citation]


class AskOutput(BaseModel):
    question: str
    answer: str
    abstained: bool
    confidence: str
    notices: list[str]
    citations: list[Citation]


class ProvisionOutput(BaseModel):
    id: str
    label: str
    title: str
    document_title: str
    text: str
    valid_from: date | None
    valid_to: date | None
    parent: str | None
    children: list[str]
    previous: str | None
    next: str | None
    citations: list[Citation]


class Related(BaseModel):
    id: str
    label: str
    title: str
    relation: str = Field(description="Edge type and direction, e.g. REFERENCES out.")
    distance: int


class RelatedOutput(BaseModel):
    id: str
    related: list[Related]
    citations: list[Citation]


class DocumentOut(BaseModel):
    id: str
    title: str
    jurisdiction: str
    doc_type: str
    provisions: int


class DocumentsOutput(BaseModel):
    documents: list[DocumentOut]
    citations: list[Citation]


EdgeName = Literal["HAS_PART", "REFERENCES", "DERIVED_FROM", "DEFINES"]


class CivicSetuTools:
    """The tool implementations on one Engine (calls are serialised: SQLite, one lock)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lock = threading.Lock()
        self._titles: dict[str, str] = {}

    def _label(self, full_id: str) -> str:
        doc_id, _, path = full_id.partition("#")
        if doc_id not in self._titles:
            self._titles = {d.id: d.title for d in self.engine.documents()}
        title = self._titles.get(doc_id, doc_id)
        return f"{display_path(path)} of the {title}" if path else title

    def search(self, query: str, k: int = 5, documents: list[str] | None = None) -> SearchOutput:
        filters = SearchFilters(doc_ids=documents) if documents else None
        with self.lock:
            result = self.engine.search(query, k=k, filters=filters)
            hits = []
            for h in result.hits[:k]:
                title = self.engine.store.provision(h.provision_id).title
                hits.append(SearchHit(id=h.provision_id, label=self._label(h.provision_id),
                                      title=title, text=h.text, score=round(h.score, 6)))
        return SearchOutput(query=query, hits=hits,
                            citations=[Citation(id=h.id, label=h.label, quote=h.text)
                                       for h in hits])

    def ask(self, question: str, documents: list[str] | None = None,
            as_of: date | None = None) -> AskOutput:
        filters = SearchFilters(doc_ids=documents, as_of=as_of) \
            if (documents or as_of) else None
        with self.lock:
            answer = self.engine.ask(question, filters=filters)
        return AskOutput(question=question, answer=answer.text, abstained=answer.abstained,
                         confidence=answer.confidence, notices=answer.notices,
                         citations=[Citation(id=c.provision_id, label=c.label, quote=c.quote)
                                    for c in answer.citations])

    def get_provision(self, id: str, as_of: date | None = None) -> ProvisionOutput:
        with self.lock:
            p = self.engine.show(id, as_of)
            around = self.engine.neighbours(id)
            doc = self.engine.store.document(p.doc_id)
            label = self._label(id)
        return ProvisionOutput(id=id, label=label, title=p.title, document_title=doc.title,
                               text=p.text, valid_from=p.valid_from, valid_to=p.valid_to,
                               parent=around.parent, children=list(around.children),
                               previous=around.previous, next=around.next,
                               citations=[Citation(id=id, label=label, quote=p.text,
                                                   source=doc.source)])

    def related_provisions(self, id: str, depth: int = 1,
                           edge_types: list[EdgeName] | None = None,
                           limit: int = 30) -> RelatedOutput:
        types = list(edge_types) if edge_types else [t.value for t in EdgeType
                                                     if t != EdgeType.HAS_PART]
        with self.lock:
            self.engine.show(id)
            # A section's references are printed in its sub-sections: start from them all.
            parts = self.engine.store.neighbourhood([id], 4, [EdgeType.HAS_PART.value])
            family = {id, *(n for n in parts if n.startswith(id + "("))}
            direct: dict[str, str] = {}
            for node in sorted(family):
                for e in self.engine.store.edges(node, "out", types):
                    direct.setdefault(e.dst, f"{e.type} out")
                for e in self.engine.store.edges(node, "in", types):
                    direct.setdefault(e.src, f"{e.type} in")
            distances = self.engine.store.neighbourhood(sorted(family), depth, types)
            ranked = sorted(((n, d) for n, d in distances.items() if n not in family),
                            key=lambda kv: (kv[1], kv[0]))[:limit]
            nodes = {n.id: n for n in self.engine.store.graph_nodes([n for n, _ in ranked])}
            related = [Related(id=n, label=self._label(n), title=nodes[n].title,
                               relation=direct.get(n, "indirect"), distance=d)
                       for n, d in ranked if n in nodes]
        return RelatedOutput(id=id, related=related,
                             citations=[Citation(id=r.id, label=r.label) for r in related])

    def list_documents(self) -> DocumentsOutput:
        with self.lock:
            docs = self.engine.documents()
        out = [DocumentOut(id=d.id, title=d.title, jurisdiction=d.jurisdiction,
                           doc_type=d.doc_type, provisions=d.provisions) for d in docs]
        return DocumentsOutput(documents=out, citations=[
            Citation(id=d.id, label=d.title, source=d.source) for d in docs])


def build_server(engine: Engine) -> MCPServer:
    """The MCPServer with the five tools registered on ``engine``."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError as exc:
        raise InputError(INSTALL_HINT) from exc

    tools = CivicSetuTools(engine)
    server: MCPServer = MCPServer(
        "civicsetu",
        instructions="Search and quote Indian statutes and other ingested law. Every result "
                     "carries citations (DOC#PATH ids with verified quotes); cite them.")

    def guarded(fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except CivicSetuError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool()
    def search(
        query: Annotated[str, Field(min_length=1, max_length=2000,
                                    description="Words or a question to search for.")],
        k: Annotated[int, Field(ge=1, le=20, description="How many provisions.")] = 5,
        documents: Annotated[list[str] | None, Field(
            description="Only these document ids (see list_documents).")] = None,
    ) -> SearchOutput:
        """Ranked provisions (hybrid keyword + semantic search) with their text."""
        result: SearchOutput = guarded(tools.search, query, k, documents)
        return result

    @server.tool()
    def ask(
        question: Annotated[str, Field(min_length=1, max_length=2000,
                                       description="A question about the law.")],
        documents: Annotated[list[str] | None, Field(
            description="Only these document ids.")] = None,
        as_of: Annotated[date | None, Field(
            description="Answer from the law as in force on this date.")] = None,
    ) -> AskOutput:
        """An answer quoting the law verbatim with pinpoint citations, or an abstention."""
        result: AskOutput = guarded(tools.ask, question, documents, as_of)
        return result

    @server.tool()
    def get_provision(
        id: Annotated[str, Field(min_length=3, max_length=300,
                                 description="DOC#PATH, e.g. the-registration-act-1908#s.17")],
        as_of: Annotated[date | None, Field(description="As in force on this date.")] = None,
    ) -> ProvisionOutput:
        """The full text of one provision with its parent, children and siblings."""
        result: ProvisionOutput = guarded(tools.get_provision, id, as_of)
        return result

    @server.tool()
    def related_provisions(
        id: Annotated[str, Field(min_length=3, max_length=300, description="DOC#PATH")],
        depth: Annotated[int, Field(ge=1, le=3, description="Hops in the graph.")] = 1,
        edge_types: Annotated[list[EdgeName] | None, Field(
            description="Edge types to follow (default all but HAS_PART).")] = None,
        limit: Annotated[int, Field(ge=1, le=200)] = 30,
    ) -> RelatedOutput:
        """Provisions this one cites, that cite it, derive from it or define its terms."""
        result: RelatedOutput = guarded(tools.related_provisions, id, depth, edge_types,
                                        limit)
        return result

    @server.tool()
    def list_documents() -> DocumentsOutput:
        """The ingested documents with their ids (use them to filter other tools)."""
        result: DocumentsOutput = guarded(tools.list_documents)
        return result

    return server


def run_stdio(settings: Settings) -> None:
    """Serve the MCP tools on stdin/stdout until the client closes the connection."""
    with Engine(settings, create=False) as engine:  # it only reads: no empty index
        build_server(engine).run("stdio")
