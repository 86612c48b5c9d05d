"""Errors a user can act on. Every message says what went wrong and what to do next.

The CLI maps these to exit codes at its boundary; anything that is not a
``CivicSetuError`` is a bug and is allowed to surface with its traceback.
"""

from __future__ import annotations


class CivicSetuError(Exception):
    """Base for every error CivicSetu raises on purpose."""

    exit_code = 1


class InputError(CivicSetuError):
    """The user gave something we cannot use (bad query, bad id, bad flag)."""

    exit_code = 2


class InvalidIdError(InputError, ValueError):
    """A document or provision id that is empty or malformed (``DOC#``, ``#``, spaces)."""


class SourceError(CivicSetuError):
    """A source file is empty, unreadable, or not a format we can parse."""

    exit_code = 3


class OfficialDocumentError(SourceError):
    """A registry entry, upload or user file named an official bundled Act's id but holds
    another text: the official Act is never replaced by it."""


class NotIngestedError(CivicSetuError):
    """The store holds nothing to search yet."""

    exit_code = 4


class NotFoundError(CivicSetuError):
    """A document or provision id does not exist in the store."""

    exit_code = 5


class StoreError(CivicSetuError):
    """The store cannot be opened or is from an incompatible version."""

    exit_code = 6


class ModelError(CivicSetuError):
    """An embedding model or its tokenizer cannot be loaded."""

    exit_code = 7
