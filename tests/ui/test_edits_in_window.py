"""Every door of the window changes the build through the edit vocabulary: refused edits say why
in the status bar, the document's undo gives back the identical build, and no UI module edits a
Build itself."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPointF

import rigbuilder.ui
from rigbuilder.domain.build import MOUNT_RISER
from rigbuilder.domain.edits import EditError
from rigbuilder.ui.document import BuildDocument
from tests.builds import RTX3090_FE, ZOTAC_2070, frank_2070, x99_4x3090
from tests.domain.test_edits import edits_strategy
from tests.ui.test_main_window import catalog_mime, drag_drop

BUILD_LISTS = {"gpus", "psus", "memory", "storage", "nics"}
BUILD_FIELDS = BUILD_LISTS | {"name", "notes", "motherboard", "cpu", "cooler", "case", "settings", "position",
                              "mount", "power_limit_w", "count", "part_id", "region", "price_per_kwh"}
BUILDISH = re.compile(r"^(b|build|after|new)$|\bbuild\b|\b(gpus|psus|memory|storage|nics|settings)\b")
MUTATORS = {"append", "pop", "insert", "extend", "remove", "clear", "sort", "reverse"}


def _mutations(tree: ast.AST) -> list[str]:
    """Places in a module that assign to a build's fields or change its lists in place."""
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                base = el.value if isinstance(el, ast.Subscript) else el
                if isinstance(base, ast.Attribute) and base.attr in BUILD_FIELDS \
                        and BUILDISH.search(ast.unparse(base.value)):
                    found.append(f"line {node.lineno}: {ast.unparse(el)} = ...")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Attribute) and node.func.value.attr in BUILD_LISTS:
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and node.args and BUILDISH.search(ast.unparse(node.args[0])):
            found.append(f"line {node.lineno}: setattr({ast.unparse(node.args[0])}, ...)")
    return found


def test_no_ui_module_edits_a_build_itself():
    ui = Path(rigbuilder.ui.__file__).parent
    bad = {p.name: m for p in sorted(ui.glob("*.py")) if (m := _mutations(ast.parse(p.read_text())))}
    assert bad == {}


def test_the_scan_finds_the_old_ways():
    """The scan above is not blind: the ways the window used to edit builds are caught."""
    old = ("b.gpus.append(GpuPlacement(part_id, position))\n"
           "b.gpus[idx].position = position\n"
           "setattr(b, kind, part_id)\n"
           "self.doc.build.gpus[0].power_limit_w = 5\n"
           "build.name, build.notes = name, notes\n")
    assert len(_mutations(ast.parse(old))) == 6


def test_refused_drop_says_why_in_the_status_bar(make_window):
    win = make_window(frank_2070(1))  # the X399 board has no slot at position 4
    before = win.doc.build.clone()
    win.edits.drop_part(ZOTAC_2070, 4, False)
    assert win.doc.build == before and not win.doc.undo_stack.canUndo()
    msg = win.statusBar().currentMessage()
    assert "no slot at position 4" in msg and "GPU 2" in msg


def test_drop_below_the_last_slot_lands_on_a_real_position(make_window, qtbot, tmp_path):
    """Issue 12: a card dropped far below the slots got position 21-57 and the file would not open."""
    win = make_window(x99_4x3090(None))
    win.show()
    qtbot.waitExposed(win)
    scene = win.board_view.board_scene
    assert scene.position_at(scene.y_of(7) + 40 * 20.32) == 7
    assert scene.position_at(-5000) == 1
    win.doc.push(__import__("rigbuilder.domain.edits", fromlist=["RemoveItem"]).RemoveItem("gpu", 3))
    mime = catalog_mime(win, ZOTAC_2070)
    far_below = QPointF(60, scene.y_of(7) + 15 * 20.32)
    if not scene.riser_rect.contains(far_below):
        drag_drop(win.board_view, mime, far_below)
    assert all(g.position is None or 1 <= g.position <= 7 for g in win.doc.build.gpus)
    path = tmp_path / "b.rig"
    assert win.files.write(path)
    from rigbuilder.files.buildfile import load

    assert load(path) == win.doc.build


def test_power_limit_for_all_gpus(make_window):
    win = make_window(x99_4x3090(None))
    win.dialogs.power_limit = 280
    win.edits.ask_all_power_limits()
    assert [g.power_limit_w for g in win.doc.build.gpus] == [280.0] * 4
    assert win.dialogs.asked_all == (4, None, 350)
    assert win.doc.undo_stack.undoText() == "Power limit all GPUs 280 W"
    win.dialogs.power_limit = 350  # full power: no limit
    win.edits.ask_all_power_limits()
    assert [g.power_limit_w for g in win.doc.build.gpus] == [None] * 4
    win.doc.undo_stack.undo()
    win.doc.undo_stack.undo()
    assert [g.power_limit_w for g in win.doc.build.gpus] == [None] * 4 and not win.doc.undo_stack.canUndo()


def test_save_refusing_a_build_says_so(make_window, tmp_path):
    from rigbuilder.domain.build import GpuPlacement

    win = make_window(frank_2070(1))
    win.doc.build.gpus.append(GpuPlacement(ZOTAC_2070, 40))  # test only: a build no edit would make
    assert not win.files.write(tmp_path / "x.rig")
    assert "gpus[1].position" in win.dialogs.errors[-1][1]
    assert not (tmp_path / "x.rig").exists()


def test_the_document_says_what_changed(qtbot, index):
    from rigbuilder.domain.edits import Rename, SetPowerLimit

    doc = BuildDocument(index, x99_4x3090())
    with qtbot.waitSignal(doc.edited) as got:
        doc.push(SetPowerLimit(1, 200))
    assert got.args[0].gpus == {1} and not got.args[0].roles
    with qtbot.waitSignal(doc.edited) as got:
        doc.push(Rename("Lab", ""))
    assert got.args[0].meta and not got.args[0].parts
    assert doc.context.build is doc.build
    doc.undo_stack.clear()  # the commands go while their document lives (none left for the garbage collector)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_document_undo_back_to_start_and_redo(qtbot, index, data):
    """Random edits through the document: undo all gives the identical build, redo all gives the
    build that applying the same edits directly gives."""
    start = data.draw(st.sampled_from([frank_2070(2), x99_4x3090()]))
    doc = BuildDocument(index, start.clone())
    direct = start.clone()
    for edit in data.draw(st.lists(edits_strategy(index), max_size=15)):
        try:
            doc.push(edit)
        except EditError:
            continue
        direct = edit.applied_to(direct, index)
    end = doc.build.clone()
    assert end == direct
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.build == start
    while doc.undo_stack.canRedo():
        doc.undo_stack.redo()
    assert doc.build == end
    assert doc.findings == __import__("rigbuilder.rules.engine", fromlist=["run_checks"]).run_checks(doc.build, index)
    doc.undo_stack.clear()  # as above: a worker crashed collecting the documents of earlier examples


def test_riser_area_drop_of_a_gpu(make_window):
    win = make_window(x99_4x3090(None))
    win.edits.drop_part(RTX3090_FE, None, True)
    assert win.doc.build.gpus[-1].mount == MOUNT_RISER


def test_parts_list_removal_is_one_undoable_edit(make_window):
    """The parts panel's removeRequested (context menu "Remove") was declared but never emitted."""
    win = make_window(frank_2070(1))
    win.right_tabs.setCurrentWidget(win.parts_panel)
    tree = win.parts_panel.tree
    row = next(i for i in range(tree.topLevelItemCount())
               if tree.topLevelItem(i).data(0, 0x0100) == ("storage", 1))
    tree.setCurrentItem(tree.topLevelItem(row))
    win.parts_panel.remove_selected()
    assert [s.part_id for s in win.doc.build.storage] == ["sto-samsung-970-evo-500gb"]
    assert win.doc.undo_stack.undoText() == "Remove storage"


def test_views_listen_to_what_changed(make_window, monkeypatch):
    """A new name redraws no board and refills no findings; a power limit does refill them."""
    from rigbuilder.domain.edits import Rename, SetPowerLimit

    win = make_window(x99_4x3090())
    calls = []
    monkeypatch.setattr(win.board_view.board_scene, "show_build", lambda *a: calls.append("board"))
    monkeypatch.setattr(win.findings_panel, "show_findings", lambda *a: calls.append("findings"))
    win.doc.push(Rename("Renamed", "notes"))
    assert calls == [] and "Renamed" in win.windowTitle()
    win.doc.push(SetPowerLimit(0, 200))
    assert sorted(calls) == ["board", "findings"]


def test_preview_returns_what_the_edit_would_cause(index):
    from rigbuilder.domain.edits import AddGpu

    doc = BuildDocument(index, frank_2070(1))  # GPU 1 in position 1: a card in 3 starves its fans
    new = doc.preview(AddGpu(ZOTAC_2070, 3))
    assert "thermal.open-air-gap" in {f.code for f in new}
    assert not {(f.code, f.message) for f in new} & {(f.code, f.message) for f in doc.findings}
    assert len(doc.build.gpus) == 1 and not doc.undo_stack.canUndo()
    import pytest

    with pytest.raises(EditError, match="no slot at position 4"):
        doc.preview(AddGpu(ZOTAC_2070, 4))


def test_import_with_a_damaged_user_database_says_so(qtbot, index, tmp_path):
    """Issue 24: a damaged database is moved aside (and a fresh one started) when the catalog
    opens; one the window must not change (here, a newer rigbuilder's) refuses the import."""
    import sqlite3

    from PySide6.QtCore import QSettings

    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths
    from rigbuilder.ui.main_window import MainWindow
    from tests.ui.conftest import FakeDialogs

    paths = Paths.from_env()
    paths.user_db.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(paths.user_db)
    con.execute("create table alembic_version (version_num varchar(32) not null)")
    con.execute("insert into alembic_version values ('0999')")
    con.commit()
    con.close()
    cat = open_catalog(paths)
    win = MainWindow(cat.index, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                     dialogs_factory=FakeDialogs, catalog=cat)
    qtbot.addWidget(win)
    (tmp_path / "mine.json").write_text("[]")
    win.dialogs.next_open = str(tmp_path / "mine.json")
    win.imports.import_parts()
    assert win.dialogs.errors and "written by a newer rigbuilder" in win.dialogs.errors[-1][1]


def test_a_refused_setting_puts_the_controls_back(make_window):
    from PySide6.QtCore import QSignalBlocker

    win = make_window(x99_4x3090(region="US-15A"))
    panel = win.graphs_loader.load()
    with QSignalBlocker(panel.region):
        panel.region.setCurrentIndex(panel.region.findData("EU-16A"))  # what the user picked...
    panel.settingsEdited.emit({"region": "MARS"})  # ...arrives as a value the build refuses
    assert win.doc.build.settings.region == "US-15A" and "Not done" in win.statusBar().currentMessage()
    assert panel.region.currentData() == "US-15A"
