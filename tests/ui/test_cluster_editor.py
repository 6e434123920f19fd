"""File > New Cluster Plan (issue 43): machines added with counts, cards placed in board slots with the
checks' covered-slot test, the link chosen, figures and fixes live, undo, save as .rigcluster, the lab."""
from __future__ import annotations

import json

from rigbuilder.files import buildfile, clusterfile
from tests.builds import CONNECTX3_40G, RTX3090_BLOWER, seed003_node, x99_4x3090

QUADRO = "gpu-nvidia-quadro-rtx-5000"


def _editor(make_window, qtbot, build=None):
    win = make_window(build or seed003_node(QUADRO, 4))
    view = win.tools.new_cluster()
    qtbot.addWidget(view)
    return win, view


def _findings(view):
    return [view.findings.item(i).text() for i in range(view.findings.count())]


def _row_of(view, slot):
    return next(r for r in range(view.slots.rowCount()) if view.slots.item(r, 0).text() == slot)


def test_a_two_machine_plan_made_in_the_window(make_window, qtbot, tmp_path, capsys):
    win, view = _editor(make_window, qtbot)
    assert len(view.plan.machines) == 1 and not view.undo_stack.count()  # the open build, as the first machine
    view.count.setValue(2)
    assert view.plan.machines[0].count == 2 and view.table.rowCount() == 2
    assert any("has no network card" in t and "\u2192 place a network card" in t for t in _findings(view))
    # the slot list says what the GPUs hold: the 2-slot cards in PCIE1 and PCIE3 cover PCIE2 and PCIE4
    assert view.slots.item(_row_of(view, "PCIE2"), 2).text() == "covered by GPU 1"
    assert view.slots.item(_row_of(view, "PCIE3"), 2).text() == "GPU 2"
    assert view.slots.item(_row_of(view, "PCIE5"), 2).text() == "free"
    view.nic.setCurrentIndex(view.nic.findData(CONNECTX3_40G))
    view.slots.setCurrentCell(_row_of(view, "PCIE2"), 0)
    assert view.place_selected()
    bad = [t for t in _findings(view) if "which GPU 1 covers" in t]
    assert bad and bad[0].startswith("\u2716") and "\u2192 move the card to a free slot: PCIE5, PCIE6, PCIE7" in bad[0]
    assert "not possible" in view.slots.item(_row_of(view, "PCIE2"), 2).text()
    view.undo_stack.undo()
    assert view.plan.machines[0].nics == ()
    view.slots.setCurrentCell(_row_of(view, "PCIE5"), 0)
    view.place_selected()
    assert not [t for t in _findings(view) if "covers" in t or "has no network card" in t]
    assert any("feed the machines from 2 circuits" in t for t in _findings(view))  # the power error's fix
    before = view.headline.text()
    view.link.setCurrentIndex(view.link.findData("roce"))
    assert view.plan.network.kind == "roce" and view.headline.text() != before
    assert view.headline.text() == "40 Gbit/s with GPUDirect RDMA: 2 machines give 1.56x one"
    text = view.summary.text()
    assert "Per circuit:" in text and "Purchase:" in text and "Network bottleneck:" in text
    assert view.table.item(0, 4).text().endswith("\u00d7")  # RAM per VRAM
    view.circuits.setValue(2)
    assert not [t for t in _findings(view) if t.startswith("\u2716")]
    # Save As: the plan and the open build (only in memory) beside it; the command line reads them
    path = tmp_path / "pair.rigcluster"
    view.ask_path = lambda save, suggested: str(path)
    assert view.save_as() and view.undo_stack.isClean() and not view.windowTitle().endswith("*")
    plan = clusterfile.load(path)
    assert plan.machines[0].count == 2 and plan.network.kind == "roce" and plan.circuits == 2
    assert (tmp_path / plan.machines[0].build).is_file()
    from rigbuilder.cli import main

    capsys.readouterr()
    assert main(["cluster", "check", str(path), "--json"]) == 0
    assert not [f for f in json.loads(capsys.readouterr().out)["findings"] if f["severity"] == "error"]
    view.count.setValue(3)
    assert view.windowTitle().endswith("*")
    view.undo_stack.undo()
    assert view.plan.machines[0].count == 2 and view.undo_stack.isClean()


def test_keys_place_and_remove_a_card(make_window, qtbot):
    from PySide6.QtCore import Qt

    win, view = _editor(make_window, qtbot)
    view.slots.setFocus()
    view.slots.setCurrentCell(_row_of(view, "PCIE7"), 0)
    qtbot.keyClick(view.slots, Qt.Key.Key_Return)
    assert [n.slot for n in view.plan.machines[0].nics] == ["PCIE7"]
    qtbot.keyClick(view.slots, Qt.Key.Key_Delete)
    assert view.plan.machines[0].nics == ()


def test_node_boxes_never_cut_a_name(make_window, qtbot):
    from PySide6.QtWidgets import QGraphicsTextItem

    win, view = _editor(make_window, qtbot, x99_4x3090(gpu=RTX3090_BLOWER))
    texts = [i.toPlainText() for i in view.scene.items() if isinstance(i, QGraphicsTextItem)]
    name = win.doc.index.get(RTX3090_BLOWER).name
    assert any(f"4\u00d7 {name}" in t for t in texts), texts
    box = view.scene.boxes[0]
    item = next(i for i in view.scene.items() if isinstance(i, QGraphicsTextItem) and name in i.toPlainText())
    assert item.sceneBoundingRect().bottom() <= box.bottom() and item.sceneBoundingRect().right() <= box.right() + 1


def test_machines_from_files_removed_and_a_bad_file_named(make_window, qtbot, tmp_path):
    win, view = _editor(make_window, qtbot)
    buildfile.save(seed003_node(QUADRO, 4), tmp_path / "other.rig")
    assert view.add_path(str(tmp_path / "other.rig"), 3)
    assert [m.count for m in view.plan.machines] == [1, 3] and view.table.rowCount() == 4
    (tmp_path / "bad.rig").write_bytes(b"\x00 not a build")
    assert not view.add_path(str(tmp_path / "bad.rig"))
    assert "bad.rig" in win.dialogs.errors[-1][1] and len(view.plan.machines) == 2
    view.machines.setCurrentRow(0)
    view.remove_machine.click()
    assert [m.count for m in view.plan.machines] == [3]
    view.undo_stack.undo()
    assert len(view.plan.machines) == 2


def test_save_to_lab_and_open_from_lab(make_window, qtbot, tmp_path):
    lab = tmp_path / "lab.sqlite"
    from rigbuilder.catalog.labdb import LabDb

    LabDb.open(str(lab)).close()
    win, view = _editor(make_window, qtbot)
    win.prefs.set("lab/database_url", str(lab))
    view2 = win.tools.new_cluster()
    qtbot.addWidget(view2)
    view2.count.setValue(2)
    view2.slots.setCurrentCell(_row_of(view2, "PCIE5"), 0)
    view2.place_selected()
    view2.plan = view2.plan.__class__("lab pair", view2.plan.machines, view2.plan.network)
    assert view2.save_to_lab()
    db = LabDb.open(str(lab))
    assert [e.key[0] for e in db.clusters()] == ["lab pair"] and len(db.builds()) == 1
    db.close()
    view3 = win.tools.new_cluster()
    qtbot.addWidget(view3)
    assert view3.open_from_lab("lab pair")
    assert view3.plan.machines[0].count == 2 and view3.table.rowCount() == 2
    assert view3.plan.machines[0].nics[0].slot == "PCIE5"
    view3.ask_path = lambda save, suggested: str(tmp_path / "from-lab.rigcluster")
    assert view3.save()
    plan = clusterfile.load(tmp_path / "from-lab.rigcluster")
    name = plan.machines[0].build
    assert name.startswith("lab pair- ") and ":" not in name and (tmp_path / name).is_file()
    assert view.save_to_lab() is False and "Preferences" in win.dialogs.errors[-1][1]  # opened before the lab was set


def test_a_machine_only_in_memory_says_to_save_first(make_window, qtbot):
    win, view = _editor(make_window, qtbot)
    view.open_machine(0)
    assert "not saved in a file yet" in view.status.text() and win.dialogs.errors == []


def test_an_optimiser_answer_joins_the_open_plan(make_window, qtbot):
    """``ToolWindows.add_to_cluster``: what an optimiser answer's "Add to Cluster Plan" calls."""
    win, view = _editor(make_window, qtbot)
    assert win.tools.add_to_cluster("answer 1", x99_4x3090(250, RTX3090_BLOWER), 2) is view
    assert [m.count for m in view.plan.machines] == [1, 2] and view.table.rowCount() == 3
