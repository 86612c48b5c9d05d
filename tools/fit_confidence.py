"""Fit the answer score's logistic model on questions generated from the corpus.

    python tools/fit_confidence.py ../shared/corpus/india-central-acts --write

Training data never comes from an evaluation set. Every Act file's arrangement of
sections gives one question per section heading ("What does the law provide on
<heading>?", a few phrasings in turn). Headings of Acts in the index are answerable
positives. Negatives are half headings of Acts that are not in the index, unless the heading
is generic (found in three or more Acts: "Definitions", "Power to make rules") or shares
half its words with a heading of an indexed Act (the index may well answer it), and half near
misses: an indexed heading whose most specific word is swapped for a word the indexed Acts
never use (in-domain questions about a subject the index does not hold). Each
question runs through the agent's retrieval (with its corrective retries, as ``ask``)
and ``answer.confidence.signals``; a logistic regression (numpy, L2) is fitted on the
signals and, with ``--write``, saved to ``src/civicsetu/answer/confidence_model.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np

from civicsetu.agent.state import AgentState
from civicsetu.answer.confidence import FEATURES, signals, stem
from civicsetu.engine import Engine
from civicsetu.search.hybrid import SearchResult
from civicsetu.search.lexicon import LAY_TO_STATUTE

TEMPLATES = ("What does the law provide on {h}?", "What are the rules about {h}?",
             "Can you explain {h}?", "What is the legal position on {h}?")
_HEADING = re.compile(r"^(?:## Section \S+ - |\d{1,3}[A-Z]{0,2}\.\s+)([A-Z][^—:;]{8,90}?)\.?\s*$")
_JUNK = re.compile(r"\d|ibid|omitted|repealed|inserted|substituted|[\"“”‘’(]|\bAct\b", re.I)
MODEL = Path(__file__).resolve().parent.parent / "src/civicsetu/answer/confidence_model.py"


def headings(path: Path) -> list[str]:
    """Section headings from an Act file's arrangement of sections."""
    out: list[str] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = _HEADING.match(line.strip())
        if m and "." not in m.group(1) and not _JUNK.search(m.group(1)):
            out.append(" ".join(m.group(1).split()))
    return list(dict.fromkeys(out))


def _content(heading: str) -> frozenset[str]:
    return frozenset(stem(w) for w in re.findall(r"[a-z]{3,}", heading.lower())
                     if w not in {"and", "the", "for", "with", "certain", "not", "any"})


def questions(corpus: Path, indexed: set[str], per_side: int,
              seed: int) -> list[tuple[str, int, str]]:
    """(question, label, act) pairs: indexed Acts' headings 1; other Acts' headings and
    near misses (see ``near_misses``) 0, half each."""
    by_act = {p.stem: headings(p) for p in sorted(corpus.glob("*.md"))}
    spread = Counter(h.lower() for hs in by_act.values() for h in set(hs))
    indexed_heads = [_content(h) for a in indexed for h in by_act.get(a, [])]
    pos: list[tuple[str, str]] = []
    neg: list[tuple[str, str]] = []
    for act, hs in by_act.items():
        for h in hs:
            words = _content(h)
            if spread[h.lower()] >= 3 or len(words) < 2:
                continue
            if act in indexed:
                pos.append((h, act))
            elif not any(len(words & o) / len(words | o) >= 0.5 for o in indexed_heads):
                neg.append((h, act))
    rng = random.Random(seed)
    rng.shuffle(pos)
    rng.shuffle(neg)
    near = near_misses(corpus, indexed, pos[per_side:], [h for h, _ in neg], rng)
    far = per_side - per_side // 2
    rows = [(h, 1, a) for h, a in pos[:per_side]] + [(h, 0, a) for h, a in neg[:far]] + \
        [(h, 0, "near-miss") for h in near[:per_side - far]]
    rng.shuffle(rows)
    lay = _lay_words()
    return [(TEMPLATES[i % len(TEMPLATES)].format(h=_reword(h[0].lower() + h[1:], lay, rng)),
             label, act) for i, (h, label, act) in enumerate(rows)]


def near_misses(corpus: Path, indexed: set[str], spare: list[tuple[str, str]],
                others: list[str], rng: random.Random) -> list[str]:
    """Indexed headings whose most specific word is swapped for a word the indexed Acts
    never use ("Revocation of registration" -> "Revocation of excise"): a question in
    the index's domain about a subject it does not hold, like the unanswerable questions
    users ask."""
    counts: Counter[str] = Counter()
    for act in indexed:
        path = corpus / f"{act}.md"
        if path.is_file():
            counts.update(re.findall(r"[a-z]+", path.read_text(encoding="utf-8").lower()))
    foreign = sorted({w for h in others for w in re.findall(r"[a-z]{5,}", h.lower())
                      if w not in counts})
    out = []
    for heading, _ in spare:
        words = [w for w in re.findall(r"[A-Za-z]{4,}", heading) if w.lower() in counts]
        if not words or not foreign:
            continue
        rarest = min(words, key=lambda w: counts[w.lower()])
        out.append(re.sub(rf"\b{rarest}\b", rng.choice(foreign), heading, count=1))
    return out


def _lay_words() -> dict[str, str]:
    """Statute word -> a lay word for it, from the search lexicon read backwards."""
    out: dict[str, str] = {}
    for lay, statute in LAY_TO_STATUTE.items():
        for phrase in statute:
            if " " not in phrase:
                out.setdefault(phrase.lower(), lay)
    return out


def _reword(question: str, lay: dict[str, str], rng: random.Random) -> str:
    """Users say "builder", the Act "promoter": swap statute words for lay ones half the
    time, so the questions are not all in the heading's own words."""
    return re.sub(r"[A-Za-z]+", lambda m: lay[m.group(0).lower()]
                  if m.group(0).lower() in lay and rng.random() < 0.5 else m.group(0),
                  question)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.01,
        steps: int = 5000) -> tuple[float, np.ndarray]:
    """Logistic regression by gradient descent (features are already in [0, 1])."""
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = p - y
        w -= 1.0 * (x.T @ g / len(y) + l2 * w)
        b -= 1.0 * float(g.mean())
    return b, w


def main() -> None:
    """Generate the questions, compute their signals, fit, report, optionally write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--per-side", type=int, default=250)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--cache", type=Path, default=None,
                        help="JSONL of computed signals, reused when present")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    if args.cache and args.cache.is_file():
        rows = [json.loads(line) for line in args.cache.read_text().splitlines() if line]
    else:
        with Engine() as engine:
            indexed = {d.id for d in engine.documents()}
            agent = engine.agent(None)
            for q, label, act in questions(args.corpus, indexed, args.per_side, args.seed):
                state: AgentState = {"query": q, "rewritten": q, "attempts": 0,
                                     "filters": None}
                state.update(agent._retrieve(state))
                while agent._after_retrieve(state) == "again":
                    state.update(agent._retrieve(state))
                result: SearchResult = state["result"]
                rows.append({"query": q, "label": label, "act": act,
                             **signals(result, engine.searcher)})
        if args.cache:
            args.cache.write_text("".join(json.dumps(r) + "\n" for r in rows))
    x = np.array([[float(r[f]) for f in FEATURES] for r in rows])  # type: ignore[arg-type]
    y = np.array([float(r["label"]) for r in rows])  # type: ignore[arg-type]
    # Held-out check inside the training data: fit on even rows, score odd rows.
    b, w = fit(x[::2], y[::2])
    p = 1 / (1 + np.exp(-(x[1::2] @ w + b)))
    acc = float(((p >= 0.5) == (y[1::2] == 1)).mean())
    print(f"{len(rows)} questions ({int(y.sum())} answerable); held-out half accuracy {acc:.3f}")
    b, w = fit(x, y)
    print("intercept", round(b, 3), dict(zip(FEATURES, np.round(w, 3).tolist(), strict=True)))
    if args.write:
        text = MODEL.read_text(encoding="utf-8")
        text = re.sub(r"INTERCEPT: float = .*", f"INTERCEPT: float = {b:.4f}", text)
        weights = ", ".join(f"{v:.4f}" for v in w)
        text = re.sub(r"WEIGHTS: tuple\[float, \.\.\.\] = .*",
                      f"WEIGHTS: tuple[float, ...] = ({weights})", text)
        MODEL.write_text(text, encoding="utf-8")
        print(f"wrote {MODEL}")


if __name__ == "__main__":
    main()
