from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _windows_deleted_after_the_test():
    """The top-level widgets a test made and left closed are deleted when it ends (qtbot closes
    what it was given; closing does not delete, and a window kept alive by its own signal
    connections waits for the garbage collector). Left in place, hundreds of them piled up in a
    worker by the later UI tests, and every style, palette or font change and every event loop turn
    went through all of them. What a test leaves visible, and what was there before it, is kept."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication
    from shiboken6 import getCppPointer

    def here() -> list:
        return QApplication.topLevelWidgets() if QApplication.instance() is not None else []

    before = {getCppPointer(w)[0] for w in here()}
    yield
    left = [w for w in here() if type(w).__module__.startswith("rigbuilder.") and w.parent() is None
            and getCppPointer(w)[0] not in before and not w.isVisible()]
    for w in left:
        w.deleteLater()
    if left:
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


class FakeDialogs:
    """Stands in for message boxes and file pickers."""

    def __init__(self, parent=None) -> None:
        self.errors: list[tuple[str, str]] = []
        self.infos: list[tuple[str, str]] = []
        self.next_open = None
        self.next_save = None
        self.discard_answer = "discard"
        self.power_limit = None

    def open_path(self, start=""):
        self.last_start = start
        return self.next_open

    def save_path(self, suggested):
        self.last_suggested = suggested
        return self.next_save

    def import_path(self, start=""):
        self.last_start = start
        return self.next_open

    def export_path(self, suggested, filters):
        self.last_suggested = suggested
        return self.next_save

    def confirm_discard(self, name):
        return self.discard_answer

    def error(self, title, text):
        self.errors.append((title, text))

    def info(self, title, text):
        self.infos.append((title, text))

    name_and_notes = None

    def ask_name_and_notes(self, name, notes):
        return self.name_and_notes

    def ask_power_limit(self, num, current, board_power, help=None):
        self.limit_help = help
        return self.power_limit

    currency_answer = False  # switch to a chosen region's currency?

    def offer_currency(self, region, currency, current):
        self.offered_currency = (region, currency, current)
        return self.currency_answer

    price_answer = None  # a PriceEntry, "remove" or None (cancelled)
    preferences_answer = None  # a PreferencesResult or None

    def ask_price(self, part_name, scope, current, currencies, can_remove=False, offers=(), availability=""):
        self.asked_price = (part_name, scope, current, list(currencies), can_remove)
        self.price_offers, self.price_availability = list(offers), availability
        return self.price_answer

    price_update_answer = None  # a FeedResult or None (closed)

    def ask_price_update(self, index, lab_url=""):
        self.asked_price_update = index
        self.asked_price_update_lab = lab_url
        return self.price_update_answer

    def ask_preferences(self, prefs, rates, shipped_rates):
        self.asked_preferences = (prefs, rates, shipped_rates)
        return self.preferences_answer

    next_price_file = None
    price_import_answer = True

    def price_file_path(self, start=""):
        return self.next_price_file

    def confirm_price_import(self, lines, good):
        self.price_preview = (list(lines), good)
        return self.price_import_answer

    def ask_all_power_limits(self, gpus, current, board_power, help=None):
        self.asked_all = (gpus, current, board_power)
        self.limit_help = help
        return self.power_limit


@pytest.fixture
def make_window(qtbot, index, tmp_path):
    from PySide6.QtCore import QSettings

    from rigbuilder.ui.main_window import MainWindow

    made = []

    def make(build=None):
        settings = QSettings(str(tmp_path / f"settings{len(made)}.ini"), QSettings.Format.IniFormat)
        win = MainWindow(index, settings, dialogs_factory=FakeDialogs)
        qtbot.addWidget(win)
        if build is not None:
            win.doc.replace(build, None)
        made.append(win)
        return win

    yield make
    for w in made:
        w.doc.undo_stack.setClean()
        w.close()


class Loop:
    """What the main window does for the power and cost panel, without a document: turn the
    panel's signals into build edits, then show the build (the panel following a document is
    tested with one: test_graphs.test_the_panel_follows_the_documents_changes)."""

    def __init__(self, panel, build, index) -> None:
        self.panel, self.build, self.index = panel, build, index
        self.edits = 0
        panel.settingsEdited.connect(self.settings)
        panel.powerLimitEdited.connect(self.limit)
        panel.show_build(build, index)

    def settings(self, changes: dict) -> None:
        for k, v in changes.items():
            setattr(self.build.settings, k, v)
        self.edits += 1
        self.panel.show_build(self.build, self.index)

    def limit(self, idx: int, watts) -> None:
        self.build.gpus[idx].power_limit_w = watts
        self.edits += 1
        self.panel.show_build(self.build, self.index)


@pytest.fixture
def loop(qtbot, index):
    """A power and cost panel following seed 001's 4 x RTX 3090, shown and exposed."""
    from rigbuilder.ui.graphs import PowerCostPanel
    from tests.builds import RTX3090_FE, x99_4x3090

    panel = PowerCostPanel()
    qtbot.addWidget(panel)
    panel.resize(1100, 900)
    panel.show()
    qtbot.waitExposed(panel)
    return Loop(panel, x99_4x3090(limit_w=None, gpu=RTX3090_FE), index)
