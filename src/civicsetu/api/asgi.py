"""The ASGI entry point uvicorn workers import: ``civicsetu.api.asgi:app``.

Settings come from the environment (``CIVICSETU_*``), as each worker builds its own app.
"""

from __future__ import annotations

from civicsetu.api.app import create_app
from civicsetu.api.logs import configure_json_logging

configure_json_logging()
app = create_app()
