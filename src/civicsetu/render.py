"""Terminal rendering of document-derived text, verbatim.

The Acts carry bracketed insertions (``[one per centum]``) that Rich would read as
markup, and user documents may hold anything (``[/x]``). Every line the CLI prints that
contains text from a document is built here as a ``rich.text.Text``: styles are applied
to spans, never parsed from the string, and no highlighter runs over the law. The
output-fidelity tests call these same functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.text import Text

from civicsetu.ingest.chunker import display_path
from civicsetu.store.base import DocumentInfo, GraphEdge
from civicsetu.types import Answer, Provision


def styled(*parts: tuple[str, str] | str) -> Text:
    """Concatenate plain strings and ``(text, style)`` pairs; nothing is parsed as markup."""
    text = Text()
    for part in parts:
        if isinstance(part, str):
            text.append(part)
        else:
            text.append(part[0], style=part[1])
    return text


def emit(console: Console, lines: Iterable[Text]) -> None:
    """Print pre-built lines with markup, emoji and highlighting off."""
    for line in lines:
        console.print(line, markup=False, highlight=False, emoji=False)


def provision_lines(p: Provision, doc_title: str, title: str) -> list[Text]:
    """``show``: heading, the provision text exactly as stored, then its footnotes."""
    head = styled((f"{display_path(p.path)} of the {doc_title}", "bold"), f" — {title}")
    if p.page:
        head.append(f"  p. {p.page}", style="dim")
    if p.valid_from or p.valid_to:
        head.append(f"  in force {p.valid_from or '…'} to {p.valid_to or 'now'}", style="dim")
    lines = [head, Text(p.text)]
    lines += [Text(f"{note.marker}. {note.text}", style="dim") for note in p.footnotes]
    return lines


def answer_lines(answer: Answer, sources: dict[str, str] | None = None) -> list[Text]:
    """``ask`` and ``chat``: the answer text verbatim, then where non-official quotes
    come from (``sources`` maps a document id to a provenance label)."""
    lines = [Text(answer.text)]
    for doc_id, label in (sources or {}).items():
        lines.append(styled(("source of ", "dim"), doc_id, (f": {label}", "dim")))
    return lines


def notice_lines(notices: Sequence[str]) -> list[Text]:
    """Notices go to stderr, each labelled so it cannot be taken for the answer."""
    return [styled(("notice: ", "yellow bold"), (n, "yellow")) for n in notices]


def hit_lines(rank: int, provision_id: str, score: float, pinned: bool, text: str) -> list[Text]:
    """``search``: one ranked provision and the first 200 characters of its chunk."""
    head = styled((f"{rank:>2}. {provision_id}", "bold"), f"  {score:.4f}")
    if pinned:
        head.append(" [pinned]")
    return [head, Text("    " + " ".join(text.split())[:200])]


def document_lines(docs: Sequence[DocumentInfo]) -> list[Text]:
    """``documents``: one row per document, the id in full (commands need all of it)."""
    width = max((len(d.id) for d in docs), default=2)
    lines = [styled((f"{'id':<{width}}  {'provisions':>10}  {'chunks':>6}  title", "bold"))]
    for d in docs:
        lines.append(Text(f"{d.id:<{width}}  {d.provisions:>10}  {d.chunks:>6}  {d.title}"))
    return lines


def edge_lines(node: str, out_edges: Sequence[GraphEdge], in_edges: Sequence[GraphEdge],
               unresolved: Sequence[GraphEdge]) -> list[Text]:
    """``graph show``: edges out and in, then unresolved references, texts verbatim."""
    lines = [styled((node, "bold"))]
    for title, edges, arrow in (("outgoing", out_edges, "->"), ("incoming", in_edges, "<-")):
        for e in edges:
            other = e.dst if arrow == "->" else e.src
            line = Text(f"  {arrow} {e.type:<12} {other}")
            if e.text:
                line.append(f'  "{e.text}"', style="dim")
            lines.append(line)
        if not edges:
            lines.append(Text(f"  no {title} edges", style="dim"))
    for e in unresolved:
        line = Text(f"  -> UNRESOLVED   {e.dst}")
        line.append(f'  "{e.text}"', style="dim")
        lines.append(line)
    return lines
