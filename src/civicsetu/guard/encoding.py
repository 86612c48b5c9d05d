"""Text that cannot be read, and questions in a language the corpus does not serve.

Python hands undecodable bytes (argv, a stdin line in the C locale) over as lone
surrogates; they are an ``InputError`` with the position, never a traceback later when
the text is printed or embedded. The corpus and the embedder are English: a question
written mostly in another script (Devanagari, Tamil, Arabic ...) is told so
(``UNSUPPORTED_LANGUAGE``), not that it is "not about the law".
"""

from __future__ import annotations

import unicodedata

from civicsetu.errors import InputError

_SURROGATES = range(0xD800, 0xE000)


def check_decodable(text: str, what: str = "the question") -> str:
    """``text`` unchanged, or ``InputError`` when it holds bytes that were not UTF-8."""
    bad = next((i for i, ch in enumerate(text) if ord(ch) in _SURROGATES), None)
    if bad is not None:
        raise InputError(f"{what} is not valid UTF-8 (an undecodable byte at character "
                         f"{bad + 1}); retype it or save the file as UTF-8")
    return text


def decode_utf8(data: bytes, what: str) -> str:
    """Decode ``data`` strictly; ``InputError`` naming the line and byte when it is not
    UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{what}:{line}: not valid UTF-8 (byte {exc.start + 1}); save the "
                         "file as UTF-8") from exc


def mostly_unsupported_script(text: str) -> bool:
    """True when most letters of ``text`` are outside the Latin script."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    latin = sum(1 for ch in letters if unicodedata.name(ch, "").startswith("LATIN"))
    return latin * 2 < len(letters)
