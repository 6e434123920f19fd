"""The user's own parts and prices: a separate SQLite database that no upgrade replaces.

Its schema is owned by Alembic (rigbuilder/catalog/migrations); opening it upgrades it to the
newest revision first. Before anything opens it, ``prepare`` looks at the file the way build
files are looked at, and nothing the user had is lost:

- a link is followed only onto the user's own regular file inside the data folder; a link to a
  file elsewhere is read but never written (SQLite would write through it onto that file);
- a device, pipe or folder is never opened;
- a database stamped by a newer rigbuilder (a downgrade) is read-only: "written by a newer
  rigbuilder; nothing will be changed";
- a damaged database (not SQLite, truncated, failing SQLite's integrity check, a folder, a link
  that leads nowhere) is moved aside to a dated backup, the rows that can still be read are copied
  into a fresh database, and the user is told what was kept and what was lost;
- every write failure (a full disk, a read-only file or folder, another program holding the lock)
  becomes a ``UserDatabaseError`` with a plain message; a write is one transaction, so nothing is
  ever half-written.
"""
from __future__ import annotations

import datetime as _dt
import errno
import functools
import os
import re
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from rigbuilder.domain.i18n import T, nT

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

HEAD = "0004"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_MAGIC = b"SQLite format 3\x00"
COMPANIONS = ("-journal", "-wal", "-shm")
"""SQLite's side files of a database; they move with it when it is moved aside."""
SALVAGE_TABLES = ("part", "user_price", "measured_log", "measured_card")
"""The tables whose rows are copied out of a damaged database."""


class UserDatabaseError(ValueError):
    """The user database cannot be opened or written; the message (a ``T``) names the file and
    says why, and that nothing was changed."""


def known_revisions() -> set[str]:
    """The revisions this rigbuilder has migrations for (their files' leading numbers)."""
    return {p.name.split("_", 1)[0] for p in (MIGRATIONS / "versions").glob("[0-9]*_*.py")}


def alembic_config(url: str):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def tolerant_text(b: bytes) -> str:
    """SQLite text as str; bytes that are not UTF-8 (a damaged page) as U+FFFD, never an error."""
    return b.decode("utf-8", "replace")


def _connect_ro(path: Path) -> sqlite3.Connection:
    from urllib.parse import quote

    con = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    con.text_factory = tolerant_text
    return con


def current_revision(path: Path) -> Optional[str]:
    if not safe_to_open(path):
        return None
    try:
        con = _connect_ro(path)
        try:
            row = con.execute("select version_num from alembic_version").fetchone()
            return row[0] if row else None
        finally:
            con.close()
    except (sqlite3.Error, ValueError):
        return None


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)


# --------------------------------------------------------------------------- looking at the file

@dataclass(frozen=True)
class DbState:
    """What ``inspect`` found. ``kind``: absent, current, older (to be migrated), newer (a
    downgrade: read-only), outside (a link to a file outside the data folder: read-only) or
    damaged; ``reason`` says why for the last three; ``real`` is the file to open."""

    kind: str
    real: Path
    reason: str = ""  # a T
    revision: Optional[str] = None


def _inside(p: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(p)).relative_to(os.path.realpath(folder))
        return True
    except ValueError:
        return False


def _odd_side_file(db: Path) -> Optional[T]:
    """Why one of SQLite's side files of ``db`` must not be opened (SQLite opens them itself: a
    pipe would hang it, a link would be written through), or None."""
    for side in COMPANIONS:
        sp = db.with_name(db.name + side)
        try:
            st = os.lstat(sp)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            return T("has a side file {name} that is not a regular file", name=sp.name)
    return None


def safe_to_open(path: Path) -> bool:
    """Whether SQLite may open ``path`` to read it: a regular file whose side files are regular
    files too (SQLite would wait forever on a journal that is a pipe)."""
    return path.is_file() and _odd_side_file(Path(os.path.realpath(path))) is None


def inspect(path: Path, data_dir: Optional[Path] = None) -> DbState:
    """Look at the user database at ``path`` without changing it or waiting on it."""
    data_dir = path.parent if data_dir is None else data_dir
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        odd = _odd_side_file(path)
        return DbState("damaged", path, odd) if odd else DbState("absent", path)
    except OSError as e:
        return DbState("damaged", path, T("cannot be looked at ({error})", error=e.strerror or str(e)))
    real = path
    if stat.S_ISLNK(lst.st_mode):
        try:
            os.stat(path)
        except OSError as e:
            return DbState("damaged", path, T("is a link that loops back on itself") if e.errno == errno.ELOOP
                           else T("is a link that leads to no file"))
        real = Path(os.path.realpath(path))
        if not _inside(real, data_dir):
            return DbState("outside", real, T("is a link to {target}, outside the data folder", target=str(real)))
    st = os.stat(real)
    if stat.S_ISDIR(st.st_mode):
        return DbState("damaged", real, T("is a folder, not a database"))
    if not stat.S_ISREG(st.st_mode):
        return DbState("damaged", real, T("is not a regular file (a device or pipe is never opened)"))
    odd = _odd_side_file(real)
    if odd:
        return DbState("damaged", real, odd)
    if st.st_size == 0:
        return DbState("older", real)  # an empty file is an empty database: the migrations fill it
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            head = os.read(fd, 100)
        finally:
            os.close(fd)
    except OSError as e:
        return DbState("damaged", real, T("cannot be read ({error})", error=e.strerror or str(e)))
    if not head.startswith(SQLITE_MAGIC):
        return DbState("damaged", real, T("is not a SQLite database"))
    if len(head) < 100:
        return DbState("damaged", real, T("is truncated"))
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    valid = head[24:28] == head[92:96]  # the page count in the header is valid
    if page < 512 or page & (page - 1) or (valid and pages and st.st_size < page * pages):
        return DbState("damaged", real, T("is truncated"))
    try:
        con = sqlite3.connect(f"file:{real}?mode=rw", uri=True, timeout=2)  # rolls back a hot journal
        con.text_factory = tolerant_text
        try:
            check = con.execute("pragma quick_check(5)").fetchall()
            if [r[0] for r in check] != ["ok"]:
                return DbState("damaged", real, T("fails SQLite's integrity check ({error})",
                                                    error="; ".join(str(r[0]) for r in check)[:200]))
            tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
            rev = None
            if "alembic_version" in tables:
                row = con.execute("select version_num from alembic_version").fetchone()
                rev = row[0] if row else None
        finally:
            con.close()
    except sqlite3.OperationalError as e:
        if "locked" in str(e):
            return DbState("current", real)  # another rigbuilder is writing it: its own checks ran
        return DbState("damaged", real, T("cannot be read ({error})", error=str(e)[:200]))
    except (sqlite3.Error, ValueError) as e:
        return DbState("damaged", real, T("cannot be read ({error})", error=str(e)[:200]))
    if rev is None:
        if tables - {"alembic_version"}:
            return DbState("damaged", real, T("holds tables but no rigbuilder version"))
        return DbState("older", real)
    if rev not in known_revisions():
        return DbState("newer", real, T("was written by a newer rigbuilder (revision {revision})", revision=str(rev)[:40]), rev)
    return DbState("current" if rev == HEAD else "older", real, revision=rev)


# --------------------------------------------------------------------------- damaged: moved aside

@dataclass(frozen=True)
class Recovery:
    backup: Path
    kept: dict[str, int]  # table -> rows copied into the fresh database
    unread: list[str]  # tables that could not be read (wholly or in part)


def _backup_name(path: Path, now: Optional[_dt.datetime] = None) -> Path:
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    cand = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while os.path.lexists(cand):
        n += 1
        cand = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return cand


def _salvage(backup: Path) -> tuple[dict[str, list[dict]], list[str]]:
    """The rows that can still be read from a moved-aside database, table by table."""
    rows: dict[str, list[dict]] = {}
    unread: list[str] = []
    if not _regular(backup) or os.path.islink(backup):
        return rows, list(SALVAGE_TABLES)
    try:
        con = _connect_ro(backup)
    except (sqlite3.Error, ValueError):
        return rows, list(SALVAGE_TABLES)
    try:
        for table in SALVAGE_TABLES:
            got: list[dict] = []
            try:
                cur = con.execute(f"select * from {table}")  # noqa: S608 - our own table names
                cols = [d[0] for d in cur.description]
                while True:
                    r = cur.fetchone()
                    if r is None:
                        break
                    got.append(dict(zip(cols, r)))
            except (sqlite3.Error, ValueError) as e:  # ValueError: SQLite's message quoting bytes that are not UTF-8
                if not str(e).startswith("no such table"):  # (an older database has no measurements: nothing lost)
                    unread.append(table)
            rows[table] = got
    finally:
        con.close()
    return rows, unread


def _copy_rows(path: Path, rows: dict[str, list[dict]]) -> dict[str, int]:
    kept: dict[str, int] = {}
    con = sqlite3.connect(str(path))
    try:
        for table, items in rows.items():
            cols = {r[1] for r in con.execute(f"pragma table_info({table})")}
            n = 0
            for item in items:
                d = {k: v for k, v in item.items() if k in cols and not (table == "user_price" and k == "id")}
                if not d:
                    continue
                names = ", ".join(d)
                marks = ", ".join("?" for _ in d)
                try:
                    con.execute(f"insert or replace into {table} ({names}) values ({marks})", list(d.values()))
                    n += 1
                except sqlite3.Error:
                    continue
            kept[table] = n
        con.commit()
    finally:
        con.close()
    return kept


def move_aside(path: Path, now: Optional[_dt.datetime] = None) -> Path:
    """Rename the database (the link itself, if it is one) and its side files to a dated backup."""
    backup = _backup_name(path, now)
    if os.path.lexists(path):  # (absent when only a side file was odd)
        os.rename(path, backup)
    for side in COMPANIONS:
        s = path.with_name(path.name + side)
        if os.path.lexists(s):
            # A side file that is not a regular file keeps another name, so that reading the
            # backup never opens it (SQLite would wait on a pipe).
            odd = os.path.islink(s) or not os.path.isfile(s)
            try:
                os.rename(s, backup.with_name(backup.name + side + ("-not-a-file" if odd else "")))
            except OSError:
                pass
    return backup


def recover(path: Path, now: Optional[_dt.datetime] = None) -> Recovery:
    """Move a damaged database aside, start a fresh one and copy into it what can be read.
    OSError when it cannot be moved (then nothing was changed)."""
    backup = move_aside(path, now)
    rows, unread = _salvage(backup)
    try:
        upgrade(_url(path))
    except BaseException:  # no fresh database could be made: put the old one back as it was
        for side in ("", *COMPANIONS):
            fresh = path.with_name(path.name + side)
            if os.path.lexists(fresh) and not os.path.isdir(fresh):
                os.unlink(fresh)
        for side in ("", *COMPANIONS):
            for odd in ("", "-not-a-file"):
                old = backup.with_name(backup.name + side + odd)
                if os.path.lexists(old):
                    os.rename(old, path.with_name(path.name + side))
        raise
    kept = _copy_rows(path, rows) if any(rows.values()) else {t: 0 for t in SALVAGE_TABLES}
    return Recovery(backup, kept, unread)


def recovery_notice(path: Path, reason: str, rec: Recovery) -> T:
    parts, prices = rec.kept.get("part", 0), rec.kept.get("user_price", 0)
    lost = (T("Anything else it held could not be read; the backup is kept unchanged for recovery.")
            if rec.unread or not (parts or prices) else
            T("Every row that could be read was kept; the backup is kept unchanged."))
    return T("Your database {path} {reason}. It was moved to {backup} and a new one started. "
             "Kept: {parts} and {prices} read from it. {lost}",
             path=str(path), reason=reason, backup=str(rec.backup), parts=nT("{n} part", "{n} parts", parts),
             prices=nT("{n} price", "{n} prices", prices), lost=lost)


# --------------------------------------------------------------------------- writing

def _url(path: Path) -> str:
    return f"sqlite:///{path}"


def write_failure(path: Any, e: BaseException) -> T:
    """A plain message for a failed write to the user database (``e`` from SQLite, SQLAlchemy or
    the file system); every one says that nothing was changed."""
    orig = getattr(e, "orig", None) or e
    text = str(orig).lower()
    err = getattr(orig, "errno", None)
    where = str(path)
    if "full" in text or err in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        return T("{path}: the disk is full (or a file-size limit was reached); nothing was changed", path=where)
    if "readonly" in text or "read-only" in text or err in (errno.EROFS, errno.EACCES, errno.EPERM):
        return T("{path}: the file or its folder cannot be written (read-only); nothing was changed", path=where)
    if "locked" in text or "busy" in text:
        return T("{path}: another program is writing it; nothing was changed, try again", path=where)
    if "disk i/o" in text or isinstance(orig, OSError):
        return T("{path}: writing failed (a disk error, or the disk is full); nothing was changed", path=where)
    return T("{path}: cannot write your database ({error}); nothing was changed", path=where,
             error=str(orig)[:200])


F = TypeVar("F", bound=Callable[..., Any])


def guarded_write(fn: F) -> F:
    """For a function whose first argument is the user database's engine: any write failure
    becomes a UserDatabaseError with a plain message (its one transaction was rolled back)."""

    @functools.wraps(fn)
    def wrapper(engine, *args, **kwargs):
        from sqlalchemy.exc import SQLAlchemyError

        try:
            return fn(engine, *args, **kwargs)
        except (SQLAlchemyError, sqlite3.Error, OSError, UnicodeError, RecursionError) as e:
            where = getattr(getattr(engine, "url", None), "database", None) or "the user database"
            raise UserDatabaseError(write_failure(where, e)) from None

    return wrapper  # type: ignore[return-value]


def open_user_db(path: Path) -> "Engine":
    """The engine for the user database, migrated to the newest revision. UserDatabaseError
    when the folder or file cannot be written."""
    from sqlalchemy.exc import SQLAlchemyError

    from rigbuilder.catalog.engine import make_engine

    existed = os.path.lexists(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        url = _url(path)
        if current_revision(path) != HEAD:
            upgrade(url)  # one transaction: a failure leaves the file as it was
        return make_engine(url)
    except (SQLAlchemyError, sqlite3.Error, OSError, UnicodeError, RecursionError) as e:
        if not existed:  # no half-made database left behind
            for side in ("", *COMPANIONS):
                made = path.with_name(path.name + side)
                if _regular(made) and not os.path.islink(made):
                    os.unlink(made)
        raise UserDatabaseError(write_failure(path, e)) from None
