"""A lab's shared database: its own parts, the prices it paid, its builds, its cluster plans and
its inventory (parts the lab owns, how many, where), for several people at once.

The database is named by a URL: ``sqlite:///path`` or a plain path (the default kind, nothing to
install) or ``postgresql://user@host:port/dbname`` (a lab's server; docs/lab-database.md says how
to create the database and its roles). The tables (:mod:`rigbuilder.catalog.labtables`) and the
Alembic steps (``lab_migrations``) are the same on both.

Several people at once:

- no lost update: every editable row has a ``version``; a write names the version it read and
  changes the row only if it is still that version (one ``UPDATE ... WHERE version = ?``); else
  nothing is written and :class:`Conflict` says who changed it, when, and what it is now. Adding
  to a stock count is an increment on the server (``count = count + n``), never read-modify-write.
- no half-written rows: each operation is one transaction; a client killed in the middle leaves
  nothing of it (the server rolls back what was not committed).
- a member without write rights (a read-only role) gets :class:`NoWriteRights`, a clear message,
  never a traceback; each other reason a database cannot be used (no role there, a missing grant,
  a layout older or newer than this program's, the server down, a wrong password) has its own
  one-line message saying what to do, the same in the window and on the command line.

People (PostgreSQL): every change records the login role (``session_user``), whatever role the
connection then takes (``SET ROLE``); a trigger on the server writes it, so no client can claim to
be someone else. The schema's grants (``lab0003``) give a reader SELECT, a member (the
``rigbuilder_writer`` role) prices, stock and the builds, plans and parts it created (row-level
security), and the administrator (``rigbuilder_admin``, who owns the tables) everything else,
including the version table.

Credentials are never part of the stored URL: the password comes from a password file (libpq's
``~/.pgpass`` or one named in the preferences) or the system keyring when the ``keyring`` package
is installed (:func:`store_password`).
"""
from __future__ import annotations

import datetime as _dt
import functools
import getpass
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional

from rigbuilder.domain.i18n import T
from rigbuilder.domain.safeio import bad_text

if TYPE_CHECKING:
    from sqlalchemy.engine import URL, Engine
    from sqlmodel import Session

HEAD = "lab0004"
MIGRATIONS = Path(__file__).resolve().parent / "lab_migrations"
KEYRING_SERVICE = "rigbuilder-lab-database"
INSUFFICIENT_PRIVILEGE = "42501"
CONNECTION_STATES = ("08001", "08006", "08004", "28000", "28P01", "3D000", "57P03")
LAB_ROLES = ("rigbuilder_admin", "rigbuilder_writer", "rigbuilder_reader")
"""The roles docs/lab-database.md creates: administrator, member, reader."""
APPLICATION_NAME = "rigbuilder"


class LabDbError(RuntimeError):
    """A lab-database problem, with a message for the user (what, where, what to do)."""


class Conflict(LabDbError):
    """Someone else changed (or added, or removed) the row since it was read; nothing was written.
    ``current`` is the row as it is now, a dict of its columns (None when it was removed)."""

    def __init__(self, message: str, current: Any = None) -> None:
        super().__init__(message)
        self.current = current


class NoWriteRights(LabDbError):
    """The database refused a write: this member may read but not change it."""


class NotYours(NoWriteRights):
    """A member tried to change a build, plan or part another member created."""


class NoAccess(LabDbError):
    """The database cannot be used by this person: no role there, or a grant is missing."""


class WrongSchema(LabDbError):
    """The database's tables are of another version than this program's: ``revision`` is theirs."""

    def __init__(self, message: str, revision: Optional[str] = None) -> None:
        super().__init__(message)
        self.revision = revision


class CannotConnect(LabDbError):
    """The server cannot be reached, refused the password, or has no such database."""


# --------------------------------------------------------------------------- the URL

@dataclass(frozen=True)
class LabUrl:
    """A lab database's address without its password (what may be stored and shown)."""

    url: "URL"

    @property
    def backend(self) -> str:
        return "postgresql" if self.url.get_backend_name() == "postgresql" else "sqlite"

    @property
    def display(self) -> str:
        return self.url.render_as_string(hide_password=True)

    @property
    def key(self) -> str:
        """Who at which database: the keyring's account name for this URL."""
        u = self.url
        return f"{u.username or ''}@{u.host or ''}:{u.port or ''}/{u.database or ''}"

    def __str__(self) -> str:
        return self.display


def parse_url(text: str) -> tuple[LabUrl, Optional[str]]:
    """(the address without password, the password the text carried or None).

    Accepts ``postgresql://``, ``postgres://``, ``postgresql+psycopg://``, ``sqlite:///path`` and a
    plain file path (a SQLite file). Raises :class:`LabDbError` naming what is wrong."""
    from sqlalchemy.engine import URL, make_url
    from sqlalchemy.exc import ArgumentError

    s = (text or "").strip()
    if not s:
        raise LabDbError(T("no lab database named: give a URL such as postgresql://me@server/lab or a file path"))
    if bad_text(s, multiline=False):
        raise LabDbError(T("the lab database's address holds a character that is not valid text (a byte that is "
                           "not UTF-8, or a control character): type it again"))
    if "://" not in s:
        return LabUrl(make_url("sqlite:///" + str(Path(s).expanduser()))), None
    if s.startswith("postgres://"):
        s = "postgresql://" + s[len("postgres://"):]
    netloc = s.partition("://")[2].partition("/")[0]
    if netloc.count("@") > 1:  # an "@" in the password: what follows it would be taken for the host
        raise LabDbError(T("the address {url} holds more than one \"@\": write an \"@\" in the user name or "
                           "password as %40 (better: keep the password out of the address)", url=_redact_text(s)))
    try:
        url = make_url(s)
        if url.port is not None and not 0 < url.port < 65536:
            raise ValueError(url.port)
    except (ArgumentError, ValueError):
        raise LabDbError(T("{url} is not a database address: use postgresql://user@host:port/database (the port a "
                           "number) or sqlite:///path", url=_redact_text(s))) from None
    name = url.get_backend_name()
    if name == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
        if not url.database:
            raise LabDbError(T("the URL {url} names no database: add /database at its end",
                               url=url.render_as_string(hide_password=True)))
    elif name != "sqlite":
        raise LabDbError(T("{kind} databases are not supported: use PostgreSQL or SQLite", kind=name))
    password = url.password
    bare = URL.create(url.drivername, url.username, None, url.host, url.port, url.database, url.query)
    return LabUrl(bare), (str(password) if password is not None else None)


def _redact_text(s: str) -> str:
    """``s`` with everything before the host's "@" (user name and password) shown as ***: no part of
    a password is ever printed, even one that holds an "@" or a ":"."""
    head, sep, rest = s.partition("://")
    if not sep:
        return s
    netloc, slash, tail = rest.partition("/")
    if "@" in netloc:
        netloc = "***@" + netloc.rpartition("@")[2]
    return f"{head}://{netloc}{slash}{tail}"


def stored_url(text: str) -> str:
    """The form of ``text`` that may be stored in the preferences; refuses a URL with a password."""
    url, password = parse_url(text)
    if password:
        raise LabDbError(T("a password does not belong in the stored URL: remove it from {url} and put it in a "
                           "password file (~/.pgpass) or the system keyring", url=url.display))
    return url.url.render_as_string(hide_password=False)


# --------------------------------------------------------------------------- passwords

def keyring_available() -> bool:
    try:
        import keyring  # noqa: F401
    except Exception:
        return False
    return True


def _keyring_password(url: LabUrl) -> Optional[str]:
    if not keyring_available():
        return None
    try:
        import keyring
        return keyring.get_password(KEYRING_SERVICE, url.key)
    except Exception:  # no usable backend: the password file then
        return None


def _pgpass_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace(":", "\\:")


def store_password(url: LabUrl, password: str, passfile: Path) -> str:
    """Keep ``password`` for ``url`` out of the settings: in the system keyring if one works, else
    in ``passfile`` (libpq's password-file format, readable by the owner only). Returns where:
    "keyring" or the file's path."""
    if keyring_available():
        try:
            import keyring
            keyring.set_password(KEYRING_SERVICE, url.key, password)
            return "keyring"
        except Exception:
            pass
    u = url.url
    line = ":".join(_pgpass_escape(str(x)) for x in (u.host or "localhost", u.port or 5432, u.database or "*",
                                                      u.username or "*", password))
    write_password_file(passfile, ":".join(line.split(":")[:4]) + ":", line)
    return str(passfile)


def write_password_file(passfile: Path, prefix: str, line: str) -> None:
    """Replace the lines of ``passfile`` that start with ``prefix`` by ``line``: a new file written
    beside it with mode 0600, then renamed over it, so a crash leaves the old file or the new one.
    A symbolic link (or anything but a plain file) is refused, never followed: the password must
    not land in a file the link points to."""
    import stat
    import tempfile

    passfile = Path(passfile)
    try:
        st = os.lstat(passfile)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise LabDbError(T("cannot use the password file {file}: {why}", file=str(passfile), why=exc.strerror or str(exc)))
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise LabDbError(T("the password file {file} is a symbolic link or not a plain file; rigbuilder writes "
                           "passwords only to a plain file of its own: remove it or choose another file",
                           file=str(passfile)))
    keep: list[str] = []
    try:
        passfile.parent.mkdir(parents=True, exist_ok=True)
        if st is not None:
            fd = os.open(passfile, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "r", encoding="utf-8", errors="surrogateescape") as fh:
                keep = [ln for ln in fh.read().splitlines() if ln and not ln.startswith(prefix)]
        fd, tmp = tempfile.mkstemp(prefix=f".{passfile.name}.", suffix=".tmp", dir=str(passfile.parent))
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write("\n".join(keep + [line]) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, passfile)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise LabDbError(T("cannot write the password file {file}: {why}", file=str(passfile),
                           why=exc.strerror or str(exc))) from None


# --------------------------------------------------------------------------- errors

def _os_user() -> str:
    """The computer's user name (who changes a SQLite lab file), or "?" where none can be found."""
    try:
        return getpass.getuser()
    except Exception:  # no USER variable and no password-database entry (a bare container)
        return "?"


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0].strip() if text else ""


def _server(url: "LabUrl") -> str:
    u = url.url
    host = u.host or u.query.get("host") or "localhost"
    return f"{host}:{u.port}" if u.port else str(host)


def _connect_error(exc: BaseException, url: "LabUrl") -> Optional[LabDbError]:
    """The message for a connection that failed, or None when it is not one. The driver's text is
    never shown whole: it may hold the address, never the password, but says little to a person."""
    text = str(getattr(exc, "orig", None) or exc)
    low = text.lower()
    user, host, db = url.url.username or _os_user(), _server(url), url.url.database or ""
    if "password authentication failed" in low or "authentication failed" in low:
        return CannotConnect(T("the lab database server {host} refused the password of {user}: check it and keep it "
                               "again (Preferences > Lab Database > Keep Password, or --password-file)",
                               host=host, user=user))
    if "no password supplied" in low or "password is required" in low:
        return CannotConnect(T("the lab database server {host} asks {user} for a password and none was found: keep "
                               "it (Preferences > Lab Database > Keep Password) or name a password file "
                               "(--password-file)", host=host, user=user))
    if "does not exist" in low and "database" in low:
        return CannotConnect(T("the lab database server {host} has no database {name}: check the database name at "
                               "the end of the address", host=host, name=db))
    if "role" in low and "does not exist" in low:
        return CannotConnect(T("the lab database server {host} has no user {user}: check the user name in the address "
                               "or ask the lab's administrator", host=host, user=user))
    if "pg_hba.conf" in low or "not permitted to log in" in low:
        return CannotConnect(T("the lab database server {host} does not let {user} log in from here: ask the lab's "
                               "administrator", host=host, user=user))
    if ("connection refused" in low or "could not connect" in low or "connection failed" in low
            or "timeout expired" in low or "resolve host" in low or "no such file or directory" in low
            or "server closed the connection" in low or "the database system is" in low):
        return CannotConnect(T("cannot reach the lab database server {host}: check that it is running and that the "
                               "address is right, then try again", host=host))
    return None


def _roles(engine: "Engine") -> Optional[set[str]]:
    """The lab roles the login role holds (None when that cannot be asked, e.g. on SQLite)."""
    if engine.dialect.name != "postgresql":
        return None
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "select r.rolname from pg_roles r where r.rolname = any(%(names)s) "
                "and pg_has_role(session_user, r.oid, 'MEMBER')", {"names": list(LAB_ROLES)}).all()
            superuser = conn.exec_driver_sql("select rolsuper from pg_roles where rolname = session_user").scalar()
    except Exception:
        return None
    held = {r[0] for r in rows}
    return held | ({"rigbuilder_admin"} if superuser else set())


def _explain(exc: BaseException, url: "LabUrl", engine: Optional["Engine"] = None, *, writing: bool = True,
             user: str = "") -> LabDbError:
    """A database exception as one line for the user: what is wrong and what to do."""
    from sqlalchemy import exc as E

    where = url.display
    orig = getattr(exc, "orig", None)
    state = getattr(orig, "sqlstate", None)
    detail = _first_line(exc)
    who = user or url.url.username or _os_user()
    if state == INSUFFICIENT_PRIVILEGE:
        held = _roles(engine) if engine is not None else None
        if writing and not (held and held & {"rigbuilder_writer", "rigbuilder_admin"}):
            return NoWriteRights(T("you may read the lab database {db} but not change it: ask the lab's administrator "
                                   "for the rigbuilder_writer role", db=where))
        if not writing and held is not None and not held:
            return NoAccess(T("{user} has no role in the lab database {db}: ask the lab's administrator to grant "
                              "rigbuilder_reader (to read) or rigbuilder_writer (to change) to {user}",
                              user=who, db=where))
        return NoAccess(T("the lab database {db} lacks a grant for {user}'s role (it was set up without "
                          "rigbuilder's grants): ask the lab's administrator to connect to it once with this "
                          "rigbuilder, which sets them", user=who, db=where))
    if "readonly database" in detail or "read-only" in detail:
        return NoWriteRights(T("the lab database {db} is a file you may read but not change: ask its owner for write "
                               "access, or copy it", db=where))
    if isinstance(exc, (E.OperationalError, E.InterfaceError)) and (state in CONNECTION_STATES or state is None):
        known = _connect_error(exc, url)
        if known is not None:
            return known
        return CannotConnect(T("cannot use the lab database {db}: {detail}", db=where, detail=detail))
    return LabDbError(T("the lab database {db} refused the change: {detail}", db=where, detail=detail))


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


# --------------------------------------------------------------------------- rows as the doors see them

@dataclass(frozen=True)
class Entry:
    """One row as read: its key, its values and the version a write must name."""

    key: tuple
    values: dict
    version: int
    updated_by: str
    updated_at: str


# --------------------------------------------------------------------------- the database

class LabDb:
    """An open lab database. Each method is one transaction."""

    def __init__(self, engine: "Engine", url: LabUrl, user: str) -> None:
        self.engine = engine
        self.url = url
        self.user = user

    # -- opening

    @classmethod
    def open(cls, text: str, *, passfile: Optional[Path] = None, password: Optional[str] = None,
             migrate: bool = True) -> "LabDb":
        """Open (and bring up to date) the lab database ``text`` names. The password: ``password``,
        else the one in the URL, else the keyring, else ``passfile`` or libpq's ``~/.pgpass``."""
        from rigbuilder.catalog.engine import make_engine

        url, in_url = parse_url(text)
        args: dict[str, Any] = {}
        if url.backend == "postgresql":
            pw = password or in_url or _keyring_password(url)
            if pw:
                if bad_text(pw, multiline=False):
                    raise LabDbError(T("the password holds a character that is not valid text (a byte that is not "
                                       "UTF-8, or a control character): type it again"))
                args["password"] = pw
            elif passfile is not None:
                if bad_text(str(passfile), multiline=False):
                    raise LabDbError(T("the password file's name {file} is not valid text (a byte that is not UTF-8, "
                                       "or a control character): rename the file or choose another",
                                       file=ascii(str(passfile))))
                args["passfile"] = str(passfile)
            args["connect_timeout"] = 10
            args["application_name"] = APPLICATION_NAME
        else:
            db = url.url.database
            if db and db != ":memory:":
                try:
                    Path(db).parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise CannotConnect(T("cannot make the folder of the lab database {db}: {why}", db=url.display,
                                          why=exc.strerror or str(exc))) from None
        engine = make_engine(url.url.render_as_string(hide_password=False), args)
        user = ""
        try:
            with engine.connect() as conn:
                user = (conn.exec_driver_sql("select session_user").scalar() if url.backend == "postgresql"
                        else _os_user())
            with engine.connect() as conn:
                rev = current_revision(conn)
            check_revision(rev, url)
            if rev != HEAD and migrate:
                try:
                    upgrade(engine)
                except Exception as exc:
                    with engine.connect() as conn:  # another member's first start did it at the same moment
                        if current_revision(conn) == HEAD:
                            rev = HEAD
                        elif _is_denied(exc):
                            raise _needs_admin(rev, url) from None
                        else:
                            raise
        except LabDbError:
            engine.dispose()
            raise
        except Exception as exc:  # a database error: said in words
            from sqlalchemy.exc import SQLAlchemyError
            try:
                if isinstance(exc, SQLAlchemyError):
                    raise _explain(exc, url, engine, writing=False, user=str(user or "")) from None
                raise
            finally:
                engine.dispose()
        return cls(engine, url, str(user))

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions

    @contextmanager
    def transaction(self) -> Iterator["Session"]:
        """One transaction: everything in it is written together or not at all."""
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError
        from sqlmodel import Session

        try:
            with Session(self.engine) as session, session.begin():
                yield session
        except LabDbError:
            raise
        except IntegrityError as exc:
            raise Conflict(T("someone else added the same entry at the same moment; nothing was written. Reload and "
                             "try again ({detail})", detail=str(exc.orig).splitlines()[0])) from None
        except SQLAlchemyError as exc:
            raise _explain(exc, self.url, self.engine, user=self.user) from None

    def _stamp(self) -> dict:
        return {"updated_by": self.user[:80], "updated_at": _now()}

    def _cas(self, session: "Session", model, key: dict, values: dict, version: Optional[int], what: str) -> int:
        """Compare and set: insert when ``version`` is None, else update only that version."""
        from sqlalchemy import update
        from sqlmodel import select

        if version is None:
            existing = session.exec(select(model).filter_by(**key)).first()
            if existing is not None:
                raise Conflict(T("{what} already exists (version {now}, by {who} at {when}); nothing was written. "
                                 "Reload it and change that version", what=what, now=existing.version,
                                 who=existing.updated_by or "?", when=existing.updated_at or "?"), existing.model_dump())
            owned = {"created_by": self.user[:80]} if "created_by" in model.model_fields else {}
            session.add(model(**key, **values, version=1, **owned, **self._stamp()))
            session.flush()
            return 1
        cond = [getattr(model, k) == v for k, v in key.items()]
        res = session.execute(update(model).where(*cond, model.version == version)
                              .values(**values, version=model.version + 1, **self._stamp()))
        if res.rowcount != 1:
            now = session.exec(select(model).filter_by(**key)).first()
            if now is None:
                raise Conflict(T("{what} was removed by someone else after you read it; your change was not saved",
                                 what=what))
            self._refuse_others(now, version, what)
            raise Conflict(T("{what} was changed by {who} at {when} (now version {now}) after you read version "
                             "{yours}; your change was not saved. Reload it and apply your change again",
                             what=what, who=now.updated_by or "?", when=now.updated_at or "?", now=now.version,
                             yours=version), now.model_dump())
        return version + 1

    def _refuse_others(self, row, version: int, what: str) -> None:
        """The row is still the version read, yet the server changed nothing: row-level security
        kept this member off a row another member created."""
        owner = getattr(row, "created_by", None)
        if row.version == version and owner and owner != self.user:
            raise NotYours(T("{what} belongs to {owner}: only {owner} or the lab's administrator may change it; "
                             "save yours under another name", what=what, owner=owner))

    def _remove(self, model, key: dict, version: int, what: str) -> None:
        from sqlalchemy import delete
        from sqlmodel import select

        with self.transaction() as s:
            cond = [getattr(model, k) == v for k, v in key.items()]
            res = s.execute(delete(model).where(*cond, model.version == version))
            if res.rowcount != 1:
                now = s.exec(select(model).filter_by(**key)).first()
                if now is not None:
                    self._refuse_others(now, version, what)
                    raise Conflict(T("{what} was changed by {who} at {when} (now version {now}) after you read version "
                                     "{yours}; your change was not saved. Reload it and apply your change again",
                                     what=what, who=now.updated_by or "?", when=now.updated_at or "?",
                                     now=now.version, yours=version), now.model_dump())

    # -- prices

    def prices(self, part_id: Optional[str] = None) -> list[Entry]:
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabPrice

        with self.transaction() as s:
            q = select(LabPrice).order_by(LabPrice.part_id, LabPrice.condition)
            if part_id is not None:
                _check_text(part_id, T("a part id"), 120)
                q = q.where(LabPrice.part_id == part_id)
            return [Entry((r.part_id, r.condition), {"amount": r.amount, "currency": r.currency, "source": r.source,
                                                     "date": r.date, "market": r.market or ""},
                          r.version, r.updated_by, r.updated_at)
                    for r in s.exec(q)]

    def price_observations(self) -> list:
        """The lab's prices as price observations ("price paid", by whom and when) for a price book."""
        from rigbuilder.domain.money import PriceObservation

        return [PriceObservation(e.key[0], float(e.values["amount"]), e.values["currency"], e.key[1], "paid",
                                 e.values["source"] or T("the lab's database ({who})", who=e.updated_by),
                                 e.values["date"] or e.updated_at[:10], market=e.values.get("market") or "")
                for e in self.prices()]

    def price(self, part_id: str, condition: str = "new") -> Optional[Entry]:
        return next((e for e in self.prices(part_id) if e.key[1] == condition), None)

    def set_price(self, part_id: str, condition: str, amount: float, currency: str, *, version: Optional[int],
                  source: str = "", date: str = "", market: str = "") -> int:
        """Set the lab's price of ``part_id`` in ``condition``; ``version`` is the one read (None: a new
        price). Returns the new version; :class:`Conflict` when someone else changed it first.
        ``market``: where the price was seen (``domain.market.MARKETS``; "": paid, tax included)."""
        with self.transaction() as s:
            return self._set_price(s, part_id, condition, amount, currency, version, source, date, market)

    def set_prices(self, prices: list) -> int:
        """Set the lab's prices of several parts in one transaction, all or none (``price update
        --lab``): each a :class:`~rigbuilder.domain.money.PriceObservation`, replacing the lab's price of
        that part and condition, whatever its version. Returns how many were written."""
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabPrice

        with self.transaction() as s:
            for o in prices:
                now = s.exec(select(LabPrice).filter_by(part_id=o.part_id, condition=o.condition)).first()
                self._set_price(s, o.part_id, o.condition, o.amount, o.currency, now.version if now else None,
                                o.source[:400], o.date, getattr(o, "market", "") or "")
        return len(prices)

    def _set_price(self, s, part_id: str, condition: str, amount: float, currency: str, version: Optional[int],
                   source: str, date: str, market: str) -> int:
        from rigbuilder.catalog.labtables import LabPrice
        from rigbuilder.domain.market import MARKETS
        from rigbuilder.domain.money import CONDITIONS, MoneyError, check_currency

        _check_text(part_id, T("a part id"), 120)
        _check_text(source, T("a source"), 400, empty=True)
        _check_text(date, T("a date"), 40, empty=True)
        if condition not in CONDITIONS:
            raise LabDbError(T("condition {c!r} is not one of: {allowed}", c=condition, allowed=", ".join(CONDITIONS)))
        if market and market not in MARKETS:
            raise LabDbError(T("market {m!r} is not one of: {allowed}", m=market, allowed=", ".join(MARKETS)))
        if not amount >= 0:
            raise LabDbError(T("a price cannot be negative ({amount})", amount=amount))
        try:
            cur = check_currency(currency)
        except MoneyError as exc:
            raise LabDbError(str(exc)) from None
        return self._cas(s, LabPrice, {"part_id": part_id, "condition": condition},
                         {"amount": float(amount), "currency": cur, "source": source, "date": date, "market": market},
                         version, T("the lab's {condition} price of {part}", condition=condition, part=part_id))

    # -- calibration

    def calibrations(self) -> list[Entry]:
        """The card models' calibration factors shared in the lab (key: the part id)."""
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabCalibration

        with self.transaction() as s:
            return [Entry((r.part_id,), {"factor": r.factor, "logs": r.logs, "latest": r.latest}, r.version,
                          r.updated_by, r.updated_at)
                    for r in s.exec(select(LabCalibration).order_by(LabCalibration.part_id))]

    def calibration(self, part_id: str) -> Optional[Entry]:
        return next((e for e in self.calibrations() if e.key[0] == part_id), None)

    def set_calibration(self, part_id: str, factor: float, logs: int, latest: str, *, version: Optional[int]) -> int:
        """Share a card model's calibration factor (``version``: the one read, None for a new row)."""
        from rigbuilder.catalog.labtables import LabCalibration
        from rigbuilder.domain.calibration import MAX_FACTOR, MIN_FACTOR

        _check_text(part_id, T("a part id"), 120)
        _check_text(latest, T("a date"), 40, empty=True)
        if not (isinstance(factor, (int, float)) and MIN_FACTOR <= factor <= MAX_FACTOR):
            raise LabDbError(T("a calibration factor must be between {lo} and {hi}, not {v}", lo=MIN_FACTOR,
                               hi=MAX_FACTOR, v=factor))
        if not (isinstance(logs, int) and 1 <= logs <= MAX_COUNT):
            raise LabDbError(T("a calibration rests on at least one log, not {n}", n=logs))
        with self.transaction() as s:
            return self._cas(s, LabCalibration, {"part_id": part_id},
                             {"factor": float(factor), "logs": logs, "latest": latest}, version,
                             T("the lab's calibration of {part}", part=part_id))

    # -- inventory

    def inventory(self) -> list[Entry]:
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabInventory

        with self.transaction() as s:
            q = select(LabInventory).order_by(LabInventory.part_id, LabInventory.location)
            return [Entry((r.part_id, r.location), {"count": r.count, "note": r.note}, r.version, r.updated_by,
                          r.updated_at) for r in s.exec(q)]

    def stock(self, part_id: str, location: str = "") -> Optional[Entry]:
        return next((e for e in self.inventory() if e.key == (part_id, location)), None)

    def set_stock(self, part_id: str, location: str, count: int, *, version: Optional[int], note: str = "") -> int:
        """Set how many of ``part_id`` the lab has at ``location``; ``version`` as for prices."""
        from rigbuilder.catalog.labtables import LabInventory

        _check_count(count)
        _check_text(part_id, T("a part id"), 120)
        _check_text(location, T("a place"), 120, empty=True)
        _check_text(note, T("a note"), 400, empty=True)
        with self.transaction() as s:
            return self._cas(s, LabInventory, {"part_id": part_id, "location": location},
                             {"count": int(count), "note": note}, version,
                             T("the stock of {part} at {place}", part=part_id, place=location or "-"))

    def add_stock(self, items: list[tuple[str, str, int]]) -> None:
        """Add counts (negative: take out) to the stock, all rows in one transaction: each
        ``(part_id, location, n)`` is an increment on the server (a new row is inserted, or, if it
        exists or someone adds it at the same moment, its count raised: ``INSERT ... ON CONFLICT DO
        UPDATE SET count = count + n``), so people adding at once all count."""
        from sqlalchemy import update
        from sqlalchemy.exc import IntegrityError
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabInventory

        for part_id, location, n in items:
            _check_text(part_id, T("a part id"), 120)
            _check_text(location, T("a place"), 120, empty=True)
            if not isinstance(n, int) or isinstance(n, bool) or abs(n) > MAX_COUNT:
                raise LabDbError(T("a count must be a whole number from -{max} to {max}, not {n!r}", max=MAX_COUNT,
                                   n=n))
        with self.transaction() as s:
            insert = _insert_for(self.engine)
            for part_id, location, n in items:
                try:
                    if n >= 0:
                        stmt = insert(LabInventory.__table__).values(
                            part_id=part_id, location=location, count=int(n), note="", version=1, **self._stamp())
                        s.execute(stmt.on_conflict_do_update(
                            index_elements=["part_id", "location"],
                            set_={"count": LabInventory.__table__.c["count"] + stmt.excluded["count"],
                                  "version": LabInventory.__table__.c.version + 1, **self._stamp()}))
                        continue
                    res = s.execute(update(LabInventory)
                                    .where(LabInventory.part_id == part_id, LabInventory.location == location)
                                    .values(count=LabInventory.count + int(n), version=LabInventory.version + 1,
                                            **self._stamp()))
                except IntegrityError as exc:
                    if "ck_lab_inventory_count" in str(exc.orig) or "CHECK constraint" in str(exc.orig):
                        raise LabDbError(T("the stock of {part} at {place} would fall below zero; nothing was "
                                           "written", part=part_id, place=location or "-")) from None
                    raise
                if res.rowcount == 0:
                    raise LabDbError(T("the lab has no {part} at {place} to take out; nothing was written",
                                       part=part_id, place=location or "-"))
            low = s.exec(select(LabInventory).where(LabInventory.count < 0)).first()
            if low is not None:
                raise LabDbError(T("the stock of {part} at {place} would fall below zero; nothing was written",
                                   part=low.part_id, place=low.location or "-"))

    def remove_stock(self, part_id: str, location: str, *, version: int) -> None:
        from rigbuilder.catalog.labtables import LabInventory

        self._remove(LabInventory, {"part_id": part_id, "location": location}, version,
                     T("the stock of {part} at {place}", part=part_id, place=location or "-"))

    def owned_counts(self) -> dict[str, int]:
        """How many of each part the lab owns, all places together (for "parts we own")."""
        out: dict[str, int] = {}
        for e in self.inventory():
            out[e.key[0]] = out.get(e.key[0], 0) + int(e.values["count"])
        return {k: v for k, v in out.items() if v > 0}

    # -- parts, builds and cluster plans

    def parts(self) -> list[Entry]:
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabPart

        with self.transaction() as s:
            return [Entry((r.id,), dict(r.data), r.version, r.updated_by, r.updated_at)
                    for r in s.exec(select(LabPart).order_by(LabPart.id))]

    def save_part(self, data: dict, *, version: Optional[int]) -> int:
        from rigbuilder.catalog.labtables import LabPart

        pid, kind = str(data.get("id") or ""), str(data.get("kind") or "")
        if not pid or not kind:
            raise LabDbError(T("a part needs an id and a kind"))
        _check_text(pid, T("a part id"), 120)
        _check_text(kind, T("a part kind"), 20)
        with self.transaction() as s:
            return self._cas(s, LabPart, {"id": pid}, {"kind": kind, "data": dict(data)}, version,
                             T("the lab's part {part}", part=pid))

    def _documents(self, model) -> list[Entry]:
        from sqlmodel import select

        with self.transaction() as s:
            return [Entry((r.name,), dict(r.document), r.version, r.updated_by, r.updated_at)
                    for r in s.exec(select(model).order_by(model.name))]

    def _save_document(self, model, name: str, document: dict, version: Optional[int], what: T) -> int:
        with self.transaction() as s:
            return self._cas(s, model, {"name": _name(name)}, {"document": document}, version, what)

    def builds(self) -> list[Entry]:
        return self._documents(_tables().LabBuild)

    def save_build(self, name: str, document: dict, *, version: Optional[int]) -> int:
        return self._save_document(_tables().LabBuild, name, document, version, T("the build {name!r}", name=name))

    def clusters(self) -> list[Entry]:
        return self._documents(_tables().LabCluster)

    def save_cluster(self, name: str, document: dict, *, version: Optional[int]) -> int:
        return self._save_document(_tables().LabCluster, name, document, version,
                                   T("the cluster plan {name!r}", name=name))


def _tables():
    """The lab's table module, imported when first needed (SQLModel is slow to import)."""
    from rigbuilder.catalog import labtables
    return labtables


MAX_COUNT = 1_000_000
"""The most parts one stock change may add or take (a 32-bit count on the server holds far more)."""


def _insert_for(engine: "Engine"):
    """The dialect's INSERT, which knows ON CONFLICT DO UPDATE (PostgreSQL and SQLite alike)."""
    if engine.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert


def _check_text(s: Any, what: T, max_len: int, *, empty: bool = False) -> str:
    """A key or a name the lab stores: text that is valid UTF-8, one line, not too long."""
    if not isinstance(s, str) or (not s.strip() and not empty):
        raise LabDbError(T("{what} must not be empty", what=what))
    why = bad_text(s, multiline=False)
    if why:
        raise LabDbError(T("{what} {text} is not valid text (a byte that is not UTF-8, a control character or a line "
                           "break): type it again", what=what, text=ascii(s)))
    if len(s) > max_len:
        raise LabDbError(T("{what} may have at most {n} characters", what=what, n=max_len))
    return s


def _check_count(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise LabDbError(T("a count must be a whole number of zero or more, not {n!r}", n=n))


def _name(name: str) -> str:
    s = (name or "").strip()
    if not s or len(s) > 200:
        raise LabDbError(T("a name must have 1 to 200 characters"))
    return _check_text(s, T("a name"), 200)


# --------------------------------------------------------------------------- migrations

def alembic_config(engine: "Engine", connection=None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def current_revision(conn) -> Optional[str]:
    from alembic.migration import MigrationContext

    from rigbuilder.catalog.lab_migrations import VERSION_TABLE

    return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()


@functools.lru_cache(maxsize=1)
def known_revisions() -> tuple[str, ...]:
    """The lab-database revisions this program knows, oldest first (read from its migrations)."""
    from alembic.script import ScriptDirectory

    from rigbuilder.catalog.lab_migrations import VERSION_TABLE  # noqa: F401 (the package must import)

    script = ScriptDirectory(str(MIGRATIONS))
    return tuple(reversed([r.revision for r in script.walk_revisions()]))


def check_revision(rev: Optional[str], url: LabUrl) -> None:
    """Refuse a database whose tables a newer rigbuilder made (this one cannot know their layout)."""
    if rev is not None and rev != HEAD and rev not in known_revisions():
        raise WrongSchema(T("the lab database {db} was set up by a newer rigbuilder (its tables are of version {rev}, "
                            "this rigbuilder knows up to {head}): update rigbuilder to use it",
                            db=url.display, rev=rev, head=HEAD), rev)


def _is_denied(exc: BaseException) -> bool:
    return getattr(getattr(exc, "orig", None), "sqlstate", None) == INSUFFICIENT_PRIVILEGE or \
        "must be owner" in str(exc) or "permission denied" in str(exc)


def _needs_admin(rev: Optional[str], url: LabUrl) -> WrongSchema:
    if rev is None:
        return WrongSchema(T("the lab database {db} has no rigbuilder tables yet: the lab's administrator (the "
                             "rigbuilder_admin role) creates them by connecting once", db=url.display), rev)
    return WrongSchema(T("the lab database {db} has tables of an older version ({rev}) than this rigbuilder needs "
                         "({head}): the lab's administrator (the rigbuilder_admin role) upgrades them by connecting "
                         "once with this rigbuilder", db=url.display, rev=rev, head=HEAD), rev)


_ALEMBIC = threading.Lock()
"""Alembic's environment is process-global (``alembic.context``): one migration at a time per process."""


def upgrade(engine: "Engine", revision: str = "head") -> None:
    """Bring the database to ``revision`` in one transaction (PostgreSQL's DDL is transactional)."""
    from alembic import command

    with _ALEMBIC, engine.begin() as conn:
        command.upgrade(alembic_config(engine, conn), revision)


def downgrade(engine: "Engine", revision: str) -> None:
    from alembic import command

    with _ALEMBIC, engine.begin() as conn:
        command.downgrade(alembic_config(engine, conn), revision)
