"""Tools > Optimise Build (issue 18): inputs, a search off the GUI thread with progress and Cancel,
the results table, and a result opened in the planner as one undoable step (today's or grown).
Throughput: the tests' stand-in (tests/rules/optimise_helpers.py)."""
from __future__ import annotations

import time

import pytest

from rigbuilder.ui.optimiser_dialog import OptimiserDialog, parse_parts
from tests.rules.optimise_helpers import StandIn


class SlowStandIn(StandIn):
    """The stand-in, slowed so that a test can cancel mid-search."""

    def card(self, gpu):
        time.sleep(0.02)
        return super().card(gpu)


@pytest.fixture
def window_dialog(make_window, monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())
    win = make_window()
    win.tools.optimise_build()
    dlg = win.tools.optimiser
    return win, dlg


def test_search_fills_the_table_and_opens_as_one_undo_step(qtbot, window_dialog):
    win, dlg = window_dialog
    assert win.act_optimise.text() == "&Optimise Build…"
    dlg.budget.setValue(2000)
    dlg.prices.setCurrentText("both")
    dlg.gpus_now.setValue(1)
    dlg.grow_to.setValue(4)
    dlg.start()
    assert dlg.running and not dlg.search_button.isEnabled() and dlg.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not dlg.running, timeout=90000)  # three searches (the other objectives' winners) on a shared machine
    assert dlg.result is not None and dlg.result.best is not None
    assert dlg.table.rowCount() == len(dlg.result.candidates) >= 1
    assert dlg.table.item(0, 0).text() == dlg.result.best.row_label  # with its card variants (issue 37)
    assert not dlg.result.best.variants or "The same build at the same price and throughput with: " in \
        dlg.details.toPlainText()
    assert "unverified" in dlg.details.toPlainText() or not dlg.result.best.unverified
    before = win.doc.build.clone()
    assert dlg.open_selected("today")
    assert win.doc.build == dlg.result.best.today
    assert dlg.open_selected("grown")
    grown = dlg.result.best.grown.clone()
    grown.settings.budget = None  # issue 37: the grown stage's own money (no growth budget asked: no cap)
    assert win.doc.build == grown and len(win.doc.build.gpus) == 4
    win.doc.undo_stack.undo()
    assert win.doc.build == dlg.result.best.today
    win.doc.undo_stack.undo()
    assert win.doc.build == before


def test_what_more_budget_buys_is_one_more_search_said_below_the_answer(qtbot, window_dialog):
    """Issue 29: "+300 EUR: ..." in the window, not only on the command line (--budget-step)."""
    _, dlg = window_dialog
    assert not dlg.try_more.isEnabled()  # nothing to compare with yet
    dlg.budget.setValue(1500)
    dlg.gpus_now.setValue(1)
    dlg.grow_to.setValue(2)
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=90000)  # three searches (the other objectives' winners) on a shared machine
    assert dlg.result is not None and dlg.try_more.isEnabled() and dlg.step.suffix() == " EUR"
    base = list(dlg.result.explanation)
    dlg.step.setValue(700)
    dlg.start_step()
    assert dlg.running and not dlg.try_more.isEnabled() and dlg.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not dlg.running, timeout=90000)  # three searches (the other objectives' winners) on a shared machine
    added = dlg.result.explanation[len(base):]
    assert len(added) == 1 and added[0].startswith("+700") and dlg.result.explanation[:len(base)] == base
    assert added[0] in dlg.details.toPlainText() and dlg.status.text() == added[0]
    assert dlg.table.rowCount() == len(dlg.result.candidates)  # the answer shown stays


def test_infeasible_request_says_why(qtbot, window_dialog):
    _, dlg = window_dialog
    dlg.budget.setValue(300)
    dlg.gpus_now.setValue(1)
    dlg.grow_to.setValue(4)
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=90000)  # three searches (the other objectives' winners) on a shared machine
    assert dlg.table.rowCount() == 0
    assert "constraint that cannot be met: budget" in dlg.details.toPlainText()


def test_cancel(qtbot, make_window):
    win = make_window()
    dlg = OptimiserDialog(win.doc.index, lambda b, t: True, lambda w, p=None: SlowStandIn(), ["cnn-training"],
                          ["EUR"], win)
    qtbot.addWidget(dlg)
    dlg.budget.setValue(0)
    dlg.start()
    qtbot.waitUntil(lambda: dlg.progress.value() > 0 or "Searching:" in dlg.status.text(), timeout=10000)
    dlg.cancel()
    qtbot.waitUntil(lambda: not dlg.running, timeout=90000)  # three searches (the other objectives' winners) on a shared machine
    assert dlg.status.text().startswith("Cancelled") and dlg.result is None


def test_bad_parts_entry_is_named(index):
    with pytest.raises(ValueError, match="not a part id"):
        parse_parts("case-no-such", index, "I own")
    assert parse_parts("board=mb-asrock-x99-ws-e, gpu-nvidia-rtx-a4000", index, "I own") == (
        ("motherboard", "mb-asrock-x99-ws-e"), ("gpu", "gpu-nvidia-rtx-a4000"))


def test_quiet_as_a_level(qtbot, window_dialog):
    """The dialog's noise box (issue 41): its lowest value is no limit; a level is the request's
    max_noise, every build found is at or below it, and the explanation says what the limit cost."""
    from rigbuilder.rules.context import Context

    win, dlg = window_dialog
    assert dlg.request().max_noise is None
    dlg.budget.setValue(4000)
    dlg.gpus_now.setValue(1)
    dlg.grow_to.setValue(2)
    dlg.max_noise.setValue(36)
    assert dlg.request().max_noise == 36.0
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=180000)  # four searches: the answer, the noise cost, the other objectives
    res = dlg.result
    assert res is not None
    for c in res.candidates:
        assert Context(c.grown, win.doc.index).noise.level("training") <= 36.0 + 1e-9
    if res.best is not None:
        assert any("36 dB(A)" in str(line) for line in res.explanation)


def test_best_choice_and_allow_warnings_go_into_the_request(window_dialog):
    """Issue 37: the window's "Best" (the objective, with its target) and "Allow warnings"."""
    _, dlg = window_dialog
    assert dlg.request().goal == "within-budget"  # a budget is set: the default spends it on throughput
    assert not dlg.target.isEnabled()
    dlg.objective.setCurrentIndex(dlg.objective.findData("cheapest"))
    assert dlg.target.isEnabled()
    dlg.target.setValue(100)
    dlg.allow_warnings.setChecked(True)
    req = dlg.request()
    assert req.goal == "cheapest" and req.target_throughput == 100 and req.allow_warnings
    assert not dlg.compare_top.isEnabled()  # no answer yet


class BandedStandIn(StandIn):
    """The stand-in ranking, with the workload whose bands the dialog shows (issue 39)."""

    def __init__(self) -> None:
        from rigbuilder.models.workloads import workload

        self.workload = workload("cnn-training")


def test_the_table_has_a_band_column_and_the_answer_says_the_band(qtbot, make_window, monkeypatch):
    """Issue 39: a '±' column beside the throughput, its cell the band models.estimates gives the grown build;
    the answer below the table gives the figure with its band and what the band is."""
    from rigbuilder.rules.optimise import bands
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: BandedStandIn())
    win = make_window()
    win.tools.optimise_build()
    dlg = win.tools.optimiser
    dlg.budget.setValue(3000)
    dlg.gpus_now.setValue(2)
    dlg.grow_to.setValue(2)
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=90000)
    res = dlg.result
    assert res is not None and res.best is not None and res.best.estimate is not None  # attached off the GUI thread
    assert dlg.table.horizontalHeaderItem(6).text() == "\u00b1"
    assert dlg.table.horizontalHeaderItem(5).text().startswith("Throughput")
    for r, c in enumerate(res.candidates):
        fig = bands.throughput(c)
        assert fig.band > 0 and dlg.table.item(r, 6).text() == f"\u00b1{fig.band:.0%}"
        assert dlg.table.item(r, 6).toolTip() == "80% of published cases held out of the fit lie within it"
        assert f"\u00b1{fig.band:.0%}" in dlg.table.item(r, 5).toolTip()
    assert dlg.table.horizontalHeaderItem(13).text() == "Notes"  # the columns after it moved along
    dlg.table.selectRow(0)
    text = dlg.details.toPlainText()
    assert f"Throughput: {bands.throughput(res.best).text()} (" in text
    assert "The best build's throughput:" in text
