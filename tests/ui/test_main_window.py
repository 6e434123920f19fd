"""Drive the real window: drag from the catalog, move, undo, redo, delete, save and reopen."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rigbuilder.rules.engine import run_checks
from rigbuilder.ui.boardview import PART_MIME
from tests.builds import ZOTAC_2070, frank_2070, x99_4x3090


def drag_drop(view, mime: QMimeData, scene_pos: QPointF) -> None:
    """DragEnter, DragMove, Drop sent straight to the view's viewport (QDrag.exec does not run offscreen)."""
    target = view.viewport()
    pt = view.mapFromScene(scene_pos)
    actions = Qt.DropAction.CopyAction
    for cls in (QDragEnterEvent, QDragMoveEvent):
        ev = cls(pt, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(target, ev)
    drop = QDropEvent(QPointF(pt), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, drop)


def catalog_mime(win, part_id):
    panel = win.catalog_panel
    panel.kind.setCurrentIndex(panel.kind.findData("gpu"))
    panel.search.setText("2070 AMP")
    assert panel.select_part(part_id)
    mime = panel.model.mimeData([panel.table.currentIndex()])
    assert bytes(mime.data(PART_MIME)).decode() == part_id  # the drag carries only the id
    return mime


def slot_point(win, position):
    scene = win.board_view.board_scene
    return QPointF(60, scene.y_of(position))


def test_drag_from_catalog_onto_slot_then_move_undo_redo_delete(make_window, qtbot, index):
    b = frank_2070(1)
    win = make_window(b)
    win.show()
    qtbot.waitExposed(win)
    mime = catalog_mime(win, ZOTAC_2070)
    drag_drop(win.board_view, mime, slot_point(win, 3))
    assert [(g.part_id, g.position) for g in win.doc.build.gpus] == [(ZOTAC_2070, 1), (ZOTAC_2070, 3)]
    # findings panel and board markings match the engine
    engine = run_checks(win.doc.build, index)
    assert win.findings_panel.findings == engine
    assert any(f.code == "thermal.open-air-gap" for f in engine)
    item = win.board_view.board_scene.card_items[0]
    assert item.pen().color().name() == "#d93025"  # GPU 1 starved: red outline
    # move GPU 2 from position 3 to 5 by dragging the card
    view = win.board_view
    start = view.mapFromScene(QPointF(150, view.board_scene.y_of(3) + 10))
    end = view.mapFromScene(QPointF(150, view.board_scene.y_of(5) + 10))
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(view.viewport(), end)
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert win.doc.build.gpus[1].position == 5
    assert not any(f.code == "thermal.open-air-gap" for f in win.doc.findings)
    win.act_undo.trigger()
    assert win.doc.build.gpus[1].position == 3
    win.act_redo.trigger()
    assert win.doc.build.gpus[1].position == 5
    # delete with the Delete key on the selected card
    view.selected_gpu = 1
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert len(win.doc.build.gpus) == 1
    win.act_undo.trigger()
    assert len(win.doc.build.gpus) == 2


def test_hover_shows_what_the_drop_would_cause(make_window, qtbot):
    win = make_window(frank_2070(1))
    mime = catalog_mime(win, ZOTAC_2070)
    view = win.board_view
    pt = view.mapFromScene(slot_point(win, 3))
    QApplication.sendEvent(view.viewport(), QDragEnterEvent(pt, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    QApplication.sendEvent(view.viewport(), QDragMoveEvent(pt, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    label = view.preview_label
    assert not label.isHidden()
    text = label.text()
    # Readable: where, then what is wrong in words (the code only trails)
    assert text.startswith("GPU 2 \u2192 position 3")
    assert "in front of" in text and "thermal.open-air-gap" in text
    # always inside the view
    assert view.viewport().rect().contains(label.geometry())
    assert len(win.doc.build.gpus) == 1  # hovering changes nothing
    QApplication.sendEvent(view.viewport(), QDragLeaveEvent())
    assert label.isHidden() and view.board_scene.hover_rect is None


def test_preview_stays_inside_a_small_view(make_window, qtbot):
    """Near the view's edges (a small window, the last slot, the riser area) the words are moved in."""
    win = make_window(frank_2070(1))
    win.show()
    win.resize(900, 560)
    qtbot.waitExposed(win)
    view = win.board_view
    mime = catalog_mime(win, ZOTAC_2070)
    for pos in (2, 3, 7):
        pt = view.mapFromScene(slot_point(win, pos))
        QApplication.sendEvent(view.viewport(), QDragEnterEvent(pt, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
        QApplication.sendEvent(view.viewport(), QDragMoveEvent(pt, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
        assert not view.preview_label.isHidden(), pos
        assert view.viewport().rect().contains(view.preview_label.geometry()), pos
    riser = view.mapFromScene(view.board_scene.riser_rect.center())
    QApplication.sendEvent(view.viewport(), QDragMoveEvent(riser, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert "riser" in view.preview_label.text()
    assert view.viewport().rect().contains(view.preview_label.geometry())


def test_drag_image_is_the_card_to_scale(make_window, qtbot):
    """The catalog drag shows the card itself at the drawing's scale, translucent, hot spot on its
    slot line; not the 330 px table row."""
    from PySide6.QtGui import QColor
    win = make_window(frank_2070(1))
    win.show()
    qtbot.waitExposed(win)
    part = win.doc.index.get(ZOTAC_2070)
    pm, hot = win.board_view.card_pixmap(part)
    scale = win.board_view.transform().m11()
    assert abs(pm.width() - 2 - part.length_mm * scale) <= 1.5
    assert abs(pm.height() - 2 - part.slot_width * 20.32 * scale) <= 1.5
    img = pm.toImage()
    alpha = QColor(img.pixel(pm.width() // 2, pm.height() - 4)).alpha() if img.hasAlphaChannel() else 255
    assert img.hasAlphaChannel() and 0 < img.pixelColor(pm.width() // 2, pm.height() - 4).alpha() < 255, alpha
    assert 0 < hot.y() < pm.height() // 2
    assert win.catalog_panel.table.drag_pixmap == win.board_view.card_pixmap
    psu = win.doc.index.get("psu-evga-supernova-1600-t2")
    tag, _ = win.board_view.card_pixmap(psu)
    assert tag.height() < 40  # other parts: a small name tag


def test_dropping_other_parts_sets_them(make_window):
    win = make_window()
    mime = QMimeData()
    mime.setData(PART_MIME, b"mb-asrock-x99-ws-e")
    drag_drop(win.board_view, mime, QPointF(50, 50))
    assert win.doc.build.motherboard == "mb-asrock-x99-ws-e"
    assert win.board_view.board_scene.slot_items  # the board's slots are drawn
    win.act_undo.trigger()
    assert win.doc.build.motherboard is None


def test_save_and_reopen(make_window, tmp_path):
    win = make_window(frank_2070(2, positions=(1, 5)))
    win.edits.drop_part("psu-evga-supernova-1600-t2", None, False)
    assert win.doc.dirty
    win.dialogs.next_save = str(tmp_path / "mine.rig")
    assert win.files.save()
    assert not win.doc.dirty and "mine.rig" in win.windowTitle() and not win.isWindowModified()
    other = make_window()
    assert other.open_path(str(tmp_path / "mine.rig"))
    assert other.doc.build == win.doc.build
    assert other.files.recent()[0].endswith("mine.rig")


def test_unsaved_changes_prompt(make_window, tmp_path):
    win = make_window(frank_2070(1))
    win.edits.drop_part(ZOTAC_2070, None, False)
    win.dialogs.discard_answer = "cancel"
    win.files.new_build()
    assert len(win.doc.build.gpus) == 2  # cancelled: nothing lost
    win.dialogs.discard_answer = "discard"
    win.files.new_build()
    assert win.doc.build.gpus == []


def test_bad_file_shows_error_and_keeps_build(make_window, tmp_path):
    win = make_window(frank_2070(1))
    bad = tmp_path / "bad.rig"
    bad.write_text('{"format": "rigbuilder-build", "format_version": 1, "gpus": "lots"}')
    assert not win.open_path(str(bad), ask=False)
    assert win.dialogs.errors and "gpus" in win.dialogs.errors[0][1]
    assert len(win.doc.build.gpus) == 1


def test_selecting_a_finding_highlights_its_cards(make_window):
    win = make_window(frank_2070(4))
    tree = win.findings_panel.tree
    gap = next(i for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(1) == "thermal.open-air-gap")
    tree.setCurrentItem(tree.topLevelItem(gap))
    finding = win.findings_panel.findings[gap]
    assert len(finding.gpus) >= 2
    from PySide6.QtWidgets import QGraphicsRectItem

    from rigbuilder.ui.boardview import COLORS

    scene = win.board_view.board_scene
    frames = sorted(it.rect().getRect() for it in scene.items() if isinstance(it, QGraphicsRectItem)
                    and it.zValue() == 30 and it.pen().color() == COLORS["highlight"])
    cards = sorted(scene.card_items[n - 1].rect().adjusted(-3, 0, 3, 0).getRect() for n in finding.gpus)
    assert frames == cards  # exactly the finding's cards are framed (their slots are under them)
    tree.setCurrentItem(None)
    assert not [it for it in scene.items() if it.zValue() == 30 and isinstance(it, QGraphicsRectItem)]


def test_arrange_is_one_undoable_step(make_window):
    win = make_window(frank_2070(2, positions=(1, 3)))
    win.edits.arrange_gpus()
    assert not [f for f in win.doc.findings if f.code == "thermal.open-air-gap"]
    assert win.doc.undo_stack.count() == 1
    win.edits.arrange_gpus()  # already the best placement: no second undo entry
    assert win.doc.undo_stack.count() == 1 and not win.dialogs.infos
    win.act_undo.trigger()
    assert [g.position for g in win.doc.build.gpus] == [1, 3]


def test_arrange_says_what_would_fit_when_nothing_does(make_window):
    from tests.builds import RTX3090_FE, x99_4x3090
    win = make_window(x99_4x3090(None, RTX3090_FE))
    win.edits.arrange_gpus()
    assert win.dialogs.infos and "risers" in win.dialogs.infos[0][1]
    assert not any(f.code == "slot.overlap" for f in win.doc.findings)
    assert win.doc.undo_stack.count() == 1


def test_power_limit_from_dialog(make_window):
    win = make_window(frank_2070(1))
    before = win.doc.context.power.share("gpu", "training")
    win.dialogs.power_limit = 150
    win.edits.ask_power_limit(0)
    assert win.doc.build.gpus[0].power_limit_w == 150
    assert before > 150 and win.doc.context.power.share("gpu", "training") == 150
    win.dialogs.power_limit = None  # cancelled: nothing changes
    win.edits.ask_power_limit(0)
    assert win.doc.undo_stack.count() == 1


def test_graphs_load_after_the_window_shows_and_follow_every_edit(make_window, qtbot):
    win = make_window(frank_2070(2, positions=(1, 5)))
    win.show()
    qtbot.waitUntil(lambda: win.graphs is not None, timeout=30000)  # loaded a piece a turn after the window shows
    g = win.graphs
    assert len([r for r in g.limit_rows if r.isVisible()]) == 2
    month = g.cost.running.cost_per_month
    g.price.setValue(0.60)  # a control edit becomes one undoable build edit, graphs follow at once
    assert win.doc.build.settings.price_per_kwh == 0.60 and win.doc.undo_stack.count() == 1
    assert g.cost.running.cost_per_month == pytest.approx(2 * month)
    assert f"{2 * month:.2f}" in g.figures.text()
    gpu_bar = list(g.bar_heights["gpu"])
    g.limit_rows[1].slider.setValue(140)
    assert win.doc.build.gpus[1].power_limit_w == 140
    assert g.bar_heights["gpu"][1] == pytest.approx(gpu_bar[1] - (g.limit_rows[1].shown.board_w - 140))
    win.act_undo.trigger()
    win.act_undo.trigger()
    assert win.doc.build.settings.price_per_kwh == 0.30 and win.doc.build.gpus[1].power_limit_w is None
    assert g.price.value() == pytest.approx(0.30) and g.cost.running.cost_per_month == pytest.approx(month)
    assert list(g.bar_heights["gpu"]) == gpu_bar


def test_board_redrawn_only_when_the_drawing_changes(make_window, qtbot):
    win = make_window(frank_2070(2, positions=(1, 5)))
    scene = win.board_view.board_scene
    card = scene.card_items[0]
    win.edits.set_power_limit(0, 150)  # not drawn on the board
    assert scene.card_items[0] is card
    win.edits.move_gpu(1, 3, False)  # drawn: the board and its gap marking change
    assert scene.card_items[0] is not card
    assert any(f.code == "thermal.open-air-gap" for f in win.doc.findings)


def test_card_dropped_back_on_its_own_slot_is_no_edit(make_window, qtbot):
    win = make_window(frank_2070(2, positions=(1, 5)))
    win.show()
    view = win.board_view
    item = view.board_scene.card_items[1]
    pos0 = item.pos()
    start = view.mapFromScene(QPointF(150, view.board_scene.y_of(5) + 10))
    end = view.mapFromScene(QPointF(170, view.board_scene.y_of(5) + 14))
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(view.viewport(), end)
    assert item.pos() != pos0  # the card follows the mouse
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert win.doc.undo_stack.count() == 0
    assert view.board_scene.card_items[1] is item and item.pos() == pos0  # snapped back


def test_window_layout_restored(qtbot, index, tmp_path):
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QDockWidget

    from rigbuilder.ui.main_window import MainWindow
    from tests.ui.conftest import FakeDialogs
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w1 = MainWindow(index, settings, dialogs_factory=FakeDialogs)
    qtbot.addWidget(w1)
    w1.show()
    w1.findChild(QDockWidget, "dock-Findings").hide()
    w1.close()
    assert settings.value("window/geometry") is not None
    w2 = MainWindow(index, settings, dialogs_factory=FakeDialogs)
    qtbot.addWidget(w2)
    w2.show()
    assert not w2.findChild(QDockWidget, "dock-Findings").isVisible()
    assert w2.findChild(QDockWidget, "dock-Catalog").isVisible()
    w2.close()


@pytest.mark.parametrize("fmt", ["pdf", "md", "csv", "txt", "html"])
def test_file_export_writes_every_format(make_window, tmp_path, fmt):
    import subprocess
    win = make_window(frank_2070(2, positions=(1, 5)))
    win.dialogs.next_save = str(tmp_path / "parts")  # no extension typed: the format's is added
    win.reports.export(fmt)
    assert not win.dialogs.errors
    out = tmp_path / f"parts.{fmt}"
    data = out.read_bytes()
    if fmt == "pdf":
        assert data.startswith(b"%PDF")
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
        assert "ZOTAC" in text and "Board layout" in text
    else:
        assert b"ZOTAC" in data
    if fmt == "html":
        assert b"data:image/svg+xml;base64," in data  # the board drawing travels with the file (SVG: text stays text)


def test_export_to_an_unwritable_place_says_so(make_window, tmp_path):
    win = make_window(frank_2070(1))
    win.dialogs.next_save = str(tmp_path / "no-such-folder" / "parts.md")
    win.reports.export("md")
    assert win.dialogs.errors and "no-such-folder" in win.dialogs.errors[0][1]


def test_printed_report_carries_the_board_drawing(make_window):
    win = make_window(frank_2070(1))
    assert "data:image/svg+xml;base64," in win.reports.html()
    win.reports.print_preview()
    assert win.reports.preview.isVisible()
    win.reports.preview.close()


def test_import_parts_from_the_file_menu(qtbot, tmp_path):
    """A build naming a part the catalog lacks finds it once the user imports it; a bad file
    imports nothing and says which row and field."""
    import dataclasses
    import json

    from PySide6.QtCore import QSettings

    from rigbuilder.catalog.schema import part_to_dict
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths
    from rigbuilder.ui.main_window import MainWindow
    from tests.ui.conftest import FakeDialogs

    cat = open_catalog(Paths.from_env())
    win = MainWindow(cat.index, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                     dialogs_factory=FakeDialogs, catalog=cat)
    qtbot.addWidget(win)
    b = frank_2070(1)
    b.gpus[0].part_id = "gpu-my-shop-rtx-2070-special"
    win.doc.replace(b, None)
    assert any(f.code == "catalog.missing" for f in win.doc.findings)
    mine = dataclasses.replace(cat.index.get(ZOTAC_2070), id="gpu-my-shop-rtx-2070-special",
                               model="RTX 2070 Special", maker="My Shop")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"kind": "gpu", **part_to_dict(mine), "vram_gb": "lots"}]))
    win.dialogs.next_open = str(bad)
    win.imports.import_parts()
    assert win.dialogs.errors and "vram_gb" in win.dialogs.errors[0][1] and "nothing was imported" in win.dialogs.errors[0][1]
    assert "gpu-my-shop-rtx-2070-special" not in cat.index
    good = tmp_path / "mine.json"
    good.write_text(json.dumps([{"kind": "gpu", **part_to_dict(mine)}]))
    win.dialogs.next_open = str(good)
    win.imports.import_parts()
    assert "gpu-my-shop-rtx-2070-special" in cat.index
    assert not any(f.code == "catalog.missing" for f in win.doc.findings)
    win.catalog_panel.kind.setCurrentIndex(win.catalog_panel.kind.findData("gpu"))
    assert win.catalog_panel.select_part("gpu-my-shop-rtx-2070-special")  # listed in the browser
    win.doc.undo_stack.setClean()
    win.close()


def test_empty_build_says_there_is_nothing_to_report(make_window):
    win = make_window()
    assert win.findings_panel.summary.text().startswith("No findings")
    assert win.findings_panel.tree.topLevelItemCount() == 0


def test_build_name_and_notes_are_an_undoable_edit(make_window):
    win = make_window(frank_2070(1))
    win.dialogs.name_and_notes = ("Frank's box", "for the lab, <b>quiet</b>")
    win.edits.edit_name_and_notes()
    assert (win.doc.build.name, win.doc.build.notes) == ("Frank's box", "for the lab, <b>quiet</b>")
    assert "Frank's box" in win.windowTitle()
    assert "Frank&#x27;s box" in win.reports.html() and "&lt;b&gt;quiet" in win.reports.html()
    win.act_undo.trigger()
    assert win.doc.build.name != "Frank's box"
    win.dialogs.name_and_notes = None  # cancelled
    win.edits.edit_name_and_notes()
    assert win.doc.undo_stack.count() == 1


def test_toolbar_undo_redo_follow_the_stack(make_window):
    win = make_window(frank_2070(1))
    assert not win.history.undo.isEnabled() and not win.history.redo.isEnabled()
    win.edits.set_power_limit(0, 150)
    assert win.history.undo.isEnabled() and "Power limit GPU 1" in win.history.tooltip(win.history.undo)
    assert win.history.undo.text() == "Undo"  # fixed: the toolbar does not resize on every edit
    win.history.undo.trigger()
    assert win.doc.build.gpus[0].power_limit_w is None and win.history.redo.isEnabled()
    win.history.redo.trigger()
    assert win.doc.build.gpus[0].power_limit_w == 150


def test_riser_cards_say_where_their_cable_goes(make_window):
    from PySide6.QtWidgets import QGraphicsSimpleTextItem
    b = frank_2070(2, positions=(1, 5))
    b.gpus[1].mount = "riser"
    b.gpus[1].position = None
    win = make_window(b)
    texts = [it.text() for it in win.board_view.board_scene.items() if isinstance(it, QGraphicsSimpleTextItem)]
    assert any("riser not plugged in" in t for t in texts)
    win.edits.move_gpu(1, None, True)  # already on a riser: nothing changes
    b2 = win.doc.build.clone()
    b2.gpus[1].position = 3
    win.doc.replace(b2, None)
    texts = [it.text() for it in win.board_view.board_scene.items() if isinstance(it, QGraphicsSimpleTextItem)]
    assert any("riser to position 3" in t for t in texts)


def test_parts_list_shows_the_build_when_its_tab_opens(make_window, index):
    win = make_window(x99_4x3090())
    win.right_tabs.setCurrentWidget(win.parts_panel)
    tree = win.parts_panel.tree

    def labels():  # the lines, and under a line of several cards, each card
        out = []
        for i in range(tree.topLevelItemCount()):
            it = tree.topLevelItem(i)
            out += [it.text(0)] + [it.child(j).text(0) for j in range(it.childCount())]
        return out

    # Four identical cards: one line with quantity 4, as the printed list has it, each card under it.
    gpu_lines = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                 if tree.topLevelItem(i).text(0).startswith("GPU:")]
    assert len(gpu_lines) == 1 and gpu_lines[0].text(1) == "4" and gpu_lines[0].childCount() == 4
    win.right_tabs.setCurrentIndex(0)  # the power tab: edits while the list is hidden
    win.remove_gpu(3)
    win.edits.set_power_limit(0, 250)
    win.right_tabs.setCurrentWidget(win.parts_panel)
    assert sum(t.startswith("GPU ") and " at position " in t for t in labels()) == 3
    assert any("limit 250 W" in t for t in labels())
    win.act_undo.trigger()  # and while it is shown, every edit
    assert not any("limit 250 W" in t for t in labels())
    # The rows carry what they are: the first is the board, and removing it empties the list's row.
    tree.setCurrentItem(tree.topLevelItem(0))
    assert win.parts_panel.selected() == ("motherboard", 0)
    win.edits.remove_part(*win.parts_panel.selected())
    assert win.doc.build.motherboard is None
    assert not any(t.startswith("Motherboard") for t in labels())


def test_graphs_that_cannot_load_say_so_and_the_rest_works(make_window, qtbot, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "rigbuilder.ui.graphs", None)  # as if pyqtgraph were missing
    win = make_window(frank_2070(2, positions=(1, 5)))
    win.show()
    qtbot.waitUntil(lambda: "could not be loaded" in getattr(win.graphs_loader.place.widget(), "text", lambda: "")(),
                    timeout=30000)
    assert win.graphs is None and win.graphs_loader.load() is None
    win.edits.set_power_limit(0, 150)  # edits and checks go on without the graphs
    assert win.doc.build.gpus[0].power_limit_w == 150 and win.findings_panel.findings == win.doc.findings


def test_board_drawing_stays_fitted_to_the_view(make_window, qtbot):
    from tests.builds import RTX3090_FE

    win = make_window(x99_4x3090())
    win.show()
    view = win.board_view

    def fitted() -> bool:
        rect = view.board_scene.sceneRect()
        free = view.viewport().rect().adjusted(2, 2, -2, -2)
        scale = min(free.width() / rect.width(), free.height() / rect.height())
        return abs(view.transform().m11() - scale) < 1e-6 and abs(view.transform().m22() - scale) < 1e-6

    QApplication.processEvents()
    assert fitted()
    for _ in range(3):  # the riser area grows with each card: the drawing is refitted when it must be
        win.edits.drop_part(RTX3090_FE, None, True)
        assert fitted()
    win.act_undo.trigger()
    assert fitted()
    win.resize(900, 700)
    QApplication.processEvents()
    assert fitted()


def test_toolbar_undo_says_what_it_undoes(make_window):
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    win = make_window(frank_2070(2, positions=(1, 5)))
    win.show()
    assert win.history.tooltip(win.history.undo) == "Undo" and win.history.tooltip(win.history.redo) == "Redo"
    win.edits.set_power_limit(0, 150)
    undo_text = win.history.tooltip(win.history.undo)
    assert undo_text == "Undo Power limit GPU 1: 150 W (Ctrl+Z)"
    win.act_undo.trigger()
    redo_text = win.history.tooltip(win.history.redo)
    assert redo_text == "Redo" + undo_text[4:].replace("(Ctrl+Z)", "(Ctrl+Shift+Z)")
    # Hovering the toolbar's Redo button shows it.
    button = [b for b, a in win.history.buttons.items() if a is win.history.redo][0]  # noqa: SLF001
    QApplication.sendEvent(button, QHelpEvent(QEvent.Type.ToolTip, QPoint(5, 5), button.mapToGlobal(QPoint(5, 5))))
    assert QToolTip.text() == redo_text


def test_first_window_fits_a_1366x768_screen():
    """Issue 13 item 12: the first window takes the available screen, not a fixed 1440x900."""
    from PySide6.QtCore import QRect

    from rigbuilder.ui.main_window import first_window_size
    s = first_window_size(QRect(0, 0, 1366, 768 - 32))  # a 32 px taskbar
    assert s.width() <= 1366 - 16 and s.height() <= 768 - 32 - 40
    big = first_window_size(QRect(0, 0, 2560, 1400))
    assert (big.width(), big.height()) == (1440, 900)


def test_window_minimum_fits_1366x768(make_window):
    """Every panel's minimum fits the size chosen for a 1366x768 screen: nothing is pushed off-screen."""
    from PySide6.QtCore import QRect

    from rigbuilder.ui.main_window import first_window_size
    w = make_window(x99_4x3090())
    s = first_window_size(QRect(0, 0, 1366, 768))
    m = w.minimumSizeHint()
    assert m.width() <= s.width() and m.height() <= s.height(), (m, s)


def test_file_dialogs_start_beside_the_build_and_follow_its_name(make_window, tmp_path):
    """Issue 13 item 13: dialogs start beside the open build; Export suggests the build file's
    name; the printed title of a build never named follows the name it was saved under."""
    from rigbuilder.domain.build import Build
    folder = tmp_path / "rigs"
    folder.mkdir()
    win = make_window(Build(gpus=x99_4x3090().gpus))
    win.dialogs.next_save = str(folder / "x99-4x3090.rig")
    assert win.files.save_as()
    win.dialogs.next_open = None
    win.files.open_dialog()
    assert win.dialogs.last_start == str(folder)
    win.imports.import_parts()
    assert win.dialogs.last_start == str(folder)
    win.dialogs.next_save = None
    win.reports.export("pdf")
    assert win.dialogs.last_suggested == str(folder / "x99-4x3090.pdf")
    html = win.reports.html()
    assert "x99-4x3090" in html and "Untitled build" not in html
    named = make_window(Build(name="Lab box: 4/3090"))
    named.reports.export("md")
    assert named.dialogs.last_suggested.endswith("Lab box- 4-3090.md")
