"""The answering graph (LangGraph ``StateGraph``): guard -> classify -> retrieve ->
generate -> validate -> finalize, with a bounded corrective loop around retrieval and a
bounded retry around generation (``Settings.llm_retries``). The state contract is in
``agent/state.py``.

With no LLM the generator is the extractive answerer; with one, the LLM writes from the
numbered, verified quotes the extractive answer would show (and only those: a short
context keeps a local model's cost per question low) and the validator checks every
citation, quote and number. A draft that still fails after any retry is cut to its
verified sentences, or replaced by the extractive answer; either way the extractive
quotes are shown with it, so an unverified sentence is never shown and the answer never
holds less than the extractive one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

from civicsetu.agent.classify import QueryType, classify_rules, classify_with_llm
from civicsetu.agent.prompts import (
    ANSWER_SYSTEM,
    ANSWER_USER,
    INSUFFICIENT,
    JUDGE_SYSTEM,
    JUDGE_USER,
    RETRY_NOTE,
    SOURCE,
)
from civicsetu.agent.state import AgentState
from civicsetu.agent.validate import carries_claim, sentences_of, validate_answer
from civicsetu.answer.amendments import amendment_notices
from civicsetu.answer.confidence import Confidence, assess_confidence
from civicsetu.answer.evidence import (
    Evidence,
    assess,
    lay_question_supported,
    missing_quantity,
)
from civicsetu.answer.extractive import answer_extractive, quoted_evidence
from civicsetu.answer.messages import (
    ABSTENTION,
    CONFLICT_NOTICE,
    DISCLAIMER,
    INJECTION_REFUSAL,
    LLM_ERROR_NOTICE,
    LLM_UNREACHABLE_NOTICE,
)
from civicsetu.guard.injection import screen
from civicsetu.guard.pii import find_pii, redact
from civicsetu.guard.scope import check_scope
from civicsetu.llm.base import LLM, Completion, LLMError, Message, ProviderUnavailable
from civicsetu.llm.pricing import Meter
from civicsetu.llm.streaming import generate
from civicsetu.search.decompose import search_decomposed
from civicsetu.search.hybrid import Searcher, SearchFilters, SearchResult, validate_query
from civicsetu.search.lexicon import expansions
from civicsetu.search.pooling import pooled
from civicsetu.store.base import Store
from civicsetu.types import Answer, Citation, Hit

log = logging.getLogger(__name__)

MAX_RETRIEVALS = 3  # the first retrieval and at most two corrective retries
# A bound on drafts whatever the settings say: the first and at most two retries. How many
# retries run is ``Settings.llm_retries`` (0 by default, docs/EVALUATION.md).
MAX_GENERATIONS = 3
# Tokens of a draft: the prompt asks for at most five sentences; the quotes follow it.
MAX_ANSWER_TOKENS = 256
# Below this best cosine the retrieval is retried with a rewritten query, and the retry is
# kept only when its best match is clearly better (measured: a looser loop cost recall@10).
CORRECTIVE_BELOW = 0.40
CORRECTIVE_MIN_GAIN = 0.02


class Agent:
    def __init__(self, searcher: Searcher, store: Store, abstain_below: float,
                 llm: LLM | None = None, top_k: int = 10,
                 llm_classifies: bool = False, llm_judges: bool = False) -> None:
        self.searcher = searcher
        self.store = store
        self.abstain_below = abstain_below
        self.llm = llm
        self.top_k = top_k
        # Off by default: a rule-based type costs nothing and a small local model
        # classifies worse than the rules (see docs/EVALUATION.md).
        self.llm_classifies = llm_classifies
        self.llm_judges = llm_judges
        self._graph: Any = None

    def run(self, query: str, filters: SearchFilters | None = None) -> Answer:
        t0 = time.perf_counter()
        state: AgentState = {"query": query, "filters": filters, "attempts": 0,
                             "generations": 0, "llm_calls": 0, "tokens": 0, "problems": []}
        final = self._run_graph(state) if self.llm is not None else self._run_straight(state)
        answer = final["answer"]
        answer.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 2)
        return answer

    # --- graph ------------------------------------------------------------------------

    def _run_graph(self, state: AgentState) -> AgentState:
        if self._graph is None:
            self._graph = self._build()
        final: AgentState = self._graph.invoke(state)
        return final

    def _run_straight(self, state: AgentState) -> AgentState:
        """With no LLM there is nothing to retry in generation, so the same nodes run in a
        straight line without importing LangGraph (it costs about a second per process)."""
        state.update(self._guard(state))
        if _after_guard(state) == "go":
            state.update(self._classify(state))
        if _after_guard(state) == "go" and _after_classify(state) == "go":
            state.update(self._retrieve(state))
            while self._after_retrieve(state) == "again":
                state.update(self._retrieve(state))
        state.update(self._finalize(state))
        return state

    def _build(self) -> Any:
        from langgraph.graph import END, START, StateGraph

        graph = StateGraph(AgentState)
        graph.add_node("guard", self._guard)
        graph.add_node("classify", self._classify)
        graph.add_node("retrieve", self._retrieve)
        graph.add_node("generate", self._generate)
        graph.add_node("validate", self._validate)
        graph.add_node("finalize", self._finalize)
        graph.add_edge(START, "guard")
        graph.add_conditional_edges("guard", _after_guard, {"refuse": "finalize",
                                                            "go": "classify"})
        graph.add_conditional_edges("classify", _after_classify, {"refuse": "finalize",
                                                                  "go": "retrieve"})
        graph.add_conditional_edges("retrieve", self._after_retrieve,
                                    {"again": "retrieve", "go": "generate"})
        graph.add_edge("generate", "validate")
        graph.add_conditional_edges("validate", self._after_validate,
                                    {"again": "generate", "done": "finalize"})
        graph.add_edge("finalize", END)
        return graph.compile()

    # --- nodes ------------------------------------------------------------------------

    def _guard(self, state: AgentState) -> AgentState:
        # Empty or overlong questions are input errors (exit 2), not refusals.
        query = validate_query(state["query"], self.searcher.settings.max_query_chars)
        pii = find_pii(query)
        log.info("question=%s", redact(query))
        if screen(query).flagged:
            return {"refusal": INJECTION_REFUSAL, "pii": pii}
        scope = check_scope(query)
        if scope.reason == "off-topic":
            # No legal word is not proof of no legal question ("he took my car on a trip
            # and damaged it"): the retrieval decides (``_finalize``), this only keeps
            # the refusal to show when the evidence is weak.
            return {"pii": pii, "off_topic": scope.message}
        if not scope.in_scope:
            return {"refusal": scope.message, "pii": pii, "query_type": "out_of_scope"}
        return {"pii": pii}

    def _classify(self, state: AgentState) -> AgentState:
        if self.llm is None or not self.llm_classifies:
            result = classify_rules(state["query"])
            return {"query_type": result.query_type.value, "rewritten": result.rewritten}
        result, completion = classify_with_llm(state["query"], self.llm)
        # The search keeps the user's words; the LLM's rewrite only adds to them.
        rewritten = state["query"] if result.rewritten == state["query"] else \
            f"{state['query']} {result.rewritten}"
        update: AgentState = {"query_type": result.query_type.value, "rewritten": rewritten}
        if completion is not None:
            update.update(_metered(state, "classify", completion))
        return update

    def _retrieve(self, state: AgentState) -> AgentState:
        attempts = state.get("attempts", 0)
        query = state["rewritten"]
        if attempts:
            query = _corrective_rewrite(state["query"], attempts)
        result, _ = search_decomposed(self.searcher, query, k=max(self.top_k, 10),
                                      filters=state.get("filters"), split_from=state["query"])
        if attempts and state.get("result") is not None:
            previous: SearchResult = state["result"]
            if (result.best_cosine or 0) < (previous.best_cosine or 0) + CORRECTIVE_MIN_GAIN:
                result = previous  # the rewrite did not find better evidence
            else:
                # The statute's words add to what the user's own words found, not replace
                # it: the two rankings are pooled.
                first: dict[str, Hit] = {}
                ids = pooled([previous.hits, result.hits], first)
                result = replace(result, hits=[first[pid] for pid in ids][:len(result.hits)])
        return {"result": result, "attempts": attempts + 1}

    def _after_retrieve(self, state: AgentState) -> str:
        result: SearchResult = state["result"]
        weak = result.best_cosine is not None and result.best_cosine < CORRECTIVE_BELOW
        pinned = any(h.pinned for h in result.hits)
        if weak and not pinned and state["attempts"] < MAX_RETRIEVALS:
            return "again"
        return "go"

    def _generate(self, state: AgentState) -> AgentState:
        result: SearchResult = state["result"]
        generations = state.get("generations", 0) + 1
        if self.llm is None:
            return {"generations": generations, "draft": "", "sources": []}
        confidence = self._confidence(state)
        evidence = self._assess(result, confidence)
        if not evidence.answerable or self._refused_off_topic(state, confidence):
            return {"generations": MAX_GENERATIONS, "draft": INSUFFICIENT, "sources": [],
                    "confidence": confidence}
        sources = state.get("sources")
        if not sources:
            settings = self.searcher.settings
            # The quotes the extractive answer would show: the LLM writes from those.
            shown, _ = quoted_evidence(result, self.store, self.searcher.documents,
                                       complete=settings.complete_answers)
            if settings.quantity_check and shown and missing_quantity(
                    result.analysis.query, [c.quote for c in shown]) is not None:
                # The extractive answer abstains here (it names the nearest provision);
                # the LLM is not asked to state a number its sources do not hold.
                return {"generations": MAX_GENERATIONS, "draft": "", "sources": [],
                        "confidence": confidence}
            sources = _safe_sources(shown)
        else:
            shown = state.get("shown") or sources
        if not sources:
            return {"generations": MAX_GENERATIONS, "draft": "", "sources": []}
        messages = [Message("system", ANSWER_SYSTEM),
                    Message("user", ANSWER_USER.format(question=state["query"],
                                                       sources=_numbered(sources)))]
        if state.get("problems"):
            messages.append(Message("assistant", state.get("draft", "")))
            messages.append(Message("user", RETRY_NOTE.format(
                problems="; ".join(state["problems"][:4]))))
        try:
            completion = generate(self.llm, messages, max_tokens=MAX_ANSWER_TOKENS,
                                  attempt=generations)
        except LLMError as exc:
            log.warning("llm_failed error=%s", exc)
            notice = (LLM_UNREACHABLE_NOTICE if isinstance(exc, ProviderUnavailable)
                      else LLM_ERROR_NOTICE).format(error=exc)
            return {"generations": MAX_GENERATIONS, "draft": "", "sources": sources,
                    "problems": [f"the LLM failed: {exc}"], "llm_error": notice}
        return {"generations": generations, "draft": completion.text.strip(),
                "sources": sources, "shown": shown, "confidence": confidence,
                **_metered(state, "generate", completion)}

    def _validate(self, state: AgentState) -> AgentState:
        if self.llm is None or not state.get("sources"):
            return {"problems": []}
        draft = state.get("draft", "")
        if draft.strip() == INSUFFICIENT:
            return {"problems": []}
        check = validate_answer(draft, state["sources"])
        if check.problems or not self.llm_judges:
            return {"problems": check.problems}
        return self._judge(state, draft)

    def _after_validate(self, state: AgentState) -> str:
        """Write again while the draft fails and retries are left (``llm_retries``)."""
        drafts = min(1 + self.searcher.settings.llm_retries, MAX_GENERATIONS)
        if state.get("problems") and state.get("generations", 0) < drafts:
            return "again"
        return "done"

    def _confidence(self, state: AgentState) -> Confidence:
        """The calibrated answer score of the kept retrieval, computed once per run."""
        known: Confidence | None = state.get("confidence")
        if known is not None:
            return known
        return assess_confidence(state["result"], self.searcher)

    def _refused_off_topic(self, state: AgentState, confidence: Confidence) -> bool:
        """The question has no legal word and its retrieval does not support it either."""
        if not state.get("off_topic"):
            return False
        settings = self.searcher.settings
        return not lay_question_supported(state["result"], confidence, self.abstain_below,
                                          settings.calibrated_abstention,
                                          settings.answer_score_floor)

    def _assess(self, result: SearchResult, confidence: Confidence | None) -> Evidence:
        """Answer or abstain; on the calibrated score when that setting is on, else on
        the best cosine."""
        settings = self.searcher.settings
        return assess(result, self.store, self.searcher.documents, self.abstain_below,
                      confidence if settings.calibrated_abstention else None,
                      settings.answer_score_floor, self.searcher.law_names)

    def _judge(self, state: AgentState, draft: str) -> AgentState:
        """The optional second layer: the LLM reads the answer against its sources."""
        assert self.llm is not None
        messages = [Message("system", JUDGE_SYSTEM),
                    Message("user", JUDGE_USER.format(sources=_numbered(state["sources"]),
                                                      answer=draft))]
        try:
            completion = self.llm.complete(messages, max_tokens=5)
        except LLMError as exc:
            return {"problems": [f"the judge failed: {exc}"]}
        verdict = completion.text.strip().upper()
        problems = [] if verdict.startswith("YES") else [
            "the judge found a sentence the cited sources do not support"]
        return {"problems": problems, **_metered(state, "judge", completion)}

    def _finalize(self, state: AgentState) -> AgentState:
        query = state["query"]
        if state.get("refusal"):
            return {"answer": Answer(query, state["refusal"], True, [], [],
                                     query_type=state.get("query_type", "refused"),
                                     confidence="")}
        result: SearchResult = state["result"]
        confidence = self._confidence(state)
        if self._refused_off_topic(state, confidence):
            return {"answer": Answer(query, state["off_topic"], True, [], [],
                                     query_type="out_of_scope", confidence="",
                                     score=confidence.score)}
        draft = state.get("draft", "")
        sources = state.get("sources") or []
        dropped: list[str] = []
        if self.llm is not None and sources and draft and draft.strip() != INSUFFICIENT:
            # Fall back per sentence, not per answer: the verified sentences stay. A draft
            # that passed is filtered too: a sentence that cites nothing passes the check
            # with a claim of law in few of its sources' words ("you can appeal to the
            # Central Authority"), and is not shown.
            draft, dropped = verified_sentences(draft, sources)
        llm_wrote = self.llm is not None and bool(sources) and bool(draft) \
            and draft.strip() != INSUFFICIENT and (not state.get("problems") or bool(dropped))
        # The LLM saying INSUFFICIENT over evidence the checks found answerable does not
        # hide that evidence: the verified quotes are shown instead (an LLM adds, never
        # subtracts). With no sources the evidence itself was insufficient: abstain.
        llm_abstains = draft.strip() == INSUFFICIENT and not sources
        if self.llm is not None and (llm_wrote or llm_abstains):
            # The extractive answer is only the fallback; here the evidence notices suffice.
            notices = self._assess(result, confidence).notices
            if llm_wrote:
                # The quotes the LLM was given before screening (computed once, in generate).
                shown = state.get("shown") or sources
                if dropped:
                    notices = [*notices, f"{len(dropped)} sentence(s) of the LLM's answer "
                               "failed verification and were left out."]
                answer = _llm_answer(query, draft, sources, result, notices, shown)
            else:
                answer = Answer(query, ABSTENTION, True, [], result.hits,
                                dict(result.timings_ms), notices)
            answer.generator = self.llm.name
        else:
            settings = self.searcher.settings
            answer = answer_extractive(result, self.store, self.searcher.documents,
                                       self.abstain_below, settings.complete_answers,
                                       confidence if settings.calibrated_abstention
                                       else None, settings.answer_score_floor,
                                       settings.quantity_check, self.searcher.law_names)
            if self.llm is not None and state.get("llm_error"):
                answer.notices.append(state["llm_error"])
            elif self.llm is not None and state.get("problems"):
                answer.notices.append("The LLM's answer failed verification ("
                                      + "; ".join(state["problems"][:3])
                                      + "); the verified quotes are shown instead.")
            elif self.llm is not None and dropped:
                answer.notices.append("No sentence of the LLM's answer cites a source and "
                                      "says what it says; the verified quotes are shown "
                                      "instead.")
        answer.query = query  # the user's words, not a corrective rewrite
        answer.query_type = state.get("query_type", "")
        answer.confidence = "" if answer.abstained else _confidence(answer, result)
        answer.score = confidence.score
        if confidence.ms:
            answer.timings_ms["score"] = confidence.ms
        answer.llm_calls = state.get("llm_calls", 0)
        answer.tokens = state.get("tokens", 0)
        meter = Meter(dict(state.get("usage", {})))
        answer.usage_by_call, answer.cost_usd = meter.by_call, meter.cost_usd
        answer.notices += amendment_notices(self.store, answer.citations, result.as_of)
        if answer.query_type == QueryType.CONFLICT_DETECTION.value:
            answer.notices += _conflict_notice(self.searcher, answer.citations)
        return {"answer": answer}


# --- routing and helpers -------------------------------------------------------------

def _after_guard(state: AgentState) -> str:
    return "refuse" if state.get("refusal") else "go"


def _after_classify(state: AgentState) -> str:
    return "refuse" if state.get("query_type") == QueryType.OUT_OF_SCOPE.value else "go"


def _metered(state: AgentState, call_type: str, completion: Completion) -> AgentState:
    """Count a call: totals for the answer, and tokens and cost by call type."""
    meter = Meter({k: dict(v) for k, v in state.get("usage", {}).items()})
    meter.add(call_type, completion)
    return {"llm_calls": state.get("llm_calls", 0) + 1,
            "tokens": state.get("tokens", 0) + completion.usage.total,
            "usage": meter.by_call}


def _corrective_rewrite(query: str, attempt: int) -> str:
    """Retry with the statute's own words for the user's (builder -> promoter ...)."""
    extra = expansions(query)
    return f"{query} {' '.join(extra)}" if extra and attempt == 1 else query


def _safe_sources(sources: list[Citation]) -> list[Citation]:
    """Retrieved text that carries instructions never reaches the LLM; the extractive
    answer may still quote it, since a verbatim quote cannot be steered."""
    kept = [c for c in sources if not screen(c.quote).flagged]
    if len(kept) < len(sources):
        log.warning("dropped %d retrieved passages that carry instructions",
                    len(sources) - len(kept))
    return kept


def _numbered(sources: list[Citation]) -> str:
    return "\n".join(SOURCE.format(n=i, label=c.label, text=c.quote)
                     for i, c in enumerate(sources, start=1))


def verified_sentences(draft: str, sources: list[Citation]) -> tuple[str, list[str]]:
    """The draft's sentences that cite a source, pass validation on their own and say
    something their sources say, joined; and the sentences left out."""
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in sentences_of(draft):
        check = validate_answer(sentence, sources)
        ok = check.cited and not check.problems and \
            carries_claim(sentence, [sources[n - 1] for n in check.cited])
        (kept if ok else dropped).append(sentence.strip())
    return (" ".join(kept) if kept else ""), dropped


def _llm_answer(query: str, draft: str, sources: list[Citation], result: SearchResult,
                notices: list[str], extractive: list[Citation] | None = None) -> Answer:
    """The LLM's verified prose, the sources it cites, then the quotes the extractive
    answer would show that it did not cite, so the shown answer never holds less."""
    cited = [sources[n - 1] for n in validate_answer(draft, sources).cited]
    lines = [draft, ""]
    for i, c in enumerate(sources, start=1):
        if c in cited:
            lines.append(f"[{i}] {c.label}" + (f" — {c.title}" if c.title else "") + ":")
            lines.append(f"“{c.quote}”")
            lines.append("")
    seen = {(c.provision_id, c.quote) for c in cited}
    more = [c for c in extractive or [] if (c.provision_id, c.quote) not in seen
            and not any(c.quote in s.quote for s in cited)]
    if more:
        lines.append("Also quoted:")
        for c in more:
            lines.append(f"- {c.label}" + (f" — {c.title}" if c.title else "") + ":")
            lines.append(f"“{c.quote}”")
            lines.append("")
    cited = cited + more
    lines.append(DISCLAIMER)
    return Answer(query, "\n".join(lines), False, cited, result.hits,
                  dict(result.timings_ms), list(notices))


def _confidence(answer: Answer, result: SearchResult) -> str:
    """From the evidence: a pinned provision or a strong match quoted twice is high."""
    cosine = result.best_cosine or 0.0
    pinned = any(h.pinned for h in result.hits)
    if pinned or (cosine >= 0.6 and len(answer.citations) >= 2):
        return "high"
    if cosine >= 0.45:
        return "medium"
    return "low"


def _conflict_notice(searcher: Searcher, citations: list[Citation]) -> list[str]:
    """Only when provisions of two documents are both quoted in the answer."""
    docs = list(dict.fromkeys(c.provision_id.partition("#")[0] for c in citations))
    if len(docs) < 2:
        return []
    titles = searcher.titles
    return [CONFLICT_NOTICE.format(first=titles.get(docs[0], docs[0]),
                                   second=titles.get(docs[1], docs[1]))]
