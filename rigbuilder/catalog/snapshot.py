"""The shipped parts as a start needs them: the parsed curated parts from a pickled snapshot in
the cache, and the community rows (most of them) read when first needed, ``PIECE`` parts at a
time, from a snapshot of their own or, the first time, from the shipped database (which
``shippeddb`` builds when the files changed)."""
from __future__ import annotations

import dataclasses
import os
import pickle
import sqlite3
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Optional

from rigbuilder.catalog.cachefile import share_values as _share_values, short_key, write_pickle
from rigbuilder.catalog.loader import catalog_files
from rigbuilder.catalog.partsdb import COLUMNS, COMMUNITY_WHERE, LIST_ORDER, decode_rows, read_parts
from rigbuilder.catalog.schema import Problem
from rigbuilder.catalog.shippeddb import shipped_db_path
from rigbuilder.config import Paths
from rigbuilder.domain.kinds import PART_KINDS
from rigbuilder.domain.parts import Part

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
    return short_key("".join(text))


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


def _write_snapshot(path: Path, version: str, db: Path, parts: list[Part]) -> None:
    _share_values(parts)
    write_pickle(path, (version, str(db), parts))


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
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        stored = con.execute("select value from catalog_meta where key='order'").fetchone()
        order = " order by rowid" if stored == ("list",) else LIST_ORDER
        cur = con.execute(f"select {COLUMNS} from part{COMMUNITY_WHERE[True]}{order}")
        while True:
            rows = cur.fetchmany(PIECE)  # a piece at a time: fetching all 9,000 at once took 60 ms
            if not rows:
                break
            piece: list[Part] = []
            for row in rows:  # built one by one as asked for: a caller on a time budget stops between
                n = len(piece)
                decode_rows((row,), "shipped", True, piece, [])
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


def snapshot_paths(paths: Paths) -> tuple[Path, Path]:
    """The snapshots of the curated and of the community parts in the cache (named by ``snapshot_key``)."""
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
    core_snap, community_snap = snapshot_paths(paths)
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
