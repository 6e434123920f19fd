"""The catalog databases: the shipped one (read-only, rebuilt from resources/catalog when its
version changes) and the user's own parts (kept across upgrades, migrated with Alembic).

Reading goes through the standard library's sqlite3 (start-up cost matters: SQLModel and
SQLAlchemy take about 0.35 s to import); writing, building and migrating use SQLModel/Alembic
and import them only then.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Optional

from rigbuilder.catalog.engine import make_engine
from rigbuilder.catalog.loader import catalog_dir, catalog_files, catalog_fingerprint, load_shipped
from rigbuilder.catalog.rows import COMMON, part_to_row, raw_to_part as _raw_to_part, row_to_part  # noqa: F401
from rigbuilder.catalog.schema import Problem
from rigbuilder.config import Paths
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.money import PriceBook
from rigbuilder.domain.parts import PART_KINDS, Part

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from rigbuilder.catalog.tables import PartRow

def write_parts(engine: "Engine", parts: Iterable[Part], *, fresh: bool = False) -> None:
    """Write parts (replacing rows with the same id); ``fresh``: the table is new and the ids
    unique, so the rows are inserted in one batch (11,000 parts in well under a second)."""
    from sqlmodel import Session

    with Session(engine) as s:
        if fresh:
            s.add_all([part_to_row(p) for p in parts])
        else:
            for p in parts:
                s.merge(part_to_row(p))
        s.commit()


def read_parts(path: Path, origin: str, *, trusted: bool = False) -> tuple[list[Part], list[Problem]]:
    """Every part in the SQLite file at ``path`` (read with sqlite3, validated row by row).
    ``trusted``: a shipped catalog that ``build_shipped_db`` wrote from validated files (its
    version checked by the caller); rows are built without re-checking every value."""
    parts: list[Part] = []
    problems: list[Problem] = []
    if not path.exists():
        return parts, problems
    cols = ", ".join(("kind", "spec") + COMMON)
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = con.execute(f"select {cols} from part order by kind, id").fetchall()
        finally:
            con.close()
    except sqlite3.Error as e:
        return parts, [Problem(str(path), "", f"cannot read the {origin} parts database: {e}")]
    for row in rows:
        kind, spec_text, *common_vals = row
        common = dict(zip(COMMON, common_vals))
        try:
            spec = json.loads(spec_text)
            common["unverified"] = json.loads(common["unverified"]) if common["unverified"] else []
        except (TypeError, json.JSONDecodeError):
            problems.append(Problem(f"{origin} database row {common['id']}", "spec", "is not valid JSON"))
            continue
        p, probs = _raw_to_part(kind, common["id"], spec, common, origin, trusted)
        problems.extend(probs)
        if p is not None:
            parts.append(p)
    return parts, problems


def build_shipped_db(path: Path, directory: Optional[Path] = None) -> str:
    """Write the shipped catalog to a new SQLite file at ``path`` (atomically). Returns its version."""
    parts, problems = load_shipped(directory)
    if problems:
        raise ValueError(T("the shipped catalog has problems:\n{problems}", problems="\n".join(str(p) for p in problems[:20])))
    version = catalog_fingerprint(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".catalog-", suffix=".sqlite", dir=path.parent)
    os.close(fd)
    from sqlmodel import Session, SQLModel

    from rigbuilder.catalog.tables import CatalogMeta, PartRow

    try:
        engine = make_engine(f"sqlite:///{tmp}")
        SQLModel.metadata.create_all(engine, tables=[PartRow.__table__, CatalogMeta.__table__])
        write_parts(engine, parts, fresh=True)
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


class UserDatabaseError(ValueError):
    """The user's parts database cannot be opened; the message names the file and why."""


@dataclass
class Catalog:
    """Shipped and user parts together. The user database opens (and migrates) on first write."""

    index: PartIndex
    version: str
    problems: list[Problem]
    shipped_path: Optional[Path] = None
    user_path: Optional[Path] = None
    _user_engine: Optional["Engine"] = field(default=None, repr=False)
    _user_problems: list[Problem] = field(default_factory=list, repr=False)  # the last reload's

    def parts(self, kind: Optional[str] = None) -> list[Part]:
        return list(self.index) if kind is None else self.index.of_kind(kind)

    @property
    def user_engine(self) -> Optional["Engine"]:
        """The user's parts database, opened (and migrated) on first use. Raises
        UserDatabaseError when the file is not a database or cannot be upgraded."""
        if self._user_engine is None and self.user_path is not None:
            from sqlalchemy.exc import SQLAlchemyError

            from rigbuilder.catalog.userdb import open_user_db

            try:
                self._user_engine = open_user_db(self.user_path)
            except (SQLAlchemyError, sqlite3.Error) as e:
                raise UserDatabaseError(T("{path}: cannot open your parts database ({error}); the file is left as it is",
                                          path=str(self.user_path), error=str(getattr(e, "orig", None) or e))) from None
        return self._user_engine

    def reload_user(self) -> None:
        if self.user_path is None:
            return
        loaded = self.index._loaded  # noqa: SLF001 - our own index; user parts are always loaded
        for p in [p for p in loaded.values() if p.origin == "user"]:
            loaded.pop(p.id, None)
        from rigbuilder.catalog.userdb import HEAD, current_revision

        problems: list[Problem] = []
        if self.user_path.exists() and current_revision(self.user_path) != HEAD:
            try:
                _ = self.user_engine  # migrate before reading
            except UserDatabaseError as e:  # not a database, or damaged: say so, keep the file
                problems = [Problem(str(self.user_path), "", f"cannot read the user parts database: {e}; "
                                    "your own parts are not shown")]
        parts, more = ([], []) if problems else read_parts(self.user_path, "user")
        problems += more
        # The previous reload's problems make way for this one's (an unreadable file is said once).
        old = {id(p) for p in self._user_problems}
        self.problems = [p for p in self.problems if id(p) not in old] + problems
        self._user_problems = problems
        for p in parts:
            if p.id not in loaded:  # a community row of the same id, loaded later, wins
                self.index.add(p)
        from rigbuilder.catalog.userprices import read_user_prices

        book = self.index.prices  # shipped observations stay; the user's are read again
        kept = {k: tuple(o for o in v if o.origin != "user") for k, v in book.observations.items()}
        self.index.prices = PriceBook(kept, book.rates).with_observations(read_user_prices(self.user_path))


def user_rates_path(paths: Paths) -> Path:
    """Exchange rates the user edited in the preferences (else the shipped ones are used)."""
    return paths.data_dir / "exchange-rates.json"


def price_book(paths: Paths, problems: list) -> PriceBook:
    """Shipped price observations and exchange rates; the user's edited rates when there are some
    (a broken file is reported in ``problems`` and the shipped rates are used)."""
    from rigbuilder.catalog.prices import MoneyFileError, load_observations, load_rates

    rates = load_rates()
    up = user_rates_path(paths)
    if up.exists():
        try:
            rates = load_rates(up)
        except MoneyFileError as e:
            problems.append(Problem(str(up), "", f"{e}; the shipped exchange rates are used"))
    return PriceBook.of(load_observations(), rates)


SNAPSHOT_FORMAT = 1


def snapshot_key(directory: Optional[Path] = None) -> str:
    """What the parsed-parts snapshot is valid for: the catalog files' names, sizes and
    modification times (a stat each, not a read: hashing 8 MB at every start costs more than
    loading the snapshot), the part classes' fields and the snapshot format."""
    h = hashlib.sha256(f"{SNAPSHOT_FORMAT}".encode())
    for p in catalog_files(directory):
        st = p.stat()
        h.update(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    for kind, cls in PART_KINDS.items():
        h.update(f"{kind}:{','.join(f.name for f in dataclasses.fields(cls))}\n".encode())
    return h.hexdigest()[:16]


def _read_snapshot(path: Path) -> Optional[tuple[str, Path, list[Part]]]:
    """(version, database path, parts) from a snapshot ``_write_snapshot`` wrote, or None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        version, db, parts = pickle.loads(data)  # our own cache file, written below
    except Exception:  # noqa: BLE001 - a damaged or foreign file is rebuilt, never trusted
        return None
    if not isinstance(version, str) or not isinstance(parts, list) or not all(isinstance(p, Part) for p in parts[:1]):
        return None
    return version, Path(db), parts


def _share_values(parts: list[Part]) -> None:
    """One object for equal texts and text tuples across parts (imported rows repeat their
    source, notes and unverified lists): the snapshot stores each once and loads in half the time."""
    pool: dict = {}
    for p in parts:
        d = p.__dict__  # frozen dataclasses: equal values swapped for one shared object
        for k, v in d.items():
            if isinstance(v, str) or (isinstance(v, tuple) and all(isinstance(x, str) for x in v)):
                d[k] = pool.setdefault(v, v)


def _write_snapshot(path: Path, version: str, db: Path, parts: list[Part]) -> None:
    _share_values(parts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".snapshot-", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            pickle.dump((version, str(db), parts), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:  # a read-only cache: the next start reads the database again
        pass


def _snapshot_paths(paths: Paths) -> tuple[Path, Path]:
    key = snapshot_key()
    return (paths.cache_dir / f"catalog-parts-{key}.pickle",
            paths.cache_dir / f"catalog-community-{key}.pickle")


def shipped_parts(paths: Paths) -> tuple[list[Part], Optional[Callable[[], list[Part]]], str, Path, list[Problem]]:
    """The shipped parts as (curated parts, a function giving the community parts, catalog
    version, database, problems). Snapshots of the parsed parts (pickled, keyed by
    ``snapshot_key``) spare start-up parsing 11,000 rows, and the community rows (most of them)
    are read only when first needed: without snapshots the database is read (rebuilt first if
    the files changed) and both snapshots written."""
    core_snap, community_snap = _snapshot_paths(paths)
    got = _read_snapshot(core_snap)
    if got is not None and community_snap.exists():
        version, db, parts = got

        def community() -> list[Part]:
            again = _read_snapshot(community_snap)
            if again is not None and again[0] == version:
                return again[2]
            rows, _ = read_parts(db, "shipped", trusted=True)  # the snapshot went: the database
            return [p for p in rows if p.community]

        return parts, community, version, db, []
    db, version = shipped_db_path(paths)
    parts, problems = read_parts(db, "shipped", trusted=True)  # the version matched the files
    if not problems:
        _write_snapshot(community_snap, version, db, [p for p in parts if p.community])
        _write_snapshot(core_snap, version, db, [p for p in parts if not p.community])
    return parts, None, version, db, problems


def open_catalog(paths: Paths, *, with_user: bool = True) -> Catalog:
    parts, community, version, db, problems = shipped_parts(paths)
    index = PartIndex(parts, version=version, prices=price_book(paths, problems), pending=community)
    cat = Catalog(index, version, problems, db, paths.user_db if with_user else None)
    cat.reload_user()
    return cat
