"""The board view for assistive technology (issue 43): a screen reader hears the board as a list of
its expansion positions and the cards placed on it, each with a name, a role, a state and its place
on the screen, and what covers what.

Qt describes a widget to screen readers (AT-SPI on Linux, UI Automation on Windows, NSAccessibility
on macOS) through ``QAccessibleInterface``s. A graphics view has none for the pictures it shows, so
:func:`install` registers a factory: the board view gets :class:`BoardAccessible`, whose children are
one :class:`BoardItem` per expansion position ("Position 3: slot PCIE2, x16 slot, 16 lanes, PCIe 3.0,
CPU", "covered by GPU 1") and one per card ("GPU 1: ASUS Turbo RTX 3090", "in position 1 (PCIE1),
covers positions 1-2"). Their words come from :func:`slot_words` and :func:`card_words`, which the
view also says aloud (``BoardView.announce``) when the keyboard moves along the board.

The interfaces are Python objects Qt asks: they are kept for the life of the program (Qt's cache may
hold them and deletes them itself at exit; Python must never free one first).
"""
from __future__ import annotations

from typing import Optional

import shiboken6
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QAccessibleWidget

from rigbuilder.domain.findings import Severity
from rigbuilder.render.board import SLOT_X, SOURCE_NAMES
from rigbuilder.ui.i18n import _, render_ui

_KEPT: list = []  # every interface made: see the module's docstring


def _positions(ctx, positions_drawn: int) -> int:
    board = ctx.board
    return max(positions_drawn, board.expansion_positions if board else 0)


def _problems(findings, gpu: Optional[int] = None, position: Optional[int] = None) -> list[str]:
    """The errors and warnings naming the card ``gpu`` or the position ``position``, in words."""
    out = []
    for f in findings:
        if f.severity is Severity.INFO:
            continue
        if (gpu is not None and gpu in f.gpus) or (position is not None and position in f.positions):
            word = _("error") if f.severity is Severity.ERROR else _("warning")
            out.append(_("{severity}: {message}", severity=word, message=render_ui(f.message)))
    return out


def slot_words(ctx, findings, position: int) -> tuple[str, str, dict]:
    """(name, description, facts) of an expansion position: its slot, and what holds or covers it.
    ``facts``: ``slot`` (the slot or None), ``holder`` and ``cover`` (1-based GPU numbers or None)."""
    slot = next((s for s in ctx.board.slots if s.position == position), None) if ctx.board else None
    if slot is None:
        name = _("Position {position}: no slot", position=position)
    else:
        name = _("Position {position}: slot {slot}, x{physical} slot, {lanes} lanes, PCIe {gen}.0, {source}",
                 position=position, slot=slot.id, physical=slot.physical, lanes=slot.lanes, gen=slot.gen,
                 source=_(SOURCE_NAMES.get(slot.source, slot.source)))
    holder = next((g for g in ctx.gpus if g.on_board and g.position == position), None)
    cover = next((g for g in ctx.gpus if g.on_board and g.position != position and position in g.covered), None)
    if holder is not None:
        state = _("holds GPU {num} ({name})", num=holder.num, name=holder.gpu.name)
    elif cover is not None:
        state = _("covered by GPU {num} ({name}) in position {position}", num=cover.num, name=cover.gpu.name,
                  position=cover.position)
    elif slot is None:
        state = _("a case position without a slot on the board")
    else:
        state = _("free")
    desc = "; ".join([state] + _problems(findings, position=position))
    return name, desc, {"slot": slot, "holder": holder and holder.num, "cover": cover and cover.num}


def card_words(ctx, findings, idx: int) -> tuple[str, str]:
    """(name, description) of the card ``idx`` (0-based): where it sits, what it covers, its problems."""
    g = next((g for g in ctx.gpus if g.num == idx + 1), None)
    if g is None:
        return _("GPU {num}", num=idx + 1), _("not in the catalog")
    name = _("GPU {num}: {name}", num=g.num, name=g.gpu.name)
    if g.on_board:
        slot = next((s.id for s in ctx.board.slots if s.position == g.position), None) if ctx.board else None
        covered = [p for p in g.covered if p != g.position]
        where = (_("in position {position} ({slot})", position=g.position, slot=slot) if slot else
                 _("in position {position}", position=g.position))
        if covered:
            where = _("{where}, covers positions {positions}", where=where,
                      positions=", ".join(str(p) for p in covered))
    elif g.position is not None:
        where = _("on a riser, cabled to position {position}", position=g.position)
    else:
        where = _("on a riser, not cabled to a slot")
    desc = "; ".join([where, _("{slots:g} slots wide", slots=g.gpu.slot_width)] + _problems(findings, gpu=g.num))
    return name, desc


class BoardItem(QAccessibleInterface):
    """One expansion position (``kind`` "slot", ``key`` its number) or one card ("card", its index)."""

    def __init__(self, owner: "BoardAccessible", kind: str, key: int) -> None:
        super().__init__()
        self.owner, self.kind, self.key = owner, kind, key

    # what it is
    @property
    def view(self):
        return self.owner.view

    def isValid(self) -> bool:  # noqa: N802 (Qt's names)
        if not shiboken6.isValid(self.view):
            return False
        if self.kind == "card":
            return 0 <= self.key < len(self.view.doc.build.gpus)
        return 1 <= self.key <= self.owner.position_count()

    def object(self):
        return None

    def window(self):
        return self.owner.window()

    def parent(self):
        return self.owner

    def child(self, index: int):
        return None

    def childCount(self) -> int:  # noqa: N802
        return 0

    def indexOfChild(self, child) -> int:  # noqa: N802
        return -1

    def childAt(self, x: int, y: int):  # noqa: N802
        return None

    def focusChild(self):  # noqa: N802
        return None

    def relations(self, match=QAccessible.RelationFlag.AllRelations):
        return []

    def words(self) -> tuple[str, str]:
        v = self.view
        if not self.isValid():
            return "", ""
        if self.kind == "card":
            return card_words(v.doc.context, v.doc.findings, self.key)
        name, desc, _facts = slot_words(v.doc.context, v.doc.findings, self.key)
        return name, desc

    def text(self, t) -> str:
        name, desc = self.words()
        if t == QAccessible.Text.Name:
            return name
        if t == QAccessible.Text.Description:
            return desc
        if t == QAccessible.Text.Help:
            return self.owner.text(QAccessible.Text.Help)
        return ""

    def setText(self, t, text: str) -> None:  # noqa: N802
        pass

    def role(self):
        return QAccessible.Role.ListItem

    def state(self):
        s = QAccessible.State()
        if not self.isValid():
            s.invalid = True
            return s
        v = self.view
        s.focusable = True
        s.selectable = True
        here = v.keyboard_target()
        s.focused = v.hasFocus() and here == (self.kind, self.key)
        if self.kind == "card":
            s.selected = v.selected_gpu == self.key
            s.movable = True
        else:
            _n, _d, facts = slot_words(v.doc.context, v.doc.findings, self.key)
            s.selected = facts["holder"] is not None and v.selected_gpu == facts["holder"] - 1
            s.disabled = facts["slot"] is None or facts["cover"] is not None  # no card can go in
        return s

    def scene_rect(self) -> QRectF:
        sc = self.view.board_scene
        if self.kind == "card":
            item = sc.card_items.get(self.key)
            return item.sceneBoundingRect() if item is not None else QRectF()
        item = sc.slot_items.get(self.key)
        if item is not None:
            return item.sceneBoundingRect()
        y = sc.y_of(self.key)
        return QRectF(SLOT_X - 4, y - 6, 100, 12)

    def rect(self) -> QRect:
        if not self.isValid():
            return QRect()
        v = self.view
        r = v.mapFromScene(self.scene_rect()).boundingRect()
        return QRect(v.viewport().mapToGlobal(r.topLeft()), r.size())


class BoardAccessible(QAccessibleWidget):
    """The board view as a list: its expansion positions, then its cards."""

    def __init__(self, view) -> None:
        super().__init__(view, QAccessible.Role.List, "")
        self.view = view
        self._items: dict[tuple[str, int], BoardItem] = {}

    def position_count(self) -> int:
        v = self.view
        return _positions(v.doc.context, v.board_scene.positions)

    def keys(self) -> list[tuple[str, int]]:
        v = self.view
        if not shiboken6.isValid(v):
            return []
        return ([("slot", p) for p in range(1, self.position_count() + 1)]
                + [("card", i) for i in range(len(v.doc.build.gpus))])

    def item(self, key: tuple[str, int]) -> BoardItem:
        it = self._items.get(key)
        if it is None:
            it = self._items[key] = BoardItem(self, *key)
            _KEPT.append(it)
        return it

    def childCount(self) -> int:  # noqa: N802
        return len(self.keys())

    def child(self, index: int):
        keys = self.keys()
        return self.item(keys[index]) if 0 <= index < len(keys) else None

    def indexOfChild(self, child) -> int:  # noqa: N802
        if isinstance(child, BoardItem):
            keys = self.keys()
            k = (child.kind, child.key)
            return keys.index(k) if k in keys else -1
        return -1

    def focusChild(self):  # noqa: N802
        here = self.view.keyboard_target() if shiboken6.isValid(self.view) else None
        return self.item(here) if here is not None and here in self.keys() else None

    def childAt(self, x: int, y: int):  # noqa: N802
        from PySide6.QtCore import QPoint

        for k in reversed(self.keys()):  # cards over slots
            it = self.item(k)
            if it.rect().contains(QPoint(x, y)):
                return it
        return None

    def text(self, t) -> str:
        v = self.view
        if not shiboken6.isValid(v):
            return ""
        board = v.doc.context.board
        if t == QAccessible.Text.Name:
            return (_("Board: {name}", name=board.name) if board is not None else _("Board: no motherboard chosen"))
        if t in (QAccessible.Text.Description, QAccessible.Text.Help):
            return _("Up and Down move along the expansion positions; Enter picks up the card there and Enter again "
                     "places it; Enter on a free slot places the part chosen in the catalog; Delete removes the "
                     "card; Escape puts a carried card back")
        return super().text(t)


def _factory(classname, obj):
    if getattr(obj, "ACCESSIBLE_BOARD", False):  # the board view (not imported here: it imports this module)
        iface = BoardAccessible(obj)
        _KEPT.append(iface)
        return iface
    return None


_installed = False


def install() -> None:
    """Register the board view's interfaces with Qt's accessibility (once)."""
    global _installed
    if not _installed:
        QAccessible.installFactory(_factory)
        _installed = True


def item_index(view, key: tuple[str, int]) -> int:
    """The child number of ``key`` under the board view's interface (-1 when it has none)."""
    iface = QAccessible.queryAccessibleInterface(view)
    if not isinstance(iface, BoardAccessible):
        return -1
    keys = iface.keys()
    return keys.index(key) if key in keys else -1
