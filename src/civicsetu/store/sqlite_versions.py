"""Versions: a changed document supersedes its old provisions without deleting them.

When a document is ingested again with different text, every section whose text changed
(or that disappeared) is superseded on the change date (the new version's effective
date, else today): its provisions move to ``provision_history`` with ``valid_to`` set,
its chunks stay searchable with ``valid_to`` set, and the old text is kept in
``document_versions`` so old quotes still verify. Unchanged sections keep their ids,
their ``valid_from`` and (by text hash) their embeddings.

Validity is the half-open interval ``[valid_from, valid_to)``; ``None`` is open-ended.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from civicsetu.types import ParsedDocument


def valid_clause(alias: str, as_of: date | None) -> tuple[str, list[object]]:
    """SQL (and parameters) selecting rows of ``alias`` in force ``as_of`` (None: now)."""
    if as_of is None:
        return f"{alias}.valid_to IS NULL", []
    day = as_of.isoformat()
    return (f"({alias}.valid_from IS NULL OR {alias}.valid_from <= ?) AND "
            f"({alias}.valid_to IS NULL OR {alias}.valid_to > ?)", [day, day])


def supersede_changed(c: sqlite3.Connection, parsed: ParsedDocument,
                      change_date: date) -> dict[str, str | None]:
    """Move the changed sections of the stored version into history.

    Returns ``valid_from`` for each section of the new version: carried over when the
    section is unchanged, ``change_date`` when it is new or changed.
    """
    doc = parsed.document
    row = c.execute("SELECT content_hash, text FROM documents WHERE id = ?",
                    (doc.id,)).fetchone()
    new_sections = {p.path: " ".join(p.text.split()) for p in parsed.provisions
                    if p.parent_path is None}
    if row is None:
        first = doc.effective_date.isoformat() if doc.effective_date else None
        return {path: first for path in new_sections}
    old_hash, old_text = row
    old_sections = {path: (" ".join(old_text[start:end].split()), valid_from)
                    for path, start, end, valid_from in c.execute(
                        'SELECT path, start, "end", valid_from FROM provisions '
                        "WHERE doc_id = ? AND parent_path IS NULL", (doc.id,))}
    day = change_date.isoformat()
    changed = [path for path, (text, _) in old_sections.items()
               if new_sections.get(path) != text]
    valid_from = {path: (old_sections[path][1] if path in old_sections and path not in changed
                         else day) for path in new_sections}
    if old_hash == doc.content_hash or not changed:
        return valid_from
    c.execute("INSERT OR IGNORE INTO document_versions (doc_id, content_hash, text, "
              "superseded_on) VALUES (?,?,?,?)", (doc.id, old_hash, old_text, day))
    marks = ",".join("?" * len(changed))
    c.execute(
        f'INSERT INTO provision_history (doc_id, id, path, section, parent_path, kind, title,'
        f' start, "end", ordinal, footnotes, valid_from, valid_to, page, page_end,'
        f' version_hash) SELECT doc_id, id, path, section, parent_path, kind, title, start,'
        f' "end", ordinal, footnotes, valid_from, ?, page, page_end, ? FROM provisions'
        f" WHERE doc_id = ? AND section IN ({marks})", [day, old_hash, doc.id, *changed])
    # Old chunks stay searchable for dates before the change; their ids are re-keyed so
    # the new version's chunks can take the stable ids. The rowid keeps the new key unique
    # when a document returns to an earlier text and changes again (A -> B -> A -> B).
    c.execute(f"UPDATE chunks SET valid_to = ?, id = id || '@' || ? || '.' || rowid"
              f" WHERE doc_id = ? AND"
              f" valid_to IS NULL AND section IN ({marks})",
              [day, old_hash[:12], doc.id, *changed])
    return valid_from


def drop_current(c: sqlite3.Connection, doc_id: str) -> None:
    """Delete the current provisions, chunks, edges and metadata of ``doc_id`` (history
    stays) before the new version is written."""
    c.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE "
              "doc_id = ? AND valid_to IS NULL)", (doc_id,))
    c.execute("DELETE FROM chunks WHERE doc_id = ? AND valid_to IS NULL", (doc_id,))
    c.execute("DELETE FROM provisions WHERE doc_id = ?", (doc_id,))
    c.execute("DELETE FROM edges WHERE doc_id = ?", (doc_id,))


def version_text(c: sqlite3.Connection, doc_id: str, content_hash: str) -> str | None:
    row = c.execute("SELECT text FROM document_versions WHERE doc_id = ? AND content_hash = ?",
                    (doc_id, content_hash)).fetchone()
    return None if row is None else str(row[0])
