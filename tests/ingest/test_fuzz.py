"""Fuzzing with hypothesis over the readers (text, HTML, DOCX, PDF), the structure parser
and the reference extractor, starting from the seed corpus in ``fuzz_seeds/``.

The contract under fuzzing: a reader returns text or raises ``SourceError`` (a one-line
message for the user), nothing else; the parser and the extractor never raise, keep their
offsets inside the text, and stay within a time bound (hypothesis ``deadline``) and a
memory bound (``tracemalloc`` peak) per example. ``CIVICSETU_FUZZ_EXAMPLES`` (default 40)
sets the examples per target for a longer run.
"""

from __future__ import annotations

import io
import os
import tempfile
import tracemalloc
import zipfile
from collections.abc import Callable
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civicsetu.errors import SourceError
from civicsetu.ingest.loader import load_document
from civicsetu.ingest.readers import read_source
from civicsetu.ingest.references import extract_references
from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import DocType

SEEDS = Path(__file__).parent / "fuzz_seeds"
EXAMPLES = int(os.environ.get("CIVICSETU_FUZZ_EXAMPLES", "40"))
MEMORY_BOUND = 128 * 2**20  # bytes traced at peak for one example (inputs stay < 64 KB)
FUZZ = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=60), derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
T = TypeVar("T")


def _bounded(call: Callable[[], T]) -> T:
    """Run ``call`` and check its traced memory peak stays under the bound."""
    tracemalloc.start()
    try:
        result = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, peak
    return result


def _seed(name: str) -> bytes:
    return (SEEDS / name).read_bytes()


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """The seed with a few byte-level edits: flips, cuts, inserts, duplicated spans."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "dup"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del data[at:at + draw(st.integers(1, 64))]
        elif op == "insert":
            data[at:at] = draw(st.sampled_from([
                b"<div>" * 50, b"</p></table>", b"\x00", b"\xff\xfe", b"&amp;&#0;&#xD800;",
                b"(1)(a)(i)", b"## Section 99 - X.\n", b"section 3 of the ", b"\r\n\r",
                b"<!--", b"]]>", "\u202e\u200b".encode(), b"Provided that", b"^7[",
            ]))
        elif op == "dup" and data:
            end = min(len(data), at + draw(st.integers(1, 200)))
            data[at:at] = data[at:end]
    return bytes(data)


def _read(name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            extracted = _bounded(lambda: read_source(path))
        except SourceError as exc:
            assert "\n" not in str(exc).strip(), exc
            return
        assert extracted.text.strip()
        assert all(0 <= s <= len(extracted.text) for s in extracted.page_starts)


@FUZZ
@given(st.one_of(mutated(_seed("act.md")), mutated(_seed("rules.txt")),
                 st.binary(max_size=2000)))
def test_text_reader(data: bytes) -> None:
    _read("fuzz.md", data)


@FUZZ
@given(st.one_of(mutated(_seed("page.html")), st.binary(max_size=2000),
                 st.recursive(st.sampled_from(["x", "(a) y", "&nbsp;", ""]),
                              lambda inner: st.tuples(
                                  st.sampled_from(["div", "p", "table", "li", "h2", "span",
                                                   "pre", "script", "b"]), inner).map(
                                  lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"),
                              max_leaves=300).map(str.encode)))
def test_html_reader(data: bytes) -> None:
    _read("fuzz.html", data)


@cache
def _base_docx() -> dict[str, bytes]:
    import docx

    buffer = io.BytesIO()
    docx.Document().save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        return {i.filename: archive.read(i) for i in archive.infolist()}


def _docx_bytes(body: bytes) -> bytes:
    parts = dict(_base_docx())
    parts["word/document.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w='
        b'"http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        + body + b"</w:body></w:document>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return out.getvalue()


@FUZZ
@given(mutated(_seed("document.xml")), st.booleans(), st.data())
def test_docx_reader(body: bytes, corrupt_zip: bool, data: st.DataObject) -> None:
    blob = _docx_bytes(body)
    if corrupt_zip:
        blob = data.draw(mutated(blob))
    _read("fuzz.docx", blob)


@cache
def _seed_pdf() -> bytes:
    from fpdf import FPDF

    from tools.gazette_pdf import font_path

    pdf = FPDF()
    pdf.add_font("serif", "", str(font_path()))
    pdf.set_font("serif", size=10)
    pdf.add_page()
    pdf.multi_cell(0, 5, _seed("rules.txt").decode())
    return bytes(pdf.output())


@FUZZ
@given(st.data())
def test_pdf_reader(data: st.DataObject) -> None:
    _read("fuzz.pdf", data.draw(mutated(_seed_pdf())))


_lines = st.sampled_from(
    [line for name in ("act.md", "rules.txt") for line in
     _seed(name).decode().splitlines()] + ["(zk) of section 2", "sections 3 to 19 and 21A",
                                           "rule 4(1)(a)", "the Foo Act, 1900", ""])


@FUZZ
@given(st.lists(st.one_of(_lines, st.text(max_size=60)), max_size=60).map("\n".join),
       st.sampled_from(list(DocType)))
def test_parser_and_reference_extractor(text: str, doc_type: DocType) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.md"
        path.write_text(text or "x", encoding="utf-8")
        try:
            document = load_document(path, doc_type=doc_type)
        except SourceError:
            return
    provisions, _ = _bounded(lambda: parse_provisions(document.id, document.text, doc_type))
    for p in provisions:
        assert 0 <= p.start <= p.end <= len(document.text)
    references = _bounded(lambda: extract_references(document, provisions))
    ids = {p.id for p in provisions}
    for ref in references:
        assert ref.src in ids, ref
        assert 0 <= ref.start <= ref.end <= len(document.text), ref


def test_fuzz_finds_stay_fixed(tmp_path: Path) -> None:
    """Inputs hypothesis found that crashed a reader, kept as replayed cases."""
    cases = {
        # A page tree entry damaged by one flipped bit: pdfium "Failed to load page".
        "page.pdf": _seed_pdf().replace(b"/Count 1", b"/Count!1", 1),
        # A NUL in the Word XML: lxml XMLSyntaxError with a two-line message.
        "nul.docx": _docx_bytes(b"<w:p><w:r><w:t>a\x00b</w:t></w:r></w:p>"),
        # Bad XML nesting: lxml XMLSyntaxError, not a ValueError.
        "nesting.docx": _docx_bytes(b"<w:p><w:r><w:t>a</w:r></w:p>"),
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        try:
            read_source(path)
        except SourceError as exc:
            assert "\n" not in str(exc) and str(exc).startswith(str(path)), exc
