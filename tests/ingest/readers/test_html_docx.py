"""HTML and Word sources through the real parsers (BeautifulSoup + lxml, python-docx)."""

from __future__ import annotations

from pathlib import Path

from civicsetu.ingest.loader import load_source
from civicsetu.ingest.readers import read_source
from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import DocType

STATUTE_HTML = """<!doctype html><html><head><title>The Model Act, 2030</title>
<script>var tracking = "Section 99 - Injected";</script><style>p {color: red}</style></head>
<body><nav><a href="/">Home</a> | <a href="/acts">Acts</a></nav>
<main><h1>The Model Act, 2030</h1>
<h2>Section 1 - Short title.</h2><p>(1) This Act may be called the Model Act, 2030.</p>
<p>(2) It extends to the whole of India.</p>
<h2>Section 2 - Definitions.</h2><p>In this Act,&mdash;</p>
<p>(a) &ldquo;allottee&rdquo; means a person to whom a plot is allotted;</p>
<p>(b) &ldquo;promoter&rdquo; means a person who builds.</p>
<table><tr><th>Fee</th><th>Amount</th></tr><tr><td>Registration</td><td>Rs. 10</td></tr></table>
</main><footer>Copyright notice</footer></body></html>"""


def test_statute_html_keeps_structure_and_drops_scripts(tmp_path: Path) -> None:
    path = tmp_path / "model.html"
    path.write_text(STATUTE_HTML, encoding="utf-8")
    extracted = read_source(path)
    assert "tracking" not in extracted.text and "color: red" not in extracted.text
    assert "Home" not in extracted.text and "Copyright" not in extracted.text
    assert "Registration | Rs. 10" in extracted.text
    document, _ = load_source(path)
    assert document.title == "Model Act, 2030"
    provisions, _ = parse_provisions(document.id, document.text)
    assert [p.path for p in provisions] == ["s.1", "s.1(1)", "s.1(2)", "s.2", "s.2(a)",
                                            "s.2(b)"]


def test_generic_html_page_without_sections_falls_back_to_paragraphs(tmp_path: Path) -> None:
    path = tmp_path / "faq.html"
    path.write_text("<html><body><h1>FAQ</h1><div>What is RERA?<br>A law.</div>"
                    "<p>Second answer.</p></body></html>", encoding="utf-8")
    document, _ = load_source(path, doc_type=DocType.OTHER)
    provisions, warnings = parse_provisions(document.id, document.text, DocType.OTHER)
    assert any("FAQ" in p.text for p in provisions)
    assert "paragraph by paragraph" in warnings[0]


def test_docx_numbered_lists_headings_and_tables(tmp_path: Path) -> None:
    import docx

    word = docx.Document()
    word.core_properties.title = "Services Agreement"
    word.add_heading("Services Agreement", level=0)
    word.add_paragraph("Term. This Agreement runs for two years.", style="List Number")
    word.add_paragraph("Payment. The Client shall pay within 30 days.", style="List Number")
    word.add_paragraph("Termination. Either party may end it on notice.", style="List Number")
    table = word.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Milestone", "Fee"
    table.cell(1, 0).text, table.cell(1, 1).text = "Delivery", "INR 5,00,000"
    path = tmp_path / "services.docx"
    word.save(str(path))

    document, _ = load_source(path, doc_type=DocType.CONTRACT)
    assert document.title == "Services Agreement"
    assert "1. Term. This Agreement" in document.text
    assert "Delivery | INR 5,00,000" in document.text
    provisions, _ = parse_provisions(document.id, document.text, DocType.CONTRACT)
    assert [p.path for p in provisions] == ["cl.1", "cl.2", "cl.3"]
    assert provisions[1].title == "Payment"
