"""Conversations: follow-up questions, a sliding window of turns, grounded suggestions.

Each turn runs a small LangGraph graph — contextualize -> answer -> suggest — whose state
is persisted per session by LangGraph's SQLite checkpointer
(``$CIVICSETU_HOME/sessions.db``), so ``civicsetu chat --session NAME`` resumes where it
stopped.

- Rewrite guard: a follow-up that leans on the last turn ("what about the penalty for
  that?", "and the deadline?") is rewritten into a self-contained question naming the
  provision the last answer cited; a question that already stands alone passes through.
- Sliding window: only the last ``WINDOW`` turns are kept in the state.
- Suggestions: three follow-ups grounded in the corpus — deepen (a provision the cited one
  refers to), broaden (the next provision retrieved for the question), risk (a penalty
  provision that cites the answer's provision) — selectable by typing 1-3. A bare number
  that picks none of them (or comes before any) is answered with the numbers that are
  valid; it is never searched as a question.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.runnables import RunnableConfig

from civicsetu.agent.pipeline import Agent
from civicsetu.answer.messages import NO_SUCH_SUGGESTION, NO_SUGGESTIONS_TO_PICK
from civicsetu.ingest.chunker import display_path
from civicsetu.search.hybrid import SearchFilters
from civicsetu.store.base import Store
from civicsetu.types import Answer, section_of

WINDOW = 6
_PRONOUN = re.compile(
    r"\b(?:that|this|it|the\s+same|the\s+above|the\s+said)\b(?!\s+(?:is|was)\b)",
    re.IGNORECASE)
_CONTINUATION = re.compile(r"^\s*(?:and|what\s+about|how\s+about|also|then|so)\b",
                           re.IGNORECASE)
_STANDALONE = re.compile(r"\b(?:section|rule|s\.)\s*\d+|\bact\b|\brera\b|\bcode\b",
                         re.IGNORECASE)
SHORT_WORDS = 6
_PENALTY_TITLE = re.compile(r"penalt|punish|offence|fine", re.IGNORECASE)
# What a user types to pick a suggestion: "2", "#2", "2.", "(2)".
_PICK = re.compile(r"[#(]?\s*(\d{1,6})\s*[.)]?")


@dataclass(frozen=True, slots=True)
class Suggestion:
    kind: str  # deepen | broaden | risk
    question: str


def _keep_window(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return (old + new)[-WINDOW:]


class ConversationState(TypedDict, total=False):
    question: str
    standalone: str
    anchor: str | None
    turns: Annotated[list[dict[str, Any]], _keep_window]
    answer: dict[str, Any]
    suggestions: list[dict[str, str]]


class Conversation:
    """One object per process; sessions are told apart by ``session`` ids."""

    def __init__(self, agent: Agent, store: Store, sessions_db: Path,
                 filters: SearchFilters | None = None) -> None:
        from langgraph.checkpoint.sqlite import SqliteSaver
        from langgraph.graph import END, START, StateGraph

        self.agent = agent
        self.store = store
        self.filters = filters
        self._answers: dict[str, Answer] = {}
        sessions_db.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(sessions_db, check_same_thread=False)
        self._saver = SqliteSaver(self._conn)
        graph = StateGraph(ConversationState)
        graph.add_node("contextualize", self._contextualize)
        graph.add_node("answer", self._answer)
        graph.add_node("suggest", self._suggest)
        graph.add_edge(START, "contextualize")
        graph.add_edge("contextualize", "answer")
        graph.add_edge("answer", "suggest")
        graph.add_edge("suggest", END)
        self._graph = graph.compile(checkpointer=self._saver)

    def close(self) -> None:
        self._conn.close()

    def ask(self, session: str, question: str) -> tuple[Answer, str, list[Suggestion]]:
        """Answer ``question`` in ``session``; returns the answer, the standalone question
        that was searched, and three suggestions. ``1``-``3`` picks a suggestion; a bare
        number that picks none gets a reply naming the valid ones (nothing is searched:
        the standalone question is "", and the suggestions offered stay the same)."""
        config: RunnableConfig = {"configurable": {"thread_id": session}}
        previous = self._graph.get_state(config).values
        picked = _PICK.fullmatch(question.strip())
        if picked is not None:
            options = previous.get("suggestions") or []
            number = int(picked.group(1))
            if not 1 <= number <= len(options):
                return (_no_such_suggestion(question, number, len(options),
                                            bool(previous.get("turns"))), "",
                        [Suggestion(o["kind"], o["question"]) for o in options])
            question = options[number - 1]["question"]
        out = self._graph.invoke({"question": question}, config)
        answer = self._answers.pop(session + "\x1f" + out["standalone"])
        return answer, out["standalone"], [Suggestion(s["kind"], s["question"])
                                           for s in out.get("suggestions", [])]

    def history(self, session: str) -> list[dict[str, Any]]:
        config: RunnableConfig = {"configurable": {"thread_id": session}}
        values = self._graph.get_state(config).values
        turns: list[dict[str, Any]] = values.get("turns", [])
        return turns

    # --- nodes ------------------------------------------------------------------------

    def _contextualize(self, state: ConversationState) -> dict[str, Any]:
        standalone, anchor = rewrite_follow_up(state["question"], state.get("turns", []),
                                               self.store)
        return {"standalone": standalone, "anchor": anchor}

    def _answer(self, state: ConversationState, config: RunnableConfig) -> dict[str, Any]:
        answer = self.agent.run(state["standalone"], self.filters)
        session = str(config.get("configurable", {}).get("thread_id", ""))
        self._answers[session + "\x1f" + state["standalone"]] = answer
        turn = {"question": state["question"], "standalone": state["standalone"],
                "anchor": state.get("anchor"),
                "answer": answer.text.split("\n")[0], "abstained": answer.abstained,
                "cited": [c.provision_id for c in answer.citations],
                "retrieved": [h.provision_id for h in answer.retrieved[:5]]}
        return {"turns": [turn], "answer": turn}

    def _suggest(self, state: ConversationState) -> dict[str, Any]:
        turn = state["answer"]
        return {"suggestions": [{"kind": s.kind, "question": s.question}
                                for s in suggest(turn, self.store)]}


def _no_such_suggestion(typed: str, number: int, offered: int, asked_before: bool) -> Answer:
    """The reply to a bare number that picks none of the ``offered`` suggestions."""
    if offered:
        numbers = [str(i) for i in range(1, offered + 1)]
        valid = numbers[0] if offered == 1 else f"{', '.join(numbers[:-1])} or {numbers[-1]}"
        text = NO_SUCH_SUGGESTION.format(number=number, valid=valid)
    else:
        text = NO_SUGGESTIONS_TO_PICK.format(
            when="after the last answer" if asked_before else "yet")
    return Answer(typed, text, True, [], [])


def rewrite_follow_up(question: str, turns: list[dict[str, Any]],
                      store: Store) -> tuple[str, str | None]:
    """Make a follow-up self-contained using the last turn; pass others through.

    A pronoun ("that penalty", "file it") is replaced by the section the last answer was
    about; a bare continuation ("what about ...", "and ...") only gets the last turn's
    Act as its scope, so it is searched for its own content.
    """
    text = " ".join(question.split())
    if not turns or _STANDALONE.search(text):
        return text, None
    last = turns[-1]
    words = re.findall(r"[A-Za-z0-9']+", text)
    pronoun = _PRONOUN.search(text)
    if not pronoun and not _CONTINUATION.search(text) and len(words) >= SHORT_WORDS:
        return text, None
    section = anchor_of(last, store)
    subject, act = _anchor(section, store)
    if not subject:
        return f"{text.rstrip('?')} (about: {last['standalone']})?", None
    if pronoun:
        terms = _asked_terms(last, section, store) if pronoun.group(0).lower() == "it" else []
        if len(terms) == 1:
            # A bare "it" is the one thing the last question asked about ("Who hears an
            # appeal ...?" then "file it": the appeal), searched for in the Act; the
            # section the last answer quoted for it need not be the one that answers.
            return f"{_PRONOUN.sub(f'the {terms[0]}', text, count=1).rstrip('?')} " \
                f"under the {act}?", section
        return _PRONOUN.sub(subject, text, count=1), section
    return f"{text.rstrip('?')} under the {act}?", None


def _asked_terms(turn: dict[str, Any], section: str | None, store: Store) -> list[str]:
    """The words of the turn's question that its anchored section's title or quoted text
    holds ("Who hears an appeal against that penalty?" anchored to s.43: "appeal")."""
    if section is None:
        return []
    question = _PRONOUN_PHRASE.sub(" ", turn.get("question", ""))
    quoted = [c for c in turn.get("cited") or [] if c.startswith(section)]
    try:
        held = " ".join([store.provision(section).title]
                        + [store.provision(c).text for c in quoted]).lower()
    except Exception:
        return []
    return list(dict.fromkeys(w for w in re.findall(r"[a-z]{4,}", question.lower())
                              if _content_words(w) and next(iter(_content_words(w))) in held))


def anchor_of(turn: dict[str, Any], store: Store) -> str | None:
    """The section a turn was about. For a fresh question, its first citation; for a
    follow-up anchored to an earlier section, the citation (that section excepted) whose
    title best matches the follow-up's own words ("appeal" -> the appeals section)."""
    cited = turn.get("cited") or turn.get("retrieved") or []
    came_from = turn.get("anchor")
    if came_from is None:  # a fresh question: its answer's first citation is its subject
        first = next(iter(cited), None)
        return f"{first.partition('#')[0]}#{section_of(first.partition('#')[2])}" \
            if first else None
    question = _PRONOUN_PHRASE.sub(" ", turn.get("question", ""))
    words = _content_words(question)
    candidates: dict[str, list[str]] = {}  # section -> the provisions of it cited
    for full_id in cited:
        doc_id, _, path = full_id.partition("#")
        section = f"{doc_id}#{section_of(path)}"
        if section != came_from:
            candidates.setdefault(section, []).append(full_id)
    best, best_hits = None, 0.0
    for section, quoted in candidates.items():
        try:
            title = store.provision(section).title.lower()
            text = " ".join(store.provision(q).text.lower() for q in quoted)
        except Exception:
            continue
        # The title says what the section is about; the quoted text breaks a tie ("may
        # prefer an appeal before the Appellate Tribunal" under a title that names none).
        hits = sum(w in title for w in words) + 0.5 * sum(w in text for w in words)
        if hits > best_hits:
            best, best_hits = section, hits
    # No other section cited (answers quote fewer, better provisions): the turn stayed on
    # the section it came from.
    return best or next(iter(candidates), came_from)


def _content_words(text: str) -> set[str]:
    """Crude stems (``appeals`` -> ``appeal``, ``registering`` -> ``register``)."""
    words = {re.sub(r"(?:ing|ed|es|s)$", "", w) for w in re.findall(r"[a-z]{4,}", text.lower())}
    return {w for w in words if len(w) >= 4} - _FUNCTION_WORDS


# The noun after "that"/"this" names the old subject, not the new question's content.
_PRONOUN_PHRASE = re.compile(r"\b(?:that|this|the\s+same|the\s+said)\s+\w+", re.IGNORECASE)
_FUNCTION_WORDS = {"what", "which", "where", "there", "their", "about", "under", "shall",
                   "provision", "section", "again", "against", "would", "could", "should",
                   "hear", "does", "have", "with", "from", "into", "they", "them"}


def _anchor(found: str | None, store: Store) -> tuple[str, str]:
    """(``section 44 of the Real Estate (Regulation and Development) Act, 2016``, Act)."""
    if found is None:
        return "", ""
    doc_id, _, path = found.partition("#")
    try:
        document = store.document(doc_id)
    except Exception:
        return "", ""
    return f"{display_path(path).lower()} of the {document.title}", document.short_title


def suggest(turn: dict[str, Any], store: Store) -> list[Suggestion]:
    """Deepen, broaden, risk: each names a real provision found in the corpus."""
    cited: list[str] = turn.get("cited", [])
    retrieved: list[str] = turn.get("retrieved", [])
    if not cited:
        return []
    top = cited[0]
    doc_id, _, path = top.partition("#")
    section = f"{doc_id}#{section_of(path)}"
    out: list[Suggestion] = []
    refs = [e.dst for e in store.edges(top, "out", ["REFERENCES"])] + \
        [e.dst for e in store.edges(section, "out", ["REFERENCES"])]
    refs = [r for r in dict.fromkeys(refs) if "#" in r and r != top]
    if refs:
        out.append(Suggestion("deepen", f"What does {_label(refs[0], store)} say?"))
    else:
        out.append(Suggestion("deepen", f"What exactly does {_label(section, store)} "
                                        "require?"))
    others = [r for r in retrieved + cited if section_of(r.partition("#")[2]) !=
              section_of(path)]
    if others:
        out.append(Suggestion("broaden", f"What does {_label(others[0], store)} add?"))
    penalties = [e.src for e in store.edges(section, "in", ["REFERENCES"])]
    penalties += [e.src for e in store.edges(top, "in", ["REFERENCES"])]
    for src in dict.fromkeys(penalties):
        src_doc, _, src_path = src.partition("#")
        if f"{src_doc}#{section_of(src_path)}" == section:
            continue  # the section's own sub-sections are not a separate risk
        try:
            title = store.provision(f"{src_doc}#{section_of(src_path)}").title
        except Exception:
            continue
        if _PENALTY_TITLE.search(title):
            out.append(Suggestion("risk", f"What is the penalty under {_label(src, store)} "
                                          f"for breaking {display_path(section_of(path))}?"))
            break
    return out[:3]


def _label(full_id: str, store: Store) -> str:
    doc_id, _, path = full_id.partition("#")
    try:
        short = store.document(doc_id).short_title or doc_id
    except Exception:
        short = doc_id
    return f"{display_path(path)} of the {short}"
