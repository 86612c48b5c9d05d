"""Records -> JSON-ready dicts. One shape for the CLI, the eval harness and the API."""

from __future__ import annotations

from typing import Any

from civicsetu.types import Answer, Citation, Hit, Provision


def citation_to_dict(c: Citation, title: str = "") -> dict[str, Any]:
    return {"id": c.provision_id, "title": title or c.title, "label": c.label,
            "quote": c.quote, "start": c.start, "end": c.end,
            "source": c.source, "origin": c.origin}


def hit_to_dict(h: Hit) -> dict[str, Any]:
    return {"id": h.provision_id, "score": round(h.score, 6), "pinned": h.pinned}


def answer_to_dict(a: Answer) -> dict[str, Any]:
    return {
        "query": a.query,
        "answer": a.text,
        "abstained": a.abstained,
        "citations": [citation_to_dict(c) for c in a.citations],
        "retrieved": [hit_to_dict(h) for h in a.retrieved],
        "notices": a.notices,
        "query_type": a.query_type,
        "confidence": a.confidence,
        "score": a.score,
        "generator": a.generator,
        "llm_calls": a.llm_calls,
        "tokens": a.tokens,
        "usage_by_call": a.usage_by_call,
        "cost_usd": a.cost_usd,
        "timings_ms": a.timings_ms,
    }


def provision_to_dict(p: Provision, title: str = "") -> dict[str, Any]:
    return {"id": p.id, "path": p.path, "kind": p.kind.value, "title": title or p.title,
            "text": p.text, "start": p.start, "end": p.end, "parent": p.parent_path,
            "footnotes": [{"marker": f.marker, "text": f.text} for f in p.footnotes],
            "page": p.page, "page_end": p.page_end,
            "valid_from": p.valid_from.isoformat() if p.valid_from else None,
            "valid_to": p.valid_to.isoformat() if p.valid_to else None}
