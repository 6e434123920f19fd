"""The motherboard drawn to scale (1 scene unit = 1 mm) with the GPUs in place.

The scene mirrors the document: it is rebuilt from the build and the engine's findings on every
change. Items are passive pictures; the view turns drops and drags into document edits.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent, QFont, QFontMetricsF, QImage, QPixmap,
                           QPainter, QPainterPath, QPen)
from PySide6.QtWidgets import (QGraphicsEllipseItem, QGraphicsItem, QGraphicsPathItem, QGraphicsRectItem, QGraphicsScene,
                               QGraphicsSimpleTextItem, QGraphicsView, QLabel, QMenu)

from rigbuilder.domain.build import MOUNT_SLOT, Build
from rigbuilder.domain.build import shown_name as build_shown_name
from rigbuilder.domain.edits import EditError, MoveGpu, edit_for_part
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.parts import GPU, SLOT_PITCH_MM, Motherboard
from rigbuilder.rules.context import Context
from rigbuilder.rules.marks import GapMark, OverlapMark, card_marks, gap_marks, overlap_marks
from rigbuilder.domain.i18n import render
from rigbuilder.ui import theme, units
from rigbuilder.ui.i18n import N_, _, render_ui, ui_language
from rigbuilder.ui.widgets import cache_as_pixmap

PART_MIME = "application/x-rigbuilder-part-id"
COOLER_NAMES = {"blower": N_("blower"), "open-air": N_("open-air"), "passive": N_("passive"), "hybrid": N_("hybrid"),
                "water-block": N_("water-block")}
"""The words shown for ``rigbuilder.domain.parts.COOLER_TYPES`` (the data keeps the English key)."""
SOURCE_NAMES = {"CPU": N_("CPU"), "chipset": N_("chipset"), "switch": N_("switch")}
"""The words shown for where a slot's or M.2 socket's lanes come from (the data keeps the English key)."""
GPU_INDEX_MIME = "application/x-rigbuilder-gpu-index"

SLOT_X = 42.0  # mm from the board's rear edge to the start of a slot connector
SLOT_LEN = {16: 89.0, 8: 56.0, 4: 39.0, 1: 25.0}
BOTTOM_MARGIN = 14.0  # mm from the last expansion position's slot to the board's bottom edge
CARD_TOP = 6.0  # the card's PCB sits this far above the slot line; its cooler hangs below

COLORS = {
    "board": QColor("#2f4f3a"), "board_edge": QColor("#1d3326"), "slot": QColor("#1a1a1a"),
    "slot_chipset": QColor("#3a3a3a"), "text": QColor("#f2f2f2"), "label": QColor("#e8f0ea"),
    "warn": QColor("#f0a020"), "error": QColor("#d93025"), "ok": QColor("#3fb950"),
    "gpu": {"open-air": QColor("#3d4a5c"), "blower": QColor("#5a4a3a"), "passive": QColor("#6b6b6b"),
            "hybrid": QColor("#3d5c5a"), "water-block": QColor("#2e4f73")},
    "bracket": QColor("#9aa0a6"), "case": QColor("#c8ccd0"), "highlight": QColor("#1a73e8"),
    "position": QColor("#8ab4f8"),
}


class _Part:
    """A catalog part (or slot) as part of a dictionary key: hashed by id, equal by value (a part
    holds dictionaries, so it has no hash of its own)."""

    __slots__ = ("obj",)

    def __init__(self, obj) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return hash(getattr(self.obj, "id", None))

    def __eq__(self, other) -> bool:
        return isinstance(other, _Part) and (self.obj is other.obj or self.obj == other.obj)


def slot_y(board: Optional[Motherboard], position: int, positions: int) -> float:
    depth = board.depth_mm if board else 305.0
    n = board.expansion_positions if board else positions
    return depth - BOTTOM_MARGIN - (n - position) * SLOT_PITCH_MM


PREVIEW_LINES = 3
PREVIEW_MARK = {Severity.ERROR: "\u2716", Severity.WARNING: "\u25b2", Severity.INFO: "\u2139"}


def _cut(text: str, n: int) -> str:
    """``text`` cut at a word to at most ``n`` characters."""
    if len(text) <= n:
        return text
    return text[:n].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"


UI_HINTS = (N_("drop cards here"), N_("Drop a motherboard here"), N_("drag one from the catalog"))
"""Words the drawing says to the person using the window; a printed drawing (``for_print``) has none."""


class BoardScene(QGraphicsScene):
    """The board drawing. ``for_print``: the drawing for paper and reports: no hints about
    dragging and dropping, the riser area only where cards sit on risers, texts drawn as text
    (not cached as pixmaps) so that a PDF keeps them as text."""

    def __init__(self, parent=None, for_print: bool = False) -> None:
        super().__init__(parent)
        self.for_print = for_print
        self.setBackgroundBrush(QColor(self.pal.scene))
        self.card_items: dict[int, QGraphicsRectItem] = {}  # gpu index -> item
        self.slot_items: dict[int, QGraphicsRectItem] = {}  # position -> slot item
        self.riser_rect = QRectF()
        self._hover: list[QGraphicsItem] = []
        self._highlight: list[QGraphicsItem] = []
        self.board: Optional[Motherboard] = None
        self.positions = 7
        self._pieces: dict[tuple, list[QGraphicsItem]] = {}  # key -> its top-level items
        self._old_pieces: dict[tuple, list[QGraphicsItem]] = {}
        self._collect: Optional[list[QGraphicsItem]] = None  # items being drawn for a piece
        self._highlighted: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self._redrawn = False  # whether the last show_build changed a piece
        small = QFont("DejaVu Sans", 1)
        small.setPointSizeF(5.2)
        tiny = QFont("DejaVu Sans", 1)
        tiny.setPointSizeF(4.2)
        self._fonts = small, tiny
        self._gap_font = QFont("DejaVu Sans", 1)
        self._gap_font.setPointSizeF(4.4)
        self._gap_font.setBold(True)

    @property
    def pal(self) -> theme.Palette:
        """The colours around the board: the window's theme on screen, light on paper."""
        return theme.LIGHT if self.for_print else theme.colors()

    def length(self, mm: float) -> str:
        """A length as the drawing labels it: the window's unit on screen, mm on paper."""
        return units.length(mm, "mm" if self.for_print else None)

    def restyle(self) -> None:
        """Forget every piece (a new theme or unit): the next ``show_build`` draws them all."""
        self.clear_hover()
        self._clear_highlight()
        for items in self._pieces.values():
            for it in items:
                self.removeItem(it)
        self._pieces = {}
        self.setBackgroundBrush(QColor(self.pal.scene))

    # -- geometry ---------------------------------------------------------------------
    def y_of(self, position: int) -> float:
        return slot_y(self.board, position, self.positions)

    def position_at(self, y: float) -> int:
        n = self.board.expansion_positions if self.board else self.positions
        depth = self.board.depth_mm if self.board else 305.0
        p = round(n - (depth - BOTTOM_MARGIN - y) / SLOT_PITCH_MM)
        return min(max(1, p), n)  # a point above or below the slots means the first or last position

    # -- building the picture ------------------------------------------------------------
    # The drawing is made of pieces (the board, each slot, each card, each mark), each drawn from
    # a key that holds everything it shows. An edit redraws only the pieces whose key changed:
    # the rest keep their items, so Qt repaints only where the picture changed.
    def _kept(self, item):
        if self._collect is not None:
            self._collect.append(item)
        return item

    def addItem(self, item: QGraphicsItem) -> None:  # noqa: N802 (Qt names)
        super().addItem(item)
        self._kept(item)

    def addRect(self, *args) -> QGraphicsRectItem:  # noqa: N802
        return self._kept(super().addRect(*args))

    def addSimpleText(self, *args) -> QGraphicsSimpleTextItem:  # noqa: N802
        return self._kept(super().addSimpleText(*args))

    def addLine(self, *args):  # noqa: N802
        return self._kept(super().addLine(*args))

    def _piece(self, key: tuple, draw: Callable[[], None]) -> list[QGraphicsItem]:
        """The items for ``key``: last drawing's if it had the same key, else drawn now."""
        items = self._old_pieces.pop(key, None)
        if items is None:
            self._redrawn = True
            self._collect = []
            try:
                draw()
                items = self._collect
            finally:
                self._collect = None
            for it in items if not self.for_print else ():
                # Texts as pixmaps: Qt lays a simple text item's text out again on every paint,
                # the costliest part of repainting the board.
                cache_as_pixmap(it, only=QGraphicsSimpleTextItem)
        self._pieces[key] = items
        return items

    def show_build(self, build: Build, ctx: Context, findings: list[Finding]) -> None:
        """Draw ``build``: only the pieces whose key changed since the last drawing."""
        self.clear_hover()
        self._old_pieces, self._pieces = self._pieces, {}
        self._redrawn = False
        self.card_items = {}
        self.slot_items = {}
        board = ctx.board
        self.board = board
        case_slots = ctx.case.expansion_slots if ctx.case else (board.expansion_positions if board else 7)
        self.positions = max(case_slots, board.expansion_positions if board else 7)
        depth = board.depth_mm if board else 305.0
        width = board.width_mm if board else 244.0
        small, tiny = self._fonts

        self._piece(("board", _Part(board), width, depth), lambda: self._draw_board(board, width, depth, small, tiny))
        self._piece(("brackets", case_slots, self.y_of(1)), lambda: self._draw_brackets(case_slots, tiny))
        longest_card = max([g.gpu.length_mm for g in ctx.gpus] + [width])
        if ctx.case is not None and ctx.case.max_gpu_length_mm and ctx.case.max_gpu_length_mm > longest_card + 60:
            pass  # the limit is far beyond every card: said in the riser area's caption instead
        elif ctx.case is not None and ctx.case.max_gpu_length_mm:
            x = ctx.case.max_gpu_length_mm
            top, bottom = self.y_of(1) - 12, self.y_of(case_slots) + SLOT_PITCH_MM
            self._piece(("case-limit", ctx.case.name, x, top, bottom),
                        lambda: self._draw_case_limit(ctx.case.name, x, top, bottom, tiny))
        # Slots with their current electrical width
        if board is not None:
            for s in board.slots:
                w = ctx.widths.get(s.id, s.lanes)
                holds_gpu = any(g.position == s.position for g in ctx.gpus)  # a card or a riser cable
                y = self.y_of(s.position)
                items = self._piece(("slot", _Part(s), y, w, holds_gpu), lambda: self._draw_slot(s, y, w, holds_gpu, tiny))
                self.slot_items[s.position] = items[0]
        # Cards on the board
        marks = card_marks(findings)
        for g in ctx.gpus:
            if g.on_board:
                idx, y = g.num - 1, self.y_of(g.position)
                items = self._piece(("card", idx, _Part(g.gpu), y, 0.0, marks.get(g.num), False, None),
                                    lambda: self._draw_card(idx, g.gpu, y, 0.0, marks, small, tiny))
                self.card_items[idx] = items[0]
        # Riser area
        risers = [g for g in ctx.gpus if not g.on_board]
        lowest = max([depth, self.y_of(case_slots) + SLOT_PITCH_MM] +
                     [self.y_of(g.position) - CARD_TOP + g.gpu.slot_width * SLOT_PITCH_MM for g in ctx.board_gpus])
        rx = 0.0
        rw = max([g.gpu.length_mm for g in risers] + [width]) + 12
        self.riser_rect = QRectF(rx, lowest + 14, rw, 22 + sum(g.gpu.slot_width * SLOT_PITCH_MM + 6 for g in risers))
        words = [] if self.for_print and not risers else [
            _("Risers / vertical mount") if self.for_print else _("Risers / vertical mount: drop cards here")]
        if ctx.case is not None and ctx.case.max_gpu_length_mm:
            words.append(_("case takes cards up to {length}", length=self.length(ctx.case.max_gpu_length_mm)))
        caption = "   ·   ".join(words)
        if len(words) > 1 and QFontMetricsF(small).horizontalAdvance(caption) > self.riser_rect.width() - 8:
            # Longer words (German, French): the case's limit on a line of its own, the area a line taller.
            caption = "\n".join(words)
            self.riser_rect.setHeight(self.riser_rect.height() + QFontMetricsF(small).lineSpacing())
        r = self.riser_rect
        if risers or not self.for_print:
            self._piece(("riser-area", r.x(), r.y(), r.width(), r.height(), caption),
                        lambda: self._draw_riser_area(caption, small))
        elif caption:  # printed without risers: the case's limit only, as a note under the board
            self._piece(("case-note", r.x(), r.y(), caption), lambda: self._draw_note(caption[:1].upper() + caption[1:], small))
        y = self.riser_rect.top() + 18 + (QFontMetricsF(small).lineSpacing() if "\n" in caption else 0.0)
        for g in risers:
            idx, y_slot = g.num - 1, y + CARD_TOP
            items = self._piece(("card", idx, _Part(g.gpu), y_slot, rx + 6, marks.get(g.num), True, g.position),
                                lambda: self._draw_card(idx, g.gpu, y_slot, rx + 6, marks, small, tiny, riser=True,
                                                        riser_to=g.position))
            self.card_items[idx] = items[0]
            y += g.gpu.slot_width * SLOT_PITCH_MM + 8
        self._draw_overlaps(overlap_marks(findings))
        self._draw_gaps(gap_marks(findings))
        for items in self._old_pieces.values():  # what this drawing no longer has
            self._redrawn = True
            for it in items:
                self.removeItem(it)
        self._old_pieces = {}
        if not self._redrawn:
            return
        self._clear_highlight()  # the drawing's own bounds, without the highlight frames
        rect = self.itemsBoundingRect().adjusted(-10, -10, 10, 10)
        if rect != self.sceneRect():
            self.setSceneRect(rect)
        self.highlight(*self._highlighted)  # still marked after the edit, where it now is

    def _draw_board(self, board: Optional[Motherboard], width: float, depth: float, small: QFont, tiny: QFont) -> None:
        b = self.addRect(QRectF(0, 0, width, depth), QPen(COLORS["board_edge"], 1.2), QBrush(COLORS["board"]))
        b.setZValue(0)
        if board is None:
            t = self.addSimpleText(_("No motherboard chosen") if self.for_print
                                   else _("Drop a motherboard here\n(drag one from the catalog)"), small)
            t.setBrush(COLORS["label"])
            t.setPos(30, 120)
            return
        w_text = self.length(width).removesuffix(" mm")  # "244 x 305 mm", "9.61 in x 12.01 in"
        size = dict(name=board.name, form_factor=board.form_factor, width=w_text, depth=self.length(depth))
        title = self.addSimpleText(_("{name}\n{form_factor} {width} x {depth}", **size) if board.verified else
                                   _("{name}\n{form_factor} {width} x {depth}  ·  layout unverified", **size), small)
        title.setBrush(COLORS["label"])
        title.setPos(6, 4)
        title.setZValue(4)
        band = self.addRect(title.sceneBoundingRect().adjusted(-2, -1, 2, 1), QPen(Qt.PenStyle.NoPen),
                            QBrush(COLORS["board"]))
        band.setZValue(3)  # over the DIMM slots it would cross
        self._draw_socket_and_dimms(board, width, tiny)

    def _draw_brackets(self, case_slots: int, tiny: QFont) -> None:
        """The case's expansion positions (brackets) on the board's rear edge."""
        for pos in range(1, case_slots + 1):
            y = self.y_of(pos)
            br = self.addRect(QRectF(-14, y - SLOT_PITCH_MM / 2 + 1.5, 10, SLOT_PITCH_MM - 3),
                              QPen(COLORS["bracket"].darker(130), 0.4), QBrush(COLORS["bracket"]))
            br.setToolTip(_("Case expansion position {position}", position=pos))
            n = self.addSimpleText(str(pos), tiny)
            n.setBrush(QColor("#333"))
            n.setPos(-11.5, y - 2.5)

    def _draw_case_limit(self, case_name: str, x: float, top: float, bottom: float, tiny: QFont) -> None:
        line = self.addLine(x, top, x, bottom, QPen(COLORS["error"], 0.8, Qt.PenStyle.DashLine))
        line.setToolTip(_("{case}: cards up to {length}", case=case_name, length=self.length(x)))
        t = self.addSimpleText(_("case limit {length}", length=self.length(x)), tiny)
        t.setBrush(QColor(self.pal.error))  # beside the board, on the scene's background
        t.setPos(x + 2, top)

    def _draw_slot(self, s, y: float, w: int, holds_gpu: bool, tiny: QFont) -> None:
        """A slot (its first item) and its label: the current electrical width."""
        length = SLOT_LEN.get(s.physical, 25.0)
        # An unconfirmed slot (no published source) gets a dashed amber outline and a '?' label; a
        # slot confirmed by a machine's slot table whose place on the board no source gives gets a
        # dotted outline around its whole expansion position and a '⇕?' label.
        pen = (QPen(Qt.PenStyle.NoPen) if s.confirmed_by
               else QPen(COLORS["warn"], 0.6, Qt.PenStyle.DashLine))
        item = self.addRect(QRectF(SLOT_X, y - 2.2, length, 4.4), pen,
                            QBrush(COLORS["slot"] if s.source != "chipset" else COLORS["slot_chipset"]))
        item.setZValue(2)
        item.setData(0, s.position)
        place_unknown = bool(s.confirmed_by) and not s.position_confirmed
        if place_unknown:
            frame = self.addRect(QRectF(SLOT_X - 3, y - SLOT_PITCH_MM / 2 + 1.2, length + 6, SLOT_PITCH_MM - 2.4),
                                 QPen(COLORS["position"], 0.6, Qt.PenStyle.DotLine), QBrush(Qt.BrushStyle.NoBrush))
            frame.setZValue(1.5)
        throttled = w < s.lanes
        # Red or amber only where it costs a GPU lanes (or a slot lost its lanes); an empty
        # x1 slot is what it is. The label sits left of the board, on the scene's background.
        if holds_gpu and w <= 1:
            color = QColor(self.pal.error)
        elif throttled or (holds_gpu and w < 8):
            color = QColor(self.pal.warning)
        else:
            color = QColor(self.pal.text)
        label = self.addSimpleText(f"{s.id}  x{w} Gen{s.gen}" + (" " + _("(x{lanes} max)", lanes=s.lanes) if throttled else "")
                                   + ("" if s.source == "CPU" else f"  · {_(SOURCE_NAMES.get(s.source, s.source))}")
                                   + ("" if s.confirmed_by else "  ?") + ("  ⇕?" if place_unknown else ""), tiny)
        label.setBrush(color)
        label.setPos(-18 - label.boundingRect().width(), y - 2.6)
        label.setZValue(2)
        source = _(SOURCE_NAMES.get(s.source, s.source))
        tip = ((_("{slot}: physical x{physical} open-ended, electrical x{width} now (x{lanes} max), PCIe {gen}.0 "
                  "from the {source}", slot=s.id, physical=s.physical, width=w, lanes=s.lanes, gen=s.gen, source=source)
                if s.open_ended else
                _("{slot}: physical x{physical}, electrical x{width} now (x{lanes} max), PCIe {gen}.0 from the {source}",
                  slot=s.id, physical=s.physical, width=w, lanes=s.lanes, gen=s.gen, source=source))
               + "\n" + (_("Confirmed by {source}", source=s.confirmed_by) if s.confirmed_by
                         else _("Unconfirmed: no published source confirmed this slot"))
               + ("\n" + _("Position {position} unconfirmed: the slot table confirms the slot, not where it sits "
                            "on the board (dotted outline).", position=s.position) if place_unknown
                  else "\n" + _("Position from {source}", source=s.position_source) if s.position_source else ""))
        item.setToolTip(tip)
        if place_unknown:
            frame.setToolTip(tip)
        label.setToolTip(tip)

    def _draw_riser_area(self, caption: str, small: QFont) -> None:
        pal = self.pal
        area = self.addRect(self.riser_rect, QPen(QColor(pal.riser_edge), 0.6, Qt.PenStyle.DashLine),
                            QBrush(QColor(pal.riser_fill)))
        area.setZValue(-1)
        t = self.addSimpleText(caption, small)
        t.setBrush(QColor(pal.riser_text))
        t.setPos(self.riser_rect.left() + 4, self.riser_rect.top() + 3)

    def _draw_note(self, text: str, small: QFont) -> None:
        t = self.addSimpleText(text, small)
        t.setBrush(QColor(self.pal.riser_text))
        t.setPos(self.riser_rect.left() + 4, self.riser_rect.top() + 3)

    def _draw_socket_and_dimms(self, board: Motherboard, width: float, font: QFont) -> None:
        sx, sy = width * 0.30, 45.0
        sock = self.addRect(QRectF(sx, sy, 68, 68), QPen(QColor("#b8b8b8"), 0.8), QBrush(QColor("#56606b")))
        sock.setToolTip(_("CPU socket {socket}", socket=board.socket))
        t = self.addSimpleText(board.socket, font)
        t.setBrush(COLORS["text"])
        t.setPos(sx + 4, sy + 30)
        n = max(1, board.dimm_slots)
        per_side = n if n <= 4 else n // 2
        for i in range(n):
            side_right = i >= per_side or n <= 4
            x0 = (sx + 82 + (i % per_side) * 8) if side_right else (sx - 14 - (i % per_side) * 8)
            d = self.addRect(QRectF(x0, 18, 5, 125), QPen(Qt.PenStyle.NoPen), QBrush(QColor("#20262c")))
            d.setToolTip(_("DIMM slot ({memory_type})", memory_type=board.memory_type))
        for i, m in enumerate(board.m2):
            x = width - 90
            r = self.addRect(QRectF(x, 150 + i * 12, 80, 6), QPen(QColor("#888"), 0.3), QBrush(QColor("#39434d")))
            r.setToolTip(_("M.2 socket {socket}: PCIe {gen}.0 x{lanes} from the {source}", socket=m.id, gen=m.gen,
                           lanes=m.lanes, source=_(SOURCE_NAMES.get(m.source, m.source))))
            lt = self.addSimpleText(m.id, font)
            lt.setBrush(COLORS["label"])
            lt.setPos(x + 2, 150 + i * 12 - 0.5)

    def _draw_card(self, idx: int, gpu: GPU, y_slot: float, x0: float, marks: dict, font: QFont, tiny: QFont,
                   riser: bool = False, riser_to: Optional[int] = None) -> None:
        h = gpu.slot_width * SLOT_PITCH_MM
        rect = QRectF(x0, y_slot - CARD_TOP, gpu.length_mm, h)
        sev = marks.get(idx + 1)
        pen = QPen(COLORS["error"] if sev is Severity.ERROR else COLORS["warn"] if sev is Severity.WARNING
                   else QColor("#11161c"), 1.4 if sev else 0.8)
        item = QGraphicsRectItem(rect)
        item.setPen(pen)
        base = COLORS["gpu"].get(gpu.cooler, QColor("#444"))
        item.setBrush(QBrush(base))
        # Opaque: a translucent card blends every child item too, and costs 2.5 ms a repaint.
        item.setZValue(5)
        item.setData(0, idx)
        if not riser:
            item.setData(1, round((y_slot - self.y_of(1)) / SLOT_PITCH_MM) + 1)
        item.setCursor(Qt.CursorShape.OpenHandCursor)
        item.setToolTip(_("GPU {num}: {name}", num=idx + 1, name=gpu.name) + "\n"
                        + _("{cooler}, {slots:g} slots, {length}, {power:g} W", cooler=_(COOLER_NAMES.get(gpu.cooler, gpu.cooler)),
                            slots=gpu.slot_width, length=self.length(gpu.length_mm), power=gpu.board_power_w)
                        + ("" if gpu.verified else "\n" + _("unverified: {fields}", fields=", ".join(gpu.unverified)))
                        + "\n" + _("Drag to move; Delete removes; right-click for power limit"))
        self.addItem(item)
        # cooler drawing: children of the card, under its label band
        dark = base.darker(160)

        def child(shape_item: QGraphicsItem) -> None:
            shape_item.setParentItem(item)
            shape_item.setZValue(1)

        top = y_slot - CARD_TOP
        if gpu.cooler == "open-air":
            nfans = 3 if gpu.length_mm > 270 else 2
            d = min(h - 17, 30.0)
            cy = top + 8.5 + (h - 17) / 2
            for k in range(nfans):
                cx = x0 + gpu.length_mm * (k + 1) / (nfans + 1)
                fan = QGraphicsEllipseItem(QRectF(cx - d / 2, cy - d / 2, d, d))
                fan.setPen(QPen(QColor("#aab4c0"), 0.6))
                fan.setBrush(QBrush(dark))
                child(fan)
                hub = QGraphicsEllipseItem(QRectF(cx - 2.5, cy - 2.5, 5, 5))
                hub.setPen(QPen(Qt.PenStyle.NoPen))
                hub.setBrush(QBrush(QColor("#aab4c0")))
                child(hub)
        elif gpu.cooler == "blower":
            d = min(h - 17, 26.0)
            housing = QGraphicsRectItem(QRectF(x0 + 4, top + 9, gpu.length_mm - 8, h - 18))
            housing.setPen(QPen(QColor("#c9b79c"), 0.5))
            housing.setBrush(QBrush(dark))
            child(housing)
            fan = QGraphicsEllipseItem(QRectF(x0 + gpu.length_mm - d - 8, top + 8.5 + (h - 17 - d) / 2, d, d))
            fan.setPen(QPen(QColor("#c9b79c"), 0.6))
            fan.setBrush(QBrush(base))
            child(fan)
        elif gpu.cooler == "passive":
            path = QPainterPath()
            for k in range(int(gpu.length_mm // 6)):
                path.moveTo(x0 + 6 + k * 6, top + 9)
                path.lineTo(x0 + 6 + k * 6, top + h - 9)
            fins = QGraphicsPathItem(path)
            fins.setPen(QPen(QColor("#b0b0b0"), 0.6))
            child(fins)
        else:  # hybrid / water-block: tubes
            for k in range(2):
                tube = QGraphicsEllipseItem(QRectF(x0 + gpu.length_mm - 16, top + 9 + k * 7, 6, 6))
                tube.setPen(QPen(QColor("#9ecbff"), 0.8))
                tube.setBrush(QBrush(dark))
                child(tube)
        band = QGraphicsRectItem(QRectF(x0 + 1, y_slot - CARD_TOP + 0.6, gpu.length_mm - 2, 7.6), item)
        band.setBrush(QBrush(QColor(10, 14, 20, 200)))
        band.setPen(QPen(Qt.PenStyle.NoPen))
        band.setZValue(2)
        title = gpu.model if gpu.model.lower().startswith(gpu.maker.lower()) else f"{gpu.maker} {gpu.model}"
        label = QGraphicsSimpleTextItem(_("GPU {num} · {name}", num=idx + 1, name=title)[:64], item)
        label.setFont(font)
        label.setBrush(COLORS["text"])
        label.setPos(x0 + 3, y_slot - CARD_TOP + 0.9)
        label.setZValue(3)
        sub = _("{cooler} · {slots:g} slots · {length}", cooler=_(COOLER_NAMES.get(gpu.cooler, gpu.cooler)),
                slots=gpu.slot_width, length=self.length(gpu.length_mm)) + ("" if gpu.verified else " · " + _("unverified"))
        if riser:
            sub += " · " + (_("riser to position {position}", position=riser_to) if riser_to
                            else _("riser not plugged in"))
        sublabel = QGraphicsSimpleTextItem(sub, item)
        sublabel.setFont(tiny)
        sublabel.setBrush(QColor("#d0d7de"))
        # Just under the title band: the bottom edge of a card is where the next card sits when
        # there is no gap, and a line there was half hidden.
        sublabel.setPos(x0 + 3, y_slot - CARD_TOP + 8.6)
        sublabel.setZValue(3)

    def _draw_overlaps(self, overlaps: list[OverlapMark]) -> None:
        for f in overlaps:
            a, b = (self.card_items.get(n - 1) for n in f.gpus)
            if a is None or b is None:
                continue
            inter = a.rect().intersected(b.rect())
            if inter.isEmpty():
                continue
            message = render_ui(f.message)
            self._piece(("overlap", inter.getRect(), message), lambda: self._draw_overlap(inter, message))

    def _draw_overlap(self, inter: QRectF, message: str) -> None:
        brush = QBrush(COLORS["error"], Qt.BrushStyle.BDiagPattern)
        hatch = self.addRect(inter, QPen(COLORS["error"], 1.2), brush)
        hatch.setZValue(9)
        hatch.setToolTip(message)
        fill = self.addRect(inter, QPen(Qt.PenStyle.NoPen), QBrush(QColor(217, 48, 37, 70)))
        fill.setZValue(8)

    def _draw_gaps(self, gaps: list[GapMark]) -> None:
        for f in gaps:
            upper = self.card_items.get(f.gpu - 1)
            if upper is None:
                continue
            r = upper.rect()
            self._piece(("gap", r.getRect(), f), lambda: self._draw_gap(r, f.gap_mm, f))

    def _draw_gap(self, r: QRectF, gap: float, f: GapMark) -> None:
        color = COLORS["error"] if f.severity is Severity.ERROR else COLORS["warn"]
        text_color = QColor(self.pal.error if f.severity is Severity.ERROR else self.pal.warning)
        y = r.bottom()
        # The gap itself, framed; it stops above the next card's title band (its text starts
        # 0.9 mm below the card's top edge).
        band = self.addRect(QRectF(r.left() + 10, y - 1.2, r.width() - 20, max(gap, 0) + 1.8),
                            QPen(color, 1.0, Qt.PenStyle.DashLine),
                            QBrush(QColor(color.red(), color.green(), color.blue(), 60)))
        band.setZValue(10)
        lang = ui_language()
        tip = _("{message}\nFix: {fix}", message=render(f.message, lang), fix=render(f.fix, lang))
        band.setToolTip(tip)
        # The figure goes beside the card's end, where it covers no card's label.
        t = self.addSimpleText(_("{gap:.0f} mm gap\n(needs {needed:.0f})", gap=f.gap_mm, needed=f.min_gap_mm),
                               self._gap_font)
        t.setBrush(text_color)
        tx, ty = r.right() + 3, y - t.boundingRect().height() / 2
        fill = QColor(self.pal.label_fill)
        fill.setAlpha(235)
        bg = self.addRect(t.boundingRect().translated(tx, ty).adjusted(-1, -0.5, 1, 0.5),
                          QPen(color, 0.5), QBrush(fill))
        bg.setZValue(11)
        bg.setToolTip(tip)
        t.setPos(tx, ty)
        t.setZValue(12)

    # -- hover and highlight -----------------------------------------------------------
    hover_rect: Optional[QRectF] = None

    def clear_hover(self) -> None:
        for it in self._hover:
            self.removeItem(it)
        self._hover = []
        self.hover_rect = None

    def _clear_highlight(self) -> None:
        for it in self._highlight:
            self.removeItem(it)
        self._highlight = []

    def show_hover(self, position: Optional[int], text: str, severity: Optional[Severity], riser: bool = False) -> None:
        self.clear_hover()
        color = COLORS["ok"] if severity is None or severity is Severity.INFO else COLORS["warn"] if severity is Severity.WARNING else COLORS["error"]
        if riser:
            rect = self.riser_rect
        elif position is not None:
            y = self.y_of(position)
            rect = QRectF(SLOT_X - 4, y - 6, 100, 12)
        else:
            return
        r = self.addRect(rect, QPen(color, 1.5), QBrush(QColor(color.red(), color.green(), color.blue(), 50)))
        r.setZValue(20)
        # The words go in the view's preview label (screen-sized text kept inside the view); the
        # scene marks only the target.
        self.hover_rect = rect
        self._hover = [r]

    def highlight(self, gpus: tuple[int, ...], positions: tuple[int, ...]) -> None:
        self._clear_highlight()
        self._highlighted = (tuple(gpus), tuple(positions))
        pen = QPen(COLORS["highlight"], 2.2)
        card_pen = QPen(COLORS["highlight"], 1.2)
        for n in gpus:
            item = self.card_items.get(n - 1)
            if item is not None:
                # Wider than the card, not taller: cards touch when there is no gap, and a frame
                # reaching past the edge crossed the next card's title.
                h = self.addRect(item.rect().adjusted(-3, 0, 3, 0), card_pen)
                h.setZValue(30)
                self._highlight.append(h)
        card_slots = {int(it.data(1)) for it in self.card_items.values() if it.data(1) is not None}
        for p in positions:
            if p is None or p in card_slots:
                continue  # the card's outline already marks it
            item = self.slot_items.get(p)
            if item is not None:
                h = self.addRect(item.rect().adjusted(-3, -3, 3, 3), pen)
                h.setZValue(30)
                self._highlight.append(h)


def hidpi_pixmap(w: int, h: int, ratio: float) -> QPixmap:
    """A transparent pixmap of ``w`` x ``h`` logical pixels holding ``ratio`` device pixels each way."""
    ratio = max(1.0, float(ratio))
    pm = QPixmap(round(w * ratio), round(h * ratio))
    pm.setDevicePixelRatio(ratio)
    pm.fill(Qt.GlobalColor.transparent)
    return pm


class BoardView(QGraphicsView):
    """Shows the scene; turns drops and card drags into requests (signals) for the window."""

    partDropped = Signal(str, object, bool)  # part id, expansion position or None, riser
    gpuMoved = Signal(int, object, bool)  # gpu index, new position or None, riser
    gpuDeleteRequested = Signal(int)
    powerLimitRequested = Signal(int)
    allPowerLimitsRequested = Signal()
    pricePaidRequested = Signal(str)  # part id: the price paid for this card's part in this build
    userPriceRequested = Signal(str)  # part id: your price for the part everywhere

    def __init__(self, doc, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.board_scene = BoardScene(self)
        self.setScene(self.board_scene)
        self.setAcceptDrops(True)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        # Anchored at the top: a card added to the riser area grows the drawing downwards and the
        # board stays where it was (centred, everything moved and was repainted).
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._drag_idx: Optional[int] = None
        self._drag_start = QPointF()
        self._drag_item_pos = QPointF()
        self._drag_dy = 0.0
        self.selected_gpu: Optional[int] = None
        # What a drop or move would cause, in words, near the target slot and always inside the view.
        self.preview_label = QLabel(self.viewport())
        self.preview_label.setObjectName("dropPreview")
        self.preview_label.setWordWrap(True)
        self.preview_label.setTextFormat(Qt.TextFormat.PlainText)
        self.preview_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.preview_label.hide()
        doc.edited.connect(self._on_edited)
        theme.notifier().changed.connect(self.restyle)
        self.refresh()

    def restyle(self, *_args) -> None:
        """Draw everything again in the current theme and unit."""
        self.board_scene.restyle()
        self.refresh()

    def _on_edited(self, change) -> None:
        """Redraw for what the drawing shows: parts, placements and the findings they and the
        settings cause; a new name or notes leave the drawing alone."""
        if change.parts or change.settings:
            self.refresh()

    def refresh(self) -> None:
        # An edit the drawing does not show (a power limit, a price) changes no piece: no repaint.
        self.board_scene.show_build(self.doc.build, self.doc.context, self.doc.findings)
        self._fit()
        if self.selected_gpu is not None and self.selected_gpu >= len(self.doc.build.gpus):
            self.selected_gpu = None

    def _fit(self) -> None:
        """Scale the drawing to the view; a drawing that keeps its scale is left alone (fitInView
        resets and rebuilds the transform, which repaints the whole view even when the result is
        the same)."""
        rect = self.board_scene.sceneRect()
        margin = self.viewport().rect().adjusted(2, 2, -2, -2)  # what fitInView leaves free
        if rect.isEmpty() or margin.isEmpty():
            return
        scale = min(margin.width() / rect.width(), margin.height() / rect.height())
        t = self.transform()
        if abs(t.m11() - scale) < 1e-9 and abs(t.m22() - scale) < 1e-9 and t.m12() == t.m21() == 0:
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    # -- where a point lands ------------------------------------------------------------
    def target_at(self, scene_pos: QPointF, dy: float = 0.0) -> tuple[Optional[int], bool]:
        """Expansion position under ``scene_pos`` (its slot line ``dy`` above it), or the riser area."""
        if self.board_scene.riser_rect.contains(scene_pos):
            return None, True
        return self.board_scene.position_at(scene_pos.y() - dy), False

    def _part_id(self, mime: QMimeData) -> Optional[str]:
        if mime.hasFormat(PART_MIME):
            return bytes(mime.data(PART_MIME)).decode("utf-8", "replace")
        return None

    def hover_text(self, part_id: str, position: Optional[int], riser: bool) -> tuple[str, Optional[Severity]]:
        part = self.doc.index.get(part_id)
        if part is None:
            return _("unknown part"), Severity.ERROR
        edit = edit_for_part(part, position, riser, self.doc.build)
        if part.KIND != "gpu":
            return render_ui(edit.text(self.doc.build, self.doc.index)), None
        return self._preview_text(edit, len(self.doc.build.gpus) + 1, position, riser)

    def _preview_text(self, edit, gpu_num: int, position, riser) -> tuple[str, Optional[Severity]]:
        """What the drop or move would cause, as lines a user reads: where, then the worst new
        problems (most serious first), each led by its mark and cut at a word."""
        lang = ui_language()
        head = (_("GPU {num} \u2192 a riser", num=gpu_num) if riser else
                _("GPU {num} \u2192 position {position}", num=gpu_num, position=position) if position is not None else
                _("GPU {num} \u2192 no slot", num=gpu_num))
        try:
            new = [f for f in self.doc.preview(edit) if f.severity is not Severity.INFO]
        except EditError as e:
            return f"{head}\n\u2716 {render(e.message, lang)}", Severity.ERROR
        if not new:
            return f"{head}\n\u2714 " + _("fits: no new problems"), None
        new.sort(key=lambda f: f.severity.rank)
        lines = [head] + [f"{PREVIEW_MARK[f.severity]} {_cut(render(f.message, lang), 150)} [{f.code}]"
                          for f in new[:PREVIEW_LINES]]
        if len(new) > PREVIEW_LINES:
            lines.append(_("+{count} more", count=len(new) - PREVIEW_LINES))
        return "\n".join(lines), new[0].severity

    def show_preview(self, position: Optional[int], text: str, severity: Optional[Severity], riser: bool,
                     card_height_mm: float = 2 * SLOT_PITCH_MM) -> None:
        """Mark the target in the drawing and put ``text`` beside it: above the card's footprint
        (the dragged card's image covers the slot and what lies right of it), below when there is
        no room above, moved inside the view when it would cross an edge."""
        self.board_scene.show_hover(position, text, severity, riser)
        rect = self.board_scene.hover_rect
        label = self.preview_label
        if rect is None or not text:
            label.hide()
            return
        color = (COLORS["ok"] if severity is None or severity is Severity.INFO else
                 COLORS["warn"] if severity is Severity.WARNING else COLORS["error"])
        pal = theme.colors()
        label.setStyleSheet(f"QLabel#dropPreview {{ background: {pal.label_fill}; color: {pal.label_text}; "
                            f"border: 2px solid {color.name()}; border-radius: 3px; padding: 3px 5px; }}")
        vp = self.viewport().rect()
        label.setMaximumWidth(max(120, min(420, vp.width() - 8)))
        label.setText(text)
        label.adjustSize()
        w, h = label.width(), label.height()
        if riser:
            top_scene, bottom_scene = rect.top(), rect.bottom()
        else:
            top_scene = rect.top() + 6 - CARD_TOP
            bottom_scene = top_scene + card_height_mm
        left = self.mapFromScene(QPointF(rect.left(), top_scene)).x()
        above = self.mapFromScene(QPointF(rect.left(), top_scene)).y() - h - 4
        below = self.mapFromScene(QPointF(rect.left(), bottom_scene)).y() + 4
        y = above if above >= 2 else below
        x = min(max(2, left), vp.width() - w - 2)
        y = min(max(2, y), vp.height() - h - 2)
        label.move(int(x), int(y))
        label.show()
        label.raise_()

    def clear_preview(self) -> None:
        self.board_scene.clear_hover()
        self.preview_label.hide()

    def card_pixmap(self, part) -> tuple[QPixmap, QPoint]:
        """The drag image of a catalog part: a GPU as its card, to the drawing's scale and
        translucent, with the hot spot on its slot line; other parts as a small name tag."""
        scale = self.transform().m11() or 1.0
        if isinstance(part, GPU):
            w = max(24, round(part.length_mm * scale))
            h = max(10, round(part.slot_width * SLOT_PITCH_MM * scale))
            pm = self._pixmap(w + 2, h + 2)
            p = QPainter(pm)
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.setOpacity(0.72)
            base = COLORS["gpu"].get(part.cooler, QColor("#444"))
            p.setPen(QPen(QColor("#11161c"), 1))
            p.setBrush(QBrush(base))
            p.drawRect(QRectF(1, 1, w, h))
            band = max(8.0, 7.6 * scale)
            p.setBrush(QBrush(QColor(10, 14, 20, 220)))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRect(QRectF(1, 1, w, band))
            if part.cooler == "open-air":
                n = 3 if part.length_mm > 270 else 2
                d = min(h - 2 * band, 30 * scale)
                p.setPen(QPen(QColor("#aab4c0"), 1))
                p.setBrush(QBrush(base.darker(160)))
                for k in range(n):
                    cx = 1 + w * (k + 1) / (n + 1)
                    p.drawEllipse(QRectF(cx - d / 2, band + (h - band - d) / 2, d, d))
            elif part.cooler == "blower":
                d = min(h - 2 * band, 26 * scale)
                p.setPen(QPen(QColor("#c9b79c"), 1))
                p.setBrush(QBrush(base.darker(160)))
                p.drawEllipse(QRectF(w - d - 8 * scale, band + (h - band - d) / 2, d, d))
            p.setOpacity(1.0)
            f = QFont(self.font())
            f.setPixelSize(max(8, min(12, int(band * 0.8))))
            p.setFont(f)
            p.setPen(QColor("#f0f3f6"))
            p.drawText(QRectF(4, 1, w - 6, band), int(Qt.AlignmentFlag.AlignVCenter), 
                       p.fontMetrics().elidedText(_("{name} \u00b7 {slots:g} slots \u00b7 {length}", name=part.name,
                                                    slots=part.slot_width, length=units.length(part.length_mm)),
                                                  Qt.TextElideMode.ElideMiddle, int(w - 8)))
            p.end()
            return pm, QPoint(min(40, w // 6), max(0, round(CARD_TOP * scale)))
        fm = self.fontMetrics()
        text = part.name
        pw, ph = fm.horizontalAdvance(text) + 16, fm.height() + 8
        pm = self._pixmap(pw, ph)
        pal = theme.colors()
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setOpacity(0.85)
        p.setBrush(QBrush(QColor(pal.label_fill)))
        p.setPen(QPen(QColor(pal.riser_edge), 1))
        p.drawRoundedRect(QRectF(0.5, 0.5, pw - 1, ph - 1), 4, 4)
        p.setPen(QColor(pal.label_text))
        p.drawText(QRectF(0, 0, pw, ph), int(Qt.AlignmentFlag.AlignCenter), text)
        p.end()
        return pm, QPoint(8, ph // 2)

    def _pixmap(self, w: int, h: int) -> QPixmap:
        """A transparent pixmap of ``w`` x ``h`` logical pixels at the screen's pixel ratio (a
        drag image made at ratio 1 is scaled up, blurred, on a 2x screen)."""
        return hidpi_pixmap(w, h, self.devicePixelRatioF())

    # -- drag and drop from the catalog ---------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasFormat(PART_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        pid = self._part_id(event.mimeData())
        if pid is None:
            event.ignore()
            return
        pos, riser = self.target_at(self.mapToScene(event.position().toPoint()))
        text, sev = self.hover_text(pid, pos, riser)
        part = self.doc.index.get(pid)
        is_gpu = part is not None and part.KIND == "gpu"
        self.show_preview(pos if is_gpu else None, text, sev, riser and is_gpu,
                          part.slot_width * SLOT_PITCH_MM if is_gpu else 0.0)
        event.acceptProposedAction()

    def dragLeaveEvent(self, event) -> None:  # noqa: N802
        self.clear_preview()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        pid = self._part_id(event.mimeData())
        self.clear_preview()
        if pid is None:
            event.ignore()
            return
        pos, riser = self.target_at(self.mapToScene(event.position().toPoint()))
        event.acceptProposedAction()
        self.partDropped.emit(pid, pos, riser)

    # -- moving cards already placed -------------------------------------------------------
    def _card_at(self, view_pos) -> Optional[int]:
        for it in self.items(view_pos):
            idx = it.data(0)
            while it is not None and not isinstance(idx, int):
                it = it.parentItem()
                idx = it.data(0) if it is not None else None
            if isinstance(it, QGraphicsRectItem) and it in self.board_scene.card_items.values():
                return idx
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802
        idx = self._card_at(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and idx is not None:
            self._drag_idx = idx
            self.selected_gpu = idx
            self._drag_start = self.mapToScene(event.position().toPoint())
            self._drag_item_pos = self.board_scene.card_items[idx].pos()
            g = self.doc.build.gpus[idx]
            on_board = g.mount == MOUNT_SLOT and g.position is not None
            self._drag_dy = self._drag_start.y() - self.board_scene.y_of(g.position) if on_board else 0.0
            self.board_scene.highlight((idx + 1,), ())
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self.selected_gpu = None
            self.board_scene.highlight((), ())
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._drag_idx is not None:
            p = self.mapToScene(event.position().toPoint())
            item = self.board_scene.card_items.get(self._drag_idx)
            if item is not None:
                item.setPos(self._drag_item_pos + (p - self._drag_start))
            pos, riser = self.target_at(p, self._drag_dy)
            idx = self._drag_idx
            text, sev = self._preview_text(MoveGpu(idx, pos, riser), idx + 1, pos, riser)
            g = self.doc.build.gpus[idx]
            part = self.doc.index.get(g.part_id)
            self.show_preview(pos, text, sev, riser, part.slot_width * SLOT_PITCH_MM if isinstance(part, GPU) else 0.0)
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._drag_idx is not None and event.button() == Qt.MouseButton.LeftButton:
            idx = self._drag_idx
            self._drag_idx = None
            p = self.mapToScene(event.position().toPoint())
            self.clear_preview()
            dragged = self.board_scene.card_items.get(idx)
            if (p - self._drag_start).manhattanLength() < 3:
                if dragged is not None:
                    dragged.setPos(self._drag_item_pos)
                self.board_scene.highlight((idx + 1,), ())
                return
            pos, riser = self.target_at(p, self._drag_dy)
            self.gpuMoved.emit(idx, pos, riser)
            if dragged is not None and self.board_scene.card_items.get(idx) is dragged:
                dragged.setPos(self._drag_item_pos)  # nothing changed (same place, or refused): snap back
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.selected_gpu is not None:
            self.gpuDeleteRequested.emit(self.selected_gpu)
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        idx = self._card_at(event.pos())
        if idx is None:
            return
        self.selected_gpu = idx
        self.card_menu(idx).exec(event.globalPos())

    def card_menu(self, idx: int) -> QMenu:
        """A placed card's context menu (its actions only emit this view's signals)."""
        menu = QMenu(self)
        menu.addAction(_("Power limit for GPU {num}…", num=idx + 1), lambda: self.powerLimitRequested.emit(idx))
        if len(self.doc.build.gpus) > 1:
            menu.addAction(_("Power limit for all GPUs…"), self.allPowerLimitsRequested.emit)
        pid = self.doc.build.gpus[idx].part_id
        menu.addSeparator()
        menu.addAction(_("Price Paid in This Build…"), lambda: self.pricePaidRequested.emit(pid)).setToolTip(
            _("What you paid for this card: saved in this build, undoable"))
        menu.addAction(_("Your Price for This Part Everywhere…"), lambda: self.userPriceRequested.emit(pid)).setToolTip(
            _("Your price for this model in every build and report"))
        menu.addSeparator()
        menu.addAction(_("Remove GPU {num}", num=idx + 1), lambda: self.gpuDeleteRequested.emit(idx))
        return menu


def print_scene(build: Build, index) -> BoardScene:
    """The board drawing for paper and reports (``BoardScene(for_print=True)``)."""
    from rigbuilder.rules.engine import run_checks

    ctx = Context(build, index)
    scene = BoardScene(for_print=True)
    scene.show_build(build, ctx, run_checks(build, index, context=ctx))
    return scene


def render_board_image(build: Build, index, width_px: int = 1400) -> QImage:
    """The printed board drawing as an image; needs a QGuiApplication."""
    scene = print_scene(build, index)
    rect = scene.sceneRect()
    h = max(1, int(width_px * rect.height() / max(rect.width(), 1)))
    img = QImage(width_px, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(p, QRectF(0, 0, width_px, h), rect)
    p.end()
    return img


def render_board_svg(build: Build, index, width_px: int = 1400) -> bytes:
    """The printed board drawing as SVG: lines and text stay lines and text (a PDF made from it
    keeps its words searchable, and it is sharp at any size); needs a QGuiApplication."""
    from PySide6.QtCore import QBuffer, QIODevice, QSize
    from PySide6.QtSvg import QSvgGenerator

    scene = print_scene(build, index)
    rect = scene.sceneRect()
    h = max(1, int(width_px * rect.height() / max(rect.width(), 1)))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QSize(width_px, h))
    gen.setViewBox(QRectF(0, 0, width_px, h))
    gen.setTitle(_("Board layout: {name}", name=build_shown_name(build.name, ui_language())))
    p = QPainter(gen)
    p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(p, QRectF(0, 0, width_px, h), rect)
    p.end()
    return bytes(buf.data())

