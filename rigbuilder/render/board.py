"""The board drawing without widgets: what the window's board view shows and what a report prints.

:class:`BoardDrawing` draws a build (the board, its slots, the cards, the marks of the checks) in
pieces, each from a key that holds everything it shows, onto whatever gives it shapes: the window's
board view (``rigbuilder.ui.boardview``: graphics items it can hover, drag and redraw piece by
piece) or :class:`PaperBoard` here (shapes painted with a QPainter, for SVG, PDF and images).
Neither Qt's widgets nor the window are imported (import-linter contracts and tests/test_imports.py
say so), so the command line's report draws the board without the window. A QGuiApplication must
exist (fonts).
"""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Callable, Optional

from PySide6.QtCore import QBuffer, QIODevice, QLineF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPainterPathStroker,
                           QPen, QTextLayout)

from rigbuilder.domain.build import Build
from rigbuilder.domain.build import shown_name as build_shown_name
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import N_, T, render
from rigbuilder.domain.parts import GPU, SLOT_PITCH_MM, Motherboard, slot_position_words, slot_table_words
from rigbuilder.domain.safeio import display_text
from rigbuilder.render.palette import LIGHT, Palette
from rigbuilder.rules.context import Context
from rigbuilder.rules.marks import GapMark, OverlapMark, card_marks, gap_marks, overlap_marks

COOLER_NAMES = {"blower": N_("blower"), "open-air": N_("open-air"), "passive": N_("passive"), "hybrid": N_("hybrid"),
                "water-block": N_("water-block")}
"""The words shown for ``rigbuilder.domain.parts.COOLER_TYPES`` (the data keeps the English key)."""
SOURCE_NAMES = {"CPU": N_("CPU"), "chipset": N_("chipset"), "switch": N_("switch")}
"""The words shown for where a slot's or M.2 socket's lanes come from (the data keeps the English key)."""
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

UI_HINTS = (N_("drop cards here"), N_("Drop a motherboard here"), N_("drag one from the catalog"))
"""Words the drawing says to the person using the window; a printed drawing (``for_print``) has none."""


class BoardDrawing:
    """The board drawing, drawn on shapes that a subclass makes: ``addRect``, ``addSimpleText``,
    ``addLine``, ``addItem`` and ``_new_rect``, ``_new_ellipse``, ``_new_path``, ``_new_text``
    (QGraphicsScene's names and ways; the window's scene is one), ``removeItem``,
    ``itemsBoundingRect``, ``sceneRect`` and ``setSceneRect``. ``for_print``: the drawing for
    paper and reports: no hints about dragging and dropping, the riser area only where cards sit on
    risers, lengths in mm, the light palette."""

    def _init_drawing(self, for_print: bool) -> None:
        self.for_print = for_print
        self.card_items: dict[int, Any] = {}  # gpu index -> its card's shape
        self.slot_items: dict[int, Any] = {}  # position -> its slot's shape
        self.riser_rect = QRectF()
        self.board: Optional[Motherboard] = None
        self.positions = 7
        self._pieces: dict[tuple, list] = {}  # key -> its top-level shapes
        self._old_pieces: dict[tuple, list] = {}
        self._collect: Optional[list] = None  # shapes being drawn for a piece
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
    def pal(self) -> Palette:
        """The colours around the board (light on paper)."""
        return LIGHT

    @property
    def lang(self) -> str:
        """The language the drawing's words are in."""
        return "en"

    def words(self, text: T) -> str:
        """A text of the drawing (a ``T``) in the drawing's language, its figures formatted for it."""
        return render(text, self.lang)

    def named(self, names: dict[str, str], key: str) -> str:
        """The word ``names`` (COOLER_NAMES, SOURCE_NAMES) shows for a data key, in the drawing's
        language; the key itself where it has none."""
        return self.words(T(names.get(key, key)))

    def say(self, text) -> str:
        """A core text (a finding's message) in the drawing's language, controls shown as marks."""
        return display_text(render(text, self.lang), one_line=False)

    def length(self, mm: float) -> str:
        """A length as the drawing labels it (mm; the window's scene may show inches)."""
        return f"{mm:g} mm"

    def clear_hover(self) -> None:
        """The window's hover marks go (none on paper)."""

    def _clear_highlight(self) -> None:
        """The window's highlight frames go (none on paper)."""

    def highlight(self, gpus: tuple[int, ...], positions: tuple[int, ...]) -> None:
        """The window frames these cards and slots (nothing on paper)."""
        self._highlighted = (tuple(gpus), tuple(positions))

    def _drawn(self, items: list) -> None:
        """A piece was drawn anew (the window keeps its texts as pixmaps)."""

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

    def _piece(self, key: tuple, draw: Callable[[], None]) -> list:
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
            self._drawn(items)
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
            self.words(T("Risers / vertical mount")) if self.for_print
            else self.words(T("Risers / vertical mount: drop cards here"))]
        if ctx.case is not None and ctx.case.max_gpu_length_mm:
            words.append(self.words(T("case takes cards up to {length}", length=self.length(ctx.case.max_gpu_length_mm))))
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
            items = self._piece(("card", idx, _Part(g.gpu), y_slot, rx + 6, marks.get(g.num), True, g.position,
                                 g.riser and g.riser.id),
                                lambda: self._draw_card(idx, g.gpu, y_slot, rx + 6, marks, small, tiny, riser=True,
                                                        riser_to=g.position, riser_part=g.riser))
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
            t = self.addSimpleText(self.words(T("No motherboard chosen")) if self.for_print
                                   else self.words(T("Drop a motherboard here\n(drag one from the catalog)")), small)
            t.setBrush(COLORS["label"])
            t.setPos(30, 120)
            return
        w_text = self.length(width).removesuffix(" mm")  # "244 x 305 mm", "9.61 in x 12.01 in"
        size = dict(name=board.name, form_factor=board.form_factor, width=w_text, depth=self.length(depth))
        title = self.addSimpleText(self.words(T("{name}\n{form_factor} {width} x {depth}", **size) if board.verified
                                              else T.join(T("{name}\n{form_factor} {width} x {depth}", **size),
                                                          "\n", _flag_words(board))), small)
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
            br.setToolTip(self.words(T("Case expansion position {position}", position=pos)))
            n = self.addSimpleText(str(pos), tiny)
            n.setBrush(QColor("#333"))
            n.setPos(-11.5, y - 2.5)

    def _draw_case_limit(self, case_name: str, x: float, top: float, bottom: float, tiny: QFont) -> None:
        line = self.addLine(x, top, x, bottom, QPen(COLORS["error"], 0.8, Qt.PenStyle.DashLine))
        line.setToolTip(self.words(T("{case}: cards up to {length}", case=case_name, length=self.length(x))))
        t = self.addSimpleText(self.words(T("case limit {length}", length=self.length(x))), tiny)
        t.setBrush(QColor(self.pal.error))  # beside the board, on the scene's background
        t.setPos(x + 2, top)

    def _draw_slot(self, s, y: float, w: int, holds_gpu: bool, tiny: QFont) -> None:
        """A slot (its first item) and its label: the current electrical width."""
        length = SLOT_LEN.get(s.physical, 25.0)
        # Two flags (issue 40): a slot whose row no source confirms (size, width, lane source) gets a
        # dashed amber outline and a '?' label; a slot whose place on the board no source gives gets
        # a dotted outline around its whole expansion position and a '⇕?' label.
        row_known = s.table_confirmed
        pen = (QPen(Qt.PenStyle.NoPen) if row_known
               else QPen(COLORS["warn"], 0.6, Qt.PenStyle.DashLine))
        item = self.addRect(QRectF(SLOT_X, y - 2.2, length, 4.4), pen,
                            QBrush(COLORS["slot"] if s.source != "chipset" else COLORS["slot_chipset"]))
        item.setZValue(2)
        item.setData(0, s.position)
        place_unknown = not s.position_confirmed
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
        label = self.addSimpleText(f"{s.id}  x{w} Gen{s.gen}" + (" " + self.words(T("(x{lanes} max)", lanes=s.lanes)) if throttled else "")
                                   + ("" if s.source == "CPU" else f"  · {self.named(SOURCE_NAMES, s.source)}")
                                   + ("" if row_known else "  ?") + ("  ⇕?" if place_unknown else ""), tiny)
        label.setBrush(color)
        label.setPos(-18 - label.boundingRect().width(), y - 2.6)
        label.setZValue(2)
        source = self.named(SOURCE_NAMES, s.source)
        tip = ((self.words(T("{slot}: physical x{physical} open-ended, electrical x{width} now (x{lanes} max), PCIe {gen}.0 "
                  "from the {source}", slot=s.id, physical=s.physical, width=w, lanes=s.lanes, gen=s.gen, source=source))
                if s.open_ended else
                self.words(T("{slot}: physical x{physical}, electrical x{width} now (x{lanes} max), PCIe {gen}.0 from the {source}",
                  slot=s.id, physical=s.physical, width=w, lanes=s.lanes, gen=s.gen, source=source)))
               + "\n" + self.words(slot_table_words(s)) + "\n" + self.words(slot_position_words(s)))
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
        sock.setToolTip(self.words(T("CPU socket {socket}", socket=board.socket)))
        t = self.addSimpleText(board.socket, font)
        t.setBrush(COLORS["text"])
        t.setPos(sx + 4, sy + 30)
        n = max(1, board.dimm_slots)
        per_side = n if n <= 4 else n // 2
        for i in range(n):
            side_right = i >= per_side or n <= 4
            x0 = (sx + 82 + (i % per_side) * 8) if side_right else (sx - 14 - (i % per_side) * 8)
            d = self.addRect(QRectF(x0, 18, 5, 125), QPen(Qt.PenStyle.NoPen), QBrush(QColor("#20262c")))
            d.setToolTip(self.words(T("DIMM slot ({memory_type})", memory_type=board.memory_type)))
        for i, m in enumerate(board.m2):
            x = width - 90
            r = self.addRect(QRectF(x, 150 + i * 12, 80, 6), QPen(QColor("#888"), 0.3), QBrush(QColor("#39434d")))
            r.setToolTip(self.words(T("M.2 socket {socket}: PCIe {gen}.0 x{lanes} from the {source}", socket=m.id, gen=m.gen,
                           lanes=m.lanes, source=self.named(SOURCE_NAMES, m.source))))
            lt = self.addSimpleText(m.id, font)
            lt.setBrush(COLORS["label"])
            lt.setPos(x + 2, 150 + i * 12 - 0.5)

    def _draw_card(self, idx: int, gpu: GPU, y_slot: float, x0: float, marks: dict, font: QFont, tiny: QFont,
                   riser: bool = False, riser_to: Optional[int] = None, riser_part=None) -> None:
        h = gpu.slot_width * SLOT_PITCH_MM
        rect = QRectF(x0, y_slot - CARD_TOP, gpu.length_mm, h)
        sev = marks.get(idx + 1)
        pen = QPen(COLORS["error"] if sev is Severity.ERROR else COLORS["warn"] if sev is Severity.WARNING
                   else QColor("#11161c"), 1.4 if sev else 0.8)
        item = self._new_rect(rect)
        item.setPen(pen)
        base = COLORS["gpu"].get(gpu.cooler, QColor("#444"))
        item.setBrush(QBrush(base))
        # Opaque: a translucent card blends every child item too, and costs 2.5 ms a repaint.
        item.setZValue(5)
        item.setData(0, idx)
        if not riser:
            item.setData(1, round((y_slot - self.y_of(1)) / SLOT_PITCH_MM) + 1)
        item.setCursor(Qt.CursorShape.OpenHandCursor)
        item.setToolTip(self.words(T("GPU {num}: {name}", num=idx + 1, name=gpu.name)) + "\n"
                        + self.words(T("{cooler}, {slots:g} slots, {length}, {power:g} W",
                                       cooler=self.named(COOLER_NAMES, gpu.cooler),
                            slots=gpu.slot_width, length=self.length(gpu.length_mm), power=gpu.board_power_w))
                        + ("" if gpu.verified else "\n" + self.words(T("unverified: {fields}", fields=", ".join(gpu.unverified))))
                        + "\n" + self.words(T("Drag to move; Delete removes; right-click for power limit")))
        self.addItem(item)
        # cooler drawing: children of the card, under its label band
        dark = base.darker(160)

        def child(shape_item) -> None:
            shape_item.setParentItem(item)
            shape_item.setZValue(1)

        top = y_slot - CARD_TOP
        if gpu.cooler == "open-air":
            nfans = 3 if gpu.length_mm > 270 else 2
            d = min(h - 17, 30.0)
            cy = top + 8.5 + (h - 17) / 2
            for k in range(nfans):
                cx = x0 + gpu.length_mm * (k + 1) / (nfans + 1)
                fan = self._new_ellipse(QRectF(cx - d / 2, cy - d / 2, d, d))
                fan.setPen(QPen(QColor("#aab4c0"), 0.6))
                fan.setBrush(QBrush(dark))
                child(fan)
                hub = self._new_ellipse(QRectF(cx - 2.5, cy - 2.5, 5, 5))
                hub.setPen(QPen(Qt.PenStyle.NoPen))
                hub.setBrush(QBrush(QColor("#aab4c0")))
                child(hub)
        elif gpu.cooler == "blower":
            d = min(h - 17, 26.0)
            housing = self._new_rect(QRectF(x0 + 4, top + 9, gpu.length_mm - 8, h - 18))
            housing.setPen(QPen(QColor("#c9b79c"), 0.5))
            housing.setBrush(QBrush(dark))
            child(housing)
            fan = self._new_ellipse(QRectF(x0 + gpu.length_mm - d - 8, top + 8.5 + (h - 17 - d) / 2, d, d))
            fan.setPen(QPen(QColor("#c9b79c"), 0.6))
            fan.setBrush(QBrush(base))
            child(fan)
        elif gpu.cooler == "passive":
            path = QPainterPath()
            for k in range(int(gpu.length_mm // 6)):
                path.moveTo(x0 + 6 + k * 6, top + 9)
                path.lineTo(x0 + 6 + k * 6, top + h - 9)
            fins = self._new_path(path)
            fins.setPen(QPen(QColor("#b0b0b0"), 0.6))
            child(fins)
        else:  # hybrid / water-block: tubes
            for k in range(2):
                tube = self._new_ellipse(QRectF(x0 + gpu.length_mm - 16, top + 9 + k * 7, 6, 6))
                tube.setPen(QPen(QColor("#9ecbff"), 0.8))
                tube.setBrush(QBrush(dark))
                child(tube)
        band = self._new_rect(QRectF(x0 + 1, y_slot - CARD_TOP + 0.6, gpu.length_mm - 2, 7.6), item)
        band.setBrush(QBrush(QColor(10, 14, 20, 200)))
        band.setPen(QPen(Qt.PenStyle.NoPen))
        band.setZValue(2)
        title = gpu.model if gpu.model.lower().startswith(gpu.maker.lower()) else f"{gpu.maker} {gpu.model}"
        label = self._new_text(self.words(T("GPU {num} · {name}", num=idx + 1, name=title))[:64], item)
        label.setFont(font)
        label.setBrush(COLORS["text"])
        label.setPos(x0 + 3, y_slot - CARD_TOP + 0.9)
        label.setZValue(3)
        sub = self.words(T("{cooler} · {slots:g} slots · {length}", cooler=self.named(COOLER_NAMES, gpu.cooler),
                           slots=gpu.slot_width, length=self.length(gpu.length_mm)))
        sub += "" if gpu.verified else " · " + self.words(T("unverified"))
        if riser:
            sub += " · " + (self.words(T("riser to position {position}", position=riser_to)) if riser_to
                            else self.words(T("riser not plugged in")))
            if riser_part is not None:
                sub += " · " + self.words(T("PCIe {gen}.0 x{lanes}, {length}", gen=riser_part.pcie_gen,
                                            lanes=riser_part.lanes, length=self.length(riser_part.length_mm)))
        sublabel = self._new_text(sub, item)
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
            message = self.say(f.message)
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
        lang = self.lang
        tip = self.words(T("{message}\nFix: {fix}", message=render(f.message, lang), fix=render(f.fix, lang)))
        band.setToolTip(tip)
        # The figure goes beside the card's end, where it covers no card's label.
        t = self.addSimpleText(self.words(T("{gap:.0f} mm gap\n(needs {needed:.0f})", gap=f.gap_mm, needed=f.min_gap_mm)),
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


# --------------------------------------------------------------------------- on paper

def _flag_words(board: Motherboard) -> T:
    """The board's two flags (slot table, positions) and whether other fields are unverified, for
    the title line of a board that is not verified."""
    words = [T("slot table confirmed") if board.slots_confirmed else T("slot table unconfirmed"), " · ",
             T("positions confirmed") if board.positions_confirmed else T("positions unconfirmed")]
    if set(board.unverified) - {"slots", "slot_positions"}:
        words += [" · ", T("other fields unverified")]
    return T.join(*words)


def _stroked(path: QPainterPath, pen: QPen) -> QRectF:
    """The bounds of ``path`` drawn with ``pen``, as Qt's graphics items count them."""
    if pen.style() == Qt.PenStyle.NoPen or pen.widthF() == 0:
        return path.controlPointRect()
    ps = QPainterPathStroker()
    ps.setCapStyle(pen.capStyle())
    ps.setWidth(pen.widthF())
    ps.setJoinStyle(pen.joinStyle())
    ps.setMiterLimit(pen.miterLimit())
    stroke = ps.createStroke(path)
    stroke.addPath(path)
    return stroke.controlPointRect()


def text_layout(text: str, font: QFont) -> tuple[QTextLayout, QRectF]:
    """``text`` laid out in lines as a simple graphics text item lays it out, and its bounds."""
    layout = QTextLayout(text.replace("\n", "\u2028"), font)
    layout.setCacheEnabled(True)
    layout.beginLayout()
    while layout.createLine().isValid():
        pass
    layout.endLayout()
    width = y = 0.0
    for i in range(layout.lineCount()):
        line = layout.lineAt(i)
        width = max(width, line.naturalTextWidth())
        line.setPosition(QPointF(0, y))
        y += line.height()
    return layout, QRectF(0, 0, width, y)


_TEXT_SINK: ContextVar[Optional[list]] = ContextVar("board_text_sink", default=None)
"""While an SVG is made: where the texts go (transform, text, font, colour) instead of the painter."""


class Shape:
    """One thing drawn on paper: a rectangle, an ellipse, a path, a line or a text, with the few
    ways of a graphics item the drawing uses. Its children are drawn over it, in its place."""

    def __init__(self, kind: str, geometry: Any = None, text: str = "", parent: Optional["Shape"] = None) -> None:
        self.kind, self.geometry, self._text = kind, geometry, text
        self.pen = QPen(Qt.PenStyle.NoPen) if kind == "text" else QPen()
        self.brush = QBrush(Qt.GlobalColor.black) if kind == "text" else QBrush()
        self.font = QFont()
        self.z = 0.0
        self.pos = QPointF()
        self.children: list[Shape] = []
        self.parent: Optional[Shape] = None
        self._data: dict[int, Any] = {}
        if parent is not None:
            self.setParentItem(parent)

    # the graphics item's ways the drawing calls
    def setPen(self, pen) -> None:  # noqa: N802 (Qt's names)
        self.pen = QPen(pen)

    def setBrush(self, brush) -> None:  # noqa: N802
        self.brush = QBrush(brush)

    def setFont(self, font: QFont) -> None:  # noqa: N802
        self.font = QFont(font)

    def setZValue(self, z: float) -> None:  # noqa: N802
        self.z = z

    def setPos(self, x, y=None) -> None:  # noqa: N802
        self.pos = QPointF(x, y) if y is not None else QPointF(x)

    def setParentItem(self, parent: "Shape") -> None:  # noqa: N802
        self.parent = parent
        parent.children.append(self)

    def setData(self, key: int, value: Any) -> None:  # noqa: N802
        self._data[key] = value

    def data(self, key: int) -> Any:
        return self._data.get(key)

    def setToolTip(self, text: str) -> None:  # noqa: N802
        """Paper has no tool tips."""

    def setCursor(self, cursor) -> None:  # noqa: N802
        """Paper has no cursor."""

    def text(self) -> str:
        return self._text

    def rect(self) -> QRectF:
        return QRectF(self.geometry)

    def boundingRect(self) -> QRectF:  # noqa: N802
        if self.kind == "text":
            return text_layout(self._text, self.font)[1] if self._text else QRectF()
        if self.kind == "rect":
            half = 0.0 if self.pen.style() == Qt.PenStyle.NoPen else self.pen.widthF() / 2
            return QRectF(self.geometry).adjusted(-half, -half, half, half)
        path = QPainterPath()
        if self.kind == "ellipse":
            if self.pen.style() == Qt.PenStyle.NoPen or self.pen.widthF() == 0:
                return QRectF(self.geometry)
            path.addEllipse(self.geometry)
        elif self.kind == "line":
            path.moveTo(self.geometry.p1())
            path.lineTo(self.geometry.p2())
            if self.pen.widthF() == 0:
                return QRectF(self.geometry.p1(), self.geometry.p2()).normalized()
        else:
            path = self.geometry
        return _stroked(path, self.pen)

    def _offset(self) -> QPointF:
        off, s = QPointF(), self
        while s is not None:
            off += s.pos
            s = s.parent
        return off

    def sceneBoundingRect(self) -> QRectF:  # noqa: N802
        return self.boundingRect().translated(self._offset())

    def paint(self, p: QPainter) -> None:
        """This shape and then its children (by height, then in the order drawn), as a graphics
        scene paints an item and its children."""
        p.save()
        p.translate(self.pos)
        if self.kind == "text":
            sink = _TEXT_SINK.get()
            if self._text and sink is not None:  # written as one run per line by render_board_svg
                sink.append((p.worldTransform(), self._text, QFont(self.font), self.brush.color()))
            elif self._text:
                layout, _ = text_layout(self._text, self.font)
                pen = QPen()
                pen.setBrush(self.brush)
                p.setPen(pen)
                p.setFont(self.font)
                layout.draw(p, QPointF(0, 0))
        else:
            p.setPen(self.pen)
            p.setBrush(self.brush)
            if self.kind == "rect":
                p.drawRect(self.geometry)
            elif self.kind == "ellipse":
                p.drawEllipse(self.geometry)
            elif self.kind == "line":
                p.drawLine(self.geometry)
            else:
                p.drawPath(self.geometry)
        p.restore()
        if self.children:  # each child starts from the painter as it was (Qt saves it for each item)
            p.save()
            p.translate(self.pos)
            for c in sorted(self.children, key=lambda c: c.z):
                c.paint(p)
            p.restore()

    def _all(self):
        yield self
        for c in self.children:
            yield from c._all()


class PaperBoard(BoardDrawing):
    """The board drawing for paper: shapes painted with a QPainter (``paint``)."""

    def __init__(self, lang: str = "en") -> None:
        self._init_drawing(for_print=True)
        self._lang = lang
        self.shapes: list[Shape] = []  # the top-level shapes, in the order drawn
        self._scene_rect = QRectF()

    @property
    def lang(self) -> str:
        return self._lang

    def backgroundBrush(self) -> QBrush:  # noqa: N802
        return QBrush(QColor(self.pal.scene))

    def addItem(self, item: Shape) -> None:  # noqa: N802 (the graphics scene's names)
        self.shapes.append(item)
        self._kept(item)

    def removeItem(self, item: Shape) -> None:  # noqa: N802
        self.shapes.remove(item)

    def addRect(self, rect: QRectF, pen: Optional[QPen] = None, brush: Optional[QBrush] = None) -> Shape:  # noqa: N802
        s = Shape("rect", QRectF(rect))
        if pen is not None:
            s.setPen(pen)
        if brush is not None:
            s.setBrush(brush)
        self.addItem(s)
        return s

    def addSimpleText(self, text: str, font: QFont) -> Shape:  # noqa: N802
        s = Shape("text", text=text)
        s.setFont(font)
        self.addItem(s)
        return s

    def addLine(self, x1: float, y1: float, x2: float, y2: float, pen: QPen) -> Shape:  # noqa: N802
        s = Shape("line", QLineF(x1, y1, x2, y2))
        s.setPen(pen)
        self.addItem(s)
        return s

    def _new_rect(self, rect: QRectF, parent: Optional[Shape] = None) -> Shape:
        return Shape("rect", QRectF(rect), parent=parent)

    def _new_ellipse(self, rect: QRectF) -> Shape:
        return Shape("ellipse", QRectF(rect))

    def _new_path(self, path: QPainterPath) -> Shape:
        return Shape("path", QPainterPath(path))

    def _new_text(self, text: str, parent: Optional[Shape] = None) -> Shape:
        return Shape("text", text=text, parent=parent)

    def items(self) -> list[Shape]:
        """Every shape, children too."""
        return [s for top in self.shapes for s in top._all()]

    def itemsBoundingRect(self) -> QRectF:  # noqa: N802
        out = QRectF()
        for s in self.items():
            r = s.sceneBoundingRect()
            if not r.isNull():
                out = r if out.isNull() else out.united(r)
        return out

    def sceneRect(self) -> QRectF:  # noqa: N802
        return QRectF(self._scene_rect)

    def setSceneRect(self, rect: QRectF) -> None:  # noqa: N802
        self._scene_rect = QRectF(rect)

    def render(self, p: QPainter, target: QRectF, source: QRectF) -> None:
        """Paint ``source`` (drawing coordinates) into ``target``, the aspect kept, as a graphics
        scene renders: the background, then the shapes by height, then in the order drawn."""
        ratio = min(target.width() / source.width(), target.height() / source.height())
        p.save()
        p.setClipRect(target, Qt.ClipOperation.IntersectClip)
        p.translate(target.left(), target.top())
        p.scale(ratio, ratio)
        p.translate(-source.left(), -source.top())
        p.fillRect(source, self.backgroundBrush())
        for s in sorted(self.shapes, key=lambda s: s.z):
            s.paint(p)
        p.restore()


def paper_board(build: Build, index, lang: str = "en") -> PaperBoard:
    """The board drawing of ``build`` for paper, in ``lang``."""
    from rigbuilder.rules.engine import run_checks

    ctx = Context(build, index)
    board = PaperBoard(lang)
    board.show_build(build, ctx, run_checks(build, index, context=ctx))
    return board


def _paint(board: PaperBoard, device, width_px: int, height_px: int) -> None:
    p = QPainter(device)
    p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    board.render(p, QRectF(0, 0, width_px, height_px), board.sceneRect())
    p.end()


def _height(board: PaperBoard, width_px: int) -> int:
    rect = board.sceneRect()
    return max(1, int(width_px * rect.height() / max(rect.width(), 1)))


def render_board_image(build: Build, index, width_px: int = 1400, lang: str = "en") -> QImage:
    """The printed board drawing as an image; needs a QGuiApplication."""
    board = paper_board(build, index, lang)
    h = _height(board, width_px)
    img = QImage(width_px, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    _paint(board, img, width_px, h)
    return img


def render_board_svg(build: Build, index, width_px: int = 1400, lang: str = "en") -> bytes:
    """The printed board drawing as SVG: lines and text stay lines and text (a PDF made from it
    keeps its words searchable, and it is sharp at any size); needs a QGuiApplication."""
    from PySide6.QtSvg import QSvgGenerator  # here: the window never draws SVG (QtSvg: 5-10 ms of its start)

    board = paper_board(build, index, lang)
    h = _height(board, width_px)
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QSize(width_px, h))
    gen.setViewBox(QRectF(0, 0, width_px, h))
    gen.setTitle(board.words(T("Board layout: {name}", name=build_shown_name(build.name, lang))))
    texts: list = []
    token = _TEXT_SINK.set(texts)
    try:
        _paint(board, gen, width_px, h)
    finally:
        _TEXT_SINK.reset(token)
    svg = bytes(buf.data()).decode("utf-8")
    end = svg.rindex("</svg>")
    return (svg[:end] + "".join(_svg_text(*t, lang) for t in texts) + svg[end:]).encode("utf-8")


def _svg_text(transform, text: str, font: QFont, color: QColor, lang: str) -> str:
    """One label as SVG ``<text>`` elements, one per line, each line one run: Qt's SVG generator
    writes a run per script (katakana, hiragana, kanji, Latin) placed with the on-screen font's
    hinted widths, which another renderer then draws spaced out ("ケース  に 入 る カード  は 440  mm");
    one run lets the PDF's renderer lay the whole line out itself. The language's CJK face comes after
    the label's own, so Han characters take the language's forms (``files.report.CJK_FONTS``)."""
    from xml.sax.saxutils import escape, quoteattr

    from rigbuilder.files.report import CJK_FONTS

    families = [f for f in (font.families() or [font.family()]) if f]
    if lang in CJK_FONTS and CJK_FONTS[lang] not in families:
        families.append(CJK_FONTS[lang])
    size = font.pointSizeF() if font.pointSizeF() > 0 else float(font.pixelSize())
    t = transform
    matrix = f"matrix({t.m11():g} {t.m12():g} {t.m21():g} {t.m22():g} {t.dx():g} {t.dy():g})"
    weight = 700 if font.bold() else 400
    layout, _ = text_layout(text, font)
    out = []
    for i in range(layout.lineCount()):
        line = layout.lineAt(i)
        words = text.replace("\n", "\u2028")[line.textStart():line.textStart() + line.textLength()].rstrip("\u2028")
        if not words.strip():
            continue
        out.append(f'<text transform="{matrix}" x="{line.position().x():g}" y="{line.position().y() + line.ascent():g}" '
                   f'font-family={quoteattr(", ".join(families))} font-size="{size:g}" font-weight="{weight}" '
                   f'fill="{color.name()}" fill-opacity="{color.alphaF():g}" stroke="none" '
                   f'xml:space="preserve">{escape(words)}</text>\n')
    return "".join(out)
