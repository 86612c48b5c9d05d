"""The version of the parse: which provisions, chunks, definitions and references a text
becomes. An index stores it per document, so a newer parser re-parses what an older one
wrote even when the text is unchanged."""

from __future__ import annotations

# Bump it whenever the same source text would parse into different provisions, chunks,
# definitions or references (ids, nesting, spans, chunk boundaries, extracted metadata).
# Documents stored with a lower version are re-parsed once by the next ingest.
# tests/ingest/test_parser_version_guard.py fails when the bundled Acts' parse changes
# and this number does not; a change only other texts show (2: section headings of PDF
# text behind an amendment bracket or wrapped onto a second line) needs the bump too.
# 3: an Explanation "for the purposes of this clause" in a definitions list belongs to the
# list's entry ("(7) consumer"), not to the last item inside it.
# 4: a list's closing words ("(a) ...; or (b) ..., he shall be liable ...") and what follows
# them belong to the list's parent, not to its last item (RERA s.18(1), not s.18(1)(b)); an
# inserted clause continues its neighbour ("(zd)" -> "(ze)"); PDF text keeps the paragraph
# break after a short line ending in a comma.
PARSER_VERSION = 4
