"""A real PostgreSQL 16 + pgvector server for the store tests.

``pgserver`` (PyPI, extra ``[postgres-test]``) starts one in a temporary folder once per
session; every test gets a fresh database cloned from a migrated template.
``CIVICSETU_TEST_PG_URL`` points the tests at a server of your own instead (e.g. the
``compose.yaml`` one; the tests create and drop databases there). Under ``CI=true`` a
missing server is a failure, never a skip.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_counter = itertools.count()


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"PostgreSQL tests cannot run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    """A superuser URL on a running server with the vector extension available."""
    url = os.environ.get("CIVICSETU_TEST_PG_URL")
    if url:
        yield url
        return
    try:
        import pgserver
    except ImportError:
        _unavailable("pgserver is not installed: pip install 'civicsetu[postgres-test]'")
        return
    # As root, pgserver runs the server as an unprivileged "pgserver" user, which cannot
    # enter pytest's 0700 tmp folders: the data folder sits directly under the system tmp.
    folder = Path(tempfile.mkdtemp(prefix="civicsetu-pg-"))
    server = pgserver.get_server(folder / "data", cleanup_mode="stop")
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_template(pg_admin_url: str) -> str:
    """A migrated, empty template database; returns its name."""
    try:
        import psycopg
    except ImportError:
        _unavailable("psycopg is not installed: pip install 'civicsetu[postgres]'")
        raise
    from civicsetu.store.postgres import PostgresStore

    name = f"civicsetu_template_{os.getpid()}"
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    PostgresStore(_with_db(pg_admin_url, name), pool_size=1).close()
    return name


@pytest.fixture()
def pg_url(pg_admin_url: str, pg_template: str) -> Iterator[str]:
    """A fresh, migrated database for one test."""
    import psycopg

    name = f"civicsetu_test_{os.getpid()}_{next(_counter)}"
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {pg_template}")
    yield _with_db(pg_admin_url, name)
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _with_db(url: str, name: str) -> str:
    """The same server URL with another database name."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))
