"""Fit the second-stage ranker (search/rerank.py) on questions generated from the corpus.

    CIVICSETU_HOME=/path/to/training-index python tools/train_ranker.py \
        --out src/civicsetu/search/ranker.json

The training index should hold Acts that are NOT the ones evaluated (the bundle); the
questions come from its own text, never from an evaluation set:

- **headings**: a section's marginal note through templates ("What does the law say
  about transfer of an apartment?", "What does the Passports Act say about ...?");
  "Penalty for X" / "Punishment for X" headings also as "What is the penalty for X?";
- **definitions**: a clause ``"term" means ...`` as "What is the meaning of term?";
- **sentences**: five to eight content words sampled in order from one sentence of a
  provision ("Can Board appoint officers salaries prescribed?"), which shares words with
  the provision but not its heading, as a user's question does.

The answer is the source provision's section. Each question runs through the real
search (reranker off); the features of its top candidates are recorded, and a linear
model is fitted with a listwise softmax loss (Adam, L2). Acts are split in two: the
model is fitted on one part and its recall@1/@5 against the fused order is reported on
the other, then refitted on all.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from civicsetu.search.query import STOPWORDS, QueryAnalysis
from civicsetu.search.rerank import FEATURES, TOP_N, RankerModel
from civicsetu.types import Hit, section_of

_SKIP_HEADINGS = re.compile(r"short title|definition|repeal|power to make|commencement|"
                            r"^\s*$|savings|removal of difficult|omitted", re.IGNORECASE)
_DEFINITION = re.compile(r'^\s*\(\w{1,5}\)\s*["“]([^"”]{3,60})["”]\s+(?:means|includes)')
_PENALTY = re.compile(r"^(?:penalty|punishment)\s+for\s+(.+)$", re.IGNORECASE)
_MARKUP = re.compile(r"\^[\w*]{1,4}|[\[\]]")

HEADING_TEMPLATES = ("What does the law say about {h}?", "What are the rules on {h}?",
                     "{H}?", "Explain the provision on {h}.", "Tell me about {h}.")
NAMED_TEMPLATES = ("What does the {act} say about {h}?", "{H} under the {act}?")
PENALTY_TEMPLATES = ("What is the penalty for {x}?", "What punishment is there for {x}?")
DEFINITION_TEMPLATES = ("What is the meaning of {t}?", "What counts as {t}?",
                        "Who or what is a {t} under the {act}?", "Define {t}.")
SENTENCE_TEMPLATES = ("{w}?", "What happens when {w}?", "Can {w}?",
                      "Is there a rule that {w}?", "What does the law say on {w}?")


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    doc_id: str
    section: str  # doc#section
    kind: str
    also: str = ""  # a two-part question's second answer section


def _act_name(title: str) -> str:
    return re.sub(r",?\s*\d{4}\s*$", "", title).strip()


def generate(db: Path, per_act: int, seed: int) -> list[Question]:
    """Template questions from the provisions of every Act in the index at ``db``."""
    rng = random.Random(seed)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    titles = dict(conn.execute("SELECT id, title FROM documents"))
    out: list[Question] = []
    for doc_id, title in sorted(titles.items()):
        act = _act_name(title)
        rows = conn.execute(
            "SELECT p.path, p.kind, p.title, substr(d.text, p.start + 1, p.\"end\" - p.start) "
            "FROM provisions p JOIN documents d ON d.id = p.doc_id WHERE p.doc_id = ? "
            "AND p.valid_to IS NULL", (doc_id,)).fetchall()
        qs: list[Question] = []
        asked: set[tuple[str, str]] = set()  # (section, kind): one question of each kind
        contexts: list[list[str]] = []
        for path, kind, heading, text in rows:
            sec = f"{doc_id}#{section_of(path)}"
            heading = " ".join((heading or "").split()).rstrip(".—-: ")
            if kind == "section" and heading and not _SKIP_HEADINGS.search(heading) and \
                    len(heading.split()) >= 2:
                h = heading[0].lower() + heading[1:]
                m = _PENALTY.match(heading)
                if m:
                    template = rng.choice(PENALTY_TEMPLATES)
                    qs.append(Question(template.format(x=m.group(1)), doc_id, sec, "penalty"))
                elif rng.random() < 0.3:
                    template = rng.choice(NAMED_TEMPLATES)
                    qs.append(Question(template.format(h=h, H=heading, act=act), doc_id, sec,
                                       "heading"))
                else:
                    template = rng.choice(HEADING_TEMPLATES)
                    qs.append(Question(template.format(h=h, H=heading), doc_id, sec, "heading"))
            d = _DEFINITION.match(text or "")
            if d and (sec, "definition") not in asked:
                asked.add((sec, "definition"))
                template = rng.choice(DEFINITION_TEMPLATES)
                qs.append(Question(template.format(t=d.group(1).lower(), act=act), doc_id, sec,
                                   "definition"))
            words = _sentence_words(text or "", rng)
            if words:
                contexts.append(words)
            # Definition clauses are asked as definitions, not as sampled sentences.
            if words and not d and path.count("(") <= 1 and (sec, "sentence") not in asked:
                asked.add((sec, "sentence"))
                template = rng.choice(SENTENCE_TEMPLATES)
                qs.append(Question(template.format(w=" ".join(words)), doc_id, sec, "sentence"))
        # A balanced mix: sentence questions would otherwise outnumber the rest 3 to 1.
        rng.shuffle(qs)
        sentences = [q for q in qs if q.kind == "sentence"]
        others = [q for q in qs if q.kind != "sentence"]
        take = others[:per_act // 2]
        chosen = take + sentences[:per_act - len(take)]
        out.extend(_with_context(q, contexts, rng) for q in chosen)
        # Two-part questions: two of the Act's questions joined, both sections answer.
        for a, b in zip(chosen[0::8], chosen[1::8], strict=False):
            if a.section != b.section:
                out.append(Question(f"{a.text.rstrip('?.')}, and {b.text[0].lower()}"
                                    f"{b.text[1:]}", doc_id, a.section, "two-part", b.section))
    conn.close()
    return out


def _with_context(q: Question, contexts: list[list[str]], rng: random.Random) -> Question:
    """Half the questions open with a situation, as users' do: content words of another
    provision of the same Act, which the answer need not share."""
    if not contexts or rng.random() < 0.5:
        return q
    situation = " ".join(rng.choice(contexts)[:6])
    return Question(f"{situation[0].upper()}{situation[1:]}. {q.text}", q.doc_id, q.section,
                    q.kind)


def _sentence_words(text: str, rng: random.Random) -> list[str]:
    """Five to eight content words, in order, from one longish sentence of ``text``."""
    clean = _MARKUP.sub("", text)
    sentences = [s for s in re.split(r"(?<=[.;:])\s+", clean) if len(s.split()) >= 12]
    if not sentences:
        return []
    words = [w for w in re.findall(r"[A-Za-z]+", rng.choice(sentences))
             if len(w) > 3 and w.lower() not in STOPWORDS]
    if len(words) < 5:
        return []
    n = rng.randint(5, min(8, len(words)))
    picked = sorted(rng.sample(range(len(words)), n))
    return [words[i] for i in picked]


def collect(questions: list[Question]) -> list[dict[str, Any]]:
    """Run each question through the real search and record its candidates' features."""
    from civicsetu.engine import Engine

    records: list[dict[str, Any]] = []
    current: dict[str, Any] = {}

    def record(analysis: QueryAnalysis, hits: list[Hit], x: npt.NDArray[np.float64]) -> None:
        if not current:  # the first candidate list of a search is the whole question's
            current.update(x=x, sections=[f"{h.doc_id}#{section_of(h.provision_path)}"
                                          for h in hits])

    with Engine() as engine:
        searcher = engine.searcher
        searcher.reranker.model = None
        searcher.reranker.recorder = record
        for q in questions:
            current.clear()
            searcher.search(q.text, k=TOP_N)
            if not current:
                continue
            labels = [1.0 if s in (q.section, q.also) else 0.0 for s in current["sections"]]
            records.append({"q": q, "x": current["x"], "y": np.asarray(labels),
                            "sections": current["sections"]})
    return records


def fit(records: list[dict[str, Any]], l2: float = 1e-3, steps: int = 600,
        lr: float = 0.05) -> RankerModel:
    """Linear weights minimising the listwise softmax loss over questions with a positive
    (candidate lists padded to one length and masked, so a step is a few array ops)."""
    usable = [r for r in records if r["y"].any()]
    allx = np.vstack([r["x"] for r in usable])
    mean = allx.mean(axis=0)
    scale = allx.std(axis=0)
    scale[scale < 1e-9] = 1.0
    n = max(len(r["y"]) for r in usable)
    xs = np.zeros((len(usable), n, len(FEATURES)))
    ys = np.zeros((len(usable), n))
    mask = np.zeros((len(usable), n), dtype=bool)
    for i, r in enumerate(usable):
        m = len(r["y"])
        xs[i, :m] = (r["x"] - mean) / scale
        ys[i, :m] = r["y"]
        mask[i, :m] = True
    w = np.zeros(len(FEATURES))
    w[FEATURES.index("fused_rr")] = 1.0  # start from the fused order
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    for step in range(1, steps + 1):
        s = np.where(mask, xs @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        pos = p * ys
        q = pos / pos.sum(axis=1, keepdims=True)
        grad = l2 * w + np.einsum("qn,qnf->f", p - q, xs) / len(usable)
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    return RankerModel(FEATURES, w, mean, scale)


def recall(records: list[dict[str, Any]], model: RankerModel | None, k: int) -> float:
    """Share of questions whose answer section is among the first ``k`` distinct sections."""
    got = 0.0
    for r in records:
        order = range(len(r["y"])) if model is None else \
            np.argsort(-model.score(r["x"]), kind="stable")
        sections = list(dict.fromkeys(r["sections"][i] for i in order))
        got += float(bool({r["q"].section, r["q"].also} & set(sections[:k])))
    return round(got / max(len(records), 1), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-act", type=int, default=60)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--dump", type=Path, help="also write the questions (JSONL)")
    parser.add_argument("--records", type=Path,
                        help="cache of the recorded candidate features (pickle): read when "
                             "present, written otherwise; refits then skip the searches")
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--kinds", default="heading,penalty,definition,sentence,two-part",
                        help="question kinds to fit on (comma-separated)")
    args = parser.parse_args()
    os.environ["CIVICSETU_RERANK"] = "false"
    from civicsetu.config import Settings

    db = Settings().resolved_db_path
    questions = generate(db, args.per_act, args.seed)
    if args.dump:
        args.dump.write_text("".join(json.dumps({"text": q.text, "section": q.section,
                                                 "also": q.also, "kind": q.kind}) + "\n"
                                     for q in questions))
    if args.records and args.records.is_file():
        records = pickle.loads(args.records.read_bytes())
    else:
        records = collect(questions)
        if args.records:
            args.records.write_bytes(pickle.dumps(records))
    kinds = set(args.kinds.split(","))
    records = [r for r in records if r["q"].kind in kinds]
    docs = sorted({r["q"].doc_id for r in records})
    rng = random.Random(args.seed)
    held = set(rng.sample(docs, max(1, len(docs) // 4)))
    train = [r for r in records if r["q"].doc_id not in held]
    test = [r for r in records if r["q"].doc_id in held]
    half = fit(train, args.l2)
    report = {"questions": len(records), "acts": len(docs), "held_out_acts": len(held),
              "held_out_questions": len(test),
              "held_out_fused_r@1": recall(test, None, 1),
              "held_out_ranker_r@1": recall(test, half, 1),
              "held_out_fused_r@5": recall(test, None, 5),
              "held_out_ranker_r@5": recall(test, half, 5)}
    model = fit(records, args.l2)
    model.meta.update(report)
    model.meta["l2"] = args.l2
    model.meta["kinds"] = sorted(kinds)
    model.meta["trained_on"] = "questions generated from the training index's own Acts"
    model.save(args.out)
    print(json.dumps(report, indent=1))
    print(json.dumps(dict(zip(FEATURES, (round(float(x), 3) for x in model.weights),
                              strict=True)), indent=1))


if __name__ == "__main__":
    main()
