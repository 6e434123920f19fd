"""Your own prices in the window: the price dialog and the prices section of the details pane.

Two different things are set here, and the dialog says which:

- **your price for this part, everywhere** (``scope="catalog"``): a catalog-level fact kept in your
  own database (``rigbuilder.catalog.userprices``); every build, report and the command line use
  it from then on. Not part of a build, so not undone with Edit > Undo (set it again or remove it).
- **the price paid for this item in this build** (``scope="build"``): saved in the .rig file, one
  undoable edit (``rigbuilder.domain.edits.SetPricePaid``); it applies to every unit of that part
  in this build and wins over any other price.

The dialog only collects what the user typed; the window checks and stores it.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit,
                               QPushButton, QVBoxLayout, QWidget)

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import Money, format_value
from rigbuilder.domain.money import CONDITIONS, USER_SOURCE, PriceObservation
from rigbuilder.domain.parts import Part
from rigbuilder.ui.i18n import N_, _, n_, render_ui, ui_language
from rigbuilder.ui.widgets import choice_box, spin_box

SCOPES = {
    "catalog": (N_("Your price for this part, everywhere"),
                N_("Stored in your own database and used from now on in every build, report and on the "
                   "command line, for every {name}. Not a change to this build: Edit > Undo does not "
                   "remove it (open this again and choose Remove).")),
    "build": (N_("Price paid for this item, in this build only"),
              N_("Saved in this build's file; applies to every {name} in this build and wins over any "
                 "other price. Undoable (Edit > Undo).")),
}
CONDITION_LABELS = {"new": N_("new"), "used": N_("used")}
"""The price conditions (``rigbuilder.domain.money.CONDITIONS``) as the window names them."""


PREFERRING = {"new": N_("← builds preferring new parts use this"),
              "used": N_("← builds preferring used parts use this")}


def condition_label(condition: str) -> str:
    """'new' or 'used' in the window's language (an unknown condition as it is)."""
    return _(CONDITION_LABELS[condition]) if condition in CONDITION_LABELS else condition
REMOVE = "remove"


@dataclass(frozen=True)
class PriceEntry:
    """What the user typed in the price dialog."""

    amount: float
    currency: str
    condition: str = "new"
    source: str = ""


class PriceDialog(QDialog):
    """Amount, currency, new or used, and where the price comes from; Remove when one is set."""

    def __init__(self, parent: Optional[QWidget], part_name: str, scope: str, current: Optional[PriceEntry],
                 currencies: Sequence[str], can_remove: bool = False, offers: Sequence = (),
                 availability: str = "") -> None:
        super().__init__(parent)
        title, explain = SCOPES[scope]
        title = _(title)
        self.setWindowTitle(title)
        self.choice: Union[None, str, PriceEntry] = None
        head = QLabel(f"<b>{html.escape(title)}</b>")
        head.setWordWrap(True)
        self.part_label = QLabel(part_name)  # data: the part's name as the catalog has it
        self.part_label.setObjectName("partName")
        self.part_label.setTextFormat(Qt.TextFormat.PlainText)
        self.part_label.setWordWrap(True)
        note = QLabel(_(explain, name=part_name))
        note.setWordWrap(True)
        note.setStyleSheet("color:#444")
        self.amount = spin_box(0.0, 1e9, decimals=2, tip=_("The price of one unit"))
        self.amount.setGroupSeparatorShown(True)
        self.currency = choice_box([(c, c) for c in currencies],
                                   tip=_("Converted to a build's currency at the exchange rates (Edit > Preferences)"))
        self.condition = choice_box([(condition_label(c), c) for c in CONDITIONS], tip=_("New, or used (second-hand)"))
        self.source = QLineEdit()
        self.source.setMaxLength(500)
        self.source.setPlaceholderText(_("Where it comes from: a shop, a listing, a quote") if scope == "catalog"
                                       else _("Where you bought it (optional)"))
        if current is not None:
            self.fill(current)
        form = QFormLayout()
        form.addRow(_("Amount (one unit)"), self.amount)
        form.addRow(_("Currency"), self.currency)
        form.addRow(_("Condition"), self.condition)
        form.addRow(_("Source"), self.source)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._ok)
        buttons.rejected.connect(self.reject)
        self.remove_button: Optional[QPushButton] = None
        if can_remove:
            self.remove_button = buttons.addButton(_("Remove"), QDialogButtonBox.ButtonRole.DestructiveRole)
            self.remove_button.setToolTip(_("Remove this price: the other prices known for the part apply again"))
            self.remove_button.clicked.connect(self._remove)
        lay = QVBoxLayout(self)
        top = QVBoxLayout()  # the title and the part's name read as one heading
        top.setSpacing(2)
        top.addWidget(head)
        top.addWidget(self.part_label)
        lay.addLayout(top)
        lay.addWidget(note)
        if availability:  # "Used only: no current new price (...)"
            avail = QLabel(availability)
            avail.setObjectName("availability")
            avail.setWordWrap(True)
            avail.setStyleSheet("color:#a05a00")
            lay.addWidget(avail)
        self.offer_buttons: list[QPushButton] = []
        for label, entry in offers:  # the known used price: one click fills the fields
            b = QPushButton(label)
            b.setToolTip(_("Fill in this price; change it to what you paid"))
            b.clicked.connect(lambda _checked=False, e=entry: self.fill(e))
            self.offer_buttons.append(b)
            lay.addWidget(b)
        lay.addLayout(form)
        lay.addWidget(buttons)
        self.resize(440, self.sizeHint().height())

    def fill(self, e: PriceEntry) -> None:
        """Put ``e`` in the fields (an offered price)."""
        self.amount.setValue(e.amount)
        if self.currency.findText(e.currency) < 0:
            self.currency.addItem(e.currency)
        self.currency.setCurrentText(e.currency)
        self.condition.setCurrentIndex(max(0, self.condition.findData(e.condition)))
        self.source.setText(e.source)

    def _ok(self) -> None:
        self.choice = PriceEntry(self.amount.value(), self.currency.currentText(), self.condition.currentData(),
                                 self.source.text().strip())
        self.accept()

    def _remove(self) -> None:
        self.choice = REMOVE
        self.accept()


def ask_price(parent, part_name: str, scope: str, current: Optional[PriceEntry], currencies: Sequence[str],
              can_remove: bool = False, offers: Sequence = (), availability: str = "") -> Union[None, str, PriceEntry]:
    """Show the price dialog: a PriceEntry, REMOVE, or None when cancelled."""
    dlg = PriceDialog(parent, part_name, scope, current, currencies, can_remove, offers, availability)
    if dlg.exec() != QDialog.DialogCode.Accepted:
        return None
    return dlg.choice


def prices_html(part: Part, index: PartIndex, currency: Optional[str] = None) -> str:
    """The details pane's prices: every price known for the part with its source and date, and
    which one a build uses (``rigbuilder.models.prices`` decides)."""
    from rigbuilder.models.prices import choose, convert, observations

    esc = html.escape
    obs = observations(part.id, index)
    if not obs:
        head, none = esc(_("Prices")), esc(_("No price known. Set your own with “Set Your Price…”."))
        return f"<p><b>{head}</b><br><span style='color:#555'>{none}</span></p>"
    used = {cond: choose(obs, cond) for cond in CONDITIONS}
    rows = []
    for o in obs:
        marks = [c for c, u in used.items() if u is o]
        if len(marks) == 1:
            mark = " <b>" + esc(_(PREFERRING.get(marks[0], PREFERRING["new"]))) + "</b>"
        elif marks:
            mark = " <b>" + esc(_("← builds preferring new or used parts use this")) + "</b>"
        else:
            mark = ""
        price = Money(o.amount, o.currency)
        amount = _("under {price}", price=price) if o.upper_bound else format_value(price, "", ui_language())
        if currency and o.currency != currency:
            pp = convert(o, currency, index.prices.rates)
            if pp.amount is not None:
                amount = _("{price} ≈ {converted} ({conversion})", price=amount, converted=Money(pp.amount, currency),
                           conversion=render_ui(pp.conversion))
        what = render_ui(o.describe())  # the source and date, as the catalog records them
        if o.note:
            what = _("{note}; {source}", note=o.note_text, source=what)
        if o.with_parts:
            what = _("{source}; with {parts}", source=what, parts=", ".join(o.with_parts))
        if o.stale():  # older than six months: marked wherever a price is shown
            rows.append(f"<li><span style='color:#a05a00'>⚠ {esc(amount)}: {esc(what)}</span>{mark}</li>")
        else:
            rows.append(f"<li>{esc(amount)}: {esc(what)}{mark}</li>")
    head, each = esc(_("Prices")), esc(_("(source, date and age of each; ⚠ stale: seen more than six months ago)"))
    return f"<p><b>{head}</b> {each}</p><ul style='margin-top:0'>{''.join(rows)}</ul>"


def user_entry(obs: Sequence[PriceObservation]) -> Optional[PriceEntry]:
    """The user's newest own price among ``obs`` as a dialog entry (None if there is none)."""
    mine = sorted((o for o in obs if o.origin == "user"), key=lambda o: o.date, reverse=True)
    if not mine:
        return None
    o = mine[0]
    return PriceEntry(o.amount, o.currency, o.condition, "" if o.source == USER_SOURCE else o.source)


def confirm_price_import(parent: Optional[QWidget], lines: Sequence[str], good: int) -> bool:
    """A price file's preview before anything is stored: each row matched (to what) or left out
    (and why); Import stores the good rows, Cancel nothing."""
    from PySide6.QtWidgets import QTextBrowser

    dlg = QDialog(parent)
    dlg.setWindowTitle(_("Import prices: preview"))
    lay = QVBoxLayout(dlg)
    lay.addWidget(QLabel(_("Nothing is stored until you press Import. Rows left out are named with the reason.")))
    view = QTextBrowser()
    rows = []
    for line in lines:
        text = html.escape(render_ui(line))
        bad = ": not imported: " in line
        rows.append(f"<li style='color:#a05a00'>{text}</li>" if bad else f"<li>{text}</li>")
    view.setHtml(f"<ul>{''.join(rows[:-1])}</ul><p><b>{html.escape(render_ui(lines[-1]))}</b></p>" if lines else "")
    lay.addWidget(view)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    ok = buttons.addButton(n_("Import {n} price", "Import {n} prices", good), QDialogButtonBox.ButtonRole.AcceptRole)
    ok.setEnabled(good > 0)
    buttons.accepted.connect(dlg.accept)
    buttons.rejected.connect(dlg.reject)
    lay.addWidget(buttons)
    dlg.resize(900, 480)
    return dlg.exec() == QDialog.DialogCode.Accepted
