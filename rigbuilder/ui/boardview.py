"""The motherboard drawn to scale (1 scene unit = 1 mm) with the GPUs in place.

The scene mirrors the document: it is rebuilt from the build and the engine's findings on every
change. Items are passive pictures; the view turns drops and drags into document edits. What is
drawn, and how, is the board drawing's (``rigbuilder.render.board``, which reports print); the
scene gives it graphics items to hover, drag and redraw piece by piece.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAccessible, QAccessibleEvent, QBrush, QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent, QFont, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (QGraphicsEllipseItem, QGraphicsItem, QGraphicsPathItem, QGraphicsRectItem, QGraphicsScene,
                               QGraphicsSimpleTextItem, QGraphicsView, QLabel, QMenu)

from rigbuilder.domain.build import MOUNT_RISER, MOUNT_SLOT
from rigbuilder.domain.edits import EditError, MoveGpu, edit_for_part
from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import render
from rigbuilder.domain.parts import GPU, SLOT_PITCH_MM
from rigbuilder.render.board import CARD_TOP, COLORS, SLOT_X, BoardDrawing
from rigbuilder.ui import theme, units
from rigbuilder.ui.i18n import _, render_ui, ui_language
from rigbuilder.ui.widgets import cache_as_pixmap

PART_MIME = "application/x-rigbuilder-part-id"
GPU_INDEX_MIME = "application/x-rigbuilder-gpu-index"

PREVIEW_LINES = 3
PREVIEW_MARK = {Severity.ERROR: "\u2716", Severity.WARNING: "\u25b2", Severity.INFO: "\u2139"}


def _cut(text: str, n: int) -> str:
    """``text`` cut at a word to at most ``n`` characters."""
    if len(text) <= n:
        return text
    return text[:n].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"


class BoardScene(BoardDrawing, QGraphicsScene):
    """The board drawing (:class:`rigbuilder.render.board.BoardDrawing`) as graphics items the
    window shows: in the window's theme, language and unit, with tool tips, hover and highlight
    frames; an edit redraws only the pieces it changed. ``for_print``: drawn as on paper."""

    def __init__(self, parent=None, for_print: bool = False) -> None:
        QGraphicsScene.__init__(self, parent)
        self._init_drawing(for_print)
        self.setBackgroundBrush(QColor(self.pal.scene))
        self._hover: list[QGraphicsItem] = []
        self._highlight: list[QGraphicsItem] = []

    @property
    def pal(self) -> theme.Palette:
        """The colours around the board: the window's theme on screen, light on paper."""
        return theme.LIGHT if self.for_print else theme.colors()

    @property
    def lang(self) -> str:
        return ui_language()

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

    # -- the drawing's shapes as graphics items ---------------------------------------------
    def addItem(self, item: QGraphicsItem) -> None:  # noqa: N802 (Qt names)
        super().addItem(item)
        self._kept(item)

    def addRect(self, *args) -> QGraphicsRectItem:  # noqa: N802
        return self._kept(super().addRect(*args))

    def addSimpleText(self, *args) -> QGraphicsSimpleTextItem:  # noqa: N802
        return self._kept(super().addSimpleText(*args))

    def addLine(self, *args):  # noqa: N802
        return self._kept(super().addLine(*args))

    def _new_rect(self, rect: QRectF, parent: Optional[QGraphicsItem] = None) -> QGraphicsRectItem:
        return QGraphicsRectItem(rect, parent)

    def _new_ellipse(self, rect: QRectF) -> QGraphicsEllipseItem:
        return QGraphicsEllipseItem(rect)

    def _new_path(self, path) -> QGraphicsPathItem:
        return QGraphicsPathItem(path)

    def _new_text(self, text: str, parent: Optional[QGraphicsItem] = None) -> QGraphicsSimpleTextItem:
        return QGraphicsSimpleTextItem(text, parent)

    def _drawn(self, items: list) -> None:
        for it in items if not self.for_print else ():
            # Texts as pixmaps: Qt lays a simple text item's text out again on every paint,
            # the costliest part of repainting the board.
            cache_as_pixmap(it, only=QGraphicsSimpleTextItem)

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
        BoardDrawing.highlight(self, gpus, positions)
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

    ACCESSIBLE_BOARD = True  # described to assistive technology by rigbuilder.ui.board_access

    partDropped = Signal(str, object, bool)  # part id, expansion position or None, riser
    gpuMoved = Signal(int, object, bool)  # gpu index, new position or None, riser
    gpuDeleteRequested = Signal(int)
    powerLimitRequested = Signal(int)
    allPowerLimitsRequested = Signal()
    pricePaidRequested = Signal(str)  # part id: the price paid for this card's part in this build
    userPriceRequested = Signal(str)  # part id: your price for the part everywhere
    riserChosen = Signal(int, object)  # gpu index, riser part id or None (a riser of unknown kind)

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
        # The keyboard (issue 43): a cursor on an expansion position, a card carried along the slots.
        self.cursor_position = 1
        self.carried: Optional[int] = None
        self._carry_from = QPointF()
        self._focus_frame: Optional[QGraphicsItem] = None
        self.chosen_part: Callable[[], Optional[str]] = lambda: None  # the catalog's selected part (the window sets it)
        self.announcements: list[str] = []  # what was said to assistive technology, newest last
        self._problems_said: Optional[frozenset] = None
        from rigbuilder.ui import board_access

        board_access.install()
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
            self._say_new_problems()

    def refresh(self) -> None:
        # An edit the drawing does not show (a power limit, a price) changes no piece: no repaint.
        self.board_scene.show_build(self.doc.build, self.doc.context, self.doc.findings)
        self._fit()
        if self.selected_gpu is not None and self.selected_gpu >= len(self.doc.build.gpus):
            self.selected_gpu = None
        if self._problems_said is None:
            self._problems_said = self._problem_keys()
        self.cursor_position = min(max(1, self.cursor_position), self.position_count())
        self._show_focus()

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

    # -- the keyboard and assistive technology (issue 43) -----------------------------------
    def position_count(self) -> int:
        """The expansion positions the keyboard walks (the board's, or the case's where more)."""
        board = self.doc.context.board
        return max(1, self.board_scene.positions, board.expansion_positions if board else 0)

    def card_in(self, position: int) -> Optional[int]:
        """The card (0-based) standing in ``position``, else None."""
        for g in self.doc.context.gpus:
            if g.on_board and g.position == position:
                return g.num - 1
        return None

    def keyboard_target(self) -> tuple[str, int]:
        """What the keyboard is on: ("card", index) when a card stands at the cursor (or is carried),
        else ("slot", position)."""
        if self.carried is not None:
            return "card", self.carried
        idx = self.card_in(self.cursor_position)
        return ("card", idx) if idx is not None else ("slot", self.cursor_position)

    def announce(self, text: str) -> None:
        """Say ``text`` to assistive technology (a screen reader reads it out), as Qt's accessibility
        announcement; kept in ``announcements`` too."""
        from PySide6.QtGui import QAccessibleAnnouncementEvent

        self.announcements.append(text)
        del self.announcements[:-20]
        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(self, text))

    def _problem_keys(self) -> frozenset:
        return frozenset((f.code, f.gpus, f.positions, str(f.message)) for f in self.doc.findings
                         if f.severity is not Severity.INFO)

    def _say_new_problems(self) -> None:
        """After an edit: the errors and warnings it brought said aloud, and how many it resolved."""
        now = self._problem_keys()
        before = self._problems_said if self._problems_said is not None else now
        self._problems_said = now
        new = [f for f in sorted(self.doc.findings, key=lambda f: f.severity.rank)
               if f.severity is not Severity.INFO and (f.code, f.gpus, f.positions, str(f.message)) not in before]
        gone = len(before - now)
        words = [_("New problem: {message}", message=render_ui(f.message)) for f in new[:3]]
        if len(new) > 3:
            words.append(_("+{count} more", count=len(new) - 3))
        if gone:
            words.append(_("Problems resolved: {count}", count=gone))
        if words:
            self.announce(" ".join(words))
        QAccessible.updateAccessibility(QAccessibleEvent(self, QAccessible.Event.DescriptionChanged))

    def _target_words(self) -> str:
        from rigbuilder.ui.board_access import card_words, slot_words

        kind, key = self.keyboard_target()
        ctx, findings = self.doc.context, self.doc.findings
        name, desc = card_words(ctx, findings, key) if kind == "card" else slot_words(ctx, findings, key)[:2]
        return f"{name}. {desc}"

    def _focus_moved(self) -> None:
        """The focus frame where the keyboard is; screen readers told which child has the focus."""
        from rigbuilder.ui.board_access import item_index

        self._show_focus()
        i = item_index(self, self.keyboard_target())
        if i >= 0 and self.hasFocus():
            ev = QAccessibleEvent(self, QAccessible.Event.Focus)
            ev.setChild(i)
            QAccessible.updateAccessibility(ev)

    def _focus_rect(self) -> QRectF:
        kind, key = self.keyboard_target()
        sc = self.board_scene
        item = sc.card_items.get(key) if kind == "card" else sc.slot_items.get(key)
        if item is not None:
            return item.sceneBoundingRect().adjusted(-2, -2, 2, 2)
        y = sc.y_of(self.cursor_position)
        return QRectF(SLOT_X - 6, y - 7, 104, 14)

    def _show_focus(self) -> None:
        """A dashed frame, in the highlight colour, around what the keyboard is on while the board
        has the keyboard focus (the focus is visible); none otherwise."""
        sc = self.board_scene
        if self._focus_frame is not None and self._focus_frame.scene() is sc:
            sc.removeItem(self._focus_frame)
        self._focus_frame = None
        if not self.hasFocus():
            return
        pen = QPen(COLORS["highlight"], 1.6, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        frame = QGraphicsRectItem(self._focus_rect())
        frame.setPen(pen)
        frame.setZValue(40)
        sc.addItem(frame)
        self._focus_frame = frame

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        if self.selected_gpu is not None:
            g = self.doc.build.gpus[self.selected_gpu] if self.selected_gpu < len(self.doc.build.gpus) else None
            if g is not None and g.mount == MOUNT_SLOT and g.position is not None:
                self.cursor_position = g.position
        self._focus_moved()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self._show_focus()

    def _step(self, delta: int) -> None:
        n = self.position_count()
        self.cursor_position = min(max(1, self.cursor_position + delta), n)
        if self.carried is not None:
            idx = self.carried
            item = self.board_scene.card_items.get(idx)
            g = self.doc.build.gpus[idx]
            if item is not None and g.mount == MOUNT_SLOT and g.position is not None:
                dy = self.board_scene.y_of(self.cursor_position) - self.board_scene.y_of(g.position)
                item.setPos(self._carry_from + QPointF(0, dy))
            part = self.doc.index.get(g.part_id)
            text, sev = self._preview_text(MoveGpu(idx, self.cursor_position, False), idx + 1, self.cursor_position,
                                           False)
            self.show_preview(self.cursor_position, text, sev, False,
                              part.slot_width * SLOT_PITCH_MM if isinstance(part, GPU) else 0.0)
            self._focus_moved()
            self.announce(text.replace("\n", ". "))
            return
        self.selected_gpu = self.card_in(self.cursor_position)
        self.board_scene.highlight(() if self.selected_gpu is None else (self.selected_gpu + 1,), ())
        self._focus_moved()
        self.announce(self._target_words())

    def _end_carry(self) -> None:
        idx, self.carried = self.carried, None
        self.clear_preview()
        item = self.board_scene.card_items.get(idx) if idx is not None else None
        if item is not None:
            item.setPos(self._carry_from)

    def _enter(self) -> None:
        """Enter: place the carried card at the cursor (one undoable move, as a drag makes); else pick
        up the card at the cursor; else place the part chosen in the catalog in this position."""
        if self.carried is not None:
            idx, pos = self.carried, self.cursor_position
            self._end_carry()
            self.selected_gpu = idx
            self.gpuMoved.emit(idx, pos, False)
            self._focus_moved()
            self.announce(self._target_words())
            return
        idx = self.card_in(self.cursor_position)
        if idx is not None:
            self.carried = idx
            self.selected_gpu = idx
            item = self.board_scene.card_items.get(idx)
            self._carry_from = item.pos() if item is not None else QPointF()
            self.board_scene.highlight((idx + 1,), ())
            self._focus_moved()
            self.announce(_("GPU {num} picked up: Up and Down choose a position, Enter places it, Escape puts it "
                            "back", num=idx + 1))
            return
        pid = self.chosen_part()
        if not pid:
            self.announce(_("Choose a part in the catalog first, then press Enter on a free position"))
            return
        self.partDropped.emit(pid, self.cursor_position, False)
        self.selected_gpu = self.card_in(self.cursor_position)
        self._focus_moved()
        self.announce(self._target_words())

    def keyPressEvent(self, event) -> None:  # noqa: N802
        key = event.key()
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.selected_gpu is not None:
            if self.carried is not None:
                self._end_carry()
            self.gpuDeleteRequested.emit(self.selected_gpu)
            self._focus_moved()
            return
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Left, Qt.Key.Key_Down, Qt.Key.Key_Right):
            self._step(-1 if key in (Qt.Key.Key_Up, Qt.Key.Key_Left) else 1)
            return
        if key in (Qt.Key.Key_Home, Qt.Key.Key_End):
            self._step(-self.position_count() if key == Qt.Key.Key_Home else self.position_count())
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self._enter()
            return
        if key == Qt.Key.Key_Escape and self.carried is not None:
            self._end_carry()
            self._focus_moved()
            self.announce(_("Put back"))
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        keyboard = event.reason() == event.Reason.Keyboard
        idx = self.selected_gpu if keyboard else self._card_at(event.pos())
        if idx is None:
            return
        self.selected_gpu = idx
        where = event.globalPos()
        if keyboard and self.board_scene.card_items.get(idx) is not None:  # the menu at the card
            r = self.mapFromScene(self.board_scene.card_items[idx].sceneBoundingRect()).boundingRect()
            where = self.viewport().mapToGlobal(r.topLeft() + QPoint(8, 8))
        self.card_menu(idx).exec(where)

    def _riser_menu(self, menu: QMenu, idx: int) -> None:
        """The riser parts of the catalog to put the card on (a card in a slot moves onto it), and a riser of
        unknown kind; the one the card stands on is checked."""
        g = self.doc.build.gpus[idx]
        current = g.riser if g.mount == MOUNT_RISER else False
        menu.setToolTip(_("The riser cable the card stands on: its PCIe generation, lanes and length are checked"))
        risers = sorted(self.doc.index.of_kind("riser"), key=lambda r: (r.pcie_gen, r.length_mm, r.name.lower()))
        act = menu.addAction(_("Riser of unknown kind"), lambda: self.riserChosen.emit(idx, None))
        act.setCheckable(True)
        act.setChecked(current is None)
        if risers:
            menu.addSeparator()
        for r in risers:
            label = _("{name} (PCIe {gen}.0 x{lanes}, {length} mm)", name=r.name, gen=r.pcie_gen, lanes=r.lanes,
                      length=f"{r.length_mm:g}")
            act = menu.addAction(label, lambda rid=r.id: self.riserChosen.emit(idx, rid))
            act.setCheckable(True)
            act.setChecked(current == r.id)

    def card_menu(self, idx: int) -> QMenu:
        """A placed card's context menu (its actions only emit this view's signals)."""
        menu = QMenu(self)
        menu.addAction(_("Power limit for GPU {num}…", num=idx + 1), lambda: self.powerLimitRequested.emit(idx))
        if len(self.doc.build.gpus) > 1:
            menu.addAction(_("Power limit for all GPUs…"), self.allPowerLimitsRequested.emit)
        pid = self.doc.build.gpus[idx].part_id
        self._riser_menu(menu.addMenu(_("Riser")), idx)
        menu.addSeparator()
        menu.addAction(_("Price Paid in This Build…"), lambda: self.pricePaidRequested.emit(pid)).setToolTip(
            _("What you paid for this card: saved in this build, undoable"))
        menu.addAction(_("Your Price for This Part Everywhere…"), lambda: self.userPriceRequested.emit(pid)).setToolTip(
            _("Your price for this model in every build and report"))
        menu.addSeparator()
        menu.addAction(_("Remove GPU {num}", num=idx + 1), lambda: self.gpuDeleteRequested.emit(idx))
        return menu
