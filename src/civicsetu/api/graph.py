"""Graph routes for the explorer: the capped topology and a provision's neighbourhood."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from civicsetu.api.models import EdgeTypeName, NeighbourhoodResponse, TopologyResponse
from civicsetu.api.problems import ApiProblem
from civicsetu.api.state import ServiceState
from civicsetu.engine import Engine
from civicsetu.ingest.chunker import display_path
from civicsetu.store.base import GraphNode
from civicsetu.types import EdgeType

router = APIRouter(prefix="/api/v1/graph", tags=["graph"])
ALL_TYPES = [t.value for t in EdgeType]


def _state(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.civicsetu
    return state


def node_out(n: GraphNode, distance: int | None = None) -> dict[str, Any]:
    """A node as the API shows it."""
    return {"id": n.id, "doc_id": n.doc_id, "path": n.path,
            "label": display_path(n.path) if n.path else n.title, "title": n.title,
            "kind": "provision" if n.path else "document", "distance": distance}


@router.get("/topology", response_model=TopologyResponse, summary="Nodes and typed edges")
def topology(
    request: Request,
    doc: Annotated[list[str] | None, Query(description="Only edges of these documents.")]
    = None,
    type: Annotated[list[EdgeTypeName] | None, Query(description="Only these edge types.")]
    = None,
    max_nodes: Annotated[int | None, Query(ge=1, le=20000)] = None,
) -> dict[str, Any]:
    state = _state(request)
    cap = min(max_nodes or state.settings.api.topology_max_nodes,
              state.settings.api.topology_max_nodes)
    topo = state.read(lambda e: e.topology(doc or None, list(type) if type else None, cap))
    return {"nodes": [node_out(n) for n in topo.nodes],
            "edges": [{"source": e.src, "target": e.dst, "type": e.type} for e in topo.edges],
            "truncated": topo.truncated}


@router.get("/provision/{provision_id}", response_model=NeighbourhoodResponse,
            summary="A provision's neighbourhood, depth hops out and in")
def neighbourhood(
    request: Request,
    provision_id: Annotated[str, Path(min_length=3, max_length=300)],
    depth: Annotated[int, Query(ge=1, le=10)] = 1,
    type: Annotated[list[EdgeTypeName] | None, Query()] = None,
    max_nodes: Annotated[int, Query(ge=1, le=5000)] = 500,
) -> dict[str, Any]:
    state = _state(request)
    if depth > state.settings.api.graph_max_depth:
        raise ApiProblem(400, f"depth {depth} is deeper than this server serves "
                         f"({state.settings.api.graph_max_depth}); expand step by step",
                         "too-deep")
    types = list(type) if type else ALL_TYPES

    def run(engine: Engine) -> dict[str, Any]:
        engine.show(provision_id)  # NotFoundError for an unknown id
        distances = engine.store.neighbourhood([provision_id], depth, types)
        distances.setdefault(provision_id, 0)
        ranked = sorted(distances.items(), key=lambda kv: (kv[1], kv[0]))
        truncated = len(ranked) > max_nodes
        keep = dict(ranked[:max_nodes])
        edges = []
        for node in keep:
            for e in engine.store.edges(node, "out", types):
                if e.dst in keep:
                    edges.append({"source": e.src, "target": e.dst, "type": e.type})
        nodes = [node_out(n, keep[n.id]) for n in engine.store.graph_nodes(list(keep))]
        return {"center": provision_id, "depth": depth, "nodes": nodes, "edges": edges,
                "truncated": truncated}

    return state.read(run)
