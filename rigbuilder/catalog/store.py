"""The catalog a window or a command opens: the shipped parts (``snapshot``, from the shipped
database ``shippeddb`` builds), the price book (``pricebook``) and the user's own parts and prices
(a separate database that no upgrade replaces: ``userdb``, ``userparts``, ``userprices``).

Opening reads through the standard library's sqlite3 and pickled snapshots (start-up cost
matters: SQLModel and SQLAlchemy take about 0.35 s to import); writing, building and migrating
import them only then.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from rigbuilder.catalog.partsdb import read_parts
from rigbuilder.catalog.pricebook import price_book
from rigbuilder.catalog.schema import Problem
from rigbuilder.catalog.snapshot import shipped_parts
from rigbuilder.catalog.userdb import UserDatabaseError
from rigbuilder.config import Paths
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import PriceBook
from rigbuilder.domain.parts import Part

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


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
    calibrate: bool = True
    """Whether the user's measured power logs calibrate the power model (``index.calibration``);
    the command line's --no-calibration and the Preferences switch turn it off."""
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
        self.apply_calibration()
        if exists:
            from rigbuilder.catalog.userprices import read_user_prices

            self.index.prices = PriceBook(kept, book.rates).with_observations(read_user_prices(self.user_path))
        else:
            self.index.prices = PriceBook(kept, book.rates)

    def apply_calibration(self, on: Optional[bool] = None) -> None:
        """Read the calibration factors from the user's measured logs into the index (or clear
        them when calibration is off); ``on`` changes the switch first."""
        if on is not None:
            self.calibrate = on
        if not self.calibrate or self.user_path is None or not self.user_path.exists() or (
                self.read_only is not None and not self.user_path.is_file()):
            self.index.calibration = {}
            return
        from rigbuilder.catalog.measurements import read_calibrations, read_shared_calibrations
        from rigbuilder.domain.calibration import merged

        self.index.calibration = merged(read_calibrations(self.user_path), read_shared_calibrations(self.user_path))


def open_catalog(paths: Paths, *, with_user: bool = True, used_estimates: bool = True) -> Catalog:
    """The catalog; ``used_estimates``: offer a used price estimated by the depreciation model
    where none is observed (rigbuilder.models.depreciation)."""
    if with_user:  # the temporaries a killed save left in the data folder go at the next start
        from rigbuilder.domain.safeio import clean_folder_temps

        clean_folder_temps(paths.data_dir)
    parts, community, version, db, problems = shipped_parts(paths)
    notices: list = []
    index = PartIndex(parts, version=version, prices=price_book(paths, problems, notices), pending=community)
    index.used_estimates = used_estimates
    cat = Catalog(index, version, problems, db, paths.user_db if with_user else None, notices=notices,
                  _no_user_prices=index.prices.observations)
    cat.reload_user()
    return cat
