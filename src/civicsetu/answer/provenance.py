"""Citations that say where their document came from, and look-alike warnings.

Every citation carries its document's provenance (``Citation.source``/``origin``); an
answer quoting a document flagged as a look-alike of another (same normalised title), or
quoting two documents with the same title, carries ``LOOKALIKE_NOTICE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from civicsetu.answer.messages import LOOKALIKE_NOTICE
from civicsetu.ingest.identity import name_key
from civicsetu.store.base import Provenance, Store
from civicsetu.types import Answer


def annotate(answer: Answer, store: Store) -> Answer:
    """Fill in each citation's provenance and add look-alike notices; returns ``answer``."""
    doc_ids = list(dict.fromkeys(c.provision_id.partition("#")[0] for c in answer.citations))
    if not doc_ids:
        return answer
    provenance = resolved_provenance(store, doc_ids)
    answer.citations = [replace(c, source=provenance[d].label(), origin=provenance[d].origin)
                        for c in answer.citations
                        for d in [c.provision_id.partition("#")[0]]]
    titles = {d.id: d.title for d in store.documents() if d.id in provenance}
    warned: set[str] = set()
    for doc_id, prov in provenance.items():
        twin = prov.lookalike_of or next(
            (o for o in doc_ids if o != doc_id and name_key(titles.get(o, "")) ==
             name_key(titles.get(doc_id, "")) and not prov.official), "")
        if twin and doc_id not in warned:
            warned.add(doc_id)
            answer.notices.append(LOOKALIKE_NOTICE.format(
                doc=doc_id, source=prov.label(), other=twin))
    return answer


def resolved_provenance(store: Store, doc_ids: Sequence[str] | None = None,
                        ) -> dict[str, Provenance]:
    """``store.provenance``, with the bundled Acts of an index written before provenance
    was recorded (origin ``""``) recognised by their reserved ids."""
    from civicsetu.corpus import bundled_acts

    known = store.provenance(doc_ids)
    ids = list(doc_ids) if doc_ids is not None else list(known)
    bundled = {a.id for a in bundled_acts()}
    out = {}
    for d in ids:
        prov = known.get(d, Provenance(""))
        if not prov.origin and d in bundled:
            prov = replace(prov, origin="bundled")
        out[d] = prov
    return out


def sources_to_show(answer: Answer) -> dict[str, str]:
    """Provenance labels of the cited documents that are not official bundled text."""
    return {c.provision_id.partition("#")[0]: c.source for c in answer.citations
            if c.origin != "bundled"}
