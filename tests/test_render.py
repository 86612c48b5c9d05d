"""Verbatim output: what the terminal shows is the stored text, brackets and all.

Each test renders through the same functions the CLI prints with (``civicsetu.render``),
into a real Rich console writing to a string, as a terminal would receive it.
"""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path

import pytest
from rich.console import Console

from civicsetu.engine import Engine
from civicsetu.render import (
    answer_lines,
    document_lines,
    edge_lines,
    emit,
    hit_lines,
    notice_lines,
    provision_lines,
)
from civicsetu.store.base import DocumentInfo, GraphEdge
from civicsetu.types import Answer, Footnote, Provision, ProvisionKind

INSERTION = re.compile(r"\[[^\[\]\n]{0,200}\]")
HOSTILE = "a duty of [one per centum] on [only] the [/x] amount [bold]x[/bold] :smile: [/]"


def console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=80, soft_wrap=True, color_system=None), buffer


def render(lines: list[object]) -> str:
    con, buffer = console()
    emit(con, lines)  # type: ignore[arg-type]
    return buffer.getvalue()


def provision(text: str, title: str = "Duty [one per centum]") -> Provision:
    return Provision("doc", "s.3", ProvisionKind.SECTION, title, 0, len(text), text, None, 0,
                     footnotes=(Footnote("1", "Ins. by Act 7 of [2017]"),))


def test_show_keeps_bracketed_insertions_and_markup_like_text() -> None:
    shown = render(provision_lines(provision(HOSTILE), "Act [/x] of 2099", "Duty [b]"))
    assert HOSTILE in shown
    assert "Act [/x] of 2099" in shown and "Duty [b]" in shown
    assert "1. Ins. by Act 7 of [2017]" in shown


def test_answer_notices_search_documents_and_graph_keep_text_verbatim() -> None:
    answer = Answer("q", f"“{HOSTILE}”", False, [], [], notices=[f"note {HOSTILE}"])
    assert HOSTILE in render(answer_lines(answer))
    assert f"notice: note {HOSTILE}" in render(notice_lines(answer.notices))
    assert " ".join(HOSTILE.split()) in render(hit_lines(1, "doc#s.3", 0.5, True, HOSTILE))
    doc = DocumentInfo("doc-[x]", f"Title {HOSTILE}", "", "", "IN", "act", (), "", 1, 1)
    listed = render(document_lines([doc]))
    assert "doc-[x]" in listed and HOSTILE in listed
    edge = GraphEdge("doc#s.3", "other#s.1", "REFERENCES", HOSTILE)
    assert HOSTILE in render(edge_lines("doc#s.3", [edge], [], [edge]))


def test_documents_prints_long_ids_whole() -> None:
    long_id = "the-" + "very-long-" * 20 + "act-2099"
    doc = DocumentInfo(long_id, "A title", "", "", "IN", "act", (), "", 1, 1)
    assert long_id in render(document_lines([doc]))


def _bundled_provision_ids(home: Path) -> list[str]:
    with sqlite3.connect(home / "civicsetu.db") as c:
        return [r[0] for r in c.execute("SELECT id FROM provisions ORDER BY doc_id, ordinal")]


@pytest.mark.slow
def test_every_bundled_provision_round_trips_through_show(bundled: Engine) -> None:
    """All provisions (6,000+), and every bracketed insertion in them, print unchanged."""
    ids = _bundled_provision_ids(bundled.settings.home)
    assert len(ids) > 5000
    insertions = 0
    con, buffer = console()
    for full_id in ids:
        p = bundled.show(full_id)
        doc_title = bundled.store.document(p.doc_id).title if not insertions else "Act"
        buffer.seek(0)
        buffer.truncate()
        emit(con, provision_lines(p, doc_title, p.title))
        shown = buffer.getvalue()
        assert p.text in shown, full_id
        for found in INSERTION.findall(p.text):
            insertions += 1
            assert found in shown, (full_id, found)
        for note in p.footnotes:
            assert note.text in shown, (full_id, note.text)
    assert insertions > 100  # the bundle holds hundreds; a parser change must not hide them
