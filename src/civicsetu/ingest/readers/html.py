"""HTML statute pages and generic pages: visible text as Markdown-like blocks.

Scripts, styles, navigation and forms are dropped; headings become ``#`` lines so the
structure detector sees them; table rows become ``cell | cell`` lines.
"""

from __future__ import annotations

import re
from pathlib import Path

from civicsetu.errors import SourceError
from civicsetu.ingest.readers.base import ExtractedText
from civicsetu.ingest.readers.limits import Deadline, ReadLimits, html_depth

_DROP = ("script", "style", "noscript", "template", "svg", "nav", "header", "footer",
         "aside", "form", "iframe", "button", "select")
_BLOCKS = {"p", "div", "section", "article", "main", "li", "dd", "dt", "blockquote", "pre",
           "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr", "ul", "ol", "dl", "body",
           "center", "td", "th", "tbody", "thead", "tfoot", "caption", "figure", "br", "hr"}


def read_html(path: Path, raw: bytes, limits: ReadLimits | None = None,
              deadline: Deadline | None = None) -> ExtractedText:
    """Visible text of an HTML page; pages nested deeper than the limit are refused
    before the (recursive) walk below sees them."""
    from bs4 import BeautifulSoup, Tag  # lazy: only HTML ingestion needs the parser

    limits = limits or ReadLimits()
    deadline = deadline or limits.deadline(path)
    soup = BeautifulSoup(raw, "lxml")
    deadline.check()
    depth = html_depth(soup, limits.max_html_depth)
    if depth > limits.max_html_depth:
        raise SourceError(f"{path}: HTML nested deeper than {limits.max_html_depth} levels; "
                          "refused (raise CIVICSETU_MAX_HTML_DEPTH if the page is genuine)")
    for tag in soup.find_all(_DROP):
        tag.decompose()
    title_tag = soup.find("title")
    title = title_tag.get_text(" ", strip=True) if title_tag else ""
    root = soup.find("main") or soup.find("article") or soup.body or soup
    blocks: list[str] = []

    def flush_inline(parts: list[str]) -> None:
        text = " ".join(" ".join(parts).split())
        if text:
            blocks.append(text)
        parts.clear()

    def walk(node: Tag) -> None:
        inline: list[str] = []
        deadline.check()
        for child in node.children:
            if isinstance(child, Tag):
                name = child.name.lower()
                if name in _BLOCKS:
                    flush_inline(inline)
                    if re.fullmatch(r"h[1-6]", name):
                        text = " ".join(child.get_text(" ", strip=True).split())
                        if text:
                            blocks.append("#" * int(name[1]) + " " + text)
                    elif name == "tr":
                        cells = [" ".join(c.get_text(" ", strip=True).split())
                                 for c in child.find_all(["td", "th"])]
                        row = " | ".join(c for c in cells if c)
                        if row:
                            blocks.append(row)
                    elif name in {"pre"}:
                        blocks.append(child.get_text().strip("\n"))
                    else:
                        walk(child)
                else:
                    inline.append(child.get_text(" "))
            elif not _is_comment(child):
                inline.append(str(child))
        flush_inline(inline)

    if isinstance(root, Tag):
        walk(root)
    text = "\n\n".join(blocks)
    if not text.strip():
        raise SourceError(f"{path}: the HTML page has no visible text; is it the page itself "
                          "or a frame/redirect around it?")
    if not title:
        first = next((b for b in blocks if b.startswith("# ")), "")
        title = first[2:]
    return ExtractedText(text, "html", title=title)


def _is_comment(node: object) -> bool:
    from bs4 import Comment, Declaration, Doctype, ProcessingInstruction

    return isinstance(node, Comment | Declaration | Doctype | ProcessingInstruction)
