"""The Appearance preferences put to work: the theme (light, dark or the desktop's) and the
unit lengths are shown in. The window calls ``apply_appearance`` when it opens and after
Edit > Preferences; the panels that draw colours listen to ``theme.notifier()`` themselves."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from rigbuilder.ui import theme, units


def apply_appearance(win) -> None:
    """Use ``win.prefs``'s theme and units in the whole window."""
    app = QApplication.instance()
    new_units = win.prefs.get("appearance/units")
    units_changed = new_units != units.units()
    units.set_units(new_units)
    before = theme.colors()
    if app is not None:
        theme.apply(app, win.prefs.get("appearance/theme"))
    if theme.colors() is not before:  # the board, plots and adviser redrew on the notifier
        win.findings_panel.restyle()
    elif units_changed:
        win.board_view.restyle()
    if units_changed or theme.colors() is not before:
        model = win.catalog_panel.model
        model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, max(0, model.columnCount() - 1))
        if model.rowCount() and model.columnCount():
            model.dataChanged.emit(model.index(0, 0), model.index(model.rowCount() - 1, model.columnCount() - 1))
        win.catalog_panel.refresh_details()
