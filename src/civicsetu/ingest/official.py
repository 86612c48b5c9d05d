"""The official Acts bundled with CivicSetu, as ingestion guards them.

A bundled Act's id holds only its official text, whoever ingests it: a registry entry, an
upload or a user file with another text under that id is refused (``check_official``).
The official text ingested from another path (a copy of the corpus file, a re-parse after
an upgrade) is recorded as the bundled text and keeps the names the bundle gives it
("RTI Act"), which the question checks read. The bundle's list and its texts' hashes are
package data, read once per process.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from civicsetu.corpus import BundledAct, bundled_acts
from civicsetu.errors import OfficialDocumentError
from civicsetu.ingest.loader import load_source
from civicsetu.store.base import Provenance, Store
from civicsetu.types import Document


@functools.cache
def _acts() -> dict[str, BundledAct]:
    return {a.id: a for a in bundled_acts()}


def official_act(doc_id: str) -> BundledAct | None:
    """The bundled Act whose id is ``doc_id``, else None."""
    return _acts().get(doc_id)


@functools.cache
def official_hash(doc_id: str) -> str | None:
    """The content hash of the official text under ``doc_id``, else None."""
    act = official_act(doc_id)
    return load_source(act.path, doc_id=doc_id)[0].content_hash if act else None


def check_official(store: Store, document: Document, kind: str, shown: str) -> None:
    """Refuse a text other than the official one under a bundled Act's id (``shown``: the
    source as a report names it); only the bundle itself (``kind`` "bundled") writes there
    whatever its text. Its own text (a copy of the bundled file) is accepted."""
    if kind == "bundled":
        return
    official = official_hash(document.id)
    if official is None:
        return
    texts = {official}
    stored = store.document_hash(document.id)
    # The text stored by an earlier bundle (origin "" is an index from before provenance).
    if stored is not None and store.provenance([document.id]).get(
            document.id, Provenance("")).origin in {"bundled", ""}:
        texts.add(stored)
    if document.content_hash in texts:
        return
    remedy = ("give the entry another id" if kind == "registry" else
              "give it another id, or none so that it gets one of its own")
    raise OfficialDocumentError(
        f"{shown}: {document.id!r} is the id of an official Act bundled with CivicSetu and "
        f"this is not its text, so nothing was written (an official Act is never replaced "
        f"by another text); {remedy}. `civicsetu ingest --bundled` re-indexes the official "
        "Acts")


def with_official_names(document: Document, kind: str) -> Document:
    """``document`` with the bundle's names for it when it is an official Act's text
    ingested from another path (``check_official`` let only that text in under its id)."""
    act = official_act(document.id)
    if kind == "bundled" or act is None or not act.aliases:
        return document
    return replace(document, aliases=tuple(dict.fromkeys((*document.aliases, *act.aliases))))


def official_or(document: Document, kind: str, where: str) -> tuple[Document, str, str]:
    """A file with a bundled Act's id and text is that official text, whoever ingests it:
    its provenance is the bundle's."""
    act = official_act(document.id)
    if act is not None and kind != "bundled":
        return document, "bundled", str(act.path)
    return document, kind, where
