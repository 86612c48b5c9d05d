"""Operations routes, no key needed: ``GET /health`` and ``GET /metrics`` (Prometheus)."""

from __future__ import annotations

from importlib import metadata
from typing import Any

from fastapi import APIRouter, Request, Response

from civicsetu.api.models import HealthResponse
from civicsetu.api.state import ServiceState
from civicsetu.engine import Engine
from civicsetu.errors import CivicSetuError

router = APIRouter(tags=["ops"])


def version() -> str:
    """The installed civicsetu version."""
    try:
        return metadata.version("civicsetu")
    except metadata.PackageNotFoundError:
        return "0+unknown"


@router.get("/health", response_model=HealthResponse, summary="Is the service usable?")
def health(request: Request) -> dict[str, Any]:
    """``ok``, or ``degraded`` with the reasons (empty index, unreadable store, ...)."""
    state: ServiceState = request.app.state.civicsetu
    degraded: list[str] = []
    corpus: dict[str, Any] | None = None

    def read(engine: Engine) -> dict[str, Any]:
        docs = engine.documents()
        return {"documents": len(docs), "provisions": sum(d.provisions for d in docs),
                "chunks": sum(d.chunks for d in docs)}

    try:
        corpus = state.read(read)
        corpus["fingerprint"] = state.fingerprint()
    except CivicSetuError as exc:
        degraded.append(f"the index cannot be read: {exc}")
    if corpus is not None and corpus["documents"] == 0:
        degraded.append("the index is empty: run `civicsetu ingest --bundled` or upload "
                        "documents")
    loaded = state.engine.embedder_loaded
    return {"status": "degraded" if degraded else "ok", "version": version(),
            "store": corpus is not None, "embedder": state.settings.embedder,
            "embedder_loaded": loaded, "llm": state.settings.llm, "corpus": corpus,
            "degraded": degraded}


@router.get("/metrics", response_class=Response, summary="Prometheus metrics",
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}})
def metrics(request: Request) -> Response:
    body, content_type = request.app.state.metrics.render()
    return Response(body, media_type=content_type)
