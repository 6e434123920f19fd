"""Tools > Compare Builds (issue 29): the open build and a build file side by side, the same rows
``rigbuilder compare`` prints, and bad files named without losing the list."""
from __future__ import annotations

from rigbuilder.files.buildfile import save
from tests.rules.test_compare import one_4090, two_3090


def test_open_build_against_a_file(qtbot, make_window, tmp_path):
    win = make_window()
    path = tmp_path / "two.rig"
    save(two_3090(), path)
    win.tools.compare_builds()
    dlg = win.tools.comparer
    assert not dlg.go.isEnabled()  # fewer than two builds
    dlg._add_current()
    dlg.add_path(str(path))
    assert dlg.go.isEnabled() and dlg.list.count() == 2
    for cb, wl in dlg.workloads:  # only QLoRA 13B
        cb.setChecked(wl.id == "qlora")
    result = dlg.run()
    assert result is not None and len(result.columns) == 2
    assert dlg.table.columnCount() == 2
    labels = [dlg.table.verticalHeaderItem(r).text() for r in range(dlg.table.rowCount())]
    assert "QLoRA, Llama 2 13B, nf4" in labels and "owning beats renting" in labels
    assert dlg.table.horizontalHeaderItem(1).text() == "two.rig"


def test_a_bad_file_is_named_and_the_list_kept(qtbot, make_window, tmp_path):
    win = make_window()
    win.tools.compare_builds()
    dlg = win.tools.comparer
    dlg._add_current()
    bad = tmp_path / "bad.rig"
    bad.write_bytes(b"\x00\xff not a build")
    dlg.add_path(str(bad))
    assert dlg.list.count() == 1
    assert "bad.rig" in dlg.status.text()


def test_an_optimiser_answer_goes_to_the_comparison(qtbot, make_window, monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring
    from tests.rules.optimise_helpers import StandIn

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())
    win = make_window()
    win.tools.optimise_build()
    opt = win.tools.optimiser
    opt.budget.setValue(3000)
    opt.prices.setCurrentText("both")
    opt.start()
    qtbot.waitUntil(lambda: not opt.running, timeout=60000)
    assert opt.result is not None and opt.result.best is not None
    opt.table.selectRow(0)
    assert opt.to_compare.isEnabled()
    assert opt.compare_selected()
    assert win.tools.comparer.list.count() == 1 and win.tools.comparer.builds[0][1].gpus
