"""Corpus routes: documents (list, upload or registry entry as a background job, delete),
jobs, provisions and search.

Uploads are checked before anything is written: the name must be a plain file name with an
allowed extension (no folders, no ``..``), the size within ``max_upload_mb``; the file is
stored as ``$CIVICSETU_HOME/uploads/<job>/<name>`` and nowhere else.

A registry entry (JSON body) names a server path or a URL, so it is checked against the
server's settings first: a path must resolve, after symlinks, to a file inside one of
``ApiSettings.source_roots``; a URL needs ``ApiSettings.allow_url_sources``.
"""

from __future__ import annotations

import re
import uuid
from datetime import date
from pathlib import Path as FsPath
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Form, Path, Query, Request, Response, UploadFile
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from civicsetu.api.models import (
    DocTypeName,
    DocumentsResponse,
    JobOut,
    ProvisionResponse,
    SearchResponse,
)
from civicsetu.api.problems import ApiProblem
from civicsetu.api.query import filters_of
from civicsetu.api.state import ServiceState
from civicsetu.config import ApiSettings
from civicsetu.engine import Engine
from civicsetu.ingest.chunker import display_path
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.ingest.registry import RegistryEntry
from civicsetu.types import DocType, split_provision_id

router = APIRouter(prefix="/api/v1", tags=["corpus"])

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,150}$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_DOC_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,119}$")
ProvisionId = Annotated[str, Path(min_length=3, max_length=300,
                                  description="DOC#PATH, URL-encoded (# is %23).")]


def _state(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.civicsetu
    return state


def safe_upload_name(name: str | None, allowed: list[str]) -> str:
    """The uploaded file's name if it is a plain, allowed file name; else a 400 problem."""
    if not name:
        raise ApiProblem(400, "the upload has no file name", "bad-file-name")
    if "/" in name or "\\" in name or ".." in name or "\x00" in name \
            or not _SAFE_NAME.match(name):
        raise ApiProblem(400, "the file name must be a plain name (letters, digits, spaces, "
                         "._-()) with no folders or `..`; rename the file and upload again",
                         "bad-file-name")
    suffix = FsPath(name).suffix.lower()
    if suffix not in allowed:
        raise ApiProblem(415, f"{suffix or 'no extension'} files are not accepted; upload "
                         f"one of {', '.join(allowed)}", "unsupported-type")
    return name


def refuse_official_id(doc_id: str) -> None:
    """A 409 problem when ``doc_id`` is an official bundled Act's id: only the bundle itself
    is indexed under it, so an upload or registry entry never replaces an official Act."""
    from civicsetu.corpus import bundled_acts

    if doc_id in {a.id for a in bundled_acts()}:
        raise ApiProblem(409, f"{doc_id!r} is the id of an official Act bundled with "
                         "CivicSetu and cannot be replaced by an upload or a registry entry; "
                         "leave the id out (an upload then gets an id of its own) or choose "
                         "another one", "official-document")


@router.get("/documents", response_model=DocumentsResponse, summary="The ingested documents")
def list_documents(request: Request) -> dict[str, Any]:
    state = _state(request)
    docs = state.read(lambda e: e.documents())
    return {"documents": [{"id": d.id, "title": d.title, "short_title": d.short_title,
                           "source": d.source, "jurisdiction": d.jurisdiction,
                           "doc_type": d.doc_type, "content_hash": d.content_hash,
                           "provisions": d.provisions, "chunks": d.chunks} for d in docs],
            "fingerprint": state.fingerprint()}


def _inline_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its local ``$defs`` references written out in place."""
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                siblings = {k: inline(v) for k, v in node.items() if k != "$ref"}
                return {**inline(defs[ref.removeprefix("#/$defs/")]), **siblings}
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    result: dict[str, Any] = inline(schema)
    return result


_REGISTRY_BODY = {"requestBody": {"content": {"application/json": {
    "schema": _inline_defs(RegistryEntry.model_json_schema())}}}}


def checked_entry(entry: RegistryEntry, api: ApiSettings) -> RegistryEntry:
    """``entry`` with its path resolved, if the server's settings allow its source; else a
    403/400 problem that names the setting to change."""
    if entry.is_url:
        if not api.allow_url_sources:
            raise ApiProblem(403, "this server does not download URLs; its operator can allow "
                             "http(s) sources with CIVICSETU_API_ALLOW_URL_SOURCES=true",
                             "url-sources-off")
        return entry
    source = entry.source
    if _SCHEME.match(source):
        raise ApiProblem(400, "only http:// and https:// URLs can be ingested; give one of "
                         "those or a server path", "bad-source")
    if not api.source_roots:
        raise ApiProblem(403, "this server ingests no server paths; its operator can list the "
                         "folders allowed in CIVICSETU_API_SOURCE_ROOTS", "path-sources-off")
    raw = FsPath(source)
    if "\x00" in source or not raw.is_absolute():
        raise ApiProblem(400, "give an absolute path to a file inside one of the folders in "
                         "CIVICSETU_API_SOURCE_ROOTS", "bad-source")
    try:
        resolved: FsPath | None = raw.resolve(strict=True)
    except (OSError, RuntimeError):
        resolved = None
    roots = [r.resolve() for r in api.source_roots]
    if resolved is None or not resolved.is_file() \
            or not any(resolved.is_relative_to(r) for r in roots):
        raise ApiProblem(403, "the path is not a file inside the folders in "
                         "CIVICSETU_API_SOURCE_ROOTS (symlinks are followed before the check); "
                         "move the file there or ask the operator to add its folder",
                         "path-not-allowed")
    return entry.model_copy(update={"source": str(resolved)})


async def _submit_entry(request: Request, state: ServiceState) -> dict[str, Any]:
    body = await request.body()
    if len(body) > state.settings.api.max_body_kb * 1024:
        raise ApiProblem(413, f"a registry entry may be at most "
                         f"{state.settings.api.max_body_kb} KiB", "too-large")
    try:
        entry = RegistryEntry.model_validate_json(body)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from exc
    refuse_official_id(entry.id)
    entry = checked_entry(entry, state.settings.api)
    name = entry.source if entry.is_url else FsPath(entry.source).name
    job: dict[str, Any] = request.app.state.jobs.submit(entry, name, None)
    return job


@router.post("/documents", response_model=JobOut, status_code=202,
             summary="Add a document (multipart upload or JSON registry entry); it is "
                     "ingested by a background job",
             openapi_extra=_REGISTRY_BODY)
async def upload_document(
    request: Request,
    file: Annotated[UploadFile | None,
                    File(description="The document (.md .txt .html .pdf .docx).")] = None,
    doc_id: Annotated[str | None, Form(
        description="Id slug; default from the file name (with a short hash added when "
                    "another document holds it). An official bundled Act's id is a 409.")]
    = None,
    title: Annotated[str | None, Form(max_length=300)] = None,
    jurisdiction: Annotated[str, Form(max_length=20)] = "IN",
    doc_type: Annotated[DocTypeName, Form()] = "act",
) -> dict[str, Any]:
    """Answers 202 with the job; poll ``GET /api/v1/jobs/{id}`` for progress.

    Send either ``multipart/form-data`` with ``file`` (and optional fields) or
    ``application/json`` holding one registry entry, as in a ``--registry`` TOML file."""
    state = _state(request)
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json":
        return await _submit_entry(request, state)
    if file is None:
        raise ApiProblem(400, "send multipart/form-data with a `file`, or application/json "
                         "with a registry entry", "no-document")
    api = state.settings.api
    name = safe_upload_name(file.filename, api.upload_types)
    if doc_id is not None and not _DOC_ID.match(doc_id):
        raise ApiProblem(400, "doc_id must be lowercase letters, digits and hyphens",
                         "bad-doc-id")
    if doc_id:
        refuse_official_id(doc_id)
    limit = api.max_upload_mb * 1024 * 1024
    job_key = uuid.uuid4().hex
    root = (state.settings.home / "uploads").resolve()
    folder = root / job_key
    target = (folder / name).resolve()
    if target.parent != folder:  # belt and braces: the name check already forbids this
        raise ApiProblem(400, "the file name escapes the upload folder", "bad-file-name")
    folder.mkdir(parents=True, exist_ok=True)
    size = 0
    with target.open("wb") as out:
        while chunk := await file.read(1024 * 1024):
            size += len(chunk)
            if size > limit:
                out.close()
                target.unlink(missing_ok=True)
                folder.rmdir()
                raise ApiProblem(413, f"the file is larger than {api.max_upload_mb} MiB",
                                 "upload-too-large")
            out.write(chunk)
    if size == 0:
        target.unlink(missing_ok=True)
        folder.rmdir()
        raise ApiProblem(400, "the uploaded file is empty", "empty-upload")
    # Without doc_id the id comes from the name as for `civicsetu ingest FILE`: a name
    # another document holds (an official Act's, a CLI file's) gets a short hash added.
    spec = SourceSpec(target, doc_id=doc_id or None, upload_name=name,
                      jurisdiction=jurisdiction, doc_type=DocType(doc_type),
                      title=title or None)
    job: dict[str, Any] = request.app.state.jobs.submit(spec, name, folder)
    return job


@router.get("/jobs/{job_id}", response_model=JobOut, summary="A background job's progress")
def get_job(request: Request,
            job_id: Annotated[str, Path(pattern=r"^[a-f0-9]{32}$")]) -> dict[str, Any]:
    job = _state(request).db.job(job_id)
    if job is None:
        raise ApiProblem(404, f"no job {job_id}; jobs are listed when they are created",
                         "not-found")
    return job


@router.delete("/documents/{doc_id}", status_code=204, response_class=Response,
               summary="Delete a document and everything derived from it")
def delete_document(request: Request,
                    doc_id: Annotated[str, Path(min_length=1, max_length=200)]) -> Response:
    state = _state(request)
    state.run(lambda e: e.remove_document(doc_id))
    state.corpus_changed()
    return Response(status_code=204)


def _link(engine: Engine, full_id: str | None) -> dict[str, str] | None:
    if full_id is None:
        return None
    _, path = split_provision_id(full_id)
    return {"id": full_id, "label": display_path(path)}


def provision_body(engine: Engine, full_id: str, as_of: date | None) -> dict[str, Any]:
    """Everything the provision panel shows (text, place, versions, references)."""
    p = engine.show(full_id, as_of)  # InputError (400) for a malformed id
    doc_id, path = split_provision_id(full_id)
    # The document's title without reading its whole text.
    doc_title = next((n.title for n in engine.store.graph_nodes([doc_id])), doc_id)
    around = engine.neighbours(full_id)
    crumbs = [{"id": doc_id, "label": doc_title}]
    chain: list[str] = []
    parent = around.parent
    while parent is not None and len(chain) < 12:
        chain.append(parent)
        parent = engine.store.provision_neighbours(parent).parent
    crumbs += [{"id": c, "label": display_path(split_provision_id(c)[1])}
               for c in reversed(chain)]
    crumbs.append({"id": full_id, "label": display_path(path)})

    def edges(direction: str) -> list[dict[str, str]]:
        rows = engine.store.edges(full_id, direction)
        return [{"id": e.dst if direction == "out" else e.src, "type": e.type, "text": e.text}
                for e in rows if e.type != "HAS_PART"]

    return {"id": full_id, "doc_id": doc_id, "path": path, "label": display_path(path),
            "kind": p.kind.value, "title": p.title, "text": p.text, "start": p.start,
            "end": p.end, "page": p.page, "page_end": p.page_end,
            "valid_from": p.valid_from, "valid_to": p.valid_to,
            "footnotes": [{"marker": f.marker, "text": f.text} for f in p.footnotes],
            "document_title": doc_title, "breadcrumb": crumbs,
            "parent": _link(engine, around.parent),
            "children": [_link(engine, c) for c in around.children],
            "previous": _link(engine, around.previous), "next": _link(engine, around.next),
            "versions": [{"valid_from": v.valid_from, "valid_to": v.valid_to}
                         for v in engine.store.history(full_id)],
            "references_out": edges("out"), "references_in": edges("in"),
            "unresolved": [{"id": e.dst, "type": e.type, "text": e.text}
                           for e in engine.store.unresolved_references(full_id)]}


@router.get("/provisions/{provision_id}", response_model=ProvisionResponse,
            summary="A provision with its place, versions and references")
def get_provision(request: Request, provision_id: ProvisionId,
                  as_of: Annotated[date | None, Query(description="As in force on.")] = None
                  ) -> dict[str, Any]:
    return _state(request).read(lambda e: provision_body(e, provision_id, as_of))


@router.get("/search", response_model=SearchResponse, summary="Ranked provisions for a query")
def search(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="The query.")],
    k: Annotated[int, Query(ge=1, le=50)] = 10,
    mode: Annotated[Literal["hybrid", "bm25", "dense"], Query()] = "hybrid",
    doc: Annotated[list[str] | None, Query(description="Only these documents.")] = None,
    jurisdiction: Annotated[str | None, Query(max_length=20)] = None,
    doc_type: Annotated[DocTypeName | None, Query()] = None,
    as_of: Annotated[date | None, Query()] = None,
) -> dict[str, Any]:
    filters = filters_of(doc, jurisdiction, doc_type, as_of)

    def run(engine: Engine) -> dict[str, Any]:
        result = engine.search(q, k=k, mode=mode, filters=filters)
        titles = {n.id: n.title for n in
                  engine.store.graph_nodes([h.provision_id for h in result.hits])}
        hits = [{"id": h.provision_id, "doc_id": h.doc_id, "path": h.provision_path,
                 "label": display_path(h.provision_path),
                 "title": titles.get(h.provision_id, ""), "text": h.text, "start": h.start,
                 "end": h.end, "score": round(h.score, 6), "pinned": h.pinned}
                for h in result.hits]
        return {"query": q, "hits": hits, "best_cosine": result.best_cosine,
                "timings_ms": result.timings_ms}

    return _state(request).run(run)
