"""Bad input, one row per case: a clear message naming the file and the remedy, the
batch goes on with the next file, and nothing of the bad file reaches the index."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from tools.gazette_pdf import font_path


def _pdf(path: Path, *, encrypted: bool = False, scanned: bool = False) -> None:
    from fpdf import FPDF
    from PIL import Image

    pdf = FPDF()
    if encrypted:
        pdf.set_encryption(owner_password="owner", user_password="user")
    pdf.add_font("serif", "", str(font_path()))
    pdf.add_page()
    if scanned:
        image = path.with_suffix(".png")
        Image.new("L", (100, 140), color=180).save(image)
        pdf.image(str(image), x=10, y=10, w=180)
    else:
        pdf.set_font("serif", size=11)
        pdf.multi_cell(0, 6, "1. Short title.—These rules may be called the Secret Rules.")
    pdf.output(str(path))


def _corrupt_pdf(path: Path) -> None:
    _pdf(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def _no_pages(path: Path) -> None:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()  # a well-formed PDF with a page tree of zero pages
    pdf.save(str(path))
    pdf.close()


def _huge(path: Path) -> None:
    with path.open("wb") as fh:  # sparse: 500 MB on paper, no disk used
        fh.truncate(500 * 2**20)


def _docx_with_tables_only_corrupt(path: Path) -> None:
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 200)


Maker = Callable[[Path], None]
CASES: list[tuple[str, str, Maker, str]] = [
    ("corrupt PDF", "broken.pdf", _corrupt_pdf, "not a readable PDF.*re-download"),
    ("encrypted PDF", "locked.pdf", lambda p: _pdf(p, encrypted=True),
     "encrypted.*qpdf --decrypt"),
    ("fully scanned PDF", "scan.pdf", lambda p: _pdf(p, scanned=True), "scanned.*ocrmypdf"),
    ("PDF with no pages", "nothing.pdf", _no_pages, r"^\S+: the PDF has no pages, so there is "
     "nothing to ingest; export or save the document as a PDF again"),
    ("zero-byte file", "empty.pdf", lambda p: p.write_bytes(b""), "empty"),
    ("500 MB file", "huge.pdf", _huge, "over the 200 MiB limit.*split"),
    ("binary junk named .pdf", "junk.pdf", lambda p: p.write_bytes(bytes(range(256)) * 8),
     "not a PDF.*re-download"),
    ("non-UTF-8 text", "latin1.txt",
     lambda p: p.write_bytes("Section 1 – café".encode("cp1252")), "not valid UTF-8.*iconv"),
    ("corrupt DOCX", "broken.docx", _docx_with_tables_only_corrupt, "not a readable .docx"),
    ("old .doc renamed", "old.docx", lambda p: p.write_bytes(b"\xd0\xcf\x11\xe0" + b"\0" * 64),
     "not a Word .docx"),
    ("HTML with no visible text", "blank.html",
     lambda p: p.write_text("<html><script>alert(1)</script></html>"), "no visible text"),
    ("unknown type", "sheet.xlsx", lambda p: p.write_bytes(b"PK"), "unknown file type"),
]


@pytest.mark.parametrize(("case", "name", "make", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_bad_file_is_reported_and_the_batch_goes_on(
        tmp_path: Path, small_act: Path, case: str, name: str, make: Maker,
        message: str) -> None:
    bad = tmp_path / name
    make(bad)
    with Engine(Settings(home=tmp_path / "home")) as engine:
        reports = engine.ingest([SourceSpec(bad), SourceSpec(small_act)])
        assert [r.status for r in reports] == ["failed", "added"], case
        assert reports[0].message.startswith(str(bad)), reports[0].message
        import re

        assert re.search(message, reports[0].message), reports[0].message
        assert [d.id for d in engine.documents()] == ["model-tenancy-act-2099"]
