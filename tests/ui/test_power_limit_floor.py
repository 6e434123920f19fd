"""The lowest power limit the window offers is one figure (issue 23): Edit > Power Limit for GPU
and for all GPUs start where the panel's slider starts (``domain.fields.power_limit_floor_w``);
before, the dialogs took 30 % of board power and the slider 50 %."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QWidget

from rigbuilder.domain.fields import power_limit_floor_w
from rigbuilder.ui.graphs import PowerCostPanel, _LimitRow
from rigbuilder.ui.dialogs import Dialogs
from rigbuilder.ui.power_limit_dialog import PowerLimitDialog
from tests.builds import RTX3090_FE, x99_4x3090


def test_the_dialogs_floor_equals_the_sliders(qtbot, monkeypatch, index):
    asked = []

    def exec_(dlg):  # what the dialog offers, then Cancel (never a modal loop in a test)
        asked.append((dlg.watts.minimum(), dlg.watts.maximum()))
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(PowerLimitDialog, "exec", exec_)
    parent = QWidget()
    qtbot.addWidget(parent)
    assert Dialogs(parent).ask_power_limit(1, None, 350) is None
    assert Dialogs(parent).ask_all_power_limits(4, None, 350) is None
    panel = PowerCostPanel()
    qtbot.addWidget(panel)
    panel.show_build(x99_4x3090(limit_w=None, gpu=RTX3090_FE), index)  # RTX 3090s of 350 W
    row = panel.limit_rows[0]
    assert isinstance(row, _LimitRow) and row.shown.board_w == 350
    slider = (row.slider.minimum(), row.slider.maximum())
    assert asked == [slider, slider] == [(power_limit_floor_w(350), 350)] * 2 == [(175, 350)] * 2
