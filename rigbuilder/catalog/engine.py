"""The SQLAlchemy engine factory every database uses (the shipped catalog, the user's parts, a lab's
database on SQLite or PostgreSQL). Never creates an engine at import."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def make_engine(url: str, connect_args: Optional[dict[str, Any]] = None) -> "Engine":
    """An engine for ``url`` (``sqlite://`` for memory, ``postgresql+psycopg://...`` for a server).
    Never created at import. ``connect_args`` go to the driver (a PostgreSQL password file)."""
    from sqlalchemy import event
    from sqlmodel import create_engine

    sqlite = url.startswith("sqlite")
    args = dict(connect_args or {})
    if sqlite:
        args.setdefault("check_same_thread", False)
    engine = create_engine(url, connect_args=args, **({} if sqlite else {"pool_pre_ping": True}))

    if sqlite:
        @event.listens_for(engine, "connect")
        def _pragma(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
            # Text that is not UTF-8 (a damaged page of the user's database): U+FFFD, not an error.
            dbapi_conn.text_factory = lambda b: b.decode("utf-8", "replace")

    return engine
