"""Issue 29 in the window: a card's menu offers the catalog's risers; choosing one is one undoable
edit, the board drawing names the riser and the parts list bills it. Fixture risers: tests/risers.py."""
from __future__ import annotations

import os

import pytest

from tests.builds import x99_4x3090
from tests.risers import riser_index
from tests.ui.test_i18n_board import scene_texts


@pytest.fixture
def riser_window(qtbot, index, tmp_path):
    from PySide6.QtCore import QSettings

    from rigbuilder.ui.main_window import MainWindow
    from tests.ui.conftest import FakeDialogs

    win = MainWindow(riser_index(index), QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                     dialogs_factory=FakeDialogs)
    qtbot.addWidget(win)
    win.doc.replace(x99_4x3090(), None)
    yield win
    dlg = getattr(win.tools, "optimiser", None)
    if dlg is not None:
        dlg.close()
    win.doc.undo_stack.clear()  # its commands not left to the garbage collector (a later test's crash in PySide)
    win.close()


def test_the_card_menu_puts_a_card_on_a_riser_part_undoably(riser_window, qtbot, index):
    win = riser_window
    win.resize(1440, 900)
    win.show()
    qtbot.waitExposed(win)
    menu = win.board_view.card_menu(3)
    sub = next(a.menu() for a in menu.actions() if a.menu() is not None and a.text() == "Riser")
    acts = {a.text(): a for a in sub.actions() if a.text()}
    assert acts["Riser of unknown kind"].isChecked() is False  # the card sits in a slot
    pick = "Test Gen4 x16 riser 300 mm (PCIe 4.0 x16, 300 mm)"
    assert pick in acts and len(acts) == 1 + len(riser_index(index).of_kind("riser"))  # unknown kind + every riser
    acts[pick].trigger()
    g = win.doc.build.gpus[3]
    assert (g.mount, g.position, g.riser) == ("riser", 7, "riser-test-g4-300")
    assert win.doc.undo_stack.undoText() == "GPU 4 on riser: Test Gen4 x16 riser 300 mm"
    qtbot.waitUntil(lambda: any("PCIe 4.0 x16, 300 mm" in t for t in scene_texts(win.board_view.board_scene)))
    win.right_tabs.setCurrentWidget(win.parts_panel)
    qtbot.waitUntil(lambda: any(r["id"] == "riser-test-g4-300" and r["kind"] == "riser" for r in win.parts_panel.rows))
    again = {a.text(): a for a in next(a.menu() for a in win.board_view.card_menu(3).actions()
                                        if a.menu() is not None).actions() if a.text()}
    assert again[pick].isChecked()
    shots = os.environ.get("RIGBUILDER_SHOTS")
    if shots:  # a look at it as a user would (not part of the test's verdict)
        qtbot.wait(300)
        win.grab().save(os.path.join(shots, "riser-build.png"))
    win.act_undo.trigger()
    assert win.doc.build.gpus[3].riser is None and win.doc.build.gpus[3].mount == "slot"


def test_the_optimiser_dialog_stands_cards_on_risers_when_risers_are_ticked(riser_window, qtbot, monkeypatch):
    """Four triple-slot RTX 3090s: no board's slots hold them; the answer puts them on risers in the
    fixture open frame and opens in the planner; with "Risers and open frames" unticked (the default)
    nothing meets the request."""
    from rigbuilder.rules.optimise import scoring as optimise_scoring
    from tests.rules.optimise_helpers import StandIn

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())
    win = riser_window
    win.tools.optimise_build()
    dlg = win.tools.optimiser
    assert dlg.risers.isEnabled() and not dlg.risers.isChecked() and not dlg.riser_length.isEnabled()
    dlg.risers.setChecked(True)
    assert dlg.riser_length.isEnabled() and dlg.request().riser_length_mm is None  # "any riser"
    dlg.insist.setText("gpu=gpu-nvidia-rtx-3090-fe, case=case-test-frame")  # not a shipped frame
    dlg.gpus_now.setValue(4)
    dlg.grow_to.setValue(4)
    dlg.power_limit.setValue(70)
    dlg.budget.setValue(0)  # no limit
    dlg.prices.setCurrentIndex(dlg.prices.findData("both"))  # the FE's used price: its launch price is no new price
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    best = dlg.result.best
    assert best is not None, (dlg.result.infeasible, dlg.request())
    assert all(g.mount == "riser" and g.riser for g in best.grown.gpus)
    assert "Risers: the cards stand off the board" in dlg.details.toPlainText()
    shots = os.environ.get("RIGBUILDER_SHOTS")
    if shots:
        dlg.resize(1300, 850)
        dlg.show()
        qtbot.waitExposed(dlg)
        qtbot.wait(300)
        dlg.grab().save(os.path.join(shots, "optimiser-risers.png"))
    assert dlg.open_selected("grown")
    assert [g.riser for g in win.doc.build.gpus] == [g.riser for g in best.grown.gpus]
    dlg.risers.setChecked(False)
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    assert dlg.result.best is None and "slot spacing" in dlg.result.infeasible
