"""``Engine``: the Python API. One object ties settings, store, embedder and answerer.

    from civicsetu.engine import Engine
    with Engine() as cs:
        cs.ingest_bundled()
        answer = cs.ask("What is the penalty for not registering a real estate project?")

The embedder loads on first use, so commands that only read (``show``) stay fast.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from civicsetu.agent.pipeline import Agent

if TYPE_CHECKING:
    from civicsetu.agent.conversation import Conversation
    from civicsetu.agent.research import ResearchRun
    from civicsetu.ingest.registry import RegistryEntry
from civicsetu.answer.extractive import answer_extractive
from civicsetu.answer.provenance import annotate
from civicsetu.config import Settings
from civicsetu.embed import Embedder, get_embedder
from civicsetu.errors import NotFoundError, SourceError
from civicsetu.ingest.pipeline import (
    IngestReport,
    ProgressCallback,
    SourceSpec,
    bundled_specs,
    ingest,
)
from civicsetu.search.hybrid import Mode, Searcher, SearchFilters, SearchResult
from civicsetu.store import Store, open_store
from civicsetu.store.base import DocumentInfo, ProvisionNeighbours, Topology
from civicsetu.types import Answer, Provision, check_doc_id


class Engine:
    def __init__(self, settings: Settings | None = None, *, create: bool = True) -> None:
        """Open the index in ``settings.home``; with ``create=False`` (commands that only
        read) a missing index is a ``NotIngestedError`` instead of a new, empty one."""
        self.settings = settings or Settings()
        self.store: Store = open_store(self.settings, create=create)
        self._embedder: Embedder | None = None
        self._searcher: Searcher | None = None
        self._agents: dict[str | None, Agent] = {}
        self._data_version = -1

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder(self.settings.embedder, self.settings)
        return self._embedder

    @property
    def embedder_loaded(self) -> bool:
        """True once the embedding model has been loaded (it loads on first use)."""
        return self._embedder is not None

    @property
    def searcher(self) -> Searcher:
        if self._searcher is None:
            self._searcher = Searcher(self.store, self.embedder, self.settings)
            self._data_version = self.store.data_version()
        elif self.store.data_version() != self._data_version:
            # Another process ingested or removed documents since the list was read.
            self._data_version = self.store.data_version()
            self._searcher.forget_documents()
        return self._searcher

    def ingest(self, specs: Sequence[SourceSpec], *, force: bool = False,
               on_progress: ProgressCallback | None = None,
               allow_partial: bool = False) -> list[IngestReport]:
        reports = ingest(specs, self.store, self.embedder, self.settings, force=force,
                         on_progress=on_progress, allow_partial=allow_partial)
        self._searcher = None  # documents changed: aliases and filters must be re-read
        self._agents.clear()
        return reports

    def ingest_bundled(self, *, force: bool = False,
                       on_progress: ProgressCallback | None = None) -> list[IngestReport]:
        return self.ingest(bundled_specs(), force=force, on_progress=on_progress)

    def ingest_registry(self, registry: Path, *, force: bool = False,
                        on_progress: ProgressCallback | None = None) -> list[IngestReport]:
        """Ingest every document a registry file lists, downloading URLs into the cache.

        A source that cannot be fetched is reported as failed; the others go on.
        """
        from civicsetu.ingest.registry import load_registry

        return self.ingest_entries(load_registry(registry), force=force,
                                   on_progress=on_progress)

    def ingest_entries(self, entries: list[RegistryEntry], *, force: bool = False,
                       on_progress: ProgressCallback | None = None) -> list[IngestReport]:
        """Ingest registry entries (paths as given, URLs downloaded into the cache); a source
        that cannot be fetched is reported as failed and the others go on."""
        from civicsetu.ingest.download import Downloader
        from civicsetu.ingest.registry import to_spec

        specs: list[SourceSpec] = []
        failed: list[IngestReport] = []
        downloader = Downloader(self.settings.home / "downloads") \
            if any(e.is_url for e in entries) else None
        try:
            for entry in entries:
                if not entry.is_url:
                    specs.append(to_spec(entry, Path(entry.source)))
                    continue
                assert downloader is not None
                try:
                    fetched = downloader.fetch(entry.source, entry.sha256)
                except SourceError as exc:
                    failed.append(IngestReport(entry.source, entry.id, "failed",
                                               message=str(exc)))
                    continue
                specs.append(to_spec(entry, fetched.path))
        finally:
            if downloader is not None:
                downloader.close()
        return failed + self.ingest(specs, force=force, on_progress=on_progress)

    def documents(self) -> list[DocumentInfo]:
        return self.store.documents()

    def remove_document(self, doc_id: str) -> None:
        """Remove a document and everything that belongs to it; references from other
        documents into it become unresolved. ``NotFoundError`` for an unknown id."""
        check_doc_id(doc_id)
        if not self.store.delete_document(doc_id):
            raise NotFoundError(f"no document {doc_id!r} in the index; `civicsetu documents` "
                                "lists the ids")
        self._searcher = None  # documents changed: aliases and filters must be re-read
        self._agents.clear()

    def search(self, query: str, *, k: int | None = None, mode: Mode = "hybrid",
               filters: SearchFilters | None = None) -> SearchResult:
        with self.store.read_snapshot():  # one committed state while another process writes
            return self.searcher.search(query, k=k, mode=mode, filters=filters)

    def ask(self, query: str, *, k: int | None = None, mode: Mode = "hybrid",
            filters: SearchFilters | None = None, llm: str | None = None) -> Answer:
        """Answer through the agent (guard, classify, retrieve, generate, validate).

        ``llm`` is a provider spec (``openai:MODEL``, ``gguf:PATH`` ...; default
        ``Settings.llm``); with none the answer is extractive. ``mode`` other than hybrid
        is for measurement: it skips the agent and answers from that retriever alone.
        """
        with self.store.read_snapshot():  # one committed state while another process writes
            return self._ask(query, k=k, mode=mode, filters=filters, llm=llm)

    def _ask(self, query: str, *, k: int | None, mode: Mode, filters: SearchFilters | None,
             llm: str | None) -> Answer:
        if mode != "hybrid":
            t0 = time.perf_counter()
            result = self.search(query, k=max(k or self.settings.top_k, 10), mode=mode,
                                 filters=filters)
            answer = answer_extractive(result, self.store, self.searcher.documents,
                                       self.settings.abstain_below,
                                       self.settings.complete_answers,
                                       quantity_check=self.settings.quantity_check,
                                       names=self.searcher.law_names)
            answer.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 2)
            return annotate(answer, self.store)
        from civicsetu.review.route import contract_answer  # contract questions (issue 11)

        contract = contract_answer(self.store, query, filters)
        if contract is not None:
            return annotate(contract, self.store)
        return annotate(self.agent(llm).run(query, filters), self.store)

    def research(self, query: str, *, filters: SearchFilters | None = None,
                 llm: str | None = None) -> ResearchRun:
        """Multi-hop research (``agent/research.py``): steps, pooled retrieval, memory."""
        from civicsetu.agent.research import Researcher

        run = Researcher(self.agent(llm)).run(query, filters)
        annotate(run.answer, self.store)
        return run

    def conversation(self, llm: str | None = None,
                     filters: SearchFilters | None = None) -> Conversation:
        """Multi-turn chat; sessions persist in ``$CIVICSETU_HOME/sessions.db``."""
        from civicsetu.agent.conversation import Conversation

        return Conversation(self.agent(llm), self.store, self.settings.home / "sessions.db",
                            filters)

    def agent(self, llm: str | None = None) -> Agent:
        spec = llm if llm is not None else self.settings.llm
        if spec not in self._agents:
            from civicsetu.llm import get_llm

            self._agents[spec] = Agent(self.searcher, self.store, self.settings.abstain_below,
                                       get_llm(spec), self.settings.top_k,
                                       self.settings.llm_classifies, self.settings.llm_judge)
        return self._agents[spec]

    def refresh(self) -> None:
        """Re-open the store after another connection (a background ingest) changed it, so
        cached vectors, aliases and filters are read again."""
        self.store.close()
        self.store = open_store(self.settings)
        self._searcher = None
        self._agents.clear()

    def neighbours(self, full_id: str) -> ProvisionNeighbours:
        """A provision's parent, children and previous/next siblings."""
        self.show(full_id)  # a clear InputError or NotFoundError for a bad id
        return self.store.provision_neighbours(full_id)

    def topology(self, doc_ids: Sequence[str] | None = None,
                 types: Sequence[str] | None = None, max_nodes: int = 2000) -> Topology:
        """The citation graph's nodes and typed edges, capped at ``max_nodes``."""
        return self.store.topology(doc_ids, types, max_nodes)

    def show(self, full_id: str, as_of: date | None = None) -> Provision:
        """A provision as in force now, or on ``as_of`` (``NotFoundError`` when its document
        was not yet law then, search/in_force.py)."""
        provision = self.store.provision(full_id, as_of)
        began = self.searcher.law_dates.get(provision.doc_id) if as_of is not None else None
        if as_of is not None and began is not None and began[0] > as_of:
            title = self.searcher.titles.get(provision.doc_id, provision.doc_id)
            since = f"came into force on {began[0].isoformat()}" if began[1] else \
                f"dates from {began[0].year}"
            raise NotFoundError(f"{full_id} was not law on {as_of.isoformat()}: the {title} "
                                f"{since}; show it without --as-of for its current text")
        return provision
