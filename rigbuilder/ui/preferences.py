"""Edit > Preferences: the user's settings (``rigbuilder.config.Preferences``) and exchange rates.

One tab a topic ("Money" now; later issues add theirs, e.g. language, units and theme): each
tab is a small widget with ``load()`` and ``values()``, so the dialog itself knows no option.
The dialog only collects: the window stores what it returns (``PreferencesResult``).
"""
from __future__ import annotations

import datetime as _dt
import html
from dataclasses import dataclass, field
from typing import Any, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QBrush
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout,
                               QHeaderView, QLabel, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QTabWidget,
                               QVBoxLayout, QWidget)

from rigbuilder.config import OPTIONS, Preferences
from rigbuilder.domain.build import REGIONS, ROOM_NOISE_RANGE
from rigbuilder.domain.money import CURRENCIES, ExchangeRates, format_rate
from rigbuilder.domain.i18n import Day, Num
from rigbuilder.ui.i18n import N_, _, render_ui


def currency_name(code: str) -> str:
    """'USD  US dollar', the currency's name (``rigbuilder.domain.money.CURRENCIES``) in the window's language."""
    name = CURRENCIES.get(code, "")
    return _("{code}  {name}", code=code, name=_(name)).strip() if name else code


def _opt(key: str, what: str) -> str:
    """An option's label or help (``rigbuilder.config`` marks them N_) in the window's language."""
    return _(getattr(OPTIONS[key], what))


@dataclass
class PreferencesResult:
    values: dict[str, Any] = field(default_factory=dict)  # option key -> value
    rates: Optional[ExchangeRates] = None  # the rates to use from now on (None: unchanged)
    reset_rates: bool = False  # back to the shipped rates (the user's file is removed)


class RatesTable(QTableWidget):
    """Each currency's rate in the base currency, with where it comes from. Editing a rate marks
    it as yours, dated today."""

    COLS = (N_("Currency"), N_("Rate"), N_("1 unit in"), N_("From"))

    def __init__(self, rates: ExchangeRates, today: str, parent=None) -> None:
        super().__init__(parent)
        self.today = today
        self.setColumnCount(len(self.COLS))
        self.setHorizontalHeaderLabels([_(c) for c in self.COLS])
        self.verticalHeader().hide()
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        h = self.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.show_rates(rates)

    def show_rates(self, rates: ExchangeRates) -> None:
        self.rates = rates
        self.setRowCount(0)
        others = [c for c in rates.currencies() if c != rates.base]
        self.setRowCount(len(others))
        self.spins: dict[str, QDoubleSpinBox] = {}
        for row, cur in enumerate(others):
            name = QTableWidgetItem(currency_name(cur))
            name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.setItem(row, 0, name)
            spin = QDoubleSpinBox()
            spin.setDecimals(6)
            spin.setRange(0.000001, 1e6)
            spin.setValue(rates.per_unit[cur])
            spin.setToolTip(_("How many {base} one {currency} is worth", base=rates.base, currency=cur))
            spin.valueChanged.connect(lambda v, c=cur: self._edited(c, v))
            self.setCellWidget(row, 1, spin)
            self.spins[cur] = spin
            base = QTableWidgetItem(rates.base)
            base.setFlags(base.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.setItem(row, 2, base)
            self._show_origin(row, cur)

    def _show_origin(self, row: int, cur: str) -> None:
        r = self.rates
        text = render_ui(r.rate_label(cur))  # 'yours, 2026-11-24' in the window's language
        it = QTableWidgetItem(text[:1].upper() + text[1:])
        it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
        it.setToolTip(_("Entered by you on {date}", date=Day(r.user_dates[cur])) if r.is_users(cur) else r.source)
        if r.is_users(cur):
            it.setForeground(QBrush(QColor("#b26a00")))
        self.setItem(row, 3, it)

    def _edited(self, cur: str, value: float) -> None:
        if abs(value - self.rates.per_unit[cur]) < 1e-12:
            return
        self.rates = self.rates.with_rate(cur, value, self.today)
        row = [c for c in self.rates.currencies() if c != self.rates.base].index(cur)
        self._show_origin(row, cur)
        self.parent_changed()

    def parent_changed(self) -> None:  # the Money tab replaces this to update its example line
        pass


class MoneyTab(QWidget):
    """Default region and currency of new builds; exchange rates."""

    def __init__(self, prefs: Preferences, rates: ExchangeRates, shipped: ExchangeRates, today: str,
                 parent=None) -> None:
        super().__init__(parent)
        self.prefs, self.shipped, self.reset = prefs, shipped, False
        self.region = QComboBox()
        for code, r in REGIONS.items():
            self.region.addItem(_("{region} ({currency})", region=_(r.label), currency=r.currency), code)
        o = OPTIONS["money/default_region"]
        self.region.setToolTip(_(o.help))
        self.currency = QComboBox()
        self.currency.addItem(_("The region's currency"), "")
        for c in rates.currencies():
            self.currency.addItem(currency_name(c), c)
        self.currency.setToolTip(_opt("money/default_currency", "help"))
        self.margin = QSpinBox()
        self.margin.setRange(50, 100)
        self.margin.setSuffix(" %")
        self.margin.setToolTip(_opt("power/circuit_margin", "help"))
        self.estimates = QCheckBox(_opt("money/used_estimates", "label"))
        self.estimates.setToolTip(_opt("money/used_estimates", "help"))
        self.room = QSpinBox()
        self.room.setRange(int(ROOM_NOISE_RANGE[0]), int(ROOM_NOISE_RANGE[1]))
        self.room.setSuffix(" dB(A)")
        self.room.setToolTip(_opt("noise/room_level", "help"))
        form = QFormLayout()
        form.addRow(_opt("money/default_region", "label"), self.region)
        form.addRow(_opt("money/default_currency", "label"), self.currency)
        form.addRow(_opt("power/circuit_margin", "label"), self.margin)
        form.addRow("", self.estimates)
        form.addRow(_opt("noise/room_level", "label"), self.room)
        head = QLabel("<b>" + html.escape(_("Exchange rates")) + "</b>")
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.about.setTextFormat(Qt.TextFormat.PlainText)
        self.table = RatesTable(rates, today)
        self.table.parent_changed = self._show_about
        self.example = QLabel()
        self.example.setWordWrap(True)
        self.reset_button = QPushButton(_("Use the Shipped Rates"))
        self.reset_button.setToolTip(_("Forget your rates: use the rates of {date} ({source})", date=Day(shipped.date),
                                        source=shipped.source))
        self.reset_button.clicked.connect(self._reset)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addSpacing(8)
        lay.addWidget(head)
        lay.addWidget(self.about)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.example)
        lay.addWidget(self.reset_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.load()

    def load(self) -> None:
        self.region.setCurrentIndex(max(0, self.region.findData(self.prefs.get("money/default_region"))))
        self.currency.setCurrentIndex(max(0, self.currency.findData(self.prefs.get("money/default_currency"))))
        self.margin.setValue(round(100 * self.prefs.get("power/circuit_margin")))
        self.estimates.setChecked(bool(self.prefs.get("money/used_estimates")))
        self.room.setValue(round(self.prefs.get("noise/room_level")))
        self._show_about()

    def _show_about(self) -> None:
        r = self.table.rates
        mine = ", ".join(f"{c} ({d})" for c, d in sorted(r.user_dates.items()))
        lines = [_("Rates of {date}, source: {source}.", date=Day(r.date), source=r.source)]
        if mine:
            lines.append(_("Your own rates, dated when you entered them: {rates}.", rates=mine))
        lines.append(_("Each rate is what one unit is worth in {base}, as the source quotes them.", base=r.base))
        self.about.setText("\n".join(lines))
        pairs = [("USD", "EUR"), ("EUR", "USD"), ("GBP", "EUR")]
        shown = [_("1 {a} = {rate} {b}", a=a, b=b, rate=Num(r.rate(a, b), format_rate(r.rate(a, b))))
                 for a, b in pairs if r.knows(a) and r.knows(b)]
        self.example.setText(_("So: {examples}", examples=" · ".join(shown)) if shown else "")
        self.reset_button.setEnabled(bool(r.user_dates) or r.edited)

    def _reset(self) -> None:
        self.reset = True
        self.table.show_rates(self.shipped)
        self._show_about()

    def values(self) -> dict[str, Any]:
        return {"money/default_region": self.region.currentData(), "money/default_currency": self.currency.currentData(),
                "power/circuit_margin": self.margin.value() / 100,
                "money/used_estimates": self.estimates.isChecked(),
                "noise/room_level": float(self.room.value())}

    def result_rates(self, start: ExchangeRates) -> tuple[Optional[ExchangeRates], bool]:
        """(rates to store or None when unchanged, whether to go back to the shipped ones)."""
        r = self.table.rates
        if self.reset and not r.user_dates:
            return None, True
        return (None if r == start else r), False


class AppearanceTab(QWidget):
    """Colours (the desktop's scheme, light or dark) and the unit lengths are shown in."""

    THEMES = (("system", N_("Follow the desktop (light or dark)")), ("light", N_("Light")), ("dark", N_("Dark")))
    UNITS = (("mm", N_("Millimetres (mm)")), ("in", N_("Inches (in)")))

    def __init__(self, prefs: Preferences, parent=None) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.theme = QComboBox()
        for key, text in self.THEMES:
            self.theme.addItem(_(text), key)
        self.theme.setToolTip(_opt("appearance/theme", "help"))
        self.units = QComboBox()
        for key, text in self.UNITS:
            self.units.addItem(_(text), key)
        self.units.setToolTip(_opt("appearance/units", "help"))
        form = QFormLayout()
        form.addRow(_opt("appearance/theme", "label"), self.theme)
        form.addRow(_opt("appearance/units", "label"), self.units)
        self.undo_limit = QSpinBox()
        self.undo_limit.setRange(10, 100_000)
        self.undo_limit.setSingleStep(100)
        self.undo_limit.setToolTip(_opt("edit/undo_limit", "help"))
        form.addRow(_opt("edit/undo_limit", "label"), self.undo_limit)
        self.calibration = QCheckBox(_opt("power/calibration", "label"))
        self.calibration.setToolTip(_opt("power/calibration", "help"))
        form.addRow("", self.calibration)
        note = QLabel(_("Printed pages and exported reports stay light, with lengths in mm."))
        note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(note)
        lay.addStretch(1)
        self.load()

    def load(self) -> None:
        self.theme.setCurrentIndex(max(0, self.theme.findData(self.prefs.get("appearance/theme"))))
        self.units.setCurrentIndex(max(0, self.units.findData(self.prefs.get("appearance/units"))))
        self.undo_limit.setValue(self.prefs.get("edit/undo_limit"))
        self.calibration.setChecked(bool(self.prefs.get("power/calibration")))

    def values(self) -> dict[str, Any]:
        return {"appearance/theme": self.theme.currentData(), "appearance/units": self.units.currentData(),
                "edit/undo_limit": self.undo_limit.value(), "power/calibration": self.calibration.isChecked()}


class LanguageTab(QWidget):
    """The language of the window, its findings and reports (issue 19); 'System' follows LANG.
    The window speaks one language a run: a change takes effect at the next start (the tab says so)."""

    def __init__(self, prefs: Preferences) -> None:
        super().__init__()
        from rigbuilder.domain.i18n import LANGUAGES

        self.prefs = prefs
        self.language = QComboBox()
        self.language.setObjectName("languages")  # each language named in itself (data), after 'System'
        self.language.addItem(_("System (follows the system locale)"), "system")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        o = OPTIONS["ui/language"]
        self.language.setToolTip(_(o.help))
        form = QFormLayout()
        form.addRow(_(o.label), self.language)
        self.note = QLabel(_("A change takes effect when rigbuilder next starts: the menus, the findings and "
                             "the reports all change to the new language together."))
        self.note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.note)
        lay.addStretch(1)
        self.language.setCurrentIndex(max(0, self.language.findData(prefs.get("ui/language"))))

    def values(self) -> dict[str, Any]:
        return {"ui/language": self.language.currentData()}


class PreferencesDialog(QDialog):
    def __init__(self, parent, prefs: Preferences, rates: ExchangeRates, shipped: ExchangeRates,
                 today: Optional[str] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Preferences"))
        self._rates = rates
        self.tabs = QTabWidget()
        self.money = MoneyTab(prefs, rates, shipped, today or _dt.date.today().isoformat())
        self.tabs.addTab(self.money, _("Money"))
        self.appearance = AppearanceTab(prefs)
        self.tabs.addTab(self.appearance, _("Appearance"))
        self.language = LanguageTab(prefs)
        self.tabs.addTab(self.language, _("Language"))
        from rigbuilder.config import Paths
        from rigbuilder.ui.lab_prefs import LabTab

        self.lab = LabTab(prefs, Paths.from_env().data_dir / "lab.pgpass")
        self.tabs.addTab(self.lab, _("Lab Database"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs)
        lay.addWidget(buttons)
        self.resize(620, 520)

    def result_value(self) -> PreferencesResult:
        rates, reset = self.money.result_rates(self._rates)
        return PreferencesResult({**self.money.values(), **self.appearance.values(), **self.language.values(),
                                  **self.lab.values()}, rates, reset)


def ask_preferences(parent, prefs: Preferences, rates: ExchangeRates, shipped: ExchangeRates) -> Optional[PreferencesResult]:
    dlg = PreferencesDialog(parent, prefs, rates, shipped)
    if dlg.exec() != QDialog.DialogCode.Accepted:
        return None
    return dlg.result_value()
