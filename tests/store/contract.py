"""The ``Store`` contract, written once: every backend's test module subclasses
``StoreContract`` and provides an empty ``store`` fixture (and the exception types its
driver raises on a constraint violation).

Documents go in the way ingestion writes them: real files through the real loader and
parser. Vectors are test data, not a model: each chunk gets a fixed random unit vector
derived from its text hash, so a query with chunk X's vector must find X first, and the
order of every other chunk is fully determined (exact search gives one answer).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt
import pytest

from civicsetu.config import Settings
from civicsetu.corpus import bundled_acts
from civicsetu.errors import NotFoundError
from civicsetu.ingest.loader import load_source
from civicsetu.ingest.pipeline import parse_document
from civicsetu.ingest.version import PARSER_VERSION
from civicsetu.store.base import Provenance, Store
from civicsetu.types import DocType, ParsedDocument
from tests.store.test_graph import ACT as HOUSING

MODEL = "contract-test-vectors"
DIM = 384


RULES = """MODEL HOUSING RULES, 2031
1. Short title.—These rules may be called the Model Housing Rules, 2031.
2. Application for registration.—(1) An application under sub-section (1) of section 2
of the Act shall be made in Form A.
(2) The fee for the application under rule 2 is one thousand rupees.
"""

# BM25 fixtures: "escrow" is rare and dense in s.1, rare and diluted in s.2; "the" is
# everywhere. s.3's title carries "escrow" (title hits weigh twice).
ESCROW = """# The Model Escrow Act, 2030.

## Section 1 - Accounts.

Escrow money stays in the escrow account; escrow is released on completion.

## Section 2 - Records.

The promoter shall keep books of account, vouchers, receipts, ledgers, registers of the
allottees, copies of the agreements for sale, plans, approvals and the statements of the
auditor for every project for a period of eight years, and shall produce the same to the
Authority when asked; the escrow statement is one of them.

## Section 3 - Escrow audit.

The auditor shall certify the withdrawals each year.
"""

DEPOSIT_V1 = """# The Model Deposit Act, 2030.

## Section 1 - Short title.

This Act may be called the Model Deposit Act, 2030.

## Section 2 - Security deposit.

The security deposit for a residential premises shall not exceed two months' rent.

## Section 3 - Refund of deposit.

The landlord shall refund the security deposit within one month of the tenant vacating.

## Section 4 - Interest on deposit.

A deposit held beyond the refund date carries interest at six per cent.
"""

DEPOSIT_V2 = DEPOSIT_V1.replace(
    "within one month of the tenant vacating", "within fifteen days of the tenant vacating"
).replace("""## Section 4 - Interest on deposit.

A deposit held beyond the refund date carries interest at six per cent.
""", """## Section 5 - Deposit register.

Every landlord shall keep a register of deposits received.
""")

H, R, E, D = ("model-housing-act-2030", "model-housing-rules-2031", "model-escrow-act-2030",
              "model-deposit-act-2030")
OLD, NEW = date(2030, 6, 1), date(2032, 1, 1)


def vector_for(text_hash: str) -> npt.NDArray[np.float32]:
    """A fixed random unit vector for one chunk text (test data, no model)."""
    seed = int.from_bytes(hashlib.sha256(text_hash.encode()).digest()[:8], "little")
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return (v / np.linalg.norm(v)).astype(np.float32)


def parse(path: Path, **kwargs: object) -> ParsedDocument:
    document, _ = load_source(path, **kwargs)  # type: ignore[arg-type]
    return parse_document(document, Settings())


def put(store: Store, parsed: ParsedDocument) -> None:
    """Write a parsed document the way ingestion does: only vectors not yet stored."""
    hashes = [c.text_hash for c in parsed.chunks]
    cached = store.cached_vectors(MODEL, hashes)
    store.replace_document(parsed, MODEL, {h: vector_for(h) for h in hashes
                                           if h not in cached})


def write(tmp: Path, name: str, text: str) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


class StoreContract:
    """What every ``Store`` must do. Subclasses provide ``store`` and ``integrity_errors``."""

    integrity_errors: ClassVar[tuple[type[BaseException], ...]] = ()

    @pytest.fixture()
    def store(self) -> Iterator[Store]:
        raise NotImplementedError("a backend's test module provides an empty store")

    @pytest.fixture()
    def housing(self, store: Store, tmp_path: Path) -> Store:
        put(store, parse(write(tmp_path, f"{H}.md", HOUSING)))
        put(store, parse(write(tmp_path, f"{R}.txt", RULES), doc_type=DocType.RULES,
                         parent_id=H, title="Model Housing Rules, 2031"))
        put(store, parse(write(tmp_path, f"{E}.md", ESCROW)))
        store.resolve_references()
        return store

    @pytest.fixture()
    def versions(self, store: Store, tmp_path: Path) -> Store:
        path = write(tmp_path, f"{D}.md", DEPOSIT_V1)
        put(store, parse(path, effective_date=date(2030, 1, 1)))
        path.write_text(DEPOSIT_V2, encoding="utf-8")
        put(store, parse(path, effective_date=date(2031, 6, 1)))
        return store

    # --- documents and provisions ------------------------------------------------------

    def test_documents_list_with_counts_and_hashes(self, housing: Store,
                                                   tmp_path: Path) -> None:
        parsed = parse(write(tmp_path / "again", f"{H}.md", HOUSING))
        infos = {d.id: d for d in housing.documents()}
        assert sorted(infos) == sorted([H, R, E])
        info = infos[H]
        assert (info.title, info.doc_type, info.jurisdiction) == (
            "Model Housing Act, 2030", "act", "IN")
        assert info.provisions == len(parsed.provisions)
        assert info.chunks == len(parsed.chunks)
        assert info.content_hash == parsed.document.content_hash
        assert housing.document_hash(H) == parsed.document.content_hash
        assert housing.document_hash("no-such-act") is None
        assert infos[R].doc_type == "rules"

    def test_parser_version_is_stored_with_each_write(self, store: Store,
                                                      tmp_path: Path) -> None:
        parsed = parse(write(tmp_path, f"{E}.md", ESCROW))
        assert parsed.parser_version == PARSER_VERSION
        assert store.parser_version(E) is None
        put(store, replace(parsed, parser_version=0))  # as an older parser wrote it
        assert store.parser_version(E) == 0
        put(store, parsed)
        assert store.parser_version(E) == PARSER_VERSION
        assert store.document_hash(E) == parsed.document.content_hash

    def test_document_round_trips(self, housing: Store, tmp_path: Path) -> None:
        parsed = parse(write(tmp_path / "again", f"{R}.txt", RULES), doc_type=DocType.RULES,
                       parent_id=H, title="Model Housing Rules, 2031")
        stored = housing.document(R)
        assert stored == replace(parsed.document, source=stored.source)
        assert stored.source.endswith(f"{R}.txt")
        with pytest.raises(NotFoundError, match="civicsetu documents"):
            housing.document("no-such-act")

    def test_provisions_and_sections(self, housing: Store) -> None:
        p = housing.provision(f"{H}#s.2(1)")
        assert p.text.startswith("(1) No promoter shall sell a flat")
        assert (p.doc_id, p.section, p.parent_path) == (H, "s.2", "s.2")
        parts = housing.provisions_of_section(H, "s.2")
        assert [q.path for q in parts] == ["s.2", "s.2(1)", "s.2(2)"]
        assert [q.ordinal for q in parts] == sorted(q.ordinal for q in parts)
        assert housing.provisions_of_section(H, "s.99") == []
        with pytest.raises(NotFoundError, match=r"try the whole section"):
            housing.provision(f"{H}#s.2(9)")
        with pytest.raises(NotFoundError, match="no document"):
            housing.provision("no-such-act#s.1")

    def test_reingest_is_idempotent(self, housing: Store, tmp_path: Path) -> None:
        before = (housing.documents(), housing.chunk_count(), housing.graph_stats())
        put(housing, parse(write(tmp_path, f"{H}.md", HOUSING)))
        housing.resolve_references()
        assert (housing.documents(), housing.chunk_count(), housing.graph_stats()) == before

    # --- chunks and vectors ------------------------------------------------------------

    def test_chunks_by_rowid_section_and_coverage(self, housing: Store) -> None:
        rows = housing.chunks_of_section(H, "s.3")
        assert rows and all(r.doc_id == H and r.section == "s.3" for r in rows)
        assert "penalty of ten per cent" in " ".join(r.text for r in rows)
        rowids = [r.rowid for r in rows]
        assert housing.chunks([*reversed(rowids), 10**12]) == list(reversed(rows))
        assert housing.chunks([]) == []
        covering = housing.chunk_covering(H, "s.3")
        assert covering == rows[0].rowid
        assert housing.chunk_covering(H, "s.99") is None
        total = sum(d.chunks for d in housing.documents())
        assert housing.chunk_count() == total

    def test_cached_vectors_are_exact_and_content_addressed(self, housing: Store,
                                                            tmp_path: Path) -> None:
        parsed = parse(write(tmp_path / "again", f"{E}.md", ESCROW))
        hashes = [c.text_hash for c in parsed.chunks]
        found = housing.cached_vectors(MODEL, [*hashes, "0" * 64])
        assert sorted(found) == sorted(set(hashes))
        for h in hashes:
            assert found[h].dtype == np.float32
            assert found[h].tobytes() == vector_for(h).tobytes()
        assert housing.cached_vectors("another-model", hashes) == {}

    def test_vector_index_matches_the_chunks(self, housing: Store) -> None:
        index = housing.vector_index(MODEL)
        assert index.matrix.shape == (housing.chunk_count(), DIM)
        rows = {r.rowid: r for r in housing.chunks([int(i) for i in index.rowids])}
        for i, rowid in enumerate(index.rowids[:5]):
            row = rows[int(rowid)]
            assert index.doc_ids[i] == row.doc_id
        assert bool(index.in_force(None).all())

    def test_dense_search_finds_the_query_chunk_first(self, housing: Store,
                                                      tmp_path: Path) -> None:
        target = housing.chunks_of_section(E, "s.2")[0]
        parsed = parse(write(tmp_path / "again", f"{E}.md", ESCROW))
        h = next(c.text_hash for c in parsed.chunks if c.id == target.id)
        hits = housing.dense_search(MODEL, vector_for(h), 5)
        assert len(hits) == 5
        assert hits[0][0] == target.rowid and hits[0][1] == pytest.approx(1.0, abs=1e-5)
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        exact = self._exact(housing, vector_for(h))
        assert [r for r, _ in hits] == exact[:5]
        assert housing.dense_search("another-model", vector_for(h), 5) == []

    def test_filtered_dense_search_still_returns_k_rows(self, housing: Store) -> None:
        query = vector_for("a query no chunk is near")
        only = housing.chunks_of_section(R, "r.1") + housing.chunks_of_section(R, "r.2")
        k = len(only)
        hits = housing.dense_search(MODEL, query, k, doc_ids=[R])
        assert sorted(r for r, _ in hits) == sorted(r.rowid for r in only)
        assert [r for r, _ in hits] == [r for r in self._exact(housing, query)
                                        if r in {c.rowid for c in only}]
        assert housing.dense_search(MODEL, query, 3, doc_ids=[]) == []
        many = housing.dense_search(MODEL, query, 1000)
        assert len(many) == housing.chunk_count()

    # --- keyword search ------------------------------------------------------------------

    def test_keyword_search_ranks_like_bm25(self, housing: Store) -> None:
        hits = housing.keyword_search('"escrow"', 10)
        sections = [housing.chunks([r])[0].section for r, _ in hits]
        # Dense, short s.1 first; s.3 has it in the title (weighted); long s.2 last.
        assert sections == ["s.1", "s.3", "s.2"]
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        assert all(s > 0 for _, s in hits)
        # A rare word outranks a word in every chunk.
        either = housing.keyword_search('"the" OR "withdrawals"', 3)
        assert housing.chunks([either[0][0]])[0].text.count("withdrawals") == 1
        assert len(housing.keyword_search('"the" OR "withdrawals"', 2)) == 2

    def test_keyword_search_stems_and_filters_by_document(self, housing: Store) -> None:
        stemmed = housing.keyword_search('"applications"', 10)  # "application" in both
        assert {housing.chunks([r])[0].doc_id for r, _ in stemmed} == {H, R}
        scoped = housing.keyword_search('"applications"', 10, doc_ids=[R])
        assert scoped and {housing.chunks([r])[0].doc_id for r, _ in scoped} == {R}
        assert housing.keyword_search('"zzyzx"', 10) == []

    def test_term_document_frequency(self, housing: Store) -> None:
        rows = [r for d in (H, R, E) for s in ("s.1", "s.2", "s.3", "s.4", "r.1", "r.2")
                for r in housing.chunks_of_section(d, s)]
        assert len(rows) == housing.chunk_count()
        df = housing.term_document_frequency(["escrow", "zzyzx"])
        assert df == {"escrow": 3, "zzyzx": 0}

    # --- versions ------------------------------------------------------------------------

    def test_versions_history_and_as_of(self, versions: Store) -> None:
        assert versions.provision(f"{D}#s.2").valid_from == date(2030, 1, 1)
        now = versions.provision(f"{D}#s.3")
        assert now.valid_from == date(2031, 6, 1) and "fifteen days" in now.text
        old = versions.provision(f"{D}#s.3", OLD)
        assert old.valid_to == date(2031, 6, 1) and "one month" in old.text
        assert ["one month" in v.text for v in versions.history(f"{D}#s.3")] == [True, False]
        with pytest.raises(NotFoundError):
            versions.provision(f"{D}#s.4")
        assert "six per cent" in versions.provision(f"{D}#s.4", OLD).text
        with pytest.raises(NotFoundError, match="in force on 2030-06-01"):
            versions.provision(f"{D}#s.5", OLD)
        assert [p.path for p in versions.provisions_of_section(D, "s.4", OLD)] == ["s.4"]
        assert versions.provisions_of_section(D, "s.4") == []

    def test_search_as_of_a_date(self, versions: Store) -> None:
        def texts(hits: list[tuple[int, float]]) -> str:
            return " ".join(r.text for r in versions.chunks([r for r, _ in hits]))

        assert "one month" not in texts(versions.keyword_search('"refund"', 10))
        assert "one month" in texts(versions.keyword_search('"refund"', 10, as_of=OLD))
        assert "register" not in texts(versions.keyword_search('"register"', 10, as_of=OLD))
        old_rows = versions.chunks_of_section(D, "s.3", OLD)
        assert "one month" in old_rows[0].text
        query = vector_for("any query")
        now_ids = {r for r, _ in versions.dense_search(MODEL, query, 50)}
        old_ids = {r for r, _ in versions.dense_search(MODEL, query, 50, as_of=OLD)}
        assert old_rows[0].rowid in old_ids and old_rows[0].rowid not in now_ids
        assert len(now_ids) == versions.chunk_count()
        index = versions.vector_index(MODEL)
        assert int(index.in_force(None).sum()) == versions.chunk_count()
        old = int(np.flatnonzero(index.rowids == old_rows[0].rowid)[0])
        assert index.valid_to[old] != "" and date.fromisoformat(str(index.valid_to[old])) > OLD
        assert bool(index.in_force(OLD)[old]) and not bool(index.in_force(None)[old])

    # --- graph ---------------------------------------------------------------------------

    def test_edges_in_and_out(self, housing: Store) -> None:
        out = {(e.type, e.dst) for e in housing.edges(f"{R}#r.2(1)", "out")}
        assert ("REFERENCES", f"{H}#s.2(1)") in out
        refs = housing.edges(f"{R}#r.2(1)", "out", ["REFERENCES"])
        assert refs and all(e.type == "REFERENCES" and e.text for e in refs)
        derived = {(e.type, e.dst) for e in housing.edges(f"{R}#r.2", "out")}
        assert ("DERIVED_FROM", f"{H}#s.2") in derived
        assert ("DERIVED_FROM", H) in {(e.type, e.dst) for e in housing.edges(R, "out")}
        incoming = {(e.type, e.src) for e in housing.edges(f"{H}#s.2", "in")}
        assert {("REFERENCES", f"{H}#s.3"), ("DERIVED_FROM", f"{R}#r.2")} <= incoming
        assert ("HAS_PART", f"{H}#s.2(1)") in {(e.type, e.dst)
                                                for e in housing.edges(f"{H}#s.2")}

    def test_each_write_links_up_without_a_whole_resolution_pass(self, store: Store,
                                                                  tmp_path: Path) -> None:
        """The rules arrive before the Act they are made under: writing the Act alone links
        them up, as resolving every reference again would (and does not change it)."""
        put(store, parse(write(tmp_path, f"{R}.txt", RULES), doc_type=DocType.RULES,
                         parent_id=H, title="Model Housing Rules, 2031"))
        assert store.edges(f"{R}#r.2(1)", "out", ["REFERENCES"]) == []
        put(store, parse(write(tmp_path, f"{E}.md", ESCROW)))
        put(store, parse(write(tmp_path, f"{H}.md", HOUSING)))
        nodes = [f"{R}#r.2", f"{R}#r.2(1)", f"{H}#s.2", f"{H}#s.3", f"{H}#s.4", R, H]

        def graph() -> tuple[object, ...]:
            return (store.graph_stats(),
                    *[sorted(store.edges(n, d), key=lambda e: (e.src, e.dst, e.type, e.text))
                      for n in nodes for d in ("out", "in")],
                    *[store.unresolved_references(n) for n in nodes])

        written = graph()
        assert ("REFERENCES", f"{H}#s.2(1)") in {
            (e.type, e.dst) for e in store.edges(f"{R}#r.2(1)", "out")}
        assert ("DERIVED_FROM", f"{H}#s.2") in {
            (e.type, e.dst) for e in store.edges(f"{R}#r.2", "out")}
        store.resolve_references()
        assert graph() == written

    def test_neighbourhood_definitions_unresolved_and_stats(self, housing: Store) -> None:
        stats = housing.graph_stats()
        assert stats.documents == 3 and stats.edges["DEFINES"] == 2
        assert stats.edges["REFERENCES"] >= 3
        assert stats.references_unresolved == 1  # the Model Registration Act is not here
        assert stats.provisions == sum(d.provisions for d in housing.documents())
        unresolved = housing.unresolved_references(f"{H}#s.4")
        assert [u.dst for u in unresolved] == ["Model Registration Act, 2031"]
        hops = housing.neighbourhood([f"{H}#s.3"], 2, ["REFERENCES"])
        assert hops[f"{H}#s.2"] == 1 and f"{H}#s.3" not in hops
        two = housing.neighbourhood([f"{H}#s.3"], 2, ["REFERENCES", "DERIVED_FROM"])
        assert two[f"{R}#r.2"] == 2
        assert housing.neighbourhood([], 2, ["REFERENCES"]) == {}
        assert housing.definitions_for(["allottee"]) == [("allottee", f"{H}#s.1(a)")]
        assert housing.definitions_for(["allottee"], [R]) == []
        assert housing.definitions_for([]) == []

    def test_amendments_and_dates_of_a_real_act(self, store: Store) -> None:
        act = next(a for a in bundled_acts() if a.id == "the-specific-relief-act-1963")
        parsed = parse(act.path, doc_id=act.id)
        put(store, parsed)
        ids = sorted({a.provision_id for a in parsed.amendments})
        assert ids
        assert sorted(store.amendments_of(ids), key=repr) == sorted(parsed.amendments, key=repr)
        assert store.amendments_of([]) == []
        dates = store.dates_of(act.id)
        assert sorted(dates, key=repr) == sorted(parsed.dates, key=repr)
        assert [e.on for e in dates] == sorted(e.on for e in dates)

    # --- deletion, memory, transactions --------------------------------------------------

    def test_delete_document_removes_everything_it_owns(self, housing: Store) -> None:
        rowids = [r.rowid for r in housing.chunks_of_section(E, "s.1")]
        assert housing.delete_document(E) is True
        assert housing.delete_document(E) is False
        assert E not in {d.id for d in housing.documents()}
        assert housing.chunks(rowids) == []
        assert housing.keyword_search('"escrow"', 10) == []
        assert not set(rowids) & {r for r, _ in housing.dense_search(MODEL, vector_for("q"),
                                                                     100)}
        assert housing.edges(f"{E}#s.1", "out") == []
        assert housing.document_hash(H) is not None

    def test_delete_unresolves_references_into_the_document(self, housing: Store,
                                                            tmp_path: Path) -> None:
        parsed = parse(write(tmp_path / "again", f"{H}.md", HOUSING))
        assert ("REFERENCES", f"{H}#s.2(1)") in {
            (e.type, e.dst) for e in housing.edges(f"{R}#r.2(1)", "out")}
        assert housing.delete_document(H)
        assert housing.edges(f"{R}#r.2(1)", "out", ["REFERENCES"]) == []
        assert housing.edges(R, "out", ["DERIVED_FROM"]) == []
        assert {u.src for u in housing.unresolved_references(f"{R}#r.2")} >= {f"{R}#r.2(1)"}
        hashes = [c.text_hash for c in parsed.chunks]
        assert housing.cached_vectors(MODEL, hashes) == {}  # no chunk uses them any more
        put(housing, parsed)
        housing.resolve_references()
        assert ("REFERENCES", f"{H}#s.2(1)") in {
            (e.type, e.dst) for e in housing.edges(f"{R}#r.2(1)", "out")}

    def test_provenance_round_trips(self, housing: Store) -> None:
        assert housing.provenance([H])[H].origin == ""
        mark = Provenance("user", "/x/housing.md", "2026-11-23T10:00:00", "")
        housing.set_provenance(H, mark)
        assert housing.provenance([H, "no-such-act"]) == {H: mark}
        assert set(housing.provenance()) == {H, R, E}
        housing.set_provenance("no-such-act", mark)  # nothing to record, no error
        assert "no-such-act" not in housing.provenance()

    def test_qa_memory_is_per_corpus(self, store: Store) -> None:
        v1, v2 = vector_for("one"), vector_for("two")
        store.remember_qa("corpus-a", "q1", v1, "answer 1")
        store.remember_qa("corpus-a", "q2", v2, "answer 2")
        store.remember_qa("corpus-a", "q2", v2, "answer 2 again")
        got = sorted(store.qa_memory("corpus-a"), key=lambda m: m[1])
        assert [p for _, p in got] == ["answer 1", "answer 2 again"]
        assert got[0][0].tobytes() == v1.tobytes()
        store.remember_qa("corpus-b", "q1", v1, "new corpus")
        assert store.qa_memory("corpus-a") == []
        assert [p for _, p in store.qa_memory("corpus-b")] == ["new corpus"]

    def test_a_failed_write_leaves_the_previous_version_untouched(
            self, housing: Store, tmp_path: Path) -> None:
        before = (housing.documents(), housing.chunks_of_section(H, "s.3"),
                  housing.graph_stats())
        parsed = parse(write(tmp_path, f"{H}.md", HOUSING.replace("ten per cent",
                                                                  "twenty per cent")))
        broken = replace(parsed, chunks=(*parsed.chunks, parsed.chunks[0]))  # duplicate id
        with pytest.raises(self.integrity_errors):
            put(housing, broken)
        after = (housing.documents(), housing.chunks_of_section(H, "s.3"),
                 housing.graph_stats())
        assert after == before
        put(housing, parsed)
        assert "twenty per cent" in housing.provision(f"{H}#s.3").text

    # --- browsing, metadata, snapshots -------------------------------------------------

    def test_neighbours_nodes_and_topology(self, housing: Store) -> None:
        n = housing.provision_neighbours(f"{H}#s.2(1)")
        assert (n.parent, n.previous, n.next) == (f"{H}#s.2", None, f"{H}#s.2(2)")
        assert housing.provision_neighbours(f"{H}#s.2").children == (f"{H}#s.2(1)",
                                                                     f"{H}#s.2(2)")
        assert housing.provision_neighbours(f"{H}#s.3").previous == f"{H}#s.2"
        assert housing.provision_neighbours("no-such-act#s.1").parent is None
        nodes = housing.graph_nodes([f"{H}#s.3", H, "no-such-act"])
        assert [(g.id, g.doc_id, g.path) for g in nodes] == [(f"{H}#s.3", H, "s.3"),
                                                             (H, H, "")]
        topo = housing.topology([H], ["REFERENCES"], 100)
        assert ("REFERENCES", f"{H}#s.3", f"{H}#s.2") in {(e.type, e.src, e.dst)
                                                           for e in topo.edges}
        assert not topo.truncated
        small = housing.topology(None, None, 2)
        assert small.truncated and len(small.nodes) <= 2

    def test_document_metadata_is_replaced_whole(self, housing: Store) -> None:
        assert housing.document_metadata(H) == {}
        housing.set_document_metadata(H, {"parties": "A; B", "term": "2 years"})
        housing.set_document_metadata(H, {"parties": "A; C"})
        assert housing.document_metadata(H) == {"parties": "A; C"}
        housing.delete_document(H)
        assert housing.document_metadata(H) == {}

    def test_snapshots_nest_and_doctor_reports(self, housing: Store) -> None:
        with housing.read_snapshot(), housing.read_snapshot():
            docs = housing.documents()
            assert housing.chunks_of_section(H, "s.3")
        assert housing.documents() == docs
        assert isinstance(housing.data_version(), int)
        findings = housing.doctor()
        assert findings and all(f.remaining >= 0 and f.check for f in findings)

    # --- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _exact(store: Store, query: npt.NDArray[np.float32]) -> list[int]:
        """Every current chunk by exact inner product (ties by rowid)."""
        index = store.vector_index(MODEL)
        keep = index.in_force(None)
        scores = index.matrix @ query
        order = sorted((i for i in range(len(scores)) if keep[i]),
                       key=lambda i: (-float(scores[i]), int(index.rowids[i])))
        return [int(index.rowids[i]) for i in order]

