"""A real PostgreSQL server for the lab-database tests (tests/pgserver.py), one per session."""
from __future__ import annotations

import pytest

from tests import pgserver


@pytest.fixture(scope="session")
def pg_server():
    try:
        server = pgserver.start()
    except pgserver.Unavailable as exc:
        pytest.skip(f"no PostgreSQL server for the lab-database tests: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A fresh, empty database on the private server, as its administrator."""
    return pg_server.url(pg_server.new_database())
