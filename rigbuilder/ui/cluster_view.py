"""The cluster view: the machines of a ``.rigcluster`` plan with their key figures, the network
drawn between them, the findings for the whole cluster and the scaling over 1..N machines.
Double-clicking a machine (in the table or the drawing) opens its build in the board view.

Nothing is decided here: the figures come from ``rigbuilder.rules.cluster`` (checks, purchase,
power, energy) and ``rigbuilder.models.cluster_scaling`` (paths, scaling)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (QAbstractItemView, QGraphicsScene, QGraphicsView, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QMainWindow, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from rigbuilder.domain.cluster import ClusterPlan
from rigbuilder.domain.findings import Severity
from rigbuilder.files.clusterfile import build_path
from rigbuilder.rules.cluster import ClusterContext, check_cluster, cluster_figures
from rigbuilder.ui.i18n import N_, _, n_, nT, render_ui

COLUMNS = (N_("Machine"), N_("GPUs"), N_("VRAM (GB)"), N_("RAM (GB)"), N_("RAM per VRAM"), N_("Cores"),
           N_("Network card"),
           N_("To the network (GB/s)"), N_("GPUDirect RDMA"), N_("Wall at peak (W)"))
LINK_NAMES = {"ethernet": "Ethernet", "roce": "RoCE", "infiniband": "InfiniBand"}  # names, the same in every language
SEVERITY_MARK = {Severity.ERROR: "\u2716", Severity.WARNING: "\u26a0", Severity.INFO: "\u2139"}


class NetworkScene(QGraphicsScene):
    """Machines as boxes, a switch above them (or cables between them), each link labelled."""

    BOX_W, BOX_H, GAP = 170.0, 74.0, 36.0

    def __init__(self, cc: ClusterContext, on_open: Callable[[int], None]) -> None:
        super().__init__()
        self.cc = cc
        self.on_open = on_open
        self.boxes: list[QRectF] = []
        self.draw()

    def draw(self) -> None:
        self.clear()
        self.boxes = []
        pal = QPen(QColor("#4a5568"), 1.5)
        n = len(self.cc.machines)
        width = n * self.BOX_W + (n - 1) * self.GAP
        y = 140.0
        font = QFont()
        font.setPointSize(9)
        direct = self.cc.plan.network.topology == "direct"
        if not direct:
            sw = QRectF(width / 2 - 80, 10, 160, 40)
            self.addRect(sw, pal, QBrush(QColor("#e2e8f0")))
            t = self.addText(_("Switch ({kind})", kind=LINK_NAMES.get(self.cc.plan.network.kind, "")), font)
            t.setDefaultTextColor(QColor("#1a202c"))
            t.setPos(sw.center().x() - t.boundingRect().width() / 2, sw.top() + 8)
        texts = []
        for m in self.cc.machines:  # the whole name, wrapped to the box's width: never cut
            t = self.addText(node_text(m), font)
            t.setTextWidth(self.BOX_W - 12)
            t.setDefaultTextColor(QColor("#1a202c"))
            t.setZValue(1)
            texts.append(t)
        box_h = max([self.BOX_H] + [t.boundingRect().height() + 12 for t in texts])
        for i, m in enumerate(self.cc.machines):
            x = i * (self.BOX_W + self.GAP)
            box = QRectF(x, y, self.BOX_W, box_h)
            self.boxes.append(box)
            colour = QColor("#c6f6d5") if m.net.rdma else QColor("#fefcbf")
            if not m.net.nics:
                colour = QColor("#fed7d7")
            self.addRect(box, pal, QBrush(colour))
            texts[i].setPos(x + 6, y + 6)
            link = _("{gbs:.2f} GB/s", gbs=m.net.path_gbs)
            speeds = [x_.port_gbps for x_ in m.net.nics if x_.nic is not None]
            label = (_("{speed:g} Gbit/s", speed=min(speeds)) if speeds else _("no card")) + " \u00b7 " + link
            pen = QPen(QColor("#2f855a") if m.net.rdma else QColor("#b7791f"), 2.5 if m.net.rdma else 1.5)
            if not m.net.rdma:
                pen.setStyle(Qt.PenStyle.DashLine)
            if not direct and m.net.nics:
                a, b = QPointF(box.center().x(), box.top()), QPointF(width / 2, 50)
                self.addLine(a.x(), a.y(), b.x(), b.y(), pen)
                lt = self.addText(label, font)
                lt.setDefaultTextColor(QColor("#2d3748"))
                lt.setPos(box.center().x() - lt.boundingRect().width() / 2, box.top() - 24)
            elif direct and i > 0 and m.net.nics:
                prev = self.boxes[i - 1]
                self.addLine(prev.right(), prev.center().y(), box.left(), box.center().y(), pen)
                lt = self.addText(label, font)
                lt.setDefaultTextColor(QColor("#2d3748"))
                lt.setPos(prev.right() - 30, prev.center().y() + 6)
        legend = self.addText(_("solid green: GPUDirect RDMA; dashed: through the CPU"), font)
        legend.setDefaultTextColor(QColor("#4a5568"))
        legend.setPos(0, y + box_h + 10)
        self.setSceneRect(self.itemsBoundingRect())  # shrinks with the plan (a scene's own rect only grows)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        for i, box in enumerate(self.boxes):
            if box.contains(event.scenePos()):
                self.on_open(i)
                return
        super().mouseDoubleClickEvent(event)


def node_text(m) -> str:
    """A machine's box: its label, then its cards by model ('4\u00d7 ASUS Turbo GeForce RTX 3090 24GB')."""
    counts: dict[str, int] = {}
    for g in m.ctx.gpus:
        counts[g.gpu.name] = counts.get(g.gpu.name, 0) + 1
    cards = "\n".join(f"{n}\u00d7 {name}" for name, n in counts.items()) or _("no GPU")
    return f"{m.label}\n{cards}"


class FittedView(QGraphicsView):
    """Shows the whole drawing at any size (never larger than life)."""

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.fit()

    def fit(self) -> None:
        rect = self.scene().itemsBoundingRect().adjusted(-10, -10, 10, 10)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.transform().m11() > 1.0:
            self.resetTransform()


class ClusterView(QMainWindow):
    """One cluster plan. ``open_build(path)`` opens a machine's build in the board view."""

    def __init__(self, plan: ClusterPlan, cc: ClusterContext, plan_path: Optional[Path],
                 open_build: Callable[[str], object], years: float = 3.0, parent=None,
                 lab: Optional["LabFigures"] = None) -> None:
        super().__init__(parent)
        self.plan, self.cc, self.plan_path, self.open_build = plan, cc, plan_path, open_build
        self.lab = lab or LabFigures()
        self.years = years
        self.headline = QLabel()
        self.headline.setObjectName("cluster_headline")
        self.headline.setWordWrap(True)
        f = self.headline.font()
        f.setPointSize(f.pointSize() + 2)
        f.setBold(True)
        self.headline.setFont(f)
        self.summary = QLabel()
        self.summary.setObjectName("cluster_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scene = NetworkScene(cc, self.open_machine)
        self.view = FittedView(self.scene)
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.view.setMinimumHeight(250)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("cluster_machines")
        self.table.setHorizontalHeaderLabels([_(c) for c in COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.cellDoubleClicked.connect(lambda row, _col: self.open_machine(row))
        self.findings = QListWidget()
        self.findings.setObjectName("cluster_findings")
        self.findings.setWordWrap(True)
        self.plot = self._scaling_plot()
        top = QWidget()
        tl = QVBoxLayout(top)
        tl.addWidget(self.headline)
        tl.addWidget(self.summary)
        row = QSplitter(Qt.Orientation.Horizontal)
        row.addWidget(self.view)
        row.addWidget(self.plot)
        row.setSizes([760, 380])
        tl.addWidget(row, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.table)
        split.addWidget(self.findings)
        split.setSizes([420, 180, 200])
        self.results = split
        self.setCentralWidget(split)
        self.resize(1200, 860)
        self.show_plan(plan, cc)

    def show_plan(self, plan: ClusterPlan, cc: ClusterContext) -> None:
        """Show ``plan`` (checked as ``cc``): every figure, the drawing, the table and the findings."""
        from rigbuilder.rules.cluster import machine_findings

        self.plan, self.cc = plan, cc
        self.setWindowTitle(_("Cluster: {name}", name=plan.name or (self.plan_path.stem if self.plan_path else "")))
        figures = cluster_figures(cc, self.years, self.lab.owned) if cc.machines else None
        self.headline.setText(render_ui(cc.scaling.headline()) if cc.machines else
                              _("No machine yet: add the open build, a build file or an optimiser answer."))
        self.summary.setText(self._summary(figures) if figures else "")
        self.scene.cc = cc
        self.scene.draw()
        self.view.fit()
        self.table.setRowCount(len(cc.machines))
        self._fill_table()
        self.findings.clear()
        for fd in (check_cluster(cc) if cc.machines else []):
            self.findings.addItem(self._finding_item(fd))
        for label, fs in (machine_findings(cc) if cc.machines else []):
            for fd in fs:
                if fd.severity is not Severity.INFO:
                    self.findings.addItem(self._finding_item(fd, label))
        if cc.machines and not self.findings.count():
            self.findings.addItem(_("No findings across the machines."))
        self._plot_points()

    @staticmethod
    def _finding_item(fd, machine: str = "") -> QListWidgetItem:
        """The finding and, on the line below, its fix (what the command line prints after '->')."""
        text = f"{SEVERITY_MARK[fd.severity]} " + (_("{machine} on its own: ", machine=machine) if machine else "") \
            + render_ui(fd.message)
        if fd.fix:
            text += "\n    \u2192 " + render_ui(fd.fix)
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, fd.code)
        item.setToolTip(fd.code)
        return item

    def _scaling_plot(self):
        """Speed-up over one machine against the number of machines, with the ideal line."""
        import pyqtgraph as pg

        from rigbuilder.ui import theme

        pal = theme.colors()
        w = pg.PlotWidget()
        w.setObjectName("cluster_scaling_plot")
        w.setBackground(pal.background)
        for act in w.scene().contextMenu:  # pyqtgraph's own "Export..."
            act.setText(_("Export…"))
        w.setMinimumWidth(300)
        w.setLabel("bottom", _("Machines"))
        w.setLabel("left", _("Speed-up over one machine"))
        w.showGrid(x=True, y=True, alpha=0.3)
        self.ideal_curve = w.plot([], [], pen=pg.mkPen(pal.muted, style=Qt.PenStyle.DashLine))  # N machines, N times
        self.speedup_curve = w.plot([], [], pen=pg.mkPen("#2f855a", width=2), symbol="o", symbolSize=7)
        return w

    def _plot_points(self) -> None:
        import pyqtgraph as pg

        pts = self.cc.scaling.points if self.cc.machines else []
        xs = [p.machines for p in pts]
        self.ideal_curve.setData(xs, xs)
        self.speedup_curve.setData(xs, [p.speedup for p in pts])
        self.speedup_curve.setPen(pg.mkPen("#2f855a" if pts and self.cc.scaling.rdma else "#b7791f", width=2))
        self.plot.getAxis("bottom").setTicks([[(x, str(x)) for x in xs]])

    def _summary(self, d: dict) -> str:
        sc = self.cc.scaling
        pts = ", ".join(_("{m}: {x:.2f}x", m=p.machines, x=p.speedup) for p in sc.points)
        buy = d["purchase"]
        total = _("{amount:,.0f} {currency}", amount=buy["total"], currency=buy["currency"])
        if buy["unpriced"]:
            total = n_("at least {total} ({n} item without a price)", "at least {total} ({n} items without a price)",
                       len(buy["unpriced"]), total=total)
        lines = [
            _("{workload}. Speed-up by machines: {points}.", workload=render_ui(self.cc.workload.label),
              points=pts or "-"),
            _("Power at peak: {peak:,.0f} W on {circuits}. Purchase: {total}. Energy: "
              "{kwh:,.0f} kWh a year ({cost:,.0f} {currency}); cost of ownership over {years:g} years: {tco:,.0f} "
              "{currency}.", peak=d["power"]["wall_peak_w"],
              circuits=nT("{n} circuit of {cw:,.0f} W", "{n} circuits of {cw:,.0f} W", d["power"]["circuits"],
                          cw=d["power"]["circuit_w"]), total=total, kwh=d["energy"]["kwh_per_year"],
              cost=d["energy"]["cost_per_year"], currency=buy["currency"], years=d["tco"]["years"],
              tco=d["tco"]["total"]),
        ]
        circuits = max(1, d["power"]["circuits"])
        per = d["power"]["wall_peak_w"] / circuits
        lines.append(_("Per circuit: {w:,.0f} W of {cw:,.0f} W ({share:.0%}).", w=per, cw=d["power"]["circuit_w"],
                       share=per / d["power"]["circuit_w"] if d["power"]["circuit_w"] else 0))
        slow = min((m for m in self.cc.kinds if m.net.path_gbs > 0), key=lambda m: m.net.path_gbs, default=None)
        if slow is not None and slow.net.intra_gbs > 0:
            lines.append(_("Network bottleneck: {path:.2f} GB/s between machines against {intra:.2f} GB/s inside one "
                           "({ratio:.1f}x slower).", path=slow.net.path_gbs, intra=slow.net.intra_gbs,
                           ratio=slow.net.intra_gbs / slow.net.path_gbs))
        if buy.get("owned_used"):
            lines.append(_("From the lab's stock, at no cost: {parts}.", parts=", ".join(
                f"{n}\u00d7 {self._name(pid)}" for pid, n in buy["owned_used"].items())))
        if self.lab.note:
            lines.append(self.lab.note)
        other = self._one_machine(d)
        if other:
            last = sc.points[-1].throughput if sc.points else 0.0
            lines.append(_("One bigger machine ({build}): {value:,.1f} {unit} against the cluster's {cluster:,.1f}; "
                           "purchase {buy:,.0f} {currency}, cost of ownership {tco:,.0f} {currency}.",
                           build=other["build"], value=other["throughput"], unit=other["unit"], cluster=last,
                           buy=other["purchase"], currency=other["currency"], tco=other["tco"]))
        return "\n".join(lines)

    def _name(self, part_id: str) -> str:
        part = self.cc.index.get(part_id)
        return part.name if part is not None else part_id

    def _one_machine(self, d: dict) -> Optional[dict]:
        """The plan's ``compare_with`` machine, or None (none named, or it cannot be read: said in the summary)."""
        from rigbuilder.files import buildfile
        from rigbuilder.rules.cluster import one_machine_figures

        if not self.plan.compare_with:
            return None
        try:
            b = buildfile.load(build_path(self.plan_path, self.plan.compare_with))
        except buildfile.BuildFileError:
            return None
        return one_machine_figures(self.cc, b, d["tco"]["years"], d["purchase"]["currency"])

    def _fill_table(self) -> None:
        for row, m in enumerate(self.cc.machines):
            vram = sum(g.gpu.vram_gb for g in m.ctx.gpus)
            ram = sum(k.total_gb * n for k, n in m.ctx.memory)
            cards = ", ".join(x.nic.name if x.nic else x.placement.part_id for x in m.net.nics) or _("none")
            cells = (m.label, str(len(m.ctx.gpus)), f"{vram:g}", f"{ram:g}",
                     _("{x:.1f}\u00d7", x=ram / vram) if vram else "-", str(m.ctx.cpu.cores) if m.ctx.cpu else "?", cards, f"{m.net.path_gbs:.2f}",
                     _("yes") if m.net.rdma else _("no, through the CPU"), f"{m.ctx.power.wall['peak']:.0f}")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 8 and not m.net.rdma:
                    item.setToolTip("\n".join(render_ui(w) for w in m.net.rdma_why))
                if col == 4:
                    item.setToolTip(_("About twice the VRAM in RAM lets you work freely with big nets (Tim Dettmers, "
                                      "2014)"))
                self.table.setItem(row, col, item)

    def open_machine(self, row: int) -> None:
        if 0 <= row < len(self.cc.machines) == self.plan.machine_count:
            machine = self.plan.expanded()[row][0]  # the context lists the machines in the plan's order
            self.open_build(str(build_path(self.plan_path, machine.build)))


@dataclass(frozen=True)
class LabFigures:
    """What the lab database adds to a cluster plan: its stock (parts at no cost) and its prices."""

    owned: Optional[dict] = None
    prices: tuple = ()
    note: str = ""  # where the figures come from, or why the lab database could not be used


def lab_figures(url: str, passfile: str) -> LabFigures:
    """The lab database's stock and prices for a plan, or a note saying why there are none."""
    from rigbuilder.catalog.labdb import LabDb, LabDbError

    if not url:
        return LabFigures()
    try:
        db = LabDb.open(url, passfile=Path(passfile).expanduser() if passfile else None)
    except LabDbError as e:
        return LabFigures(note=_("Lab database not used: {why}", why=render_ui(e.args[0] if e.args else str(e))))
    try:
        owned, prices = db.owned_counts(), tuple(db.price_observations())
    except LabDbError as e:
        return LabFigures(note=_("Lab database not used: {why}", why=render_ui(e.args[0] if e.args else str(e))))
    finally:
        db.close()
    return LabFigures(owned, prices, _("With the lab database {db}: its prices, and its stock at no cost.",
                                       db=db.url.display))


def open_cluster(path: Path, index, lab: Optional[LabFigures] = None) -> tuple[ClusterPlan, ClusterContext]:
    """Read a plan and its machines' builds (BuildFileError names what and where). The lab's prices,
    if any, join a copy of the index's price book (the window's own index is left as it is)."""
    import copy

    from rigbuilder.files import clusterfile

    plan = clusterfile.load(path)
    machines = clusterfile.load_machines(plan, path)
    if lab is not None and lab.prices:
        index = copy.copy(index)
        index.prices = index.prices.with_observations(lab.prices)
    return plan, ClusterContext(plan, [(lm.label, lm.build, lm.machine.nics, lm.machine.name) for lm in machines], index)
