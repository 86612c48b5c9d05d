"""The PDF path on real PDFs: gazette-like renderings of bundled Acts, scanned pages,
a page cap, hyphenation. The PDFs are made by ``tools/gazette_pdf.py`` and fpdf2."""

from __future__ import annotations

import difflib
from collections import Counter
from pathlib import Path

import pytest

from civicsetu.corpus import bundled_acts
from civicsetu.errors import SourceError
from civicsetu.ingest.loader import load_source
from civicsetu.ingest.readers.pdf import _join_pages, read_pdf
from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import Provision
from tools.gazette_pdf import font_path, render

GAZETTE_ACTS = [
    "the-real-estate-regulation-and-development-act-2016",
    "the-right-to-information-act-2005",
    "the-limitation-act-1963",
    "the-consumer-protection-act-2019",
    "the-indian-contract-act-1872",
    "the-right-to-fair-compensation-and-transparency-in-land-acquisition-rehabilitation-"
    "and-resettlement-act-2013",
]


def _provisions(path: Path) -> dict[str, Provision]:
    document, _ = load_source(path)
    provisions, _ = parse_provisions(document.id, document.text, document.doc_type,
                                     document.page_starts)
    return {p.path: p for p in provisions}


@pytest.fixture(scope="session")
def gazette_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gazette")
    acts = {a.id: a.path for a in bundled_acts()}
    for act in GAZETTE_ACTS:
        render(acts[act], out / f"{act}.pdf")
    return out


@pytest.mark.parametrize("act", GAZETTE_ACTS)
def test_gazette_pdf_yields_the_markdown_provisions(gazette_dir: Path, act: str) -> None:
    markdown = _provisions(next(a.path for a in bundled_acts() if a.id == act))
    pdf = _provisions(gazette_dir / f"{act}.pdf")
    agreement = len(set(markdown) & set(pdf)) / len(set(markdown) | set(pdf))
    assert agreement >= 0.99, sorted(set(markdown) ^ set(pdf))[:20]
    same = total = 0.0
    for path, p in markdown.items():
        if p.parent_path is not None:
            continue
        a = " ".join(p.text.split())
        b = " ".join(pdf[path].text.split()) if path in pdf else ""
        total += len(a)
        same += difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() * len(a)
    assert same / total >= 0.99


def test_running_heads_and_page_numbers_are_gone_and_pages_are_kept(gazette_dir: Path) -> None:
    extracted = read_pdf(gazette_dir / f"{GAZETTE_ACTS[0]}.pdf")
    assert "GAZETTE OF INDIA" not in extracted.text
    assert "— 3 —" not in extracted.text
    assert len(extracted.page_starts) > 10
    pages = _provisions(gazette_dir / f"{GAZETTE_ACTS[0]}.pdf")
    assert pages["s.1"].page == 1
    last = max(pages.values(), key=lambda p: p.start)
    assert last.page == len(extracted.page_starts)
    assert all(p.page is not None and p.page <= (p.page_end or 0) for p in pages.values())


def test_max_pages_caps_the_read_and_says_so(gazette_dir: Path) -> None:
    extracted = read_pdf(gazette_dir / f"{GAZETTE_ACTS[0]}.pdf", max_pages=3)
    assert len(extracted.page_starts) == 3
    assert any("read pages 1-3 of" in w for w in extracted.warnings)


def test_line_wraps_and_hyphenation_are_repaired() -> None:
    pages = [["17. Transfer of title.—(1) The pro-", "moter shall execute a registered",
              "conveyance deed under sub-", "section (1) of section 13 in favour of",
              "the allottee; and the sub-section binds the promoter."]]
    text, starts = _join_pages(pages)
    assert "The promoter shall execute a registered conveyance deed" in text
    assert "under sub-section (1) of section 13" in text
    assert starts == (0,)


def test_closing_words_after_a_short_last_item_start_a_paragraph(gazette_dir: Path) -> None:
    # A list's last item stops short with a comma; "he shall be liable ..." starts a new
    # paragraph, so the parse gives it to the sub-section, not to clause (b).
    pages = [["(b) due to discontinuance of his business as a developer on account of the",
              "suspension of registration or for any other reason,",
              "he shall be liable on demand to the allottees, in case the allottee wishes to",
              "withdraw from the project, to return the amount received by him, with",
              "interest and compensation, to the allottee, in the manner as provided."]]
    text, _ = _join_pages(pages)
    assert "for any other reason,\n\nhe shall be liable" in text
    assert "wishes to withdraw" in text  # a full line ending mid-sentence still wraps
    rera = _provisions(gazette_dir / f"{GAZETTE_ACTS[0]}.pdf")
    assert rera["s.18(1)(b)"].text.endswith("for any other reason,")
    assert "he shall be liable on demand" in rera["s.18(1)"].text


def _scan_like_pdf(path: Path, text_pages: int, image_pages: int) -> Path:
    from fpdf import FPDF
    from PIL import Image

    image = path.parent / "scan.png"
    Image.new("L", (200, 280), color=200).save(image)
    pdf = FPDF()
    pdf.add_font("serif", "", str(font_path()))
    for n in range(text_pages):
        pdf.add_page()
        pdf.set_font("serif", size=11)
        pdf.multi_cell(0, 6, f"{n + 1}. Rule number {n + 1}.—The text of rule {n + 1} is here.")
    for _ in range(image_pages):
        pdf.add_page()
        pdf.image(str(image), x=10, y=10, w=180)
    pdf.output(str(path))
    return path


def test_scanned_pages_are_skipped_and_reported(tmp_path: Path) -> None:
    extracted = read_pdf(_scan_like_pdf(tmp_path / "mixed.pdf", 2, 2))
    assert "rule 2 is here" in extracted.text
    assert any("pages 3-4 are scanned images" in w for w in extracted.warnings)


def test_a_fully_scanned_pdf_is_refused_with_the_ocr_remedy(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"scanned PDF.*ocrmypdf"):
        read_pdf(_scan_like_pdf(tmp_path / "scan.pdf", 0, 3))


def test_pdf_title_falls_back_to_the_printed_title(gazette_dir: Path) -> None:
    document, _ = load_source(gazette_dir / f"{GAZETTE_ACTS[2]}.pdf")
    assert document.title.lower().startswith("the limitation act") or \
        document.title.lower().startswith("limitation act")
    assert Counter(document.text.split("\n\n")[0])  # a title block, not empty
