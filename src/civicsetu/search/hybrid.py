"""Hybrid retrieval: BM25 and dense (``Store.dense_search``) fused by reciprocal rank.

Then: for questions that follow references, penalties or time limits, the citation-graph
neighbours of the best provisions join as one more ranked list (``graph_expand``);
provisions the question names are looked up and pinned first, followed by the sections
they refer to; the definition of a term the question quotes leads (``defined``); a
provision headed for another party than the question's moves down (``parties``);
documents the question names are preferred; and the sections of the best hits are
expanded with their other chunks so the answerer sees whole provisions, not fragments.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from civicsetu.config import Settings
from civicsetu.embed.base import Embedder, Vectors
from civicsetu.errors import InputError, NotFoundError, NotIngestedError
from civicsetu.search.consequence import (
    Kind,
    consequence_first,
    consequence_target,
    wanted_kinds,
)
from civicsetu.search.defined import (
    asked_definitions,
    defining_document,
    quoted_definitions,
)
from civicsetu.search.graph_expand import (
    MAX_NEIGHBOURS,
    SEEDS,
    chunk_rowids,
    definitions,
    graph_list,
    wants_graph,
)
from civicsetu.search.headings import SectionHeadings
from civicsetu.search.in_force import NotYetLaw, law_from
from civicsetu.search.lawnames import LawNames
from civicsetu.search.neighbours import Relevance, ranked_neighbours
from civicsetu.search.parties import others_after
from civicsetu.search.places import elsewhere_after
from civicsetu.search.query import (
    AliasTable,
    QueryAnalysis,
    analyze,
    fts_query,
    named_documents,
    normalized,
)
from civicsetu.search.rerank import Reranker, load_default
from civicsetu.search.routing import Router, capitalised_names, stem, title_phrases
from civicsetu.search.spent import without_spent
from civicsetu.search.unfound import UnfoundReference, in_named_act, in_no_document, look_up
from civicsetu.store.base import ChunkRow, DocumentInfo, Store
from civicsetu.types import Hit, Provision, section_of, split_provision_id

Mode = Literal["hybrid", "bm25", "dense"]
NAMED_DOC_WEIGHT = 1.0  # a named document counts like one more ranked list voting for it
FAMILY_TOP = 3
# The graph list votes at half weight: a neighbour joins the pool and rises near its seed.
GRAPH_WEIGHT = 0.5
GRAPH_SEEDS_LEAD = 2
RANKED_NEIGHBOURS = 8  # neighbours ranked by the question joining the graph list
# A document the question implies by its subject words (search/routing.py) counts half
# as much as one it names.
IMPLIED_DOC_WEIGHT = 0.5
# A reference naming no Act is looked up in this many of the ranking's first documents.
BARE_REFERENCE_DOCS = 20
BARE_REFERENCE_MARGIN = 2  # more of the question's words, to overrule the ranking
QUOTE_CANDIDATES = 2000  # chunks holding a quoted passage's words, checked for it verbatim
PINNED_REFERENTS = 2  # other sections a named provision refers to, placed after it
_WORDS = re.compile(r"[A-Za-z]+")


@dataclass(slots=True)
class SearchFilters:
    doc_ids: list[str] | None = None
    jurisdiction: str | None = None
    doc_type: str | None = None
    as_of: date | None = None  # search the law as in force on this date (history included)


@dataclass(slots=True)
class SearchResult:
    analysis: QueryAnalysis
    hits: list[Hit]
    family: list[Hit] = field(default_factory=list)
    best_cosine: float | None = None  # None when the dense retriever did not run
    timings_ms: dict[str, float] = field(default_factory=dict)
    as_of: date | None = None
    unfound: list[UnfoundReference] = field(default_factory=list)  # named, not in the index
    not_yet_law: list[NotYetLaw] = field(default_factory=list)  # named, not law on as_of


class Searcher:
    def __init__(self, store: Store, embedder: Embedder, settings: Settings) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self._documents: list[DocumentInfo] | None = None
        self._router: Router | None = None
        self._aliases: AliasTable | None = None
        self._titles: dict[str, str] | None = None
        self._law_names: LawNames | None = None
        self._reranker: Reranker | None = None
        self._relevance: Relevance | None = None
        self._law_from: dict[str, tuple[date, bool]] | None = None
        self.headings = SectionHeadings(store)

    @property
    def reranker(self) -> Reranker:
        """The second-stage ranker (search/rerank.py), loaded on first use."""
        if self._reranker is None:
            self._reranker = Reranker(self.store, self.embedder.model_id,
                                      load_default() if self.settings.rerank else None)
        return self._reranker

    @property
    def relevance(self) -> Relevance:
        """Scores graph neighbours against a question (search/neighbours.py)."""
        if self._relevance is None:
            self._relevance = Relevance(self.store, self.embedder.model_id)
        return self._relevance

    @property
    def documents(self) -> list[DocumentInfo]:
        if self._documents is None:
            self._documents = self.store.documents()
        return self._documents

    @property
    def aliases(self) -> AliasTable:
        """The documents' names, prepared once for matching questions against."""
        if self._aliases is None:
            self._aliases = AliasTable.of(self.documents)
        return self._aliases

    @property
    def titles(self) -> dict[str, str]:
        """Each document's title by its id, read once."""
        if self._titles is None:
            self._titles = {d.id: d.title for d in self.documents}
        return self._titles

    @property
    def law_names(self) -> LawNames:
        """The documents' names and sole title words, prepared once for the check of a
        question that names a law the corpus does not hold (``answer/evidence``)."""
        if self._law_names is None:
            self._law_names = LawNames.of(self.documents, self.aliases)
        return self._law_names

    def forget_documents(self) -> None:
        """Read the document list again on the next search (another process changed it)."""
        self._documents = None
        self._router = None
        self._aliases = None
        self._titles = None
        self._law_names = None
        self._relevance = None
        self._law_from = None
        self.headings = SectionHeadings(self.store)

    @property
    def router(self) -> Router:
        if self._router is None:
            self._router = Router(self.store, self.documents, self.embedder.model_id)
        return self._router

    def route(self, analysis: QueryAnalysis, allowed: set[str]) -> list[str]:
        """Name documents by their title initials; return the ones only implied."""
        if not self.settings.act_routing:
            return []
        elsewhere = [(o.start, o.end) for o in analysis.other_years]
        for doc_id in self.router.named_by_initials(analysis.query, elsewhere):
            if doc_id in allowed and doc_id not in analysis.named_docs:
                analysis.named_docs.append(doc_id)
        implied = [d for d in self.router.implied(analysis.terms, bool(analysis.named_docs),
                                                  title_phrases(analysis.query),
                                                  capitalised_names(analysis.query))
                   if d in allowed and d not in analysis.named_docs]
        if not implied and not analysis.named_docs and self.settings.defined_vocabulary:
            defining = defining_document(self.store, analysis.query, allowed)
            if defining is not None:
                implied = [defining]
        return implied

    def search(self, query: str, *, k: int | None = None, mode: Mode = "hybrid",
               filters: SearchFilters | None = None,
               prefer_docs: list[str] | None = None, rerank: bool = True,
               cover_sections: bool = False, graph: bool = True) -> SearchResult:
        """Ranked provisions for ``query``; ``prefer_docs`` are treated as implied by it;
        ``rerank=False`` keeps the fused order (the ranker is for single questions);
        ``cover_sections`` extends the ``k`` hits until they hold ``k`` sections;
        ``graph=False`` leaves out the citation-graph neighbours (what the words find)."""
        k = k or self.settings.top_k
        query = validate_query(query, self.settings.max_query_chars)
        if not self.documents:
            raise NotIngestedError("the index is empty; run `civicsetu ingest --bundled` "
                                   "or `civicsetu ingest PATH...` first")
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        allowed = self._allowed_docs(filters)
        as_of = filters.as_of if filters else None
        not_yet: list[NotYetLaw] = []
        if as_of is not None:
            allowed, not_yet = self._in_force(query, allowed, as_of)
        analysis = analyze(query, self.aliases,
                           allowed if len(allowed) < len(self.documents) else None)
        implied = self.route(analysis, allowed) if len(allowed) > 1 else []
        implied += [d for d in prefer_docs or [] if d in allowed and d not in implied
                    and d not in analysis.named_docs]
        analysis.implied_docs = implied
        timings["analyze"] = _ms(t0)

        # Embedding the question runs alone: onnxruntime already spreads one question over
        # both cores, and embedding it beside BM25 on another thread made both slower at
        # 91k chunks (embed 8.8 -> 13.0 ms, BM25 2.4 -> 7.0 ms; docs/BENCHMARKS.md).
        query_vector = None
        if mode in ("hybrid", "dense"):
            t = time.perf_counter()
            query_vector = self.embedder.embed_query(analysis.dense_text)
            timings["embed"] = _ms(t)
        lists, best_cosine = self._lists(analysis, mode, query_vector, allowed, as_of, timings)

        t = time.perf_counter()
        named_for_boost = analysis.named_docs if mode != "bm25" else []
        if mode == "bm25":
            analysis.implied_docs = []
        fetched: dict[int, ChunkRow] = {}
        hits = self._hits(self._fuse(lists), named_for_boost, analysis.implied_docs, fetched)
        if mode != "bm25" and len(allowed) > 1 and not analysis.implied_docs \
                and self.settings.act_routing:
            subject = self.router.confirmed(analysis.terms, [h.doc_id for h in hits],
                                            analysis.named_docs)
            if subject is not None:
                analysis.implied_docs = [subject]
                hits = self._hits(self._fuse(lists), named_for_boost, analysis.implied_docs,
                                  fetched)
        ranked_graph = self.settings.graph_relevance
        if graph and self.settings.graph_expansion and (
                wants_graph(analysis) or (ranked_graph and self.settings.graph_every_question)):
            seeds = self._pinned(analysis, allowed, hits, as_of)[0] + hits
            if ranked_graph:
                ranked = self._ranked_neighbours(analysis, query_vector, seeds[:SEEDS], allowed)
                neighbours = chunk_rowids(self.store, definitions(self.store, analysis, allowed),
                                          MAX_NEIGHBOURS)
                neighbours += [r for r in chunk_rowids(self.store, ranked, RANKED_NEIGHBOURS)
                               if r not in neighbours]
            else:
                neighbours = graph_list(self.store, analysis, seeds, allowed)
            if neighbours:
                # The seeds lead the graph list, so their neighbours rise next to them
                # without overtaking the provisions both retrievers put first.
                lead = [h.rowid for h in hits[:GRAPH_SEEDS_LEAD] if h.rowid is not None]
                graph_ranked = lead + [r for r in neighbours if r not in lead]
                weights = [1.0] * len(lists) + [GRAPH_WEIGHT]
                hits = self._hits(self._fuse([*lists, graph_ranked], weights), named_for_boost,
                                  analysis.implied_docs, fetched)
            timings["graph"] = _ms(t)
        if mode == "hybrid" and rerank:
            hits = self.reranker.rerank(analysis, lists, query_vector, hits)
        if self.settings.skip_spent_sections:
            hits = without_spent(hits, self.headings)
        if self.settings.party_headings:
            hits = others_after(analysis.query, hits, self.headings.of(hits[:40]))
        if self.settings.territorial_extent:
            hits = elsewhere_after(analysis.query, hits, self.titles)
        named = [d for d in analysis.named_docs if d in allowed]
        if named:
            # A named Act and one only implied ("RERA or the consumer commission") are
            # compared just as two named ones.
            named += analysis.implied_docs
        if len(named) >= 2:
            # A comparison: rank each named document on its own and interleave them, so
            # one Act's many near-matches cannot crowd the other out of the top ranks.
            per_doc = [self._hits(self._fuse(self._lists(analysis, mode, query_vector, {d},
                                                         as_of)[0]), [], None, fetched)
                       for d in named]
            hits = _interleave(per_doc, hits)
        if self.settings.quoted_definitions:
            hits = self._definitions_first(analysis, allowed, hits, fetched, as_of)
        pinned, unfound = self._pinned(analysis, allowed, hits, as_of)
        if pinned and self.settings.pinned_references:
            kinds = wanted_kinds(analysis.query, analysis.quotes, pinned, self.headings) \
                if self.settings.consequence_first else []
            linked = self._referents(pinned, allowed, hits, fetched, as_of, analysis,
                                     query_vector, kinds)
            pinned = consequence_first(kinds, pinned, linked, self.headings)
        hits = pinned + [h for h in hits if h.provision_id not in
                         {p.provision_id for p in pinned}]
        family = self._family(hits[:FAMILY_TOP], {h.chunk_id for h in hits}, as_of)
        timings["fuse"] = _ms(t)
        timings["search"] = _ms(t0)
        kept = cut_sections(hits, k) if cover_sections else hits[:max(k, 1)]
        return SearchResult(analysis, kept, family, best_cosine, timings, as_of, unfound,
                            not_yet)

    # --- stages -----------------------------------------------------------------------

    def _allowed_docs(self, filters: SearchFilters | None) -> set[str]:
        docs = self.documents
        if filters is None:
            return {d.id for d in docs}
        if filters.doc_ids:
            unknown = set(filters.doc_ids) - {d.id for d in docs}
            if unknown:
                raise NotFoundError(f"no document {sorted(unknown)[0]!r} in the index; "
                                    "`civicsetu documents` lists what is there")
            docs = [d for d in docs if d.id in filters.doc_ids]
        if filters.jurisdiction:
            docs = [d for d in docs if d.jurisdiction.lower() == filters.jurisdiction.lower()]
        if filters.doc_type:
            docs = [d for d in docs if d.doc_type == filters.doc_type]
        if not docs:
            raise InputError("no ingested document matches those filters; "
                             "`civicsetu documents` lists what is there")
        return {d.id for d in docs}

    @property
    def law_dates(self) -> dict[str, tuple[date, bool]]:
        """When each document became law, as far as it says (search/in_force.py), read once."""
        if self._law_from is None:
            found = {d.id: law_from(d.title, self.store.dates_of(d.id)) for d in self.documents}
            self._law_from = {doc_id: v for doc_id, v in found.items() if v is not None}
        return self._law_from

    def _in_force(self, query: str, allowed: set[str],
                  as_of: date) -> tuple[set[str], list[NotYetLaw]]:
        """``allowed`` without the documents not yet law on ``as_of`` (search/in_force.py),
        and those of them the question names."""
        dates = self.law_dates
        later = {d for d in allowed if d in dates and dates[d][0] > as_of}
        kept = allowed - later
        if not kept:
            first = min(later, key=lambda d: dates[d][0])
            raise InputError(f"no ingested document was law on {as_of.isoformat()}: the "
                             f"earliest, {self.titles.get(first, first)}, dates from "
                             f"{dates[first][0].isoformat()}; ask about a later date or "
                             "without --as-of")
        named = dict.fromkeys(d for d, _, _ in named_documents(query, self.aliases, later))
        return kept, [NotYetLaw(d, self.titles.get(d, d), *dates[d]) for d in named]

    def _lists(self, analysis: QueryAnalysis, mode: Mode, query_vector: Vectors | None,
               allowed: set[str], as_of: date | None = None,
               timings: dict[str, float] | None = None,
               ) -> tuple[list[list[int]], float | None]:
        """Ranked chunk rowids from BM25 (unless dense-only) and dense (given a vector)."""
        lists: list[list[int]] = []
        best_cosine: float | None = None
        if mode != "dense":
            t = time.perf_counter()
            lists.append(self._keyword(analysis, allowed, as_of))
            if timings is not None:
                timings["bm25"] = _ms(t)
        if query_vector is not None:
            t = time.perf_counter()
            dense, best_cosine = self._dense(query_vector, allowed, as_of)
            lists.append(dense)
            if timings is not None:
                timings["dense"] = _ms(t)
        return lists, best_cosine

    def _hits(self, fused: dict[int, float], named_docs: list[str],
              implied_docs: list[str] | None = None,
              fetched: dict[int, ChunkRow] | None = None) -> list[Hit]:
        """Fetch the fused chunks (those not already in ``fetched``, which keeps them for
        the next fusion of the same search); prefer named (then implied) documents; one
        hit per provision."""
        k = self.settings.rrf_k
        implied = implied_docs or []
        rows = {} if fetched is None else fetched
        missing = [r for r in fused if r not in rows]
        rows.update((row.rowid, row) for row in self.store.chunks(missing))
        scored = []
        for row in (rows[r] for r in fused if r in rows):
            bonus = NAMED_DOC_WEIGHT / (k + 1) if row.doc_id in named_docs else \
                IMPLIED_DOC_WEIGHT / (k + 1) if row.doc_id in implied else 0.0
            scored.append((row, fused[row.rowid] + bonus))
        return _collapse(scored)

    def _keyword(self, analysis: QueryAnalysis, allowed: set[str],
                 as_of: date | None) -> list[int]:
        terms = analysis.terms + [w for e in analysis.expansions for w in e.split()]
        query = fts_query(list(dict.fromkeys(terms)))
        if not query:
            return []
        scope = None if len(allowed) == len(self.documents) else sorted(allowed)
        return [rowid for rowid, _ in
                self.store.keyword_search(query, self.settings.candidates, scope, as_of)]

    def _dense(self, query_vector: Vectors, allowed: set[str],
               as_of: date | None) -> tuple[list[int], float]:
        scope = None if len(allowed) == len(self.documents) else sorted(allowed)
        ranked = self.store.dense_search(self.embedder.model_id, query_vector,
                                         self.settings.candidates, scope, as_of)
        best = ranked[0][1] if ranked else 0.0
        return [rowid for rowid, _ in ranked], best

    def _fuse(self, lists: list[list[int]],
              weights: list[float] | None = None) -> dict[int, float]:
        """Reciprocal-rank fusion of ranked rowid lists (each list weighted, default 1)."""
        k = self.settings.rrf_k
        fused: dict[int, float] = {}
        for i, ranked in enumerate(lists):
            weight = weights[i] if weights else 1.0
            for rank, rowid in enumerate(ranked, start=1):
                fused[rowid] = fused.get(rowid, 0.0) + weight / (k + rank)
        return fused

    def _pinned(self, analysis: QueryAnalysis, allowed: set[str], hits: list[Hit],
                as_of: date | None = None) -> tuple[list[Hit], list[UnfoundReference]]:
        """The provisions the question names, looked up, and the named ones the index does
        not hold (search/unfound.py): for those tied to an Act, its closest enclosing
        provision is pinned instead."""
        pinned: list[Hit] = []
        unfound: list[UnfoundReference] = []
        top_docs = list(dict.fromkeys(h.doc_id for h in hits))
        for ref in analysis.references:
            found: list[Provision] = []
            if ref.doc_id or analysis.named_docs:
                docs = [ref.doc_id] if ref.doc_id else analysis.named_docs
                for doc_id in docs:
                    provision = look_up(self._provision_or_none(allowed), doc_id, ref.path,
                                        as_of)
                    if provision is not None:
                        found = [provision]
                        break
                named = [d for d in docs if d in allowed]
                if not found and ref.tied and named:
                    nearest, missing = in_named_act(self._provision_or_none(allowed),
                                                    ref.text, ref.path, named, as_of)
                    found = [nearest] if nearest is not None else []
                    unfound.append(missing)
            else:
                # Several references naming no Act ("section 19(3) ... section 4") are
                # read in the Act the first of them was found in, when it has them.
                previous = [h.doc_id for h in pinned]
                found = self._bare_reference(analysis, ref.path, previous[:1] + top_docs,
                                             allowed, as_of, trusted=len(previous[:1]))
                if not found and len(allowed) <= BARE_REFERENCE_DOCS:
                    missing_anywhere = in_no_document(self._provision_or_none(allowed),
                                                      ref.text, ref.path, allowed, as_of)
                    unfound += [missing_anywhere] if missing_anywhere else []
            for provision in found[:1]:
                doc_id = provision.doc_id
                pinned.append(Hit(chunk_id="", doc_id=doc_id, provision_path=provision.path,
                                  text=provision.text, start=provision.start,
                                  end=provision.end, score=1.0, pinned=True,
                                  sources={"lookup": 1.0}))
        return list({h.provision_id: h for h in pinned}.values()), unfound

    def _provision_or_none(self, allowed: set[str]) -> Callable[[str, str, date | None],
                                                                 Provision | None]:
        """``_provision`` within ``allowed``, as search/unfound.py looks provisions up."""
        return lambda doc_id, path, as_of: self._provision(doc_id, path, allowed, as_of)

    def _definitions_first(self, analysis: QueryAnalysis, allowed: set[str], hits: list[Hit],
                           fetched: dict[int, ChunkRow], as_of: date | None) -> list[Hit]:
        """``hits`` led by the definitions of the question's quoted terms, else of the term it
        asks the meaning of (search/defined.py), looked up in its named and implied Acts,
        else in the Acts of its first hits."""
        docs = [d for d in analysis.named_docs + analysis.implied_docs if d in allowed] or \
            list(dict.fromkeys(h.doc_id for h in hits[:10]))
        ids = quoted_definitions(self.store, analysis.query, docs)
        if not ids and self.settings.asked_definitions:
            ids = asked_definitions(self.store, analysis.query, docs)
        if not ids:
            return hits
        lead: list[Hit] = []
        for full_id in ids:
            # The definition clause itself, not the whole chunk that holds it (a short
            # definitions section is one chunk).
            doc_id, path = split_provision_id(full_id)
            hit = self._provision_hit(doc_id, path, allowed, fetched, as_of,
                                      hits[0].score if hits else 1.0, "definition")
            if hit is not None:
                lead.append(hit)
        keys = {h.provision_id for h in lead}
        return lead + [h for h in hits if h.provision_id not in keys]

    def _referents(self, pinned: list[Hit], allowed: set[str], hits: list[Hit],
                   fetched: dict[int, ChunkRow], as_of: date | None,
                   analysis: QueryAnalysis, query_vector: Vectors | None,
                   kinds: list[Kind] | None = None) -> list[Hit]:
        """The other sections a named provision refers to ("except the power to make
        regulations under section 85"), at most ``PINNED_REFERENTS``: a question that names a
        provision asks about it as written, and its references are part of its rule. With
        ``graph_relevance`` also the sections citing it (the penalty for breaking it, the
        officer who adjudges it), the ones most like the question first. With ``kinds``
        (consequences the question asks for), the best linked section headed as one of
        them comes too, first (search/consequence.py)."""
        own = {(h.doc_id, section_of(h.provision_path)) for h in pinned}
        targets: list[str] = []
        if self.settings.graph_relevance:
            targets = self._ranked_neighbours(analysis, query_vector, pinned, allowed)
        else:
            for h in pinned:
                for edge in self.store.edges(h.provision_id, "out", ["REFERENCES"]):
                    doc_id, _, path = edge.dst.partition("#")
                    if path and (doc_id, section_of(path)) not in own \
                            and edge.dst not in targets:
                        targets.append(edge.dst)
        limit = PINNED_REFERENTS
        pick = consequence_target(kinds, targets, self.headings) if kinds else None
        if pick is not None:
            # Taken even beyond the first PINNED_REFERENTS sections, in front of them.
            limit += _section_id(pick) not in \
                list(dict.fromkeys(map(_section_id, targets)))[:PINNED_REFERENTS]
            # The whole section: its heading is what names the consequence, and the
            # sub-section the edge ends at may not be the one stating it (RTI s.20(2)
            # recommends discipline, s.20(1) sets the fine).
            targets = [_section_id(pick), *(t for t in targets if t != pick)]
        out: list[Hit] = []
        sections: set[str] = set()
        for full_id in targets:
            doc_id, path = split_provision_id(full_id)
            if f"{doc_id}#{section_of(path)}" in sections:
                continue
            hit = self._provision_hit(doc_id, path, allowed, fetched, as_of,
                                      hits[0].score if hits else 1.0, "reference")
            if hit is not None:
                sections.add(f"{doc_id}#{section_of(path)}")
                out.append(hit)
            if len(out) >= limit:
                break
        return out

    def _ranked_neighbours(self, analysis: QueryAnalysis, query_vector: Vectors | None,
                           seeds: list[Hit], allowed: set[str]) -> list[str]:
        """The seeds' citation-graph neighbours, best first for the question."""
        return ranked_neighbours(self.store, self.relevance, analysis, query_vector, seeds,
                                 allowed, self.headings)

    def _provision_hit(self, doc_id: str, path: str, allowed: set[str],
                       fetched: dict[int, ChunkRow], as_of: date | None, score: float,
                       source: str) -> Hit | None:
        """A hit for one provision (its own text) on the chunk that holds it."""
        rowid = self.store.chunk_covering(doc_id, path)
        row = None if rowid is None else \
            fetched.get(rowid) or next(iter(self.store.chunks([rowid])), None)
        provision = self._provision(doc_id, path, allowed, as_of)
        if row is None or provision is None:
            return None
        return Hit(chunk_id=row.id, doc_id=doc_id, provision_path=provision.path,
                   text=provision.text, start=provision.start, end=provision.end,
                   score=score, sources={source: 1.0}, rowid=row.rowid)

    def _provision(self, doc_id: str, path: str, allowed: set[str],
                   as_of: date | None) -> Provision | None:
        if doc_id not in allowed:
            return None
        try:
            return self.store.provision(f"{doc_id}#{path}", as_of)
        except NotFoundError:
            return None

    def _bare_reference(self, analysis: QueryAnalysis, path: str, top_docs: list[str],
                        allowed: set[str], as_of: date | None,
                        trusted: int = 0) -> list[Provision]:
        """The provision a reference naming no Act ("Section 18 says I get compensation")
        most likely means. The first document in the ranking that has ``path`` keeps it
        unless another of the first ``BARE_REFERENCE_DOCS`` has a provision there holding
        at least ``BARE_REFERENCE_MARGIN`` more of the question's words: in a library the
        top hit's Act often has a section 18 about something else entirely. The first
        ``trusted`` documents (an Act another reference of the question was found in)
        keep it outright."""
        if not trusted:
            for doc_id in self._quoting_docs(analysis.quotes, path, top_docs, allowed, as_of):
                provision = self._provision(doc_id, path, allowed, as_of)
                if provision is not None and all(normalized(q) in normalized(provision.text)
                                                 for q in analysis.quotes):
                    return [provision]
        words = {stem(t) for t in analysis.terms if not t.isdigit()}
        first: tuple[int, Provision] | None = None
        best: tuple[int, Provision] | None = None
        for rank, doc_id in enumerate(list(dict.fromkeys(top_docs))[:BARE_REFERENCE_DOCS]):
            provision = self._provision(doc_id, path, allowed, as_of)
            if provision is None:
                continue
            if rank < trusted:
                return [provision]
            held = {stem(w) for w in _WORDS.findall(f"{provision.title} {provision.text}")}
            overlap = len(words & held)
            if first is None:
                first = (overlap, provision)
            if best is None or overlap > best[0]:
                best = (overlap, provision)
        if first is None or best is None:
            return []
        return [best[1] if best[0] >= first[0] + BARE_REFERENCE_MARGIN else first[1]]

    def _quoting_docs(self, quotes: list[str], path: str, top_docs: list[str],
                      allowed: set[str], as_of: date | None) -> list[str]:
        """Documents whose section of ``path`` holds every passage the question quotes,
        those in ``top_docs`` first, in its order: "Section 18 says 'in the manner as
        provided under this Act'" is read in the Act whose section 18 says that, wherever
        the ranking put it."""
        if not quotes:
            return []
        section = section_of(path)
        holders: set[str] | None = None
        for quote in quotes:
            rowids = [r for r, _ in self.store.keyword_search(fts_query([quote]),
                                                              QUOTE_CANDIDATES, None, as_of)]
            wanted = normalized(quote)
            found = {row.doc_id for row in self.store.chunks(rowids)
                     if row.section == section and row.doc_id in allowed
                     and wanted in normalized(row.text)}
            holders = found if holders is None else holders & found
        if not holders:
            return []
        ranked = [d for d in dict.fromkeys(top_docs) if d in holders]
        return ranked + sorted(holders - set(ranked))

    def _family(self, top: list[Hit], seen: set[str], as_of: date | None) -> list[Hit]:
        family: list[Hit] = []
        for hit in top:
            for row in self.store.chunks_of_section(hit.doc_id, section_of(hit.provision_path),
                                                    as_of):
                if row.id in seen:
                    continue
                seen.add(row.id)
                family.append(_hit(row, hit.score * 0.5, {"family": 1.0}))
        return family


def validate_query(query: str, max_chars: int) -> str:
    from civicsetu.guard.encoding import check_decodable

    query = " ".join(check_decodable(query).split())
    if not query:
        raise InputError("the question is empty; ask something, e.g. "
                         "\"What is the penalty for not registering a real estate project?\"")
    if len(query) > max_chars:
        raise InputError(f"the question is {len(query)} characters; the limit is {max_chars}. "
                         "Shorten it to the question itself")
    return query


def _hit(row: ChunkRow, score: float, sources: dict[str, float]) -> Hit:
    return Hit(chunk_id=row.id, doc_id=row.doc_id, provision_path=row.provision_path,
               text=row.text, start=row.start, end=row.end, score=score, sources=sources,
               rowid=row.rowid)


def _interleave(per_doc: list[list[Hit]], rest: list[Hit]) -> list[Hit]:
    """Round-robin over the per-document rankings, then everything else, no repeats."""
    out: dict[str, Hit] = {}
    for rank in range(max((len(h) for h in per_doc), default=0)):
        for hits in per_doc:
            if rank < len(hits):
                out.setdefault(hits[rank].provision_id, hits[rank])
    for h in rest:
        out.setdefault(h.provision_id, h)
    ordered = list(out.values())
    # Scores must stay monotone for callers that read them as a ranking.
    top = max((h.score for h in ordered), default=0.0)
    for i, h in enumerate(ordered):
        h.score = top / (1 + i * 0.01) if i else top
    return ordered


def cut_sections(hits: list[Hit], k: int) -> list[Hit]:
    """The first ``k`` hits, then the first hit of each later section until ``k`` sections
    are covered: a section's sub-sections can fill the first ``k`` provisions, and the
    sections they push out are what a reader (and section recall) looks at next."""
    k = max(k, 1)
    out = hits[:k]
    sections = {f"{h.doc_id}#{section_of(h.provision_path)}" for h in out}
    for h in hits[k:]:
        if len(sections) >= k:
            break
        key = f"{h.doc_id}#{section_of(h.provision_path)}"
        if key not in sections:
            sections.add(key)
            out.append(h)
    return out


def _collapse(scored: list[tuple[ChunkRow, float]]) -> list[Hit]:
    """One hit per provision, keeping its best-scoring chunk, in score order."""
    best: dict[str, Hit] = {}
    for row, score in scored:
        key = f"{row.doc_id}#{row.provision_path}"
        if key not in best or score > best[key].score:
            best[key] = _hit(row, score, {"rrf": score})
    return sorted(best.values(), key=lambda h: -h.score)


def _section_id(full_id: str) -> str:
    doc_id, path = split_provision_id(full_id)
    return f"{doc_id}#{section_of(path)}"


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
