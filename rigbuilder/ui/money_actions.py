"""The window's money actions (issue 15): your price for a part, the price paid for an item,
Preferences, Copy as Markdown, new builds in the chosen region and currency, and currency changes
that convert.

A user price is a catalog-level fact: it goes to the user database the window was given
(``catalog.user_engine``), never a global one, and is not part of the build's undo history. A
price paid goes through the ``SetPricePaid`` edit: one undoable step. Every figure, the Parts
tab and the reports read prices through ``rigbuilder.models.prices.price_part``, so both are used
everywhere at once.
"""
from __future__ import annotations

import dataclasses

import datetime as _dt
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication

from rigbuilder.config import Preferences
from rigbuilder.domain.build import REGIONS, Build, Settings
from rigbuilder.domain.edits import Edit, SetPricePaid
from rigbuilder.domain.money import ExchangeRates, MoneyError, parse_amount
from rigbuilder.domain.i18n import Money
from rigbuilder.ui.i18n import _, n_, nT, render_ui, ui_language
from rigbuilder.ui.pricing import REMOVE, PriceEntry, condition_label, user_entry

if TYPE_CHECKING:
    from rigbuilder.ui.document import BuildDocument


def new_settings(prefs: Preferences, rates: ExchangeRates) -> Settings:
    """A new build's settings: the preferred region, and its currency (or the preferred one),
    the electricity price converted rather than relabelled."""
    from rigbuilder.models.prices import change_currency, settings_for_region

    s = settings_for_region(Settings(circuit_margin=prefs.get("power/circuit_margin"),
                                     room_noise_db=prefs.get("noise/room_level")), prefs.get("money/default_region"),
                            rates)
    try:
        return change_currency(s, prefs.new_build_currency(), rates)
    except MoneyError:
        return s


class MoneyActions:
    """Given what it needs, not the window: the document, the catalog (its user database), the
    dialogs (which hold the parent widget), the preferences, and callbacks: ``do`` (an edit as one
    undoable step; a refused one says why: ``BuildEdits.do``), ``status`` (a message in the status
    bar), ``refresh`` (the details pane after prices changed),
    ``report_build`` (the build and workload a report shows) and ``restyle`` (the appearance after
    the preferences)."""

    def __init__(self, doc: "BuildDocument", catalog: Any, dialogs: Any, prefs: Preferences,
                 rates_path: Optional[Path], *, do: Callable[[Edit], bool], status: Callable[[str, int], None],
                 refresh: Callable[[], None] = lambda: None,
                 report_build: Optional[Callable[[], tuple[Build, Any]]] = None,
                 restyle: Callable[[], None] = lambda: None) -> None:
        self.doc = doc
        self.catalog = catalog
        self.dialogs = dialogs
        self.prefs = prefs
        self.rates_path = rates_path  # where edited exchange rates are kept (None: this session only)
        self._do = do
        self.status = status
        self.refresh = refresh
        self.report_build = report_build or (lambda: (self.doc.build, None))
        self.restyle = restyle

    # -- construction ----------------------------------------------------------------------
    def add_actions(self, edit_menu, action: Callable[..., QAction]) -> None:
        """The Edit menu's money actions, made by ``action(menu, text, slot, shortcut, tip)``."""
        edit_menu.addSeparator()
        self.act_copy_md = action(edit_menu, _("Copy as &Markdown"), self.copy_markdown, QKeySequence("Ctrl+Shift+C"),
                                     _("Copy the parts list as a Markdown table (Type | Item | Price), as forums "
                                       "render PCPartPicker lists; the same text File > Export > Markdown writes"))
        self.act_import_prices = action(edit_menu, _("Import &Prices…"), self.import_prices, None,
                                        _("Prices you collected (CSV or JSON: part name or id, amount, currency, "
                                             "condition, date, source), matched as a list line is; a preview shows "
                                             "what matched before anything is stored"))
        edit_menu.addSeparator()
        self.act_prefs = action(edit_menu, _("&Preferences…"), self.preferences, QKeySequence("Ctrl+,"),
                                   _("Language, colours, units, exchange rates, and the region and currency of new builds"))
        self.act_prefs.setMenuRole(QAction.MenuRole.PreferencesRole)

    # -- new builds and currency -------------------------------------------------------------
    def new_settings(self) -> Settings:
        return new_settings(self.prefs, self.doc.index.prices.rates)

    def settings_changes(self, changes: dict) -> dict:
        """A new currency converts the electricity price and the budget (``change_currency``); a new
        region offers its currency (Japan: JPY) when the build has another."""
        region = changes.get("region")
        if region in REGIONS and "currency" not in changes:
            now, theirs = self.doc.build.settings.currency, REGIONS[region].currency
            if theirs != now and self.dialogs.offer_currency(_(REGIONS[region].label), theirs, now):
                changes = {**changes, "currency": theirs}
        cur = changes.get("currency")
        if not cur:
            return changes
        from rigbuilder.models.prices import change_currency

        s = self.doc.build.settings
        try:
            t = change_currency(s, cur, self.doc.index.prices.rates)
        except MoneyError as e:
            self.status(_("Not done: {error}", error=str(e)), 8000)
            return {}
        out = dict(changes)
        out.update(price_per_kwh=t.price_per_kwh, budget=t.budget, rent_per_gpu_hour=t.rent_per_gpu_hour)
        return out

    # -- prices ---------------------------------------------------------------------------
    def _currencies(self) -> list[str]:
        idx = self.doc.index
        cur = self.doc.build.settings.currency
        known = idx.prices.rates.currencies()
        return [cur] + [c for c in known if c != cur]

    def set_user_price(self, part_id: str) -> bool:
        """Your price for the part everywhere: the dialog, then your database; True when stored."""
        part = self.doc.index.get(part_id)
        if part is None:
            self.dialogs.error(_("Set your price"), _("The catalog has no part “{part}”.", part=part_id))
            return False
        cat = self.catalog
        if cat is None or cat.user_path is None:
            self.dialogs.error(_("Set your price"), _("This window has no database for your own prices."))
            return False
        current = user_entry(self.doc.index.prices.for_part(part_id))
        got = self.dialogs.ask_price(part.name, "catalog", current, self._currencies(), current is not None)
        if got is None:
            return False
        from rigbuilder.catalog.userprices import make_observation, remove_price, set_prices

        try:
            engine = cat.user_engine
            if got == REMOVE:
                remove_price(engine, part_id)
                done = _("Your price for {part} removed", part=part.name)
            else:
                assert isinstance(got, PriceEntry)
                obs = make_observation(part_id, got.amount, got.currency, got.condition, got.source,
                                       index=self.doc.index)
                set_prices(engine, [obs])
                done = _("Your price for {part}: {price} ({condition}), used everywhere", part=part.name,
                         price=Money(got.amount, got.currency), condition=condition_label(got.condition))
        except (MoneyError, ValueError, OSError) as e:  # UserDatabaseError (a full disk, ...) is a ValueError
            from rigbuilder.ui.i18n import render_ui

            self.dialogs.error(_("Set your price"), _("Not stored: {error}",
                                                      error=render_ui(e.args[0]) if e.args and isinstance(e.args[0], str)
                                                      else str(e)))
            return False
        self.prices_changed()
        self.status(done, 8000)
        return True

    def import_prices(self, path: Optional[str] = None) -> bool:
        """A price file: read and matched (``rigbuilder.files.priceimport``), its preview shown, and
        the good rows stored as your prices only when the user says Import."""
        from rigbuilder.catalog.userprices import set_prices
        from rigbuilder.files.priceimport import MAX_BYTES, PriceFileError, preview

        cat = self.catalog
        if cat is None or cat.user_path is None:
            self.dialogs.error(_("Import prices"), _("This window has no database for your own prices."))
            return False
        path = path or self.dialogs.price_file_path("")
        if not path:
            return False
        from rigbuilder.domain.safeio import UnreadableFile, read_limited

        try:  # a regular file, bounded: a pipe or a device never blocks the window
            data = read_limited(Path(path), MAX_BYTES)
            pv = preview(data, Path(path).name, self.doc.index, self.doc.index.prices.rates)
        except UnreadableFile as e:
            self.dialogs.error(_("Import prices"), _("Cannot read {path}: {error}", path=path, error=render_ui(str(e))))
            return False
        except PriceFileError as e:
            self.dialogs.error(_("Import prices"), render_ui(e.args[0] if e.args else str(e)))
            return False
        if not self.dialogs.confirm_price_import(pv.lines(), len(pv.good)) or not pv.good:
            return False
        try:
            n = set_prices(cat.user_engine, pv.good)
        except (ValueError, OSError) as e:  # UserDatabaseError is a ValueError
            self.dialogs.error(_("Import prices"), _("Not stored: {error}", error=str(e)))
            return False
        self.prices_changed()
        self.status(_("{imported}; {left}", imported=nT("{n} price imported from {file}",
                                                          "{n} prices imported from {file}", n, file=Path(path).name),
                      left=nT("{n} row left out", "{n} rows left out", len(pv.bad))), 8000)
        return True

    def update_prices(self) -> bool:
        """Tools > Update Prices…: a price feed fetched and previewed in its dialog (progress, Cancel),
        stored as your prices, whole, when the user presses Apply."""
        from rigbuilder.catalog.userprices import set_prices

        cat = self.catalog
        if cat is None or cat.user_path is None:
            self.dialogs.error(_("Update prices"), _("This window has no database for your own prices."))
            return False
        lab_url = self.prefs.get("lab/database_url")
        feed = self.dialogs.ask_price_update(self.doc.index, lab_url=lab_url)
        if feed is None or not feed.applicable:
            return False
        if getattr(feed, "share_in_lab", False) and lab_url:
            from pathlib import Path

            from rigbuilder.catalog.labdb import LabDb, LabDbError

            passfile = self.prefs.get("lab/password_file")
            try:  # the lab first: a lab that refuses the write leaves your prices as they were too
                db = LabDb.open(lab_url, passfile=Path(passfile).expanduser() if passfile else None)
                try:
                    db.set_prices(feed.preview.good)
                finally:
                    db.close()
            except LabDbError as e:
                self.dialogs.error(_("Update prices"), _("Not shared in the lab database, nothing applied: {error}",
                                                         error=render_ui(e.args[0])))
                return False
        try:
            n = set_prices(cat.user_engine, feed.preview.good)
        except (ValueError, OSError) as e:  # UserDatabaseError is a ValueError
            self.dialogs.error(_("Update prices"), _("Not stored: {error}", error=str(e)))
            return False
        self.prices_changed()
        self.status(n_("{n} price updated from {source}", "{n} prices updated from {source}", n, source=feed.source[:200]), 8000)
        return True

    def prices_changed(self) -> None:
        """The user's prices or the rates changed: every figure, list and the details pane again."""
        if self.catalog is not None and self.catalog.index is self.doc.index:
            self.catalog.reload_user()
        self.refresh()
        self.doc.recheck()

    def set_price_paid(self, part_id: str) -> bool:
        """The price paid for this item in this build: the dialog, then one undoable edit."""
        b = self.doc.build
        part = self.doc.index.get(part_id)
        name = part.name if part is not None else part_id
        pp = b.prices_paid.get(part_id)
        if pp is not None:
            current = PriceEntry(pp.amount, pp.currency, pp.condition, pp.note)
        else:
            current = self._shown_price(part_id)
        offers, avail = self._offers(part_id)
        got = self.dialogs.ask_price(name, "build", current, self._currencies(), pp is not None, offers, avail)
        if got is None:
            return False
        if got == REMOVE:
            return self._do(SetPricePaid(part_id, None))
        assert isinstance(got, PriceEntry)
        return self._do(SetPricePaid(part_id, got.amount, got.currency, got.condition, got.source,
                                 _dt.date.today().isoformat()))

    def _offers(self, part_id: str) -> tuple[list, str]:
        """What the price-paid dialog offers: the known used price (converted into the build's
        currency, its region's tax added) and, where the part has no current new price, why."""
        from rigbuilder.domain.endofsale import why_expired
        from rigbuilder.models.prices import AVAILABILITY, availability, choose, observations, price_part

        b, index = self.doc.build, self.doc.index
        offers = []
        used = price_part(part_id, b.settings.currency, index, condition="used", strict=True, region=b.settings.region)
        if used is not None and used.amount is not None and used.observation.origin != "paid":
            o = used.observation
            offers.append((_("Use the known used price: {price} ({source}, {date})", price=Money(used.amount,
                                                                                                 b.settings.currency),
                             source=render_ui(o.source_text)[:80], date=o.date),
                           PriceEntry(round(used.amount, 2), b.settings.currency, "used", "")))
        state = availability(part_id, index)
        if state in ("used only", "no current new price"):
            launch = choose([o for o in observations(part_id, index) if o.origin == "launch"])
            why = why_expired(launch, index.get(part_id)) if launch is not None else ""
            text = _(AVAILABILITY[state])
            return offers, _("{state}: {why}", state=text, why=render_ui(why)) if why else text
        return offers, ""

    def _shown_price(self, part_id: str, condition: Optional[str] = None) -> Optional[PriceEntry]:
        """The price the build uses now (in its currency), to start the dialog from."""
        from rigbuilder.models.prices import price_part

        b = self.doc.build
        pp = price_part(part_id, b.settings.currency, self.doc.index, build=b, condition=b.settings.condition)
        if pp is None or pp.amount is None:
            return PriceEntry(0.0, b.settings.currency, condition or "new", "") if condition else None
        return PriceEntry(round(pp.amount, 2), b.settings.currency, condition or pp.observation.condition, "")

    def price_paid_typed(self, part_id: str, text: str) -> bool:
        """The Parts tab's Each cell: '650', '650 USD', or empty (no price paid)."""
        b = self.doc.build
        if not text:
            if part_id in b.prices_paid:
                return self._do(SetPricePaid(part_id, None))
            return False
        try:
            amount, cur = parse_amount(text, b.settings.currency)
        except MoneyError as e:
            self.status(_("Not done: {error}", error=str(e)), 8000)
            return False
        old = b.prices_paid.get(part_id)
        cond = old.condition if old is not None else (self._shown_price(part_id) or PriceEntry(0, "", "new")).condition
        return self._do(SetPricePaid(part_id, amount, cur, cond, old.note if old else "", _dt.date.today().isoformat()))

    def condition_chosen(self, part_id: str, condition: str) -> bool:
        """The Parts tab's condition cell: changes the price paid's condition; without a price
        paid, asks for one (starting from the price shown) in that condition."""
        old = self.doc.build.prices_paid.get(part_id)
        if old is None:
            part = self.doc.index.get(part_id)
            got = self.dialogs.ask_price(part.name if part else part_id, "build", self._shown_price(part_id, condition),
                                      self._currencies(), False)
            if not isinstance(got, PriceEntry):
                return False
            return self._do(SetPricePaid(part_id, got.amount, got.currency, got.condition, got.source,
                                     _dt.date.today().isoformat()))
        return self._do(SetPricePaid(part_id, old.amount, old.currency, condition, old.note, old.date))

    # -- preferences -----------------------------------------------------------------------
    def preferences(self) -> bool:
        from rigbuilder.catalog.prices import load_rates

        index = self.doc.index
        got = self.dialogs.ask_preferences(self.prefs, index.prices.rates, load_rates())
        if got is None:
            return False
        done = self.apply_preferences(got)
        self.restyle()  # the Appearance tab's theme and units
        self.doc.set_undo_limit(self.prefs.get("edit/undo_limit"))
        return done

    def apply_preferences(self, got) -> bool:
        """Store what the dialog returned: options, then rates (kept in ``rates_path``)."""
        from rigbuilder.catalog.prices import load_rates, save_rates

        language_before = self.prefs.get("ui/language")
        try:
            for k, v in got.values.items():
                self.prefs.set(k, v)
        except ValueError as e:
            self.dialogs.error(_("Preferences"), _("Not stored: {error}", error=str(e)))
            return False
        if self.prefs.get("ui/language") != language_before:
            # The window, its findings and its reports keep the language they started with, so that
            # menus and findings never disagree (issue 19): the new one is used from the next start.
            self.dialogs.info(_("Language"), _("The new language takes effect when rigbuilder next starts."))
        estimates = bool(self.prefs.get("money/used_estimates"))
        if self.doc.index.used_estimates != estimates:  # used prices estimated or not: every price again
            self.doc.index.used_estimates = estimates
            self.prices_changed()
        rates = load_rates() if got.reset_rates else got.rates
        if rates is None:
            return True
        try:
            if self.rates_path is not None:
                if got.reset_rates:
                    self.rates_path.unlink(missing_ok=True)
                else:
                    save_rates(rates, self.rates_path)
        except (OSError, ValueError) as e:  # the disk refused, or a link out of the data folder (MoneyFileError)
            self.dialogs.error(_("Preferences"), _("The exchange rates could not be saved to {path}: {error}. "
                                                "They are used until you quit.",
                                                path=str(self.rates_path),
                                                error=str(getattr(e, "strerror", None) or e)))
        index = self.doc.index
        index.prices = index.prices.with_rates(rates)
        self.prices_changed()
        self.status(_("Exchange rates changed: every price is converted at them now."), 8000)
        return True

    # -- sharing ---------------------------------------------------------------------------
    def markdown(self) -> str:
        """The parts list as File > Export > Markdown writes it (the same exporter)."""
        from rigbuilder.files.report import report_data, to_markdown

        build, workload = self.report_build()
        # The document's context and findings where the report's build is the document's (its name aside).
        same = dataclasses.replace(build, name=self.doc.build.name) == self.doc.build
        checked = {"context": self.doc.context, "findings": self.doc.findings} if same else {}
        return to_markdown(report_data(build, self.doc.index, workload=workload, lang=ui_language(),
                                       **checked)).decode("utf-8")

    def copy_markdown(self) -> None:
        text = self.markdown()
        QApplication.clipboard().setText(text)
        self.status(n_("Copied the parts list as Markdown ({n} line): paste it into a forum post.",
                       "Copied the parts list as Markdown ({n} lines): paste it into a forum post.", len(text.splitlines())),
                    6000)
