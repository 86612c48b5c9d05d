"""Render an India Code Markdown Act as a gazette-like PDF, to test the PDF path.

The layout imitates a printed Gazette of India: a running head with the page number on
every page, a page-number foot, the Act's title block, then each section printed
``18. Title.—(1) text`` with later sub-sections as indented paragraphs, all justified and
wrapped by the layout engine. Footnotes are left out (India Code prints them apart).

It reads the Markdown with its own small reader, not CivicSetu's parser, so the test
that compares the two is not comparing the parser with itself.

    python tools/gazette_pdf.py ACT.md [ACT.md ...] --out DIR
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from pathlib import Path

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_HEADING = re.compile(r"^## Section (?P<num>\S+) - (?P<title>.*)$")


@dataclass
class _Section:
    number: str
    title: str
    paragraphs: list[str] = field(default_factory=list)


def font_path(name: str = "DejaVuSerif.ttf") -> Path:
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"{name} not found; install it with `apt-get install "
                            "fonts-dejavu-core`")


def read_markdown_act(path: Path) -> tuple[str, list[_Section]]:
    text = path.read_text(encoding="utf-8")
    title_match = re.search(r'^title:\s*"?(.*?)"?\s*$', text, re.MULTILINE)
    title = title_match.group(1) if title_match else path.stem
    sections: list[_Section] = []
    in_notes = False
    block: list[str] = []

    def flush() -> None:
        if block and sections and not in_notes:
            sections[-1].paragraphs.append(" ".join(block))
        block.clear()

    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            flush()
            in_notes = False
            sections.append(_Section(heading["num"], heading["title"].strip()))
        elif line.startswith("#"):
            flush()
            in_notes = line.lstrip("#").strip().lower() == "footnotes"
        elif not line.strip():
            flush()
        else:
            block.append(line.strip())
    flush()
    return title, sections


def render(markdown: Path, out: Path) -> Path:
    from fpdf import FPDF

    title, sections = read_markdown_act(markdown)

    class Gazette(FPDF):
        def header(self) -> None:
            self.set_font("serif", size=8)
            self.cell(0, 5, f"{self.page_no()}    THE GAZETTE OF INDIA EXTRAORDINARY    "
                            "[PART II—SEC. 1]", align="C")
            self.ln(8)

        def footer(self) -> None:
            self.set_y(-12)
            self.set_font("serif", size=8)
            self.cell(0, 5, f"— {self.page_no()} —", align="C")

    pdf = Gazette(format="A4")
    pdf.add_font("serif", "", str(font_path("DejaVuSerif.ttf")))
    pdf.add_font("serif", "B", str(font_path("DejaVuSerif-Bold.ttf")))
    pdf.set_margins(22, 18, 22)
    pdf.set_auto_page_break(True, margin=18)
    pdf.add_page()
    pdf.set_font("serif", "B", 12)
    pdf.multi_cell(0, 6, title.upper().rstrip("."), align="C")
    pdf.ln(4)
    pdf.set_font("serif", size=9.5)
    for section in sections:
        heading = f"{section.number}. {section.title.rstrip('.')}.—"
        first, rest = (section.paragraphs[0], section.paragraphs[1:]) if section.paragraphs \
            else ("", [])
        pdf.multi_cell(0, 4.6, heading + first, align="J")
        for paragraph in rest:
            pdf.set_x(pdf.l_margin + 6)
            pdf.multi_cell(0, 4.6, paragraph, align="J")
        pdf.ln(1.5)
    out.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(out))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("acts", nargs="+", type=Path, help="India Code Markdown files")
    parser.add_argument("--out", type=Path, required=True, help="folder for the PDFs")
    args = parser.parse_args()
    for act in args.acts:
        print(render(act, args.out / f"{act.stem}.pdf"))


if __name__ == "__main__":
    main()
