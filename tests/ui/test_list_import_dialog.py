"""File > Import Parts List: paste or open a list, see matches, choose for weak lines, import as a
new build or as one undoable step on the open one."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QComboBox, QDialog

import rigbuilder.ui.graphs  # noqa: F401 - imported here, not on the window's background thread
from rigbuilder.ui.list_import_dialog import ListImportDialog

# The main window imports numpy and pyqtgraph on a thread after it opens; a garbage collection on
# the GUI thread while that import runs crashed this file about one run in three (seen with
# PySide6 6.11.3, Python 3.11). Importing them first leaves that thread nothing to do.

DATA = Path(__file__).parent.parent / "files" / "data" / "pcpp"
UK = DATA / "uk-wrx80-a6000.txt"


@pytest.fixture
def dialog(qtbot, index):
    dlg = ListImportDialog(index, open_file=lambda: str(UK))
    qtbot.addWidget(dlg)
    return dlg


def row_of(dlg, line):
    return next(r for r in range(dlg.table.rowCount()) if dlg.table.item(r, 0).text() == str(line))


def test_pasted_list_shows_matched_weak_and_skipped_lines(dialog, qtbot):
    dialog.text.setPlainText((DATA / "au-reddit-post.md").read_text())
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=30000)  # matched after typing stops
    t = dialog.table
    assert t.rowCount() == 12
    assert t.item(row_of(dialog, 7), 4).text().startswith("matched")
    combo = t.cellWidget(row_of(dialog, 7), 5)
    assert isinstance(combo, QComboBox) and combo.currentData() == "cpu-intel-core-i9-13900k"
    assert t.item(row_of(dialog, 17), 4).text() == "no match"  # the Custom line
    assert t.cellWidget(row_of(dialog, 17), 5).currentData() in ("", None)
    assert t.item(row_of(dialog, 18), 4).text() == "not checked"  # the monitor
    assert t.cellWidget(row_of(dialog, 18), 5) is None
    assert "AUD" in dialog.status.text() and "will be imported" in dialog.status.text()
    assert dialog.ok.isEnabled()


def test_weak_lines_wait_for_a_choice(dialog, qtbot):
    dialog.open_file()
    assert dialog.plan is not None and dialog.plan.parts_list.currency == "GBP"
    combo = dialog.table.cellWidget(row_of(dialog, 9), 5)
    assert dialog.table.item(row_of(dialog, 9), 4).text() == "choose"
    assert dialog.chosen()[9] is None
    assert "Lines 6, 9, 10, 13, 14 left out" in dialog.status.text()
    combo.setCurrentIndex(combo.findData("gpu-nvidia-rtx-a6000"))
    assert dialog.chosen()[9] == "gpu-nvidia-rtx-a6000"
    assert "Lines 6, 10, 13, 14 left out" in dialog.status.text()
    assert dialog.table.item(row_of(dialog, 9), 4).text() == "your choice"
    # a matched line can be skipped too
    c3 = dialog.table.cellWidget(row_of(dialog, 3), 5)
    c3.setCurrentIndex(0)
    assert dialog.chosen()[3] is None and dialog.table.item(row_of(dialog, 3), 4).text() == "skipped"
    # editing the text again keeps the choices of lines that did not change
    dialog.set_text(dialog.text.toPlainText().replace("Cable combs", "Cable combs, black"))
    assert dialog.chosen()[9] == "gpu-nvidia-rtx-a6000" and dialog.chosen()[3] is None
    assert dialog.chosen()[4] == "cool-noctua-nh-u14s-tr4-sp3"


@pytest.mark.parametrize("text,words", [("\x00\x01 not text", "not a PCPartPicker parts list"),
                                        ("hello there", "not a PCPartPicker parts list"),
                                        ("x" * 600_000, "too long")])
def test_bad_paste_says_why_and_disables_import(dialog, text, words):
    dialog.set_text(text)
    assert words in dialog.status.text() and not dialog.ok.isEnabled() and dialog.table.rowCount() == 0


def test_binary_file_says_why(dialog, tmp_path):
    f = tmp_path / "x.md"
    f.write_bytes(b"\x89PNG\x00\x00\x00")
    dialog._open_file = lambda: str(f)
    dialog.open_file()
    assert "binary" in dialog.status.text() and not dialog.ok.isEnabled()


def test_new_build_from_the_menu(make_window, qtbot):
    win = make_window()
    assert win.act_import_list.shortcut().toString() == "Ctrl+Shift+I"

    def drive():
        dlg = win.imports.list_dialog
        dlg.set_text((DATA / "us-threadripper-4x3090.md").read_text())
        combo = dlg.table.cellWidget(row_of(dlg, 17), 5)  # the weak X550-T2 line
        combo.setCurrentIndex(combo.findData("nic-intel-x550-t2"))
        dlg.accept()

    QTimer.singleShot(0, drive)
    win.act_import_list.trigger()
    b = win.doc.build
    assert len(b.gpus) == 4 and b.nics == ["nic-intel-x550-t2"] and b.settings.currency == "USD"
    assert b.prices_paid["gpu-asus-rtx-3090-turbo"].amount == 1499.99
    assert win.doc.path is None and "Imported 13 parts" in win.statusBar().currentMessage()


def test_added_to_the_open_build_is_one_undoable_step(make_window, index, qtbot):
    from rigbuilder.domain.build import Build

    win = make_window(Build(name="mine", motherboard="mb-asus-rog-strix-x870e-e-gaming-wifi"))
    dlg = ListImportDialog(index, can_add=True)
    qtbot.addWidget(dlg)
    dlg.set_text((DATA / "de-am5-2x4090.md").read_text())
    dlg.add_radio.setChecked(True)
    before = win.doc.build.clone()
    assert win.imports.apply_list(dlg.plan, dlg.chosen(), dlg.mode())
    assert win.doc.build.name == "mine" and len(win.doc.build.gpus) == 2
    assert win.doc.undo_stack.undoText().startswith("Import parts list (")
    win.doc.undo_stack.undo()
    assert win.doc.build == before


def test_cancel_changes_nothing(make_window, qtbot):
    win = make_window()
    before = win.doc.build.clone()

    def drive():
        dlg = win.imports.list_dialog
        dlg.set_text(UK.read_text())
        dlg.reject()

    QTimer.singleShot(0, drive)
    win.act_import_list.trigger()
    assert win.doc.build == before and not win.doc.dirty
