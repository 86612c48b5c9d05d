"""PDF with pypdfium2: text per page, running heads and page numbers removed, line
breaks and hyphenation repaired, pages without a text layer reported.

The output is plain text with one line per paragraph-like block; ``page_starts`` keeps
where each page begins so every provision can carry its page number.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from civicsetu.errors import SourceError
from civicsetu.ingest.readers.base import ExtractedText, normalise_newlines
from civicsetu.ingest.readers.limits import Deadline, ReadLimits

# Fewer printable characters than this on a page means it has no usable text layer.
MIN_PAGE_CHARS = 16
# A top/bottom line repeating on this share of pages is a running head or foot.
RUNNING_LINE_SHARE = 0.4
EDGE_LINES = 3

_PAGE_NUMBER = re.compile(
    r"^[\s\-–—\[(]*(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?[\s\-–—\])]*$", re.IGNORECASE)
# A line that begins a new block: a numbering marker, a numbered unit heading, or a
# heading word. Line breaks before these are kept; other wraps are joined.
_BLOCK_START = re.compile(
    r"""^(?:
        (?:\^?\d{0,3}\s?\[)?\(\s?(?:\d{1,3}[A-Z]{0,3}|[a-z]{1,4}|[A-Z]{1,4})\s?\)
      | \d{1,3}[A-Z]{0,3}(?:\.\d{1,3})*\s?[.\-–—]\s*(?:\(|[A-Z\u201c"]|$)
      | (?:Rule|Section|Regulation|Article|Clause|Form|FORM|ARTICLE|SECTION|CHAPTER|Chapter
           |SCHEDULE|Schedule|PART|Part|Explanation|Illustration|Provided|THE\s+\w+\s+SCHEDULE)\b
    )""",
    re.VERBOSE,
)
# A numbered heading ``18. Title.—`` (or ``5.`` alone) starts a block after any line.
_HEADING_LINE = re.compile(r"^\d{1,3}[A-Z]{0,3}\.(?:\s*$|\s+\S[^\n]{0,250}?[.,:]?\s*[—–])"
                           r"|^(?:CHAPTER|SCHEDULE|FORM|ARTICLE|THE\s+\w+\s+SCHEDULE)\b")
_ENDS_BLOCK = re.compile(r"(?:[.;:—–]|;\s*(?:and|or)|[.:]\s*—|-{2,3})[\])\"”’'*]*\s*$")
_HYPHENATED = re.compile(r"(?P<head>[A-Za-z]+)-\n(?P<tail>[a-z]+)")
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*[A-Za-z]")


def read_pdf(path: Path, max_pages: int | None = None, limits: ReadLimits | None = None,
             deadline: Deadline | None = None) -> ExtractedText:
    """Text of a PDF page by page; more pages than the limit is refused before any is
    read, and the deadline is checked between pages."""
    import pypdfium2 as pdfium  # lazy: only PDF ingestion pays for the native library
    import pypdfium2.raw as pdfium_c

    # PDFium's error code is the last one any call set: a document it declines without
    # setting one (a PDF with no pages) would be reported with a stale code (an earlier
    # file's "encrypted"). Opening the empty path first sets a known code, FILE.
    pdfium_c.FPDF_LoadDocument(b"", None)
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise SourceError(
                f"{path}: the PDF is encrypted (password-protected); save an unprotected "
                "copy (e.g. `qpdf --decrypt in.pdf out.pdf`) and ingest that") from exc
        if getattr(exc, "err_code", None) in {pdfium_c.FPDF_ERR_SUCCESS,
                                              pdfium_c.FPDF_ERR_FILE}:
            # No code of its own (read_source has just read the file): PDFium declines
            # a document with no pages that way (a fresh process says "Success").
            raise SourceError(_no_pages(path)) from exc
        raise SourceError(f"{path}: not a readable PDF ({exc}); re-download it or re-save "
                          "it from a PDF viewer") from exc
    try:
        limits = limits or ReadLimits()
        deadline = deadline or limits.deadline(path)
        total = len(pdf)
        if total == 0:
            raise SourceError(_no_pages(path))
        limit = total if max_pages is None else min(total, max_pages)
        if limit > limits.max_pdf_pages:
            raise SourceError(f"{path}: the PDF has {total} pages, over the limit of "
                              f"{limits.max_pdf_pages}; refused (split it, read fewer with "
                              "--max-pages, or raise CIVICSETU_MAX_PDF_PAGES)")
        pages: list[list[str]] = []
        scanned: list[int] = []
        for index in range(limit):
            deadline.check()
            try:
                page = pdf[index]
            except pdfium.PdfiumError as exc:
                raise SourceError(f"{path}: page {index + 1} of the PDF cannot be read ({exc});"
                                  " re-download it or re-save it from a PDF viewer") from exc
            textpage = page.get_textpage()
            raw = normalise_newlines(textpage.get_text_range())
            if sum(not ch.isspace() for ch in raw) < MIN_PAGE_CHARS:
                images = list(page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)))
                if images:
                    scanned.append(index + 1)
                raw = ""
            pages.append([line.strip() for line in raw.split("\n")])
            textpage.close()
            page.close()
        title = (pdf.get_metadata_dict().get("Title") or "").strip()
    finally:
        pdf.close()

    if not any(any(lines) for lines in pages):
        if scanned:
            raise SourceError(
                f"{path}: scanned PDF with no text layer on any of its {limit} pages; run "
                "OCR first (e.g. `ocrmypdf in.pdf out.pdf`) and ingest the result")
        raise SourceError(f"{path}: the PDF has no extractable text; nothing to ingest")

    warnings = []
    if scanned:
        warnings.append(f"{path.name}: pages {_ranges(scanned)} are scanned images with no "
                        "text layer and were skipped; OCR them to index their text")
    if limit < total:
        warnings.append(f"{path.name}: read pages 1-{limit} of {total} (max_pages={limit})")
    pages = _drop_running_lines(pages)
    text, starts = _join_pages(pages)
    return ExtractedText(text, "pdf", title=title, page_starts=starts,
                         warnings=tuple(warnings), meta={"pages": str(total)})


def _no_pages(path: Path) -> str:
    return (f"{path}: the PDF has no pages, so there is nothing to ingest; export or save "
            "the document as a PDF again and ingest that")


def _edge_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def _drop_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Remove page numbers and lines repeated at the top or bottom of many pages."""
    edges: Counter[str] = Counter()
    for lines in pages:
        content = [ln for ln in lines if ln]
        zone = set(content[:EDGE_LINES] + content[-EDGE_LINES:])
        edges.update({_edge_key(ln) for ln in zone})
    threshold = max(3, int(RUNNING_LINE_SHARE * len(pages) + 0.999))
    running = {key for key, n in edges.items() if n >= threshold}
    cleaned = []
    for lines in pages:
        content = [ln for ln in lines if ln]
        drop: set[int] = set()
        for pos in list(range(min(EDGE_LINES, len(content)))) + list(
                range(max(0, len(content) - EDGE_LINES), len(content))):
            line = content[pos]
            if _PAGE_NUMBER.match(line) or _edge_key(line) in running:
                drop.add(pos)
        cleaned.append([ln for pos, ln in enumerate(content) if pos not in drop])
    return cleaned


def _join_pages(pages: list[list[str]]) -> tuple[str, tuple[int, ...]]:
    """Join wrapped lines into blocks, across page breaks too, and repair hyphenation.

    A line break is a paragraph break (a blank line in the output) when the line before
    it stops short of the measure after closing punctuation, or when the next line opens
    a block (a marker, a numbered heading) and the line before closes a clause or stops
    short. A full line followed by ``(a) of sub-section`` is a wrap, not a new clause.
    """
    words = Counter(w.lower() for lines in pages for line in lines
                    for w in _WORD.findall(line))
    lengths = sorted(len(line) for lines in pages for line in lines)
    measure = lengths[int(0.9 * (len(lengths) - 1))] if lengths else 0
    out: list[str] = []
    length = 0
    starts: list[int] = []
    previous = ""
    for lines in pages:
        starts.append(length)
        for line in lines:
            if not out:
                piece = line
            elif _is_word_break(previous, line):
                if _drop_hyphen(previous, line, words):
                    out[-1] = out[-1][:-1]
                    length -= 1
                piece = line
            elif _paragraph_break(previous, line, measure):
                piece = "\n\n" + line
            else:
                piece = " " + line
            out.append(piece)
            length += len(piece)
            previous = line
    return "".join(out), tuple(starts)


def _paragraph_break(previous: str, line: str, measure: int) -> bool:
    short = len(previous) < 0.8 * measure
    closes = bool(_ENDS_BLOCK.search(previous))
    if _HEADING_LINE.match(line):
        return True
    if _BLOCK_START.match(line):
        return closes or short
    # A list's last item ends short with a comma ("... for any other reason,") and its
    # closing words ("he shall be liable ...") begin a paragraph of their own.
    return short and (closes or previous.rstrip().endswith(","))


def _is_word_break(previous: str, line: str) -> bool:
    """A line ending in ``word-`` continued by a lower-case word is one word split."""
    return bool(re.search(r"[A-Za-z]-$", previous)) and bool(re.match(r"[a-z]", line))


def _drop_hyphen(previous: str, line: str, words: Counter[str]) -> bool:
    """``pro-|moter`` -> ``promoter``; ``sub-|section`` stays hyphenated.

    Keep the hyphen when the hyphenated compound occurs elsewhere in the document or the
    joined word does not; legal text is full of real compounds (sub-section, co-operative).
    """
    head_match = re.search(r"([A-Za-z]+)-$", previous)
    tail_match = re.match(r"[a-z]+", line)
    if not head_match or not tail_match:
        return False
    head, tail = head_match.group(1), tail_match.group(0)
    compound = f"{head}-{tail}".lower()
    joined = f"{head}{tail}".lower()
    return words[joined] > 0 and words[compound] == 0


def _ranges(numbers: list[int]) -> str:
    spans: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], 0]:
        if n == prev + 1:
            prev = n
            continue
        spans.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(spans)
