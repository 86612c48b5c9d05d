"""Second-stage ranking: a learned linear scorer over the fused top candidates.

The first stage (``hybrid.Searcher``) fuses BM25 and dense rankings by reciprocal rank,
which sees only ranks. This stage looks at each of the top ``TOP_N`` provisions again
with what the fusion threw away: the dense cosine itself, how much of the question's
vocabulary (idf-weighted) the provision's text and its section heading (the marginal
note) carry, whether its Act is the one the question names or implies, how deep the
provision sits, how many other candidates share its section, and whether the
provision's kind (a definition, a penalty, an appeal, a time limit, a rule-making power)
is what the question asks for. A linear model scores these features; the candidates are
re-ordered by that score, and the old score values are handed out again in the new
order, so downstream thresholds read the same scale.

The weights are not hand-set: ``tools/train_ranker.py`` fits them (a listwise softmax
loss) on questions generated from the corpus itself (section headings and definitions
rephrased by templates, sampled sentences of provisions), with the source provision's
section as the answer, on an index of Acts that are not in the bundle. No evaluation
question is used. They ship as ``ranker.json`` beside this module, so the stage needs
nothing beyond numpy. It is off by default (``Settings.rerank``): it wins on held-out
corpus questions but lost on the dev set's key facts and on the peer set
(docs/EVALUATION.md).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from civicsetu.errors import NotFoundError
from civicsetu.search.chunk_stats import ChunkStats
from civicsetu.search.headings import SectionHeadings
from civicsetu.search.query import QueryAnalysis
from civicsetu.search.routing import stem
from civicsetu.store.base import Store
from civicsetu.types import EdgeType, Hit, section_of

TOP_N = 30  # candidates re-scored; the rest keep their fused order below them
MODEL_PATH = Path(__file__).with_name("ranker.json")
_WORD = re.compile(r"[A-Za-z]+")
_DEF_CUE = re.compile(r"\b(?:what\s+(?:is|are|does)|meaning|means?|defin\w*|who\s+(?:is|are)|"
                      r"counts?\s+as|includes?|qualif\w*)\b", re.IGNORECASE)
_PENALTY_CUE = re.compile(r"\b(?:penalt\w*|punish\w*|fine[sd]?|imprison\w*|jail|offences?|"
                          r"prosecut\w*|liable)\b", re.IGNORECASE)
_APPEAL_CUE = re.compile(r"\b(?:appeal\w*|challenge|revision|review)\b", re.IGNORECASE)
_TIME_CUE = re.compile(r"\b(?:how\s+(?:long|fast|soon|many\s+days)|within|deadline|period|"
                       r"days?|months?|years?|when|time\s+limit|late|delay\w*)\b",
                       re.IGNORECASE)
_RULES_CUE = re.compile(r"\b(?:rules?|regulations?|prescribe\w*|notif\w*)\b", re.IGNORECASE)
_DEF_HEAD = re.compile(r"\bdefinition|interpretation", re.IGNORECASE)
_PENALTY_HEAD = re.compile(r"\b(?:penalt|punish|offence|fine)", re.IGNORECASE)
_APPEAL_HEAD = re.compile(r"\bappeal", re.IGNORECASE)
_RULES_HEAD = re.compile(r"\bpower\w*\s+(?:of\s+\w+\s+)?to\s+make\s+(?:rules|regulations)|"
                         r"\bpower\s+to\s+remove\s+difficult|\brepeal|\bsavings?\b|"
                         r"\bshort\s+title", re.IGNORECASE)
_PERIOD_TEXT = re.compile(r"\b(?:within|period\s+of|not\s+later\s+than|days|months|years)\b",
                          re.IGNORECASE)

FEATURES: tuple[str, ...] = (
    "fused_score", "fused_rr", "bm25_rr", "dense_rr", "in_both", "cosine", "cosine_gap",
    "head_cover", "body_cover", "expansion_cover", "named_doc", "implied_doc",
    "doc_share", "depth", "definition_asked", "definition_unasked", "penalty_asked",
    "penalty_unasked", "appeal_asked", "period_asked", "boilerplate", "rules_unasked",
    "section_support", "graph_near_top",
)
GRAPH_SEEDS = 2  # the candidates whose citation-graph neighbours are marked
EDGE_TYPES = (EdgeType.REFERENCES.value, EdgeType.DERIVED_FROM.value)


@dataclass(frozen=True, slots=True)
class RankerModel:
    """Standardised-feature linear weights, as fitted by ``tools/train_ranker.py``."""

    names: tuple[str, ...]
    weights: npt.NDArray[np.float64]
    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    meta: dict[str, object] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> RankerModel:
        """Read a fitted model; its feature names must match this module's."""
        data = json.loads(path.read_text(encoding="utf-8"))
        names = tuple(data["features"])
        if names != FEATURES:
            raise NotFoundError(f"{path}: fitted for features {list(names)}, this code computes "
                                f"{list(FEATURES)}; re-fit it with tools/train_ranker.py")
        return cls(names, np.asarray(data["weights"], dtype=np.float64),
                   np.asarray(data["mean"], dtype=np.float64),
                   np.asarray(data["scale"], dtype=np.float64), dict(data.get("meta", {})))

    def save(self, path: Path) -> None:
        """Write the model as JSON (feature names, weights, standardisation, notes)."""
        path.write_text(json.dumps({"features": list(self.names),
                                    "weights": [round(float(w), 6) for w in self.weights],
                                    "mean": [round(float(m), 6) for m in self.mean],
                                    "scale": [round(float(s), 6) for s in self.scale],
                                    "meta": self.meta}, indent=1) + "\n", encoding="utf-8")

    def score(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """One score per row of ``x`` (higher is better)."""
        return np.asarray(((x - self.mean) / self.scale) @ self.weights, dtype=np.float64)


Recorder = Callable[[QueryAnalysis, list[Hit], npt.NDArray[np.float64]], None]


class Reranker:
    """Features of (question, candidate) pairs and the re-ordering by a fitted model."""

    def __init__(self, store: Store, model_id: str, model: RankerModel | None) -> None:
        self.store = store
        self.model_id = model_id
        self.model = model
        self.recorder: Recorder | None = None  # training: sees every candidate list
        self._heading = SectionHeadings(store)
        self._stats = ChunkStats(store, model_id)

    def rerank(self, analysis: QueryAnalysis, lists: Sequence[Sequence[int]],
               query_vector: npt.NDArray[np.float32] | None, hits: list[Hit]) -> list[Hit]:
        """``hits`` with the first ``TOP_N`` re-ordered by the model (pinned hits stay)."""
        head = [h for h in hits[:TOP_N] if not h.pinned]
        if len(head) < 2 or (self.model is None and self.recorder is None):
            return hits
        x = self.features(analysis, lists, query_vector, head)
        if self.recorder is not None:
            self.recorder(analysis, head, x)
        if self.model is None:
            return hits
        order = np.argsort(-self.model.score(x), kind="stable")
        scores = sorted((h.score for h in head), reverse=True)
        ranked = [head[i] for i in order]
        for h, s in zip(ranked, scores, strict=True):
            h.score = s
        ids = {h.provision_id for h in head}
        return [h for h in hits[:TOP_N] if h.pinned] + ranked + \
            [h for h in hits[TOP_N:] if h.provision_id not in ids]

    # --- features ---------------------------------------------------------------------

    def features(self, analysis: QueryAnalysis, lists: Sequence[Sequence[int]],
                 query_vector: npt.NDArray[np.float32] | None,
                 hits: list[Hit]) -> npt.NDArray[np.float64]:
        """One row of ``FEATURES`` per hit."""
        query = analysis.query
        terms = [t for t in analysis.terms if not t.isdigit()]
        idf = self._stats.idf(terms)
        q_stems = {stem(_joined(t)): idf[t] for t in terms}
        q_total = sum(q_stems.values()) or 1.0
        exp = {stem(w) for e in analysis.expansions for w in _WORD.findall(e) if len(w) > 2}
        bm25 = _section_ranks(lists[0], hits) if lists else {}
        dense = _section_ranks(lists[1], hits) if len(lists) > 1 else {}
        cos = self._stats.cosines(query_vector, [h.rowid for h in hits])
        best_cos = float(cos.max()) if len(cos) else 0.0
        top_docs = [h.doc_id for h in hits[:10]]
        sections = [f"{h.doc_id}#{section_of(h.provision_path)}" for h in hits]
        cues = (bool(_DEF_CUE.search(query)), bool(_PENALTY_CUE.search(query)),
                bool(_APPEAL_CUE.search(query)), bool(_TIME_CUE.search(query)),
                bool(_RULES_CUE.search(query)))
        top_score = hits[0].score or 1.0
        near = self._near(hits[:GRAPH_SEEDS])
        rows = []
        for i, h in enumerate(hits):
            sec = sections[i]
            heading = self._heading(sec)
            h_stems = {stem(w) for w in _WORD.findall(_joined(heading))}
            b_stems = {stem(w) for w in _WORD.findall(_joined(h.text))}
            definition = bool(_DEF_HEAD.search(heading)) or '" means' in h.text[:200]
            penalty = bool(_PENALTY_HEAD.search(heading))
            rows.append([
                h.score / top_score,
                1.0 / (1 + i),
                1.0 / (1 + bm25[sec]) if sec in bm25 else 0.0,
                1.0 / (1 + dense[sec]) if sec in dense else 0.0,
                float(sec in bm25 and sec in dense),
                float(cos[i]),
                float(cos[i]) - best_cos,
                sum(v for s, v in q_stems.items() if s in h_stems) / q_total,
                sum(v for s, v in q_stems.items() if s in b_stems) / q_total,
                len(exp & (b_stems | h_stems)) / len(exp) if exp else 0.0,
                float(h.doc_id in analysis.named_docs),
                float(h.doc_id in analysis.implied_docs),
                top_docs.count(h.doc_id) / len(top_docs),
                float(h.provision_path.count("(")),
                float(definition and cues[0]),
                float(definition and not cues[0]),
                float(penalty and cues[1]),
                float(penalty and not cues[1]),
                float(bool(_APPEAL_HEAD.search(heading)) and cues[2]),
                float(bool(_PERIOD_TEXT.search(h.text)) and cues[3]),
                float(bool(_RULES_HEAD.search(heading))),
                float(bool(_RULES_HEAD.search(heading)) and not cues[4]),
                math.log1p(sections.count(sec) - 1),
                float(i >= GRAPH_SEEDS and sec in near),
            ])
        return np.asarray(rows, dtype=np.float64).reshape(len(hits), len(FEATURES))

    def _near(self, seeds: list[Hit]) -> set[str]:
        """Sections one citation edge (either way) from the seeds' provisions or sections."""
        start: list[str] = []
        for h in seeds:
            for node in (h.provision_id, f"{h.doc_id}#{section_of(h.provision_path)}"):
                if node not in start:
                    start.append(node)
        near = self.store.neighbourhood(start, 1, EDGE_TYPES)
        own = {f"{h.doc_id}#{section_of(h.provision_path)}" for h in seeds}
        out = set()
        for node in near:
            doc_id, _, path = node.partition("#")
            if path:
                out.add(f"{doc_id}#{section_of(path)}")
        return out - own


def _joined(text: str) -> str:
    """Hyphens and apostrophes dropped, so "non-registration" meets "nonregistration"."""
    return re.sub(r"[-'’]", "", text)


def _section_ranks(ranked: Sequence[int], hits: list[Hit]) -> dict[str, int]:
    """Best 0-based rank of each candidate's section in one retriever's chunk list (the
    candidates' own chunks stand for their sections)."""
    row_sec = {h.rowid: f"{h.doc_id}#{section_of(h.provision_path)}" for h in hits
               if h.rowid is not None}
    out: dict[str, int] = {}
    for rank, rowid in enumerate(ranked):
        sec = row_sec.get(rowid)
        if sec is not None and sec not in out:
            out[sec] = rank
    return out


def load_default() -> RankerModel | None:
    """The shipped model, or None when the file is absent (the stage is then a no-op)."""
    return RankerModel.load() if MODEL_PATH.is_file() else None
