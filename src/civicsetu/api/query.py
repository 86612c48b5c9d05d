"""Answering routes: ``POST /api/v1/query``, its SSE twin ``/query/stream`` and
conversation turns ``POST /api/v1/sessions/{id}/messages``.

The stream is honest: token events only while an LLM is generating (a draft that the
validator may still replace; the ``answer`` event carries what is shown), and an extractive
or cached answer is a single ``answer`` event. Event order: ``meta``, ``token``*, ``answer``,
``final`` (or ``error``). A client that goes away cancels the generation.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import StreamingResponse

from civicsetu.agent.conversation import suggest
from civicsetu.answer.messages import DISCLAIMER
from civicsetu.api.cache import cache_key
from civicsetu.api.models import (
    QueryRequest,
    QueryResponse,
    SessionMessageRequest,
    SessionMessageResponse,
    SuggestionOut,
)
from civicsetu.api.problems import ApiProblem, problem_body, status_of
from civicsetu.api.state import ServiceState
from civicsetu.errors import CivicSetuError
from civicsetu.llm.streaming import token_sink
from civicsetu.search.hybrid import SearchFilters
from civicsetu.serialize import answer_to_dict

router = APIRouter(prefix="/api/v1", tags=["answers"])

# Before OpenAPI 3.2 the schema of an event-stream describes one event.
SSE_EVENT_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["meta", "token", "answer", "final", "error"]},
        "data": {"type": "string", "contentMediaType": "application/json",
                 "description": "meta {request_id}; token {text, attempt}; answer {answer, "
                                "generator, cached}; final QueryResponse; error Problem."},
    },
}


class StreamCancelled(Exception):
    """The client of a stream went away; raised inside the generation to stop it."""


def _state(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.civicsetu
    return state


def pick_llm(state: ServiceState, wanted: str | None) -> str | None:
    """The LLM spec a request may use: the server default, ``none``, or a listed choice."""
    if wanted is None:
        return None
    allowed = {"none", *(state.settings.api.llm_choices)}
    if state.settings.llm:
        allowed.add(state.settings.llm)
    if wanted not in allowed:
        raise ApiProblem(400, f"llm {wanted!r} is not offered by this server; choose one of "
                         f"{', '.join(sorted(allowed))}", "llm-not-offered")
    return wanted


def filters_of(documents: list[str] | None, jurisdiction: str | None, doc_type: str | None,
               as_of: Any) -> SearchFilters | None:
    """SearchFilters from request fields; None when nothing filters."""
    if not (documents or jurisdiction or doc_type or as_of):
        return None
    return SearchFilters(doc_ids=documents or None, jurisdiction=jurisdiction,
                         doc_type=doc_type, as_of=as_of)


def answer_payload(answer_dict: dict[str, Any], cached: bool,
                   steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The QueryResponse body from ``serialize.answer_to_dict`` output."""
    return {**answer_dict, "disclaimer": DISCLAIMER, "cached": cached, "research_steps": steps}


def run_query(state: ServiceState, req: QueryRequest,
              on_token: Callable[[str, int], None] | None = None) -> dict[str, Any]:
    """Answer ``req`` (from the cache when it can); the QueryResponse body."""
    llm = pick_llm(state, req.llm)
    filters = filters_of(req.documents, req.jurisdiction, req.doc_type, req.as_of)
    params = {"documents": sorted(req.documents or []), "jurisdiction": req.jurisdiction,
              "doc_type": req.doc_type, "as_of": req.as_of, "mode": req.mode,
              "llm": llm or state.settings.llm, "k": req.k}
    key = cache_key(req.question, params, state.fingerprint())
    hit = state.cache.get(key)
    metrics = getattr(state, "metrics", None)
    if hit is not None:
        if metrics is not None:
            metrics.cache.labels("hit").inc()
        return {**hit, "cached": True}
    if metrics is not None:
        metrics.cache.labels("miss").inc()
    steps: list[dict[str, Any]] | None = None
    with state.engine_locked() as engine:
        if on_token is not None:
            with token_sink(on_token):
                answer, steps = _answer(engine, req, filters, llm)
        else:
            answer, steps = _answer(engine, req, filters, llm)
        # Follow-ups for the UI's buttons: the same grounded suggestions as `civicsetu chat`.
        followups = suggest({"cited": [c.provision_id for c in answer.citations],
                             "retrieved": [h.provision_id for h in answer.retrieved[:5]]},
                            engine.store)
    body = answer_payload(answer_to_dict(answer), False, steps)
    body["suggestions"] = [{"kind": s.kind, "question": s.question} for s in followups]
    if metrics is not None:
        metrics.observe_answer(body)
    state.cache.put(key, body)
    return body


def _answer(engine: Any, req: QueryRequest, filters: SearchFilters | None,
            llm: str | None) -> tuple[Any, list[dict[str, Any]] | None]:
    if req.mode == "research":
        run = engine.research(req.question, filters=filters, llm=llm)
        return run.answer, [{"question": s.question, "provisions": list(s.provisions)}
                            for s in run.steps]
    return engine.ask(req.question, k=req.k, filters=filters, llm=llm), None


@router.post("/query", response_model=QueryResponse, summary="Answer a question with citations")
def query(req: QueryRequest, request: Request) -> dict[str, Any]:
    """The same answer contract as ``civicsetu ask --json``."""
    return run_query(_state(request), req)


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


@router.post("/query/stream", summary="Answer as Server-Sent Events",
             response_class=StreamingResponse,
             responses={200: {"content": {"text/event-stream": {"schema": SSE_EVENT_SCHEMA}},
                              "description": "Events meta, token*, answer, final | error."}})
async def query_stream(req: QueryRequest, request: Request) -> StreamingResponse:
    """Events: ``meta`` {request_id}; ``token`` {text, attempt} only while an LLM writes;
    ``answer`` {answer, generator, cached}; ``final`` (the QueryResponse); or ``error``
    (a problem document)."""
    state = _state(request)
    pick_llm(state, req.llm)  # refuse before the stream starts
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()
    cancel = threading.Event()
    request_id = getattr(request.state, "request_id", "")

    def put(item: tuple[str, dict[str, Any]] | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    def on_token(piece: str, attempt: int) -> None:
        if cancel.is_set():
            raise StreamCancelled()
        put(("token", {"text": piece, "attempt": attempt}))

    def work() -> None:
        try:
            if cancel.is_set():
                return
            body = run_query(state, req, on_token)
            put(("answer", {"answer": body["answer"], "generator": body["generator"],
                            "cached": body["cached"]}))
            put(("final", body))
        except StreamCancelled:
            pass
        except CivicSetuError as exc:
            status, slug = status_of(exc)
            put(("error", problem_body(status, str(exc), slug, request.url.path, request_id)))
        except ApiProblem as exc:
            put(("error", problem_body(exc.status, exc.detail, exc.slug, request.url.path,
                                       request_id)))
        except Exception:  # logged; the client gets a problem without the stack
            import logging

            logging.getLogger("civicsetu.api").exception("stream failed")
            put(("error", problem_body(500, "The server failed to answer; quote the request "
                                       "id when reporting it.", "internal", request.url.path,
                                       request_id)))
        finally:
            put(None)

    async def events() -> AsyncIterator[bytes]:
        worker = threading.Thread(target=work, name="civicsetu-stream", daemon=True)
        finished = False
        try:
            yield _sse("meta", {"request_id": request_id})
            worker.start()
            while True:
                item = await queue.get()
                if item is None:
                    finished = True
                    break
                yield _sse(*item)
        finally:
            if not finished:
                cancel.set()
                metrics = getattr(state, "metrics", None)
                if metrics is not None:
                    metrics.cancelled.inc()

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.post("/sessions/{session_id}/messages", response_model=SessionMessageResponse,
             summary="One turn of a conversation")
def session_message(req: SessionMessageRequest, request: Request,
                    session_id: str = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")
                    ) -> dict[str, Any]:
    """Follow-ups are rewritten into standalone questions (the same checkpointer as
    ``civicsetu chat``); ``1``-``3`` picks one of the previous turn's suggestions."""
    state = _state(request)
    llm = pick_llm(state, req.llm)
    with state.engine_locked() as engine:
        conversation = engine.conversation(llm)
        try:
            answer, searched, suggestions = conversation.ask(session_id, req.message)
        finally:
            conversation.close()
    return {"session": session_id, "searched": searched,
            "answer": answer_payload(answer_to_dict(answer), False),
            "suggestions": [SuggestionOut(kind=s.kind, question=s.question)
                            for s in suggestions]}
