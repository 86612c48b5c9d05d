"""Hostile files, built here by small generators (no large binaries are committed): each is
refused with one line naming the file and the limit, memory stays small while it is
checked, the rest of the batch is ingested, and the CLI exits non-zero."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.errors import SourceError
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.ingest.readers import ReadLimits, read_source
from civicsetu.ingest.readers.limits import check_zip

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
PARAGRAPH = "<w:p><w:r><w:t>{}</w:t></w:r></w:p>"


def _base_docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("The Model Rules, 2099", level=1)
    document.add_paragraph("1. Short title.—These rules may be called the Model Rules.")
    document.save(str(path))


def _docx_with(path: Path, body: str | None = None, extra: dict[str, bytes] | None = None,
               prolog: str = "") -> None:
    """A real python-docx file whose document.xml body (and extra entries) are replaced."""
    _base_docx(path)
    with zipfile.ZipFile(path) as src:
        parts = {i.filename: src.read(i) for i in src.infolist()}
    if body is not None:
        parts["word/document.xml"] = (
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>{prolog}'
            f"<w:document {W}><w:body>{body}</w:body></w:document>").encode()
    parts.update(extra or {})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)


def zip_bomb(path: Path) -> None:
    """A ~70 KB .docx whose one extra entry inflates to 32 MiB of zeros."""
    _docx_with(path, extra={"word/media/bomb.bin": b"\0" * (32 * 2**20)})


def many_small_paragraphs(path: Path) -> None:
    """Tiny paragraphs repeated: high ratio, the shape that hung past 4 GB."""
    _docx_with(path, body=PARAGRAPH.format("a") * 300_000)


def billion_laughs(path: Path) -> None:
    levels = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    _docx_with(path, body=PARAGRAPH.format("&lol9;"),
               prolog=f"<!DOCTYPE w:document [{''.join(levels)}]>")


def many_entries(path: Path) -> None:
    _docx_with(path, extra={f"customXml/item{i}.xml": b"<a/>" for i in range(2500)})


def deep_html(path: Path, depth: int = 200_000) -> None:
    path.write_text("<html><body>" + "<div>" * depth + "Section 1. Text." + "</div>" * depth
                    + "</body></html>", encoding="utf-8")


Maker = Callable[[Path], None]
CASES: list[tuple[str, str, Maker, str]] = [
    ("ZIP bomb entry", "bomb.docx", zip_bomb, r"inflates more than 200 times.*ZIP bomb"),
    ("many small paragraphs", "paras.docx", many_small_paragraphs,
     r"document\.xml inflates more than 200 times"),
    ("billion laughs", "laughs.docx", billion_laughs, r"declares a DOCTYPE or ENTITY"),
    ("too many ZIP entries", "entries.docx", many_entries,
     r"2\d{3} ZIP entries, over the limit of 2000.*CIVICSETU_MAX_ZIP_ENTRIES"),
    ("200,000-deep HTML", "deep.html", deep_html,
     r"nested deeper than 256 levels.*CIVICSETU_MAX_HTML_DEPTH"),
]


@pytest.mark.parametrize(("case", "name", "make", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_hostile_file_is_refused_with_one_line(tmp_path: Path, case: str, name: str,
                                               make: Maker, message: str) -> None:
    path = tmp_path / name
    make(path)
    with pytest.raises(SourceError) as refused:
        read_source(path)
    text = str(refused.value)
    assert text.startswith(str(path)) and "\n" not in text, text
    assert re.search(message, text), text


@pytest.mark.parametrize("make", [zip_bomb, many_small_paragraphs])
def test_zip_limits_are_checked_while_streaming_in_small_memory(tmp_path: Path,
                                                                make: Maker) -> None:
    path = tmp_path / "x.docx"
    make(path)
    tracemalloc.start()
    try:
        with pytest.raises(SourceError):
            check_zip(path, ReadLimits())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak  # the entries inflate to 10-64 MiB


def test_total_inflated_size_counts_across_entries(tmp_path: Path) -> None:
    path = tmp_path / "big.docx"
    # Incompressible-ish entries: each passes the ratio, together they pass 1 MiB.
    extra = {f"word/media/r{i}.bin": os.urandom(400_000) for i in range(4)}
    _docx_with(path, extra=extra)
    with pytest.raises(SourceError, match=r"inflates to over \d+ MiB, more than the 1 MiB"):
        read_source(path, limits=ReadLimits(max_unpacked_bytes=2**20))
    assert read_source(path).format == "docx"  # the default limit lets it through


def test_moderately_nested_html_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "nested.html"
    deep_html(path, depth=200)
    assert "Section 1. Text." in read_source(path).text
    deep_html(path, depth=300)
    with pytest.raises(SourceError, match="deeper than 256"):
        read_source(path)


def test_pdf_page_count_limit(tmp_path: Path) -> None:
    from fpdf import FPDF

    from tools.gazette_pdf import font_path

    pdf = FPDF()
    pdf.add_font("serif", "", str(font_path()))
    pdf.set_font("serif", size=11)
    for n in range(3):
        pdf.add_page()
        pdf.multi_cell(0, 6, f"{n + 1}. Rule {n + 1}.—Text of the rule number {n + 1}.")
    path = tmp_path / "three.pdf"
    pdf.output(str(path))
    with pytest.raises(SourceError, match=r"3 pages, over the limit of 2.*MAX_PDF_PAGES"):
        read_source(path, limits=ReadLimits(max_pdf_pages=2))
    assert read_source(path, max_pages=2, limits=ReadLimits(max_pdf_pages=2)).text


def test_time_limit_per_file(tmp_path: Path) -> None:
    path = tmp_path / "slow.html"
    deep_html(path, depth=50)
    with pytest.raises(SourceError, match=r"longer than the 1e-09 s limit.*READ_SECONDS"):
        read_source(path, limits=ReadLimits(max_read_seconds=1e-9))


def test_refused_files_do_not_stop_the_batch_and_the_exit_code_says_so(
        tmp_path: Path, small_act: Path) -> None:
    bad = [tmp_path / "bomb.docx", tmp_path / "laughs.docx", tmp_path / "deep.html"]
    zip_bomb(bad[0])
    billion_laughs(bad[1])
    deep_html(bad[2])
    home = tmp_path / "home"
    env = {**os.environ, "CIVICSETU_HOME": str(home), "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "civicsetu.cli", "ingest", "--json",
                           *map(str, bad), str(small_act)], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr
    import json

    reports = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["status"] for r in reports] == ["failed"] * 3 + ["added"]
    for path, report in zip(bad, reports, strict=False):
        assert report["message"].startswith(str(path)), report
    with Engine(Settings(home=home)) as engine:
        assert [d.id for d in engine.documents()] == ["model-tenancy-act-2099"]
        engine.ingest([SourceSpec(small_act)])  # the store is usable afterwards
