"""The catalog databases: the shipped one (read-only, rebuilt from resources/catalog when its
version changes) and the user's own parts (kept across upgrades, migrated with Alembic).

Reading goes through the standard library's sqlite3 (start-up cost matters: SQLModel and
SQLAlchemy take about 0.35 s to import); writing, building and migrating use SQLModel/Alembic
and import them only then.
"""
from __future__ import annotations

import dataclasses
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
from rigbuilder.catalog.schema import Problem, part_to_dict
from rigbuilder.catalog.userdb import UserDatabaseError, safe_to_open, tolerant_text  # noqa: F401 (UserDatabaseError: importable here)
from rigbuilder.config import Paths
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.money import PriceBook
from rigbuilder.domain.parts import COMMUNITY_SOURCE, PART_KINDS, Part
from rigbuilder.domain.safeio import parse_json

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from rigbuilder.catalog.tables import PartRow

def write_parts(engine: "Engine", parts: Iterable[Part], *, fresh: bool = False) -> None:
    """Write parts (replacing rows with the same id); ``fresh``: the table is new and the ids
    unique, so the rows are inserted in one batch (11,000 parts in well under a second)."""
    if fresh:  # one executemany of plain rows: ORM objects made the first start's build 4x slower
        from rigbuilder.catalog.tables import PartRow

        rows = []
        for p in parts:
            d = part_to_dict(p)
            common = {k: d.pop(k) for k in COMMON}
            rows.append({"kind": p.KIND, "verified": p.verified, "spec": d, **common})
        if rows:
            with engine.begin() as con:
                con.execute(PartRow.__table__.insert(), rows)
        return
    from sqlmodel import Session

    with Session(engine) as s:
        for p in parts:
            s.merge(part_to_row(p))
        s.commit()


_IS_COMMUNITY = f"substr(source, 1, {len(COMMUNITY_SOURCE)}) = '{COMMUNITY_SOURCE}'"
COMMUNITY_WHERE = {None: "", True: f" where {_IS_COMMUNITY}", False: f" where not {_IS_COMMUNITY}"}
"""Rows of the community database (``Part.community``), the curated ones, or all."""
_ORDER = " order by kind, lower(maker), lower(model), id"
"""The catalog list's order within a kind (the curated rows are read first): rows read in pieces
join the list at its end."""


def read_parts(path: Path, origin: str, *, trusted: bool = False,
               community: Optional[bool] = None) -> tuple[list[Part], list[Problem]]:
    """Every part in the SQLite file at ``path`` (read with sqlite3, validated row by row);
    ``community``: only the community rows (True) or only the others (False).
    ``trusted``: a shipped catalog that ``build_shipped_db`` wrote from validated files (its
    version checked by the caller); rows are built without re-checking every value."""
    parts: list[Part] = []
    problems: list[Problem] = []
    if not safe_to_open(path):  # absent; a device or pipe (or one as its journal) is never opened
        return parts, problems
    try:
        rows = _select(path, community)
    except (sqlite3.Error, ValueError) as e:  # ValueError: a message quoting non-UTF-8 bytes
        return parts, [Problem(str(path), "", f"cannot read the {origin} parts database: {e}")]
    _decode(rows, origin, trusted, parts, problems)
    return parts, problems


def _select(path: Path, community: Optional[bool]) -> list[tuple]:
    cols = ", ".join(("kind", "spec") + COMMON)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.text_factory = tolerant_text  # bytes of a damaged page that are not UTF-8: U+FFFD, not an error
    try:
        return con.execute(f"select {cols} from part{COMMUNITY_WHERE[community]}{_ORDER}").fetchall()
    finally:
        con.close()


def _decode(rows: Iterable[tuple], origin: str, trusted: bool, parts: list[Part], problems: list[Problem]) -> None:
    for row in rows:
        kind, spec_text, *common_vals = row
        common = dict(zip(COMMON, common_vals))
        try:  # bounded: nesting too deep or a number too long is a bad row, not a crash
            spec = parse_json(spec_text)
            common["unverified"] = parse_json(common["unverified"]) if common["unverified"] else []
        except (TypeError, ValueError):
            problems.append(Problem(f"{origin} database row {common['id']}", "spec", "is not valid JSON"))
            continue
        p, probs = _raw_to_part(kind, common["id"], spec, common, origin, trusted)
        problems.extend(probs)
        if p is not None:
            parts.append(p)


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
        # Written in the list's order (``_ORDER``): the community rows are then read in it
        # without sorting 9,000 rows first (80 ms) or an index (1.5 MB of the package).
        parts.sort(key=lambda p: (p.community, p.KIND, p.maker.lower(), p.model.lower(), p.id))
        write_parts(engine, parts, fresh=True)
        with Session(engine) as s:
            s.add(CatalogMeta(key="version", value=version))
            s.add(CatalogMeta(key="order", value="list"))
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
    """Shipped and user parts together. The user database opens (and migrates) on first write."""

    index: PartIndex
    version: str
    problems: list[Problem]
    shipped_path: Optional[Path] = None
    user_path: Optional[Path] = None
    _user_engine: Optional["Engine"] = field(default=None, repr=False)
    _user_problems: list[Problem] = field(default_factory=list, repr=False)  # the last reload's
    notices: list = field(default_factory=list)
    """Texts (``T``) the user must read once: the CLI prints them on stderr, the window shows
    them when it opens (a damaged user database moved aside, a read-only one, a broken rates file)."""
    read_only: Optional[str] = None
    """Why the user database must not be written (a newer rigbuilder's, a link out of the data
    folder, a damaged one that could not be moved aside); None when it may be."""
    _prepared: bool = field(default=False, repr=False)
    _no_user_prices: object = field(default=None, repr=False)
    """The price book's observations as the catalog opened them, none of them the user's: the first
    reload need not filter the user's out of 5,000 entries (5-8 ms of the window's start)."""

    def parts(self, kind: Optional[str] = None) -> list[Part]:
        return list(self.index) if kind is None else self.index.of_kind(kind)

    @property
    def user_engine(self) -> Optional["Engine"]:
        """The user's parts database, opened (and migrated) on first use. Raises
        UserDatabaseError when the file is not a database or cannot be upgraded."""
        if self.read_only is not None:
            raise UserDatabaseError(self.read_only)
        if self._user_engine is None and self.user_path is not None:
            from rigbuilder.catalog.userdb import open_user_db

            self._user_engine = open_user_db(self.user_path)
        return self._user_engine

    def _prepare_user(self) -> None:
        """Once, before the user database is first read: look at the file; move a damaged one
        aside (keeping what can be read), mark a newer or foreign one read-only; say so."""
        from rigbuilder.catalog import userdb
        from rigbuilder.domain.i18n import T

        self._prepared = True
        path = self.user_path
        assert path is not None
        state = userdb.inspect(path)
        if state.kind == "damaged":
            try:
                rec = userdb.recover(path)
            except Exception as e:  # noqa: BLE001 - cannot move it or start a new one: change nothing
                self.read_only = T("Your database {path} {reason} and could not be moved aside ({error}); "
                                   "your own parts and prices are not shown and nothing will be changed",
                                   path=str(path), reason=state.reason,
                                   error=str(getattr(e, "strerror", None) or getattr(e, "orig", None) or e)[:200])
                self.notices.append(self.read_only)
            else:
                self.notices.append(userdb.recovery_notice(path, state.reason, rec))
        elif state.kind in ("newer", "outside"):
            self.read_only = T("Your database {path} {reason}; nothing will be changed: your parts and prices "
                               "are shown but cannot be edited here", path=str(path), reason=state.reason)
            self.notices.append(self.read_only)

    def reload_user(self) -> None:
        if self.user_path is None:
            return
        loaded = self.index._loaded  # noqa: SLF001 - our own index; user parts are always loaded
        for p in [p for p in loaded.values() if p.origin == "user"]:
            loaded.pop(p.id, None)
        from rigbuilder.catalog.userdb import HEAD, current_revision

        if not self._prepared:
            self._prepare_user()  # a damaged database moved aside, a newer one read-only: said once
        problems: list[Problem] = []
        exists = self.user_path.exists()  # none yet: nothing to read
        damaged = self.read_only is not None and not self.user_path.is_file()
        if self.read_only is None and exists and current_revision(self.user_path) != HEAD:
            try:
                _ = self.user_engine  # migrate before reading
            except UserDatabaseError as e:  # cannot be upgraded (a read-only folder, a full disk): say so
                problems = [Problem(str(self.user_path), "", f"cannot read the user parts database: {e}; "
                                    "your own parts are not shown")]
                if e.args and e.args[0] not in self.notices:
                    self.notices.append(e.args[0])
        parts, more = ([], []) if problems or damaged or not exists else read_parts(self.user_path, "user")
        problems += more
        # The previous reload's problems make way for this one's (an unreadable file is said once).
        old = {id(p) for p in self._user_problems}
        self.problems = [p for p in self.problems if id(p) not in old] + problems
        self._user_problems = problems
        for p in parts:
            if p.id not in loaded:  # a community row of the same id, loaded later, wins
                loaded[p.id] = p  # not index.add, which would load the pending community rows first
        book = self.index.prices  # shipped observations stay; the user's are read again
        if book.observations is self._no_user_prices:
            kept = book.observations
        else:
            kept = {k: tuple(o for o in v if o.origin != "user") for k, v in book.observations.items()}
        if exists:
            from rigbuilder.catalog.userprices import read_user_prices

            self.index.prices = PriceBook(kept, book.rates).with_observations(read_user_prices(self.user_path))
        else:
            self.index.prices = PriceBook(kept, book.rates)


def user_rates_path(paths: Paths) -> Path:
    """Exchange rates the user edited in the preferences (else the shipped ones are used)."""
    return paths.data_dir / "exchange-rates.json"


PRICES_FORMAT = 1


def _prices_key() -> str:
    """What the shipped prices' snapshot is valid for: the price files' and the ECB rates file's
    names, sizes and modification times, the price classes' fields and the snapshot format."""
    from rigbuilder.catalog.prices import ecb_rates_file, price_files
    from rigbuilder.domain.money import ExchangeRates, PriceObservation

    text = [f"prices {PRICES_FORMAT}"]
    for f in (*price_files(), ecb_rates_file()):
        st = f.stat()
        text.append(f"{f}\0{st.st_size}\0{st.st_mtime_ns}\n")
    for cls in (PriceObservation, ExchangeRates):
        text.append(f"{cls.__name__}:{','.join(f.name for f in dataclasses.fields(cls))}\n")
    return _short_key("".join(text))


def shipped_price_book(paths: Paths) -> PriceBook:
    """The shipped price observations and the ECB's exchange rates, from their snapshot in the
    cache folder (pickled, keyed by ``_prices_key``) or, when there is none or it is another
    version's or damaged, read and checked from the files (5,000 observations: 0.1-0.2 s of every
    start before this) and snapshotted. A broken shipped file raises MoneyFileError as reading
    it does."""
    from rigbuilder.catalog.prices import load_observations, load_rates
    from rigbuilder.domain.money import ExchangeRates, PriceObservation

    try:
        snap = paths.cache_dir / f"prices-{_prices_key()}.pickle"
    except OSError:  # a shipped file missing: reading it says which
        snap = None
    if snap is not None:
        try:
            book = pickle.loads(snap.read_bytes())  # our own cache file, written below
        except Exception:  # noqa: BLE001 - missing, damaged or foreign: read from the files again
            book = None
        if (isinstance(book, PriceBook) and isinstance(book.rates, ExchangeRates)
                and isinstance(book.observations, dict)
                and all(isinstance(v, tuple) and v and isinstance(v[0], PriceObservation)
                        for v in list(book.observations.values())[:20])):
            return book
    book = PriceBook.of(load_observations(), load_rates())
    if snap is not None:
        _share_values([o for v in book.observations.values() for o in v])
        _write_pickle(snap, book)
        for old in paths.cache_dir.glob("prices-*.pickle"):  # earlier versions' snapshots
            if old != snap:
                try:
                    old.unlink()
                except OSError:
                    pass
    return book


def price_book(paths: Paths, problems: list, notices: Optional[list] = None) -> PriceBook:
    """Shipped price observations and exchange rates; the user's edited rates when there are some
    (a broken file is reported in ``problems`` and, to be shown once, in ``notices``, and the
    shipped rates are used)."""
    from rigbuilder.catalog.prices import MoneyFileError, load_rates, merge_rates
    from rigbuilder.domain.i18n import T

    book = shipped_price_book(paths)
    up = user_rates_path(paths)
    if os.path.lexists(up):
        try:
            book = book.with_rates(merge_rates(book.rates, load_rates(up)))
        except MoneyFileError as e:
            problems.append(Problem(str(up), "", f"{e}; the shipped exchange rates are used"))
            if notices is not None:
                notices.append(T("Exchange rates: {error}; the shipped exchange rates are used instead",
                                 error=e.args[0] if e.args else str(e)))
    return book


SNAPSHOT_FORMAT = 2
PIECE = 25
"""Community parts per piece: unpickling one takes well under 1 ms (reading and building them from
the database on a first start, a few ms), so a window that loads them a piece per event-loop
turn never stalls a frame."""


def snapshot_key(directory: Optional[Path] = None) -> str:
    """What the parsed-parts snapshot is valid for: the catalog files' names, sizes and
    modification times (a stat each, not a read: hashing 8 MB at every start costs more than
    loading the snapshot), the part classes' fields and the snapshot format."""
    text = [f"{SNAPSHOT_FORMAT}"]
    for p in catalog_files(directory):
        st = p.stat()
        text.append(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns}\n")
    for kind, cls in PART_KINDS.items():
        text.append(f"{kind}:{','.join(f.name for f in dataclasses.fields(cls))}\n")
    return _short_key("".join(text))


def _short_key(text: str) -> str:
    """A cache file's key: 64 bits of ``text`` (file names, sizes and times, field names), from
    zlib's two checksums (hashlib loads OpenSSL, 5-13 ms of every start, for a key nobody forges)."""
    import zlib

    data = text.encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


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


def _share_values(parts: list[Part], pool: Optional[dict] = None) -> None:
    """One object for equal texts and text tuples across parts (imported rows repeat their
    source, notes and unverified lists): the snapshot stores each once and loads in half the time."""
    pool = {} if pool is None else pool
    for p in parts:
        d = p.__dict__  # frozen dataclasses: equal values swapped for one shared object
        for k, v in d.items():
            if isinstance(v, str) or (isinstance(v, tuple) and all(isinstance(x, str) for x in v)):
                d[k] = pool.setdefault(v, v)


def _write_snapshot(path: Path, version: str, db: Path, parts: list[Part]) -> None:
    _share_values(parts)
    _write_pickle(path, (version, str(db), parts))


def _write_pickle(path: Path, value: object) -> None:
    """``value`` pickled into ``path`` (a cache file), whole or not at all."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".snapshot-", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:  # a read-only cache: the next start reads the files again
        if tmp is not None and os.path.exists(tmp):
            try:
                os.unlink(tmp)
            except OSError:
                pass


class _PieceWriter:
    """The community snapshot written piece by piece as the pieces are read from the database:
    one pickler (equal texts stored once across pieces), renamed into place when complete, and
    removed when the reading stops early."""

    def __init__(self, path: Path, version: str, db: Path) -> None:
        self.path, self.tmp, self.pool = path, None, {}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, self.tmp = tempfile.mkstemp(prefix=".snapshot-", dir=path.parent)
            self.file = os.fdopen(fd, "wb")
            self.pickler = pickle.Pickler(self.file, protocol=pickle.HIGHEST_PROTOCOL)
            self.pickler.dump((SNAPSHOT_FORMAT, version, str(db)))
        except OSError:  # a read-only cache: nothing is kept
            self.close(keep=False)

    def add(self, piece: list[Part]) -> None:
        if self.tmp is None:
            return
        _share_values(piece, self.pool)
        try:
            self.pickler.dump(piece)
        except OSError:
            self.close(keep=False)

    def close(self, keep: bool) -> None:
        if self.tmp is None:
            return
        tmp, self.tmp = self.tmp, None
        try:
            if keep:
                self.pickler.dump(None)  # the end: a file cut short never reads as complete
            self.file.close()
            if keep:
                os.replace(tmp, self.path)
        except OSError:
            keep = False
        if not keep and os.path.exists(tmp):
            os.unlink(tmp)


def _pieces_from_db(db: Path, version: str, snapshot: Optional[Path]):
    """The community parts, read from the database ``PIECE`` rows at a time (and written to the
    community ``snapshot`` as they go)."""
    writer = _PieceWriter(snapshot, version, db) if snapshot is not None else None
    done = False
    con = None
    try:
        cols = ", ".join(("kind", "spec") + COMMON)
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        stored = con.execute("select value from catalog_meta where key='order'").fetchone()
        order = " order by rowid" if stored == ("list",) else _ORDER
        cur = con.execute(f"select {cols} from part{COMMUNITY_WHERE[True]}{order}")
        while True:
            rows = cur.fetchmany(PIECE)  # a piece at a time: fetching all 9,000 at once took 60 ms
            if not rows:
                break
            piece: list[Part] = []
            for row in rows:  # built one by one as asked for: a caller on a time budget stops between
                n = len(piece)
                _decode((row,), "shipped", True, piece, [])
                if len(piece) > n:
                    yield piece[-1]
            if writer:
                writer.add(piece)
        done = True
    except sqlite3.Error:
        pass  # a damaged database: the parts read so far (the next start builds it again)
    finally:
        if con is not None:
            con.close()
        if writer:
            writer.close(keep=done)


def _pieces_from_snapshot(path: Path, version: str, db: Path):
    """The community parts from their snapshot, one unpickled piece at a time; a snapshot that
    turns out damaged part way is finished from the database (the parts not given yet)."""
    given: set[str] = set()
    try:
        with open(path, "rb") as f:
            up = pickle.Unpickler(f)  # our own cache file (_PieceWriter)
            head = up.load()
            if head != (SNAPSHOT_FORMAT, version, str(db)):
                raise ValueError("another catalog's snapshot")
            while True:
                piece = up.load()
                if piece is None:
                    return
                if not isinstance(piece, list) or not all(isinstance(p, Part) for p in piece):
                    raise ValueError("not a piece of parts")
                given.update(p.id for p in piece)
                yield from piece
    except Exception:  # noqa: BLE001 - damaged: the rest comes from the database
        pass
    for p in _pieces_from_db(db, version, None if given else path):
        if p.id not in given:
            yield p


def _snapshot_paths(paths: Paths) -> tuple[Path, Path]:
    key = snapshot_key()
    return (paths.cache_dir / f"catalog-parts-{key}.pickle",
            paths.cache_dir / f"catalog-community-{key}.pickle")


def shipped_parts(paths: Paths) -> tuple[list[Part], Callable[[], Iterable[Part]], str, Path, list[Problem]]:
    """The shipped parts as (curated parts, a function giving the community parts, catalog
    version, database, problems). A snapshot of the parsed curated parts (pickled, keyed by
    ``snapshot_key``) spares start-up parsing rows; the community rows (most of them) are read
    only when first needed, ``PIECE`` parts at a time (``PartIndex.load_pending_piece``), from
    their snapshot or, the first time, from the database (writing the snapshot as they go).
    Without a curated snapshot the database is read (the shipped prebuilt one, or one built in
    the cache when there is none or the files changed)."""
    core_snap, community_snap = _snapshot_paths(paths)
    got = _read_snapshot(core_snap)
    if got is not None:
        version, db, parts = got
        if db.exists():
            if community_snap.exists():
                return parts, lambda: _pieces_from_snapshot(community_snap, version, db), version, db, []
            return parts, lambda: _pieces_from_db(db, version, community_snap), version, db, []
    db, version = shipped_db_path(paths)
    parts, problems = read_parts(db, "shipped", trusted=True, community=False)  # the version matched the files
    if not problems:
        _write_snapshot(core_snap, version, db, parts)
    return parts, lambda: _pieces_from_db(db, version, None if problems else community_snap), version, db, problems


def open_catalog(paths: Paths, *, with_user: bool = True) -> Catalog:
    parts, community, version, db, problems = shipped_parts(paths)
    notices: list = []
    index = PartIndex(parts, version=version, prices=price_book(paths, problems, notices), pending=community)
    cat = Catalog(index, version, problems, db, paths.user_db if with_user else None, notices=notices,
                  _no_user_prices=index.prices.observations)
    cat.reload_user()
    return cat
