"""The board for screen readers and the keyboard (issue 43): the board view's accessible tree lists
every expansion position and every card with a name, a role, a state and a place on the screen, and
what covers what; a card is picked up, carried along the slots and placed with the keys alone (one
undoable move, as a drag), a part chosen in the catalog is placed with Enter, Delete removes a card;
the focus is drawn; findings an edit brings are announced."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QGraphicsRectItem

from rigbuilder.ui.board_access import BoardAccessible, BoardItem
from tests.builds import RTX3090_BLOWER, x99_4x3090


@pytest.fixture
def board(make_window, qtbot):
    win = make_window(x99_4x3090(None))  # four 2-slot cards in positions 1, 3, 5, 7
    win.show()
    view = win.board_view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    return win, view


def _children(view):
    iface = QAccessible.queryAccessibleInterface(view)
    assert isinstance(iface, BoardAccessible)
    return iface, [iface.child(i) for i in range(iface.childCount())]


def test_the_accessible_tree_names_every_position_and_card_and_what_covers_what(board):
    win, view = board
    iface, kids = _children(view)
    assert iface.role() == QAccessible.Role.List
    assert "ASRock X99 WS-E" in iface.text(QAccessible.Text.Name)
    assert "Enter" in iface.text(QAccessible.Text.Description)
    slots = [k for k in kids if k.kind == "slot"]
    cards = [k for k in kids if k.kind == "card"]
    assert len(slots) == view.position_count() >= 7 and len(cards) == 4
    for k in kids:
        assert isinstance(k, BoardItem) and k.isValid()
        assert k.role() == QAccessible.Role.ListItem and k.text(QAccessible.Text.Name)
        assert k.parent() is iface and iface.indexOfChild(k) == kids.index(k)
        r = k.rect()
        assert r.width() > 0 and r.height() > 0, k.text(QAccessible.Text.Name)
    first = slots[0]
    assert first.text(QAccessible.Text.Name).startswith("Position 1: slot PCIE1")
    assert "holds GPU 1" in first.text(QAccessible.Text.Description)
    second = slots[1]
    assert "covered by GPU 1" in second.text(QAccessible.Text.Description)
    assert second.state().disabled and not first.state().disabled
    gpu1 = cards[0]
    assert gpu1.text(QAccessible.Text.Name).startswith("GPU 1: ")
    assert "in position 1 (PCIE1), covers positions 2" in gpu1.text(QAccessible.Text.Description)
    assert gpu1.state().focusable and gpu1.state().movable
    # the card's place on the screen is inside the board view's
    assert view.rect().translated(view.mapToGlobal(view.rect().topLeft())).intersects(gpu1.rect())
    assert iface.childAt(gpu1.rect().center().x(), gpu1.rect().center().y()) is gpu1


def test_a_card_is_carried_and_placed_by_the_keys_alone_as_one_undoable_move(board, qtbot):
    win, view = board
    b = win.doc.build
    b.gpus[:] = b.gpus[:1]  # one card, in position 1
    win.doc.replace(b, None)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    iface, _kids = _children(view)
    focus = iface.focusChild()
    assert (focus.kind, focus.key) == ("card", 0) and focus.state().focused
    assert view.announcements[-1].startswith("GPU 1: ")
    frame = view._focus_frame
    assert isinstance(frame, QGraphicsRectItem) and frame.scene() is view.board_scene  # the focus is drawn
    undo = win.doc.undo_stack.count()
    qtbot.keyClick(view, Qt.Key.Key_Return)  # pick up
    assert view.carried == 0 and "picked up" in view.announcements[-1]
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.preview_label.isVisible() and view.announcements[-1].startswith("GPU 1 \u2192 position 3")
    qtbot.keyClick(view, Qt.Key.Key_Return)  # place
    assert view.carried is None
    assert win.doc.build.gpus[0].position == 3
    assert win.doc.undo_stack.count() == undo + 1
    win.doc.undo_stack.undo()
    assert win.doc.build.gpus[0].position == 1


def test_escape_puts_a_carried_card_back(board, qtbot):
    win, view = board
    qtbot.keyClick(view, Qt.Key.Key_Home)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.carried is None and win.doc.build.gpus[0].position == 1
    assert not view.preview_label.isVisible()


def test_enter_on_a_free_position_places_the_catalogs_part_and_delete_removes_it(board, qtbot):
    win, view = board
    b = win.doc.build
    b.gpus[:] = b.gpus[:1]
    win.doc.replace(b, None)
    view.chosen_part = lambda: RTX3090_BLOWER
    qtbot.keyClick(view, Qt.Key.Key_Home)
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Down)  # position 5: free
    assert view.keyboard_target() == ("slot", 5)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert [g.position for g in win.doc.build.gpus] == [1, 5]
    assert view.keyboard_target() == ("card", 1)
    said = " ".join(view.announcements)
    assert "GPU 2: " in said
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert [g.position for g in win.doc.build.gpus] == [1]
    win.doc.undo_stack.undo()
    assert len(win.doc.build.gpus) == 2


def test_the_window_hands_the_catalogs_selection_to_the_board(board):
    win, view = board
    panel = win.catalog_panel
    panel.table.setCurrentIndex(panel.model.index(-1, 0))
    assert view.chosen_part() is None
    part = panel.model.parts[0]
    assert panel.select_part(part.id)
    assert view.chosen_part() == part.id


def test_a_move_into_trouble_is_announced(board, qtbot):
    win, view = board
    b = win.doc.build
    b.gpus[:] = b.gpus[:2]  # positions 1 and 3
    win.doc.replace(b, None)
    view.announcements.clear()
    qtbot.keyClick(view, Qt.Key.Key_Home)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.keyClick(view, Qt.Key.Key_Down)  # position 2: under GPU 2's slot, overlapping
    qtbot.keyClick(view, Qt.Key.Key_Return)
    said = " ".join(view.announcements)
    print(said)
    assert win.doc.build.gpus[0].position == 2
    assert "New problem" in said
