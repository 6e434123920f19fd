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


def test_compare_with_from_the_open_build_shows_the_verdict_at_once(qtbot, make_window, tmp_path):
    """Issue 43: File > Compare With…: two actions (the menu, a file) to a table with a verdict per workload
    and the kind of price each purchase rests on."""
    win = make_window(one_4090())
    path = tmp_path / "two.rig"
    save(two_3090(), path)
    win.dialogs.next_open = str(path)
    win.act_compare_with.trigger()
    dlg = win.tools.comparer
    assert dlg.list.count() == 2 and dlg.table.columnCount() == 2
    text = dlg.verdict.text()
    assert text.startswith("<b>Verdict:</b>") and text.count("<br>") == 4  # the heading, then 4 workloads
    assert "only two.rig fits" in text  # 70B at 4 bits: 48 GB against 24 GB
    labels = [dlg.table.verticalHeaderItem(r).text() for r in range(dlg.table.rowCount())]
    row = labels.index("prices the purchase rests on")
    assert "used marketplace prices" in dlg.table.item(row, 1).text()


def test_the_examples_are_in_the_list_and_the_menu(qtbot, make_window):
    from rigbuilder.files.examples import EXAMPLES

    win = make_window()
    win.tools.compare_builds()
    dlg = win.tools.comparer
    acts = dlg.examples_menu.actions()
    assert [a.text() for a in acts] == ["One RTX 2070 now, four later (Threadripper)", "Four used RTX 3090 on X99",
                                        "One new RTX 4090", "Two used RTX 3090"]
    assert acts[2].toolTip() == EXAMPLES[2].question
    acts[2].trigger()
    acts[3].trigger()
    assert dlg.table.columnCount() == 2 and "Two used RTX 3090" in dlg.verdict.text()
    # File > Examples: each question; the comparison one opens the two builds side by side
    menu = next(a.menu() for a in win.menuBar().actions()[0].menu().actions() if a.menu() and
                a.menu().actions() and a.menu().actions()[0].text() == EXAMPLES[0].question)
    assert [a.text() for a in menu.actions()] == [e.question for e in EXAMPLES]
    menu.actions()[2].trigger()
    cmp_ = win.tools.example_comparison
    qtbot.addWidget(cmp_)
    assert [b[0] for b in cmp_.builds] == ["One new RTX 4090", "Two used RTX 3090"] and cmp_.verdict.text()
    menu.actions()[1].trigger()
    assert win.doc.build.name == "Four used RTX 3090 on X99, limited to 250 W" and win.doc.path is None
    assert win.dialogs.infos[-1][1] == EXAMPLES[1].question
    menu.actions()[3].trigger()
    view = win.tools.cluster_views[-1]
    qtbot.addWidget(view)
    assert view.table.rowCount() == 2 and view.plan.machines[0].nics[0].slot == "PCIE5"


def test_open_comparison_is_the_entry_point_for_other_windows(qtbot, make_window):
    """What the optimiser's "Compare the Top 3" calls: builds in, the table shown, the catalog found
    from the window the caller sits in."""
    from PySide6.QtWidgets import QWidget

    from rigbuilder.ui.compare_dialog import open_comparison

    win = make_window()
    child = QWidget(win)
    dlg = open_comparison(child, [("A", one_4090()), ("B", two_3090()), ("C", one_4090())])
    qtbot.addWidget(dlg)
    assert dlg.isVisible() and dlg.table.columnCount() == 3 and not dlg.add_current.isVisible()
    assert dlg.verdict.text().count("<br>") == 4


def test_each_throughput_cell_shows_its_band_and_the_verdict_respects_it(qtbot, make_window, tmp_path):
    """Issue 39: the side-by-side view's throughput cells read 'value unit ±band' (models.estimates), and
    its verdict is the comparison's (no winner named inside the bands)."""
    from rigbuilder.models.estimates import of_build
    from rigbuilder.rules import compare as C

    win = make_window(one_4090())
    path = tmp_path / "two.rig"
    save(two_3090(), path)
    win.dialogs.next_open = str(path)
    win.act_compare_with.trigger()
    dlg = win.tools.comparer
    for cb, wl in dlg.workloads:
        cb.setChecked(wl.id in ("cnn-training", "llm-inference"))
    result = dlg.run()
    labels = [dlg.table.verticalHeaderItem(r).text() for r in range(dlg.table.rowCount())]
    shown = 0
    for i, wl in enumerate(result.workloads):
        row = labels.index(str(C.workload_label(wl)))
        for k, col in enumerate(result.columns):
            fig = of_build(col.throughput[i])
            cell = dlg.table.item(row, k).text()
            if col.throughput[i].fits and fig.band:
                assert cell.startswith(str(fig.text())) and "\u00b1" in cell
                shown += 1
    assert shown >= 2
    for line in C.verdicts(result):
        assert str(line) in dlg.verdict.toolTip()
