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
  never a traceback.

Credentials are never part of the stored URL: the password comes from a password file (libpq's
``~/.pgpass`` or one named in the preferences) or the system keyring when the ``keyring`` package
is installed (:func:`store_password`).
"""
from __future__ import annotations

import datetime as _dt
import getpass
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional

from rigbuilder.domain.i18n import T

if TYPE_CHECKING:
    from sqlalchemy.engine import URL, Engine
    from sqlmodel import Session

HEAD = "lab0002"
MIGRATIONS = Path(__file__).resolve().parent / "lab_migrations"
KEYRING_SERVICE = "rigbuilder-lab-database"
INSUFFICIENT_PRIVILEGE = "42501"
CONNECTION_STATES = ("08001", "08006", "08004", "28000", "28P01", "3D000", "57P03")


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
    if "://" not in s:
        return LabUrl(make_url("sqlite:///" + str(Path(s).expanduser()))), None
    if s.startswith("postgres://"):
        s = "postgresql://" + s[len("postgres://"):]
    try:
        url = make_url(s)
    except ArgumentError:
        raise LabDbError(T("{url!r} is not a database URL: use postgresql://user@host:port/database or "
                           "sqlite:///path", url=_redact_text(s))) from None
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
    head, sep, rest = s.partition("://")
    if sep and "@" in rest:
        cred, _, host = rest.rpartition("@")
        if ":" in cred:
            return f"{head}://{cred.split(':', 1)[0]}:***@{host}"
    return s


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
    passfile.parent.mkdir(parents=True, exist_ok=True)
    keep = []
    if passfile.exists():
        prefix = ":".join(line.split(":")[:4]) + ":"
        keep = [ln for ln in passfile.read_text(encoding="utf-8").splitlines() if not ln.startswith(prefix)]
    fd = os.open(passfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("\n".join(keep + [line]) + "\n")
    os.chmod(passfile, 0o600)
    return str(passfile)


# --------------------------------------------------------------------------- errors

def _explain(exc: BaseException, where: str) -> LabDbError:
    """A database exception as a message for the user."""
    from sqlalchemy import exc as E

    orig = getattr(exc, "orig", None)
    state = getattr(orig, "sqlstate", None)
    detail = str(orig if orig is not None else exc).strip().splitlines()[0] if str(orig or exc).strip() else ""
    if state == INSUFFICIENT_PRIVILEGE or "readonly database" in detail or "read-only" in detail:
        return NoWriteRights(T("you may read the lab database {db} but not change it ({detail}); ask the lab's "
                               "administrator for the rigbuilder_writer role", db=where, detail=detail))
    if isinstance(exc, E.OperationalError) and (state in CONNECTION_STATES or state is None):
        return LabDbError(T("cannot use the lab database {db}: {detail}", db=where, detail=detail))
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
                args["password"] = pw
            elif passfile is not None:
                args["passfile"] = str(passfile)
            args["connect_timeout"] = 10
        else:
            db = url.url.database
            if db and db != ":memory:":
                Path(db).parent.mkdir(parents=True, exist_ok=True)
        engine = make_engine(url.url.render_as_string(hide_password=False), args)
        try:
            with engine.connect() as conn:
                user = (conn.exec_driver_sql("select current_user").scalar() if url.backend == "postgresql"
                        else getpass.getuser())
                rev = current_revision(conn)
            if migrate and rev != HEAD:
                try:
                    upgrade(engine)
                except Exception:
                    with engine.connect() as conn:  # another member's first start did it at the same moment
                        if current_revision(conn) != HEAD:
                            raise
        except LabDbError:
            engine.dispose()
            raise
        except Exception as exc:  # a database error: said in words
            engine.dispose()
            from sqlalchemy.exc import SQLAlchemyError
            if isinstance(exc, SQLAlchemyError):
                err = _explain(exc, url.display)
                if isinstance(err, NoWriteRights):
                    raise NoWriteRights(T("the lab database {db} needs its tables created or upgraded, which only a "
                                          "member allowed to change its tables can do (the rigbuilder_admin role)",
                                          db=url.display)) from None
                raise err from None
            raise
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
            raise _explain(exc, self.url.display) from None

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
            session.add(model(**key, **values, version=1, **self._stamp()))
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
            raise Conflict(T("{what} was changed by {who} at {when} (now version {now}) after you read version "
                             "{yours}; your change was not saved. Reload it and apply your change again",
                             what=what, who=now.updated_by or "?", when=now.updated_at or "?", now=now.version,
                             yours=version), now.model_dump())
        return version + 1

    def _remove(self, model, key: dict, version: int, what: str) -> None:
        from sqlalchemy import delete
        from sqlmodel import select

        with self.transaction() as s:
            cond = [getattr(model, k) == v for k, v in key.items()]
            res = s.execute(delete(model).where(*cond, model.version == version))
            if res.rowcount != 1:
                now = s.exec(select(model).filter_by(**key)).first()
                if now is not None:
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
                q = q.where(LabPrice.part_id == part_id)
            return [Entry((r.part_id, r.condition), {"amount": r.amount, "currency": r.currency, "source": r.source,
                                                     "date": r.date}, r.version, r.updated_by, r.updated_at)
                    for r in s.exec(q)]

    def price_observations(self) -> list:
        """The lab's prices as price observations ("price paid", by whom and when) for a price book."""
        from rigbuilder.domain.money import PriceObservation

        return [PriceObservation(e.key[0], float(e.values["amount"]), e.values["currency"], e.key[1], "paid",
                                 e.values["source"] or T("the lab's database ({who})", who=e.updated_by),
                                 e.values["date"] or e.updated_at[:10]) for e in self.prices()]

    def price(self, part_id: str, condition: str = "new") -> Optional[Entry]:
        return next((e for e in self.prices(part_id) if e.key[1] == condition), None)

    def set_price(self, part_id: str, condition: str, amount: float, currency: str, *, version: Optional[int],
                  source: str = "", date: str = "") -> int:
        """Set the lab's price of ``part_id`` in ``condition``; ``version`` is the one read (None: a new
        price). Returns the new version; :class:`Conflict` when someone else changed it first."""
        from rigbuilder.catalog.labtables import LabPrice
        from rigbuilder.domain.money import CONDITIONS, MoneyError, check_currency

        if condition not in CONDITIONS:
            raise LabDbError(T("condition {c!r} is not one of: {allowed}", c=condition, allowed=", ".join(CONDITIONS)))
        if not amount >= 0:
            raise LabDbError(T("a price cannot be negative ({amount})", amount=amount))
        try:
            cur = check_currency(currency)
        except MoneyError as exc:
            raise LabDbError(str(exc)) from None
        with self.transaction() as s:
            return self._cas(s, LabPrice, {"part_id": part_id, "condition": condition},
                             {"amount": float(amount), "currency": cur, "source": source, "date": date}, version,
                             T("the lab's {condition} price of {part}", condition=condition, part=part_id))

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
        with self.transaction() as s:
            return self._cas(s, LabInventory, {"part_id": part_id, "location": location},
                             {"count": int(count), "note": note}, version,
                             T("the stock of {part} at {place}", part=part_id, place=location or "-"))

    def add_stock(self, items: list[tuple[str, str, int]]) -> None:
        """Add counts (negative: take out) to the stock, all rows in one transaction: each
        ``(part_id, location, n)`` is an increment on the server, so two people adding at once both count."""
        from sqlalchemy import update
        from sqlalchemy.exc import IntegrityError
        from sqlmodel import select

        from rigbuilder.catalog.labtables import LabInventory

        with self.transaction() as s:
            for part_id, location, n in items:
                try:
                    res = s.execute(update(LabInventory)
                                    .where(LabInventory.part_id == part_id, LabInventory.location == location)
                                    .values(count=LabInventory.count + int(n), version=LabInventory.version + 1,
                                            **self._stamp()))
                except IntegrityError:  # the count's check (>= 0) refused it
                    raise LabDbError(T("the stock of {part} at {place} would fall below zero; nothing was written",
                                       part=part_id, place=location or "-")) from None
                if res.rowcount == 0:
                    _check_count(n)
                    s.add(LabInventory(part_id=part_id, location=location, count=int(n), **self._stamp()))
                    s.flush()
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


def _check_count(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise LabDbError(T("a count must be a whole number of zero or more, not {n!r}", n=n))


def _name(name: str) -> str:
    s = (name or "").strip()
    if not s or len(s) > 200:
        raise LabDbError(T("a name must have 1 to 200 characters"))
    return s


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
