"""Tools > Optimise Build: the optimiser's inputs, its search off the GUI thread (progress, Cancel)
and its results; a result opens in the planner as one undoable step, today's stage or the grown one.

The dialog decides nothing: the request goes to :func:`rigbuilder.rules.optimise.optimise`, the
result is shown as it comes back, and opening a result is a ``ReplaceBuild`` edit the window applies.
"""
from __future__ import annotations

import html
from typing import Callable, Optional

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QCheckBox, QComboBox, QCompleter, QDialog,
                               QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QProgressBar, QPushButton, QSizePolicy, QSplitter, QTableWidget,
                               QTableWidgetItem, QTextBrowser, QVBoxLayout, QWidget)

from rigbuilder.domain.build import REGIONS, ROOM_NOISE_RANGE, Build, without_text
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import Money, format_number, format_value
from rigbuilder.domain import fields as F
from rigbuilder.domain.market import default_budget
from rigbuilder.rules.optimise import (KINDS, LIMIT_STEPS, Cancelled, OptimiseError, Request, Result, budget_step,
                                       figure, noise_cost, optimise)
from rigbuilder.rules.optimise import bands
from rigbuilder.rules.optimise.answers import no_build_lines
from rigbuilder.rules.optimise.frames import OBJECTIVE_WORDS, objective_lines
from rigbuilder.rules.optimise.request import RISER_LENGTH_MM
from rigbuilder.ui import background, theme
from rigbuilder.ui.i18n import N_, _, close_quotation, n_, render_ui, ui_language
from rigbuilder.ui.widgets import choice_box, spin_box

NO_NOISE_LIMIT = int(ROOM_NOISE_RANGE[0]) - 1
"""The noise box's lowest value: no limit."""

COLUMNS = (N_("Build"), N_("Now"), N_("To grow"), N_("Energy"), N_("Total"), N_("Throughput"), "\u00b1", N_("Per 1,000"),
           N_("VRAM"), N_("Peak W"), N_("Wall W"), N_("Per month"), N_("Findings"), N_("Notes"))
HEADER_TIPS = (N_("GPUs now -> grown, card and board"), N_("Purchase now"), N_("The GPUs (and second PSU) bought later"),
               N_("Energy of the grown build over the years set"), N_("Now + to grow + energy"),
               N_("The grown build's estimated throughput for the workload"),
               N_("The throughput estimate's error band: the cards' band, joined with the scaling fit's for several "
                  "training cards ('measured': published figures for these cards)"),
               N_("Throughput per 1,000 of total cost"), N_("VRAM of the grown build (per card)"),
               N_("Peak DC load of the grown build"), N_("Peak draw at the wall of the grown build"),
               N_("Energy cost per month of the grown build"), N_("Errors / warnings / infos of the grown build"),
               N_("Figures the build rests on that are unverified"))
CONDITIONS = (("new", N_("new")), ("used", N_("used")), ("both", N_("both")))
KIND_WORDS = {"motherboard": "board"}


class _Worker(QObject):
    """One search off the GUI thread: the request's, or with ``step`` (and the ``base`` result) what
    that much more budget would buy (``budget_step``: a list of texts)."""
    progressed = Signal(float, str)
    finished = Signal(object)  # a Result, or the budget step's texts
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, req: Request, index: PartIndex, scorer_factory, step: Optional[float] = None,
                 base: Optional[Result] = None) -> None:
        super().__init__()
        self.req, self.index, self.scorer_factory = req, index, scorer_factory
        self.step, self.base = step, base
        self.stop = False

    @Slot()
    def run(self) -> None:
        try:
            scorer = (self.scorer_factory(self.req.workload, self.req.model_params_b, self.req.precision)
                      if self.req.precision else self.scorer_factory(self.req.workload, self.req.model_params_b))
            progress, cancelled = (lambda f, what: self.progressed.emit(f, what)), (lambda: self.stop)
            if self.step is not None and self.base is not None:
                res = budget_step(self.req, self.base, self.index, scorer, self.step, progress, cancelled)
            else:
                res = optimise(self.req, self.index, scorer, progress=progress, cancelled=cancelled)
                bands.attach(res, self.index, scorer)  # each answer's estimate, for its error band
                if self.req.max_noise is not None:  # what the limit cost: one more search, without it
                    res.explanation.extend(noise_cost(self.req, res, self.index, scorer, progress, cancelled))
                # the other objectives' winners, one line each where they differ (one more search each)
                res.explanation.extend(objective_lines(self.req, res, self.index, scorer, progress, cancelled))
                # no build: the single changes that give one, each tried and costed
                res.explanation.extend(no_build_lines(self.req, res, self.index, scorer, progress, cancelled))
        except Cancelled:
            self.cancelled.emit()
        except (OptimiseError, RuntimeError, ValueError, KeyError) as e:
            self.failed.emit(render_ui(e.args[0]) if e.args and isinstance(e.args[0], str) else str(e))
        else:
            self.finished.emit(res)


def _n(v: float) -> str:
    """A whole amount, grouped as the window's language groups it."""
    return format_number(v, 0, ui_language())


def _figure(v: float) -> str:
    """A throughput or ratio as ``rules.optimise.figure`` shows it (whole from 100, else three
    significant figures), with the window language's digits."""
    lang = ui_language()
    if lang == "en":
        return figure(v)
    if abs(v) >= 100:
        return format_number(v, 0, lang)
    from babel.numbers import format_decimal

    from rigbuilder.domain.i18n import babel_locale

    return format_decimal(float(f"{v:.3g}"), locale=babel_locale(lang))


def _workload_label(wid: str) -> str:
    try:
        from rigbuilder.models.workloads import WORKLOADS
    except ImportError:  # the adviser's models are optional for the optimiser
        return wid
    return render_ui(WORKLOADS[wid].label) if wid in WORKLOADS else wid


def _cut(text: str, n: int = 170) -> str:
    """At most ``n`` characters, cut at a word, with an ellipsis (a quotation cut short is closed)."""
    if len(text) <= n:
        return text
    return close_quotation(text[:n].rsplit(" ", 1)[0].rstrip(",;:") + "…")


def parse_parts(text: str, index: PartIndex, what: str) -> tuple[tuple[str, str], ...]:
    """'case=case-x, gpu=gpu-y' -> ((kind, id), ...); ValueError naming the bad entry."""
    out = []
    for raw in text.replace(";", ",").split(","):
        item = raw.strip()
        if not item:
            continue
        kind, sep, pid = item.partition("=")
        if not sep:  # an id alone: its kind from the catalog
            pid, part = kind.strip(), index.get(kind.strip())
            if part is None:
                raise ValueError(_("{what}: {pid} is not a part id in the catalog", what=what, pid=repr(pid[:60])))
            kind = part.KIND
        kind = {"board": "motherboard"}.get(kind.strip().lower(), kind.strip().lower())
        if kind not in KINDS:
            raise ValueError(_("{what}: {item}: the kind must be one of {kinds}", what=what, item=repr(item[:60]),
                               kinds=", ".join(KIND_WORDS.get(k, k) for k in KINDS)))
        out.append((kind, pid.strip()))
    return tuple(out)


class OptimiserDialog(QDialog):
    """Inputs, a search with progress and Cancel, a results table; opening a result calls
    ``apply_build(build, undo_text)`` (the window makes it one undoable edit)."""

    def __init__(self, index: PartIndex, apply_build: Callable[[Build, str], bool], scorer_factory,
                 workloads: list[str], currencies: list[str], parent: Optional[QWidget] = None,
                 region: str = F.REGION.default, currency: str = F.CURRENCY.default, sized_workloads: tuple[str, ...] = (),
                 compare: Optional[Callable[[str, Build], None]] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Optimise Build"))
        self.compare = compare
        self.index, self.apply_build, self.scorer_factory = index, apply_build, scorer_factory
        self.result: Optional[Result] = None
        self._thread: Optional[QThread] = None
        self._worker: Optional[_Worker] = None
        form_box = QGroupBox(_("Request"))
        form = QGridLayout(form_box)
        self.budget = spin_box(0, 1e7, decimals=0, step=100, value=default_budget(currency, index.prices.rates), lowest=_("no limit"),
                               tip=_("Most to spend now (the cards bought later and the energy are not in the "
                                     "budget); 0 = no limit"))
        self.currency = choice_box([(c, c) for c in currencies], current=currency)
        self.prices = choice_box([(_(label), code) for code, label in CONDITIONS],
                                 tip=_("new prices; used prices where known (else new); or the cheaper of the two"))
        self.workload = choice_box([(_workload_label(wid), wid) for wid in workloads],
                                   tip=_("The workload the throughput estimate is for"))
        self.model_size = spin_box(0, 10000, decimals=1, suffix=_(" B params"), lowest=_("preset"),
                                   tip=_("Model size in billions of parameters; 'preset' uses the workload's own"))
        self._sized = tuple(sized_workloads)
        self.workload.currentIndexChanged.connect(lambda _i: self._workload_changed(self.workload.currentData()))
        self._workload_changed(self.workload.currentData())
        self.gpus_now = spin_box(1, 8)
        self.grow_to = spin_box(1, 8, value=4, tip=_("How many GPUs the build grows to later: growing adds only GPUs "
                                                     "(and, if allowed, a second PSU); board, case and PSU stay"))
        self.gpus_now.valueChanged.connect(lambda v: self.grow_to.setMinimum(v))
        self.min_vram = spin_box(0, 1000, decimals=0, suffix=_(" GB per card"), lowest=_("any"))
        self.min_total = spin_box(0, 10000, decimals=0, suffix=_(" GB in all"), lowest=_("any"))
        self.power_limit = spin_box(round(100 * F.POWER_LIMIT_FRACTION.lo), round(100 * F.POWER_LIMIT_FRACTION.hi),
                                    value=100, suffix=_(" % of board power"),
                                    tip=_("Limit every GPU to this share of its board power (nvidia-smi -pl): less "
                                          "power, heat and wall draw for a little throughput; 100 %: no limit"))
        self.region = choice_box([(_(r.label), code) for code, r in REGIONS.items()], current=region)
        self.years = spin_box(0, 20, decimals=0, value=3, suffix=_(" years of energy"))
        self.objective = choice_box([(_("the default: within the budget if one is set, else per cost"), None)]
                                    + [(_(words), goal) for goal, words in OBJECTIVE_WORDS.items()],
                                    tip=_("What is best: the most throughput the budget buys, the most throughput per "
                                          "total cost, or the cheapest build that reaches the target throughput"))
        self.target = spin_box(0, 1e7, decimals=1, lowest=_("any"),
                               tip=_("With 'Cheapest build that reaches the target': the least throughput, in the "
                                     "workload's unit (any: the cheapest build that holds the workload)"))
        self.target.setEnabled(False)
        self.objective.currentIndexChanged.connect(
            lambda _i: self.target.setEnabled(self.objective.currentData() == "cheapest"))
        self.allow_warnings = QCheckBox(_("Allow warnings"))
        self.allow_warnings.setToolTip(_("Accept builds with thermal, lane-link, PSU-transient, radiator or over-budget "
                                         "warnings (refused by default); the answer names each warning with its fix"))
        self.quiet = QCheckBox(_("Quiet"))
        self.quiet.setToolTip(_("Blower cards only when nothing else fits; a full slot of air in front of open-air "
                                "fans"))
        self.max_noise = spin_box(NO_NOISE_LIMIT, ROOM_NOISE_RANGE[1], value=NO_NOISE_LIMIT, suffix=_(" dB(A) at most"),
                                  lowest=_("any noise"),
                                  tip=_("Quiet as a level: every build at most this loud at 1 m while training (the "
                                        "noise model; 40 dB(A) for a room people work in); the explanation says what "
                                        "the limit cost"))
        self.atx3 = QCheckBox(_("ATX 3.x PSU"))
        self.second_psu = QCheckBox(_("Second PSU when growing"))
        self.risers = QCheckBox(_("Risers and open frames"))
        self.risers.setToolTip(_("Also try every card on a priced riser in an open frame with a position for each "
                                 "card. Slower: one more search per riser option"))
        self.riser_length = spin_box(*RISER_LENGTH_MM, step=50, suffix=_(" mm riser"), lowest=_("any riser"),
                                     tip=_("Only risers at least this long: measure from the board's slots to the "
                                           "frame's card positions (a frame that states no riser length is searched "
                                           "only with it)"))
        self.riser_length.setEnabled(False)
        self.risers.toggled.connect(self.riser_length.setEnabled)
        ids = [f"{KIND_WORDS.get(p.KIND, p.KIND)}={p.id}" for p in index]
        self.own = QLineEdit()
        self.own.setPlaceholderText(_("e.g. {example}", example="case=case-fractal-define-7-xl, gpu=gpu-nvidia-rtx-a4000"))
        self.own.setToolTip(_("Parts you already own (cost nothing), separated by commas; a GPU once per card"))
        self.insist = QLineEdit()
        self.insist.setPlaceholderText(_("parts the build must use, priced as usual"))
        for edit in (self.own, self.insist):
            comp = QCompleter(ids, edit)
            comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            comp.setFilterMode(Qt.MatchFlag.MatchContains)
            edit.setCompleter(comp)
        self.precision = QComboBox()
        self.precision.addItem(_("the workload's own"), None)
        from rigbuilder.rules.optimise.scoring import precisions

        for p, bits in precisions():
            self.precision.addItem(_("{precision} ({bits:.3g} bits per weight)", precision=p, bits=bits), p)
        self.precision.setToolTip(_("What the weights are held at (fp16, int8, int4…): the VRAM and the "
                                    "throughput follow it"))
        self.limit_auto = QCheckBox(_("Choose the power limit"))
        self.limit_auto.setToolTip(_("Search every card at 100, 90, 80 and 70% of its board power and keep the "
                                     "best: a circuit or a PSU can then be met by limiting the cards"))
        self.limit_auto.toggled.connect(lambda on: self.power_limit.setEnabled(not on))
        rows = [((_("Budget now"), self.budget), (_("Currency"), self.currency), (_("Prices"), self.prices)),
                ((_("Workload"), self.workload), (_("Model size"), self.model_size), (_("Region"), self.region)),
                ((_("GPUs now"), self.gpus_now), (_("Grow to"), self.grow_to), (_("Energy"), self.years)),
                ((_("Min. VRAM"), self.min_vram), (_("Min. total VRAM"), self.min_total),
                 (_("GPU power"), self.power_limit)),
                ((_("Precision"), self.precision), (_("Best"), self.objective), (_("Target"), self.target))]
        for r, pairs in enumerate(rows):
            for k, (label, w) in enumerate(pairs):
                lab = QLabel(label)
                lab.setBuddy(w)
                form.addWidget(lab, r, 2 * k)
                form.addWidget(w, r, 2 * k + 1)
        for col in (1, 3, 5):
            form.setColumnStretch(col, 1)
        prefs = QHBoxLayout()
        for w in (self.limit_auto, self.allow_warnings, self.quiet, self.max_noise, self.atx3, self.second_psu, self.risers,
                  self.riser_length):
            prefs.addWidget(w)
        prefs.addStretch(1)
        n = len(rows)
        form.addWidget(QLabel(_("Preferences")), n, 0)
        form.addLayout(prefs, n, 1, 1, 5)
        form.addWidget(QLabel(_("I own")), n + 1, 0)
        form.addWidget(self.own, n + 1, 1, 1, 5)
        form.addWidget(QLabel(_("Must use")), n + 2, 0)
        form.addWidget(self.insist, n + 2, 1, 1, 5)
        self.search_button = QPushButton(_("&Search"))
        self.search_button.setDefault(True)
        self.search_button.setToolTip(_("Search the catalog for the best builds by the objective chosen under "
                                        "Best: with a budget, the most throughput within it"))
        self.search_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.setToolTip(_("Stop the search"))
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setVisible(False)
        self.status = QLabel(_("Set the request and press Search."))
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        run_row = QHBoxLayout()
        run_row.addWidget(self.search_button)
        run_row.addWidget(self.cancel_button)
        run_row.addWidget(self.progress, 1)
        run_row.addWidget(self.status, 2)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([_(c) for c in COLUMNS])
        for i, tip in enumerate(HEADER_TIPS):
            self.table.horizontalHeaderItem(i).setToolTip(_(tip))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        self.table.setWordWrap(False)
        self.table.setColumnWidth(0, 270)
        self.table.itemSelectionChanged.connect(self._selected)
        self.table.itemDoubleClicked.connect(lambda _item: self.open_selected("today"))
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(False)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.details)
        split.setSizes([230, 200])
        self.open_today = QPushButton(_("&Open in Planner"))
        self.open_today.setToolTip(_("Replace the planner's build with today's stage of the selected build (one "
                                     "undoable step)"))
        self.open_today.clicked.connect(lambda: self.open_selected("today"))
        self.open_grown = QPushButton(_("Open &Grown Stage"))
        self.open_grown.setToolTip(_("Replace the planner's build with the selected build grown to all its GPUs "
                                     "(one undoable step; Open in Planner switches back)"))
        self.open_grown.clicked.connect(lambda: self.open_selected("grown"))
        self.to_compare = QPushButton(_("Add to &Comparison"))
        self.to_compare.setToolTip(_("Put the selected build (grown stage) beside others in Tools > Compare Builds"))
        self.to_compare.clicked.connect(self.compare_selected)
        self.to_compare.setEnabled(False)
        self.to_compare.setVisible(compare is not None)
        self.compare_top = QPushButton(_("Compare the &Top 3"))
        self.compare_top.setToolTip(_("Put the three best builds (grown stage) side by side in Tools > Compare Builds"))
        self.compare_top.clicked.connect(self.compare_best)
        self.compare_top.setEnabled(False)
        self.compare_top.setVisible(compare is not None)
        self.step = spin_box(1, 1e6, decimals=0, step=100, value=300,
                             tip=_("How much more budget to try against the selected answer's search"))
        self.try_more = QPushButton(_("What Would &More Budget Buy?"))
        self.try_more.setToolTip(_("Search again with the budget raised by this much and say what it buys against "
                                   "the best answer (one more search)"))
        self.try_more.clicked.connect(self.start_step)
        close = QPushButton(_("Close"))
        close.clicked.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.open_today)
        bottom.addWidget(self.open_grown)
        bottom.addWidget(self.to_compare)
        bottom.addWidget(self.compare_top)
        bottom.addStretch(1)
        step_label = QLabel(_("Budget step"))
        step_label.setBuddy(self.step)
        bottom.addWidget(step_label)
        bottom.addWidget(self.step)
        bottom.addWidget(self.try_more)
        bottom.addSpacing(12)
        bottom.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addWidget(form_box)
        lay.addLayout(run_row)
        lay.addWidget(split, 1)
        lay.addLayout(bottom)
        self._selected()
        self._step_enabled()
        self.resize(1400, 860)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._stop_now)

    def _workload_changed(self, wid: str) -> None:
        sized = wid in self._sized
        self.model_size.setEnabled(sized)
        if not sized:
            self.model_size.setValue(0)

    # -- the request -----------------------------------------------------------------------------
    def request(self) -> Request:
        """The request the inputs make; ValueError naming a bad entry."""
        own = parse_parts(self.own.text(), self.index, _("I own"))
        insist = parse_parts(self.insist.text(), self.index, _("Must use"))
        req = Request(budget=self.budget.value() or None, currency=self.currency.currentText(),
                      condition=self.prices.currentData(), workload=self.workload.currentData(),
                      model_params_b=self.model_size.value() or None, gpus_now=self.gpus_now.value(),
                      grow_to=self.grow_to.value(), min_vram_gb=self.min_vram.value(),
                      min_total_vram_gb=self.min_total.value(), region=self.region.currentData(),
                      years=self.years.value(), quiet=self.quiet.isChecked(), atx3=self.atx3.isChecked(),
                      max_noise=None if self.max_noise.value() <= NO_NOISE_LIMIT else float(self.max_noise.value()),
                      second_psu=self.second_psu.isChecked(), risers=self.risers.isChecked(),
                      riser_length_mm=self.riser_length.value() or None, own=own,
                      insist=insist, top=8,
                      precision=self.precision.currentData(),
                      power_limit=(None if self.limit_auto.isChecked()
                                   else F.fraction_limit(self.power_limit.value() / 100)),
                      power_limits=LIMIT_STEPS if self.limit_auto.isChecked() else (),
                      objective=self.objective.currentData(),
                      target_throughput=(self.target.value() or None) if self.objective.currentData() == "cheapest"
                      else None, allow_warnings=self.allow_warnings.isChecked())
        bad = req.problems()
        if bad:
            raise ValueError("; ".join(render_ui(b) for b in bad))
        return req

    # -- running ---------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        if self.running:
            return
        try:
            req = self.request()
        except ValueError as e:
            self.status.setText(_("Not searched: {why}", why=str(e)))
            return
        self.table.setRowCount(0)
        self.details.clear()
        self.result = None
        self._selected()
        self._launch(_Worker(req, self.index, self.scorer_factory))

    def start_step(self) -> None:
        """What the budget step would buy against the result shown: one more search, its texts added
        to the explanation."""
        res = self.result
        if self.running or res is None or res.request.budget is None:
            return
        self._launch(_Worker(res.request, self.index, self.scorer_factory, step=self.step.value(), base=res))

    def _launch(self, worker: _Worker) -> None:
        self.search_button.setEnabled(False)
        self.try_more.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setVisible(True)
        self.progress.setValue(0)
        self.status.setText(_("Searching…"))
        background.start(self, worker)

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.stop = True
            self.status.setText(_("Cancelling…"))
            self.cancel_button.setEnabled(False)

    def _stop_now(self) -> None:
        """The app is quitting: stop the search and wait for its thread."""
        if self._worker is not None:
            self._worker.stop = True
        if self._thread is not None:
            self._thread.wait(10000)

    def wait(self, ms: int = 30000) -> None:
        if self._thread is not None:
            self._thread.wait(ms)

    @Slot(float, str)
    def _progressed(self, fraction: float, what: str) -> None:
        self.progress.setValue(int(1000 * fraction))
        self.status.setText(_("Searching: {what}", what=what))

    @Slot()
    def _thread_done(self) -> None:
        background.release(self)
        self.search_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)
        self._step_enabled()

    def _step_enabled(self) -> None:
        ok = self.result is not None and self.result.request.budget is not None and not self.running
        self.try_more.setEnabled(ok)
        self.step.setEnabled(ok)
        self.step.setSuffix(f" {self.result.request.currency}" if self.result is not None else "")

    @Slot(str)
    def _failed(self, text: str) -> None:
        self.status.setText(_("Not searched: {why}", why=text))

    @Slot()
    def _cancelled(self) -> None:
        self.status.setText(_("Cancelled: the answer shown is unchanged.") if self.result is not None
                            else _("Cancelled: no result."))

    @Slot(object)
    def _finished(self, res) -> None:
        if isinstance(res, list):  # the budget step's texts, said below the answer they belong to
            if self.result is not None:
                self.result.explanation.extend(res)
                self.status.setText(" ".join(render_ui(t) for t in res))
                self._selected()
                if self.selected() is None:
                    self.details.setHtml(self._explanation_html(self.result))
            return
        self.result = res
        self.show_result(res)

    # -- results ---------------------------------------------------------------------------------
    def show_result(self, res: Result) -> None:
        cur = res.request.currency
        unit = res.candidates[0].unit if res.candidates else ""
        heads = [_(c) for c in COLUMNS]
        for i in (1, 2, 4, 11):
            heads[i] = _("{column} ({currency})", column=_(COLUMNS[i]), currency=cur)
        heads[3] = _("Energy {years:g} y ({currency})", years=res.request.years, currency=cur)
        heads[5] = _("Throughput ({unit})", unit=unit) if unit else _(COLUMNS[5])
        self.table.setHorizontalHeaderLabels(heads)
        for i, tip in enumerate(HEADER_TIPS):
            self.table.horizontalHeaderItem(i).setToolTip(_(tip))
        self.table.setRowCount(len(res.candidates))
        for r, c in enumerate(res.candidates):
            n = c.counts()
            cells = [render_ui(c.row_label), _n(c.cost_now), _n(c.cost_growth), _n(c.energy), _n(c.total),
                     _figure(c.throughput), render_ui(bands.band_text(c)), _figure(c.ratio),
                     f"{c.vram_gb * len(c.grown.gpus):g} GB ({len(c.grown.gpus)}×{c.vram_gb:g})",
                     _n(c.peak_dc_w), _n(c.peak_wall_w), _n(c.energy_per_month),
                     f"{n['error']}/{n['warning']}/{n['info']}",
                     "" if not c.unverified else n_("{n} part unverified", "{n} parts unverified", len(c.unverified))]
            fig = bands.throughput(c)
            tips = {5: render_ui(fig.text()) if fig is not None else cells[5],
                    6: render_ui(bands.how(c)),
                    12: _("errors / warnings / infos of the grown build"),
                    13: "\n".join(render_ui(u) for u in c.unverified) or _("every figure the build rests on is verified")}
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if 0 < col < len(COLUMNS) - 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if col == 13 and c.unverified:
                    item.setForeground(theme.qcolor("warning"))
                item.setToolTip(tips.get(col, text))
                self.table.setItem(r, col, item)
        self.table.setColumnWidth(0, 270)
        if res.candidates:
            self.table.selectRow(0)
            k = len(res.candidates)
            self.status.setText(_("{n} build in {s:.2f} s ({judged} judged by the checks; throughput: {scorer}).",
                                  n=k, s=res.seconds, judged=res.judged, scorer=render_ui(res.scorer)) if k == 1 else
                                _("{n} builds in {s:.2f} s ({judged} judged by the checks; throughput: {scorer}).",
                                  n=k, s=res.seconds, judged=res.judged, scorer=render_ui(res.scorer)))
        else:
            why = render_ui(res.infeasible or "")
            self.status.setText(_("No build meets the request: {why}", why=why))
            self.status.setToolTip(why)
            self.details.setHtml(self._explanation_html(res))

    def _explanation_html(self, res: Result) -> str:
        parts = []
        if res.infeasible:
            none = html.escape(_("No build meets the request."))
            parts.append(f"<p><b>{none}</b> "
                         + html.escape(_("The constraint that cannot be met: {why}", why=render_ui(res.infeasible)))
                         + "</p>")
        if (band := bands.best_line(res)) is not None:  # the answer's figure with its band, before the answer
            parts.append(f"<p>{html.escape(render_ui(band))}</p>")
        parts += [f"<p>{html.escape(render_ui(line))}</p>" for line in res.explanation[len(res.price_notes):]]
        return "".join(parts)

    def _price_notes_html(self, res: Result) -> str:
        """The prices' age first: a stale-price warning in the warning colour, then the age and the
        conversions (``Result.price_notes``)."""
        out = []
        for i, line in enumerate(res.price_notes):
            text = html.escape(render_ui(line))
            stale = i == 0 and line.startswith("Stale prices")
            out.append(f"<p style='color:{theme.colors().warning}'><b>⚠ {text}</b></p>" if stale else f"<p>{text}</p>")
        return "".join(out)

    def selected(self):
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows or self.result is None or rows[0].row() >= len(self.result.candidates):
            return None
        return self.result.candidates[rows[0].row()]

    def _selected(self) -> None:
        c = self.selected()
        self.open_today.setEnabled(c is not None)
        self.open_grown.setEnabled(c is not None and len(c.grown.gpus) != len(c.today.gpus))
        self.to_compare.setEnabled(c is not None)
        self.compare_top.setEnabled(self.result is not None and len(self.result.candidates) >= 2)
        if c is None or self.result is None:
            return
        cur = self.result.request.currency
        rows = []
        for pid, units, each, where in c.prices:
            p = self.index.get(pid)
            name = p.name if p else pid
            trust = "" if p is None or p.verified else f" <span style='color:{theme.colors().warning}'>({html.escape(render_ui(p.trust))})</span>"
            pp = self.result.priced.get(pid)
            age = ""
            if pp is not None:  # when the price was seen, and how old it is (stale ones marked)
                words = html.escape(f"{pp.observed or '?'}, {render_ui(pp.observation.age())}")
                age = (f"<span style='color:{theme.colors().warning}'>⚠ {words}</span>" if pp.stale() else words)
            rows.append(f"<tr><td>{units} ×</td><td>{html.escape(name)}{trust}</td>"
                        f"<td align='right'>{html.escape(format_value(Money(each, cur), '', ui_language()))}</td>"
                        f"<td><small>{age}</small></td>"
                        f"<td><small>{html.escape(_cut(render_ui(where)))}</small></td></tr>")
        notes = "".join(f"<li>{html.escape(render_ui(u))}</li>" for u in c.unverified)
        rests = html.escape(_("Rests on unverified figures:"))
        same = _("The same build at the same price and throughput with: {cards}",  # its row's other makers' cards
                 cards=", ".join(v.gpu.name for v in c.variants))
        self.details.setHtml(
            self._price_notes_html(self.result)
            + f"<h3>{html.escape(render_ui(c.label))}</h3>"
            + self._lacks_html(c)
            + (f"<p>{html.escape(render_ui(line))}</p>" if (line := bands.figure_line(c)) is not None else "")
            + f"<table cellspacing='4'>{''.join(rows)}</table>"
            + (f"<p>{html.escape(same)}</p>" if c.variants else "")
            + (f"<p><b>{rests}</b></p><ul>{notes}</ul>" if notes else "")
            + self._explanation_html(self.result))

    @staticmethod
    def _lacks_html(c) -> str:
        """What the selected build lacks (no memory kit has a price, say), said first, not last."""
        if not c.today.missing_roles():
            return ""
        text = _("Incomplete: without {parts}. The purchase and the checks leave them out.",
                 parts=render_ui(without_text(c.today.missing_roles())))
        return f"<p style='color:{theme.colors().warning}'><b>{html.escape(text)}</b></p>"

    def open_selected(self, stage: str) -> bool:
        c = self.selected()
        if c is None:
            return False
        from rigbuilder.domain.edits import ChangeSettings, Rename

        # The generated name kept in the window's language; the grown stage has its own money (issue 37):
        # today's budget plus the growth budget, or none when growing has no cap.
        build = c.grown if stage == "grown" else c.today
        build = Rename(render_ui(build.name), build.notes).applied_to(build, self.index)
        req = self.result.request if self.result is not None else None
        money = c.today.settings.budget if stage == "today" or req is None else req.grown_budget
        build = ChangeSettings.of(budget=money).applied_to(build, self.index)
        text = (_("Open optimised build (grown): {name}", name=render_ui(c.label)) if stage == "grown" else
                _("Open optimised build (today): {name}", name=render_ui(c.label)))
        done = self.apply_build(build, text)
        if done:
            self.status.setText(_("Opened the grown stage in the planner (Edit > Undo brings the previous build back).")
                                if stage == "grown" else
                                _("Opened today’s build in the planner (Edit > Undo brings the previous build back)."))
        return done

    def compare_selected(self) -> bool:
        c = self.selected()
        if c is None or self.compare is None:
            return False
        self.compare(render_ui(c.label), c.grown)
        return True

    def compare_best(self, n: int = 3) -> bool:
        """The best ``n`` builds of the answer shown, side by side (the compare window's entry point)."""
        res = self.result
        if res is None or self.compare is None or len(res.candidates) < 2:
            return False
        for c in res.candidates[:n]:
            self.compare(render_ui(c.label), c.grown)
        return True

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.cancel()
        self.wait(5000)
        super().closeEvent(event)
