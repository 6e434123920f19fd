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

import datetime as _dt
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication

from rigbuilder.config import Preferences
from rigbuilder.domain.build import REGIONS, Settings
from rigbuilder.domain.edits import SetPricePaid
from rigbuilder.domain.money import MoneyError, parse_amount
from rigbuilder.domain.i18n import Money
from rigbuilder.ui.i18n import _, render_ui, ui_language
from rigbuilder.ui.pricing import REMOVE, PriceEntry, condition_label, user_entry

if TYPE_CHECKING:
    from rigbuilder.ui.main_window import MainWindow


class MoneyActions:
    def __init__(self, win: "MainWindow", prefs: Preferences, rates_path: Optional[Path]) -> None:
        self.win = win
        self.prefs = prefs
        self.rates_path = rates_path  # where edited exchange rates are kept (None: this session only)

    # -- construction ----------------------------------------------------------------------
    def add_actions(self, edit_menu) -> None:
        w = self.win
        edit_menu.addSeparator()
        self.act_copy_md = w._action(edit_menu, _("Copy as &Markdown"), self.copy_markdown, QKeySequence("Ctrl+Shift+C"),
                                     _("Copy the parts list as a Markdown table (Type | Item | Price), as forums "
                                       "render PCPartPicker lists; the same text File > Export > Markdown writes"))
        self.act_import_prices = w._action(edit_menu, _("Import &Prices…"), self.import_prices, None,
                                           _("Prices you collected (CSV or JSON: part name or id, amount, currency, "
                                             "condition, date, source), matched as a list line is; a preview shows "
                                             "what matched before anything is stored"))
        edit_menu.addSeparator()
        self.act_prefs = w._action(edit_menu, _("&Preferences…"), self.preferences, QKeySequence("Ctrl+,"),
                                   _("Language, colours, units, exchange rates, and the region and currency of new builds"))
        self.act_prefs.setMenuRole(QAction.MenuRole.PreferencesRole)

    def connect(self) -> None:
        w = self.win
        w.catalog_panel.priceRequested.connect(self.set_user_price)
        w.board_view.userPriceRequested.connect(self.set_user_price)
        w.board_view.pricePaidRequested.connect(self.set_price_paid)
        w.parts_panel.userPriceRequested.connect(self.set_user_price)
        w.parts_panel.pricePaidRequested.connect(self.set_price_paid)
        w.parts_panel.pricePaidEdited.connect(self.price_paid_typed)
        w.parts_panel.conditionEdited.connect(self.condition_chosen)

    # -- new builds and currency -------------------------------------------------------------
    def new_settings(self, index=None) -> Settings:
        """A new build's settings: the preferred region, and its currency (or the preferred one),
        the electricity price converted rather than relabelled."""
        from rigbuilder.models.prices import change_currency, settings_for_region

        rates = (index or self.win.doc.index).prices.rates
        s = Settings(circuit_margin=self.prefs.get("power/circuit_margin"))
        s = settings_for_region(s, self.prefs.get("money/default_region"), rates)
        try:
            return change_currency(s, self.prefs.new_build_currency(), rates)
        except MoneyError:
            return s

    def settings_changes(self, changes: dict) -> dict:
        """A new currency converts the electricity price and the budget (``change_currency``); a new
        region offers its currency (Japan: JPY) when the build has another."""
        region = changes.get("region")
        if region in REGIONS and "currency" not in changes:
            now, theirs = self.win.doc.build.settings.currency, REGIONS[region].currency
            if theirs != now and self.win.dialogs.offer_currency(_(REGIONS[region].label), theirs, now):
                changes = {**changes, "currency": theirs}
        cur = changes.get("currency")
        if not cur:
            return changes
        from rigbuilder.models.prices import change_currency

        s = self.win.doc.build.settings
        try:
            t = change_currency(s, cur, self.win.doc.index.prices.rates)
        except MoneyError as e:
            self.win.statusBar().showMessage(_("Not done: {error}", error=str(e)), 8000)
            return {}
        out = dict(changes)
        out.update(price_per_kwh=t.price_per_kwh, budget=t.budget)
        return out

    # -- prices ---------------------------------------------------------------------------
    def _currencies(self) -> list[str]:
        idx = self.win.doc.index
        cur = self.win.doc.build.settings.currency
        known = idx.prices.rates.currencies()
        return [cur] + [c for c in known if c != cur]

    def set_user_price(self, part_id: str) -> bool:
        """Your price for the part everywhere: the dialog, then your database; True when stored."""
        w = self.win
        part = w.doc.index.get(part_id)
        if part is None:
            w.dialogs.error(_("Set your price"), _("The catalog has no part “{part}”.", part=part_id))
            return False
        cat = w.catalog
        if cat is None or cat.user_path is None:
            w.dialogs.error(_("Set your price"), _("This window has no database for your own prices."))
            return False
        current = user_entry(w.doc.index.prices.for_part(part_id))
        got = w.dialogs.ask_price(part.name, "catalog", current, self._currencies(), current is not None)
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
                                       index=w.doc.index)
                set_prices(engine, [obs])
                done = _("Your price for {part}: {price} ({condition}), used everywhere", part=part.name,
                         price=Money(got.amount, got.currency), condition=condition_label(got.condition))
        except (MoneyError, ValueError, OSError) as e:  # UserDatabaseError (a full disk, ...) is a ValueError
            from rigbuilder.ui.i18n import render_ui

            w.dialogs.error(_("Set your price"), _("Not stored: {error}",
                                                   error=render_ui(e.args[0]) if e.args and isinstance(e.args[0], str)
                                                   else str(e)))
            return False
        self.prices_changed()
        w.statusBar().showMessage(done, 8000)
        return True

    def import_prices(self, path: Optional[str] = None) -> bool:
        """A price file: read and matched (``rigbuilder.files.priceimport``), its preview shown, and
        the good rows stored as your prices only when the user says Import."""
        from rigbuilder.catalog.userprices import set_prices
        from rigbuilder.files.priceimport import MAX_BYTES, PriceFileError, preview

        w = self.win
        cat = w.catalog
        if cat is None or cat.user_path is None:
            w.dialogs.error(_("Import prices"), _("This window has no database for your own prices."))
            return False
        path = path or w.dialogs.price_file_path("")
        if not path:
            return False
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
            pv = preview(data, Path(path).name, w.doc.index, w.doc.index.prices.rates)
        except OSError as e:
            w.dialogs.error(_("Import prices"), _("Cannot read {path}: {error}", path=path, error=e.strerror or str(e)))
            return False
        except PriceFileError as e:
            w.dialogs.error(_("Import prices"), render_ui(e.args[0] if e.args else str(e)))
            return False
        if not w.dialogs.confirm_price_import(pv.lines(), len(pv.good)) or not pv.good:
            return False
        try:
            n = set_prices(cat.user_engine, pv.good)
        except (ValueError, OSError) as e:  # UserDatabaseError is a ValueError
            w.dialogs.error(_("Import prices"), _("Not stored: {error}", error=str(e)))
            return False
        self.prices_changed()
        w.statusBar().showMessage(_("{n} price(s) imported from {file}; {bad} row(s) left out", n=n,
                                    file=Path(path).name, bad=len(pv.bad)), 8000)
        return True

    def prices_changed(self) -> None:
        """The user's prices or the rates changed: every figure, list and the details pane again."""
        w = self.win
        if w.catalog is not None and w.catalog.index is w.doc.index:
            w.catalog.reload_user()
        w.catalog_panel.refresh_details()
        w.doc.recheck()

    def set_price_paid(self, part_id: str) -> bool:
        """The price paid for this item in this build: the dialog, then one undoable edit."""
        w = self.win
        b = w.doc.build
        part = w.doc.index.get(part_id)
        name = part.name if part is not None else part_id
        pp = b.prices_paid.get(part_id)
        if pp is not None:
            current = PriceEntry(pp.amount, pp.currency, pp.condition, pp.note)
        else:
            current = self._shown_price(part_id)
        got = w.dialogs.ask_price(name, "build", current, self._currencies(), pp is not None)
        if got is None:
            return False
        if got == REMOVE:
            return w.do(SetPricePaid(part_id, None))
        assert isinstance(got, PriceEntry)
        return w.do(SetPricePaid(part_id, got.amount, got.currency, got.condition, got.source,
                                 _dt.date.today().isoformat()))

    def _shown_price(self, part_id: str, condition: Optional[str] = None) -> Optional[PriceEntry]:
        """The price the build uses now (in its currency), to start the dialog from."""
        from rigbuilder.models.prices import price_part

        b = self.win.doc.build
        pp = price_part(part_id, b.settings.currency, self.win.doc.index, build=b, condition=b.settings.condition)
        if pp is None or pp.amount is None:
            return PriceEntry(0.0, b.settings.currency, condition or "new", "") if condition else None
        return PriceEntry(round(pp.amount, 2), b.settings.currency, condition or pp.observation.condition, "")

    def price_paid_typed(self, part_id: str, text: str) -> bool:
        """The Parts tab's Each cell: '650', '650 USD', or empty (no price paid)."""
        w = self.win
        b = w.doc.build
        if not text:
            if part_id in b.prices_paid:
                return w.do(SetPricePaid(part_id, None))
            return False
        try:
            amount, cur = parse_amount(text, b.settings.currency)
        except MoneyError as e:
            w.statusBar().showMessage(_("Not done: {error}", error=str(e)), 8000)
            return False
        old = b.prices_paid.get(part_id)
        cond = old.condition if old is not None else (self._shown_price(part_id) or PriceEntry(0, "", "new")).condition
        return w.do(SetPricePaid(part_id, amount, cur, cond, old.note if old else "", _dt.date.today().isoformat()))

    def condition_chosen(self, part_id: str, condition: str) -> bool:
        """The Parts tab's condition cell: changes the price paid's condition; without a price
        paid, asks for one (starting from the price shown) in that condition."""
        w = self.win
        old = w.doc.build.prices_paid.get(part_id)
        if old is None:
            part = w.doc.index.get(part_id)
            got = w.dialogs.ask_price(part.name if part else part_id, "build", self._shown_price(part_id, condition),
                                      self._currencies(), False)
            if not isinstance(got, PriceEntry):
                return False
            return w.do(SetPricePaid(part_id, got.amount, got.currency, got.condition, got.source,
                                     _dt.date.today().isoformat()))
        return w.do(SetPricePaid(part_id, old.amount, old.currency, condition, old.note, old.date))

    # -- preferences -----------------------------------------------------------------------
    def preferences(self) -> bool:
        from rigbuilder.catalog.prices import load_rates

        w = self.win
        index = w.doc.index
        got = w.dialogs.ask_preferences(self.prefs, index.prices.rates, load_rates())
        if got is None:
            return False
        done = self.apply_preferences(got)
        from rigbuilder.ui.appearance import apply_appearance

        apply_appearance(w)  # the Appearance tab's theme and units
        w.doc.set_undo_limit(self.prefs.get("edit/undo_limit"))
        return done

    def apply_preferences(self, got) -> bool:
        """Store what the dialog returned: options, then rates (kept in ``rates_path``)."""
        from rigbuilder.catalog.prices import load_rates, save_rates

        w = self.win
        language_before = self.prefs.get("ui/language")
        try:
            for k, v in got.values.items():
                self.prefs.set(k, v)
        except ValueError as e:
            w.dialogs.error(_("Preferences"), _("Not stored: {error}", error=str(e)))
            return False
        if self.prefs.get("ui/language") != language_before:
            # The window, its findings and its reports keep the language they started with, so that
            # menus and findings never disagree (issue 19): the new one is used from the next start.
            w.dialogs.info(_("Language"), _("The new language takes effect when rigbuilder next starts."))
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
            w.dialogs.error(_("Preferences"), _("The exchange rates could not be saved to {path}: {error}. "
                                                "They are used until you quit.",
                                                path=str(self.rates_path),
                                                error=str(getattr(e, "strerror", None) or e)))
        index = w.doc.index
        index.prices = index.prices.with_rates(rates)
        self.prices_changed()
        w.statusBar().showMessage(_("Exchange rates changed: every price is converted at them now."), 8000)
        return True

    # -- sharing ---------------------------------------------------------------------------
    def markdown(self) -> str:
        """The parts list as File > Export > Markdown writes it (the same exporter)."""
        from rigbuilder.files.report import report_data, to_markdown

        return to_markdown(report_data(self.win._titled_build(), self.win.doc.index, workload=self.win._report_workload(),
                                       lang=ui_language())).decode("utf-8")

    def copy_markdown(self) -> None:
        text = self.markdown()
        QApplication.clipboard().setText(text)
        self.win.statusBar().showMessage(
            _("Copied the parts list as Markdown ({n} lines): paste it into a forum post.", n=len(text.splitlines())),
            6000)
