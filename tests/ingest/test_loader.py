from pathlib import Path

import pytest

from civicsetu.errors import SourceError
from civicsetu.ingest.loader import derived_aliases, load_document, short_title


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.md", b"", "empty"),
        ("blank.txt", b"  \n\n\t\n", "white space"),
        ("junk.md", b"\x00\x01\x02binary", "binary"),
        ("latin1.txt", "Section 1 – café".encode("cp1252"), "UTF-8"),
        ("scan.pdf", b"%PDF-1.7 junk", "not a readable PDF"),
        ("page.html", b"<html></html>", "no visible text"),
        ("data.xlsx", b"PK", "unknown file type"),
    ],
)
def test_bad_sources_get_a_clear_message_naming_the_file(
        tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SourceError, match=message) as info:
        load_document(path)
    assert name in str(info.value)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        load_document(tmp_path / "nope.md")
    with pytest.raises(SourceError, match="folder"):
        load_document(tmp_path)


def test_front_matter_title_source_and_aliases(small_act: Path) -> None:
    doc = load_document(small_act)
    assert doc.id == "model-tenancy-act-2099"
    assert doc.title == "Model Tenancy Act, 2099"
    assert doc.source == "test fixture"
    assert "Model Tenancy Act" in doc.aliases


def test_crlf_is_normalised(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"## Section 1 - A.\r\n\r\n(1) x.\r\n")
    assert "\r" not in load_document(path).text


def test_title_helpers() -> None:
    assert short_title("The Indian Stamp Act, 1899.") == "Indian Stamp Act, 1899"
    aliases = derived_aliases("The Real Estate (Regulation and Development) Act, 2016.")
    assert "Real Estate Act" in aliases
    assert "Stamp Act" in derived_aliases("The Indian Stamp Act, 1899.")
