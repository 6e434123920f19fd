"""The main window: catalog, board, findings, parts list and graphs around one BuildDocument."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Optional

from PySide6.QtCore import QByteArray, QEvent, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QFrame, QLabel, QMainWindow,
                               QMessageBox, QScrollArea, QSizePolicy, QStyle, QTabWidget, QToolTip, QWidget)

from rigbuilder import __version__
from rigbuilder.domain.build import MOUNT_RISER, UNTITLED, Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.fields import limit_for
from rigbuilder.domain.edits import (ApplyArrangement, ChangeSettings, Edit, EditError, MoveGpu, RemoveItem, Rename,
                                     SetAllPowerLimits, SetPowerLimit, edit_for_part)
from rigbuilder.files.atomic import clean_stale
from rigbuilder.files.buildfile import BuildFileError, load, save
from rigbuilder.rules.engine import counts
from rigbuilder.ui.boardview import BoardView
from rigbuilder.ui.catalog_panel import CatalogPanel
from rigbuilder.ui.document import BuildDocument
from rigbuilder.ui.i18n import N_, _, render_ui, ui_language
from rigbuilder.ui.panels import BuildPartsPanel, FindingsPanel
from rigbuilder.ui.report_actions import ReportActions, file_stem, shown_name
from rigbuilder.ui.widgets import QuietLabel

MAX_RECENT = 8




def rig_filter() -> str:
    """The file dialogs' filter for build files, described in the window's language."""
    return _("rigbuilder builds (*.rig)") + ";;" + _("All files (*)")



class Dialogs:
    """Message boxes and file pickers behind one small interface that tests replace."""

    def __init__(self, parent: QWidget) -> None:
        self.parent = parent

    def open_path(self, start: str = "") -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Open build"), start, rig_filter())
        return path or None

    def save_path(self, suggested: str) -> Optional[str]:
        path, _unused = QFileDialog.getSaveFileName(self.parent, _("Save build"), suggested, rig_filter())
        if path and not path.endswith(".rig"):
            path += ".rig"
        return path or None

    def import_path(self, start: str = "") -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Import your own parts"), start,
                                                    _("Parts (*.csv *.json)") + ";;" + _("All files (*)"))
        return path or None

    def export_path(self, suggested: str, filters: str) -> Optional[str]:
        path, _unused = QFileDialog.getSaveFileName(self.parent, _("Export parts list"), suggested, filters)
        return path or None

    def price_file_path(self, start: str = "") -> Optional[str]:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Import prices"), start,
                                                    _("Prices (*.csv *.json)") + ";;" + _("All files (*)"))
        return path or None

    def confirm_price_import(self, lines: list[str], good: int) -> bool:
        """The price file's preview (every row: matched to what, or why not); True to import the good rows."""
        from rigbuilder.ui.pricing import confirm_price_import

        return confirm_price_import(self.parent, lines, good)

    def confirm_discard(self, name: str) -> str:
        """'save', 'discard' or 'cancel'."""
        r = QMessageBox.question(self.parent, _("Unsaved changes"), _("Save the changes to “{name}”?", name=name),
                                 QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                 | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(r, "cancel")

    def error(self, title: str, text: str) -> None:
        QMessageBox.warning(self.parent, title, text)

    def info(self, title: str, text: str) -> None:
        QMessageBox.information(self.parent, title, text)

    def ask_name_and_notes(self, name: str, notes: str) -> Optional[tuple[str, str]]:
        """The build's name and notes, edited in a small dialog; None if cancelled."""
        from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QPlainTextEdit

        dlg = QDialog(self.parent)
        dlg.setWindowTitle(_("Build name and notes"))
        name_edit = QLineEdit(name)
        name_edit.setMaxLength(200)
        notes_edit = QPlainTextEdit(notes)
        notes_edit.setPlaceholderText(_("Shown under the title of the printed parts list"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        form = QFormLayout(dlg)
        form.addRow(_("Name"), name_edit)
        form.addRow(_("Notes"), notes_edit)
        form.addRow(buttons)
        dlg.resize(460, 260)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return name_edit.text().strip(), notes_edit.toPlainText().strip()

    def ask_power_limit(self, gpu_num: int, current: Optional[float], board_power: float,
                        help=None) -> Optional[int]:
        """``help``: the suggestion and commands (``rigbuilder.ui.power_limit_dialog.LimitHelp``)."""
        from rigbuilder.ui import power_limit_dialog

        return power_limit_dialog.ask(self.parent, _("Power limit GPU {num}", num=gpu_num),
                                      _("Watts (full power {w:g} W = no limit):", w=board_power), current,
                                      board_power, help)

    def offer_currency(self, region: str, currency: str, current: str) -> bool:
        """Whether to switch the build to the chosen region's currency as well."""
        r = QMessageBox.question(self.parent, _("Currency"),
                                 _("{region} uses {currency}. Switch the build from {current} to {currency} as well "
                                   "(the electricity price and the budget converted)?", region=region,
                                   currency=currency, current=current))
        return r == QMessageBox.StandardButton.Yes

    def ask_price(self, part_name: str, scope: str, current, currencies, can_remove: bool = False):
        """Your price ("catalog") or the price paid ("build"): a PriceEntry, "remove" or None."""
        from rigbuilder.ui.pricing import ask_price

        return ask_price(self.parent, part_name, scope, current, currencies, can_remove)

    def ask_preferences(self, prefs, rates, shipped_rates):
        """Edit > Preferences: a PreferencesResult, or None if cancelled."""
        from rigbuilder.ui.preferences import ask_preferences

        return ask_preferences(self.parent, prefs, rates, shipped_rates)

    def ask_all_power_limits(self, gpus: int, current: Optional[float], board_power: float,
                             help=None) -> Optional[int]:
        """One limit for every GPU; ``board_power`` is the largest card's (that or more = no limit)."""
        from rigbuilder.ui import power_limit_dialog

        return power_limit_dialog.ask(self.parent, _("Power limit for all {n} GPUs", n=gpus),
                                      _("Watts per GPU (full power {w:g} W = no limit):", w=board_power), current,
                                      board_power, help)


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
        self.doc = BuildDocument(index, Build(settings=new_settings(self.prefs, index.prices.rates)), self)
        self.doc.set_undo_limit(self.prefs.get("edit/undo_limit"))
        self.setObjectName("MainWindow")
        self.board_view = BoardView(self.doc)
        self.board_view.setMinimumSize(480, 360)
        self.setCentralWidget(self.board_view)
        # The Build dock (controls and graphs) takes the full height on the right; the findings
        # run under the catalog and the board.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.catalog_panel = CatalogPanel(index)
        self.findings_panel = FindingsPanel()
        self.findings_panel.set_language(ui_language())  # issue 19: findings in the window's language
        self.parts_panel = BuildPartsPanel()
        # The graphs need pyqtgraph and numpy: about 0.2 s of imports. Those run on a thread once
        # the window is on screen, so the window answers the user meanwhile; the panel is then
        # made here, on the event loop (benchmarks/bench_ui.py times both).
        self.graphs = None
        self._graphs_import: Optional[threading.Thread] = None
        self.catalog_panel.setMinimumWidth(330)
        catalog_dock = self._dock("Catalog", N_("Catalog"), self.catalog_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        right = QTabWidget()
        self._graphs_scroll = QScrollArea()  # eight GPUs' limit sliders must not push the window past the screen
        self._graphs_scroll.setWidgetResizable(True)
        self._graphs_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._graphs_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        loading = QLabel(_("Loading the power and cost graphs…"))
        loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._graphs_scroll.setWidget(loading)
        right.addTab(self._graphs_scroll, _("Power && cost"))
        right.addTab(self.parts_panel, _("Parts"))
        self.right_tabs = right
        right.currentChanged.connect(self._show_parts)
        right.setMinimumWidth(400)
        build_dock = self._dock("Build", N_("Build"), right, Qt.DockWidgetArea.RightDockWidgetArea)
        findings_dock = self._dock("Findings", N_("Findings"), self.findings_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        # The GPU adviser (issue 17): a tab beside the build, made the first time it is shown.
        self.adviser = None
        self.adviser_dock = self._dock("Adviser", N_("Adviser"), QLabel(_("Loading the GPU adviser…")), Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(build_dock, self.adviser_dock)
        build_dock.raise_()
        self.adviser_dock.visibilityChanged.connect(self._adviser_shown)
        self.reports = ReportActions(self.doc, self.dialogs, self, status=self.statusBar().showMessage,
                                     start_dir=self._start_dir, workload=self._report_workload)
        self.money = MoneyActions(self.doc, catalog, self.dialogs, self.prefs, rates_path,
                                  status=self.statusBar().showMessage,
                                  refresh=lambda: self.catalog_panel.refresh_details(),
                                  report_build=lambda: (self.reports.titled_build(), self._report_workload()),
                                  restyle=self._restyle)
        self.status = QuietLabel()  # new counts on every edit: no relayout of the status bar
        self.status.setFixedWidth(self.status.fontMetrics().horizontalAdvance(
            self._status_text(88, 88, 88, "0123456789ab", "0.10.0") + "  "))
        self.status.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.status.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.statusBar().addPermanentWidget(self.status)
        self._make_actions()
        self.doc.changed.connect(self._on_changed)
        self.doc.pathChanged.connect(self._update_title)
        self.doc.undo_stack.cleanChanged.connect(self._update_title)
        self.board_view.partDropped.connect(self.drop_part)
        self.catalog_panel.table.drag_pixmap = self.board_view.card_pixmap  # the card to scale, not the row
        self.board_view.gpuMoved.connect(self.move_gpu)
        self.board_view.gpuDeleteRequested.connect(self.remove_gpu)
        self.board_view.powerLimitRequested.connect(self.ask_power_limit)
        self.board_view.allPowerLimitsRequested.connect(self.ask_all_power_limits)
        self.catalog_panel.partActivated.connect(lambda pid: self.drop_part(pid, None, False))
        self.findings_panel.findingSelected.connect(self._highlight)
        self.parts_panel.tree.itemSelectionChanged.connect(self._parts_selection)
        self.parts_panel.removeRequested.connect(self.remove_part)
        for signal, slot in ((self.catalog_panel.priceRequested, self.money.set_user_price),
                             (self.board_view.userPriceRequested, self.money.set_user_price),
                             (self.board_view.pricePaidRequested, self.money.set_price_paid),
                             (self.parts_panel.userPriceRequested, self.money.set_user_price),
                             (self.parts_panel.pricePaidRequested, self.money.set_price_paid),
                             (self.parts_panel.pricePaidEdited, self.money.price_paid_typed),
                             (self.parts_panel.conditionEdited, self.money.condition_chosen)):
            signal.connect(slot)
        size = first_window_size(self._available_geometry())
        self.resize(size)
        small = size.width() < 1440
        self.resizeDocks([findings_dock], [150 if size.height() < 800 else 190], Qt.Orientation.Vertical)
        # The board drawing fits the height: the catalog can take the width its filter columns need.
        self.resizeDocks([catalog_dock, build_dock], [340, 410] if small else [375, 460], Qt.Orientation.Horizontal)
        self._restore_layout()
        from rigbuilder.ui.appearance import apply_appearance

        apply_appearance(self)  # theme and units from the preferences
        self._on_changed()
        QTimer.singleShot(0, self, self._start_graphs_import)

    def _restyle(self) -> None:
        from rigbuilder.ui.appearance import apply_appearance

        apply_appearance(self)  # theme and units from the preferences

    def _available_geometry(self) -> QRect:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else QRect(0, 0, 1440, 900)

    # -- construction --------------------------------------------------------------------
    def _dock(self, name: str, title: str, widget: QWidget, area) -> QDockWidget:
        """``name``: the English name the saved layout knows the dock by; ``title``: its N_() title."""
        d = QDockWidget(_(title), self)
        d.setObjectName(f"dock-{name}")
        d.setWidget(widget)
        d.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                      | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, d)
        return d

    def _start_graphs_import(self) -> None:
        """Import numpy on a thread, then pyqtgraph and the panel on the GUI thread.

        Only numpy (no Qt) is imported off the GUI thread: pyqtgraph and the graphs module make
        PySide6 classes and signals when imported, and doing that on a second thread while the
        GUI thread runs Qt crashed the app now and then (a segfault about half a second after
        start in the packaged app, and in the window tests)."""
        if self.graphs is not None or self._graphs_import is not None:
            return

        def import_numpy() -> None:
            try:
                import numpy  # noqa: F401 (no Qt in it)
            except Exception:  # noqa: BLE001 - load_graphs() imports again, on the GUI thread, and says why
                pass

        self._graphs_import = threading.Thread(target=import_numpy, name="rigbuilder-numpy-import", daemon=True)
        self._graphs_import.start()
        self._graphs_poll = QTimer(self)
        self._graphs_poll.setInterval(15)
        self._graphs_poll.timeout.connect(self._graphs_imported)
        self._graphs_poll.start()

    def _graphs_imported(self) -> None:
        if self._graphs_import is not None and self._graphs_import.is_alive():
            return
        self._graphs_poll.stop()
        # Three turns of the event loop, so the window waits for none long: pyqtgraph is imported
        # (about 0.2 s), the panel is made (about 50 ms), then it is shown with the build and
        # painted (about 55 ms).
        QTimer.singleShot(0, self, self._import_pyqtgraph)

    def _import_pyqtgraph(self) -> None:
        try:
            import pyqtgraph  # noqa: F401
        except Exception:  # noqa: BLE001 - _make_graphs_panel() says why
            pass
        QTimer.singleShot(0, self, self._graphs_panel_ready)

    def _graphs_panel_ready(self) -> None:
        if self.graphs is None:
            self._graphs_panel = self._make_graphs_panel()
            QTimer.singleShot(0, self, self.load_graphs)

    _graphs_panel = None

    def _make_graphs_panel(self):
        if self._graphs_import is not None:
            self._graphs_import.join()  # at once when called from _graphs_imported
        try:
            from rigbuilder.ui.graphs import PowerCostPanel
        except Exception as e:  # noqa: BLE001 - a broken install: say so where the graphs would be
            failed = QLabel(_("The power and cost graphs could not be loaded:\n{error}\n\n"
                              "Reinstall rigbuilder; the checks and the command line still work.", error=str(e)))
            failed.setAlignment(Qt.AlignmentFlag.AlignCenter)
            failed.setWordWrap(True)
            return failed
        panel = PowerCostPanel()
        panel.settingsEdited.connect(self.edit_settings)
        panel.powerLimitEdited.connect(self.set_power_limit)
        return panel

    def load_graphs(self):
        """Make the power and cost panel (once) and show the build in it; None when the
        graphs cannot be loaded (the panel's place says why)."""
        if self.graphs is None:
            panel, self._graphs_panel = self._graphs_panel or self._make_graphs_panel(), None
            if isinstance(panel, QLabel):
                self._graphs_scroll.setWidget(panel)
                return None
            self._graphs_scroll.setWidget(panel)
            self.graphs = panel
            panel.follow(self.doc)  # it draws the build, then each change the document reports
        return self.graphs

    def _adviser_shown(self, visible: bool) -> None:
        if visible:
            self.load_adviser()

    def load_adviser(self):
        """Make the Adviser panel (once) and show the open build in it."""
        if self.adviser is None:
            try:
                from rigbuilder.ui.adviser_panel import AdviserPanel
            except Exception as e:  # noqa: BLE001 - a broken install: say so where the panel would be
                failed = QLabel(_("The GPU adviser could not be loaded:\n{error}", error=str(e)))
                failed.setWordWrap(True)
                self.adviser_dock.setWidget(failed)
                return None
            self.adviser = AdviserPanel(self.doc.index, self.doc.build.settings)
            self.adviser.drag_pixmap = self.board_view.card_pixmap
            scroll = QScrollArea()  # a short screen scrolls the panel instead of growing the window
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            scroll.setWidget(self.adviser)
            self.adviser_dock.setWidget(scroll)
        self.adviser.show_build(self.doc.build, self.doc.index)
        return self.adviser

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
        self.act_new = self._action(f, _("&New"), self.new_build, QKeySequence.StandardKey.New, _("Start a new build"))
        self.act_open = self._action(f, _("&Open…"), self.open_dialog, QKeySequence.StandardKey.Open, _("Open a .rig build"))
        self.recent_menu = f.addMenu(_("Open &Recent"))
        f.addSeparator()
        self.act_save = self._action(f, _("&Save"), self.save, QKeySequence.StandardKey.Save, _("Save the build"))
        self.act_save_as = self._action(f, _("Save &As…"), self.save_as, QKeySequence.StandardKey.SaveAs, _("Save the build under another name"))
        f.addSeparator()
        self.act_print = self._action(f, _("&Print…"), self.reports.print_report, QKeySequence.StandardKey.Print, _("Print the parts list"))
        self.act_preview = self._action(f, _("Print Pre&view…"), self.reports.print_preview, None, _("Preview the printed parts list"))
        export = f.addMenu(_("&Export"))
        for label, fmt in ((N_("PDF…"), "pdf"), (N_("Markdown…"), "md"), (N_("CSV…"), "csv"),
                           (N_("Plain text…"), "txt"), (N_("HTML…"), "html")):
            self._action(export, _(label), lambda _checked=False, fmt=fmt: self.export_report(fmt), None,
                         _("Export the parts list as {format}", format=fmt.upper()))
        f.addSeparator()
        self.act_import = self._action(f, _("&Import Parts…"), self.import_parts,
                                       tip=_("Add your own parts to the catalog from a CSV or JSON file (a template: "
                                             "rigbuilder catalog template KIND); all rows or none"))
        self.act_import_list = self._action(f, _("Import Parts &List…"), self.import_parts_list, QKeySequence("Ctrl+Shift+I"),
                                            _("Make a build from a PCPartPicker part list (its text or Markdown export)"))
        self.act_cluster = self._action(f, _("Open &Cluster Plan…"), self.open_cluster_dialog, None,
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
        self.act_arrange = self._action(e, _("&Arrange GPUs"), self.arrange_gpus, QKeySequence("Ctrl+L"),
                                        _("Place the GPUs where they cause the fewest and mildest findings"))
        self.act_limit = self._action(e, _("Power &Limit for Selected GPU…"),
                                     lambda: self.ask_power_limit(self.board_view.selected_gpu), None,
                                     _("A power limit in watts for the GPU selected on the board"))
        self.act_limit_all = self._action(e, _("Power Limit for &All GPUs…"), self.ask_all_power_limits, None,
                                          _("One power limit in watts for every GPU"))
        self.act_rename = self._action(e, _("Build &Name and Notes…"), self.edit_name_and_notes, None,
                                       _("Name the build and add notes (the title of the printed parts list)"))
        self.money.add_actions(e, self._action)
        tools = mb.addMenu(_("&Tools"))
        self.act_optimise = self._action(tools, _("&Optimise Build…"), self.optimise_build, QKeySequence("Ctrl+Shift+O"),
                                         _("Search the catalog for the build with the most throughput per total cost"))
        self.act_compare = self._action(tools, _("&Compare Builds…"), self.compare_builds, None,
                                        _("Two to four builds side by side: throughput, VRAM, power, cost of "
                                          "ownership, findings, and against renting"))
        v = mb.addMenu(_("&View"))
        for d in self.findChildren(QDockWidget):
            v.addAction(d.toggleViewAction())
        self._make_toolbar()
        h = mb.addMenu(_("&Help"))
        self._action(h, _("&Rule Codes"), self.show_rule_codes, QKeySequence.StandardKey.HelpContents,
                     _("What each finding code means"))
        self._action(h, _("&About rigbuilder"), self.show_about, None, _("Version, licence and data sources"))
        self._update_recent_menu()
        for p in self._recent():  # temporaries a killed save of a recent build left behind
            clean_stale(p)

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
        # Short, fixed labels: the menu's undo action renames itself ("Undo Move GPU 2 ..."), which
        # would resize the toolbar on every edit. The tooltip says what will be undone.
        stack = self.doc.undo_stack
        self.tb_undo = QAction(icon(sp.SP_ArrowBack), _("Undo"), self)
        self.tb_redo = QAction(icon(sp.SP_ArrowForward), _("Redo"), self)
        self.tb_undo.triggered.connect(stack.undo)
        self.tb_redo.triggered.connect(stack.redo)
        stack.canUndoChanged.connect(self.tb_undo.setEnabled)
        stack.canRedoChanged.connect(self.tb_redo.setEnabled)
        self.tb_undo.setEnabled(stack.canUndo())
        self.tb_redo.setEnabled(stack.canRedo())
        for act in (self.act_new, self.act_open, self.act_save, None, self.tb_undo, self.tb_redo, None,
                    self.act_arrange, self.act_print):
            if act is None:
                tb.addSeparator()
            else:
                tb.addAction(act)
        # Their tooltips are made when asked for: an action's tooltip set on every edit made the
        # toolbar lay out and repaint its buttons each time.
        self._history_buttons = {tb.widgetForAction(a): a for a in (self.tb_undo, self.tb_redo)}
        for button in self._history_buttons:
            button.installEventFilter(self)

    def history_tooltip(self, action: QAction) -> str:
        """What the toolbar's Undo or Redo button says it will do."""
        stack = self.doc.undo_stack
        if action is self.tb_undo:
            return _("Undo {what} (Ctrl+Z)", what=stack.undoText()) if stack.canUndo() else _("Undo")
        return _("Redo {what} (Ctrl+Shift+Z)", what=stack.redoText()) if stack.canRedo() else _("Redo")

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.ToolTip and obj in getattr(self, "_history_buttons", {}):
            QToolTip.showText(event.globalPos(), self.history_tooltip(self._history_buttons[obj]), obj)
            return True
        return super().eventFilter(obj, event)

    # -- state -> widgets --------------------------------------------------------------
    def _on_changed(self) -> None:
        doc = self.doc
        judged = doc.last_change.parts or doc.last_change.settings  # not only the name or notes
        if judged:
            self.findings_panel.show_findings(
                doc.findings, {g.num: f"{g.gpu.name} ({g.gpu.cooler})" for g in doc.context.gpus})
        self._parts_stale = True
        self._show_parts()
        if self.adviser is not None and judged and self.adviser_dock.isVisible():
            self.adviser.show_build(doc.build, doc.index)
        c = counts(doc.findings)
        self.status.setText(self._status_text(len(doc.build.gpus), c["error"], c["warning"], doc.index.version,
                                              __version__))
        self._update_title()

    @staticmethod
    def _status_text(gpus: int, errors: int, warnings: int, catalog: str, version: str) -> str:
        """The status bar's counts: '2 GPUs · 1 error · 0 warnings · catalog … · rigbuilder …'."""
        return _("{gpus} · {errors} · {warnings} · catalog {catalog} · rigbuilder {version}",
                 gpus=_("{n} GPU", n=gpus) if gpus == 1 else _("{n} GPUs", n=gpus),
                 errors=_("{n} error", n=errors) if errors == 1 else _("{n} errors", n=errors),
                 warnings=_("{n} warning", n=warnings) if warnings == 1 else _("{n} warnings", n=warnings),
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

    # -- edits (each one an edit object made undoable by the document) -----------------------
    def do(self, edit: Edit) -> bool:
        """Apply ``edit`` as one undoable step; a refused one says why in the status bar."""
        try:
            return self.doc.apply(edit)
        except EditError as e:
            self.statusBar().showMessage(_("Not done: {error}", error=e.message), 8000)
            if self.graphs is not None:  # its controls may show the refused value: show the build again
                self.graphs.reset_controls()
            return False

    def drop_part(self, part_id: str, position: Optional[int], riser: bool) -> None:
        """A catalog part dropped on the board (or activated in the catalog: no position)."""
        part = self.doc.index.get(part_id)
        if part is None:
            self.dialogs.error(_("Unknown part"), _("The catalog has no part “{part}”.", part=part_id))
            return
        self.do(edit_for_part(part, position, riser, self.doc.build))

    def move_gpu(self, idx: int, position: Optional[int], riser: bool) -> None:
        g = self.doc.build.gpus[idx] if 0 <= idx < len(self.doc.build.gpus) else None
        if g is not None and riser and g.mount == MOUNT_RISER:
            return  # already on a riser
        self.do(MoveGpu(idx, position, riser))

    def remove_gpu(self, idx: int) -> None:
        if idx is None:
            return
        if self.do(RemoveItem("gpu", idx)):
            self.board_view.selected_gpu = None

    def delete_selected(self) -> None:
        if self.parts_panel.tree.hasFocus() and self.parts_panel.selected():
            role, i = self.parts_panel.selected()
            self.remove_part(role, i)
        elif self.board_view.selected_gpu is not None:
            self.remove_gpu(self.board_view.selected_gpu)

    def remove_part(self, role: str, i: int) -> None:
        self.do(RemoveItem(role, i))

    def set_power_limit(self, idx: int, watts) -> None:
        self.do(SetPowerLimit(idx, watts))

    def set_all_power_limits(self, watts) -> None:
        self.do(SetAllPowerLimits(watts))

    def edit_name_and_notes(self) -> None:
        b = self.doc.build
        got = self.dialogs.ask_name_and_notes(b.name, b.notes)
        if got is None:
            return
        name, notes = got
        try:
            self.doc.apply(Rename(name, notes))
        except EditError as e:
            self.dialogs.error(_("Build name and notes"), _("Not changed: {error}", error=e.message))

    def ask_power_limit(self, idx: Optional[int]) -> None:
        if idx is None or not 0 <= idx < len(self.doc.build.gpus):
            self.statusBar().showMessage(_("Select a GPU on the board first."), 4000)
            return
        g = self.doc.build.gpus[idx]
        part = self.doc.index.get(g.part_id)
        if part is None or part.KIND != "gpu":
            self.statusBar().showMessage(_("GPU {num}: {part} is not a GPU in this catalog.", num=idx + 1, part=g.part_id), 6000)
            return
        w = self.dialogs.ask_power_limit(idx + 1, g.power_limit_w, part.board_power_w,
                                         help=self._limit_help(idx))
        if w is not None:
            self.set_power_limit(idx, limit_for(w, part.board_power_w))

    def _limit_help(self, idx: Optional[int]):
        from rigbuilder.ui.power_limit_dialog import help_for

        return help_for(self.doc.build, self.doc.index, idx)

    def ask_all_power_limits(self) -> None:
        """Edit > Power Limit for All GPUs: one limit in watts for every card."""
        cards = [self.doc.index.get(g.part_id) for g in self.doc.build.gpus]
        powers = [p.board_power_w for p in cards if p is not None and p.KIND == "gpu"]
        if not powers:
            self.statusBar().showMessage(_("Add a GPU first."), 4000)
            return
        limits_now = {g.power_limit_w for g in self.doc.build.gpus}
        current = limits_now.pop() if len(limits_now) == 1 else None
        w = self.dialogs.ask_all_power_limits(len(self.doc.build.gpus), current, max(powers),
                                              help=self._limit_help(None))
        if w is not None:
            self.set_all_power_limits(limit_for(w, max(powers)))

    def edit_settings(self, changes: dict) -> None:
        changes = self.money.settings_changes(changes)  # a new currency converts, not relabels
        if changes:
            self.do(ChangeSettings.of(**changes))
        elif self.graphs is not None:
            self.graphs.reset_controls()

    def arrange_gpus(self) -> None:
        if self.doc.context.board is None:
            self.dialogs.error(_("Arrange GPUs"), _("Choose a motherboard first: drag one from the catalog onto the board area."))
            return
        from rigbuilder.rules.arrange import arrange

        try:
            res = arrange(self.doc.build, self.doc.index)
        except ValueError as e:
            self.dialogs.error(_("Arrange GPUs"), str(e))
            return
        moved = self.do(ApplyArrangement.of(res.build))
        if not moved and res.fits:
            self.statusBar().showMessage(_("The GPUs are already in the best placement."), 8000)
            return
        if res.fits:
            self.statusBar().showMessage(_("Arranged: the placement with the fewest findings."), 8000)
        else:
            self.dialogs.info(_("Arrange GPUs"), "\n\n".join(render_ui(a) for a in res.advice))

    # -- files -------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        if not self.doc.dirty:
            return True
        answer = self.dialogs.confirm_discard(self.doc.path.name if self.doc.path else shown_name(self.doc.build.name))
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_build(self) -> None:
        if self.maybe_save():
            self.doc.replace(Build(settings=self.money.new_settings()), None)

    def open_cluster_dialog(self) -> None:
        path, _unused = QFileDialog.getOpenFileName(self, _("Open cluster plan"), str(self._start_dir()),
                                                    _("Cluster plans (*.rigcluster)") + ";;" + _("All files (*)"))
        if path:
            self.open_cluster(path)

    def open_cluster(self, path: str):
        """Show a cluster plan in its own window; its machines open here, in the board view."""
        from rigbuilder.files.buildfile import BuildFileError
        from rigbuilder.ui.cluster_view import ClusterView, lab_figures, open_cluster

        lab = lab_figures(self.prefs.get("lab/database_url"), self.prefs.get("lab/password_file"))
        try:
            plan, cc = open_cluster(Path(path), self.doc.index, lab)
        except BuildFileError as e:
            self.dialogs.error(_("Cannot open cluster plan"), render_ui(e.args[0] if e.args else str(e)))
            return None
        view = ClusterView(plan, cc, Path(path), lambda p: self.open_path(p), parent=self, lab=lab)
        view.setWindowFlag(Qt.WindowType.Window)
        view.show()
        self._cluster_views = [*getattr(self, "_cluster_views", []), view]
        return view

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.dialogs.open_path(str(self._start_dir()))
        if path:
            self.open_path(path, ask=False)

    def _start_dir(self) -> Path:
        """Where file dialogs start: beside the open build, else where the user last saved or
        opened one, else the home folder (not the process's working directory)."""
        if self.doc.path is not None:
            return self.doc.path.parent
        last = self.settings.value("last_dir", "")
        if isinstance(last, str) and last and Path(last).is_dir():
            return Path(last)
        return Path.home()

    def open_path(self, path: str, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            build = load(Path(path))
        except BuildFileError as e:
            self.dialogs.error(_("Cannot open build"), str(e))
            return False
        self.doc.replace(build, Path(path))
        missing = self.doc.context.missing
        if missing:
            self.dialogs.error(_("Parts not in the catalog"),
                               _("{path} names {n} part(s) this catalog lacks: {parts}. They are kept in the "
                                 "file and shown as findings; nothing else was lost.",
                                 path=path, n=len(missing), parts=", ".join(missing)))
        self._add_recent(path)
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._write(self.doc.path)

    def save_as(self) -> bool:
        suggested = str(self.doc.path or self._start_dir() / f"{file_stem(shown_name(self.doc.build.name))}.rig")
        path = self.dialogs.save_path(suggested)
        return bool(path) and self._write(Path(path))

    def _write(self, path: Path) -> bool:
        try:
            save(self.doc.build, path)
        except BuildFileError as e:
            self.dialogs.error(_("Cannot save"), _("{error}. The build is still open and unchanged.", error=str(e)))
            return False
        except OSError as e:
            self.dialogs.error(_("Cannot save"), _("{path}: {error}. The build is still open; try another folder.",
                                                 path=str(path), error=str(e.strerror or e)))
            return False
        self.doc.set_path(path)
        self.settings.setValue("last_dir", str(path.parent))
        self._add_recent(str(path))
        self.statusBar().showMessage(_("Saved {path}", path=str(path)), 4000)
        return True

    def _recent(self) -> list[str]:
        v = self.settings.value("recent_files", [])
        if isinstance(v, str):
            v = [v]
        return [str(x) for x in (v or [])]

    def _add_recent(self, path: str) -> None:
        items = [p for p in self._recent() if p != path]
        self.settings.setValue("recent_files", [path] + items[: MAX_RECENT - 1])
        self._update_recent_menu()

    def _update_recent_menu(self) -> None:
        self.recent_menu.clear()
        items = self._recent()
        for p in items:
            self.recent_menu.addAction(Path(p).name, lambda p=p: self.open_path(p)).setToolTip(p)
        self.recent_menu.setEnabled(bool(items))

    # -- reports (rigbuilder.ui.report_actions) ---------------------------------------------
    def _report_html(self) -> str:
        return self.reports.html()

    def _report_workload(self):
        """The workload the Adviser shows, for the report's throughput line (None before it was opened)."""
        return self.adviser.current_workload() if self.adviser is not None else None

    def export_report(self, fmt: str) -> None:
        self.reports.export(fmt)

    def import_parts(self) -> None:
        """File > Import Parts: the user's own parts from CSV or JSON, all rows or none."""
        if self.catalog is None or self.catalog.user_path is None:
            self.dialogs.error(_("Import parts"), _("This window has no database for your own parts."))
            return
        path = self.dialogs.import_path(str(self._start_dir()))
        if not path:
            return
        from rigbuilder.catalog.userparts import ImportError_, import_parts

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            res = import_parts(self.catalog.user_engine, Path(path), self.catalog.index)
        except ImportError_ as e:
            shown = "\n".join(str(p) for p in e.problems[:15])
            more = "\n" + _("… and {n} more", n=len(e.problems) - 15) if len(e.problems) > 15 else ""
            self.dialogs.error(_("Nothing imported"), _("{file} has {n} problem(s); nothing was imported:\n\n{problems}",
                                                        file=Path(path).name, n=len(e.problems), problems=shown + more))
            return
        except OSError as e:
            self.dialogs.error(_("Import parts"), _("Could not read {path}:\n{error}", path=path, error=str(e.strerror or e)))
            return
        except ValueError as e:  # the user's database cannot be opened or written (UserDatabaseError)
            self.dialogs.error(_("Import parts"), _("Nothing imported: {error}",
                                                    error=render_ui(e.args[0]) if e.args and isinstance(e.args[0], str)
                                                    else str(e)))
            return
        finally:
            QApplication.restoreOverrideCursor()
        self.catalog.reload_user()
        self.catalog_panel.set_index(self.catalog.index)
        self.doc.recheck()  # a build naming these parts now finds them
        self.statusBar().showMessage(_("{file}: {added} added, {updated} updated, {unchanged} unchanged",
                                       file=Path(path).name, added=res.added, updated=res.updated,
                                       unchanged=res.unchanged), 8000)

    def import_parts_list(self) -> None:
        """File > Import Parts List: a PCPartPicker list as a new build or added to this one."""
        from rigbuilder.ui.list_import_dialog import import_parts_list

        import_parts_list(self)

    def show_rule_codes(self) -> None:
        from rigbuilder.ui.help import show_rule_codes

        self._rule_codes = show_rule_codes(self, ui_language())  # kept open beside the findings

    optimiser = None

    def optimise_build(self) -> None:
        """Tools > Optimise Build: the optimiser's dialog (one per window, kept while open)."""
        if self.optimiser is None:
            from rigbuilder.rules.optimise import scoring as optimise_scoring
            from rigbuilder.ui.optimiser_dialog import OptimiserDialog

            from rigbuilder.domain.edits import ReplaceBuild

            s = self.doc.build.settings
            self.optimiser = OptimiserDialog(
                self.doc.index, lambda build, text: self.do(ReplaceBuild(build, text)),
                optimise_scoring.shipped_scorer, optimise_scoring.workload_ids() or ["cnn-training"],
                self.doc.index.prices.rates.currencies(), self, region=s.region, currency=s.currency,
                sized_workloads=optimise_scoring.sized_workloads(), compare=self.add_to_comparison)
        self.optimiser.show()
        self.optimiser.raise_()
        self.optimiser.activateWindow()

    comparer = None

    def add_to_comparison(self, label: str, build) -> None:
        """A build (an optimiser answer) into Tools > Compare Builds, opened if needed."""
        self.compare_builds()
        self.comparer.add(label, build)

    def compare_builds(self) -> None:
        """Tools > Compare Builds: the open build and build files side by side (kept while open)."""
        if self.comparer is None:
            from rigbuilder.files.buildfile import load
            from rigbuilder.ui.compare_dialog import CompareDialog

            def current():
                b = self.doc.build.clone()
                return (self.doc.path.name if self.doc.path else shown_name(b.name)), b

            self.comparer = CompareDialog(self.doc.index, current, lambda p: load(Path(p)), self,
                                          start_dir=str(self._start_dir()))
        self.comparer.show()
        self.comparer.raise_()
        self.comparer.activateWindow()

    def show_about(self) -> None:
        from rigbuilder.ui.about import show_about

        show_about(self)

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
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        event.accept()
