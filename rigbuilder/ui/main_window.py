"""The main window: catalog, board, findings, parts list and graphs around one BuildDocument.

The window is the composition root: it lays out the panels and docks, builds the menus and the
toolbar, makes the small objects that do the work and wires the signals to them. Each object is
given what it needs (the document, the dialogs, a status callback, a parent widget), never the
window: the file session (``file_session``), the edits (``build_edits``), the report, money and
import actions (``report_actions``, ``money_actions``, ``part_imports``), the Tools windows
(``tool_windows``) and the panels made when first needed (``panel_loader``)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSizePolicy, QStyle, QTabWidget, QWidget

from rigbuilder import __version__
from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.rules.engine import counts
from rigbuilder.ui.boardview import BoardView
from rigbuilder.ui.build_edits import BuildEdits
from rigbuilder.ui.catalog_panel import CatalogPanel
from rigbuilder.ui.dialogs import Dialogs
from rigbuilder.ui.document import BuildDocument
from rigbuilder.ui.file_session import FileSession
from rigbuilder.ui.history_buttons import HistoryButtons
from rigbuilder.ui.i18n import N_, _, n_, render_ui, ui_language
from rigbuilder.ui.panel_loader import AdviserLoader, GraphsLoader, scroll_area
from rigbuilder.ui.panels import BuildPartsPanel, FindingsPanel
from rigbuilder.ui.part_imports import PartImports
from rigbuilder.ui.report_actions import ReportActions, shown_name
from rigbuilder.ui.tool_windows import ToolWindows
from rigbuilder.ui.widgets import QuietLabel

__all__ = ["Dialogs", "FRAME_ALLOWANCE", "MainWindow", "first_window_size"]

FRAME_ALLOWANCE = QSize(16, 40)  # title bar and borders a window manager adds around the window


def first_window_size(available: QRect) -> QSize:
    """1440x900 where the screen has room; else the screen's available area less the frame, so that
    on a 1366x768 screen the right panel, the findings and the status bar are all on screen."""
    return QSize(max(800, min(1440, available.width() - FRAME_ALLOWANCE.width())),
                 max(560, min(900, available.height() - FRAME_ALLOWANCE.height())))



class MainWindow(QMainWindow):
    def __init__(self, index: PartIndex, settings: QSettings, dialogs_factory=Dialogs, catalog=None,
                 rates_path: Optional[Path] = None) -> None:
        super().__init__()
        self.settings = settings
        self.catalog = catalog
        self.dialogs = dialogs_factory(self)
        from rigbuilder.config import Preferences
        from rigbuilder.ui.money_actions import MoneyActions, new_settings

        self.prefs = Preferences.open(settings)  # typed, versioned; upgraded here
        self.doc = doc = BuildDocument(index, Build(settings=new_settings(self.prefs, index.prices.rates)), self)
        doc.set_undo_limit(self.prefs.get("edit/undo_limit"))
        self.setObjectName("MainWindow")
        self.board_view = BoardView(doc)
        self.board_view.setMinimumSize(480, 360)
        self.setCentralWidget(self.board_view)
        # The Build dock (controls and graphs) takes the full height on the right; the findings
        # run under the catalog and the board.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.catalog_panel = CatalogPanel(index)
        self.findings_panel = FindingsPanel()
        self.findings_panel.set_language(ui_language())  # issue 19: findings in the window's language
        self.parts_panel = BuildPartsPanel()
        self.catalog_panel.setMinimumWidth(330)
        catalog_dock = self._dock("Catalog", N_("Catalog"), self.catalog_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        # The power and cost panel is made once the window is on screen, a piece each turn of the
        # event loop, so the window answers the user meanwhile (ui/panel_loader.py; benchmarks/
        # bench_start.py and bench_ui.py time it).
        self.graphs_loader = GraphsLoader(doc, scroll_area(), self, connect=self._connect_graphs)
        right = self.right_tabs = QTabWidget()
        right.addTab(self.graphs_loader.place, _("Power && cost"))
        right.addTab(self.parts_panel, _("Parts"))
        from rigbuilder.ui.measured_view import MeasuredView

        self.measured_view = MeasuredView()  # issue 42: the plan against the machine's own power log
        right.addTab(scroll_area(self.measured_view), _("Measured"))
        right.currentChanged.connect(self._show_parts)
        right.setMinimumWidth(400)
        build_dock = self._dock("Build", N_("Build"), right, Qt.DockWidgetArea.RightDockWidgetArea)
        findings_dock = self._dock("Findings", N_("Findings"), self.findings_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        # The GPU adviser (issue 17): a tab beside the build, made the first time it is shown.
        self.adviser_dock = self._dock("Adviser", N_("Adviser"), None, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(build_dock, self.adviser_dock)
        build_dock.raise_()
        self.adviser_loader = AdviserLoader(doc, self.adviser_dock, drag_pixmap=self.board_view.card_pixmap)
        status = self.statusBar().showMessage
        self.edits = BuildEdits(doc, self.dialogs, status=status, refused=self.graphs_loader.reset_controls,
                                settings_changes=lambda changes: self.money.settings_changes(changes))
        self.money = MoneyActions(doc, catalog, self.dialogs, self.prefs, rates_path, do=self.edits.do, status=status,
                                  refresh=lambda: self.catalog_panel.refresh_details(),
                                  report_build=lambda: (self.reports.titled_build(), self.adviser_loader.workload()),
                                  restyle=self._restyle)
        self.files = FileSession(doc, self.dialogs, settings, new_settings=self.money.new_settings, status=status)
        self.reports = ReportActions(doc, self.dialogs, self, status=status, start_dir=self.files.start_dir,
                                     workload=self.adviser_loader.workload,
                                     measured=lambda: self.measured.latest())
        self.tools = ToolWindows(doc, self, self.prefs, self.dialogs, do=self.edits.do, start_dir=self.files.start_dir,
                                 open_path=self.files.open_path, open_build=self.files.open_untitled)
        from rigbuilder.ui.measured_view import MeasuredActions

        self.measured = MeasuredActions(doc, catalog, self.dialogs, self.prefs, self.measured_view, self, status=status)
        self.imports = PartImports(doc, catalog, self.dialogs, self, status=status, start_dir=self.files.start_dir,
                                   maybe_save=self.files.maybe_save, catalog_changed=self.catalog_panel.set_index)
        self.status = QuietLabel()  # new counts on every edit: no relayout of the status bar
        self.status.setFixedWidth(self.status.fontMetrics().horizontalAdvance(
            self._status_text(88, 88, 88, "0123456789ab", "0.10.0") + "  "))
        self.status.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.status.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.statusBar().addPermanentWidget(self.status)
        self._make_actions()
        self._connect()
        size = first_window_size(self._available_geometry())
        self.resize(size)
        small = size.width() < 1440
        self.resizeDocks([findings_dock], [150 if size.height() < 800 else 190], Qt.Orientation.Vertical)
        # The board drawing fits the height: the catalog can take the width its filter columns need.
        self.resizeDocks([catalog_dock, build_dock], [340, 410] if small else [375, 460], Qt.Orientation.Horizontal)
        self._restore_layout()
        self._restyle()  # theme and units from the preferences
        self._on_changed()
        QTimer.singleShot(0, self, self.graphs_loader.start)

    def _connect(self) -> None:
        """The document, the board and the panels to what acts on them."""
        doc, board, edits, money = self.doc, self.board_view, self.edits, self.money
        doc.changed.connect(self._on_changed)
        doc.pathChanged.connect(self._update_title)
        doc.undo_stack.cleanChanged.connect(self._update_title)
        board.partDropped.connect(edits.drop_part)
        self.catalog_panel.table.drag_pixmap = board.card_pixmap  # the card to scale, not the row
        board.gpuMoved.connect(edits.move_gpu)
        board.gpuDeleteRequested.connect(self.remove_gpu)
        board.powerLimitRequested.connect(edits.ask_power_limit)
        board.riserChosen.connect(edits.set_riser)
        board.allPowerLimitsRequested.connect(edits.ask_all_power_limits)
        self.catalog_panel.partActivated.connect(lambda pid: edits.drop_part(pid, None, False))
        board.chosen_part = self._catalog_choice  # Enter on a free position places it (issue 43)
        self.findings_panel.findingSelected.connect(self._highlight)
        self.parts_panel.tree.itemSelectionChanged.connect(self._parts_selection)
        self.parts_panel.removeRequested.connect(edits.remove_part)
        for signal, slot in ((self.catalog_panel.priceRequested, money.set_user_price),
                             (board.userPriceRequested, money.set_user_price),
                             (board.pricePaidRequested, money.set_price_paid),
                             (self.parts_panel.userPriceRequested, money.set_user_price),
                             (self.parts_panel.pricePaidRequested, money.set_price_paid),
                             (self.parts_panel.pricePaidEdited, money.price_paid_typed),
                             (self.parts_panel.conditionEdited, money.condition_chosen)):
            signal.connect(slot)

    def _catalog_choice(self):
        """The id of the part selected in the catalog, or None."""
        cur = self.catalog_panel.table.currentIndex()
        return self.catalog_panel.part_at(cur).id if cur.isValid() else None

    def _connect_graphs(self, panel) -> None:
        panel.settingsEdited.connect(self.edits.edit_settings)
        panel.powerLimitEdited.connect(self.edits.set_power_limit)

    @property
    def graphs(self):
        """The power and cost panel, once made (None before)."""
        return self.graphs_loader.panel

    def open_path(self, path: str, ask: bool = True) -> bool:
        """Open the build file at ``path`` (the command line's file, a recent one)."""
        return self.files.open_path(path, ask)

    def _restyle(self) -> None:
        from rigbuilder.ui.appearance import apply_appearance

        apply_appearance(self)  # theme and units from the preferences
        if hasattr(self, "measured"):
            self.measured.apply_preference()  # the calibration switch (Preferences)
            self.measured.refresh()

    def _available_geometry(self) -> QRect:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else QRect(0, 0, 1440, 900)

    # -- construction --------------------------------------------------------------------
    def _dock(self, name: str, title: str, widget: Optional[QWidget], area) -> QDockWidget:
        """``name``: the English name the saved layout knows the dock by; ``title``: its N_() title."""
        d = QDockWidget(_(title), self)
        d.setObjectName(f"dock-{name}")
        if widget is not None:
            d.setWidget(widget)
        d.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                      | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, d)
        return d

    def _action(self, menu, text, slot, shortcut=None, tip="") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(shortcut)
        a.setStatusTip(tip)
        a.setToolTip(tip or text)
        a.triggered.connect(slot)
        menu.addAction(a)
        return a

    def _make_actions(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu(_("&File"))
        self.act_new = self._action(f, _("&New"), self.files.new_build, QKeySequence.StandardKey.New, _("Start a new build"))
        self.act_open = self._action(f, _("&Open…"), self.files.open_dialog, QKeySequence.StandardKey.Open, _("Open a .rig build"))
        recent = f.addMenu(_("Open &Recent"))
        self._examples_menu(f.addMenu(_("E&xamples")))
        f.addSeparator()
        self.act_save = self._action(f, _("&Save"), self.files.save, QKeySequence.StandardKey.Save, _("Save the build"))
        self.act_save_as = self._action(f, _("Save &As…"), self.files.save_as, QKeySequence.StandardKey.SaveAs, _("Save the build under another name"))
        f.addSeparator()
        self.act_print = self._action(f, _("&Print…"), self.reports.print_report, QKeySequence.StandardKey.Print, _("Print the parts list"))
        self.act_preview = self._action(f, _("Print Pre&view…"), self.reports.print_preview, None, _("Preview the printed parts list"))
        export = f.addMenu(_("&Export"))
        for label, fmt in ((N_("PDF…"), "pdf"), (N_("Markdown…"), "md"), (N_("CSV…"), "csv"),
                           (N_("Plain text…"), "txt"), (N_("HTML…"), "html")):
            self._action(export, _(label), lambda _checked=False, fmt=fmt: self.reports.export(fmt), None,
                         _("Export the parts list as {format}", format=fmt.upper()))
        f.addSeparator()
        self.act_import = self._action(f, _("&Import Parts…"), self.imports.import_parts,
                                       tip=_("Add your own parts to the catalog from a CSV or JSON file (a template: "
                                             "rigbuilder catalog template KIND); all rows or none"))
        self.act_import_list = self._action(f, _("Import Parts &List…"), self.imports.import_parts_list, QKeySequence("Ctrl+Shift+I"),
                                            _("Make a build from a PCPartPicker part list (its text or Markdown export)"))
        self.act_new_cluster = self._action(f, _("New Cl&uster Plan"), self.tools.new_cluster, None,
                                            _("Plan several machines joined by a network, starting from the open build"))
        self.act_cluster = self._action(f, _("Open &Cluster Plan…"), self.tools.open_cluster_dialog, None,
                                        _("Open a .rigcluster plan: several machines and the network between them"))
        f.addSeparator()
        self._action(f, _("&Quit"), self.close, QKeySequence.StandardKey.Quit, _("Quit rigbuilder"))
        e = mb.addMenu(_("&Edit"))
        self.act_undo = self.doc.undo_stack.createUndoAction(self, _("&Undo"))
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.act_redo = self.doc.undo_stack.createRedoAction(self, _("&Redo"))
        self.act_redo.setShortcut(QKeySequence.StandardKey.Redo)
        e.addAction(self.act_undo)
        e.addAction(self.act_redo)
        e.addSeparator()
        self.act_delete = self._action(e, _("&Delete"), self.delete_selected, QKeySequence.StandardKey.Delete,
                                       _("Remove the selected card or part"))
        self.act_delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(self.act_delete)
        self.act_arrange = self._action(e, _("&Arrange GPUs"), self.edits.arrange_gpus, QKeySequence("Ctrl+L"),
                                        _("Place the GPUs where they cause the fewest and mildest findings"))
        self.act_limit = self._action(e, _("Power &Limit for Selected GPU…"),
                                     lambda: self.edits.ask_power_limit(self.board_view.selected_gpu), None,
                                     _("A power limit in watts for the GPU selected on the board"))
        self.act_limit_all = self._action(e, _("Power Limit for &All GPUs…"), self.edits.ask_all_power_limits, None,
                                          _("One power limit in watts for every GPU"))
        self.act_rename = self._action(e, _("Build &Name and Notes…"), self.edits.edit_name_and_notes, None,
                                       _("Name the build and add notes (the title of the printed parts list)"))
        self.money.add_actions(e, self._action)
        tools = mb.addMenu(_("&Tools"))
        self.act_optimise = self._action(tools, _("&Optimise Build…"), self.tools.optimise_build, QKeySequence("Ctrl+Shift+O"),
                                         _("Search the catalog for the best build: the most throughput within a "
                                           "budget, or per total cost"))
        self.act_compare = self._action(tools, _("&Compare Builds…"), self.tools.compare_builds, None,
                                        _("Two to four builds side by side: throughput, VRAM, power, cost of "
                                          "ownership, findings, and against renting"))
        self.act_compare_with = self._action(tools, _("Compare &With…"), self.tools.compare_with, QKeySequence("Ctrl+Shift+C"),
                                             _("The open build side by side with a build file or an example"))
        tools.addSeparator()
        self._action(tools, _("&Import Power Log…"), self.measured.import_power_log, None,
                     _("Read an nvidia-smi or DCGM log of the built machine and compare it with the plan (Measured tab)"))
        self._action(tools, _("&Measure This Machine"), self.measured.measure_this_machine, None,
                     _("Read this machine's NVIDIA GPUs for 60 s and compare with the plan (needs nvidia-ml-py)"))
        self.act_update_prices = self._action(tools, _("Update &Prices…"), self.money.update_prices, None,
                                              _("Apply a dated price feed (a file or an http(s) address) as your "
                                                "prices: previewed first, applied whole or not at all"))
        v = mb.addMenu(_("&View"))
        for d in self.findChildren(QDockWidget):
            v.addAction(d.toggleViewAction())
        self._make_toolbar()
        h = mb.addMenu(_("&Help"))
        self._action(h, _("&Rule Codes"), self.tools.show_rule_codes, QKeySequence.StandardKey.HelpContents,
                     _("What each finding code means"))
        self._action(h, _("&About rigbuilder"), self.tools.show_about, None, _("Version, licence and data sources"))
        self.files.show_recent_in(recent)

    def _examples_menu(self, menu) -> None:
        """File > Examples: the shipped example builds, each named by the question it answers."""
        from rigbuilder.files.examples import EXAMPLES

        for ex in EXAMPLES:
            self._action(menu, _(ex.question), lambda _checked=False, ex=ex: self.tools.open_example(ex), None,
                         _(ex.question))

    def _make_toolbar(self) -> None:
        """The everyday actions one click away; the menus hold them all."""
        tb = self.addToolBar(_("Main toolbar"))
        tb.setObjectName("toolbar-main")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        sp = QStyle.StandardPixmap
        icon = self.style().standardIcon
        for act, pix in ((self.act_new, sp.SP_FileIcon), (self.act_open, sp.SP_DialogOpenButton),
                         (self.act_save, sp.SP_DialogSaveButton), (self.act_arrange, sp.SP_BrowserReload),
                         (self.act_print, sp.SP_FileDialogDetailedView)):
            act.setIcon(icon(pix))
        tb.addActions([self.act_new, self.act_open, self.act_save])
        tb.addSeparator()
        self.history = HistoryButtons(self.doc.undo_stack, self, icon(sp.SP_ArrowBack), icon(sp.SP_ArrowForward))
        self.history.add_to(tb)  # Undo and Redo, their tooltips saying what they will do
        tb.addSeparator()
        tb.addActions([self.act_arrange, self.act_print])

    # -- state -> widgets --------------------------------------------------------------
    def _on_changed(self) -> None:
        doc = self.doc
        judged = doc.last_change.parts or doc.last_change.settings  # not only the name or notes
        if judged:
            self.findings_panel.show_findings(
                doc.findings, {g.num: f"{g.gpu.name} ({g.gpu.cooler})" for g in doc.context.gpus})
        self._parts_stale = True
        self._show_parts()
        if judged:  # (the power and cost panel follows the document itself)
            self.adviser_loader.show_build()
        c = counts(doc.findings)
        self.status.setText(self._status_text(len(doc.build.gpus), c["error"], c["warning"], doc.index.version,
                                              __version__))
        self._update_title()

    @staticmethod
    def _status_text(gpus: int, errors: int, warnings: int, catalog: str, version: str) -> str:
        """The status bar's counts: '2 GPUs · 1 error · 0 warnings · catalog … · rigbuilder …'."""
        return _("{gpus} · {errors} · {warnings} · catalog {catalog} · rigbuilder {version}",
                 gpus=n_("{n} GPU", "{n} GPUs", gpus), errors=n_("{n} error", "{n} errors", errors),
                 warnings=n_("{n} warning", "{n} warnings", warnings),
                 catalog=catalog, version=version)

    _parts_stale = True  # the parts list does not show the build yet

    def _show_parts(self, *_args) -> None:
        """Fill the parts list with the build, when its tab is on screen: while hidden, it waits
        (a list rebuilt on every edit nobody sees cost 0.2 ms an edit)."""
        if self._parts_stale and self.right_tabs.currentWidget() is self.parts_panel:
            self._parts_stale = False
            self.parts_panel.show_build(self.doc.build, self.doc.index)

    def _update_title(self, *_args) -> None:
        name = shown_name(self.doc.path.name) if self.doc.path else shown_name(self.doc.build.name)
        self.setWindowTitle(_("{name}[*] — rigbuilder", name=name))
        self.setWindowModified(self.doc.dirty)

    def _highlight(self, finding) -> None:
        if finding is None:
            self.board_view.board_scene.highlight((), ())
        else:
            self.board_view.board_scene.highlight(finding.gpus, finding.positions)

    def _parts_selection(self) -> None:
        sel = self.parts_panel.selected()
        if sel and sel[0] == "gpu":
            self.board_view.selected_gpu = sel[1]
            self.board_view.board_scene.highlight((sel[1] + 1,), ())

    def remove_gpu(self, idx: Optional[int]) -> None:
        if self.edits.remove_gpu(idx):
            self.board_view.selected_gpu = None

    def delete_selected(self) -> None:
        if self.parts_panel.tree.hasFocus() and self.parts_panel.selected():
            role, i = self.parts_panel.selected()
            self.edits.remove_part(role, i)
        elif self.board_view.selected_gpu is not None:
            self.remove_gpu(self.board_view.selected_gpu)

    # -- window state ------------------------------------------------------------------
    def _restore_layout(self) -> None:
        geo = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)  # Qt moves a window saved on a screen now gone back onto this one
        else:  # first start: centred in the screen's free area (a 1920x1080 screen left it in a corner)
            avail = self._available_geometry()
            frame = self.size() + FRAME_ALLOWANCE
            self.move(avail.x() + max(0, (avail.width() - frame.width()) // 2),
                      avail.y() + max(0, (avail.height() - frame.height()) // 2))
        if isinstance(state, QByteArray):
            self.restoreState(state)

    startup_notices: list = []
    """What the user must read about their data folder (a damaged database moved aside, a
    read-only one, a settings or rates file not used); shown once by ``show_notices``."""

    def show_notices(self) -> None:
        """Say once, in a dialog, what happened to the user's data folder at start."""
        if self.startup_notices:
            texts, self.startup_notices = self.startup_notices, []
            self.dialogs.error(_("Your data folder"), "\n\n".join(render_ui(t) for t in texts))

    def closeEvent(self, event) -> None:  # noqa: N802
        if not self.files.maybe_save():
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        event.accept()
