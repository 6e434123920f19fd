"""Small charts drawn with QPainter: a title, two axes with ticks, items in data coordinates and a
legend under the plot (issue 31).

The power and cost panel's three charts once were pyqtgraph plots: importing pyqtgraph held the
window 0.15 s and making three plots with legends another 0.2 s, each in one turn of the event
loop. A :class:`Chart` is one widget that lays itself out and paints its items in a few
milliseconds, and it is made in well under one.

Items (each a plain object the chart paints, in its z order, clipped to the plot's area):
:class:`Bars` (stacked bars: heights on bottoms), :class:`Curve` (a line; NaN breaks it),
:class:`Markers` (symbols at points), :class:`Line` (a horizontal or vertical line across the
plot) and :class:`TextBox` (a text, at a point in data coordinates with an anchor, or at a place
in the widget). A :class:`Legend` entry names an item with a sample drawn as the item draws.
Colours come from the caller (the panel follows ``ui.theme``); an item's tooltip shows when the
mouse rests on it; ``mouseMoved`` reports the mouse over the widget (None when it leaves).
"""
from __future__ import annotations

import math
from typing import Iterable, Optional, Sequence

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QToolTip, QWidget

TICK = 4  # pixels of a tick mark
PAD = 3  # pixels inside a text box around its text
TITLE_PT, AXIS_PT, TICK_PT, LEGEND_PT = 9.0, 9.0, 8.0, 8.0
PLOT_MIN = 60  # pixels: the least height of a chart's plot


def pen(color, width: float = 1.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A cosmetic pen (its width in pixels at any scale) of ``color`` (a name or a QColor)."""
    p = QPen(QColor(color), width, style)
    p.setCosmetic(True)
    return p


def brush(color) -> QBrush:
    return color if isinstance(color, QBrush) else QBrush(QColor(color))


def font(points: float) -> QFont:
    f = QFont()
    f.setPointSizeF(points)
    return f


def nice_step(span: float, most: int) -> float:
    """A tick step of 1, 2 or 5 x 10^n giving at most ``most`` steps over ``span``."""
    if span <= 0 or most < 1:
        return 1.0
    raw = span / most
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw - 1e-12:
            return m * mag
    return 10 * mag


def tick_values(lo: float, hi: float, step: float) -> list[float]:
    first = math.ceil(lo / step - 1e-9)
    out = []
    i = first
    while i * step <= hi + 1e-9 * max(1.0, abs(hi)):
        out.append(i * step)
        i += 1
    return out


def tick_text(v: float, step: float) -> str:
    """``v`` with as many decimals as ``step`` needs."""
    decimals = next((d for d in range(7) if abs(round(step, d) - step) < 1e-9 * max(1.0, step)), 6)
    text = f"{v:.{decimals}f}"
    return "0" if text.strip("-0.") == "" else text


def wrap_words(text: str, fm: QFontMetricsF, width: float) -> list[str]:
    """``text``'s lines (its own line breaks kept) no wider than ``width``, broken between words
    (a word wider than that gets a line of its own)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            if line and fm.horizontalAdvance(line + " " + word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


class Mapper:
    """Data coordinates to the widget's pixels for one layout of a chart."""

    def __init__(self, rect: QRectF, x_range: tuple[float, float], y_range: tuple[float, float]) -> None:
        self.rect = rect
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range
        self._sx = rect.width() / ((self.x1 - self.x0) or 1.0)
        self._sy = rect.height() / ((self.y1 - self.y0) or 1.0)

    def x(self, v: float) -> float:
        return self.rect.left() + (v - self.x0) * self._sx

    def y(self, v: float) -> float:
        return self.rect.bottom() - (v - self.y0) * self._sy

    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(self.x(x), self.y(y))

    def to_data(self, p: QPointF) -> tuple[float, float]:
        return (self.x0 + (p.x() - self.rect.left()) / self._sx, self.y0 + (self.rect.bottom() - p.y()) / self._sy)


# --------------------------------------------------------------------------- items

class Item:
    """Something a chart paints in its plot area."""

    def __init__(self) -> None:
        self.chart: Optional["Chart"] = None
        self._visible = True
        self._tip = ""
        self.z = 0.0

    def _changed(self) -> None:
        if self.chart is not None:
            self.chart.update()

    def isVisible(self) -> bool:  # noqa: N802 (as Qt names it)
        return self._visible

    def setVisible(self, visible: bool) -> None:  # noqa: N802
        if bool(visible) != self._visible:
            self._visible = bool(visible)
            self._changed()

    def show(self) -> None:
        self.setVisible(True)

    def hide(self) -> None:
        self.setVisible(False)

    def setPen(self, line: QPen) -> None:  # noqa: N802 (the items with a pen: bars, curves, markers, lines)
        self.pen = line
        self._changed()

    def toolTip(self) -> str:  # noqa: N802
        return self._tip

    def setToolTip(self, tip: str) -> None:  # noqa: N802
        self._tip = tip

    def paint(self, p: QPainter, m: Mapper) -> None:
        raise NotImplementedError

    def sample(self, p: QPainter, r: QRectF) -> None:
        """How a legend shows this item in ``r``."""

    def hit(self, pos: QPointF, m: Mapper) -> bool:
        """Whether ``pos`` (widget pixels) is on the item (for its tooltip)."""
        return False


class Swatch(Item):
    """A legend sample of a filled box (a bar's colour), never plotted."""

    def __init__(self, color) -> None:
        super().__init__()
        self.brush = brush(color)

    def paint(self, p: QPainter, m: Mapper) -> None:
        pass

    def sample(self, p: QPainter, r: QRectF) -> None:
        side = min(r.height(), 12.0)
        p.fillRect(QRectF(r.center().x() - side / 2, r.center().y() - side / 2, side, side), self.brush)


class Bars(Item):
    """Bars at ``xs`` of ``width`` (data units), each ``heights[i]`` high from ``bottoms[i]``."""

    def __init__(self, xs: Sequence[float], width: float, brushes: Sequence, line: QPen) -> None:
        super().__init__()
        self.xs = tuple(xs)
        self.width = width
        self.brushes = [brush(b) for b in brushes]
        self.pen = line
        self.heights: tuple[float, ...] = (0.0,) * len(self.xs)
        self.bottoms: tuple[float, ...] = (0.0,) * len(self.xs)

    def setData(self, heights: Sequence[float], bottoms: Sequence[float]) -> None:  # noqa: N802
        self.heights, self.bottoms = tuple(heights), tuple(bottoms)
        self._changed()

    def paint(self, p: QPainter, m: Mapper) -> None:
        p.setPen(self.pen)
        half = self.width / 2
        for x, h, y0, b in zip(self.xs, self.heights, self.bottoms, self.brushes):
            if h:
                p.setBrush(b)
                p.drawRect(QRectF(m.pt(x - half, y0 + h), m.pt(x + half, y0)).normalized())


class Curve(Item):
    """A line through points; a NaN in ``ys`` breaks it in pieces."""

    def __init__(self, line: QPen) -> None:
        super().__init__()
        self.pen = line
        self.xs: tuple[float, ...] = ()
        self.ys: tuple[float, ...] = ()

    def setData(self, xs: Iterable[float], ys: Iterable[float]) -> None:  # noqa: N802
        self.xs, self.ys = tuple(float(v) for v in xs), tuple(float(v) for v in ys)
        self._changed()

    def getData(self) -> tuple[tuple[float, ...], tuple[float, ...]]:  # noqa: N802
        return self.xs, self.ys

    def _path(self, m: Mapper) -> QPainterPath:
        path = QPainterPath()
        start = True
        for x, y in zip(self.xs, self.ys):
            if math.isnan(x) or math.isnan(y):
                start = True
            elif start:
                path.moveTo(m.pt(x, y))
                start = False
            else:
                path.lineTo(m.pt(x, y))
        return path

    def paint(self, p: QPainter, m: Mapper) -> None:
        if self.xs:
            p.setPen(self.pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(self._path(m))

    def sample(self, p: QPainter, r: QRectF) -> None:
        p.setPen(self.pen)
        y = r.center().y()
        p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y))

    def hit(self, pos: QPointF, m: Mapper) -> bool:
        pts = [None if math.isnan(x) or math.isnan(y) else m.pt(x, y) for x, y in zip(self.xs, self.ys)]
        for a, b in zip(pts, pts[1:]):
            if a is None or b is None:
                continue  # a gap
            dx, dy = b.x() - a.x(), b.y() - a.y()
            t = max(0.0, min(1.0, ((pos.x() - a.x()) * dx + (pos.y() - a.y()) * dy) / ((dx * dx + dy * dy) or 1.0)))
            if math.hypot(a.x() + t * dx - pos.x(), a.y() + t * dy - pos.y()) <= 4:
                return True
        return False


def symbol_path(symbol: str, size: float) -> QPainterPath:
    """A symbol of ``size`` pixels centred on (0, 0): "o" circle, "s" square, "d" diamond,
    "t" triangle pointing down."""
    h = size / 2
    path = QPainterPath()
    if symbol == "o":
        path.addEllipse(QPointF(0, 0), h, h)
    elif symbol == "s":
        path.addRect(QRectF(-h * 0.85, -h * 0.85, size * 0.85, size * 0.85))
    elif symbol == "d":
        path.addPolygon(QPolygonF([QPointF(0, -h), QPointF(h * 0.7, 0), QPointF(0, h), QPointF(-h * 0.7, 0)]))
        path.closeSubpath()
    else:  # "t"
        path.addPolygon(QPolygonF([QPointF(-h, -h * 0.6), QPointF(h, -h * 0.6), QPointF(0, h * 0.9)]))
        path.closeSubpath()
    return path


class Markers(Item):
    """A symbol at each point."""

    def __init__(self, symbol: str, size: float, fill, line: QPen) -> None:
        super().__init__()
        self.symbol, self.size = symbol, size
        self.brush, self.pen = brush(fill), line
        self.points: tuple[tuple[float, float], ...] = ()
        self._path = symbol_path(symbol, size)

    def setData(self, xs: Iterable[float], ys: Iterable[float]) -> None:  # noqa: N802
        self.points = tuple((float(x), float(y)) for x, y in zip(xs, ys))
        self._changed()

    def getData(self) -> tuple[tuple[float, ...], tuple[float, ...]]:  # noqa: N802
        return tuple(x for x, _y in self.points), tuple(y for _x, y in self.points)

    def setPos(self, x: float, y: float) -> None:  # noqa: N802
        """One marker, at (``x``, ``y``)."""
        self.setData((x,), (y,))

    def pos(self) -> QPointF:
        return QPointF(*self.points[0]) if self.points else QPointF()

    def setBrush(self, fill) -> None:  # noqa: N802
        self.brush = brush(fill)
        self._changed()

    def paint(self, p: QPainter, m: Mapper) -> None:
        p.setPen(self.pen)
        p.setBrush(self.brush)
        for x, y in self.points:
            p.drawPath(self._path.translated(m.pt(x, y)))

    def sample(self, p: QPainter, r: QRectF) -> None:
        p.setPen(self.pen)
        p.setBrush(self.brush)
        scale = min(1.0, r.height() / self.size)
        p.save()
        p.translate(r.center())
        p.scale(scale, scale)
        p.drawPath(self._path)
        p.restore()

    def hit(self, pos: QPointF, m: Mapper) -> bool:
        return any(math.hypot(m.x(x) - pos.x(), m.y(y) - pos.y()) <= self.size / 2 + 2 for x, y in self.points)


class Line(Item):
    """A line across the plot: horizontal at y = ``value``, or vertical at x = ``value``."""

    def __init__(self, value: float, line: QPen, vertical: bool = False) -> None:
        super().__init__()
        self._value, self.pen, self.vertical = float(value), line, vertical

    def value(self) -> float:
        return self._value

    def setValue(self, value: float) -> None:  # noqa: N802
        if float(value) != self._value:
            self._value = float(value)
            self._changed()

    def paint(self, p: QPainter, m: Mapper) -> None:
        p.setPen(self.pen)
        r = m.rect
        if self.vertical:
            x = m.x(self._value)
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()))
        else:
            y = m.y(self._value)
            p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y))

    def sample(self, p: QPainter, r: QRectF) -> None:
        p.setPen(self.pen)
        y = r.center().y()
        p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y))

    def hit(self, pos: QPointF, m: Mapper) -> bool:
        return abs((m.x(self._value) - pos.x()) if self.vertical else (m.y(self._value) - pos.y())) <= 3


class TextBox(Item):
    """A text (its lines as given, or wrapped at ``setTextWidth``) in an optional box.

    Placed at a point in data coordinates (:meth:`setPos`) with its ``anchor`` there (0, 0: the
    box's top left; 1, 1: its bottom right, as fractions of its size), or at a place in the widget
    (:meth:`place`)."""

    def __init__(self, color, fill=None, border: Optional[QPen] = None, anchor=(0.0, 0.0),
                 text_font: Optional[QFont] = None) -> None:
        super().__init__()
        self.color = QColor(color)
        self.fill: Optional[QBrush] = brush(fill) if fill is not None else None
        self.border = border
        self.anchor = anchor
        self.font = text_font or QFont()
        self._text = ""
        self._width = -1.0
        self._at: Optional[tuple[float, float]] = None  # data coordinates
        self._place: Optional[QPointF] = None  # widget pixels (the box's top left)
        self.placer = None  # or a callable(mapper, box) -> its top left, asked as it is painted
        self._lines: Optional[list[str]] = None

    def setText(self, text: str) -> None:  # noqa: N802
        if text != self._text:
            self._text, self._lines = text, None
            self._changed()

    def toPlainText(self) -> str:  # noqa: N802
        return self._text

    def setColor(self, color) -> None:  # noqa: N802
        self.color = QColor(color)
        self._changed()

    def setFont(self, f: QFont) -> None:  # noqa: N802
        self.font, self._lines = QFont(f), None
        self._changed()

    def setTextWidth(self, width: float) -> None:  # noqa: N802
        """Wrap the text at ``width`` pixels (-1: only at its own line breaks)."""
        if self.wrap_at(width):
            self._changed()

    def wrap_at(self, width: float) -> bool:
        """As :meth:`setTextWidth`, without asking the chart to paint again (while it paints);
        True if that changed the width."""
        if width == self._width:
            return False
        self._width, self._lines = width, None
        return True

    def setPos(self, x: float, y: float) -> None:  # noqa: N802
        self._at, self._place = (float(x), float(y)), None
        self._changed()

    def place(self, top_left: QPointF) -> None:
        self._place, self._at = QPointF(top_left), None
        self._changed()

    def pos(self) -> QPointF:
        return QPointF(*self._at) if self._at is not None else QPointF(self._place or QPointF())

    def lines(self) -> list[str]:
        if self._lines is None:
            fm = QFontMetricsF(self.font)
            self._lines = (wrap_words(self._text, fm, self._width) if self._width > 0 else self._text.split("\n"))
        return self._lines

    def size(self) -> tuple[float, float]:
        """The box's width and height in pixels."""
        fm = QFontMetricsF(self.font)
        lines = self.lines()
        w = max((fm.horizontalAdvance(s) for s in lines), default=0.0)
        return w + 2 * PAD, fm.lineSpacing() * len(lines) + 2 * PAD

    def rect(self, m: Optional[Mapper] = None) -> QRectF:
        """Where the box is, in widget pixels (``m``: the chart's mapping, by default its current one)."""
        w, h = self.size()
        if self.placer is not None:
            m = m or (self.chart.mapper() if self.chart is not None else None)
            if m is not None:
                at = self.placer(m, self)
                w, h = self.size()  # (the placer may wrap the text)
                return QRectF(at.x(), at.y(), w, h)
        if self._place is not None:
            return QRectF(self._place.x(), self._place.y(), w, h)
        m = m or (self.chart.mapper() if self.chart is not None else None)
        if self._at is None or m is None:
            return QRectF(0, 0, w, h)
        at = m.pt(*self._at)
        return QRectF(at.x() - self.anchor[0] * w, at.y() - self.anchor[1] * h, w, h)

    def paint(self, p: QPainter, m: Mapper) -> None:
        if not self._text:
            return
        r = self.rect(m)
        if self.fill is not None or self.border is not None:
            p.setPen(self.border if self.border is not None else Qt.PenStyle.NoPen)
            p.setBrush(self.fill if self.fill is not None else Qt.BrushStyle.NoBrush)
            p.drawRect(r)
        p.setFont(self.font)
        p.setPen(self.color)
        fm = QFontMetricsF(self.font)
        y = r.top() + PAD + fm.ascent()
        for line in self.lines():
            p.drawText(QPointF(r.left() + PAD, y), line)
            y += fm.lineSpacing()

    def hit(self, pos: QPointF, m: Mapper) -> bool:
        return bool(self._text) and self.rect(m).contains(pos)


# --------------------------------------------------------------------------- legend

class LegendEntry:
    """One entry of a legend: its sample item and its text."""

    def __init__(self, legend: "Legend", sample: Item, text: str) -> None:
        self.legend, self.sample, self.text = legend, sample, text
        self.visible = True
        self.tip = ""
        self.rect = QRectF()  # where it was last painted

    def setText(self, text: str) -> None:  # noqa: N802
        if text != self.text:
            self.text = text
            self.legend.changed()

    def setToolTip(self, tip: str) -> None:  # noqa: N802
        self.tip = tip

    def toolTip(self) -> str:  # noqa: N802
        return self.tip


SAMPLE_W = 22  # pixels of an entry's sample
ENTRY_GAP = 15  # pixels between an entry's text and the next column


class Legend:
    """Entries under a chart's plot, in rows of at most ``columns``: fewer a row where the names
    are longer than the chart is wide."""

    def __init__(self, chart: "Chart", columns: int) -> None:
        self.chart, self.columns = chart, columns
        self.entries: list[LegendEntry] = []
        self.font = font(LEGEND_PT)
        self._visible = True

    def isVisible(self) -> bool:  # noqa: N802
        return self._visible

    def setVisible(self, visible: bool) -> None:  # noqa: N802
        if bool(visible) != self._visible:
            self._visible = bool(visible)
            self.changed()

    @property
    def items(self) -> list[tuple[Item, LegendEntry]]:
        """The entries shown, as (sample, entry)."""
        return [(e.sample, e) for e in self.entries if e.visible]

    def changed(self) -> None:
        self.chart.relayout()

    def add(self, sample: Item, text: str) -> LegendEntry:
        e = LegendEntry(self, sample, text)
        self.entries.append(e)
        self.changed()
        return e

    def entry(self, sample: Item) -> LegendEntry:
        return next(e for e in self.entries if e.sample is sample)

    def set_shown(self, sample: Item, shown: bool) -> None:
        e = self.entry(sample)
        if e.visible != shown:
            e.visible = shown
            self.changed()

    def column_count(self, width: float) -> int:
        fm = QFontMetricsF(self.font)
        widths = [fm.horizontalAdvance(e.text) for e in self.entries if e.visible]
        for cols in range(self.columns, 1, -1):  # entry i sits in column i % cols
            if sum(max(widths[c::cols], default=0.0) + SAMPLE_W + 6 + ENTRY_GAP for c in range(cols)) <= width:
                return cols
        return 1

    def height(self, width: float) -> float:
        shown = sum(e.visible for e in self.entries)
        if not shown or not self._visible:
            return 0.0
        rows = -(-shown // self.column_count(width))
        return rows * self.row_h() + 4

    def row_h(self) -> float:
        return QFontMetricsF(self.font).lineSpacing() + 2

    def paint(self, p: QPainter, r: QRectF, text_color: QColor) -> None:
        shown = [e for e in self.entries if e.visible]
        if not shown or not self._visible:
            return
        cols = self.column_count(r.width())
        fm = QFontMetricsF(self.font)
        widths = [max((fm.horizontalAdvance(e.text) for e in shown[c::cols]), default=0.0) for c in range(cols)]
        lefts, x = [], r.left()
        for w in widths:
            lefts.append(x)
            x += SAMPLE_W + 6 + w + ENTRY_GAP
        row_h = self.row_h()
        p.setFont(self.font)
        for i, e in enumerate(shown):
            row, col = divmod(i, cols)
            top = r.top() + 2 + row * row_h
            e.rect = QRectF(lefts[col], top, SAMPLE_W + 6 + widths[col], row_h)
            p.save()
            e.sample.sample(p, QRectF(lefts[col], top + 1, SAMPLE_W, row_h - 2))
            p.restore()
            p.setPen(text_color)
            p.drawText(QPointF(lefts[col] + SAMPLE_W + 6, top + (row_h - fm.height()) / 2 + fm.ascent()), e.text)


# --------------------------------------------------------------------------- the chart

class Chart(QWidget):
    """One chart: title, axes, items, legend (see the module's text)."""

    mouseMoved = Signal(object)  # QPointF in the widget's pixels, or None when the mouse leaves

    def __init__(self, legend_columns: int = 3, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.items: list[Item] = []
        self.legend = Legend(self, legend_columns)
        self.title = ""
        self.labels = {"left": "", "bottom": ""}
        self.x_range: tuple[float, float] = (0.0, 1.0)
        self.y_range: tuple[float, float] = (0.0, 1.0)
        self.x_ticks: Optional[list[tuple[float, str]]] = None  # named ticks; None: numbers
        self.background = QColor("white")
        self.axis_pen = pen("#808080")
        self.text_color = QColor("black")
        self.fonts = {"title": font(TITLE_PT), "axis": font(AXIS_PT), "tick": font(TICK_PT)}
        self._layout: Optional[tuple] = None  # (key, plot rect, title lines, legend rect)

    # -- what it shows ------------------------------------------------------------------------
    def add(self, item: Item, z: Optional[float] = None) -> Item:
        item.chart = self
        if z is not None:
            item.z = z
        self.items.append(item)
        self.items.sort(key=lambda i: i.z)  # (stable: the order added among equals)
        self.update()
        return item

    def relayout(self) -> None:
        self._layout = None
        self.updateGeometry()
        self.update()

    def setTitle(self, text: str) -> None:  # noqa: N802
        if text != self.title:
            self.title = text
            self.relayout()

    def setLabel(self, axis: str, text: str) -> None:  # noqa: N802
        if self.labels[axis] != text:
            self.labels[axis] = text
            self.relayout()

    def label(self, axis: str) -> str:
        return self.labels[axis]

    def setXRange(self, lo: float, hi: float, padding: float = 0.0) -> None:  # noqa: N802
        pad = (hi - lo) * padding
        if (lo - pad, hi + pad) != self.x_range:
            self.x_range = (lo - pad, hi + pad)
            self.relayout()

    def setYRange(self, lo: float, hi: float, padding: float = 0.0) -> None:  # noqa: N802
        pad = (hi - lo) * padding
        if (lo - pad, hi + pad) != self.y_range:
            self.y_range = (lo - pad, hi + pad)
            self.relayout()  # (the left axis's labels may be wider)

    def setTicks(self, ticks: Optional[list[tuple[float, str]]]) -> None:  # noqa: N802
        """Named ticks on the bottom axis (None: numbers)."""
        self.x_ticks = ticks
        self.relayout()

    def set_colors(self, background, axis, text) -> None:
        self.background, self.axis_pen, self.text_color = QColor(background), pen(axis), QColor(text)
        self.update()

    # -- layout -------------------------------------------------------------------------------
    def _y_ticks(self, height: float) -> tuple[list[float], float]:
        lo, hi = self.y_range
        step = nice_step(hi - lo, max(1, int(height // 24)))
        return tick_values(lo, hi, step), step

    def _x_ticks(self, width: float) -> list[tuple[float, str]]:
        if self.x_ticks is not None:
            return self.x_ticks
        lo, hi = self.x_range
        fm = QFontMetricsF(self.fonts["tick"])
        widest = max(fm.horizontalAdvance(tick_text(v, 1.0)) for v in (lo, hi)) + 24
        step = nice_step(hi - lo, max(1, int(width // max(40.0, widest))))
        return [(v, tick_text(v, step)) for v in tick_values(lo, hi, step)]

    def _compute_layout(self) -> tuple:
        key = (self.width(), self.height(), self.title, self.labels["left"], self.labels["bottom"],
               self.x_range, self.y_range)
        if self._layout is not None and self._layout[0] == key:
            return self._layout
        w, h = float(self.width()), float(self.height())
        tf, af, kf = (QFontMetricsF(self.fonts[k]) for k in ("title", "axis", "tick"))
        title_lines = wrap_words(self.title, tf, w - 16) if self.title else []
        top = 4 + len(title_lines) * tf.lineSpacing() + (4 if title_lines else 6)
        legend_h = self.legend.height(w - 8)
        bottom_h = TICK + 2 + kf.height() + (af.lineSpacing() + 2 if self.labels["bottom"] else 0)
        plot_h = max(10.0, h - top - bottom_h - legend_h - 2)
        ys, step = self._y_ticks(plot_h)
        tick_w = max((kf.horizontalAdvance(tick_text(v, step)) for v in ys), default=0.0)
        left = 4 + (af.lineSpacing() + 2 if self.labels["left"] else 0) + tick_w + 3 + TICK
        plot = QRectF(left, top, max(10.0, w - left - 10), plot_h)
        legend = QRectF(4, plot.bottom() + bottom_h, w - 8, legend_h)
        self._layout = (key, plot, title_lines, legend, [(v, tick_text(v, step)) for v in ys])
        return self._layout

    def plot_rect(self) -> QRectF:
        """The plot's area in the widget's pixels (inside the axes)."""
        return QRectF(self._compute_layout()[1])

    def mapper(self) -> Mapper:
        return Mapper(self.plot_rect(), self.x_range, self.y_range)

    def minimum_height(self, width: float) -> float:
        """The least height that leaves the plot ``PLOT_MIN`` high at ``width``."""
        tf, af, kf = (QFontMetricsF(self.fonts[k]) for k in ("title", "axis", "tick"))
        title = len(wrap_words(self.title, tf, width - 16)) * tf.lineSpacing() + 8 if self.title else 6
        return title + PLOT_MIN + TICK + 2 + kf.height() + af.lineSpacing() + 4 + self.legend.height(width - 8)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, int(self.minimum_height(max(200, self.width()))))

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(380, int(self.minimum_height(380)) + 120)

    # -- painting -----------------------------------------------------------------------------
    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt name)
        _key, plot, title_lines, legend, y_ticks = self._compute_layout()
        p = QPainter(self)
        p.fillRect(self.rect(), self.background)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        tf, af, kf = (QFontMetricsF(self.fonts[k]) for k in ("title", "axis", "tick"))
        # title, centred over the plot
        p.setPen(self.text_color)
        p.setFont(self.fonts["title"])
        y = 4 + tf.ascent()
        for line in title_lines:
            cx = plot.center().x() if tf.horizontalAdvance(line) < plot.width() else self.width() / 2
            p.drawText(QPointF(max(4.0, cx - tf.horizontalAdvance(line) / 2), y), line)
            y += tf.lineSpacing()
        m = Mapper(plot, self.x_range, self.y_range)
        # items, clipped to the plot
        p.save()
        p.setClipRect(plot.adjusted(-1, -1, 1, 1))
        for item in self.items:
            if item._visible:
                item.paint(p, m)
        p.restore()
        # axes
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.setPen(self.axis_pen)
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        p.drawLine(plot.bottomLeft(), plot.topLeft())
        p.setFont(self.fonts["tick"])
        for v, text in y_ticks:
            yy = m.y(v)
            p.setPen(self.axis_pen)
            p.drawLine(QPointF(plot.left() - TICK, yy), QPointF(plot.left(), yy))
            p.setPen(self.text_color)
            p.drawText(QPointF(plot.left() - TICK - 3 - kf.horizontalAdvance(text), yy + kf.ascent() / 2 - 1), text)
        for v, text in self._x_ticks(plot.width()):
            xx = m.x(v)
            if xx < plot.left() - 0.5 or xx > plot.right() + 0.5:
                continue
            p.setPen(self.axis_pen)
            p.drawLine(QPointF(xx, plot.bottom()), QPointF(xx, plot.bottom() + TICK))
            p.setPen(self.text_color)
            p.drawText(QPointF(xx - kf.horizontalAdvance(text) / 2, plot.bottom() + TICK + 2 + kf.ascent()), text)
        p.setFont(self.fonts["axis"])
        p.setPen(self.text_color)
        if self.labels["bottom"]:
            text = self.labels["bottom"]
            p.drawText(QPointF(plot.center().x() - af.horizontalAdvance(text) / 2,
                               plot.bottom() + TICK + 2 + kf.height() + 2 + af.ascent()), text)
        if self.labels["left"]:
            self._paint_left_label(p, plot)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.legend.paint(p, legend, self.text_color)
        p.end()

    def _paint_left_label(self, p: QPainter, plot: QRectF) -> None:
        """The left axis's label on its side, centred on the plot: as long as the plot and its
        bottom axis are high, in a smaller font where it is longer, shortened with "…" where it
        is longer still."""
        top, bottom = plot.top(), plot.bottom() + TICK + QFontMetricsF(self.fonts["tick"]).height()
        f = QFont(self.fonts["axis"])
        text = self.labels["left"]
        fm = QFontMetricsF(f)
        while fm.horizontalAdvance(text) > bottom - top and f.pointSizeF() > 7:
            f.setPointSizeF(f.pointSizeF() - 0.5)
            fm = QFontMetricsF(f)
        text = fm.elidedText(text, Qt.TextElideMode.ElideRight, bottom - top)
        length = fm.horizontalAdvance(text)
        centre = plot.center().y() if length <= plot.height() else (top + bottom) / 2
        p.save()
        p.setFont(f)
        p.translate(4 + QFontMetricsF(self.fonts["axis"]).ascent(), centre + length / 2)
        p.rotate(-90)
        p.drawText(QPointF(0, 0), text)
        p.restore()

    # -- the mouse ------------------------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        self.mouseMoved.emit(event.position())
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802
        self.mouseMoved.emit(None)
        super().leaveEvent(event)

    def tip_at(self, pos: QPointF) -> str:
        """The tooltip of what lies under ``pos`` (the topmost item or legend entry that has one)."""
        m = self.mapper()
        if m.rect.contains(pos):
            for item in reversed(self.items):
                if item._visible and item._tip and item.hit(pos, m):
                    return item._tip
        for e in self.legend.entries if self.legend.isVisible() else ():
            if e.visible and e.tip and e.rect.contains(pos):
                return e.tip
        return ""

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            tip = self.tip_at(event.position() if hasattr(event, "position") else QPointF(event.pos()))
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)


class ChartColumn(QWidget):
    """Charts one under the other. Each gets the height its title, axes and legend take, and
    the height left is shared among their plots by weight (a chart with a longer legend, a
    language's longer names, does not get a shorter plot)."""

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.charts: list[Chart] = []
        self.weights: list[float] = []

    def add(self, chart: Chart, weight: float) -> Chart:
        chart.setParent(self)
        self.charts.append(chart)
        self.weights.append(weight)
        self.place()
        return chart

    def place(self) -> None:
        """Set each chart's geometry for the column's size."""
        w = self.width()
        fixed = [c.minimum_height(w) - PLOT_MIN for c in self.charts]
        free = max(0.0, self.height() - sum(fixed))
        total = sum(self.weights) or 1.0
        y = 0
        for chart, f, weight in zip(self.charts, fixed, self.weights):
            h = int(round(f + free * weight / total))
            chart.setGeometry(0, y, w, h)
            chart.show()
            y += h

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self.place()

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # a chart's title or legend took more or less room
            self.place()
        return super().event(event)
