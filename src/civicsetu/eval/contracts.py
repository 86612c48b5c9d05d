"""``civicsetu eval-contracts``: the contract reviewer measured on a ContractNLI-format file.

Three tasks, each for the configured reviewer and two baselines in the same run:

- evidence identification inside one contract: span recall@1/3/5 and average precision
  of the ranked spans against the gold evidence spans (pairs labelled Entailment or
  Contradiction only; NotMentioned pairs have no evidence);
- NLI: accuracy, F1 per class, macro F1 over entailed / contradicted / not mentioned;
- corpus-wide retrieval (LegalBench-RAG style): the query names the agreement (its title
  and parties, read from its opening lines) and the hypothesis, retrieval runs over the
  spans of every contract in the file, scored by character-level precision and recall@k.

The evidence units are the file's own ``spans`` (character ranges), so gold evidence and
ranked units are the same ranges. Gold labels come from the file, never from a retriever.
Baselines: ``majority`` (spans in document order, the file's most frequent label),
``bm25`` (BM25 of the hypothesis over spans; "entailed" when the best span scores at least
the median best score of that hypothesis, else "not mentioned").
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from civicsetu.embed.base import Embedder, Vectors
from civicsetu.errors import InputError
from civicsetu.review.checklist import Checklist, Item, Label, Risk, RiskRule
from civicsetu.review.nli import classify
from civicsetu.review.rank import rank_units
from civicsetu.review.text import BM25

CHOICES = {"Entailment": Label.ENTAILED, "Contradiction": Label.CONTRADICTED,
           "NotMentioned": Label.NOT_MENTIONED}
EVIDENCE_K = (1, 3, 5)
CORPUS_K = (1, 4, 16, 64)
SYSTEMS = ("reviewer", "bm25", "majority")


@dataclass(frozen=True)
class NliDoc:
    id: str
    name: str
    text: str
    spans: list[tuple[int, int]]
    gold: dict[str, tuple[Label, list[int]]]

    def unit_texts(self) -> list[str]:
        """The text of each span."""
        return [self.text[a:b] for a, b in self.spans]


@dataclass(frozen=True)
class NliFile:
    hypotheses: dict[str, str]
    docs: list[NliDoc]
    sha: str


def load_contractnli(path: Path, limit: int | None = None) -> NliFile:
    """Read a ContractNLI-format JSON file (``documents`` and ``labels``)."""
    try:
        raw_bytes = path.read_bytes()
        data = json.loads(raw_bytes)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read {path} as JSON: {exc}; give a ContractNLI file") \
            from exc
    if not isinstance(data, dict) or "documents" not in data or "labels" not in data:
        raise InputError(f"{path} is not ContractNLI format: it needs 'documents' and 'labels'")
    hyps = {k: str(v.get("hypothesis", k)) for k, v in data["labels"].items()}
    docs = []
    for i, d in enumerate(data["documents"][:limit] if limit else data["documents"]):
        try:
            spans = [(int(a), int(b)) for a, b in d["spans"]]
            ann = d["annotation_sets"][0]["annotations"]
            gold = {h: (CHOICES[a["choice"]], [int(s) for s in a["spans"]])
                    for h, a in ann.items()}
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise InputError(f"{path}: document {i} lacks spans or annotations ({exc!r})") \
                from exc
        docs.append(NliDoc(str(d.get("id", i)), str(d.get("file_name", i)), d["text"],
                           spans, gold))
    if not docs:
        raise InputError(f"{path} holds no documents")
    return NliFile(hyps, docs, hashlib.sha256(raw_bytes).hexdigest()[:16])


def item_for(key: str, hypothesis: str, checklist: Checklist) -> Item:
    """The checklist item of a hypothesis key, or a cue-less item for an unknown one."""
    for item in checklist.items:
        if item.id == key:
            return item
    neutral = RiskRule(Risk.MEDIUM, "")
    return Item(id=key, title=key, group="eval", hypothesis=hypothesis, query="", cues=(),
                contra_cues=(), contra_first=False,
                risk={lbl: neutral for lbl in Label})


# ---------------------------------------------------------------- metrics

def recall_at(gold: set[int], ranked: Sequence[int], k: int) -> float:
    """Share of the gold spans among the first ``k`` ranked spans."""
    return len(gold & set(ranked[:k])) / len(gold) if gold else 0.0


def average_precision(gold: set[int], ranked: Sequence[int]) -> float:
    """Mean of precision at the rank of each gold span (missing ones count zero)."""
    if not gold:
        return 0.0
    hits, total = 0, 0.0
    for rank, idx in enumerate(ranked, start=1):
        if idx in gold:
            hits += 1
            total += hits / rank
    return total / len(gold)


def nli_scores(gold: Sequence[Label], pred: Sequence[Label]) -> dict[str, float]:
    """Accuracy, F1 per class and macro F1."""
    out: dict[str, float] = {
        "nli_accuracy": sum(g == p for g, p in zip(gold, pred, strict=True)) / max(len(gold), 1)}
    f1s = []
    for label in Label:
        tp = sum(g == label and p == label for g, p in zip(gold, pred, strict=True))
        fp = sum(g != label and p == label for g, p in zip(gold, pred, strict=True))
        fn = sum(g == label and p != label for g, p in zip(gold, pred, strict=True))
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        out[f"nli_f1_{label.value}"] = f1
        f1s.append(f1)
    out["nli_macro_f1"] = sum(f1s) / len(f1s)
    return out


def _intervals_overlap(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> int:
    total = 0
    for s1, e1 in a:
        for s2, e2 in b:
            total += max(0, min(e1, e2) - max(s1, s2))
    return total


def _merged(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def char_scores(gold: Sequence[tuple[int, int]],
                retrieved: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """Character-level (precision, recall) of retrieved ranges against gold ranges."""
    g, r = _merged(gold), _merged(retrieved)
    overlap = _intervals_overlap(g, r)
    g_len = sum(e - s for s, e in g)
    r_len = sum(e - s for s, e in r)
    return (overlap / r_len if r_len else 0.0), (overlap / g_len if g_len else 0.0)


# ---------------------------------------------------------------- corpus description

def describe(text: str) -> str:
    """How a user names an agreement: its title line and the parties, from its opening."""
    from civicsetu.review.extract import metadata

    head = text[:4000]
    title = next((ln.strip() for ln in head.splitlines() if re.search(r"[A-Za-z]{3}", ln)),
                 "agreement")[:120]
    parties = metadata(head).get("parties", "")[:200].rstrip(" .")
    return f"{title} between {parties}" if parties else title


# ---------------------------------------------------------------- running

@dataclass
class Prediction:
    ranked: list[int]
    label: Label


def _embed_units(data: NliFile, embedder: Embedder, cache_dir: Path | None,
                 on_progress: Callable[[int, int], None] | None) -> list[Vectors]:
    cache = (cache_dir / f"contractnli-v2-{data.sha}-{len(data.docs)}-{embedder.model_id}.npz"
             if cache_dir else None)
    if cache is not None and cache.exists():
        with np.load(cache) as z:
            return [z[f"arr_{i}"] for i in range(len(data.docs))]
    out = []
    for i, doc in enumerate(data.docs):
        out.append(embedder.embed_documents(doc.unit_texts()))
        if on_progress:
            on_progress(i + 1, len(data.docs))
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, *out)
    return out


def run_contract_eval(data: NliFile, checklist: Checklist, embedder: Embedder | None,
                      cache_dir: Path | None = None,
                      on_progress: Callable[[int, int], None] | None = None,
                      labeler: Callable[[Item, NliDoc, list[int]], Label | None] | None = None,
                      ) -> dict[str, Any]:
    """Every metric for the reviewer and both baselines; ``labeler`` (an LLM) may replace
    the reviewer's model-free label (it returns ``None`` to keep it)."""
    items = {k: item_for(k, h, checklist) for k, h in data.hypotheses.items()}
    vecs = _embed_units(data, embedder, cache_dir, on_progress) if embedder else None
    qvecs = {k: embedder.embed_query(i.search_text) for k, i in items.items()} \
        if embedder else {}
    majority = Counter(g[0] for d in data.docs for g in d.gold.values()).most_common(1)[0][0]
    preds: dict[str, dict[tuple[int, str], Prediction]] = {s: {} for s in SYSTEMS}
    bm25_top: dict[tuple[int, str], float] = {}
    indices: list[BM25] = []
    for di, doc in enumerate(data.docs):
        texts = doc.unit_texts()
        bm25 = BM25(texts)
        indices.append(bm25)
        for key, item in items.items():
            if key not in doc.gold:
                continue
            ranked = rank_units(item, texts, bm25, vecs[di] if vecs else None,
                                qvecs.get(key))
            order = [s.index for s in ranked]
            label = classify(item, ranked)
            if labeler is not None:
                label = labeler(item, doc, order[:5]) or label
            preds["reviewer"][(di, key)] = Prediction(order, label)
            lex = bm25.scores(data.hypotheses[key])
            lex_order = sorted(range(len(texts)), key=lambda i: -lex[i])
            bm25_top[(di, key)] = max(lex) if lex else 0.0
            preds["bm25"][(di, key)] = Prediction(lex_order, Label.NOT_MENTIONED)
            preds["majority"][(di, key)] = Prediction(list(range(len(texts))), majority)
    for key in items:
        tops = [v for (di, k), v in bm25_top.items() if k == key]
        cut = statistics.median(tops) if tops else 0.0
        for (di, k), v in bm25_top.items():
            if k == key and v >= cut and v > 0:
                preds["bm25"][(di, k)].label = Label.ENTAILED
    corpus = _corpus_rankings(data, items, indices, vecs, qvecs)
    report: dict[str, Any] = {"file_sha256_16": data.sha, "documents": len(data.docs),
                              "pairs": sum(len(d.gold) for d in data.docs),
                              "evidence_pairs": sum(1 for d in data.docs
                                                    for g in d.gold.values() if g[1]),
                              "dense": embedder is not None,
                              "llm_labels": labeler is not None}
    all_docs = list(range(len(data.docs)))
    report.update(_metrics(data, preds["reviewer"], corpus["reviewer"], all_docs))
    report["per_hypothesis"] = _per_hypothesis(data, preds, items)
    report["halves"] = {
        name: _headline(_metrics(data, preds["reviewer"], corpus["reviewer"],
                                 [i for i in all_docs if i % 2 == parity]))
        for name, parity in (("even_docs", 0), ("odd_docs", 1))}
    report["baselines"] = {s: _metrics(data, preds[s], corpus[s], all_docs)
                           for s in ("majority", "bm25")}
    report["baselines"]["majority"]["label"] = majority.value
    return report


HEADLINE = ("evidence_recall_at_1", "evidence_recall_at_3", "evidence_recall_at_5",
            "evidence_map", "nli_accuracy", "nli_macro_f1", "corpus_char_precision_at_1",
            "corpus_char_recall_at_1", "corpus_char_recall_at_4", "corpus_char_recall_at_16",
            "corpus_char_recall_at_64")


def _headline(m: dict[str, Any]) -> dict[str, Any]:
    return {k: m[k] for k in HEADLINE}


def _metrics(data: NliFile, preds: dict[tuple[int, str], Prediction],
             corpus: dict[tuple[int, str], list[tuple[int, int, int]]],
             doc_ids: Sequence[int]) -> dict[str, Any]:
    keep = set(doc_ids)
    rec: dict[int, list[float]] = {k: [] for k in EVIDENCE_K}
    aps: list[float] = []
    gold_l: list[Label] = []
    pred_l: list[Label] = []
    cp: dict[int, list[float]] = {k: [] for k in CORPUS_K}
    cr: dict[int, list[float]] = {k: [] for k in CORPUS_K}
    for (di, key), p in preds.items():
        if di not in keep:
            continue
        label, gold_idx = data.docs[di].gold[key]
        gold_l.append(label)
        pred_l.append(p.label)
        if not gold_idx:
            continue
        gold = set(gold_idx)
        for k in EVIDENCE_K:
            rec[k].append(recall_at(gold, p.ranked, k))
        aps.append(average_precision(gold, p.ranked))
        doc = data.docs[di]
        gold_ranges = [doc.spans[i] for i in gold_idx]
        hits = corpus[(di, key)]
        for k in CORPUS_K:
            mine = [(s, e) for d, s, e in hits[:k] if d == di]
            total = sum(e - s for _, s, e in hits[:k])
            g_len = sum(e - s for s, e in _merged(gold_ranges))
            overlap = _intervals_overlap(_merged(gold_ranges), _merged(mine))
            cp[k].append(overlap / total if total else 0.0)
            cr[k].append(overlap / g_len if g_len else 0.0)
    out: dict[str, Any] = {f"evidence_recall_at_{k}": _mean(v) for k, v in rec.items()}
    out["evidence_map"] = _mean(aps)
    out.update(nli_scores(gold_l, pred_l))
    for k in CORPUS_K:
        out[f"corpus_char_precision_at_{k}"] = _mean(cp[k])
        out[f"corpus_char_recall_at_{k}"] = _mean(cr[k])
    return out


def _per_hypothesis(data: NliFile, preds: dict[str, dict[tuple[int, str], Prediction]],
                    items: dict[str, Item]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in items.items():
        row: dict[str, Any] = {"title": item.title}
        for system, p in preds.items():
            sub = {k: v for k, v in p.items() if k[1] == key}
            recs, aps, correct = [], [], []
            for (di, _), pr in sub.items():
                label, gold_idx = data.docs[di].gold[key]
                correct.append(pr.label == label)
                if gold_idx:
                    recs.append(recall_at(set(gold_idx), pr.ranked, 5))
                    aps.append(average_precision(set(gold_idx), pr.ranked))
            row[system] = {"evidence_recall_at_5": _mean(recs), "evidence_map": _mean(aps),
                           "nli_accuracy": _mean([float(c) for c in correct]),
                           "evidence_pairs": len(recs)}
        out[key] = row
    return out


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


def _corpus_rankings(data: NliFile, items: dict[str, Item], indices: list[BM25],
                     vecs: list[Vectors] | None, qvecs: dict[str, Vectors],
                     ) -> dict[str, dict[tuple[int, str], list[tuple[int, int, int]]]]:
    """Top-64 (doc, start, end) per pair for each system, over all contracts."""
    depth = max(CORPUS_K)
    flat = [(di, s, e) for di, d in enumerate(data.docs) for s, e in d.spans]
    flat_bm25 = BM25([data.docs[di].text[s:e] for di, s, e in flat])
    names = [describe(d.text) for d in data.docs]
    header_index = BM25([f"{names[i]} {d.text[:1500]}" for i, d in enumerate(data.docs)])
    out: dict[str, dict[tuple[int, str], list[tuple[int, int, int]]]] = \
        {s: {} for s in SYSTEMS}
    for di, doc in enumerate(data.docs):
        for key, item in items.items():
            if key not in doc.gold or not doc.gold[key][1]:
                continue
            query = f"{names[di]}: {data.hypotheses[key]}"
            lex = flat_bm25.scores(query)
            top = np.argsort(-np.asarray(lex), kind="stable")[:depth]
            out["bm25"][(di, key)] = [flat[i] for i in top]
            out["majority"][(di, key)] = flat[:depth]
            # Reviewer: find the agreement the query names, then rank inside it.
            doc_scores = np.asarray(header_index.scores(query))
            hits: list[tuple[int, int, int]] = []
            for dj in np.argsort(-doc_scores, kind="stable"):
                other = data.docs[int(dj)]
                texts = other.unit_texts()
                ranked = rank_units(item, texts, indices[int(dj)],
                                    vecs[int(dj)] if vecs else None, qvecs.get(key))
                hits.extend((int(dj), *other.spans[s.index]) for s in ranked)
                if len(hits) >= depth:
                    break
            out["reviewer"][(di, key)] = hits[:depth]
    return out


def unit_texts_of(doc: NliDoc, indices: Sequence[int]) -> list[str]:
    """The texts of some of a document's spans."""
    return [doc.text[doc.spans[i][0]:doc.spans[i][1]] for i in indices]
