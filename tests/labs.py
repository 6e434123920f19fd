"""What the lab-database tests share: a lab database as a newer rigbuilder leaves it."""
from __future__ import annotations

from sqlalchemy import text

from rigbuilder.catalog import labdb
from rigbuilder.catalog.engine import make_engine

NEWER = "lab9999"
"""The schema version a newer rigbuilder would have written (this one knows fewer)."""


def newer_lab(url: str) -> str:
    """The lab database at ``url`` (a SQLite path or a server address) set up, then its tables
    stamped as a newer rigbuilder's (:data:`NEWER`); returns ``url``."""
    labdb.LabDb.open(url).close()
    engine = make_engine(labdb.parse_url(url)[0].url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        conn.execute(text(f"update rigbuilder_lab_version set version_num = '{NEWER}'"))
    engine.dispose()
    return url
