"""Power and running-cost graphs with their controls (issues 5 and 23).

Three pyqtgraph plots, created once and updated with ``setData``/``setOpts`` afterwards. What
they show is computed Qt-free by ``rigbuilder.models.plots.describe`` (a frozen description a plot
at a time: bars, lines, curve pieces with their extrapolated flag, sliders, labels as translatable
texts); this panel only draws it:

- power: stacked bars by component kind for idle/training/peak (DC), the wall draw as markers,
  and horizontal lines for the PSU rating, its 80% line and the wall circuit's continuous limit;
- PSU efficiency: the 80 PLUS curve of the build's PSU level for the region's voltage table, with
  the build's operating points marked (dashed where the curve is extrapolated);
- cumulative cost over months (purchase + energy) with comparison scenarios overlaid, and the
  cumulative rent of the same GPUs in a cloud for the same hours of use (``models.renting``), with
  the month where buying beats renting marked and labelled.

The panel follows a ``BuildDocument`` (:meth:`PowerCostPanel.follow`): on each change the
document reports (``edited``, a ``Changed``), anything but a new name or notes describes the
build again, and each plot, control and text is drawn again only where its part of the new
description differs from the one drawn. The controls never edit the build: they emit
``settingsEdited(dict)`` and ``powerLimitEdited(gpu_index, watts_or_None)``; the owner turns
those into undoable commands, and the document's change comes back here, where the controls are
updated inside signal blockers (nothing loops).

The panel is made in pieces (:meth:`PowerCostPanel.steps`), each a few milliseconds: a chart's
view and plot, its items and legend, its styling (issue 36; ``ui.panel_loader`` imports pyqtgraph
in pieces before, ``ui.graphs_import``).
"""
from __future__ import annotations

import html
import os
from typing import Iterator, Optional

# The plots' arrays are a few dozen numbers: OpenBLAS worker threads only wake up and spin on
# every call, taking a core from the window on a small machine. Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QPointF, QSignalBlocker, Qt, Signal  # noqa: E402
from PySide6.QtGui import QAction, QFont, QFontMetrics  # noqa: E402
from PySide6.QtWidgets import (QApplication, QBoxLayout, QComboBox, QDoubleSpinBox, QFormLayout, QFrame,  # noqa: E402
                               QGraphicsItem, QGridLayout, QGroupBox, QScrollArea,
                               QLabel, QSizePolicy, QSlider, QSpinBox, QVBoxLayout, QWidget)

from rigbuilder.domain.build import REGIONS, Build
from rigbuilder.domain import fields as F
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.edits import Changed
from rigbuilder.models import plots as plot_model
from rigbuilder.models.plots import SCENARIO_KEYS, STATES, PanelDescription
from rigbuilder.rules.context import Context
from rigbuilder.ui import theme
from rigbuilder.ui.i18n import N_, _, render_ui
from rigbuilder.ui.widgets import QuietLabel, cache_as_pixmap, follow_ui_locale

EMPTY_FIGURES = plot_model.EMPTY_FIGURES
SHARE_COLORS = ("#76b7b2", "#f28e2b", "#b07aa1", "#59a14f", "#edc948", "#4e79a7", "#9c755f", "#bab0ac", "#ff9da7",
                "#e15759")
"""The power bars' colours (Tableau 10), one a share in ``models.plots.SHARES`` order, again from the
first after the tenth."""


def share_colors() -> dict[str, str]:
    """Each power share (a part kind that draws power) and its bar's colour."""
    return {k.name: SHARE_COLORS[i % len(SHARE_COLORS)] for i, k in enumerate(plot_model.SHARES)}
STATE_COLORS = {"idle": "#59a14f", "training": "#4e79a7", "peak": "#e15759"}
LEGEND_KEYS = SCENARIO_KEYS + ("rent",)
"""The cost legend's optional entries, in the order they are shown (after "this build"); renting,
the longest name, last: beside a short one, so that two entries still fit a row."""
RIGHT_CLEAR = 14  # pixels the verdict keeps clear of the cost plot's right edge
RENT_COLORS = ("#0f8b9c", "#4dd0e1")  # renting's line and break-even mark on a light, a dark background
SCENARIO_PENS = {"psu_better": ("#59a14f", Qt.PenStyle.DashLine), "power_limit": ("#f28e2b", Qt.PenStyle.DashLine),
                 "price": ("#e15759", Qt.PenStyle.DotLine)}
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY", "CAD", "AUD", "SEK", "PLN")
LIMIT_STEP_W = 5
BAR_WIDTH = 0.55
VISIBLE_LIMIT_ROWS = 4
LEGEND_COLUMNS = {"power": 3, "eff": 3, "cost": 2}  # legends sit under their plots, this many entries a row
WIDE = 860  # wider than this: controls beside the plots; narrower: above them
RENT_PRICE_HELP = N_("Cloud price per GPU-hour to compare owning with, in the build's currency; saved in the "
                     "build. At {none}: the cheapest published example for the build's GPUs.")
"""The rent price box's own help, before what the rent line rests on."""
OP_ANCHORS = {"idle": (-0.15, -0.1), "training": (0.9, -0.3), "peak": (0.9, 1.1)}
"""Where each operating point's label sits (the fraction of the label's box at the point)."""
CHART_WEIGHTS = (4, 3, 3)
"""How the column's height is shared among the power, efficiency and cost charts."""
TITLE_PT = 9


def pen(color, width: float = 1.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine):
    """A cosmetic pen (its width in pixels at any zoom) of ``color``."""
    return pg.mkPen(color, width=width, style=style)


def _style_plot(p: "pg.PlotItem", left: str, bottom: str) -> None:
    """Axes in the theme's colours, labelled ``left`` and ``bottom`` (empty: none)."""
    c = theme.colors()
    for name, text in (("left", left), ("bottom", bottom)):
        ax = p.getAxis(name)
        ax.setPen(pg.mkPen(c.axis))
        ax.setTextPen(pg.mkPen(c.grid_text))
        ax.setLabel(text, color=c.grid_text)


def _new_plot(view: "pg.GraphicsLayoutWidget") -> "pg.PlotItem":
    """A plot in ``view``'s first row, with its legend's row under it; still, no menus."""
    p = view.addPlot(row=0, col=0, enableMenu=False)  # (no view box menu made)
    for name in ("left", "bottom"):
        # Repainting an axis replays its QPicture (about 1 ms); items next to it (bars from 0, a
        # curve from month 0) dirty it on every edit. A device cache makes that a pixmap copy.
        p.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    # No grid: pyqtgraph redraws its grid lines with the axis, about 6 ms a plot whenever the
    # range changes; the reference lines and hover figures remain.
    p.setMenuEnabled(False)
    p.hideButtons()
    p.setMouseEnabled(x=False, y=False)
    return p


def _legend_text(text) -> str:
    """A core text as a legend names it (pyqtgraph's labels are rich text: a provider's name is escaped)."""
    return html.escape(render_ui(text), quote=False)


def _rich(lines) -> str:
    """Core texts as paragraphs of rich text, which Qt wraps in a tooltip."""
    return "<p>" + "</p><p>".join(html.escape(render_ui(x)) for x in lines) + "</p>"

class _RowStack(QWidget):
    """Rows of one height, one under the other, placed by hand. A GPU added or removed shows or
    hides its row and moves no other: a layout would lay out and repaint every row, twice."""

    def __init__(self, row_h: int, gap: int) -> None:
        super().__init__()
        self._row_h, self._gap = row_h, gap
        self._shown: list[QWidget] = []
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)  # taller: paint only the new part
        self.setFixedHeight(0)

    def show_rows(self, rows: list[QWidget]) -> None:
        """Show ``rows`` (in order) and hide the rows shown before that are not among them."""
        if rows == self._shown:
            return
        for row in self._shown:
            if row not in rows:
                row.hide()
        step = self._row_h + self._gap
        for i, row in enumerate(rows):
            if row.parent() is not self:
                row.setParent(self)
                # As wide as a row needs, at least (a narrow panel clips the rows' right end, as
                # a layout would; it never squeezes the slider over the label).
                self.setMinimumWidth(max(self.minimumWidth(), row.minimumSizeHint().width() + 4))
            row.setGeometry(0, i * step, self.width() - 4, self._row_h)  # placed before it is shown
            row.show()
        self._shown = list(rows)
        self.setFixedHeight(max(0, len(rows) * step - self._gap))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        for row in self._shown:
            row.resize(self.width() - 4, self._row_h)


class _LimitRow(QWidget):
    """One GPU's power-limit slider (a ``models.plots.LimitSlider`` drawn); emits through the panel."""

    def __init__(self, panel: "PowerCostPanel", idx: int) -> None:
        super().__init__()
        self.panel = panel
        self.idx = idx
        self.shown: Optional[plot_model.LimitSlider] = None  # what it draws
        self.label = QLabel()
        # Of fixed size: its text changes with every edit, and a label of fixed width and height
        # does not make Qt lay out the panel again.
        fm = self.label.fontMetrics()
        widest = max(fm.horizontalAdvance(render_ui(plot_model.limit_label(8, w, 450))) for w in (450, 449))
        self.label.setFixedSize(widest + 8, self.label.sizeHint().height())
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setTracking(False)  # a drag edits the build once, on release (one undo entry)
        self.slider.setSingleStep(LIMIT_STEP_W)
        self.slider.setPageStep(25)
        self.slider.setMinimumWidth(90)
        lay = QGridLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label, 0, 0)
        lay.addWidget(self.slider, 0, 1)
        lay.setColumnStretch(1, 1)
        self.slider.sliderMoved.connect(self._preview)
        self.slider.valueChanged.connect(self._changed)

    def draw(self, d: plot_model.LimitSlider) -> None:
        old, self.shown = self.shown, d
        self.idx = d.index
        if d == old:
            return  # unchanged: no relayout, no repaint
        if old is None or d.tip != old.tip:
            self.slider.setToolTip("\n".join(render_ui(t) for t in d.tip))
        with QSignalBlocker(self.slider):
            if old is None or (d.lo, d.hi) != (old.lo, old.hi):
                self.slider.setRange(d.lo, d.hi)
            self.slider.setValue(d.value)
        self.label.setText(render_ui(d.label))

    def _preview(self, v: int) -> None:
        """While dragging: the watts and the speed the model gives them (nothing edited yet)."""
        d = self.shown
        if d is not None:
            self.label.setText(render_ui(plot_model.limit_label(d.num, v, d.board_w)))

    def _changed(self, v: int) -> None:
        self._preview(v)
        if self.shown is not None:
            self.panel.powerLimitEdited.emit(self.idx, F.limit_for(v, self.shown.board_w))


class PowerCostPanel(QWidget):
    """Power draw, PSU efficiency and running cost of one build, with the settings behind them.

    ``in_steps``: made by :meth:`steps` (the window makes it a piece each turn of its event
    loop); without, at once."""

    settingsEdited = Signal(dict)
    powerLimitEdited = Signal(int, object)

    def __init__(self, parent=None, *, in_steps: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("PowerCostPanel")
        self.context: Optional[Context] = None  # the resolved build last described
        self.description: Optional[PanelDescription] = None  # what is drawn
        self._doc = None  # the BuildDocument followed, if any
        self._box_notes: tuple = ()  # the rent notes the rent price box's tooltip says
        self._steps = self._make()
        if not in_steps:
            for _step in self._steps:
                pass

    def steps(self) -> Iterator[None]:
        """Make the panel a piece at a time: each ``next`` makes one (a few ms)."""
        return self._steps

    def _make(self) -> Iterator[None]:
        yield from self._make_controls()
        yield from self._make_plots()
        follow_ui_locale(self)
        theme.notifier().changed.connect(self.restyle)
        self._outer = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self._outer.setContentsMargins(4, 4, 4, 4)
        self._outer.addWidget(self.controls, 0, Qt.AlignmentFlag.AlignTop)
        self._outer.addWidget(self.plots, 1)
        self._arrange(self.width())

    # -- construction ---------------------------------------------------------------------------
    def _make_controls(self) -> Iterator[None]:
        c = self.controls = QWidget()
        c.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        self.region = QComboBox()
        for code, r in REGIONS.items():
            self.region.addItem(_(r.label), code)
        self.region.setToolTip(_(F.REGION.help))
        self.price = QDoubleSpinBox()
        self.price.setRange(F.PRICE_PER_KWH.lo, F.PRICE_PER_KWH.hi)
        self.price.setDecimals(3)
        # The range holds a yen price (about 30 JPY/kWh); the box may be as narrow as a price under
        # 10 needs, so that the panel keeps its width beside the board.
        self.price.setMinimumWidth(self.price.minimumSizeHint().width() - self.price.fontMetrics().horizontalAdvance("00"))
        self.price.setSingleStep(0.01)
        self.price.setKeyboardTracking(False)
        self.currency = QComboBox()
        self.currency.addItems(CURRENCIES)
        self.load_hours = QDoubleSpinBox()
        self.idle_hours = QDoubleSpinBox()
        for sb in (self.load_hours, self.idle_hours):
            sb.setRange(F.LOAD_HOURS.lo, F.LOAD_HOURS.hi)
            sb.setDecimals(1)
            sb.setSingleStep(0.5)
            sb.setSuffix(_(" h/day"))
            sb.setKeyboardTracking(False)
        self.years = QSpinBox()
        self.years.setRange(1, 10)
        self.years.setValue(3)
        self.years.setSuffix(_(" years"))
        self.years.setToolTip(_("Horizon of the cost graph and the cost of ownership (not saved in the build)"))
        self.budget = QDoubleSpinBox()
        self.budget.setRange(F.BUDGET.lo, F.BUDGET.hi)
        self.budget.setDecimals(0)
        self.budget.setSingleStep(100)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSpecialValueText(_("none"))
        self.budget.setKeyboardTracking(False)
        self.budget.setToolTip(_("A limit on the purchase (parts), in the build's currency; 0 = no budget. "
                                 "Saved in the build; a finding says when the parts cost more."))
        self.rent_price = QDoubleSpinBox()
        self.rent_price.setRange(0.0, F.RENT_PER_GPU_HOUR.hi)
        self.rent_price.setDecimals(2)
        self.rent_price.setSingleStep(0.05)
        self.rent_price.setSpecialValueText(_("published example"))
        self.rent_price.setKeyboardTracking(False)
        self.price.setToolTip(_(F.PRICE_PER_KWH.help))
        self.load_hours.setToolTip(_(F.LOAD_HOURS.help))
        self.idle_hours.setToolTip(_(F.IDLE_HOURS.help))
        yield
        # Two fields a row: the panel must fit a 1440x900 window beside the board.
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(3)
        grid.addWidget(QLabel(_("Region")), 0, 0)
        grid.addWidget(self.region, 0, 1, 1, 3)
        for row, pairs in enumerate((((_("Price per kWh"), self.price), (_("Currency"), self.currency)),
                                     ((_("Under load"), self.load_hours), (_("Idle"), self.idle_hours)),
                                     ((_("Cost horizon"), self.years), (_("Budget"), self.budget))), start=1):
            for col, pair in enumerate(pairs):
                if pair is None:
                    continue
                text, widget = pair
                lab = QLabel(text)
                lab.setBuddy(widget)
                grid.addWidget(lab, row, 2 * col)
                grid.addWidget(widget, row, 2 * col + 1)
        rent_label = QLabel(_("Rent per GPU-hour"))
        rent_label.setBuddy(self.rent_price)
        grid.addWidget(rent_label, 4, 0, 1, 2)
        grid.addWidget(self.rent_price, 4, 2, 1, 2)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        form.addRow(grid)
        yield
        self.limits_box = QGroupBox(_("GPU power limits"))
        # Rows for up to four GPUs in a box of constant height (more scroll): adding or removing a
        # GPU then never re-lays out the panel and its plots, which cost 30 ms a drop.
        box_lay = QVBoxLayout(self.limits_box)
        box_lay.setContentsMargins(6, 4, 2, 4)
        self.limits_scroll = QScrollArea()
        self.limits_scroll.setWidgetResizable(True)
        self.limits_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.limits_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._row_h = max(QSlider(Qt.Orientation.Horizontal).sizeHint().height(), QLabel("GPU").sizeHint().height())
        self.limits_rows = _RowStack(self._row_h, 2)
        self.limits_scroll.setWidget(self.limits_rows)
        self.limits_scroll.setFixedHeight(VISIBLE_LIMIT_ROWS * (self._row_h + 2))
        box_lay.addWidget(self.limits_scroll)
        self.limit_rows: list[_LimitRow] = []
        # New figures on every edit: a label that does not lay out the panel again, in plain text
        # (a rich-text label lays out a text document on every change and every paint).
        yield
        self.figures = QuietLabel(wrap=True)
        # Copied from a context menu: a label selectable with the mouse keeps a text document
        # and costs about 1 ms on every edit.
        copy = QAction(_("Copy Figures"), self.figures)
        copy.triggered.connect(lambda: QApplication.clipboard().setText(self.figures.text()))
        self.figures.addAction(copy)
        self.figures.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        lay = QVBoxLayout(c)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(form)
        lay.addWidget(self.limits_box)
        lay.addWidget(self.figures)
        lay.addStretch(1)
        self.region.activated.connect(lambda _i: self._emit("region", self.region.currentData()))
        self.price.valueChanged.connect(lambda v: self._emit("price_per_kwh", round(v, 4)))
        self.currency.activated.connect(lambda _i: self._emit("currency", self.currency.currentText()))
        self.load_hours.valueChanged.connect(lambda v: self._emit("load_hours_per_day", v))
        self.idle_hours.valueChanged.connect(lambda v: self._emit("idle_hours_per_day", v))
        self.years.valueChanged.connect(lambda _v: self._describe())
        self.budget.valueChanged.connect(lambda v: self._emit("budget", float(v) if v > 0 else None))
        self.rent_price.valueChanged.connect(lambda v: self._emit("rent_per_gpu_hour", round(v, 4) if v > 0 else None))

    def _emit(self, key: str, value) -> None:
        self.settingsEdited.emit({key: value})

    def _make_plots(self) -> Iterator[None]:
        """The three charts, one under the other, each a view with its plot and its legend under
        it (a generator: a turn of the event loop may pass between two pieces)."""
        w = self.plots = QWidget()
        col = QVBoxLayout(w)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(0)
        # 760 px: the power plot's view box about 140 px high, room for its hover readout a
        # component a line (at 640 it was 82 px and the readout ran off its bottom)
        w.setMinimumSize(380, 760)
        self._titles: dict[int, str] = {}
        pal = theme.colors()
        # (a) power
        self._chart(col, 0)
        yield
        p = self.power_plot = _new_plot(self.charts[0])
        yield
        _style_plot(p, _("Power (W)"), "")
        p.getAxis("bottom").setTicks([[(i, render_ui(plot_model.state_name(s))) for i, s in enumerate(STATES)]])
        p.setXRange(-0.6, 2.6, padding=0)
        leg = self.power_legend = self._legend(0)
        yield
        # One item draws every bar (a kind's share of a state each): seven items cost seven
        # bounding-box and paint passes in Python on every edit. The legend gets a sample each.
        shares, colors = plot_model.SHARES, share_colors()
        n = len(STATES) * len(shares)
        self.stack = pg.BarGraphItem(x=[float(i) for _k in shares for i in range(len(STATES))], height=[0.0] * n,
                                     y0=[0.0] * n, width=BAR_WIDTH, pen=pen(pal.background, 0.5),
                                     brushes=[colors[k.name] for k in shares for _s in STATES])
        p.addItem(self.stack)
        self.wall_marks = pg.ScatterPlotItem(x=[0.0, 1.0, 2.0], y=[0.0] * 3, symbol="d", size=11, brush=pal.marker,
                                             pen=pal.background)
        p.addItem(self.wall_marks)
        # The reference lines are named in the legend, with their watts: labels on the lines
        # themselves collided with each other and with the bars.
        pens = self._line_pens()
        self.ref_lines = {key: pg.InfiniteLine(0, angle=0, pen=pens[key], movable=False) for key in plot_model.LINE_KEYS}
        self.rating_line, self.rating80_line, self.circuit_line = (self.ref_lines[k] for k in plot_model.LINE_KEYS)
        self.line_keys: dict[str, pg.PlotDataItem] = {}  # each line's legend sample, never plotted
        self.line_labels: dict[str, pg.LabelItem] = {}
        for key, ln in self.ref_lines.items():
            ln.setZValue(5)
            p.addItem(ln)
        self.hover = pg.TextItem("", color=pal.label_text, fill=pg.mkBrush(pal.hover_fill),
                                 border=pg.mkPen(pal.axis), anchor=(0, 0))
        self.hover.setZValue(20)
        self.hover.hide()
        p.addItem(self.hover, ignoreBounds=True)
        self.charts[0].scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.charts[0].left.connect(self.hover.hide)
        yield
        # the legend a few entries a step (each lays the legend out again)
        for i, k in enumerate(shares):
            sample = pg.BarGraphItem(x=[], height=[], width=BAR_WIDTH, brush=colors[k.name])  # never plotted
            leg.addItem(sample, _(k.label))
            if i == len(shares) // 2:
                yield
        yield
        leg.addItem(self.wall_marks, _("At the wall"))
        for key in self.ref_lines:
            sample = self.line_keys[key] = pg.PlotDataItem([], [], pen=pens[key])
            leg.addItem(sample, key)
            self.line_labels[key] = leg.items[-1][1]
        yield
        # (b) efficiency
        self._chart(col, 1)
        yield
        e = self.eff_plot = _new_plot(self.charts[1])
        yield
        # The title says "Efficiency: ..."; the axis only its unit (a word, turned on its side, was
        # longer than this short plot is high and was cut: "ffizienz").
        _style_plot(e, "%", _("PSU load (% of rating)"))
        eleg = self.eff_legend = self._legend(1)
        yield
        self.eff_curve = e.plot([], [], pen=pen("#4e79a7", 2), connect="finite")
        self.eff_extra = e.plot([], [], pen=pen("#4e79a7", 2, Qt.PenStyle.DashLine), connect="finite")
        self.eff_points = pg.ScatterPlotItem([], [], symbol="o", size=7, brush=pal.background, pen=pen("#4e79a7", 1.5))
        e.addItem(self.eff_points)
        self.op_points: dict[str, pg.ScatterPlotItem] = {}
        self.op_labels: dict[str, pg.TextItem] = {}
        for s in STATES:
            # a one-point item drawn at (0, 0) and moved (setPos): no new data to prepare each edit
            sp = self.op_points[s] = pg.ScatterPlotItem([0.0], [0.0], symbol="t" if s == "peak" else "s", size=11,
                                                        brush=STATE_COLORS[s], pen=pen(pal.marker, 0.8))
            sp.setZValue(10)
            e.addItem(sp)
            t = self.op_labels[s] = pg.TextItem("", color=STATE_COLORS[s], anchor=OP_ANCHORS[s])
            t.setZValue(10)
            e.addItem(t, ignoreBounds=True)
        yield
        eleg.addItem(self.eff_curve, _("80 PLUS min."))
        eleg.addItem(self.eff_extra, _("extrapolated"))
        eleg.addItem(self.eff_points, _("certified points"))
        yield
        for s in STATES:
            eleg.addItem(self.op_points[s], render_ui(plot_model.state_name(s)))
        yield
        # (c) cumulative cost
        self._chart(col, 2)
        yield
        c = self.cost_plot = _new_plot(self.charts[2])
        yield
        _style_plot(c, _("Cumulative cost"), _("Months"))
        cleg = self.cost_legend = self._legend(2)
        yield
        self.cost_curve = c.plot([], [], pen=pen(pal.marker, 2.5))
        cleg.addItem(self.cost_curve, _("this build"))
        # Renting the same GPUs: a line, and the month where buying overtakes it (a mark, a label).
        rent_color = self._rent_color()
        self.rent_curve = c.plot([], [], pen=pen(rent_color, 2, Qt.PenStyle.DashDotLine))
        self.rent_mark = pg.ScatterPlotItem([0.0], [0.0], symbol="o", size=10, brush=rent_color,
                                            pen=pen(pal.marker, 0.8))
        self.rent_mark.setZValue(10)  # a one-point item moved with setPos
        c.addItem(self.rent_mark)
        # a dotted line through the break-even month, to read the month off the axis
        self.rent_at = pg.InfiniteLine(0, angle=90, pen=pen(rent_color, 1, Qt.PenStyle.DotLine), movable=False)
        c.addItem(self.rent_at, ignoreBounds=True)
        self.rent_text = pg.TextItem("", color=pal.grid_text, fill=pg.mkBrush(pal.hover_fill),
                                     border=pg.mkPen(rent_color), anchor=(0, 0))
        small = QFont()
        small.setPointSizeF(8)
        self.rent_text.setFont(small)
        self.rent_text.setZValue(11)
        c.addItem(self.rent_text, ignoreBounds=True)
        self._rent_months: Optional[float] = None  # where the break-even line is, for the verdict
        self.scenario_curves: dict[str, pg.PlotDataItem] = {}
        for k in SCENARIO_KEYS:
            color, style = SCENARIO_PENS[k]
            self.scenario_curves[k] = c.plot([], [], pen=pen(color, 2, style))
        # The optional entries, in the fixed order (shown when the build has them); the legend's
        # label of each, once shown.
        self.scenario_labels: dict[str, pg.LabelItem] = {}
        self._scenarios_in_legend: set[str] = set()
        self._scenario_text: dict[str, str] = {}
        for it in (self.rent_curve, self.rent_mark, self.rent_at, self.rent_text, *self.scenario_curves.values()):
            it.hide()
        c.vb.sigResized.connect(lambda *_a: self._place_rent_text())
        yield
        for leg in (self.power_legend, self.eff_legend, self.cost_legend):
            self._compact(leg)
            yield
        # Pixmaps for what an edit moves but does not redraw: the legends, the titles and the
        # operating points, which move with setPos.
        for item in (self.power_legend, self.eff_legend, self.cost_legend, self.eff_points, *self.op_points.values(),
                     *(p.titleLabel for p in (self.power_plot, self.eff_plot, self.cost_plot))):
            cache_as_pixmap(item)
        for chart in self.charts:
            export = QAction(_("Export…"), chart)
            export.triggered.connect(lambda _checked=False, ch=chart: self._export(ch))
            chart.addAction(export)
            chart.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

    def _chart(self, column: QVBoxLayout, i: int) -> None:
        """The ``i``-th chart's view, put in ``column`` (its plot is made in the next step)."""
        view = _ChartView()
        # pyqtgraph's own "Export..." (untranslated, and unreachable with the plots' menus off):
        # the chart's context menu has ours
        for act in view.scene().contextMenu:
            act.setParent(None)  # (and gone with the list)
        view.scene().contextMenu = []
        view.setBackground(theme.colors().background)
        view.ci.setContentsMargins(2, 2, 2, 2)
        view.ci.layout.setVerticalSpacing(0)
        view.setMinimumHeight(120)
        self.charts = (*getattr(self, "charts", ()), view)
        column.addWidget(view, CHART_WEIGHTS[i])

    def _legend(self, i: int) -> "pg.LegendItem":
        """The ``i``-th chart's legend, in the row under its plot."""
        leg = pg.LegendItem(labelTextColor=theme.colors().grid_text, labelTextSize="8pt", verSpacing=-6)
        self.charts[i].addItem(leg, row=1, col=0)
        self.charts[i].ci.layout.setRowStretchFactor(0, 1)
        self.charts[i].ci.layout.setRowStretchFactor(1, 0)
        return leg

    charts: tuple = ()
    """The three charts' views (power, efficiency, cost), as they are made."""

    def _export(self, chart: "pg.GraphicsLayoutWidget") -> None:
        """The chart as a PNG image, where the user says."""
        from PySide6.QtGui import QImageWriter
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        path, _filter = QFileDialog.getSaveFileName(self, _("Export…"), "", "PNG (*.png)")
        if not path:
            return
        if not path.lower().endswith(".png"):
            path += ".png"
        writer = QImageWriter(path, b"png")
        if not writer.write(chart.grab().toImage()):
            QMessageBox.warning(self, _("Export failed"),
                                _("Could not write {path}:\n{error}", path=path, error=writer.errorString()))

    @staticmethod
    def _rent_color() -> str:
        return RENT_COLORS[theme.colors() is theme.DARK]

    @staticmethod
    def _line_pens() -> dict:
        dark = theme.colors() is theme.DARK  # lighter reds and purple on a dark background
        return {"rating": pen("#ff6b6b" if dark else "#d62728", 2),
                "rating80": pen("#ffa657" if dark else "#ff7f0e", 1.5, Qt.PenStyle.DashLine),
                "circuit": pen("#c58af9" if dark else "#7b3294", 2, Qt.PenStyle.DashDotLine)}

    def restyle(self, *_args) -> None:
        """The plots in the current theme's colours."""
        pal = theme.colors()
        for view in self.charts:
            view.setBackground(pal.background)
        for plot in (self.power_plot, self.eff_plot, self.cost_plot):
            _style_plot(plot, plot.getAxis("left").labelText, plot.getAxis("bottom").labelText)
        for leg in (self.power_legend, self.eff_legend, self.cost_legend):
            leg.setLabelTextColor(pal.grid_text)
            for _sample, label in leg.items:
                label.setText(label.text, color=pal.grid_text)
        self.stack.setOpts(pen=pen(pal.background, 0.5))
        self.wall_marks.setBrush(pg.mkBrush(pal.marker))
        self.wall_marks.setPen(pg.mkPen(pal.background))
        pens = self._line_pens()
        for key, ln in self.ref_lines.items():
            ln.setPen(pens[key])
            self.line_keys[key].setPen(pens[key])
        self.hover.setColor(pal.label_text)
        self.hover.fill = pg.mkBrush(pal.hover_fill)
        self.hover.border = pg.mkPen(pal.axis)
        self.eff_points.setBrush(pg.mkBrush(pal.background))
        for sp in self.op_points.values():
            sp.setPen(pen(pal.marker, 0.8))
        self.cost_curve.setPen(pen(pal.marker, 2.5))
        rent_color = self._rent_color()
        self.rent_curve.setPen(pen(rent_color, 2, Qt.PenStyle.DashDotLine))
        self.rent_mark.setBrush(pg.mkBrush(rent_color))
        self.rent_mark.setPen(pen(pal.marker, 0.8))
        self.rent_text.setColor(pal.grid_text)
        self.rent_text.fill = pg.mkBrush(pal.hover_fill)
        self.rent_text.border = pg.mkPen(rent_color)
        self.rent_at.setPen(pen(rent_color, 1, Qt.PenStyle.DotLine))
        for plot in (self.power_plot, self.eff_plot, self.cost_plot):
            text = self._titles.pop(id(plot), None)
            if text is not None:
                self._set_title(plot, text)
        for item in (self.power_legend, self.eff_legend, self.cost_legend, self.hover, self.rent_text):
            item.update()

    def _compact(self, leg: "pg.LegendItem") -> None:
        """A legend under its plot: entries in rows of a few, as tall as they need; fewer a row
        where the names are long (German), so the legend is no wider than the narrowest panel."""
        leg.setColumnCount(self._legend_columns(leg))
        leg.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        leg.updateSize()

    def _legend_columns(self, leg: "pg.LegendItem") -> int:
        cols = {id(self.power_legend): LEGEND_COLUMNS["power"], id(self.eff_legend): LEGEND_COLUMNS["eff"]}
        n = cols.get(id(leg), LEGEND_COLUMNS["cost"])
        widths = [label.item.boundingRect().width() for _sample, label in leg.items]
        room = self.plots.minimumWidth() - 8
        for cols in range(n, 1, -1):  # entries fill the rows: entry i sits in column i % cols
            # each column as wide as its widest name, plus its sample and spacing (about 37 px)
            if sum(max(widths[c::cols], default=0.0) + 37 for c in range(cols)) <= room:
                return cols
        return 1

    def _legend_curve(self, key: str) -> "pg.PlotDataItem":
        return self.rent_curve if key == "rent" else self.scenario_curves[key]

    def _set_scenario_shown(self, key: str, label: Optional[str]) -> None:
        """Show ``key``'s line (a scenario, or "rent") named ``label`` in the cost legend; None hides it."""
        curve = self._legend_curve(key)
        shown = key in self._scenarios_in_legend
        if label is None and shown:
            self.cost_legend.removeItem(curve)
            self._scenarios_in_legend.discard(key)
            self.scenario_labels.pop(key, None)
        elif label is not None:
            changed = self._scenario_text.get(key) != label
            self._scenario_text[key] = label  # named as it will read before the legend is laid out
            if not shown:
                # Re-added in the fixed order, so that the legend does not reshuffle.
                for k in LEGEND_KEYS:
                    if k in self._scenarios_in_legend:
                        self.cost_legend.removeItem(self._legend_curve(k))
                self._scenarios_in_legend.add(key)
                for k in LEGEND_KEYS:
                    if k in self._scenarios_in_legend:
                        self.cost_legend.addItem(self._legend_curve(k), self._scenario_text.get(k, k))
                        self.scenario_labels[k] = self.cost_legend.items[-1][1]
                self._compact(self.cost_legend)
            elif changed:
                self.scenario_labels[key].setText(label)
                if self._legend_columns(self.cost_legend) != self.cost_legend.columnCount:
                    self._compact(self.cost_legend)  # a longer name (the rent's source): fewer a row
        curve.setVisible(label is not None)

    def _set_title(self, plot: "pg.PlotItem", text: str) -> None:
        if self._titles.get(id(plot)) != text:  # setTitle re-lays out the plot: only when it changes
            self._titles[id(plot)] = text
            # A title sets its plot's least width: one wider than the narrowest panel pushed the
            # plots past the dock's right edge (an EU build's power title): wrapped instead.
            plot.setTitle(self._wrapped_title(text), color=theme.colors().grid_text, size=f"{TITLE_PT}pt")

    def _wrapped_title(self, text: str) -> str:
        """``text`` (escaped: a title is rich text) in lines no wider than the narrowest plot,
        broken between words."""
        font = QFont()
        font.setPointSizeF(TITLE_PT)
        fm = QFontMetrics(font)
        room = self.plots.minimumWidth() - 70
        lines: list[str] = []
        for word in text.split(" "):
            if lines and fm.horizontalAdvance(lines[-1] + " " + word) <= room:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return "<br>".join(html.escape(line, quote=False) for line in lines)

    # -- layout -----------------------------------------------------------------------------
    def placed_in_steps(self, place: QScrollArea) -> Iterator[None]:
        """Put the panel in ``place`` and paint it a part a step: its controls, then its figures,
        then each chart from the bottom up (painted at once, the three took a frame's time on a
        small machine): the power chart, at the top, is painted last."""
        later = (self.figures, *reversed(self.charts))
        for w in later:
            w.setUpdatesEnabled(False)  # laid out, not painted
        place.setWidget(self)
        for w in later:
            yield
            w.setUpdatesEnabled(True)  # (painted in the next turn of the event loop)

    def _arrange(self, width: int) -> None:
        wide = width >= WIDE
        self._outer.setDirection(QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom)
        self.controls.setMaximumWidth(330 if wide else 16777215)

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        self._arrange(ev.size().width())
        super().resizeEvent(ev)

    # -- model -> view ----------------------------------------------------------------------
    def follow(self, doc) -> None:
        """Show the build of ``doc`` (a ``ui.document.BuildDocument``) and follow its changes."""
        for _step in self.following(doc):
            pass

    def following(self, doc) -> Iterator[None]:
        """:meth:`follow` a piece at a time: each ``next`` does one (describing the build, drawing it)."""
        if self._doc is not None:
            self._doc.edited.disconnect(self._on_edited)
        self._doc = doc
        doc.edited.connect(self._on_edited)
        yield from self._describing(doc.context)

    def _on_edited(self, change: Changed) -> None:
        """The document changed: anything but its name or notes may change a figure (the
        document's context, judged again, carries the new power model)."""
        if change.parts or change.settings:
            self._describe(self._doc.context)

    def show_build(self, build: Build, index: PartIndex, context: Optional[Context] = None) -> None:
        """Describe ``build`` and draw it, once (a panel that follows no document: tests,
        benchmarks, screenshots). ``context``: the checks' context of the same build, if the
        caller has one (its power model is reused)."""
        self._describe(context if context is not None and context.build is build else Context(build, index))

    def reset_controls(self) -> None:
        """Show the build's settings in the controls again (an edit from them was refused)."""
        if self.description is not None:
            for row in self.limit_rows:
                row.shown = None  # its slider may stand where the refused edit left it
            self._draw_controls(self.description)

    _drawing: Optional[object] = None  # the drawing under way, when one was left between two steps

    def _describe(self, ctx: Optional[Context] = None) -> None:
        """Describe the build of ``ctx`` (None: the one shown, over a new cost horizon) and draw
        what differs from the description drawn before."""
        for _step in self._describing(ctx):
            pass

    def _describing(self, ctx: Optional[Context] = None) -> Iterator[None]:
        """:meth:`_describe` in steps. A description asked for between two steps (an edit) is
        drawn whole at once, and this one then stops."""
        ctx = ctx if ctx is not None else (self._doc.context if self._doc is not None else self.context)
        if ctx is None:
            return
        self.context = ctx
        old = self.description
        d = self.description = plot_model.describe(ctx, self.years.value(), before=old)
        if self._drawing is not None:
            old = None  # an earlier drawing stopped half way: all of this one is drawn
        self._drawing = token = object()
        pieces = self._draw(d, old)
        while True:
            yield
            if self._drawing is not token:
                return  # described and drawn again meanwhile: this one is out of date
            try:
                next(pieces)
            except StopIteration:
                break
        self._drawing = None

    def _draw(self, d: PanelDescription, old: Optional[PanelDescription]) -> Iterator[None]:
        """Draw ``d`` where it differs from ``old`` (None: all of it), a piece a step."""
        self._draw_controls(d)
        yield
        if old is None or d.power != old.power:
            self._draw_power(d.power, old.power if old is not None else None)
        yield
        if old is None or d.efficiency != old.efficiency:
            self._draw_efficiency(d.efficiency, old.efficiency if old is not None else None)
        yield
        if old is None or d.cost != old.cost:
            yield from self._draw_cost(d.cost, old.cost if old is not None else None)
        if old is None or d.figures != old.figures:
            self.figures.setText("\n".join(render_ui(x) for x in d.figures))  # unchanged text: no repaint
        self.plots.setVisible(not d.empty)  # nothing to judge: no fans-only watts, no cost of an empty box

    # What the tests and the figures' readers ask of the panel: the models' answers drawn.
    @property
    def report(self):
        return self.description.report if self.description is not None else None

    @property
    def cost(self):
        return self.description.costs if self.description is not None else None

    @property
    def break_even(self):
        return self.description.break_even if self.description is not None else None

    @property
    def rent_missing(self) -> str:
        return render_ui(self.description.rent_missing) if self.description is not None else ""

    @property
    def bar_heights(self) -> dict[str, tuple[float, ...]]:
        if self.description is None:
            return {k.name: (0.0,) * len(STATES) for k in plot_model.SHARES}
        return {b.kind: b.heights for b in self.description.power.bars}

    def _draw_controls(self, d: PanelDescription) -> None:
        c = d.controls
        # Each setter only where the value differs: a spin box repaints on any set.
        with QSignalBlocker(self.region):
            i = max(0, self.region.findData(c.region))
            if self.region.currentIndex() != i:
                self.region.setCurrentIndex(i)
        suffix = f" {c.currency}"
        with QSignalBlocker(self.price):
            if self.price.value() != round(c.price_per_kwh, self.price.decimals()):
                self.price.setValue(c.price_per_kwh)
            if self.price.suffix() != suffix:
                self.price.setSuffix(suffix)
        with QSignalBlocker(self.currency):
            if [self.currency.itemText(i) for i in range(self.currency.count())] != list(c.currencies):
                self.currency.clear()
                self.currency.addItems(list(c.currencies))
                self.currency.setToolTip(_("The build's currency: prices convert at the exchange rates "
                                           "(Edit > Preferences); changing it converts the electricity price "
                                           "and the budget"))
            if self.currency.currentText() != c.currency:
                self.currency.setCurrentText(c.currency)
        with QSignalBlocker(self.budget):
            b = c.budget or 0.0
            if self.budget.value() != round(b):
                self.budget.setValue(b)
            if self.budget.suffix() != suffix:
                self.budget.setSuffix(suffix)
        with QSignalBlocker(self.rent_price):
            r = c.rent_per_gpu_hour or 0.0
            if self.rent_price.value() != round(r, self.rent_price.decimals()):
                self.rent_price.setValue(r)
            if self.rent_price.suffix() != suffix:
                self.rent_price.setSuffix(suffix)
            notes = d.cost.rent_notes if d.cost is not None else ()
            if notes != self._box_notes or not self.rent_price.toolTip():
                self._box_notes = notes
                self.rent_price.setToolTip(_rich((_(RENT_PRICE_HELP, none=_("published example")), *notes)))
        with QSignalBlocker(self.load_hours), QSignalBlocker(self.idle_hours):
            for box, top, value in ((self.load_hours, c.load_hours_max, c.load_hours),
                                    (self.idle_hours, c.idle_hours_max, c.idle_hours)):
                if box.maximum() != top:
                    box.setMaximum(top)
                if box.value() != value:
                    box.setValue(value)
        while len(self.limit_rows) < len(c.limits):
            self.limit_rows.append(_LimitRow(self, len(self.limit_rows)))
        for row, slider in zip(self.limit_rows, c.limits):
            row.draw(slider)
        self.limits_rows.show_rows(self.limit_rows[:len(c.limits)])
        self.limits_box.setVisible(bool(c.limits))

    def _draw_power(self, pp: plot_model.PowerPlot, old: Optional[plot_model.PowerPlot]) -> None:
        if old is None or pp.bars != old.bars:
            self.stack.setOpts(height=[h for b in pp.bars for h in b.heights], y0=[y for b in pp.bars for y in b.bottoms])
        if old is None or pp.wall != old.wall:
            self.wall_marks.setData(list(range(len(pp.wall))), list(pp.wall))
        for line in pp.lines:
            was = old.line(line.key) if old is not None else None
            if was == line:
                continue
            item = self.ref_lines[line.key]
            item.setVisible(line.shown)
            item.setValue(line.watts)
            if was is None or was.label != line.label:
                self.line_labels[line.key].setText(_legend_text(line.label))
        if old is None or pp.y_top != old.y_top:
            self.power_plot.setYRange(0, pp.y_top, padding=0)
        if self._legend_columns(self.power_legend) != self.power_legend.columnCount:
            self._compact(self.power_legend)  # longer names (a language's): fewer a row
        self._set_title(self.power_plot, render_ui(pp.title))
        if self.hover.isVisible():
            self._place_hover(self._hover_state)

    def hover_text(self, state: int, compact: bool = False) -> str:
        """What hovering over the ``state`` column shows (0 idle, 1 training, 2 peak); ``compact``:
        the components three to a line, for a plot too short for one a line."""
        if self.description is None:
            return ""
        r = self.description.readout(state)
        shares = [render_ui(x) for x in r.shares]
        step = 3 if compact else 1
        lines = [render_ui(r.head)] + ["  " + ", ".join(shares[j:j + step]) for j in range(0, len(shares), step)]
        return "\n".join(lines + [render_ui(x) for x in r.tail])

    _hover_state = 0
    HOVER_MARGIN = 3  # pixels between the readout and the plot's edges

    def _on_mouse_moved(self, pos: QPointF) -> None:
        """The mouse over the power chart (``pos`` in its scene)."""
        vb = self.power_plot.vb
        if not vb.sceneBoundingRect().contains(pos) or self.description is None:
            self.hover.hide()
            return
        x = vb.mapSceneToView(pos).x()
        i = int(round(x))
        if not 0 <= i < 3 or abs(x - i) > BAR_WIDTH / 2:
            self.hover.hide()
            return
        self._hover_state = i
        self.hover.show()
        self._place_hover(i)

    def _place_hover(self, i: int) -> None:
        """The readout of column ``i``, whole inside the plot's view box: beside the bar where it
        fits (the axis clipped it on the left), else at the plot's left edge over the bars; hanging
        from the top. A plot too short for a component a line gets them three to a line, then a
        smaller font (a short plot cut the readout off at the bottom)."""
        vb = self.power_plot.vb
        box = vb.sceneBoundingRect()
        m = self.HOVER_MARGIN
        size = QFont().pointSizeF()
        fits = lambda r: r.height() + 2 * m <= box.height() and r.width() + 2 * m <= box.width()  # noqa: E731
        for compact, pt in ((False, size), (True, size), (True, max(6.0, size - 1.5)), (True, 6.0)):
            font = QFont()
            font.setPointSizeF(pt)
            self.hover.setFont(font)
            text = self.hover_text(i, compact)
            self.hover.setText(text)
            r = self.hover.boundingRect()
            if fits(r):
                break
        else:  # shorter still: the lines that fit, the total first
            lines = text.split("\n")
            while len(lines) > 1 and not fits(r):
                lines = lines[:-2] + ["…"]
                self.hover.setText("\n".join(lines))
                r = self.hover.boundingRect()
            if not fits(r):
                self.hover.hide()
                return
        w = r.width()
        bar_left = vb.mapViewToScene(QPointF(i - BAR_WIDTH / 2, 0)).x()
        bar_right = vb.mapViewToScene(QPointF(i + BAR_WIDTH / 2, 0)).x()
        # on the side of the bar with more room, pushed back inside the plot where it does not fit
        # there (it then covers the neighbouring bars, not the one hovered, as far as it can)
        x = bar_right + m if box.right() - bar_right >= bar_left - box.left() else bar_left - m - w
        x = max(box.left() + m, min(x, box.right() - m - w))
        self.hover.setAnchor((0, 0))
        self.hover.setPos(vb.mapSceneToView(QPointF(x, box.top() + m)))

    @staticmethod
    def _joined(pieces) -> tuple[list[float], list[float]]:
        """Curve pieces as one line's data, a gap (NaN) between pieces."""
        xs: list[float] = []
        ys: list[float] = []
        for p in pieces:
            if xs:
                xs.append(xs[-1])
                ys.append(float("nan"))
            xs += p.xs
            ys += p.ys
        return xs, ys

    def _draw_efficiency(self, e: plot_model.EfficiencyPlot, old: Optional[plot_model.EfficiencyPlot]) -> None:
        if old is None or e.pieces != old.pieces or e.certified != old.certified:
            self.eff_curve.setData(*self._joined(p for p in e.pieces if not p.extrapolated))
            self.eff_extra.setData(*self._joined(p for p in e.pieces if p.extrapolated))
            self.eff_points.setData([x for x, _y in e.certified], [y for _x, y in e.certified])
        if old is None or e.x_range != old.x_range:
            self.eff_plot.setXRange(*e.x_range, padding=0.01)
        if old is None or e.y_range != old.y_range:
            self.eff_plot.setYRange(*e.y_range, padding=0)
        self.eff_legend.setVisible(e.level is not None)  # nothing to name without a PSU
        if self._legend_columns(self.eff_legend) != self.eff_legend.columnCount:
            self._compact(self.eff_legend)
        self._set_title(self.eff_plot, render_ui(e.title))
        was = {p.state: p for p in old.points} if old is not None else {}
        shown = {p.state: p for p in e.points}
        for s in STATES:
            sp, t = self.op_points[s], self.op_labels[s]
            p = shown.get(s)
            sp.setVisible(p is not None)
            t.setVisible(p is not None)
            if p is None or was.get(s) == p:
                continue
            prev = was.get(s)
            if prev is None or (prev.x, prev.y) != (p.x, p.y):
                sp.setPos(p.x, p.y)
                t.setPos(p.x, p.y)
            if prev is None or prev.label != p.label:
                t.setText(render_ui(p.label))

    def _draw_cost(self, c: Optional[plot_model.CostPlot], old: Optional[plot_model.CostPlot]) -> Iterator[None]:
        """The cost chart, in two steps: its lines and legend, then its axes, marks and texts."""
        if c is None:
            for it in (self.cost_curve, self.rent_curve, *self.scenario_curves.values()):
                it.setData([], [])
            for k in LEGEND_KEYS:
                self._set_scenario_shown(k, None)
            for it in (self.rent_mark, self.rent_at, self.rent_text):
                it.hide()
            return
        if old is None or c.own != old.own:
            self.cost_curve.setData(c.own.xs, c.own.ys)
        by_key = {sc.key: sc for sc in c.scenarios}
        was = {sc.key: sc for sc in old.scenarios} if old is not None else {}
        for k, curve in self.scenario_curves.items():
            sc = by_key.get(k)
            if sc is None:
                curve.setData([], [])
                self._set_scenario_shown(k, None)
            else:
                if was.get(k) != sc:
                    curve.setData(sc.xs, sc.ys)
                if was.get(k) is None or was[k].label != sc.label:
                    self._set_scenario_shown(k, _legend_text(sc.label))
        if c.rent is None:
            self.rent_curve.setData([], [])
            self._set_scenario_shown("rent", None)
        else:
            if old is None or old.rent is None or (old.rent.xs, old.rent.ys) != (c.rent.xs, c.rent.ys):
                self.rent_curve.setData(c.rent.xs, c.rent.ys)  # a price per kWh leaves the rent as it was
            if old is None or old.rent is None or old.rent.label != c.rent.label:
                self._set_scenario_shown("rent", _legend_text(c.rent.label))
        yield
        if old is None or c.y_label != old.y_label:  # setLabel re-lays out the plot
            self.cost_plot.getAxis("left").setLabel(render_ui(c.y_label), color=theme.colors().grid_text)
        if old is None or c.x_range != old.x_range:
            self.cost_plot.setXRange(*c.x_range, padding=0.02)
        if old is None or c.y_top != old.y_top:
            self.cost_plot.setYRange(0, c.y_top, padding=0)
        mark = c.break_even
        self.rent_mark.setVisible(mark is not None)
        self.rent_at.setVisible(mark is not None)
        self.rent_text.setVisible(bool(c.verdict))
        if old is None or old.rent_notes != c.rent_notes or old.rent != c.rent:  # (a legend label made anew)
            tip = _rich(c.rent_notes)
            for item in (self.rent_text, self.rent_mark, self.rent_curve, self.scenario_labels.get("rent")):
                if item is not None and item.toolTip() != tip:
                    item.setToolTip(tip)
        if mark is not None and (old is None or old.break_even != mark):
            self.rent_mark.setPos(*mark)
            self.rent_at.setValue(mark[0])
        self._rent_months = mark[0] if mark is not None else None
        if c.verdict:
            if old is None or old.verdict != c.verdict:
                self.rent_text.setText(render_ui(c.verdict))
            self._place_rent_text()
        self._set_title(self.cost_plot, render_ui(c.title))

    _rent_text_at: Optional[tuple] = None  # where the verdict was placed, for which text, plot and range
    _rent_text_w: tuple = (None, None, 0.0)  # the verdict's text, the plot's width, the text's width

    def _place_rent_text(self) -> None:
        """The verdict in the plot's top band (the axis top leaves room for it): beside the
        break-even line, on the side with more room, else from the left edge; wrapped when the
        plot is narrower than the text."""
        if not self.rent_text.isVisible():
            return
        months = self._rent_months
        vb = self.cost_plot.vb
        box = vb.sceneBoundingRect()
        key = (months, self.rent_text.textItem.toPlainText(), box, tuple(vb.viewRange()[0]))
        if key == self._rent_text_at:
            return  # placed for this text, plot and range already: no new layout on an unrelated edit
        self._rent_text_at = key
        m = self.HOVER_MARGIN + 2
        if (key[1], box.width()) != self._rent_text_w[:2]:  # measured again only for a new text or width
            self.rent_text.setTextWidth(-1)
            if self.rent_text.boundingRect().width() > box.width() - 2 * m:
                self.rent_text.setTextWidth(max(40.0, box.width() - 2 * m))
            self._rent_text_w = (key[1], box.width(), self.rent_text.boundingRect().width())
        w = self._rent_text_w[2]
        if months is None:
            x = box.left() + m
        else:
            at = vb.mapViewToScene(QPointF(months, 0)).x()
            x = at + m if box.right() - at >= at - box.left() else at - m - w
        # kept off the right edge by a scroll bar's width: a panel at its least width has its right
        # end under the dock's scroll bar
        x = max(box.left() + m, min(x, box.right() - m - RIGHT_CLEAR - w))
        self.rent_text.setAnchor((0, 0))
        self.rent_text.setPos(vb.mapSceneToView(QPointF(x, box.top() + m)))


class _ChartView(pg.GraphicsLayoutWidget):
    """One chart's view: a plot and its legend; says when the mouse leaves it (the readout goes)."""

    left = Signal()

    def leaveEvent(self, event) -> None:  # noqa: N802 (Qt name)
        self.left.emit()
        super().leaveEvent(event)
