"""One calibrated score per answer: how likely the retrieved evidence answers the question.

The score is a logistic model over five signals read from the evidence, each in [0, 1]:

- ``cosine``: the best dense cosine of the retrieval;
- ``agreement``: how far the lexical (BM25) and dense rankings agree on the top
  provisions (overlap of their top five, and whether the answer's lead provision is in
  both);
- ``coverage``: the idf-weighted share of the question's terms found in the text of the
  provisions the answer would quote (its top hits);
- ``heading``: the idf-weighted share of the question's terms found in those provisions'
  section headings (does the cited provision's subject match the question's?);
- ``routing``: 1 when the question names or implies an Act and the lead hit is in it,
  0 when it names one and the lead hit is elsewhere, 0.5 when it names none.

``signals`` also reports ``lead_agreed`` (1 when the lead provision is in both the BM25
and the dense top five), which the model does not weigh; the scope guard reads it
(``answer.evidence.lay_question_supported``).

The weights (``answer/confidence_model.py``) are fitted by ``tools/fit_confidence.py`` on
questions generated from the corpus's section headings, never on the evaluation sets:
headings of the indexed Acts are answerable positives, headings of Acts that are not
indexed (and match no indexed heading) are negatives. The threshold is
``Settings.answer_score_floor``, chosen on the dev set (docs/EVALUATION.md).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from civicsetu.answer.confidence_model import FEATURES, INTERCEPT, WEIGHTS
from civicsetu.errors import NotFoundError
from civicsetu.search.hybrid import Searcher, SearchResult
from civicsetu.search.lexicon import LAY_TO_STATUTE
from civicsetu.search.query import fts_query
from civicsetu.types import section_of

TOP_HITS = 3  # the provisions an answer quotes from
AGREE_TOP = 5
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|\d+")


@dataclass(slots=True)
class Confidence:
    """The calibrated probability that the evidence answers the question, and its signals."""

    score: float
    features: dict[str, float] = field(default_factory=dict)
    ms: float = 0.0  # time taken to compute the signals


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude stem, enough to match "registered" with "registration"."""
    word = word.lower().strip("'")
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es",
                   "s"):
        if len(word) - len(suffix) >= 4 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:6]


def _stems(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text.lower())}


def combine(features: dict[str, float]) -> float:
    """The logistic model's probability for these signals."""
    z = INTERCEPT + sum(WEIGHTS[i] * features.get(name, 0.0)
                        for i, name in enumerate(FEATURES))
    return 1.0 / (1.0 + math.exp(-z))


def signals(result: SearchResult, searcher: Searcher) -> dict[str, float]:
    """The five evidence signals of a retrieval (see the module docstring)."""
    store = searcher.store
    analysis = result.analysis
    hits = [h for h in result.hits if not h.pinned][:TOP_HITS] or result.hits[:TOP_HITS]
    terms = list(dict.fromkeys(re.sub(r"['’]s$", "", t) for t in analysis.terms
                               if not t.isdigit()))
    feats = {"cosine": max(0.0, min(1.0, result.best_cosine or 0.0)),
             "agreement": 0.0, "coverage": 0.0, "heading": 0.0, "routing": 0.5,
             "lead_agreed": 0.0}
    if not hits:
        return feats
    weights = _idf(terms, searcher)
    total = sum(weights.values())
    if total > 0:
        text_stems = _stems(" ".join(h.text for h in hits))
        heads = []
        for h in hits:
            try:
                heads.append(store.provision(f"{h.doc_id}#{section_of(h.provision_path)}",
                                             result.as_of).title)
            except NotFoundError:
                continue
        head_stems = _stems(" ".join(heads))
        feats["coverage"] = sum(w for t, w in weights.items()
                                if _found(t, text_stems)) / total
        feats["heading"] = sum(w for t, w in weights.items()
                               if _found(t, head_stems)) / total
    overlap, both = _agreement(result, searcher,
                               f"{hits[0].doc_id}#{section_of(hits[0].provision_path)}")
    feats["agreement"] = 0.5 * overlap + 0.5 * both
    feats["lead_agreed"] = both
    named = analysis.named_docs + analysis.implied_docs
    if named:
        feats["routing"] = 1.0 if hits[0].doc_id in named else 0.0
    return feats


def assess_confidence(result: SearchResult, searcher: Searcher) -> Confidence:
    """The calibrated score of a retrieval; a named existing provision scores 1."""
    if any(h.pinned for h in result.hits):
        return Confidence(1.0, {"pinned": 1.0})
    t0 = time.perf_counter()
    feats = signals(result, searcher)
    return Confidence(round(combine(feats), 4), {k: round(v, 4) for k, v in feats.items()},
                      round((time.perf_counter() - t0) * 1000, 2))


def _found(term: str, stems: set[str]) -> bool:
    """The term, or a statutory word for it ("builder" -> "promoter"), is in ``stems``."""
    if stem(term) in stems:
        return True
    return any(stem(w) in stems for phrase in LAY_TO_STATUTE.get(term, ())
               for w in phrase.lower().split())


def _idf(terms: list[str], searcher: Searcher) -> dict[str, float]:
    if not terms:
        return {}
    n = max(searcher.store.chunk_count(), 1)
    df = searcher.store.term_document_frequency(terms)  # FTS5 stems them itself
    return {t: math.log(1 + n / (1 + df.get(t, 0))) for t in terms}


def _agreement(result: SearchResult, searcher: Searcher, lead: str) -> tuple[float, float]:
    """The overlap of the BM25 and dense top-five sections, and 1.0 when the lead section
    is in both top fives (else 0.0)."""
    analysis = result.analysis
    store = searcher.store
    allowed = None
    query = fts_query(list(dict.fromkeys(analysis.terms)))
    lexical = [r for r, _ in store.keyword_search(query, 20, allowed, result.as_of)] \
        if query else []
    vector = np.asarray(searcher.embedder.embed_query(analysis.dense_text), dtype=np.float32)
    dense = [r for r, _ in store.dense_search(searcher.embedder.model_id, vector, 20,
                                              allowed, result.as_of)]
    lex_top = _provisions(searcher, lexical)[:AGREE_TOP]
    dense_top = _provisions(searcher, dense)[:AGREE_TOP]
    if not lex_top or not dense_top:
        return 0.0, 0.0
    overlap = len(set(lex_top) & set(dense_top)) / AGREE_TOP
    both = 1.0 if lead in lex_top and lead in dense_top else 0.0
    return overlap, both


def _provisions(searcher: Searcher, rowids: list[int]) -> list[str]:
    rows = {r.rowid: r for r in searcher.store.chunks(rowids)}
    out: list[str] = []
    for rowid in rowids:
        row = rows.get(rowid)
        if row is not None:
            pid = f"{row.doc_id}#{section_of(row.provision_path)}"
            if pid not in out:
                out.append(pid)
    return out
