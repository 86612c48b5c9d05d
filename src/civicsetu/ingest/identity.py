"""Who a document is: its id, its provenance, and whether it passes for another.

- Ids of user files are ASCII slugs of the file stem (NFKD transliteration), else of the
  title, else ``doc-<hash of the path>``: never empty. When another source path already
  holds that id, a short hash of this path is appended (``rules-3f2a``) instead of
  replacing the other document; re-ingesting the same path finds its own id again. An API
  upload is known by its file name (``upload:rules.md``), not by its server folder.
  Bundled and registry documents keep the ids they are given (the evaluation uses them);
  a bundled Act's id holds only its official text (``ingest/official.check_official``), so
  a registry entry or upload naming it explicitly is refused.
- A document whose title or short title, normalised, equals another document's is a
  look-alike: flagged at ingest, and answers quoting it carry a warning.
- A file holding several Acts (two ``# ... Act, 1999`` titles, or two section 1s naming
  different Acts: "This Act may be called ...") is refused: quoting one Act's sections under the
  other's name is worse than not indexing the file.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path

from civicsetu.types import stable_hash

_ACT_TITLE = re.compile(r"^#[ \t]+(?P<title>.{0,200}?\b(?:Act|Code|ACT|CODE)\b,?[ \t]*\d{4})\.?"
                        r"[ \t]*$", re.MULTILINE)
# Section 1 of every Act names it: "This Act may be called the Limitation Act, 1963".
_CALLED = re.compile(r"\bThis\s+(?:Act|Code)\s+may\s+be\s+called\s+(?:as\s+)?(?:the\s+)?"
                     r"(?P<name>[^.;\n]{1,200}?(?:Act|Code),?\s*\d{4})", re.IGNORECASE)


def slug(name: str) -> str:
    """ASCII slug: NFKD-transliterated, lower case, runs of other characters as ``-``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:120].strip("-")


def base_id(path: Path, title: str, key: str | None = None) -> str:
    """The id a user file would like: slug of the stem, of the title, or a hash of ``key``
    (default the path)."""
    return slug(path.stem) or slug(title) or f"doc-{stable_hash(key or str(path), length=8)}"


def user_doc_id(path: Path, title: str, holder: Callable[[str], str | None],
                key: str | None = None) -> str:
    """A unique, stable id for the user file at ``path`` (absolute).

    ``key`` names the source across ingests (default the path; an API upload's is
    ``upload:<file name>``, so uploading ``rules.md`` again updates the first upload).
    ``holder(id)`` is the key of the source already stored under ``id``, or None when the
    id is free.
    """
    wanted = base_id(path, title, key)
    mine = key or str(path)
    candidates = [wanted] + [f"{wanted}-{stable_hash(mine, length=n)}" for n in (4, 8, 16)]
    for candidate in candidates:
        held = holder(candidate)
        if held is None or held == mine:
            return candidate
    raise AssertionError("a 16-hex-digit path hash collided")  # pragma: no cover


def name_key(name: str) -> str:
    """Titles compared for look-alikes: case, a leading "The", punctuation folded."""
    name = unicodedata.normalize("NFKC", name).lower().strip()
    name = re.sub(r"^the\s+", "", name)
    return " ".join(re.sub(r"[^\w\s]", " ", name).split())


def lookalikes(names: Iterable[str], others: Iterable[tuple[str, Iterable[str]]]) -> list[str]:
    """Ids among ``others`` (id, its titles) that share a normalised title with ``names``."""
    keys = {name_key(n) for n in names if name_key(n)}
    return [doc_id for doc_id, titles in others if keys & {name_key(t) for t in titles}]


def several_acts(text: str) -> list[str]:
    """The Act titles of a file that holds more than one Act, else ``[]``."""
    titles = list(dict.fromkeys(m.group("title").strip() for m in _ACT_TITLE.finditer(text)))
    if len({name_key(t) for t in titles}) > 1:
        return titles
    called = list(dict.fromkeys(" ".join(m.group("name").split())
                                for m in _CALLED.finditer(text)))
    if len({name_key(c) for c in called}) > 1:
        return called
    return []
