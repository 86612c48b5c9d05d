"""Provisions -> chunks sized for the embedder.

A section that fits is one chunk. A longer one is split along its own structure: its
intro, then each sub-section, recursing into clauses; a leaf that is still too long is cut
at sentence ends. Fragments under the minimum merge into a neighbour, and the merged chunk
belongs to the two pieces' common ancestor, so a chunk's provision always contains it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from civicsetu.types import Chunk, Document, Provision

# Where statute text may be cut between sentences: after . ; : before a capital, a quote,
# a bracketed marker, a number or an amendment mark.
SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[\"“(A-Z0-9^])")


@dataclass(slots=True)
class _Piece:
    path: str
    start: int
    end: int


def chunk_document(
    document: Document, provisions: Iterable[Provision], *, max_chars: int, min_chars: int
) -> list[Chunk]:
    provisions = list(provisions)
    by_path = {p.path: p for p in provisions}
    children: dict[str, list[Provision]] = defaultdict(list)
    for p in provisions:
        if p.parent_path is not None:
            children[p.parent_path].append(p)
    chunks: list[Chunk] = []
    text = document.text
    for top in (p for p in provisions if p.parent_path is None):
        pieces = _split(top, children, text, max_chars)
        pieces = _merge_small(pieces, text, min_chars, max_chars)
        for ordinal, piece in enumerate(pieces):
            body = text[piece.start:piece.end]
            chunks.append(Chunk(
                doc_id=document.id,
                provision_path=piece.path,
                ordinal=ordinal,
                start=piece.start,
                end=piece.end,
                text=body,
                embed_text=embedding_text(document, top, by_path[piece.path], body),
            ))
    return chunks


def embedding_text(document: Document, section: Provision, provision: Provision,
                   body: str) -> str:
    """What the embedder sees: act, pinpoint and section title, then the folded text."""
    label = display_path(provision.path)
    title = f" {section.title}." if section.title else ""
    return f"{document.short_title or document.title}, {label}.{title}\n{' '.join(body.split())}"


def display_path(path: str) -> str:
    """``s.18(1)(b)`` -> ``Section 18(1)(b)``; ``r.7`` -> ``Rule 7``."""
    names = {"s.": "Section ", "r.": "Rule ", "reg.": "Regulation ", "art.": "Article ",
             "cl.": "Clause ", "sch.": "Schedule ", "form.": "Form ", "p.": "Paragraph "}
    for prefix, name in names.items():
        if path.startswith(prefix):
            return name + path[len(prefix):]
    return path


def _split(node: Provision, children: dict[str, list[Provision]], text: str,
           max_chars: int) -> list[_Piece]:
    if node.end - node.start <= max_chars:
        return [_Piece(node.path, node.start, node.end)]
    kids = children.get(node.path, [])
    if not kids:
        return _sentence_windows(node.path, node.start, node.end, text, max_chars)
    pieces: list[_Piece] = []
    if kids[0].start > node.start:
        pieces += _sentence_windows(node.path, node.start, _rstrip(text, node.start,
                                                                    kids[0].start),
                                    text, max_chars)
    for kid, after in zip(kids, [*(k.start for k in kids[1:]), node.end], strict=True):
        pieces += _split(kid, children, text, max_chars)
        # Text after a sub-provision that none holds (a section's State amendments).
        gap = _lstrip(text, kid.end, after)
        if gap < after:
            pieces += _sentence_windows(node.path, gap, _rstrip(text, gap, after), text,
                                        max_chars)
    return pieces


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _sentence_windows(path: str, start: int, end: int, text: str,
                      max_chars: int) -> list[_Piece]:
    """Pack the sentences of ``text[start:end]`` into windows of at most ``max_chars``."""
    bounds = [start] + [start + m.start() for m in SENTENCE_END.finditer(text[start:end])]
    segments: list[tuple[int, int]] = []
    for i, s in enumerate(bounds):
        e = bounds[i + 1] if i + 1 < len(bounds) else end
        s, e = _lstrip(text, s, e), _rstrip(text, s, e)
        while e - s > max_chars:  # one sentence longer than a window: cut at a space
            cut = text.rfind(" ", s, s + max_chars)
            cut = cut if cut > s else s + max_chars
            segments.append((s, _rstrip(text, s, cut)))
            s = _lstrip(text, cut, e)
        if e > s:
            segments.append((s, e))
    pieces: list[_Piece] = []
    for s, e in segments:
        if pieces and e - pieces[-1].start <= max_chars:
            pieces[-1].end = e
        else:
            pieces.append(_Piece(path, s, e))
    return pieces


def _lstrip(text: str, start: int, end: int) -> int:
    while start < end and text[start].isspace():
        start += 1
    return start


def common_ancestor(a: str, b: str) -> str:
    """``s.4(2)(a)`` and ``s.4(2)(c)`` -> ``s.4(2)``."""
    pa, pb = _path_parts(a), _path_parts(b)
    shared = []
    for x, y in zip(pa, pb, strict=False):
        if x != y:
            break
        shared.append(x)
    return "".join(shared) if shared else pa[0]


def _path_parts(path: str) -> list[str]:
    head, paren, rest = path.partition("(")
    return [head] + [f"({p}" for p in (paren + rest).split("(")[1:]] if paren else [head]


def _merge_small(pieces: list[_Piece], text: str, min_chars: int,
                 max_chars: int) -> list[_Piece]:
    merged: list[_Piece] = []
    for piece in pieces:
        if merged:
            prev = merged[-1]
            small = (prev.end - prev.start) < min_chars or (piece.end - piece.start) < min_chars
            if small and piece.end - prev.start <= max_chars:
                merged[-1] = _Piece(common_ancestor(prev.path, piece.path), prev.start, piece.end)
                continue
        merged.append(piece)
    return merged
