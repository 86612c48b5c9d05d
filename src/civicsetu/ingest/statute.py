"""Document text -> a provision tree with exact character spans.

``units.find_units`` finds the top-level units (sections, rules, clauses ...) in any
numbering style; this module nests the numbered paragraphs inside each one (``(1)``,
``(a)``, ``(i)`` ...) and attaches ``### Footnotes`` blocks of the India Code Markdown.
Every provision records ``start``/``end`` offsets into the document text so any quote
can be checked later.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from civicsetu.ingest.markers import (
    INTRO_ENDINGS,
    KIND_OF_LEVEL,
    PARAGRAPH_MARKER,
    Level,
    OpenLevel,
    classify,
    comes_after,
    continues,
    is_sequence_start,
)
from civicsetu.ingest.readers.base import page_at
from civicsetu.ingest.units import Unit, find_units
from civicsetu.types import DocType, Footnote, Provision, ProvisionKind

log = logging.getLogger(__name__)

ANY_HEADING = re.compile(r"^#{1,6}[ \t]+.*$", re.MULTILINE)
FOOTNOTES_HEADING = re.compile(r"^#{2,4}[ \t]+Footnotes[ \t]*$", re.MULTILINE | re.IGNORECASE)
# ``2 . I n s . b y`` (a letter-spaced PDF line) is a footnote entry too.
FOOTNOTE_ENTRY = re.compile(r"^(?P<marker>\d{1,3}|\*{1,3})[ \t]?\.[ \t]+", re.MULTILINE)
# A blank line ends a paragraph; so does a line break before a numbering marker when the
# line before it closes a clause (``...;`` ``...; and`` ``...:—``). A wrapped line that
# merely starts with ``(a) of sub-section`` follows no such ending and is left alone.
_MARKER_AHEAD = (r"(?=[ \t]*(?:\^[\w*]{1,4}|\d{1,3}[ \t]*(?=\[))?\[?[ \t]*"
                 r"\([ \t]?(?:\d{1,3}[A-Z]{0,3}|[a-zA-Z]{1,4})[ \t]?\))")
# India Code prints the States' amendments of a section after its text, under this heading
# (a PDF line joiner may run the next line into it).
# Their own numbering ("(b) After clause (14), the following clause shall be inserted")
# belongs to the State's amending Act, not to the section: nested, it made a clause
# "Section 2(b)" of the central Act out of an Uttarakhand amendment.
STATE_AMENDMENTS = re.compile(r"^[ \t]*STATE AMENDMENTS?\b", re.MULTILINE)
PARAGRAPH_BREAK = re.compile(
    r"\n[ \t]*\n"
    r"|(?<=[;:.—–\]-])[ \t]*\n" + _MARKER_AHEAD
    + r"|(?:(?<=; and)|(?<=; or)|(?<=;and)|(?<=;or))[ \t]*\n" + _MARKER_AHEAD
)

@dataclass(slots=True)
class _Node:
    path: str
    kind: ProvisionKind
    level: Level | None
    token: str
    start: int
    end: int = -1
    title: str = ""
    children: list[_Node] = field(default_factory=list)
    lead: str = ""  # the paragraph before the marker that opened it


def parse_provisions(doc_id: str, text: str, doc_type: DocType = DocType.ACT,
                     page_starts: tuple[int, ...] = ()) -> tuple[list[Provision], list[str]]:
    """All provisions of ``text`` in document order, and warnings for the user."""
    units = find_units(text, doc_type)
    if not units:
        log.warning("no_section_boundaries_found doc=%s; using paragraph fallback", doc_id)
        return _with_pages(_paragraph_fallback(doc_id, text), page_starts), [
            f"{doc_id}: no numbered sections found; indexed paragraph by paragraph"
        ]
    provisions: list[Provision] = []
    warnings: list[str] = []
    kept: list[Unit] = []
    for unit in units:
        if any(u.path == unit.path for u in kept):
            # Never drop text: a repeated number stays inside the unit that has it first.
            warnings.append(f"{doc_id}: {unit.path} appears twice; the second is kept "
                            "inside the first")
            continue
        kept.append(unit)
    for i, unit in enumerate(kept):
        limit = kept[i + 1].start if i + 1 < len(kept) else len(text)
        body_end = (_before_trailing_headings(text, unit.body_start, limit)
                    if unit.style == "markdown" else limit)
        body_start, body_end, notes = _split_footnotes(text, unit.body_start, body_end)
        body_start, body_end = _trim(text, body_start, body_end)
        section = _Node(unit.path, unit.kind, None, "", body_start, body_end, unit.title)
        _build_tree(section, text)
        provisions.extend(_flatten(doc_id, text, section, notes))
    return _with_pages(provisions, page_starts), warnings


def _with_pages(provisions: list[Provision], page_starts: tuple[int, ...]) -> list[Provision]:
    if not page_starts:
        return provisions
    return [replace(p, page=page_at(page_starts, p.start),
                    page_end=page_at(page_starts, max(p.start, p.end - 1)))
            for p in provisions]


def _before_trailing_headings(text: str, start: int, limit: int) -> int:
    """Where a Markdown unit's body ends: before the headings (``## CHAPTER II``) that
    stand between it and the next unit. Headings inside the body (``## Page 3``) and
    the ``### Footnotes`` block stay with the body, so no text is lost."""
    end = limit
    while end > start:
        line_start = text.rfind("\n", start, end - 1) + 1
        line = text[line_start:end].strip()
        if line and not (ANY_HEADING.match(line) and not FOOTNOTES_HEADING.match(line)):
            break
        end = line_start
    return max(end, start)


def _split_footnotes(text: str, start: int, end: int) -> tuple[int, int, tuple[Footnote, ...]]:
    m = FOOTNOTES_HEADING.search(text, start, end)
    if not m:
        return start, end, ()
    notes_text = text[m.end():end]
    entries = list(FOOTNOTE_ENTRY.finditer(notes_text))
    notes = []
    lead = " ".join(notes_text[:entries[0].start() if entries else len(notes_text)].split())
    if lead:
        notes.append(Footnote("", lead))  # unnumbered note text is kept, not dropped
    for j, entry in enumerate(entries):
        stop = entries[j + 1].start() if j + 1 < len(entries) else len(notes_text)
        body = " ".join(notes_text[entry.end():stop].split())
        if body:
            notes.append(Footnote(entry.group("marker"), body))
    return start, m.start(), tuple(notes)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _paragraphs(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    pos = start
    for m in PARAGRAPH_BREAK.finditer(text, start, end):
        s, e = _trim(text, pos, m.start())
        if e > s:
            yield s, e
        pos = m.end()
    s, e = _trim(text, pos, end)
    if e > s:
        yield s, e


def _build_tree(section: _Node, text: str) -> None:
    """Nest the numbered paragraphs of ``section``; unnumbered ones stay with the open node.
    State amendments printed after the section's text stay with the section itself, and so
    do the lettered items of an Explanation or of Illustrations (see ``_Commentary``)."""
    stack: list[_Node] = [section]
    previous_text = ""
    amendments = STATE_AMENDMENTS.search(text, section.start, section.end)
    own_end = amendments.start() if amendments else section.end
    commentary: _Commentary | None = None
    paragraphs = list(_paragraphs(text, section.start, own_end))
    listed = _DEFINITIONS_LIST.search(text, section.start, min(own_end, section.start + 600))
    entry_depth: int | None = None  # where a definitions list's entries sit in the stack
    holder_depth: int | None = None  # where the provision that opens the list sits
    # The paragraphs of the innermost open provision since its marker; None once closing
    # words have been given to its parent, until the next marker.
    own: list[str] | None = []
    for index, (p_start, p_end) in enumerate(paragraphs):
        # A slice, not match(text, pos): ``^`` would not match mid-line, and an Act printed
        # ``18. Title.—(1) If ...`` opens its first sub-section right after the dash.
        paragraph = text[p_start:p_end]
        m = PARAGRAPH_MARKER.match(paragraph)
        if m is None and index == 0:
            # India Code repeats an amended section's number and heading inside its
            # bracket (``^1[106. Duration of certain leases.-- (1) In the ...``).
            echo = _heading_echo(section.path.split(".", 1)[-1]).match(paragraph)
            if echo and PARAGRAPH_MARKER.match(paragraph[echo.end():]):
                p_start += echo.end()
                paragraph = text[p_start:p_end]
                m = PARAGRAPH_MARKER.match(paragraph)
        if m is not None:
            token = m.group("token")
            open_levels = [OpenLevel(n.level, n.token) for n in stack if n.level is not None]
            level = classify(token, open_levels, previous_text)
            if commentary is None or not commentary.holds(token, level):
                commentary = None
                own = []
                _open(stack, level, token, previous_text, p_start)
                if listed and holder_depth is not None and len(stack) - 1 <= holder_depth:
                    # A sibling of the provision that opened the list ("(2) In this
                    # section, unless ..." then "(3)"): the list is over.
                    listed, entry_depth = None, None
                elif listed and entry_depth is None and p_start >= listed.end():
                    entry_depth = len(stack) - 1
        elif commentary is None and own is not None and _closes_list(
                stack, paragraph, own, entry_depth,
                functools.partial(_next_marker, text, paragraphs, index + 1)):
            # The list's closing words ("he shall be liable ...") finish the sentence its
            # lead-in began, so they, and the provisos after them, are the parent's.
            stack.pop().end = p_start
            own = None
        if listed and holder_depth is None and p_start <= listed.start() < p_end:
            holder_depth = len(stack) - 1
        opening = _commentary_opening(paragraph)
        if opening is not None:
            kind, words, at_start = opening
            # A second Explanation in a row keeps the law's numbering seen before the first.
            structural = list(stack) if commentary is None else commentary.structural
            _close_to_scope(stack, kind, words, p_start if at_start else p_end, entry_depth)
            commentary = _Commentary(structural)
        previous_text = paragraph
        if own is not None:
            own.append(paragraph)
    for node in stack[1:]:
        node.end = own_end
    _fix_ends(section, text)


# A list's lead-in ("If the promoter fails ...,--"), an item that the next item or the
# closing words continue ("...; or", "... for any other reason,"), and closing words that
# go on with the lead-in's sentence ("he shall be liable ...", "shall be punishable ...").
_LEAD_IN_END = re.compile(r"(?:--|[—–:-])\s*$")
_ITEM_END = re.compile(r"[,;]\s*(?:(?:or|and)\s*)?$")
_CLOSING_START = re.compile(r"^(?:\^[\w*]{1,4}\s*|\d{1,3}[ \t]*(?=\[))?\[?[ \t]*[a-z]")


def _closes_list(stack: list[_Node], paragraph: str, own: list[str], entry_depth: int | None,
                 next_marker: Callable[[], str | None]) -> bool:
    """Whether the unnumbered ``paragraph`` is the closing words of the list whose item is
    open at the top of ``stack`` (``own``: that item's paragraphs so far): the words after
    "(a) ...; or (b) ...," that apply to every item alike, such as RERA s.18(1)'s "he shall
    be liable on demand to the allottees ... to return the amount ...".

    They are only when the item's parent introduced a list of two items or more with a
    dash, the item ends as items do (``;`` ``; or`` ``,``) without a list of its own, the
    paragraph goes on in lower case, and the law numbers no further item of the list after
    it. One level closes: sub-clauses' closing words are their clause's, not the
    sub-section's. A definitions list's entries keep what follows them."""
    if len(stack) < 2 or stack[-1].level is None:
        return False
    item, parent = stack[-1], stack[-2]
    if entry_depth is not None and len(stack) - 1 <= entry_depth:
        return False
    if not parent.children or parent.children[-1] is not item:
        return False
    # The list is the run of the item's own family ending with it: "(a)" and "(b)" of
    # "(i) where ..., and (a) ...; or (b) ...," are not a list that "(2)--" introduced.
    run = 0
    while run < len(parent.children) and parent.children[-1 - run].level == item.level:
        run += 1
    first = parent.children[-run]
    if run < 2 or not _LEAD_IN_END.search(first.lead):
        return False
    if not own or not _ITEM_END.search(own[-1]) or not _CLOSING_START.match(paragraph):
        return False
    if any(_LEAD_IN_END.search(p) for p in own):
        return False  # the item's own unnumbered list ("the following sections,--")
    token = next_marker()
    if token is not None:
        open_levels = [OpenLevel(n.level, n.token) for n in stack if n.level is not None]
        level = classify(token, open_levels, paragraph)
        if level == item.level and comes_after(item.token, token, level):
            return False  # "(c)" follows: the paragraph was (b)'s own text
    return True


def _next_marker(text: str, paragraphs: list[tuple[int, int]], first: int) -> str | None:
    """The marker of the first numbered paragraph from ``paragraphs[first]`` on, if any."""
    for start, end in paragraphs[first:]:
        m = PARAGRAPH_MARKER.match(text[start:end])
        if m:
            return m.group("token")
    return None


# The provision an Explanation names as its scope ("For the purposes of this sub-section").
_SCOPE = re.compile(r"\bthis\s+(?P<unit>sub-section|sub-clause|clause|section|Chapter|Part|"
                    r"Act|Schedule)\b", re.IGNORECASE)
_SCOPE_LEVEL = {"sub-section": Level.NUMBER, "clause": Level.LETTER, "sub-clause": Level.ROMAN}
# A definitions section's list ("In this Act, unless the context otherwise requires,--")
# calls each of its entries a clause, numbered "(7)" or lettered "(zk)".
_DEFINITIONS_LIST = re.compile(r"unless\s+the\s+context\s+otherwise\s+requires", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)  # one pattern per section number, not per section
def _heading_echo(number: str) -> re.Pattern[str]:
    """A section numbered ``number`` printed again with its heading at the start of its
    body, behind an optional amendment bracket, up to the dash before its first marker."""
    return re.compile(r"^(?:\^[\w*]{1,4}[ \t]*(?:,[ \t]*\^[\w*]{1,4}[ \t]*)*)?\[?[ \t]*"
                      + re.escape(number) + r"\.[ \t][^\n]{0,300}?(?:--|—|–)[ \t]*(?=\()")


@dataclass(slots=True)
class _Commentary:
    """An open Explanation or Illustrations block. Its lettered or numbered items
    (``(a) A contracts to ...``, ``(i) where a resolution plan ...``) explain the law; they
    are not its clauses, so they get no provision id of their own. The block ends at a
    marker numbered after one of the law's own provisions open before it (``(3)`` after
    ``(2)``, ``(zb)`` after ``(za)``) unless it continues the block's own items (``(iii)``
    after the block's ``(ii)``)."""

    structural: list[_Node]
    last: dict[Level, str] = field(default_factory=dict)

    def holds(self, token: str, level: Level) -> bool:
        """Whether the marker ``token`` (classified as ``level``) is an item of the block;
        an item is recorded so the next one is seen to continue it."""
        own = any(continues(prev, token, lvl) for lvl, prev in self.last.items())
        law = any(node.level == level and comes_after(node.token, token, level)
                  for node in self.structural)
        if law and not own:
            return False
        self.last[level] = token
        return True


def _close_to_scope(stack: list[_Node], kind: str, paragraph: str, at: int,
                    entry_depth: int | None = None) -> None:
    """Close the open provisions deeper than the one a commentary block belongs to:
    Illustrations and an Explanation "for the purposes of this section" belong to the
    section, one of "this sub-section" or "this clause" to the innermost such provision.
    In a definitions list whose entries sit at ``entry_depth`` of the stack, "this clause"
    is the open entry and "this sub-clause" the item inside it. An Explanation naming no
    scope stays with the open provision."""
    keep = len(stack)
    if kind.startswith("Illustration"):
        keep = 1
    else:
        scope = _SCOPE.search(paragraph, 0, 200)
        if scope is None:
            return
        unit = scope.group("unit").lower()
        if entry_depth is not None and unit in ("clause", "sub-clause"):
            # The entries are the clauses whatever their marker style: "(7)" in one Act,
            # "(zk)" in another, "(a)" under a sub-section (1) in a third.
            keep = entry_depth + (1 if unit == "clause" else 2)
            if len(stack) < keep:
                return
        elif unit in _SCOPE_LEVEL:
            levels = [i for i, node in enumerate(stack) if node.level == _SCOPE_LEVEL[unit]]
            if not levels:
                return
            keep = levels[-1] + 1
        else:
            keep = 1
    while len(stack) > keep:
        stack.pop().end = at


def _open(stack: list[_Node], level: Level, token: str, previous_text: str, at: int) -> None:
    """Open the provision of a marker: close what it closes, nest it in what stays open."""
    was_open = list(stack)
    _close_for(stack, level, token, previous_text, at)
    parent = stack[-1]
    path = f"{parent.path}({token})"
    if any(child.path == path for child in parent.children):
        # A repeated marker is almost always a quoted or inserted clause; keep it
        # inside the open provision rather than minting a duplicate id (closing
        # that provision here would leave the paragraph in none of its children).
        stack[:] = was_open
        return
    node = _Node(path, KIND_OF_LEVEL[level], level, token, at, lead=previous_text)
    parent.children.append(node)
    stack.append(node)


# An Explanation (``Explanation 2.--``) or Illustrations: opening a paragraph, or (text
# read from a PDF joins lines) ending the sentence before it.
COMMENTARY = re.compile(r"^(?:\^[\w*]{1,4}[ \t]*)?\W{0,3}(?P<kind>Explanation|Illustrations?)\b")
COMMENTARY_AFTER = re.compile(
    r"(?<=[.;:\]])[\"”'’]?\s+(?:(?P<kind>Illustrations?)\s*$"
    r"|(?P<explanation>Explanation)(?:\s+\d{1,2})?\s*\.?\s*(?:--|—|–))")


def _commentary_opening(paragraph: str) -> tuple[str, str, bool] | None:
    """(kind, its words, whether it opens the paragraph) when ``paragraph`` opens an
    Explanation or Illustrations, else None."""
    m = COMMENTARY.match(paragraph)
    if m:
        return m.group("kind"), paragraph, True
    m = COMMENTARY_AFTER.search(paragraph)
    if m:
        return m.group("kind") or m.group("explanation"), paragraph[m.start():], False
    return None


def _close_for(stack: list[_Node], level: Level, token: str, previous_text: str,
               at: int) -> None:
    """Pop the nodes that a new marker of ``level`` closes.

    A sequence start (``(a)``, ``(1)``, ``(i)``) right after an introducing colon or dash
    nests under the open node even when drafting inverts the usual order (letters inside
    a roman sub-clause). Otherwise the marker closes everything down to its open sibling
    of the same family, or, with no such sibling, everything deeper than itself.
    """
    if is_sequence_start(token) and previous_text.rstrip().endswith(INTRO_ENDINGS):
        return
    same = [i for i, node in enumerate(stack) if node.level == level]
    if same:
        # The sibling is the open node this marker continues ("(i)" after an outer "(h)"
        # whose own list "(a)".."(d)" is still open), else the latest of its family.
        after = [i for i in same if continues(stack[i].token, token, level)]
        keep = (after or same)[-1]
    else:
        keep = len(stack)
        while keep > 1 and (stack[keep - 1].level or 0) > level:
            keep -= 1
    while len(stack) > max(keep, 1):
        stack.pop().end = at


def _fix_ends(node: _Node, text: str) -> None:
    for child in node.children:
        child.start, child.end = _trim(text, child.start, child.end)
        _fix_ends(child, text)


def _flatten(doc_id: str, text: str, section: _Node,
                 notes: tuple[Footnote, ...]) -> Iterator[Provision]:
    ordinal = 0

    def walk(node: _Node, parent: str | None) -> Iterator[Provision]:
        nonlocal ordinal
        ordinal += 1
        yield Provision(
            doc_id=doc_id,
            path=node.path,
            kind=node.kind,
            title=node.title if node.level is None else "",
            start=node.start,
            end=node.end,
            text=text[node.start:node.end],
            parent_path=parent,
            ordinal=ordinal,
            footnotes=notes if node.level is None else (),
        )
        for child in node.children:
            yield from walk(child, node.path)

    yield from walk(section, None)


def _paragraph_fallback(doc_id: str, text: str) -> list[Provision]:
    provisions = []
    for n, (start, end) in enumerate(_paragraphs(text, 0, len(text)), start=1):
        provisions.append(Provision(doc_id, f"p.{n}", ProvisionKind.PARAGRAPH, "", start, end,
                                    text[start:end], None, n))
    return provisions
