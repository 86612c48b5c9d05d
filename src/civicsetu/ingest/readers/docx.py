"""Word files with python-docx: headings, numbered lists (rendered as printed) and tables.

Word keeps list numbers in the numbering definitions, not in the text, so they are
rebuilt here from ``numFmt`` and ``lvlText``; otherwise ``(a)`` clauses would vanish.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from civicsetu.errors import SourceError
from civicsetu.ingest.readers.base import ExtractedText
from civicsetu.ingest.readers.limits import Deadline, ReadLimits, check_zip

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def read_docx(path: Path, limits: ReadLimits | None = None,
              deadline: Deadline | None = None) -> ExtractedText:
    """Read a Word file after ``check_zip`` has streamed it within ``limits``."""
    limits = limits or ReadLimits()
    deadline = deadline or limits.deadline(path)
    check_zip(path, limits, deadline)
    import docx  # lazy: only Word ingestion needs python-docx
    from docx.opc.exceptions import PackageNotFoundError
    from lxml.etree import LxmlError  # type: ignore[import-untyped]

    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, LxmlError,
            OSError) as exc:
        reason = " ".join(str(exc).split())  # parser messages can span lines
        raise SourceError(f"{path}: not a readable .docx ({reason}); if it is password-"
                          "protected or an old .doc, re-save it as .docx from Word") from exc
    numbering = _Numbering(document)
    blocks: list[str] = []
    for element in document.element.body.iterchildren():
        deadline.check()
        if element.tag == f"{_W}p":
            text = _paragraph_text(element)
            style = _style_name(document, element)
            label = numbering.label(element, _style_numbering(document, element))
            if label and text:
                text = f"{label} {text}"
            heading = re.match(r"Heading (\d)", style)
            if heading and text:
                text = "#" * min(6, int(heading.group(1)) + 1) + " " + text
            elif style == "Title" and text:
                text = "# " + text
            if text.strip():
                blocks.append(text)
        elif element.tag == f"{_W}tbl":
            for row in element.iter(f"{_W}tr"):
                cells = [" ".join(_paragraph_text(p) for p in cell.iter(f"{_W}p")).strip()
                         for cell in row.iter(f"{_W}tc")]
                line = " | ".join(c for c in cells if c)
                if line:
                    blocks.append(line)
    text = "\n\n".join(blocks)
    if not text.strip():
        raise SourceError(f"{path}: the Word file has no text; nothing to ingest")
    title = (document.core_properties.title or "").strip()
    return ExtractedText(text, "docx", title=title)


def _paragraph_text(p: Any) -> str:
    parts = []
    for node in p.iter(f"{_W}t", f"{_W}tab", f"{_W}br"):
        parts.append(node.text or "" if node.tag == f"{_W}t" else " ")
    return " ".join("".join(parts).split())


def _style_name(document: Any, p: Any) -> str:
    style = p.find(f"{_W}pPr/{_W}pStyle")
    if style is None:
        return ""
    style_id = style.get(f"{_W}val")
    try:
        return str(document.styles.get_by_id(style_id, 1).name or style_id)
    except (KeyError, ValueError):
        return str(style_id)


def _style_numbering(document: Any, p: Any) -> Any:
    """List styles such as ``List Number`` carry their numbering on the style."""
    style = p.find(f"{_W}pPr/{_W}pStyle")
    seen = set()
    style_id = style.get(f"{_W}val") if style is not None else None
    while style_id and style_id not in seen:
        seen.add(style_id)
        element = document.styles.element.find(f"w:style[@w:styleId='{style_id}']",
                                                {"w": _W[1:-1]})
        if element is None:
            return None
        num_pr = element.find(f"{_W}pPr/{_W}numPr")
        if num_pr is not None:
            return num_pr
        based = element.find(f"{_W}basedOn")
        style_id = based.get(f"{_W}val") if based is not None else None
    return None


_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def _roman(n: int) -> str:
    out = ""
    for value, numeral in _ROMAN:
        while n >= value:
            out += numeral
            n -= value
    return out


def _letter(n: int) -> str:
    # Word repeats letters past z: aa, bb, ...
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def _format(n: int, fmt: str) -> str:
    return {
        "decimal": str(n), "lowerLetter": _letter(n), "upperLetter": _letter(n).upper(),
        "lowerRoman": _roman(n), "upperRoman": _roman(n).upper(),
    }.get(fmt, str(n))


class _Numbering:
    """Counters per list and level, rendered with each level's ``lvlText``."""

    def __init__(self, document: Any) -> None:
        self.levels: dict[tuple[str, int], tuple[str, str, int]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        for a in root.iter(f"{_W}abstractNum"):
            lvls = {}
            for lvl in a.iter(f"{_W}lvl"):
                fmt = lvl.find(f"{_W}numFmt")
                text = lvl.find(f"{_W}lvlText")
                start = lvl.find(f"{_W}start")
                lvls[int(lvl.get(f"{_W}ilvl"))] = (
                    fmt.get(f"{_W}val") if fmt is not None else "decimal",
                    text.get(f"{_W}val") if text is not None else "",
                    int(start.get(f"{_W}val")) if start is not None else 1)
            abstract[a.get(f"{_W}abstractNumId")] = lvls
        for num in root.iter(f"{_W}num"):
            ref = num.find(f"{_W}abstractNumId")
            if ref is None:
                continue
            for ilvl, spec in abstract.get(ref.get(f"{_W}val"), {}).items():
                self.levels[(num.get(f"{_W}numId"), ilvl)] = spec

    def label(self, p: Any, style_num_pr: Any = None) -> str:
        num_pr = p.find(f"{_W}pPr/{_W}numPr")
        if num_pr is None:
            num_pr = style_num_pr
        if num_pr is None:
            return ""
        num_el, ilvl_el = num_pr.find(f"{_W}numId"), num_pr.find(f"{_W}ilvl")
        if num_el is None:
            return ""
        num_id = num_el.get(f"{_W}val")
        ilvl = int(ilvl_el.get(f"{_W}val")) if ilvl_el is not None else 0
        spec = self.levels.get((num_id, ilvl))
        if spec is None or spec[0] in {"bullet", "none"}:
            return ""
        counters = self.counters.setdefault(num_id, {})
        counters[ilvl] = counters.get(ilvl, spec[2] - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]

        def render(match: re.Match[str]) -> str:
            level = int(match.group(1)) - 1
            fmt = self.levels.get((num_id, level), ("decimal", "", 1))[0]
            return _format(counters.get(level, 1), fmt)

        return re.sub(r"%(\d)", render, spec[1])
