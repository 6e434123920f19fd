"""Power and running-cost graphs with their controls (issue 5).

Three pyqtgraph plots, created once and updated with ``setData``/``setOpts`` afterwards:

- power: stacked bars by component kind for idle/training/peak (DC), the wall draw as markers,
  and horizontal lines for the PSU rating, its 80% line and the wall circuit's continuous limit;
- PSU efficiency: the 80 PLUS curve of the build's PSU level for the region's voltage table, with
  the build's operating points marked (dashed where the curve is extrapolated);
- cumulative cost over months (purchase + energy) with comparison scenarios overlaid, and the
  cumulative rent of the same GPUs in a cloud for the same hours of use (``models.renting``), with
  the month where buying beats renting marked and labelled.

The controls never edit the build: they emit ``settingsEdited(dict)`` and
``powerLimitEdited(gpu_index, watts_or_None)``; the owner turns those into undoable commands and
calls ``show_build`` again, which updates the controls inside signal blockers (nothing loops).
The panel decides nothing: every figure comes from ``rigbuilder.models``.
"""
from __future__ import annotations

import dataclasses
import html
import math
import os
from typing import Optional

# The plots' arrays are a few dozen numbers: OpenBLAS worker threads only wake up and spin on
# every call, taking a core from the window on a small machine. Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QFont, QFontMetrics
from PySide6.QtWidgets import (QApplication, QBoxLayout, QComboBox, QDoubleSpinBox, QFormLayout, QFrame, QGraphicsItem, QGridLayout,
                               QGroupBox, QScrollArea,
                               QLabel, QSizePolicy, QSlider, QSpinBox, QVBoxLayout, QWidget)

from rigbuilder.domain.build import REGIONS, Build
from rigbuilder.domain import fields as F
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.models import cost as cost_model
from rigbuilder.models import perf
from rigbuilder.models import power as power_model
from rigbuilder.models import renting
from rigbuilder.rules.context import Context
from rigbuilder.ui import theme
from rigbuilder.ui.i18n import N_, _, render_ui, ui_language
from rigbuilder.ui.widgets import QuietLabel, cache_as_pixmap, follow_ui_locale

STATES = power_model.STATES
KINDS = ("gpu", "cpu", "board", "memory", "storage", "cooling", "nic")
KIND_LABELS = {"gpu": N_("GPUs"), "cpu": N_("CPU"), "board": N_("Board"), "memory": N_("Memory"),
               "storage": N_("Storage"), "cooling": N_("Fans, cooler"), "nic": N_("Network")}
STATE_NAMES = {"idle": N_("idle"), "training": N_("training"), "peak": N_("peak")}
"""The power model's states as the plots name them (``rigbuilder.models.power.STATES`` are the keys)."""
KIND_COLORS = {"gpu": "#4e79a7", "cpu": "#f28e2b", "board": "#76b7b2", "memory": "#59a14f", "storage": "#edc948",
               "cooling": "#b07aa1", "nic": "#9c755f"}
STATE_COLORS = {"idle": "#59a14f", "training": "#4e79a7", "peak": "#e15759"}
SCENARIO_KEYS = ("psu_better", "power_limit", "price")
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


def _set_text(item, text: str) -> None:
    """setText only when the text changes: a label's setText re-lays out and repaints it."""
    if getattr(item, "_rb_text", None) != text:
        item._rb_text = text
        item.setText(text)


def _nice_top(v: float) -> float:
    """An axis top at or above ``v`` on a coarse grid (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^n),
    so most edits leave the axis as it was and pyqtgraph keeps its cached axis picture."""
    if v <= 0:
        return 1.0
    mag = 10 ** math.floor(math.log10(v))
    for m in (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * mag >= v - 1e-9:
            return m * mag
    return 10 * mag


def _sticky_top(current: Optional[float], needed: float) -> float:
    """An axis top that grows as soon as the data needs it, but shrinks only when the data has
    fallen below half of it: adding and removing a card then leaves the axis where it was (no
    jumping scale, and no axis redrawn; benchmarks/bench_ui.py)."""
    if current is None or needed > current or needed < 0.5 * current:
        return _nice_top(needed)
    return current


def _set_range(plot: pg.PlotItem, axis: str, lo: float, hi: float, **kw) -> None:
    """setXRange/setYRange only when the range differs from the one last set."""
    key = f"_rb_{axis}range"
    if getattr(plot, key, None) == (lo, hi):
        return
    setattr(plot, key, (lo, hi))
    (plot.setXRange if axis == "x" else plot.setYRange)(lo, hi, padding=kw.get("padding", 0))


def _style_plot(p: pg.PlotItem, left: str, bottom: str) -> None:
    for name, text in (("left", left), ("bottom", bottom)):
        ax = p.getAxis(name)
        c = theme.colors()
        ax.setPen(pg.mkPen(c.axis))
        ax.setTextPen(pg.mkPen(c.grid_text))
        ax.setLabel(text, color=c.grid_text)
    for name in ("left", "bottom"):
        # Repainting an axis replays its QPicture (about 1 ms); items next to it (bars from 0, a
        # curve from month 0) dirty it on every edit. A device cache makes that a pixmap copy.
        p.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    # No grid: pyqtgraph redraws its grid lines with the axis, about 6 ms a plot whenever the
    # range changes (benchmarks/bench_ui.py); the reference lines and hover figures remain.
    p.setMenuEnabled(False)
    p.hideButtons()
    p.setMouseEnabled(x=False, y=False)


EMPTY_FIGURES = N_("Nothing to judge yet: power draw and running cost appear once the build has parts.")


def state_name(s: str) -> str:
    return _(STATE_NAMES.get(s, s))


def scenario_label(key: str, label: str) -> str:
    """A cost scenario's name (``rigbuilder.models.cost.standard_scenarios``) in the window's language."""
    return render_ui(label)


def money_lines(buy: cost_model.Purchase, running: Optional[cost_model.RunningCost], years: float) -> list[str]:
    """``rigbuilder.models.cost.money_lines`` in the window's language."""
    return [render_ui(line) for line in cost_model.money_lines(buy, running, years)]


def rent_verdict(be: renting.BreakEven, horizon_months: float, hours_per_day: float, days_per_month: float,
                 complete: bool = True) -> tuple[Optional[float], str]:
    """The month where buying overtakes renting on the cost graph (None: not within the
    ``horizon_months``) and the label saying so; the month is ``BreakEven.months_at``."""
    if be.purchase <= 0:
        return None, _("buying against renting: unknown until the parts have prices")
    if be.hours is None:
        return None, _("renting stays cheaper: its price per hour is below the build's energy")
    months = be.months_at(hours_per_day, days_per_month)
    if months is None:
        return None, _("renting stays cheaper over the horizon (no hours under load)")
    if months > horizon_months:
        return None, _("renting stays cheaper over the horizon (buying beats it after {months:,.0f} months)",
                       months=months)
    if months < 1:
        text = _("buying beats renting within the first month")
    elif complete:
        text = _("buying beats renting after {months:,.0f} months", months=months)
    else:
        text = _("buying beats renting after at least {months:,.0f} months", months=months)
    return months, text


def rent_source(price: Optional[renting.CloudPrice]) -> str:
    """Where a rental price comes from, short: 'RunPod, 2026-03 (8 months old, stale)' or 'your price'."""
    if price is None or price.yours:
        return _("your price")
    age = price.age_months()
    if age is None:
        return _("{provider}, {observed} (age unknown)", provider=price.provider, observed=price.observed)
    if price.stale():
        return _("{provider}, {observed} ({age} months old, stale)", provider=price.provider, observed=price.observed,
                 age=age)
    return _("{provider}, {observed} ({age} months old)", provider=price.provider, observed=price.observed, age=age)


def rent_legend(be: renting.BreakEven) -> str:
    """The rent line's name in the cost legend, short: whose price and of when, stale marked (the
    price, the publication and the age are in its tooltip and in the panel's figures)."""
    p = be.price
    if p is None or p.yours:
        return _("renting at your price")
    if p.stale():
        return _("renting ({provider}, {observed}, ⚠ stale)", provider=html.escape(p.provider), observed=p.observed)
    return _("renting ({provider}, {observed})", provider=html.escape(p.provider), observed=p.observed)


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


def _limit_text(num: int, watts: int, board_w: float, speed: float) -> str:
    """'GPU 1: 280 W (80%, ~96% speed)', or '(no limit)' at the board power."""
    if watts >= board_w:
        return _("GPU {num}: {watts} W (no limit)", num=num, watts=watts)
    return _("GPU {num}: {watts} W ({fraction:.0%}, ~{speed:.0%} speed)", num=num, watts=watts,
             fraction=round(100 * watts / board_w) / 100, speed=speed)


class _LimitRow(QWidget):
    """One GPU's power-limit slider; emits through the panel."""

    def __init__(self, panel: "PowerCostPanel", idx: int) -> None:
        super().__init__()
        self.panel = panel
        self.idx = idx
        self.board_w = 0.0
        self.label = QLabel()
        # Of fixed size: its text changes with every edit, and a label of fixed width and height
        # does not make Qt lay out the panel again.
        fm = self.label.fontMetrics()
        widest = max(fm.horizontalAdvance(_limit_text(8, 450, 450, 1.0)), fm.horizontalAdvance(_limit_text(8, 449, 450, 1.0)))
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

    def set_gpu(self, num: int, name: str, board_w: float, limit_w: Optional[float]) -> None:
        key = (num, name, board_w, limit_w)
        if key == getattr(self, "_key", None):
            return  # unchanged: no relayout, no repaint
        self._key = key
        self.board_w = board_w
        self.num = num
        self.slider.setToolTip(_("GPU {num}: {name}", num=num, name=name) + "\n"
                               + _("Power limit (nvidia-smi -i {index} -pl W); right end = no limit ({board_w:g} W board "
                                   "power)", index=num - 1, board_w=board_w))
        with QSignalBlocker(self.slider):
            self.slider.setRange(F.power_limit_floor_w(board_w), int(board_w))
            self.slider.setValue(int(round(limit_w if limit_w else board_w)))
        self._preview(self.slider.value())

    def _preview(self, v: int) -> None:
        if not self.board_w:
            return
        _set_text(self.label, _limit_text(self.num, v, self.board_w, perf.throughput(v / self.board_w)))

    def _changed(self, v: int) -> None:
        self._preview(v)
        self.panel.powerLimitEdited.emit(self.idx, F.limit_for(v, self.board_w))


class PowerCostPanel(QWidget):
    """Power draw, PSU efficiency and running cost of one build, with the settings behind them."""

    settingsEdited = Signal(dict)
    powerLimitEdited = Signal(int, object)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("PowerCostPanel")
        self._build: Optional[Build] = None
        self._curve_key = None
        self._titles: dict[int, str] = {}
        self.context: Optional[Context] = None
        self.report: Optional[power_model.PowerReport] = None
        self.cost: Optional[cost_model.CostReport] = None
        self._tips: dict[tuple, str] = {}  # the rent tooltips made, by what they say
        self._make_controls()
        self._make_plots()
        follow_ui_locale(self)
        theme.notifier().changed.connect(self.restyle)
        self._outer = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self._outer.setContentsMargins(4, 4, 4, 4)
        self._outer.addWidget(self.controls, 0, Qt.AlignmentFlag.AlignTop)
        self._outer.addWidget(self.plots, 1)
        self._arrange(self.width())

    # -- construction ---------------------------------------------------------------------------
    def _make_controls(self) -> None:
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
        self.years.valueChanged.connect(lambda _v: self._refresh())
        self.budget.valueChanged.connect(lambda v: self._emit("budget", float(v) if v > 0 else None))
        self.rent_price.valueChanged.connect(lambda v: self._emit("rent_per_gpu_hour", round(v, 4) if v > 0 else None))

    def _emit(self, key: str, value) -> None:
        self.settingsEdited.emit({key: value})

    def _make_plots(self) -> None:
        w = self.plots = pg.GraphicsLayoutWidget()
        pal = theme.colors()
        w.setBackground(pal.background)
        for act in w.scene().contextMenu:  # pyqtgraph's own "Export..." (its texts go through Qt's translators)
            act.setText(_("Export…"))
        # 760 px: the power plot's view box about 140 px high, room for its hover readout a
        # component a line (at 640 it was 82 px and the readout ran off its bottom)
        w.setMinimumSize(380, 760)
        w.ci.setContentsMargins(2, 2, 2, 2)
        w.ci.layout.setHorizontalSpacing(2)
        # (a) power
        p = self.power_plot = w.addPlot(row=0, col=0)
        _style_plot(p, _("Power (W)"), "")
        p.getAxis("bottom").setTicks([[(i, state_name(s)) for i, s in enumerate(STATES)]])
        p.setXRange(-0.6, 2.6, padding=0)
        leg = self.power_legend = pg.LegendItem(labelTextColor=pal.grid_text, labelTextSize="8pt", verSpacing=-6)
        w.addItem(leg, row=1, col=0)
        # One item draws every bar (a kind's share of a state each): seven items cost seven
        # bounding-box and paint passes in Python on every edit. The legend gets a sample each.
        zeros = np.zeros(3)
        xs = np.arange(3, dtype=float)
        self.bar_heights: dict[str, np.ndarray] = {k: zeros.copy() for k in KINDS}
        self.stack = pg.BarGraphItem(x=np.tile(xs, len(KINDS)), height=np.zeros(3 * len(KINDS)),
                                     y0=np.zeros(3 * len(KINDS)), width=BAR_WIDTH, pen=pg.mkPen(pal.background, width=0.5),
                                     brushes=[KIND_COLORS[k] for k in KINDS for _s in STATES])
        p.addItem(self.stack)
        for k in KINDS:
            sample = pg.BarGraphItem(x=[], height=[], width=BAR_WIDTH, brush=KIND_COLORS[k])  # never plotted
            leg.addItem(sample, _(KIND_LABELS[k]))
        self.wall_marks = pg.ScatterPlotItem(x=xs, y=zeros, symbol="d", size=11, brush=pal.marker, pen=pal.background)
        p.addItem(self.wall_marks)
        leg.addItem(self.wall_marks, _("At the wall"))
        # The reference lines are named in the legend, with their watts: labels on the lines
        # themselves collided with each other and with the bars.
        pens = self._line_pens()
        self.rating_line = pg.InfiniteLine(0, angle=0, pen=pens["rating"])
        self.rating80_line = pg.InfiniteLine(0, angle=0, pen=pens["rating80"])
        self.circuit_line = pg.InfiniteLine(0, angle=0, pen=pens["circuit"])
        self.line_keys: dict[str, pg.PlotDataItem] = {}
        self.line_labels: dict[str, object] = {}
        for key in ("rating", "rating80", "circuit"):
            sample = pg.PlotDataItem([], [], pen=pens[key])  # a legend sample only, never plotted
            leg.addItem(sample, key)
            self.line_keys[key] = sample
            self.line_labels[key] = leg.items[-1][1]
        for ln in (self.rating_line, self.rating80_line, self.circuit_line):
            ln.setMovable(False)
            ln.setZValue(5)
            p.addItem(ln)
        self.hover = pg.TextItem("", color=pal.label_text, fill=pg.mkBrush(pal.hover_fill),
                                 border=pg.mkPen(pal.axis), anchor=(0, 0))
        self.hover.setZValue(20)
        self.hover.hide()
        p.addItem(self.hover, ignoreBounds=True)
        p.scene().sigMouseMoved.connect(self._on_mouse_moved)
        # (b) efficiency
        e = self.eff_plot = w.addPlot(row=2, col=0)
        # The title says "Efficiency: ..."; the axis only its unit (a word, turned on its side, was
        # longer than this short plot is high and was cut: "ffizienz").
        _style_plot(e, "%", _("PSU load (% of rating)"))
        eleg = self.eff_legend = pg.LegendItem(labelTextColor=pal.grid_text, labelTextSize="8pt", verSpacing=-6)
        w.addItem(eleg, row=3, col=0)
        self.eff_curve = e.plot([], [], pen=pg.mkPen("#4e79a7", width=2))
        self.eff_extra = e.plot([], [], pen=pg.mkPen("#4e79a7", width=2, style=Qt.PenStyle.DashLine), connect="finite")
        self.eff_points = pg.ScatterPlotItem([], [], symbol="o", size=7, brush=pal.background, pen=pg.mkPen("#4e79a7", width=1.5))
        e.addItem(self.eff_points)
        eleg.addItem(self.eff_curve, _("80 PLUS min."))
        eleg.addItem(self.eff_extra, _("extrapolated"))
        eleg.addItem(self.eff_points, _("certified points"))
        self.op_points: dict[str, pg.ScatterPlotItem] = {}
        self.op_labels: dict[str, pg.TextItem] = {}
        for s in STATES:
            sp = pg.ScatterPlotItem([0], [0], symbol="t" if s == "peak" else "s", size=11, brush=STATE_COLORS[s],
                                    pen=pg.mkPen(pal.marker, width=0.8))
            sp.setZValue(10)
            e.addItem(sp)
            eleg.addItem(sp, state_name(s))
            self.op_points[s] = sp
            t = pg.TextItem("", color=STATE_COLORS[s], anchor={"idle": (-0.15, -0.1), "training": (0.9, -0.3), "peak": (0.9, 1.1)}[s])
            e.addItem(t, ignoreBounds=True)
            self.op_labels[s] = t
        # (c) cumulative cost
        c = self.cost_plot = w.addPlot(row=4, col=0)
        _style_plot(c, _("Cumulative cost"), _("Months"))
        cleg = self.cost_legend = pg.LegendItem(labelTextColor=pal.grid_text, labelTextSize="8pt", verSpacing=-6)
        w.addItem(cleg, row=5, col=0)
        self.cost_curve = c.plot([], [], pen=pg.mkPen(pal.marker, width=2.5))
        cleg.addItem(self.cost_curve, _("this build"))
        self.scenario_curves: dict[str, pg.PlotDataItem] = {}
        self.scenario_labels: dict[str, pg.LabelItem] = {}  # the legend's label of each optional entry
        # Renting the same GPUs: a line, and the month where buying overtakes it (a mark, a label).
        rent_color = self._rent_color()
        self.rent_curve = c.plot([], [], pen=pg.mkPen(rent_color, width=2, style=Qt.PenStyle.DashDotLine))
        self.rent_curve.setVisible(False)
        self.rent_mark = pg.ScatterPlotItem([0], [0], symbol="o", size=10, brush=rent_color, pen=pg.mkPen(pal.marker, width=0.8))
        self.rent_mark.setZValue(10)  # a one-point item drawn at (0, 0) and moved (setPos): no new data each edit
        self.rent_mark.hide()
        c.addItem(self.rent_mark)
        # a dotted line through the break-even month, to read the month off the axis
        self.rent_at = pg.InfiniteLine(0, angle=90, pen=pg.mkPen(rent_color, width=1, style=Qt.PenStyle.DotLine))
        self.rent_at.setMovable(False)
        self.rent_at.hide()
        c.addItem(self.rent_at, ignoreBounds=True)
        self.rent_text = pg.TextItem("", color=pal.grid_text, fill=pg.mkBrush(pal.hover_fill),
                                     border=pg.mkPen(rent_color), anchor=(0, 0))
        small = QFont()
        small.setPointSizeF(8)
        self.rent_text.setFont(small)
        self.rent_text.setZValue(11)
        self.rent_text.hide()
        c.addItem(self.rent_text, ignoreBounds=True)
        self.break_even: Optional[renting.BreakEven] = None
        self.rent_missing = ""  # why there is no rent line ("" when there is one)
        self._scenarios_in_legend: set[str] = set()
        self._scenario_text: dict[str, str] = {}
        for k in SCENARIO_KEYS:
            color, style = SCENARIO_PENS[k]
            curve = c.plot([], [], pen=pg.mkPen(color, width=2, style=style))
            curve.setVisible(False)
            self.scenario_curves[k] = curve
        for leg in (self.power_legend, self.eff_legend, self.cost_legend):
            self._compact(leg)
        # Pixmaps for what an edit moves but does not redraw: the legends, the titles and the
        # operating points, which move with setPos.
        for item in (self.power_legend, self.eff_legend, self.cost_legend, self.eff_points, *self.op_points.values(),
                     *(p.titleLabel for p in (self.power_plot, self.eff_plot, self.cost_plot))):
            cache_as_pixmap(item)
        w.ci.layout.setRowStretchFactor(0, 4)
        w.ci.layout.setRowStretchFactor(2, 3)
        w.ci.layout.setRowStretchFactor(4, 3)
        for r in (1, 3, 5):
            w.ci.layout.setRowStretchFactor(r, 0)

    @staticmethod
    def _rent_color() -> str:
        return RENT_COLORS[theme.colors() is theme.DARK]

    @staticmethod
    def _line_pens() -> dict:
        dark = theme.colors() is theme.DARK  # lighter reds and purple on a dark background
        return {"rating": pg.mkPen("#ff6b6b" if dark else "#d62728", width=2),
                "rating80": pg.mkPen("#ffa657" if dark else "#ff7f0e", width=1.5, style=Qt.PenStyle.DashLine),
                "circuit": pg.mkPen("#c58af9" if dark else "#7b3294", width=2, style=Qt.PenStyle.DashDotLine)}

    def restyle(self, *_args) -> None:
        """The plots in the current theme's colours."""
        pal = theme.colors()
        self.plots.setBackground(pal.background)
        for plot, (left, bottom) in ((self.power_plot, (_("Power (W)"), "")),
                                     (self.eff_plot, ("%", _("PSU load (% of rating)"))),
                                     (self.cost_plot, (self.cost_plot.getAxis("left").labelText, _("Months")))):
            _style_plot(plot, left, bottom)
        for leg in (self.power_legend, self.eff_legend, self.cost_legend):
            leg.setLabelTextColor(pal.grid_text)
            for _sample, label in leg.items:
                label.setText(label.text, color=pal.grid_text)
        self.stack.setOpts(pen=pg.mkPen(pal.background, width=0.5))
        self.wall_marks.setBrush(pg.mkBrush(pal.marker))
        self.wall_marks.setPen(pg.mkPen(pal.background))
        pens = self._line_pens()
        for key, ln in (("rating", self.rating_line), ("rating80", self.rating80_line), ("circuit", self.circuit_line)):
            ln.setPen(pens[key])
            self.line_keys[key].setPen(pens[key])
        self.hover.setColor(pal.label_text)
        self.hover.fill = pg.mkBrush(pal.hover_fill)
        self.hover.border = pg.mkPen(pal.axis)
        self.eff_points.setBrush(pg.mkBrush(pal.background))
        for sp in self.op_points.values():
            sp.setPen(pg.mkPen(pal.marker, width=0.8))
        self.cost_curve.setPen(pg.mkPen(pal.marker, width=2.5))
        rent_color = self._rent_color()
        self.rent_curve.setPen(pg.mkPen(rent_color, width=2, style=Qt.PenStyle.DashDotLine))
        self.rent_mark.setBrush(pg.mkBrush(rent_color))
        self.rent_mark.setPen(pg.mkPen(pal.marker, width=0.8))
        self.rent_text.setColor(pal.grid_text)
        self.rent_text.fill = pg.mkBrush(pal.hover_fill)
        self.rent_text.border = pg.mkPen(rent_color)
        self.rent_at.setPen(pg.mkPen(rent_color, width=1, style=Qt.PenStyle.DotLine))
        for plot in (self.power_plot, self.eff_plot, self.cost_plot):
            text = self._titles.pop(id(plot), None)
            if text is not None:
                self._set_title(plot, text)
        for item in (self.power_legend, self.eff_legend, self.cost_legend):
            item.update()

    def _compact(self, leg: pg.LegendItem) -> None:
        """A legend under its plot: entries in rows of a few, as tall as they need; fewer a row
        where the names are long (German), so the legend is no wider than the narrowest panel."""
        leg.setColumnCount(self._legend_columns(leg))
        leg.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        leg.updateSize()

    def _legend_columns(self, leg: pg.LegendItem) -> int:
        cols = {id(self.power_legend): LEGEND_COLUMNS["power"], id(self.eff_legend): LEGEND_COLUMNS["eff"]}
        n = cols.get(id(leg), LEGEND_COLUMNS["cost"])
        widths = [label.item.boundingRect().width() for _sample, label in leg.items]
        room = self.plots.minimumWidth() - 8
        for cols in range(n, 1, -1):  # entries fill the rows: entry i sits in column i % cols
            # each column as wide as its widest name, plus its sample and spacing (about 37 px)
            if sum(max(widths[c::cols], default=0.0) + 37 for c in range(cols)) <= room:
                return cols
        return 1

    def _legend_curve(self, key: str) -> pg.PlotDataItem:
        return self.rent_curve if key == "rent" else self.scenario_curves[key]

    def _set_scenario_shown(self, key: str, label: Optional[str]) -> None:
        """Show ``key``'s line (a scenario, or "rent") named ``label`` in the cost legend; None hides it."""
        curve = self._legend_curve(key)
        shown = key in self._scenarios_in_legend
        if label is None and shown:
            self.cost_legend.removeItem(curve)
            self._scenarios_in_legend.discard(key)
        elif label is not None:
            changed = self._scenario_text.get(key) != label
            self._scenario_text[key] = label  # named as it will read before the legend is laid out
            if not shown:
                # Re-add in the fixed order so the legend does not reshuffle.
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

    # -- layout -----------------------------------------------------------------------------
    def _arrange(self, width: int) -> None:
        wide = width >= WIDE
        self._outer.setDirection(QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom)
        self.controls.setMaximumWidth(330 if wide else 16777215)

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        self._arrange(ev.size().width())
        super().resizeEvent(ev)

    # -- model -> view ----------------------------------------------------------------------
    def show_build(self, build: Build, index: PartIndex, context: Optional[Context] = None) -> None:
        """Recompute every figure for ``build`` and update the plots and controls. ``context``:
        the checks' context of the same build, if the caller has one (its power model is reused)."""
        self._build = build
        self._index = index
        self._refresh(context)

    def reset_controls(self) -> None:
        """Show the build's settings in the controls again (an edit from them was refused)."""
        if self.context is not None:
            self._update_controls(self.context)

    def _refresh(self, context: Optional[Context] = None) -> None:
        if self._build is None:
            return
        build, index = self._build, self._index
        ctx = self.context = context if context is not None and context.build is build else Context(build, index)
        rep = self.report = ctx.power
        s = build.settings
        key = self._inputs(ctx, rep)
        if key == self._shown:
            return  # nothing the panel shows changed (a card moved to another slot): no update, no repaint
        self._shown = key
        region = s.region_info()
        try:
            self.cost = cost_model.cost_report(rep, build, index, s, float(self.years.value()))
            cost_error = ""
        except ValueError as e:
            self.cost = None
            cost_error = str(e)
        self._update_rent(ctx)
        self._update_controls(ctx)
        self._update_power(rep, s.circuit_w())
        self._update_efficiency(ctx, rep, region.efficiency_table)
        self._update_cost()
        self._update_figures(rep, cost_error)
        empty = not build.part_ids()
        self.plots.setVisible(not empty)
        if empty:  # nothing to judge: no fans-only watts, no cost of an empty box
            self.figures.setText(_(EMPTY_FIGURES))

    _shown = None
    _power_top: Optional[float] = None
    _cost_top: Optional[float] = None
    _eff_xmax: Optional[float] = None

    def _inputs(self, ctx: Context, rep: power_model.PowerReport) -> tuple:
        """Everything the panel's figures, plots and controls are computed from."""
        b = ctx.build
        parts = tuple((pid, ctx.index.get(pid)) for pid in b.part_ids())
        counts = (tuple(m.count for m in b.memory), tuple(x.count for x in b.storage))
        gpus = tuple((g.num, g.gpu.name, g.gpu.board_power_w, g.placement.power_limit_w) for g in ctx.gpus)
        paid = tuple(sorted((k, dataclasses.astuple(v)) for k, v in b.prices_paid.items()))
        return (rep, dataclasses.astuple(b.settings), parts, counts, gpus, tuple(ctx.psus), self.years.value(),
                paid, ctx.index.prices)

    def _set_title(self, plot: pg.PlotItem, text: str) -> None:
        if self._titles.get(id(plot)) != text:  # setTitle re-lays out the plot: only when it changes
            self._titles[id(plot)] = text
            # A title sets its plot's least width: one wider than the narrowest panel pushed the
            # plots past the dock's right edge (an EU build's power title): wrapped instead.
            plot.setTitle(self._wrapped_title(text), color=theme.colors().grid_text, size="9pt")

    def _wrapped_title(self, text: str) -> str:
        """``text`` in lines no wider than the narrowest plot, broken between words (a German
        power title was wider than the panel and pushed the plots past the dock's edge)."""
        font = QFont()
        font.setPointSizeF(9)
        fm = QFontMetrics(font)
        room = self.plots.minimumWidth() - 70
        if fm.horizontalAdvance(text) <= room:
            return text
        lines: list[str] = []
        for word in text.split(" "):
            if lines and fm.horizontalAdvance(lines[-1] + " " + word) <= room:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return "<br>".join(lines)

    def _update_controls(self, ctx: Context) -> None:
        s = ctx.build.settings
        # Each setter only where the value differs: a spin box repaints on any set.
        with QSignalBlocker(self.region):
            i = max(0, self.region.findData(s.region))
            if self.region.currentIndex() != i:
                self.region.setCurrentIndex(i)
        with QSignalBlocker(self.price):
            if self.price.value() != round(s.price_per_kwh, self.price.decimals()):
                self.price.setValue(s.price_per_kwh)
            if self.price.suffix() != f" {s.currency}":
                self.price.setSuffix(f" {s.currency}")
        with QSignalBlocker(self.currency):
            known = ctx.index.prices.rates.currencies()
            wanted = known + ([s.currency] if s.currency not in known else [])
            if [self.currency.itemText(i) for i in range(self.currency.count())] != wanted:
                self.currency.clear()
                self.currency.addItems(wanted)
                self.currency.setToolTip(_("The build's currency: prices convert at the exchange rates "
                                           "(Edit > Preferences); changing it converts the electricity price "
                                           "and the budget"))
            if self.currency.currentText() != s.currency:
                self.currency.setCurrentText(s.currency)
        with QSignalBlocker(self.budget):
            b = s.budget or 0.0
            if self.budget.value() != round(b):
                self.budget.setValue(b)
            if self.budget.suffix() != f" {s.currency}":
                self.budget.setSuffix(f" {s.currency}")
        with QSignalBlocker(self.rent_price):
            r = s.rent_per_gpu_hour or 0.0
            if self.rent_price.value() != round(r, self.rent_price.decimals()):
                self.rent_price.setValue(r)
            if self.rent_price.suffix() != f" {s.currency}":
                self.rent_price.setSuffix(f" {s.currency}")
            tip = self._rent_tooltip(for_box=True)
            if self.rent_price.toolTip() != tip:
                self.rent_price.setToolTip(tip)
        with QSignalBlocker(self.load_hours), QSignalBlocker(self.idle_hours):
            day = F.HOURS_A_DAY  # load plus idle hours fill at most a day
            for box, top, value in ((self.load_hours, day - min(day, s.idle_hours_per_day), s.load_hours_per_day),
                                    (self.idle_hours, day - min(day, s.load_hours_per_day), s.idle_hours_per_day)):
                if box.maximum() != top:
                    box.setMaximum(top)
                if box.value() != value:
                    box.setValue(value)
        while len(self.limit_rows) < len(ctx.gpus):
            self.limit_rows.append(_LimitRow(self, len(self.limit_rows)))
        for i, row in enumerate(self.limit_rows):
            if i < len(ctx.gpus):
                g = ctx.gpus[i]
                row.idx = g.num - 1
                row.set_gpu(g.num, g.gpu.name, g.gpu.board_power_w, g.placement.power_limit_w)
        self.limits_rows.show_rows(self.limit_rows[:len(ctx.gpus)])
        self.limits_box.setVisible(bool(ctx.gpus))

    def _update_power(self, rep: power_model.PowerReport, circuit_w: float) -> None:
        base = np.zeros(3)
        heights, bottoms = [], []
        for k in KINDS:
            h = np.array([rep.share(k, s) for s in STATES])
            self.bar_heights[k] = h
            heights.append(h)
            bottoms.append(base.copy())
            base += h
        self.stack.setOpts(height=np.concatenate(heights), y0=np.concatenate(bottoms))
        wall = np.array([rep.wall[s] for s in STATES])
        self.wall_marks.setData(x=np.arange(3, dtype=float), y=wall)
        rating = rep.psu_rating_w
        top = max(float(wall.max()), float(base.max()), rating, 1.0)
        off_scale = circuit_w > 1.6 * top
        if not off_scale:
            top = max(top, circuit_w)
        self.rating_line.setVisible(rating > 0)
        self.rating80_line.setVisible(rating > 0)
        self.rating_line.setPos(rating)
        self.rating80_line.setPos(0.8 * rating)
        self.circuit_line.setVisible(not off_scale)
        self.circuit_line.setPos(circuit_w)
        texts = {"rating": _("PSU {watts:.0f} W", watts=rating) if rating else _("PSU: none chosen"),
                 "rating80": _("{share:.0%}: {watts:.0f} W", share=0.8, watts=0.8 * rating) if rating
                 else _("{share:.0%}: -", share=0.8),
                 "circuit": _("circuit {watts:.0f} W", watts=circuit_w)}  # the title says when it is off the scale
        for key, text in texts.items():
            _set_text(self.line_labels[key], text)
        if self._legend_columns(self.power_legend) != self.power_legend.columnCount:
            self._compact(self.power_legend)  # longer names (a language's): fewer a row
        self._power_top = _sticky_top(self._power_top, top * 1.08)
        _set_range(self.power_plot, "y", 0, self._power_top)
        self._set_title(self.power_plot, _("Power: bars DC, ◆ at the wall (circuit limit {watts:.0f} W: above the scale)",
                                           watts=circuit_w) if off_scale else _("Power: bars DC, ◆ at the wall"))
        if self.hover.isVisible():
            self._place_hover(self._hover_state)

    def hover_text(self, state: int, compact: bool = False) -> str:
        """What hovering over the ``state`` column shows (0 idle, 1 training, 2 peak); ``compact``:
        the components three to a line, for a plot too short for one a line."""
        rep = self.report
        if rep is None:
            return ""
        s = STATES[state]
        lines = [_("{state}: {dc:.0f} W DC, {wall:.0f} W at the wall", state=state_name(s), dc=rep.dc[s], wall=rep.wall[s])]
        shares = [_("{kind}: {watts:.0f} W", kind=_(KIND_LABELS[k]), watts=w) for k in KINDS if (w := rep.share(k, s))]
        step = 3 if compact else 1
        lines += ["  " + ", ".join(shares[j:j + step]) for j in range(0, len(shares), step)]
        if rep.psu_rating_w:
            lines.append(_("PSU load {load:.0%}, efficiency {efficiency:.1%} (model)", load=rep.load_fraction(s),
                           efficiency=rep.efficiency[s]) if rep.efficiency_estimated[s]
                         else _("PSU load {load:.0%}, efficiency {efficiency:.1%}", load=rep.load_fraction(s),
                                efficiency=rep.efficiency[s]))
        if s == "peak" and rep.gpu_transient_w:
            lines.append(_("GPU spikes: about {watts:.0f} W (ms, estimate)", watts=rep.dc['peak'] + rep.gpu_transient_w))
        return "\n".join(lines)

    _hover_state = 0
    HOVER_MARGIN = 3  # pixels between the readout and the plot's edges

    def _on_mouse_moved(self, pos) -> None:
        vb = self.power_plot.vb
        if not self.power_plot.sceneBoundingRect().contains(pos) or self.report is None:
            self.hover.hide()
            return
        pt = vb.mapSceneToView(pos)
        i = int(round(pt.x()))
        if not 0 <= i < 3 or abs(pt.x() - i) > BAR_WIDTH / 2:
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

    def _update_efficiency(self, ctx: Context, rep: power_model.PowerReport, table: str) -> None:
        level = ctx.psus[0].efficiency if ctx.psus else None
        fr = {s: rep.load_fraction(s) for s in STATES}
        # In steps of 10% of the rating, so a small change of load leaves the axis as it was.
        self._eff_xmax = _sticky_top(self._eff_xmax, max(1.1, fr["peak"] * 1.08)) if level else 1.1
        xmax = self._eff_xmax if level else 1.1
        key = (level, table, round(xmax, 2))
        if key != self._curve_key:
            self._curve_key = key
            if level is None:
                for it in (self.eff_curve, self.eff_extra, self.eff_points):
                    it.setData([], [])
            else:
                pts = power_model.EFFICIENCY_POINTS[table].get(level, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
                lo, hi = pts[0][0], pts[-1][0]
                xs = np.linspace(0.0, xmax, 241)
                curve = power_model.efficiency_curve(level, table, xs)
                ys = np.array([100 * e for _x, e, _y in curve])
                certified = (xs >= lo - 1e-9) & (xs <= hi + 1e-9)
                self.eff_curve.setData(100 * xs[certified], ys[certified])
                extra = np.where(certified, np.nan, ys)
                # Join each dashed piece to the solid one so the curve reads as one line.
                edge = np.flatnonzero(certified)
                if len(edge):
                    extra[edge[0]] = ys[edge[0]]
                    extra[edge[-1]] = ys[edge[-1]]
                self.eff_extra.setData(100 * xs, extra)
                self.eff_points.setData([100 * x for x, _y in pts], [100 * y for _x, y in pts])
            _set_range(self.eff_plot, "x", 0, 100 * xmax, padding=0.01)
            _set_range(self.eff_plot, "y", 60, 112)  # room above 100% for the peak label
        self.eff_legend.setVisible(level is not None)  # nothing to name without a PSU
        names = " + ".join(_("{watts:g} W {level}", watts=p.wattage, level=p.efficiency) for p in ctx.psus)
        self._set_title(self.eff_plot, _("Efficiency: {psus}, {table}", psus=names, table=table.replace('V', ' V'))
                        if ctx.psus else _("PSU efficiency: no PSU chosen"))
        for s in STATES:
            sp, t = self.op_points[s], self.op_labels[s]
            vis = level is not None
            sp.setVisible(vis)
            t.setVisible(vis)
            if vis:
                x, y = 100 * fr[s], 100 * rep.efficiency[s]
                if getattr(sp, "_rb_xy", None) != (x, y):
                    sp._rb_xy = (x, y)
                    sp.setPos(x, y)  # a one-point item drawn at (0, 0), moved: no new data to prepare
                    t.setPos(x, y)
                _set_text(t, _("{state} {load:.0%}", state=state_name(s), load=fr[s]))

    def _update_cost(self) -> None:
        cr = self.cost
        if cr is None:
            for it in (self.cost_curve, self.rent_curve, *self.scenario_curves.values()):
                it.setData([], [])
            self._set_scenario_shown("rent", None)
            for it in (self.rent_mark, self.rent_at, self.rent_text):
                it.hide()
            return
        months = int(round(cr.years * 12))
        total = cr.purchase.total
        xs, ys = cost_model.cumulative(total, cr.running.cost_per_month, months)
        self.cost_curve.setData(xs, ys)
        by_key = {sc.key: sc for sc in cr.scenarios}
        for k, curve in self.scenario_curves.items():
            sc = by_key.get(k)
            if sc is None:
                curve.setData([], [])
                self._set_scenario_shown(k, None)
            else:
                _xs, ys2 = cost_model.cumulative(total, sc.running.cost_per_month, months)
                curve.setData(xs, ys2)
                self._set_scenario_shown(k, scenario_label(k, sc.label))
        be = self.break_even
        s = self._build.settings if self._build is not None else None
        rent_months: Optional[float] = None
        if be is None or s is None:
            self.rent_curve.setData([], [])
            self._rent_key = None
            self._set_scenario_shown("rent", None)
            verdict = ""
        else:
            key = (be.rent_per_hour, months, s.load_hours_per_day, s.days_per_month)
            if key != self._rent_key or not self.rent_curve.isVisible():  # a price per kWh leaves the rent as it was
                self._rent_key = key
                rxs, rys = be.rent_by_month(months, s.load_hours_per_day, s.days_per_month)
                self.rent_curve.setData(rxs, rys)
            self._set_scenario_shown("rent", rent_legend(be))
            rent_months, verdict = rent_verdict(be, months, s.load_hours_per_day, s.days_per_month, cr.purchase.complete)
        cur = cr.running.currency
        if getattr(self, "_cost_currency", None) != cur:  # setLabel re-lays out the plot
            self._cost_currency = cur
            self.cost_plot.getAxis("left").setLabel(_("Cumulative cost ({currency})", currency=cur),
                                                    color=theme.colors().grid_text)
        top = max([float(ys[-1]) if len(ys) else 0.0]
                  + [float(c.yData[-1]) for c in self.scenario_curves.values()
                     if c.isVisible() and c.yData is not None and len(c.yData)])
        if be is not None and len(self.rent_curve.yData):
            # renting's line in full unless it would squash owning's to the bottom: then it leaves the top
            top = max(top, min(float(self.rent_curve.yData[-1]), 2 * top))
        _set_range(self.cost_plot, "x", 0, max(1, months), padding=0.02)
        self._cost_top = _sticky_top(self._cost_top, top * (1.25 if verdict else 1.05))  # room for the verdict
        _set_range(self.cost_plot, "y", 0, self._cost_top)
        self.rent_mark.setVisible(rent_months is not None)
        self.rent_at.setVisible(rent_months is not None)
        self.rent_text.setVisible(bool(verdict))
        tip = self._rent_tooltip()  # (cached: the same break-even asks no new text)
        for item in (self.rent_text, self.rent_mark, self.rent_curve, self.scenario_labels.get("rent")):
            if item is not None and item.toolTip() != tip:
                item.setToolTip(tip)
        if verdict:
            if rent_months is not None and be is not None and s is not None:
                y = be.own_cost(rent_months * s.load_hours_per_day * s.days_per_month)
                if getattr(self.rent_mark, "_rb_xy", None) != (rent_months, y):
                    self.rent_mark._rb_xy = (rent_months, y)
                    self.rent_mark.setPos(rent_months, y)
                    self.rent_at.setPos(rent_months)
            _set_text(self.rent_text, verdict)
            self._place_rent_text(rent_months)
        buy = cr.purchase
        n = len(buy.missing)
        self._set_title(self.cost_plot,
                        _("{years:g} years: purchase + energy", years=cr.years) if buy.complete else
                        _("{years:g} years: priced parts + energy ({n} unpriced)", years=cr.years, n=n) if buy.total
                        else _("{years:g} years: energy only (no part priced)", years=cr.years))

    _rent_text_at: Optional[tuple] = None
    _rent_key: Optional[tuple] = None
    _rent_text_w: tuple = (None, None, 0.0)
    _cloud_prices: Optional[list] = None
    _cloud_error = ""

    def cloud_prices(self) -> list:
        """The shipped example rental prices, read once (a broken file: none, and the reason kept)."""
        if PowerCostPanel._cloud_prices is None:
            try:
                PowerCostPanel._cloud_prices = renting.load_cloud_prices()
            except ValueError as e:
                PowerCostPanel._cloud_prices, PowerCostPanel._cloud_error = [], render_ui(e.args[0])
        return PowerCostPanel._cloud_prices

    def _update_rent(self, ctx: Context) -> None:
        """Owning against renting the build's GPUs (``models.renting.for_usage``, as the comparison)."""
        self.break_even, self.rent_missing = None, ""
        cr = self.cost
        if cr is None:
            return
        gpus = [g.gpu for g in ctx.gpus]
        be, why = renting.for_usage(gpus, cr.purchase.total, cr.running, typed=renting.typed_price(ctx.build.settings),
                                    shipped=self.cloud_prices(), rates=ctx.index.prices.rates)
        self.break_even = be
        self.rent_missing = render_ui(why) if why else ""
        if be is None and self._cloud_error and gpus:
            self.rent_missing += " (" + self._cloud_error + ")"

    def _rent_tooltip(self, for_box: bool = False) -> str:
        """What the rent line explains (``for_box``: the rent price box, which says first what it
        is): the price used, where it comes from and how old it is, as rich text that Qt wraps."""
        be = self.break_even
        key = (for_box, None if be is None else (be.price, be.rate_note, be.n_gpus, be.rent_per_gpu_hour, be.currency),
               self.rent_missing, ui_language())
        if key not in self._tips:
            if len(self._tips) > 64:
                self._tips.clear()
            self._tips[key] = self._rent_tooltip_text(for_box)
        return self._tips[key]

    def _rent_tooltip_text(self, for_box: bool) -> str:
        lines = []
        if for_box:
            lines.append(_("Cloud price per GPU-hour to compare owning with, in the build's currency; saved in the "
                           "build. At {none}: the cheapest published example for the build's GPUs.",
                           none=_("published example")))
        be = self.break_even
        if be is not None:
            if be.price is not None and not be.price.yours:
                lines.append(render_ui(be.price.describe()))
            if be.rate_note:
                lines.append(render_ui(be.rate_note))
            lines.append(_("Renting: {n} × {price:.2f} {currency} per GPU-hour for the same hours of use (the load "
                           "hours a day); owning: the purchase, then the energy under load and idle.",
                           price=be.rent_per_gpu_hour, currency=be.currency, n=be.n_gpus))
        elif self.rent_missing:
            lines.append(_("No rent line: {why}", why=self.rent_missing))
        return "<p>" + "</p><p>".join(html.escape(x) for x in lines) + "</p>"

    def _place_rent_text(self, months: Optional[float]) -> None:
        """The verdict in the plot's top band (the axis top leaves room for it): beside the
        break-even line, on the side with more room, else from the left edge; wrapped when the
        plot is narrower than the text."""
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

    def _update_figures(self, rep: power_model.PowerReport, cost_error: str) -> None:
        w = rep.wall
        lines = [_("At the wall: {idle:.0f} W idle · {training:.0f} W training · {peak:.0f} W peak",
                   idle=w['idle'], training=w['training'], peak=w['peak'])]
        if rep.psu_rating_w:
            lines.append(_("PSU {watts:.0f} W: {load:.0%} loaded at peak, {efficiency:.1%} efficient in training",
                           watts=rep.psu_rating_w, load=rep.load_fraction('peak'), efficiency=rep.efficiency['training']))
        cr = self.cost
        if cr is None:
            lines.append("⚠ " + _("Cost not computed: {error}", error=render_ui(cost_error)))
        else:
            lines += money_lines(cr.purchase, cr.running, cr.years)
            be, s = self.break_even, self._build.settings if self._build is not None else None
            if be is not None and s is not None and be.purchase <= 0:
                lines.append(_("Against renting: {why}", why=_("buying against renting: unknown until the parts "
                                                                  "have prices")))
            elif be is not None and s is not None:
                verdict = render_ui(be.summary(s.load_hours_per_day, s.days_per_month))
                lines.append(_("Against renting: {verdict}", verdict=verdict) if cr.purchase.complete else
                             _("Against renting, at least (unpriced parts not counted): {verdict}", verdict=verdict))
                lines.append("  " + _("rent {price:.2f} {currency} per GPU-hour, {source}", price=be.rent_per_gpu_hour,
                                      currency=be.currency, source=rent_source(be.price)))
            elif self.rent_missing:
                lines.append(_("Against renting: {why}", why=self.rent_missing))
        self.figures.setText("\n".join(lines))  # unchanged text: no repaint
