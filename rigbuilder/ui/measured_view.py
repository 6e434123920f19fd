"""The Measured tab beside the power and cost graphs, and Tools > Import Power Log… and Tools >
Measure This Machine (issue 42, docs/telemetry.md).

``MeasuredView`` draws the planned watts of each GPU and of the machine's GPUs together beside
the measured ones, at load and at idle, with the difference in per cent (pyqtgraph plots, made
when the first log is shown). ``MeasuredActions`` is given what it needs: the document, the catalog (the
user's data), the dialogs, the preferences and a status callback. Decisions (parsing, matching,
calibration) live in ``rigbuilder.files`` and ``rigbuilder.domain``; this module only asks and shows.
"""
from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any, Callable, Optional

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QLabel,
                               QProgressDialog, QVBoxLayout, QWidget)

from rigbuilder.ui import theme
from rigbuilder.ui.i18n import _, n_, render_ui, ui_language

PLANNED, MEASURED = "#8aa4bf", "#d9822b"
BACKGROUND_BYTES = 2 * 1024 * 1024
"""A log larger than this is read on a worker thread behind a progress dialog with Cancel."""
BAR = 0.36


def _pct(v: Optional[float]) -> str:
    from rigbuilder.domain.i18n import format_value

    return "" if v is None else ("+" if v > 0 else "") + format_value(v / 100, ".0%", ui_language())


class MeasuredView(QWidget):
    """Planned against measured, per GPU and for the machine; a line when no log was imported."""

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setObjectName("measured-view")
        self.head = QLabel()
        self.head.setWordWrap(True)
        self.head.setTextFormat(Qt.TextFormat.PlainText)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        self.charts: dict[str, Any] = {}  # pyqtgraph views, by "load" and "idle"
        self._groups = -1
        self.lay = QVBoxLayout(self)
        self.lay.addWidget(self.head)
        self.lay.addWidget(self.notes)  # the charts go between the two
        self.lay.addStretch(1)
        self.data: Optional[dict] = None
        self.show_log(None, [])

    def _make_charts(self, labels: list[str]) -> None:
        """Two charts (load, idle) with a group of two bars for each of ``labels``; made again only
        when the number of GPUs changes (else the bars are updated with ``setData``)."""
        import pyqtgraph as pg

        for c in self.charts.values():
            self.lay.removeWidget(c)
            c.deleteLater()
        self.charts, self.plots, self.bars, self.texts = {}, {}, {}, {}
        pal = theme.colors()
        n = len(labels)
        for i, (key, title) in enumerate((("load", _("Under load")), ("idle", _("Idle")))):
            c = pg.GraphicsLayoutWidget()
            c.setBackground(pal.background)
            c.setMinimumHeight(220)
            p = c.addPlot(row=0, col=0)
            p.setMenuEnabled(False)
            p.hideButtons()
            p.setMouseEnabled(x=False, y=False)
            p.setTitle(title, color=pal.grid_text, size="9pt")
            for name, text in (("left", _("Power (W)")), ("bottom", "")):
                ax = p.getAxis(name)
                ax.setPen(pg.mkPen(pal.axis))
                ax.setTextPen(pg.mkPen(pal.grid_text))
                ax.setLabel(text, color=pal.grid_text)
            p.getAxis("bottom").setTicks([[(float(k), lab) for k, lab in enumerate(labels)]])
            p.setXRange(-0.6, n - 0.4, padding=0)
            edge = pg.mkPen(pal.background, width=0.5)
            planned = pg.BarGraphItem(x=[k - BAR / 2 for k in range(n)], height=[0.0] * n, width=BAR, brush=PLANNED,
                                      pen=edge)
            measured = pg.BarGraphItem(x=[k + BAR / 2 for k in range(n)], height=[0.0] * n, width=BAR, brush=MEASURED,
                                       pen=edge)
            p.addItem(planned)
            p.addItem(measured)
            legend = pg.LegendItem(labelTextColor=pal.grid_text, labelTextSize="8pt", verSpacing=-6)
            legend.setColumnCount(2)
            c.addItem(legend, row=1, col=0)
            legend.addItem(planned, _("Planned"))
            legend.addItem(measured, _("Measured"))
            self.bars[key] = (planned, measured)
            self.texts[key] = []
            for _k in range(n):
                t = pg.TextItem("", color=pal.label_text, anchor=(0.5, 1.0))
                t.setZValue(10)
                p.addItem(t, ignoreBounds=True)
                self.texts[key].append(t)
            self.charts[key], self.plots[key] = c, p
            self.lay.insertWidget(1 + i, c)
        self._groups = n

    def show_log(self, d: Optional[dict], calibration: list[str]) -> None:
        """``d``: the build's latest log (``rigbuilder.files.measured.log_json``) or None;
        ``calibration``: a line for each figure of the plan the user's measurements changed."""
        from rigbuilder.files.measured import log_notes

        self.data = d
        cal = "\n".join(calibration)
        if d is None:
            for c in self.charts.values():
                c.hide()
            self.head.setText(_("No power log imported for this build yet. Record one on the built machine "
                                "(Tools > Measure This Machine, or nvidia-smi) and read it with Tools > Import Power Log…"))
            self.notes.setText(cal)
            return
        rows = d["cards"] + [dict(d["machine"], gpu=None)]
        labels = [_("GPU {num}", num=c["gpu"]) if c["gpu"] is not None else _("All GPUs") for c in rows]
        if self._groups != len(rows):
            self._make_charts(labels)
        for key in ("load", "idle"):
            planned, measured = self.bars[key]
            p = [r[f"planned_{key}_w"] or 0.0 for r in rows]
            m = [r[f"{key}_w"] or 0.0 for r in rows]
            planned.setOpts(height=p)
            measured.setOpts(height=m)
            top = max(p + m + [1.0])
            self.plots[key].setYRange(0, top * 1.18, padding=0)
            for k, (r, box) in enumerate(zip(rows, self.texts[key])):
                diff = r[f"{key}_diff_pct"]
                box.setText(_pct(diff) if diff is not None else _("not measured"))
                box.setPos(k, max(p[k], m[k]) + top * 0.02)
            planned.setToolTip(_("Planned: what rigbuilder's power model gives for each card (without calibration)"))
            measured.setToolTip(_("Measured: the mean draw over the log's loaded stretches, the median over its idle ones"))
            self.charts[key].show()
        when = d["started"][:16].replace("T", " ") if d["started"] else d["date"]
        self.head.setText(n_("{source} ({kind}), {when}: {n} GPU, {samples} readings",
                             "{source} ({kind}), {when}: {n} GPUs, {samples} readings", len(d["cards"]),
                             source=d["source"], kind=d["kind"], when=when, n=len(d["cards"]),
                             samples=sum(c["samples"] for c in d["cards"])))
        lines = []
        for c in d["cards"]:
            bits = [_("GPU {num}: {name}", num=c["gpu"], name=c["name"])]
            if c["limit_w"] is not None:
                bits.append(_("limit in force {limit:.0f} W", limit=c["limit_w"]))
            if c["throttle_reasons"]:
                bits.append(_("throttle: {reasons}", reasons=", ".join(c["throttle_reasons"])))
            if c["energy_wh"] is not None:
                bits.append(_("{energy:.2f} Wh over {seconds:.0f} s", energy=c["energy_wh"], seconds=c["duration_s"] or 0))
            lines.append("; ".join(bits))
        lines += [render_ui(n) for n in log_notes(d)]
        if cal:
            lines.append(cal)
        self.notes.setText("\n".join(lines))


class CardMapDialog(QDialog):
    """Which card of the log is which GPU of the build (asked where the log cannot tell)."""

    def __init__(self, parent, gpus: list[tuple[int, str]], cards: list[tuple[int, str]], why: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Which card is which GPU?"))
        text = QLabel(why)
        text.setWordWrap(True)
        form = QFormLayout()
        self.combos: dict[int, QComboBox] = {}
        for k, (num, label) in enumerate(gpus):
            cb = QComboBox()
            for idx, name in cards:
                cb.addItem(_("log card {index}: {name}", index=idx, name=name or _("unnamed")), idx)
            cb.setCurrentIndex(min(k, cb.count() - 1))
            form.addRow(_("GPU {num} ({name})", num=num, name=label), cb)
            self.combos[num] = cb
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(text)
        lay.addLayout(form)
        lay.addWidget(buttons)

    def mapping(self) -> dict[int, int]:
        return {num: int(cb.currentData()) for num, cb in self.combos.items()}


class MeasuredActions:
    """Tools > Import Power Log…, Tools > Measure This Machine and the calibration switch."""

    def __init__(self, doc, catalog, dialogs, prefs, view: MeasuredView, parent: QWidget, *,
                 status: Callable[[str], Any], ask_map: Optional[Callable] = None,
                 log_path: Optional[Callable[[], Optional[str]]] = None, nvml: Any = None) -> None:
        self.doc, self.catalog, self.dialogs, self.prefs, self.view, self.parent = doc, catalog, dialogs, prefs, view, parent
        self.status = status
        self.ask_map = ask_map or self._ask_map
        self.log_path = log_path or self._log_path
        self.nvml = nvml  # a fake NVML module in tests; None: pynvml, if installed
        self.recorder = None
        doc.changed.connect(self.refresh)
        doc.pathChanged.connect(self.refresh)

    # -- showing ---------------------------------------------------------------------------
    def latest(self) -> Optional[dict]:
        """The open build's latest imported log (``log_json``), None when it has none."""
        from rigbuilder.catalog.measurements import build_key, read_logs
        from rigbuilder.files.measured import log_json

        if self.doc.path is None:
            return None
        logs = read_logs(getattr(self.catalog, "user_path", None), build_key(self.doc.path))
        return log_json(logs[-1], {g.id: g.name for g in self.doc.index.of_kind("gpu")}) if logs else None

    def refresh(self) -> None:
        d = self.latest()
        cal = [f"{render_ui(c.label)}: {render_ui(c.calibration.note())}"
               for c in self.doc.context.power.components if c.calibration is not None]
        if not getattr(self.catalog, "calibrate", True):
            cal.append(_("Calibration is off (Preferences): plans use the model's figures."))
        self.view.show_log(d, cal)

    def apply_preference(self) -> None:
        """The Preferences switch: calibration on or off, and the plan judged again."""
        on = bool(self.prefs.get("power/calibration"))
        if self.catalog is not None and on != self.catalog.calibrate:
            self.catalog.apply_calibration(on)
            self.doc.recheck()

    # -- importing -------------------------------------------------------------------------
    def _log_path(self) -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(
            self.parent, _("Import Power Log"), "", _("Power logs (*.csv *.txt *.log *.prom)") + ";;" + _("All files (*)"))
        return path or None

    def _ask_map(self, gpus, cards, why) -> Optional[dict]:
        dlg = CardMapDialog(self.parent, gpus, cards, why)
        return dlg.mapping() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def import_power_log(self, path: Optional[str] = None) -> bool:
        if self.doc.path is None or self.catalog is None:
            self.dialogs.error(_("Import Power Log"), _("Save the build first: a power log is kept with the build "
                                                        "file it was measured against."))
            return False
        path = path or self.log_path()
        if not path:
            return False
        return self._import(path)

    def _in_background(self, fn: Callable[[], Any], label: str) -> tuple[bool, Any]:
        """(done, what ``fn`` returned or raised): ``fn`` runs on a worker thread behind a busy
        progress dialog with Cancel when the log is large (a 20 MB log takes seconds), else at once."""
        from concurrent.futures import ThreadPoolExecutor

        from PySide6.QtCore import QEventLoop

        pool = ThreadPoolExecutor(1, thread_name_prefix="power-log")
        fut = pool.submit(fn)
        prog = QProgressDialog(label, _("Cancel"), 0, 0, self.parent)
        prog.setWindowTitle(_("Import Power Log"))
        prog.setMinimumDuration(300)
        prog.setWindowModality(Qt.WindowModality.WindowModal)  # no edit of the build meanwhile
        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(30)
        timer.timeout.connect(lambda: loop.quit() if fut.done() or prog.wasCanceled() else None)
        timer.start()
        if not fut.done():
            loop.exec()
        timer.stop()
        cancelled = prog.wasCanceled() and not fut.done()
        prog.reset()
        prog.deleteLater()
        pool.shutdown(wait=False)  # a cancelled reading finishes on its own; its result is dropped
        if cancelled:
            return False, None
        try:
            return True, fut.result()
        except Exception as e:  # noqa: BLE001 - handed back to the caller, which knows the kinds
            return True, e

    def _import(self, path: str, mapping: Optional[dict] = None) -> bool:
        from rigbuilder.catalog.userdb import UserDatabaseError
        from rigbuilder.files.measured import MatchError, keep, read_and_compare
        from rigbuilder.files.telemetry import TelemetryError, read_log

        build, index = self.doc.build, self.doc.index
        if Path(path).is_file() and Path(path).stat().st_size > BACKGROUND_BYTES:
            done, got = self._in_background(lambda: read_and_compare(index, build, Path(path), mapping),
                                            _("Reading {name}…", name=Path(path).name))
            if not done:
                self.status(_("Import cancelled; nothing was kept"))
                return False
        else:
            try:
                got = read_and_compare(index, build, Path(path), mapping)
            except Exception as e:  # noqa: BLE001 - sorted below, as the background path's are
                got = e
        try:
            if isinstance(got, BaseException):
                raise got
            cmp = got
            keep(self.catalog, build, self.doc.path, cmp)
        except MatchError as e:
            if not e.ambiguous or mapping is not None:
                self.dialogs.error(_("Import Power Log"), render_ui(e.args[0]))
                return False
            try:
                log = read_log(Path(path), len(self.doc.context.gpus) or None)
            except TelemetryError as e2:
                self.dialogs.error(_("Import Power Log"), render_ui(e2.args[0]))
                return False
            got = self.ask_map([(g.num, g.gpu.name) for g in self.doc.context.gpus],
                               [(c.index, c.name) for c in log.cards], render_ui(e.args[0]))
            return self._import(path, got) if got else False
        except (TelemetryError, UserDatabaseError) as e:
            self.dialogs.error(_("Import Power Log"), render_ui(e.args[0] if e.args else str(e)))
            return False
        self.doc.recheck()  # the calibration may have changed the plan
        self.status(_("Power log {name} compared with the plan and kept", name=Path(path).name))
        for n in cmp.log.notes:
            self.status(render_ui(n))
        return True

    # -- measuring -------------------------------------------------------------------------
    def measure_this_machine(self, seconds: int = 0) -> Optional[QProgressDialog]:
        from rigbuilder.config import Paths
        from rigbuilder.files.live import INTERVAL_MS, SECONDS, LiveRecorder, NoNvml, load_nvml

        try:
            nvml = load_nvml(self.nvml)
        except NoNvml as e:
            self.dialogs.info(_("Measure This Machine"), render_ui(e.args[0]))
            return None
        seconds = seconds or SECONDS
        folder = Paths.from_env().data_dir / "power-logs"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            out = folder / f"power-{_dt.datetime.now():%Y%m%d-%H%M%S}.csv"
            self.recorder = rec = LiveRecorder(nvml, out)
        except OSError as e:
            self.dialogs.error(_("Measure This Machine"), _("Cannot write {path}: {error}", path=str(folder),
                                                             error=e.strerror or str(e)))
            return None
        total = seconds * 1000 // INTERVAL_MS
        prog = QProgressDialog(_("Reading the GPUs' power for {n} s: run your training job now", n=seconds),
                               _("Cancel"), 0, total, self.parent)
        prog.setWindowTitle(_("Measure This Machine"))
        prog.setMinimumDuration(0)
        timer = QTimer(prog)
        timer.setInterval(INTERVAL_MS)

        def tick() -> None:
            if prog.wasCanceled():
                timer.stop()
                rec.close(keep=False)
                self.status(_("Measurement cancelled; nothing was kept"))
                return
            rec.sample()
            prog.setValue(rec.samples)
            if rec.samples >= total:
                timer.stop()
                rec.close()
                prog.reset()
                self.status(_("Power log written to {path}", path=str(out)))
                if self.doc.path is not None:
                    self._import(str(out))
                else:
                    self.dialogs.info(_("Measure This Machine"), _("The log is in {path}; save the build and import it "
                                                                    "with Tools > Import Power Log…", path=str(out)))

        timer.timeout.connect(tick)
        timer.start()
        prog.show()
        return prog
