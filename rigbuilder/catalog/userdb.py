"""The user's own parts: a separate SQLite database that no upgrade replaces.

Its schema is owned by Alembic (rigbuilder/catalog/migrations); opening it upgrades it to the
newest revision first.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

HEAD = "0002"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def current_revision(path: Path) -> Optional[str]:
    if not path.exists():
        return None
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = con.execute("select version_num from alembic_version").fetchone()
            return row[0] if row else None
        finally:
            con.close()
    except sqlite3.Error:
        return None


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def open_user_db(path: Path) -> "Engine":
    from rigbuilder.catalog.engine import make_engine

    path.parent.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{path}"
    if current_revision(path) != HEAD:
        upgrade(url)
    return make_engine(url)
