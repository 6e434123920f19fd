"""The catalog databases: the shipped one (read-only, rebuilt from resources/catalog when its
version changes) and the user's own parts (kept across upgrades, migrated with Alembic)."""
from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine, select

from rigbuilder.catalog.loader import catalog_dir, catalog_fingerprint, load_shipped
from rigbuilder.catalog.schema import Problem, part_to_dict, validate_part
from rigbuilder.catalog.tables import CatalogMeta, PartRow
from rigbuilder.config import Paths
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.parts import PART_KINDS, Part

COMMON = ("id", "maker", "model", "price", "currency", "price_note", "source", "source_date",
          "unverified", "notes")


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (``sqlite://`` for memory). Never created at import."""
    engine = create_engine(url, connect_args={"check_same_thread": False} if url.startswith("sqlite") else {})

    @event.listens_for(engine, "connect")
    def _pragma(dbapi_conn, _record):  # pragma: no cover - trivial
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return engine


def part_to_row(part: Part) -> PartRow:
    d = part_to_dict(part)
    common = {k: d.pop(k) for k in COMMON}
    return PartRow(kind=part.KIND, verified=part.verified, spec=d, **common)


def row_to_part(row: PartRow, origin: str) -> tuple[Optional[Part], list[Problem]]:
    raw = dict(row.spec)
    raw.update({k: getattr(row, k) for k in COMMON})
    cls = PART_KINDS.get(row.kind)
    if cls is None:
        return None, [Problem(f"database row {row.id}", "kind", f"unknown kind {row.kind!r}")]
    return validate_part(cls, raw, f"{origin} database row {row.id}", origin)


def write_parts(engine: Engine, parts: Iterable[Part]) -> None:
    with Session(engine) as s:
        for p in parts:
            s.merge(part_to_row(p))
        s.commit()


def read_parts(engine: Engine, origin: str) -> tuple[list[Part], list[Problem]]:
    parts: list[Part] = []
    problems: list[Problem] = []
    with Session(engine) as s:
        for row in s.exec(select(PartRow).order_by(PartRow.kind, PartRow.id)):
            p, probs = row_to_part(row, origin)
            problems.extend(probs)
            if p is not None:
                parts.append(p)
    return parts, problems


def build_shipped_db(path: Path, directory: Optional[Path] = None) -> str:
    """Write the shipped catalog to a new SQLite file at ``path`` (atomically). Returns its version."""
    parts, problems = load_shipped(directory)
    if problems:
        raise ValueError("the shipped catalog has problems:\n" + "\n".join(str(p) for p in problems[:20]))
    version = catalog_fingerprint(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".catalog-", suffix=".sqlite", dir=path.parent)
    os.close(fd)
    try:
        engine = make_engine(f"sqlite:///{tmp}")
        SQLModel.metadata.create_all(engine, tables=[PartRow.__table__, CatalogMeta.__table__])
        write_parts(engine, parts)
        with Session(engine) as s:
            s.add(CatalogMeta(key="version", value=version))
            s.commit()
        engine.dispose()
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return version


def _db_version(path: Path) -> Optional[str]:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = con.execute("select value from catalog_meta where key='version'").fetchone()
            return row[0] if row else None
        finally:
            con.close()
    except sqlite3.Error:
        return None


def shipped_db_path(paths: Paths) -> tuple[Path, str]:
    """The shipped catalog's SQLite file, rebuilt in the cache when the resources changed.

    A packaged install may carry a prebuilt ``catalog.sqlite`` beside the JSON files.
    """
    version = catalog_fingerprint()
    prebuilt = catalog_dir() / "catalog.sqlite"
    if prebuilt.exists() and _db_version(prebuilt) == version:
        return prebuilt, version
    cached = paths.cache_dir / f"catalog-{version}.sqlite"
    if _db_version(cached) != version:
        build_shipped_db(cached)
    return cached, version


@dataclass
class Catalog:
    """Shipped and user parts together, plus the engines behind them."""

    index: PartIndex
    shipped_engine: Engine
    user_engine: Optional[Engine]
    version: str
    problems: list[Problem]

    def parts(self, kind: Optional[str] = None) -> list[Part]:
        return list(self.index) if kind is None else self.index.of_kind(kind)

    def reload_user(self) -> None:
        if self.user_engine is None:
            return
        for p in [p for p in self.index if p.origin == "user"]:
            self.index._by_id.pop(p.id, None)  # noqa: SLF001 - our own index
        parts, problems = read_parts(self.user_engine, "user")
        self.problems = [p for p in self.problems if "user database" not in p.where] + problems
        for p in parts:
            if p.id not in self.index:
                self.index.add(p)


def open_catalog(paths: Paths, *, with_user: bool = True) -> Catalog:
    from rigbuilder.catalog.userdb import open_user_db

    db, version = shipped_db_path(paths)
    shipped_engine = make_engine(f"sqlite:///{db}")
    parts, problems = read_parts(shipped_engine, "shipped")
    index = PartIndex(parts, version=version)
    user_engine = open_user_db(paths.user_db) if with_user else None
    cat = Catalog(index, shipped_engine, user_engine, version, problems)
    cat.reload_user()
    return cat


def memory_catalog(parts: Iterable[Part] = ()) -> Catalog:
    """A catalog in memory (tests): the shipped parts from resources plus ``parts``."""
    shipped, problems = load_shipped()
    engine = make_engine("sqlite://")
    SQLModel.metadata.create_all(engine, tables=[PartRow.__table__, CatalogMeta.__table__])
    index = PartIndex(shipped, version=catalog_fingerprint())
    for p in parts:
        index.add(p)
    return Catalog(index, engine, None, index.version, problems)
