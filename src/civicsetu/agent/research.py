"""Research mode for multi-hop questions: plan, retrieve per step, evaluate, replan.

- Memory: a question within cosine 0.92 of one answered before over the same corpus gets
  the stored answer (the cache is keyed by a fingerprint of the ingested documents, so it
  empties itself when the corpus changes).
- Planner: the question is split into at most three steps (its sub-questions); an LLM,
  when set, may plan instead, with the rule-based plan as its fallback.
- The first step is the whole question, and it quotes what a plain answer quotes, so
  research never shows less than ``ask``; the later steps add to it.
- Each later step runs a primary query and two alternatives (the statute's words for the
  user's, and the key terms alone); the rankings are pooled by reciprocal rank, and
  provisions already used by an earlier step are skipped. The best three new provisions
  of the primary query's own words (searched without citation-graph neighbours) lead the
  pool: the three searches share one seed, so pooling would otherwise lift that seed's
  neighbours over what the step itself found.
- Evaluator: a step is answered when its best evidence clears the abstention floor and
  brings a provision the earlier steps did not; a failed step is replanned once with the
  alternatives as its primary; two steps in a row with nothing new stop the run.
- Multiple choice: when the question lists options ``(a) ... (b) ...``, the option best
  supported by the gathered quotes is selected.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field

import numpy as np

from civicsetu.agent.pipeline import Agent
from civicsetu.answer.extractive import quoted_evidence
from civicsetu.answer.messages import ABSTENTION, DISCLAIMER
from civicsetu.answer.verify import fold
from civicsetu.search.decompose import decompose, scoped, search_decomposed
from civicsetu.search.hybrid import SearchFilters, SearchResult
from civicsetu.search.lexicon import expansions
from civicsetu.search.pooling import pooled
from civicsetu.search.query import STOPWORDS, named_documents
from civicsetu.types import Answer, Citation, Hit

MAX_STEPS = 3
MEMORY_COSINE = 0.92
QUOTES_PER_STEP = 3
OWN_LEAD = QUOTES_PER_STEP  # a later step's own provisions placed before graph neighbours
_CHOICES = re.compile(r"\(([a-dA-D])\)\s*([^()]+?)(?=\s*\([a-dA-D]\)|\s*$|\?)")


@dataclass(slots=True)
class Step:
    question: str
    queries: list[str]
    provisions: list[str] = field(default_factory=list)
    answered: bool = False
    replanned: bool = False


@dataclass(slots=True)
class ResearchRun:
    answer: Answer
    steps: list[Step]
    from_memory: bool = False
    choice: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)


class Researcher:
    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.searcher = agent.searcher
        self.store = agent.store

    def run(self, question: str, filters: SearchFilters | None = None) -> ResearchRun:
        t0 = time.perf_counter()
        remembered = self._recall(question)
        if remembered is not None:
            return ResearchRun(remembered, [], from_memory=True,
                               metrics={"steps": 0, "llm_calls": 0, "seconds": 0.0})
        mentions = [question[s:e] for _, s, e in
                    named_documents(question, self.searcher.aliases)]
        steps = [Step(q, _alternatives(q)) for q in plan(question, mentions)]
        scope = filters
        used: set[str] = set()
        citations: list[Citation] = []
        hits: list[Hit] = []
        stagnant = 0
        chars = 0
        plain: list[Citation] | None = None
        for n, step in enumerate(steps):
            if n == 0:
                # The whole question's step is the plain answer's retrieval (searched once:
                # its quotes are the base the later steps add to).
                result, plain = self._plain(question, filters)
                step.queries = [question]
            else:
                result = self._pooled(step.queries, scope, used)
            if n > 0 and not self._answered(result, used) and not step.replanned:
                step.replanned = True
                step.queries = step.queries[1:] + step.queries[:1]
                result = self._pooled(step.queries, scope, used)
            if n == 0 and len(steps) > 1:
                # Later steps keep the whole question's Act(s), as in a plain answer.
                docs = result.analysis.named_docs + result.analysis.implied_docs or \
                    [h.doc_id for h in result.hits[:1]]
                scope = scoped(filters, docs)
            new = [h for h in result.hits if h.provision_id not in used]
            step.provisions = [h.provision_id for h in new[:5]]
            step.answered = self._answered(result, used)
            if not new:
                stagnant += 1
                if stagnant >= 2:
                    break
                continue
            stagnant = 0
            if n == 0:
                # The whole question's step quotes what a plain answer quotes, so research
                # starts from the plain answer and the later steps only add to it.
                quotes = plain or quoted_evidence(
                    result, self.store, self.searcher.documents, QUOTES_PER_STEP)[0]
            else:
                quotes, _ = quoted_evidence(result, self.store, self.searcher.documents,
                                            QUOTES_PER_STEP)
            quotes = [c for c in quotes if c.provision_id not in
                      {x.provision_id for x in citations}]
            citations += quotes
            chars += sum(len(c.quote) for c in quotes)
            # Only what was quoted is used up: a provision a step retrieved but did not
            # quote stays available to the step that needs it.
            used.update(c.provision_id for c in quotes)
            hits += [h for h in new[:5] if h.provision_id not in {x.provision_id for x in hits}]
        choice = select_choice(question, citations)
        answer = _compose(question, steps, citations, hits, choice)
        self._remember(question, answer)
        metrics = {"steps": float(len(steps)), "llm_calls": 0.0, "chars": float(chars),
                   "seconds": round(time.perf_counter() - t0, 3)}
        return ResearchRun(answer, steps, choice=choice, metrics=metrics)

    # --- retrieval ----------------------------------------------------------------------

    def _pooled(self, queries: list[str], filters: SearchFilters | None,
                used: set[str]) -> SearchResult:
        results = [self.searcher.search(q, k=10, filters=filters) for q in queries]
        own = [self.searcher.search(queries[0], k=10, filters=filters, graph=False)]
        first: dict[str, Hit] = {}
        pooled_ids = pooled([r.hits for r in results], first)
        own_ids = pooled([r.hits for r in own], first)
        lead = [pid for pid in own_ids if pid not in used][:OWN_LEAD]
        ranked = lead + [pid for pid in pooled_ids if pid not in lead]
        fresh = [pid for pid in ranked if pid not in used] + [pid for pid in ranked if pid in used]
        primary = results[0]
        return SearchResult(primary.analysis, [first[pid] for pid in fresh][:10],
                            primary.family, max((r.best_cosine or 0.0) for r in results),
                            primary.timings_ms, primary.as_of, primary.unfound,
                            primary.not_yet_law)

    def _plain(self, question: str, filters: SearchFilters | None
               ) -> tuple[SearchResult, list[Citation]]:
        """A plain answer's retrieval for ``question`` and the quotes its extractive answer
        shows (none when its evidence is below the abstention floor)."""
        result, _ = search_decomposed(self.searcher, question, k=max(self.agent.top_k, 10),
                                      filters=filters)
        if (result.best_cosine or 0.0) < self.agent.abstain_below:
            return result, []
        return result, quoted_evidence(result, self.store, self.searcher.documents,
                                       complete=self.searcher.settings.complete_answers)[0]

    def _answered(self, result: SearchResult, used: set[str]) -> bool:
        strong = (result.best_cosine or 0.0) >= self.agent.abstain_below
        return strong and any(h.provision_id not in used for h in result.hits[:5])

    # --- memory -------------------------------------------------------------------------

    def _fingerprint(self) -> str:
        hashes = sorted(d.content_hash for d in self.store.documents())
        return hashlib.sha256("".join(hashes).encode()).hexdigest()[:16]

    def _recall(self, question: str) -> Answer | None:
        rows = self.store.qa_memory(self._fingerprint())
        if not rows:
            return None
        vector = self.searcher.embedder.embed_query(question)
        best, best_score = None, 0.0
        for stored_vector, payload in rows:
            score = float(np.dot(vector, stored_vector))
            if score > best_score:
                best, best_score = payload, score
        if best is None or best_score < MEMORY_COSINE:
            return None
        data = json.loads(best)
        citations = [Citation(**c) for c in data["citations"]]
        return Answer(question, data["text"], data["abstained"], citations, [],
                      notices=["Answered from research memory (a question within cosine "
                               f"{best_score:.2f} of this one)."], query_type="multi_hop")

    def _remember(self, question: str, answer: Answer) -> None:
        if answer.abstained:
            return
        vector = self.searcher.embedder.embed_query(question)
        payload = json.dumps({"text": answer.text, "abstained": answer.abstained,
                              "citations": [_citation_dict(c) for c in answer.citations]})
        self.store.remember_qa(self._fingerprint(), question, vector, payload)


def plan(question: str, mentions: list[str] | None = None) -> list[str]:
    """At most three sub-questions, in the order asked: the same decomposition as a plain
    answer (``search/decompose.py``), each part keeping the question's Acts and parties."""
    body = _CHOICES.sub("", question)
    # Each step keeps the whole question's Acts and parties, the compared sides' too:
    # gold-section coverage 0.677 against 0.642 with sides=True (docs/EVALUATION.md).
    parts = [s.text for s in decompose(body, mentions or [], sides=False)]
    if len(parts) <= 1:
        return [question]
    # The whole question leads: what one retrieval finds for it is the base that the
    # later steps add to, so research never knows less than a plain answer.
    return [question, *parts[1:]][:MAX_STEPS]


def _alternatives(question: str) -> list[str]:
    terms = expansions(question)
    statute = f"{question} {' '.join(terms)}" if terms else question
    keywords = " ".join(w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", question)
                        if w.lower() not in STOPWORDS)
    return [question, statute, keywords or question]


def select_choice(question: str, citations: list[Citation]) -> str | None:
    """The listed option whose words the gathered quotes support best."""
    options = _CHOICES.findall(question)
    if len(options) < 2 or not citations:
        return None
    evidence = fold(" ".join(c.quote for c in citations)).lower()
    def support(text: str) -> float:
        words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOPWORDS]
        return sum(w in evidence for w in words) / max(len(words), 1)
    best = max(options, key=lambda o: support(o[1]))
    return str(best[0]).lower()


def _compose(question: str, steps: list[Step], citations: list[Citation], hits: list[Hit],
             choice: str | None) -> Answer:
    if not citations:
        return Answer(question, ABSTENTION, True, [], hits, query_type="multi_hop")
    lines = []
    if choice:
        lines += [f"The quoted provisions support option ({choice}).", ""]
    lines.append(f"Researched in {len(steps)} step{'s' if len(steps) > 1 else ''}:")
    for i, step in enumerate(steps, start=1):
        mark = "" if step.answered else " (no new provision found)"
        lines.append(f"{i}. {step.question}{mark}")
    lines.append("")
    for i, c in enumerate(citations, start=1):
        lines.append(f"[{i}] {c.label}" + (f" — {c.title}" if c.title else "") + ":")
        lines.append(f"“{c.quote}”")
        lines.append("")
    lines.append(DISCLAIMER)
    return Answer(question, "\n".join(lines), False, citations, hits, query_type="multi_hop",
                  confidence="medium" if all(s.answered for s in steps) else "low")


def _citation_dict(c: Citation) -> dict[str, object]:
    return {"provision_id": c.provision_id, "label": c.label, "title": c.title,
            "quote": c.quote, "start": c.start, "end": c.end}
