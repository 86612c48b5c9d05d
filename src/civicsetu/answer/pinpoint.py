"""The last step before chosen quotes become citations: no text shown twice, and each
quote cited to the narrowest provision that holds it whole.

A clause reached through two hits (the sub-section's chunk and the clause's own chunk)
can be chosen twice: once inside its sub-section's quote and once on its own. And a unit
cut from a hit that starts mid-provision keeps the provision it was read from, so a quote
of clause (b) alone was labelled "Section 18(1)". Both undo a pinpoint citation's
promise: the reader should see each passage once, under the label of the provision it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from civicsetu.answer.units import Unit
from civicsetu.types import Provision, section_of

SectionReader = Callable[[str, str], list[Provision]]


def without_repeats(units: list[Unit]) -> list[Unit]:
    """``units`` less each one whose span another unit of the same document holds whole;
    a unit that holds earlier ones takes the first of their places."""
    out: list[Unit] = []
    for u in units:
        if any(_holds(o, u) for o in out):
            continue
        inside = [i for i, o in enumerate(out) if _holds(u, o)]
        if inside:
            out[inside[0]] = u
            out = [o for i, o in enumerate(out) if i not in inside[1:]]
        else:
            out.append(u)
    return out


def pinpointed(units: list[Unit], read_section: SectionReader) -> list[Unit]:
    """Each unit cited to the deepest provision of its section that it opens and that
    holds it whole (``read_section(doc_id, section)`` gives the section's provisions).

    Only a unit that opens the provision (its text starts with the provision's own
    number) moves: the store's span of a last clause also holds the proviso or the
    Explanation printed after it, which qualify the enclosing provision ("For the
    purposes of this section"), so a unit starting there keeps its wider label. A unit
    that runs across two of a provision's parts (the end of clause (f) and clause (g) of
    sub-section (8)) is that provision's text whichever way it starts: it moves to it."""
    out: list[Unit] = []
    for u in units:
        best = u.provision
        family = read_section(u.provision.doc_id, section_of(u.provision.path))
        for p in family:
            if p.start <= u.start and u.end <= p.end and \
                    p.end - p.start < best.end - best.start and \
                    (not p.text[:u.start - p.start].strip() or _spans_parts(u, p, family)):
                best = p
        out.append(u if best is u.provision else replace(u, provision=best))
    return out


def _spans_parts(u: Unit, p: Provision, family: list[Provision]) -> bool:
    """Whether ``p`` has parts and none of them holds ``u`` whole."""
    parts = [c for c in family if c.parent_path == p.path]
    return bool(parts) and not any(c.start <= u.start and u.end <= c.end for c in parts)


def _holds(outer: Unit, inner: Unit) -> bool:
    return (outer.provision.doc_id == inner.provision.doc_id
            and outer.start <= inner.start and inner.end <= outer.end)
