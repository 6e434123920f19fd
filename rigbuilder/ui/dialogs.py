"""Message boxes and file pickers behind one small interface (``Dialogs``) that tests replace with
a fake: the window's small objects (the file session, the edits, the money and report actions) ask
through it, and it holds the one parent widget every dialog opens over."""
from __future__ import annotations

from typing import Optional

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from rigbuilder.ui.i18n import _


def rig_filter() -> str:
    """The file dialogs' filter for build files, described in the window's language."""
    return _("rigbuilder builds (*.rig)") + ";;" + _("All files (*)")



class Dialogs:
    """Message boxes and file pickers behind one small interface that tests replace."""

    def __init__(self, parent: QWidget) -> None:
        self.parent = parent

    def open_path(self, start: str = "") -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Open build"), start, rig_filter())
        return path or None

    def save_path(self, suggested: str) -> Optional[str]:
        path, _unused = QFileDialog.getSaveFileName(self.parent, _("Save build"), suggested, rig_filter())
        if path and not path.endswith(".rig"):
            path += ".rig"
        return path or None

    def import_path(self, start: str = "") -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Import your own parts"), start,
                                                    _("Parts (*.csv *.json)") + ";;" + _("All files (*)"))
        return path or None

    def export_path(self, suggested: str, filters: str) -> Optional[str]:
        path, _unused = QFileDialog.getSaveFileName(self.parent, _("Export parts list"), suggested, filters)
        return path or None

    def price_file_path(self, start: str = "") -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Import prices"), start,
                                                    _("Prices (*.csv *.json)") + ";;" + _("All files (*)"))
        return path or None

    def confirm_price_import(self, lines: list[str], good: int) -> bool:
        """The price file's preview (every row: matched to what, or why not); True to import the good rows."""
        from rigbuilder.ui.pricing import confirm_price_import

        return confirm_price_import(self.parent, lines, good)

    def confirm_discard(self, name: str) -> str:
        """'save', 'discard' or 'cancel'."""
        r = QMessageBox.question(self.parent, _("Unsaved changes"), _("Save the changes to “{name}”?", name=name),
                                 QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                 | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(r, "cancel")

    def error(self, title: str, text: str) -> None:
        QMessageBox.warning(self.parent, title, text)

    def info(self, title: str, text: str) -> None:
        QMessageBox.information(self.parent, title, text)

    def ask_name_and_notes(self, name: str, notes: str) -> Optional[tuple[str, str]]:
        """The build's name and notes, edited in a small dialog; None if cancelled."""
        from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QPlainTextEdit

        dlg = QDialog(self.parent)
        dlg.setWindowTitle(_("Build name and notes"))
        name_edit = QLineEdit(name)
        name_edit.setMaxLength(200)
        notes_edit = QPlainTextEdit(notes)
        notes_edit.setPlaceholderText(_("Shown under the title of the printed parts list"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        form = QFormLayout(dlg)
        form.addRow(_("Name"), name_edit)
        form.addRow(_("Notes"), notes_edit)
        form.addRow(buttons)
        dlg.resize(460, 260)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return name_edit.text().strip(), notes_edit.toPlainText().strip()

    def ask_power_limit(self, gpu_num: int, current: Optional[float], board_power: float,
                        help=None) -> Optional[int]:
        """``help``: the suggestion and commands (``rigbuilder.ui.power_limit_dialog.LimitHelp``)."""
        from rigbuilder.ui import power_limit_dialog

        return power_limit_dialog.ask(self.parent, _("Power limit GPU {num}", num=gpu_num),
                                      _("Watts (full power {w:g} W = no limit):", w=board_power), current,
                                      board_power, help)

    def offer_currency(self, region: str, currency: str, current: str) -> bool:
        """Whether to switch the build to the chosen region's currency as well."""
        r = QMessageBox.question(self.parent, _("Currency"),
                                 _("{region} uses {currency}. Switch the build from {current} to {currency} as well "
                                   "(the electricity price and the budget converted)?", region=region,
                                   currency=currency, current=current))
        return r == QMessageBox.StandardButton.Yes

    def ask_price(self, part_name: str, scope: str, current, currencies, can_remove: bool = False, offers=(),
                  availability: str = ""):
        """Your price ("catalog") or the price paid ("build"): a PriceEntry, "remove" or None. ``offers``:
        (label, PriceEntry) the dialog offers to fill in (the known used price); ``availability``: 'Used
        only: ...' where the part has no current new price."""
        from rigbuilder.ui.pricing import ask_price

        return ask_price(self.parent, part_name, scope, current, currencies, can_remove, offers, availability)

    def ask_price_update(self, index, lab_url: str = ""):
        """Tools > Update Prices…: the feed to apply (a FeedResult every row of which is good), or None."""
        from rigbuilder.ui.price_update import ask_price_update

        return ask_price_update(self.parent, index, lab_url)

    def ask_preferences(self, prefs, rates, shipped_rates):
        """Edit > Preferences: a PreferencesResult, or None if cancelled."""
        from rigbuilder.ui.preferences import ask_preferences

        return ask_preferences(self.parent, prefs, rates, shipped_rates)

    def ask_all_power_limits(self, gpus: int, current: Optional[float], board_power: float,
                             help=None) -> Optional[int]:
        """One limit for every GPU; ``board_power`` is the largest card's (that or more = no limit)."""
        from rigbuilder.ui import power_limit_dialog

        return power_limit_dialog.ask(self.parent, _("Power limit for all {n} GPUs", n=gpus),
                                      _("Watts per GPU (full power {w:g} W = no limit):", w=board_power), current,
                                      board_power, help)
