"""The SQLAlchemy engine factory both databases use (the shipped catalog and the user's parts).
Never creates an engine at import."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def make_engine(url: str) -> "Engine":
    """An engine for ``url`` (``sqlite://`` for memory). Never created at import."""
    from sqlalchemy import event
    from sqlmodel import create_engine

    engine = create_engine(url, connect_args={"check_same_thread": False} if url.startswith("sqlite") else {})

    @event.listens_for(engine, "connect")
    def _pragma(dbapi_conn, _record):  # pragma: no cover - trivial
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
        if hasattr(dbapi_conn, "text_factory"):  # text that is not UTF-8 (a damaged page): U+FFFD, not an error
            dbapi_conn.text_factory = lambda b: b.decode("utf-8", "replace")

    return engine
