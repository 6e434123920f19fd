"""The Adviser panel (issue 17): every GPU in the catalog for one workload, throughput against price.

One pyqtgraph scatter per kind of figure (measured: filled stars with a dark outline; estimated:
open circles), created once and updated with ``setData`` from arrays (``rigbuilder.models.adviser``),
so a change of workload or filter costs the same few milliseconds for 100 or 2,500 cards
(``benchmarks/bench_adviser.py --panel``). Colour = cooler type, size = VRAM. Hovering a point shows
its figures and their sources; clicking it shows its VRAM breakdown; dragging it onto the board
places the card (the drag carries the part id with the catalog's MIME type). The panel decides
nothing: every figure comes from ``rigbuilder.models``.
"""
from __future__ import annotations

import math
import re
import os
from typing import Optional

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, Signal  # noqa: E402
from PySide6.QtGui import QBrush, QColor, QDrag, QPen  # noqa: E402
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QFormLayout, QHBoxLayout,  # noqa: E402
                               QSpinBox, QVBoxLayout, QWidget)

from rigbuilder.domain.build import Build, Settings  # noqa: E402
from rigbuilder.domain.catalog import PartIndex  # noqa: E402
from rigbuilder.domain.i18n import Money, format_number  # noqa: E402
from rigbuilder.domain.parts import COOLER_TYPES, GPU  # noqa: E402
from rigbuilder.models import adviser as A  # noqa: E402
from rigbuilder.models import estimates as E  # noqa: E402
from rigbuilder.models import scaling as S  # noqa: E402
from rigbuilder.models import throughput as TP  # noqa: E402
from rigbuilder.models import vram as V  # noqa: E402
from rigbuilder.models.workloads import (BYTES_PER_PARAM, LLM_WORKLOADS, PRECISION_TABLE, SIZE_PRESETS, TRAINING_PRECISIONS,  # noqa: E402
                                         WORKLOADS, workload)
from rigbuilder.models.vram import STRATEGY_LABELS  # noqa: E402
from rigbuilder.ui.boardview import PART_MIME  # noqa: E402
from rigbuilder.ui import theme  # noqa: E402
from rigbuilder.ui.i18n import N_, _, close_quotation, n_, render_ui, ui_language  # noqa: E402
from rigbuilder.ui.widgets import QuietLabel, cache_as_pixmap  # noqa: E402

COOLER_COLORS = {"blower": "#e15759", "open-air": "#4e79a7", "passive": "#76b7b2", "hybrid": "#b07aa1",
                 "water-block": "#59a14f"}
OTHER_COLOR = "#999999"
COMPONENT_COLORS = {"weights": "#4e79a7", "gradients": "#f28e2b", "optimizer": "#e15759", "activations": "#59a14f",
                    "kv_cache": "#b07aa1", "overhead": "#9c755f"}
PICK_PX = 9  # how near the pointer a point must be to be picked or dragged
COOLER_LABELS = {"blower": N_("blower"), "open-air": N_("open-air"), "passive": N_("passive"), "hybrid": N_("hybrid"),
                 "water-block": N_("water block")}
COMPONENT_LABELS = {"weights": N_("weights"), "gradients": N_("gradients"), "optimizer": N_("optimizer"),
                    "activations": N_("activations"), "kv_cache": N_("KV cache"), "overhead": N_("overhead")}
CONDITION_LABELS = {"new": N_("new"), "used": N_("used"), "both": N_("new or used")}


def _label(labels: dict, key: Optional[str]) -> str:
    return _(labels[key]) if key in labels else (key or "")


def vram_sizes(gb) -> np.ndarray:
    """Symbol size in pixels from VRAM: the area grows with memory (8 GB 9 px ... 96 GB 27 px)."""
    return 6.0 + 2.2 * np.sqrt(np.maximum(np.asarray(gb, dtype=float), 0.0))


class ReservedLabel(QuietLabel):
    """A wrapped label that keeps room for ``lines`` lines, so a new text rarely changes its height
    (a new height lays out the panel and repaints both plots: about 20 ms)."""

    def __init__(self, lines: int, rich: bool = False) -> None:
        self._lines = lines
        super().__init__("", wrap=True, rich=rich)

    def _fit(self) -> None:
        w = self.width()
        h = self.label.heightForWidth(w) if w > 0 else self.label.sizeHint().height()
        h = max(h, self._lines * self.fontMetrics().lineSpacing() + 4)
        if h != self._h:
            self._h = h
            self.setFixedHeight(h)
        self.label.resize(w, h)


class PriceAxis(pg.AxisItem):
    """A log-scale price axis labelled in plain amounts (1,000 / 2,000 ...), not 10^x."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        if not self.logMode:
            return super().tickStrings(values, scale, spacing)
        out = []
        for v in values:
            a = 10 ** v
            lead = int(f"{a:.0e}"[0])  # label 1, 2 and 5 x 10^k only: the minor ticks stay readable
            out.append((format_number(a, 0, ui_language()) if a >= 1 else f"{a:.2g}") if lead in (1, 2, 5) else "")
        return out


class ScatterView(pg.PlotWidget):
    """The plot; pressing on a point and moving starts a drag of that card (no panning then)."""

    pointClicked = Signal(int)  # card index in the table

    def __init__(self, panel: "AdviserPanel") -> None:
        super().__init__(axisItems={"bottom": PriceAxis("bottom")})
        self.panel = panel
        self._press: Optional[tuple[QPoint, int]] = None
        self.last_drag: Optional[QDrag] = None

    def card_at(self, view_pos: QPoint) -> Optional[int]:
        return self.panel.card_at_view(view_pos)

    def mousePressEvent(self, ev) -> None:  # noqa: N802
        if ev.button() == Qt.MouseButton.LeftButton:
            i = self.card_at(ev.position().toPoint())
            if i is not None:
                self._press = (ev.position().toPoint(), i)
                ev.accept()
                return
        self._press = None
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev) -> None:  # noqa: N802
        if self._press is not None and ev.buttons() & Qt.MouseButton.LeftButton:
            start, i = self._press
            if (ev.position().toPoint() - start).manhattanLength() >= QApplication.startDragDistance():
                self._press = None
                self.start_drag(i)
            ev.accept()
            return
        super().mouseMoveEvent(ev)

    def mouseReleaseEvent(self, ev) -> None:  # noqa: N802
        if self._press is not None:
            _start, i = self._press
            self._press = None
            self.pointClicked.emit(i)
            ev.accept()
            return
        super().mouseReleaseEvent(ev)

    def mime_for(self, i: int) -> QMimeData:
        mime = QMimeData()
        pid = self.panel.table.ids[i]
        mime.setData(PART_MIME, pid.encode("utf-8"))
        mime.setText(pid)
        return mime

    def start_drag(self, i: int) -> None:
        drag = QDrag(self)
        drag.setMimeData(self.mime_for(i))
        if self.panel.drag_pixmap is not None:
            made = self.panel.drag_pixmap(self.panel.table.gpus[i])
            if made is not None:
                drag.setPixmap(made[0])
                drag.setHotSpot(made[1])
        self.last_drag = drag
        drag.exec(Qt.DropAction.CopyAction, Qt.DropAction.CopyAction)


class AdviserPanel(QWidget):
    """Choose a workload and model size; see every card's throughput against its price."""

    cardChosen = Signal(str)  # a point clicked: its part id

    def __init__(self, index: PartIndex, settings: Optional[Settings] = None, parent=None) -> None:
        super().__init__(parent)
        self.drag_pixmap = None  # set by the window: the card drawn to the board's scale
        self.index = index
        self.settings = settings or Settings()
        self._set_table(A.CardTable.of([g for g in index.of_kind("gpu") if isinstance(g, GPU)]))
        self.fig: Optional[A.Figures] = None
        self.chosen: Optional[int] = None
        self._x = np.zeros(0)
        self._y = np.zeros(0)
        self._shown = np.zeros(0, dtype=bool)
        self._build: Optional[Build] = None
        self._hover_i: Optional[int] = None
        # controls
        self.workload_box = QComboBox()
        for wid, wl in WORKLOADS.items():
            self.workload_box.addItem(render_ui(wl.label), wid)
        self.workload_box.setToolTip(_("What the cards are judged for"))
        for box in (self.workload_box,):
            # long labels must not force a wide panel: the box shrinks and elides
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(16)
        self.size_box = QComboBox()
        for short, name in SIZE_PRESETS.items():
            self.size_box.addItem(_("{size} ({model})", size=short, model=name), short)
        self.size_box.setToolTip(_("Model size for the LLM workloads (published model shapes)"))
        self.size_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.size_box.setMinimumContentsLength(10)
        self.precision_box = QComboBox()
        self.precision_box.setToolTip(_("What the weights are stored in (and the cards compute in): the header, "
                                        "the axes and every figure say it"))
        self.software_box = QCheckBox(_("Include ROCm and oneAPI cards (their speed is not modelled)"))
        self.software_box.setToolTip(_("CUDA only by default: every measurement behind the estimates ran on "
                                       "NVIDIA cards. Included AMD and Intel cards never rank above a modelled card."))
        self.cards_box = QSpinBox()
        self.cards_box.setRange(1, 8)
        self.cards_box.valueChanged.connect(self._count_cards)
        self._count_cards(self.cards_box.value())
        self.cards_box.setToolTip(_("Judge N cards of each kind: the model may be split over them"))
        self.fits_box = QCheckBox(_("Only cards that hold the model"))
        self.fits_box.setChecked(True)
        self.fits_box.setToolTip(_("Hide the cards whose memory does not hold the workload alone or as N cards"))
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(_("Workload"), self.workload_box)
        row = QHBoxLayout()
        row.addWidget(self.size_box, 1)
        row.addWidget(self.cards_box)
        form.addRow(_("Model"), row)
        form.addRow(_("Precision"), self.precision_box)
        form.addRow("", self.fits_box)
        form.addRow("", self.software_box)
        # the scatter
        self.plot = ScatterView(self)
        pal = theme.colors()
        self.plot.setBackground(pal.background)
        self.plot.setMinimumHeight(260)
        pi = self.plot.getPlotItem()
        pi.setLogMode(x=True, y=False)
        pi.showGrid(x=True, y=True, alpha=0.2)
        pi.setMenuEnabled(False)
        pi.hideButtons()
        # One scatter per (kind of figure, cooler): a fixed handful of items whatever the catalog's size,
        # each with one pen and brush, so an update passes arrays only.
        self.items: dict[tuple[str, str], pg.ScatterPlotItem] = {}
        for kind, symbol in (("estimated", "o"), ("scaled", "d"), ("measured", "star")):
            for cooler in (*COOLER_TYPES, "other"):
                color = COOLER_COLORS.get(cooler, OTHER_COLOR)
                if kind == "estimated":
                    brush, pen = _brush(color, 60), _pen(color, 1.8)
                else:
                    brush, pen = _brush(color, 255), _pen(pal.marker, 1.2)
                self.items[(kind, cooler)] = pg.ScatterPlotItem(symbol=symbol, pxMode=True, hoverable=False,
                                                                tip=None, brush=brush, pen=pen)
        self.sel_item = pg.ScatterPlotItem(symbol="o", pxMode=True, size=30, brush=None,
                                           pen=pg.mkPen(pal.marker, width=2))
        # each estimate's band (the leave-one-out typical error), drawn behind the points
        self.band_item = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), height=np.zeros(0), beam=0.0,
                                         pen=pg.mkPen(pal.muted, width=1))
        pi.addItem(self.band_item)
        for it in (*self.items.values(), self.sel_item):
            pi.addItem(it)
        self.legend = ReservedLabel(2, rich=True)
        self.legend.setText(legend_html())
        pi.getViewBox().setDefaultPadding(0.06)  # room for the largest symbols at the edges
        self.plot.pointClicked.connect(self.choose)
        # One tooltip for the whole plot, from the same picking as clicks and drags (the points are
        # spread over 18 items, whose own hover tips would clear each other's).
        self.plot.scene().sigMouseMoved.connect(self._hover)
        # the VRAM bar
        self.bar_plot = pg.PlotWidget()
        self.bar_plot.setBackground(pal.background)
        self.bar_plot.setFixedHeight(84)
        bp = self.bar_plot.getPlotItem()
        bp.setMenuEnabled(False)
        bp.hideButtons()
        bp.setMouseEnabled(x=False, y=False)
        bp.hideAxis("left")
        bp.setLabel("bottom", _("memory per card (GB, 10\u2079 bytes)"))
        bp.getViewBox().setDefaultPadding(0.0)
        self.bar_plot.setToolTip(_("Memory per card by component; the dashed line is the card's memory.\n"
                                   "Formulas: {sources}", sources="; ".join(render_ui(x) for x in V.SOURCES)))
        self.bar_items = {c: pg.BarGraphItem(x0=[0], y=[0], height=[0.6], width=[0], brush=COMPONENT_COLORS[c],
                                             pen=pg.mkPen(pal.background)) for c in V.COMPONENTS}
        for it in self.bar_items.values():
            bp.addItem(it)
        self.card_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(pal.marker, width=2, style=Qt.PenStyle.DashLine))
        bp.addItem(self.card_line)
        self.bar_legend = ReservedLabel(1, rich=True)
        self.bar_legend.setText(" &nbsp; ".join(f"<span style='color:{COMPONENT_COLORS[c]}'>\u25a0</span>&nbsp;"
                                                f"{_esc(_label(COMPONENT_LABELS, c))}" for c in V.COMPONENTS)
                                + " &nbsp; <b>- - -</b>&nbsp;" + _esc(_("the card's memory")))
        bp.setYRange(-0.5, 1.1, padding=0)
        # Axes, titles and legends as pixmaps: a repaint for new points copies those that did not change.
        for plot in (pi, bp):
            for name in ("left", "bottom", "top", "right"):
                cache_as_pixmap(plot.getAxis(name))
        for view in (self.plot, self.bar_plot):  # pyqtgraph's own right-click entry, in the window's language
            for act in getattr(view.scene(), "contextMenu", []):
                act.setText(_("Export…"))
        theme.notifier().changed.connect(self.restyle)
        # text
        self.caption = ReservedLabel(3)
        self.detail = ReservedLabel(6)
        self.best = ReservedLabel(2, rich=True)
        self.build_line = ReservedLabel(1)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.legend)
        lay.addWidget(self.caption)
        lay.addWidget(self.bar_legend)
        lay.addWidget(self.bar_plot)
        lay.addWidget(self.detail)
        lay.addWidget(self.best)
        lay.addWidget(self.build_line)
        self.workload_box.currentIndexChanged.connect(self.update_figures)
        self.size_box.currentIndexChanged.connect(self.update_figures)
        self.cards_box.valueChanged.connect(self.update_figures)
        self.fits_box.toggled.connect(self.update_figures)
        self.software_box.toggled.connect(self.update_figures)
        self._fill_precisions()
        self.precision_box.currentIndexChanged.connect(self.update_figures)
        self.update_figures()

    # -- the owner's API ------------------------------------------------------------------
    def workload_ids(self) -> list[str]:
        return [self.workload_box.itemData(i) for i in range(self.workload_box.count())]

    def set_workload(self, wid: str, size: Optional[str] = None, n_gpus: Optional[int] = None) -> None:
        i = self.workload_box.findData(wid)
        if i < 0:
            raise ValueError(f"unknown workload {wid!r}")
        blockers = [self.workload_box.blockSignals(True), self.size_box.blockSignals(True),
                    self.cards_box.blockSignals(True)]
        try:
            self.workload_box.setCurrentIndex(i)
            self._fill_precisions()
            if size is not None:
                self.size_box.setCurrentIndex(self.size_box.findData(size))
            if n_gpus is not None:
                self.cards_box.setValue(n_gpus)
                self._count_cards(n_gpus)  # its signals are blocked here
        finally:
            self.workload_box.blockSignals(blockers[0])
            self.size_box.blockSignals(blockers[1])
            self.cards_box.blockSignals(blockers[2])
        self.update_figures()

    def set_precision(self, precision: str) -> None:
        """Choose the weights' format (one of the workload's precisions)."""
        i = self.precision_box.findData(precision)
        if i < 0:
            raise ValueError(f"precision {precision!r} is not offered for this workload")
        self.precision_box.setCurrentIndex(i)  # -> update_figures

    def _count_cards(self, n: int) -> None:
        """The card-count box's unit in the form its count takes (" 1 card", " 3 cards")."""
        self.cards_box.setSuffix(n_(" card", " cards", n))

    def _fill_precisions(self) -> None:
        """The formats the current workload takes, its own preset first."""
        wid = self.workload_box.currentData()
        wl = WORKLOADS[wid]
        keys = list(PRECISION_TABLE) if wl.kind_of.precisions == "all" else list(TRAINING_PRECISIONS)
        if wl.precision not in keys:
            keys.insert(0, wl.precision)
        keys.remove(wl.precision)
        keys.insert(0, wl.precision)
        blocked = self.precision_box.blockSignals(True)
        try:
            self.precision_box.clear()
            for k in keys:
                self.precision_box.addItem(_("{precision} ({bits:.3g} bits per weight)", precision=k,
                                             bits=8 * BYTES_PER_PARAM[k]), k)
            self.precision_box.setCurrentIndex(0)
        finally:
            self.precision_box.blockSignals(blocked)
        self.precision_box.setEnabled(bool(wl.kind_of.precisions))

    def set_filter_fits(self, on: bool) -> None:
        self.fits_box.setChecked(on)  # toggled -> update_figures (only when it changes)

    def set_index(self, index: PartIndex, settings: Optional[Settings] = None) -> None:
        """A new catalog (user parts added) or new prices/currency."""
        self.index = index
        if settings is not None:
            self.settings = settings
        self._set_table(A.CardTable.of([g for g in index.of_kind("gpu") if isinstance(g, GPU)]))
        self.chosen = None
        self.update_figures()

    def _set_table(self, table: A.CardTable) -> None:
        self.table = table
        self._sizes = vram_sizes(table.vram_gb)
        coolers = np.array(table.coolers, dtype=object)
        self._cooler_masks = {c: coolers == c for c in COOLER_TYPES}
        self._cooler_masks["other"] = ~np.isin(coolers, list(COOLER_TYPES))

    def show_build(self, build: Build, index: PartIndex) -> None:
        """The open build: its currency and price condition, and its own figures for the workload."""
        changed = ((build.settings.currency, build.settings.condition, build.settings.region)
                   != (self.settings.currency, self.settings.condition, self.settings.region))
        self.settings = build.settings
        self._build = build
        if index is not self.index:
            self.set_index(index, build.settings)
        elif changed:
            self.update_figures()
        else:
            self._show_build_line()

    # -- figures ----------------------------------------------------------------------------
    def current_workload(self):
        wid = self.workload_box.currentData()
        size = self.size_box.currentData() if wid in LLM_WORKLOADS else None
        from rigbuilder.models.workloads import MODEL_PRESETS

        prec = self.precision_box.currentData() if hasattr(self, "precision_box") else None
        if prec == WORKLOADS[wid].precision or not prec:
            prec = None
        return workload(wid, MODEL_PRESETS[SIZE_PRESETS[size]].params if size else None, precision=prec)

    def update_figures(self) -> None:
        if self.sender() is self.workload_box:
            self._fill_precisions()
        self._hover_i = None
        self.plot.setToolTip("")
        wl = self.current_workload()
        n = self.cards_box.value()
        self.size_box.setEnabled(wl.id in LLM_WORKLOADS)
        for k in range(self.workload_box.count()):  # the chosen workload's name says the precision asked for
            wid = self.workload_box.itemData(k)
            self.workload_box.setItemText(k, render_ui(wl.label if wid == wl.id else WORKLOADS[wid].label))
        t = self.table
        fig = A.figures(t, wl, n)
        self.fig = fig
        prices, _traces = t.prices(self.index, self.settings.currency, self.settings.condition, self.settings.region)
        x = prices * n
        y = np.where(fig.fits_n, fig.total, fig.rate * n)
        priced = ~np.isnan(x) & (x > 0)
        show = priced & (fig.fits_n if self.fits_box.isChecked() else True)
        if not self.software_box.isChecked():
            show = show & t.modelled
        self._x, self._y, self._shown = x, y, show
        with np.errstate(divide="ignore", invalid="ignore"):
            self._logx = np.where(priced, np.log10(np.where(priced, x, 1.0)), 0.0)
        kinds = {"measured": fig.measured, "scaled": fig.scaled, "estimated": ~fig.measured & ~fig.scaled}
        for (kind, cooler), item in self.items.items():
            self._set_points(item, show & kinds[kind] & self._cooler_masks[cooler], kind)
        yband = np.where(fig.fits_n, fig.total_band, fig.band)
        banded = np.flatnonzero(show & ~np.isnan(yband))
        self.band_item.setData(x=self._logx[banded], y=self._y[banded], height=2 * yband[banded] * self._y[banded])
        unit = wl.unit
        pi = self.plot.getPlotItem()
        cur = self.settings.currency
        cond = _label(CONDITION_LABELS, self.settings.condition)
        prec = wl.precision
        if n == 1:
            pi.setLabel("bottom", _("price of one card ({currency}, {condition}, log scale)", currency=cur,
                                    condition=cond))
            pi.setLabel("left", _("throughput of one card ({unit}, {precision})", unit=unit, precision=prec))
        else:
            pi.setLabel("bottom", _("price of {n} cards ({currency}, {condition}, log scale)", n=n, currency=cur,
                                    condition=cond))
            pi.setLabel("left", _("throughput of {n} cards ({unit}, {precision})", n=n, unit=unit, precision=prec))
        if show.any():
            pi.enableAutoRange()
        self._caption(wl, n, fig, priced, show)
        if self.chosen is None or not show[self.chosen]:
            self.chosen = self._best_index(show)
        self._show_chosen()
        self._show_best(wl, n, show)
        self._show_build_line()

    def _set_points(self, item, mask, kind: str) -> None:
        idx = np.flatnonzero(mask)
        if not len(idx) and not len(item.data):
            return  # empty before and after: nothing to redraw
        sizes = self._sizes[idx] * (1.3 if kind == "measured" else 1.0)
        item.setData(x=self._logx[idx], y=self._y[idx], size=sizes, data=idx)

    def shown(self, kind: Optional[str] = None) -> set[int]:
        """Indexes of the cards drawn (of one kind of figure: measured, scaled, estimated)."""
        return {int(d) for (k, _cooler), it in self.items.items() if kind in (None, k) for d in it.data["data"]}

    def _caption(self, wl, n, fig, priced, show) -> None:
        need = render_ui(E.of_memory(fig.need_alone).text())  # '16.2 GB ±6%' or '16.2 GB, error unknown'
        band = TP.printed_band(wl)
        if band is None:
            est = _("estimates: relative compute speed, error unknown (no diffusion measurements)")
        else:
            est = _("estimated, within {err:d}% for 80% of published cases held out of the fit (the bars)",
                    err=round(100 * band))
        hidden = int((~priced).sum())
        nfit = int(fig.fits_n.sum())
        if n > 1:
            held = _("Needs {need} on one card. {fit} of {all} cards hold it as {n} cards.", need=need,
                     fit=nfit, all=len(self.table), n=n)
        else:
            held = _("Needs {need} on one card. {fit} of {all} cards hold it.", need=need, fit=nfit,
                     all=len(self.table))
        s = [render_ui(wl.label) + ".", held, _("Circles: {how}.", how=est),
             _("Hover a point for its figures and sources; click it for its memory; drag it onto the board to "
               "place that card.")]
        if hidden:
            s.append(n_("{n} card without a price in {currency} is not plotted.",
                        "{n} cards without a price in {currency} are not plotted.", hidden,
                        currency=self.settings.currency))
        if nfit and not show.any():
            s.append(_("None of the cards that hold it has a price: the fastest are listed below."))
        sep = "" if ui_language() in ("ja", "zh_CN") else " "  # CJK sentences need no space between them
        self.caption.setText(sep.join(s))

    def _best_index(self, show) -> Optional[int]:
        """The fastest card drawn; with none drawn, the fastest that holds the model (priced or not)."""
        if self.fig is None:
            return None
        pool = show if show.any() else self.fig.fits_n
        if not pool.any():
            return None
        return int(np.argmax(np.where(pool, self._y, -np.inf)))

    def choose(self, i: int) -> None:
        """Show card ``i``'s memory breakdown and figures."""
        self.chosen = i
        self._show_chosen()
        self.cardChosen.emit(self.table.ids[i])

    def _show_chosen(self) -> None:
        fig, i = self.fig, self.chosen
        if fig is None or i is None:
            for it in self.bar_items.values():
                it.setOpts(x0=[0], width=[0])
            self.sel_item.setData([], [])
            self.card_line.setVisible(False)
            self.detail.setText(_("No card shown: change the filter or the workload."))
            return
        g = self.table.gpus[i]
        s = fig.strategy_n[i]
        need = fig.need_n[s] if s is not None else fig.need_alone
        x0 = 0.0
        for c, v in need.parts().items():
            self.bar_items[c].setOpts(x0=[x0], width=[v], y=[0], height=[0.6])
            x0 += v
        card = g.vram_gb * V.GIB_IN_GB
        self.card_line.setValue(card)
        self.card_line.setVisible(True)
        self.bar_plot.getPlotItem().setXRange(0, max(x0, card) * 1.08, padding=0)
        self.sel_item.setData([self._logx[i]] if self._shown[i] else [],
                              [self._y[i]] if self._shown[i] else [])
        self.detail.setText(self.describe(i))

    def describe(self, i: int) -> str:
        """The figures of card ``i`` and their sources (the hover text, in full)."""
        fig = self.fig
        g = self.table.gpus[i]
        wl = fig.workload
        n = fig.n_gpus
        t = TP.estimate(g, wl, self.table.ratios)
        s = fig.strategy_n[i]
        prices, traces = self.table.prices(self.index, self.settings.currency, self.settings.condition,
                                                  self.settings.region)
        lines = [_("{name}: {vram:g} GB, {cooler}, {watts:g} W", name=g.name, vram=g.vram_gb,
                   cooler=_label(COOLER_LABELS, g.cooler), watts=g.board_power_w or 0)]
        lines.append(_("one card: {figure}; {how}", figure=figure_text(t.value, t), how=render_ui(t.describe())))
        card_gb = g.vram_gb * V.GIB_IN_GB
        if s is None:
            need = render_ui(E.of_memory_total(min(nd.total for nd in fig.need_n.values()), wl).text())
            if n > 1:
                lines.append(_("does not hold the model as {n} cards (needs {need} per card; the card has "
                               "{card:.1f} GB)", n=n, need=need, card=card_gb))
            else:
                lines.append(_("does not hold the model (needs {need} per card; the card has {card:.1f} GB)",
                               need=need, card=card_gb))
        else:
            need = render_ui(E.of_memory(fig.need_n[s]).text())
            how = (_("one card holds it") if s == "replicated" and n == 1 else
                   _("{n} cards, {strategy}", n=n, strategy=_label(STRATEGY_LABELS, s)))
            lines.append(_("memory: {need} of {card:.1f} GB per card ({how})", need=need, card=card_gb, how=how))
            if n > 1 and wl.kind == "llm-inference" and s == "replicated":
                lines.append(_("{n} cards: one stream per card, {figure} each", n=n,
                               figure=figure_text(float(fig.total[i]), self._total_figure(i))))
            elif n > 1 and wl.kind == "llm-inference" and s == "tensor":
                lines.append(_("{n} cards, tensor parallel: each reads its share of every layer at once, {figure}",
                               n=n, figure=figure_text(float(fig.total[i]), self._total_figure(i))))
            elif n > 1 and wl.kind == "llm-inference":
                lines.append(_("{n} cards: one stream through them in turn, {figure}", n=n,
                               figure=figure_text(float(fig.total[i]), self._total_figure(i))))
            elif n > 1 and wl.training:  # the scaling efficiency with the scaling fit's held-out band
                lines.append(_("{n} cards: {figure} at {eff:.0%} \u00b1{band:.0%} scaling on x16 links of the card's "
                               "generation", n=n, figure=figure_text(float(fig.total[i]), self._total_figure(i)),
                               eff=float(fig.efficiency[i]), band=E.of_scaling(float(fig.efficiency[i])).band))
            elif n > 1:
                lines.append(_("{n} cards: {figure} at {eff:.0%} scaling on x16 links of the card's generation",
                               n=n, figure=figure_text(float(fig.total[i]), self._total_figure(i)),
                               eff=float(fig.efficiency[i])))
        p = prices[i]
        if math.isnan(p):
            lines.append(_("price: {why}", why=render_ui(traces[i])))
        elif n > 1:
            lines.append(_("price: {price} for {n} ({source})", price=Money(float(p) * n, self.settings.currency),
                           n=n, source=_short(render_ui(traces[i]))))
        else:
            lines.append(_("price: {price} ({source})", price=Money(float(p), self.settings.currency),
                           source=_short(render_ui(traces[i]))))
        cav = self.table.caveats[i]
        if cav:
            lines.append(_("layout {caveat}", caveat=render_ui(cav)))
        return "\n".join(lines)

    def _total_figure(self, i: int) -> "_Band":
        """Card ``i``'s figure for the chosen count as ``figure_text`` reads it: measured only when one
        measured card is the answer; else the band of the whole figure."""
        fig = self.fig
        band = float(fig.total_band[i])
        one = fig.n_gpus == 1 or fig.workload.kind == "llm-inference" and fig.strategy_n[i] == "replicated"
        return _Band(bool(fig.measured[i]) and (one or not fig.workload.training) and math.isnan(band),
                     None if math.isnan(band) else band, fig.workload.unit)

    def _hover(self, scene_pos) -> None:
        i = self.card_at_view(self.plot.mapFromScene(scene_pos))
        if i == self._hover_i and (i is None) == (not self.plot.toolTip()):
            return  # the same card (or none) as at the last move
        self._hover_i = i
        tip = self.describe(i) if i is not None else ""
        if tip != self.plot.toolTip():
            self.plot.setToolTip(tip)
            if tip:
                from PySide6.QtGui import QCursor
                from PySide6.QtWidgets import QToolTip

                QToolTip.showText(QCursor.pos(), tip, self.plot)

    def _show_best(self, wl, n, show) -> None:
        """The three fastest chips that hold the model, priced or not (a card without a price is not
        on the plot, but may be the answer)."""
        fig = self.fig
        idx = np.flatnonzero(fig.fits_n)
        if not len(idx):
            self.best.setText("")
            return
        prices, _traces = self.table.prices(self.index, self.settings.currency, self.settings.condition,
                                                  self.settings.region)
        order = idx[np.lexsort((np.nan_to_num(prices[idx], nan=np.inf), -self._y[idx]))]
        top, chips = [], set()
        for i in order:  # one card per chip: the cheapest of the fastest
            if self.table.chips[i] not in chips:
                chips.add(self.table.chips[i])
                top.append(i)
            if len(top) == 3:
                break
        rows = []
        for i in top:
            g = self.table.gpus[i]
            cav = self.table.caveats[i]
            tag = " \u2605" if fig.measured[i] else ""
            rate = figure_text(float(self._y[i]), self._total_figure(i))
            row = (_("{name}: {figure} as {n} cards", name=g.name + tag, figure=rate, n=n) if n > 1
                   else _("{name}: {figure}", name=g.name + tag, figure=rate))
            row = _esc(row)
            if not show[i]:
                row += " " + _esc(_("(no price in {currency}: not on the plot)", currency=self.settings.currency))
            if cav:
                layout = _esc(_("(layout {caveat})", caveat=render_ui(cav)))
                row += f" <span style='color:{theme.colors().warning}'>{layout}</span>"
            rows.append(row)
        title = _esc(_("Fastest that hold it:"))
        self.best.setText(f"<b>{title}</b> " + "; ".join(rows))

    def restyle(self, *_args) -> None:
        """The plots and texts in the current theme's colours."""
        _restyle_panel(self, theme.colors())

    def _show_build_line(self) -> None:
        b = self._build
        if b is None or not b.gpus:
            self.build_line.setText("")
            return
        wl = self.current_workload()
        bt = S.build_throughput(b, self.index, wl)
        if not bt.fits:
            self.build_line.setText(_("Your build ({n} GPU): does not hold the model ({need} per card "
                                      "needed even split over {n}).", n=bt.n_gpus,
                                      need=render_ui(E.of_memory(bt.need).text())))
            return
        how = (_("one card holds it") if bt.strategy == "replicated" else
               _("split over {n} ({strategy})", n=bt.n_gpus, strategy=_label(STRATEGY_LABELS, bt.strategy)))
        figure = figure_text(bt.value, bt.cards[0].throughput if len(bt.cards) == 1 else _BuildBand(bt))
        if bt.n_gpus > 1 and bt.reasons and wl.training:
            # the first reason names what limits the scaling (the slowest link, P2P or not); its band the fit's
            self.build_line.setText(_("Your build: {figure}, {how}, scaling {eff:.0%} \u00b1{band:.0%}: {why}.",
                                      figure=figure, how=how, eff=bt.efficiency,
                                      band=E.of_scaling(bt.efficiency).band, why=render_ui(bt.reasons[0])))
        elif bt.n_gpus > 1 and bt.reasons:
            self.build_line.setText(_("Your build: {figure}, {how}, scaling {eff:.0%}: {why}.", figure=figure,
                                      how=how, eff=bt.efficiency, why=render_ui(bt.reasons[0])))
        else:
            self.build_line.setText(_("Your build: {figure}, {how}.", figure=figure, how=how))

    # -- picking ------------------------------------------------------------------------------
    def card_at_view(self, view_pos: QPoint) -> Optional[int]:
        """The shown card nearest ``view_pos`` (widget pixels) within PICK_PX, else None."""
        if not self._shown.any():
            return None
        vb = self.plot.getPlotItem().getViewBox()
        scene = self.plot.mapToScene(view_pos)
        p = vb.mapSceneToView(scene)
        idx = np.flatnonzero(self._shown)
        xr, yr = vb.viewRange()
        w, h = max(vb.width(), 1.0), max(vb.height(), 1.0)
        dx = (np.log10(self._x[idx]) - p.x()) / (xr[1] - xr[0]) * w
        dy = (self._y[idx] - p.y()) / (yr[1] - yr[0]) * h
        d = np.hypot(dx, dy)
        k = int(np.argmin(d))
        return int(idx[k]) if d[k] <= PICK_PX else None

    def view_pos_of(self, i: int) -> QPoint:
        """Where card ``i`` is drawn, in the plot widget's pixels (tests drag from there)."""
        vb = self.plot.getPlotItem().getViewBox()
        scene = vb.mapViewToScene(QPointF(math.log10(self._x[i]), float(self._y[i])))
        return self.plot.mapFromScene(scene)


_BRUSHES: dict = {}
_PENS: dict = {}


def _brush(color: str, alpha: int) -> QBrush:
    k = (color, alpha)
    if k not in _BRUSHES:
        c = QColor(color)
        c.setAlpha(alpha)
        _BRUSHES[k] = QBrush(c)
    return _BRUSHES[k]


def _pen(color: str, width: float) -> QPen:
    k = (color, width)
    if k not in _PENS:
        p = QPen(QColor(color))
        p.setWidthF(width)
        p.setCosmetic(True)
        _PENS[k] = p
    return _PENS[k]


def legend_html() -> str:
    sw = " &nbsp; ".join(f"<span style='color:{COOLER_COLORS[c]}'>■</span>&nbsp;{_esc(_label(COOLER_LABELS, c))}"
                         for c in COOLER_TYPES)
    before, _sep, after = _("Colour = cooler: {coolers}.", coolers="\x00").partition("\x00")
    colour, size = _esc(before) + sw + _esc(after), _esc(_("Size = VRAM."))
    measured, scaled, estimated = _esc(_("measured")), _esc(_("scaled from a measurement")), _esc(_("estimated (open)"))
    return (f"<span style='color:{theme.colors().muted}'>{colour} &nbsp; {size} &nbsp; ★&nbsp;{measured} &nbsp; "
            f"◆&nbsp;{scaled} &nbsp; ○&nbsp;{estimated}</span>")


def _restyle_panel(panel, pal) -> None:
    panel.plot.setBackground(pal.background)
    panel.bar_plot.setBackground(pal.background)
    for (kind, _cooler), it in panel.items.items():
        if kind != "estimated":
            it.setPen(_pen(pal.marker, 1.2))
    panel.sel_item.setPen(pg.mkPen(pal.marker, width=2))
    panel.band_item.setData(pen=pg.mkPen(pal.muted, width=1))
    panel.card_line.setPen(pg.mkPen(pal.marker, width=2, style=Qt.PenStyle.DashLine))
    for it in panel.bar_items.values():
        it.setOpts(pen=pg.mkPen(pal.background))
    panel.legend.setText(legend_html())


class _Band:
    def __init__(self, measured: bool, typical_error, unit: str) -> None:
        self.measured, self.typical_error, self.unit = measured, typical_error, unit


class _BuildBand:
    """A build's figure as ``figure_text`` reads it: measured when every card is, else its widest band."""

    def __init__(self, bt) -> None:
        self.measured = bt.measured
        self.typical_error = bt.typical_error
        self.unit = bt.unit


def figure_text(value: float, t) -> str:
    """'31 tokens/s, typically within 12%' (the band beside the figure), 'measured' or 'error unknown'."""
    if t.measured:
        return _("{rate} {unit}, measured", rate=_num(value), unit=t.unit)
    if t.typical_error is None:
        return _("{rate} {unit}, error unknown", rate=_num(value), unit=t.unit)
    return _("{rate} {unit}, typically within {err:d}%", rate=_num(value), unit=t.unit,
             err=round(100 * t.typical_error))


def _short(text: str, n: int = 150) -> str:
    """A price's source for a line of the details: without web addresses (the Prices tab and the
    report carry them), cut at ``n`` characters (a quotation cut short is closed)."""
    text = re.sub(r",?\s*https?://[^\s)]+", "", text)
    return text if len(text) <= n else close_quotation(text[: n - 1].rstrip() + "…")


def _num(v: float) -> str:
    """A throughput as shown: whole numbers from 100, one decimal from 10, else two (the locale's digits)."""
    return format_number(v, 0 if v >= 100 else 1 if v >= 10 else 2, ui_language())


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
