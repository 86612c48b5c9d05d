"""The HTTP service (FastAPI). Needs the ``server`` extra: ``pip install 'civicsetu[server]'``.

``create_app`` is imported lazily so that ``import civicsetu.api`` without the extra gives
an install hint instead of a bare ImportError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from civicsetu.config import Settings

INSTALL_HINT = ("the web service needs the server extra: pip install 'civicsetu[server]' "
                "(fastapi, uvicorn, prometheus-client, python-multipart, mcp)")


def require_server_extra() -> None:
    """Raise InputError with the install hint when the server extra is missing."""
    from civicsetu.errors import InputError

    try:
        import fastapi  # noqa: F401
        import prometheus_client  # noqa: F401
        import python_multipart  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise InputError(f"{INSTALL_HINT} (missing: {exc.name})") from exc


def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI app; see ``civicsetu.api.app.create_app``."""
    require_server_extra()
    from civicsetu.api.app import create_app as _create

    return _create(settings)
