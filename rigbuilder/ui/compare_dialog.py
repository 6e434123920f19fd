"""Tools > Compare Builds: two to four builds side by side (the open build, build files, the shipped
example builds, optimiser answers) on the same workloads, usage and currency, with each against
renting the same GPUs; the table ends with one verdict per workload and says which kind of price each
column's purchase rests on.

:func:`open_comparison` is the entry point for any window that has builds to compare (the
optimiser's "Compare the Top 3"): it opens the dialog with them and shows the table at once.

The dialog decides nothing: it collects the builds and the question, calls
:func:`rigbuilder.rules.compare.compare` and shows :func:`rigbuilder.rules.compare.table`, the same
rows ``rigbuilder compare`` prints.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QCheckBox, QDialog, QDoubleSpinBox, QFileDialog,
                               QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QListWidget, QMenu, QPushButton,
                               QSpinBox, QTableWidget, QTableWidgetItem, QTextBrowser, QVBoxLayout, QWidget)

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.rules import compare as C
from rigbuilder.ui.i18n import _, render_ui


class CompareDialog(QDialog):
    """``current``: the open build (label, build) when asked (None: no open build to add); ``load``: a
    .rig path -> Build (raises ValueError with a message a person can act on); ``choose_file``: asks
    for a .rig path ("" when cancelled; a file dialog unless a test gives another)."""

    def __init__(self, index: PartIndex, current: Optional[Callable[[], tuple[str, Build]]],
                 load: Callable[[str], Build], parent=None, start_dir: str = "",
                 choose_file: Optional[Callable[[], str]] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Compare Builds"))
        self.index, self.current, self.load, self.start_dir = index, current, load, start_dir
        self.choose_file = choose_file or self._file_dialog
        self.builds: list[tuple[str, Build]] = []
        lay = QVBoxLayout(self)

        top = QHBoxLayout()
        box = QGroupBox(_("Builds (2 to 4)"))
        bl = QVBoxLayout(box)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setToolTip(_("The builds to compare, in the order of the columns"))
        bl.addWidget(self.list)
        row = QHBoxLayout()
        self.add_current = QPushButton(_("Add &Open Build"))
        self.add_current.setToolTip(_("Add the build open in the planner, as it is now"))
        self.add_current.clicked.connect(self._add_current)
        self.add_file = QPushButton(_("Add &File…"))
        self.add_file.setToolTip(_("Add a saved .rig build file"))
        self.add_file.clicked.connect(self._add_file)
        self.add_example = QPushButton(_("Add E&xample"))
        self.add_example.setToolTip(_("Add one of the example builds that ship with rigbuilder; each answers a "
                                      "question"))
        self.examples_menu = QMenu(self.add_example)
        for ex, label, path in _examples():
            act = self.examples_menu.addAction(_(label), lambda p=str(path), lb=_(label): self.add_path(p, lb))
            act.setToolTip(_(ex.question))
            act.setStatusTip(_(ex.question))
        self.examples_menu.setToolTipsVisible(True)
        self.add_example.setMenu(self.examples_menu)
        self.remove = QPushButton(_("&Remove"))
        self.remove.setToolTip(_("Remove the selected build from the comparison"))
        self.remove.clicked.connect(self._remove)
        self.add_current.setVisible(current is not None)
        for b in (self.add_current, self.add_file, self.add_example, self.remove):
            row.addWidget(b)
        bl.addLayout(row)
        top.addWidget(box, 2)

        q = QGroupBox(_("Question"))
        ql = QGridLayout(q)
        self.workloads: list[tuple[QCheckBox, object]] = []
        for i, wl in enumerate(C.default_workloads()):
            cb = QCheckBox(render_ui(C.workload_label(wl)))
            cb.setChecked(True)
            self.workloads.append((cb, wl))
            ql.addWidget(cb, i, 0, 1, 2)
        n = len(self.workloads)
        self.years = QSpinBox()
        self.years.setRange(0, 50)
        self.years.setValue(3)
        self.years.setSuffix(_(" years"))
        self.years.setToolTip(_("Years of energy in the cost of ownership"))
        ql.addWidget(QLabel(_("Cost of ownership over")), n, 0)
        ql.addWidget(self.years, n, 1)
        self.rent = QDoubleSpinBox()
        self.rent.setRange(0.0, 1000.0)
        self.rent.setDecimals(2)
        self.rent.setSpecialValueText(_("published examples"))
        self.rent.setToolTip(_("Cloud price per GPU-hour in the first build's currency, for every build; 0 uses "
                               "each build's own (Power & cost: Rent per GPU-hour), else published, dated example "
                               "prices for the same GPU"))
        ql.addWidget(QLabel(_("Rent per GPU-hour")), n + 1, 0)
        ql.addWidget(self.rent, n + 1, 1)
        top.addWidget(q, 1)
        lay.addLayout(top)

        self.go = QPushButton(_("&Compare"))
        self.go.setDefault(True)
        self.go.clicked.connect(self.run)
        lay.addWidget(self.go, 0, Qt.AlignmentFlag.AlignRight)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(True)
        lay.addWidget(self.table, 3)
        self.verdict = QLabel()
        self.verdict.setObjectName("compare_verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.verdict)
        self.notes = QTextBrowser()
        self.notes.setOpenExternalLinks(True)
        lay.addWidget(self.notes, 1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.resize(1100, 720)
        self._refresh()

    # -- the list of builds -------------------------------------------------------------------------
    def add(self, label: str, build: Build, *, compare: bool = True) -> None:
        """Add a build; with two or more in the list the table is shown at once (``compare``)."""
        if len(self.builds) >= C.MAX_BUILDS:
            self.status.setText(_("At most {n} builds can be compared.", n=C.MAX_BUILDS))
            return
        self.builds.append((label, build))
        self._refresh()
        if compare and len(self.builds) >= 2:
            self.run()

    def _add_current(self) -> None:
        if self.current is not None:
            label, build = self.current()
            self.add(label, build)

    def _file_dialog(self) -> str:
        path, _unused = QFileDialog.getOpenFileName(self, _("Add build file"), self.start_dir,
                                                    _("rigbuilder builds (*.rig)"))
        return path

    def _add_file(self) -> None:
        path = self.choose_file()
        if path:
            self.add_path(path)

    def add_path(self, path: str, label: str = "") -> None:
        try:
            build = self.load(path)
        except ValueError as e:
            self.status.setText(render_ui(e.args[0] if e.args else str(e)))
            return
        if label:  # an example: its name in the window's language, not the file's English one
            from dataclasses import replace

            build = replace(build, name=label)
        self.add(label or Path(path).name, build)

    def _remove(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.builds):
            del self.builds[row]
            self._refresh()

    def _refresh(self) -> None:
        self.list.clear()
        for label, b in self.builds:
            name = render_ui(b.name)  # a generated name in the window's language
            self.list.addItem(f"{label} ({name})" if name and name != label else label)
        self.add_current.setEnabled(len(self.builds) < C.MAX_BUILDS)
        self.add_file.setEnabled(len(self.builds) < C.MAX_BUILDS)
        self.add_example.setEnabled(len(self.builds) < C.MAX_BUILDS)
        self.remove.setEnabled(bool(self.builds))
        self.go.setEnabled(len(self.builds) >= 2)
        if len(self.builds) < 2:
            self.status.setText(_("Add two to four builds: the open one, saved build files or the examples."))
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            self.verdict.clear()
            self.notes.clear()

    # -- the comparison -----------------------------------------------------------------------------
    def question(self):
        wls = [wl for cb, wl in self.workloads if cb.isChecked()]
        cloud = None
        if self.rent.value() > 0:
            from rigbuilder.models.renting import CloudPrice

            cloud = CloudPrice("", self.rent.value(), self.builds[0][1].settings.currency, yours=True)
        return wls, cloud

    def run(self) -> Optional[C.Comparison]:
        if len(self.builds) < 2:
            return None
        wls, cloud = self.question()
        if not wls:
            self.status.setText(_("Choose at least one workload."))
            return None
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            result = C.compare(self.builds, self.index, wls, years=float(self.years.value()), cloud=cloud)
        except ValueError as e:
            self.status.setText(render_ui(e.args[0] if e.args else str(e)))
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self.show_result(result)
        return result

    def show_result(self, result: C.Comparison) -> None:
        heads, rows, notes = C.table(result)
        self.table.clear()
        self.table.setColumnCount(len(heads))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels(heads)
        self.table.setVerticalHeaderLabels([render_ui(label) for label, _cells in rows])
        for r, (_label, cells) in enumerate(rows):
            for c, cell in enumerate(cells):
                item = QTableWidgetItem(render_ui(cell))
                item.setToolTip(render_ui(cell))
                self.table.setItem(r, c, item)
        import html

        lines = [render_ui(v) for v in C.verdicts(result)]
        self.verdict.setText("<b>" + html.escape(_("Verdict:")) + "</b><br>"
                             + "<br>".join(html.escape(x) for x in lines))
        self.verdict.setToolTip("\n".join(lines))
        self.notes.setHtml("<br>".join(html.escape(render_ui(n)) for n in notes))
        self.status.setText(_("Compared {n} builds.", n=len(result.columns)))


def _examples():
    from rigbuilder.files.examples import example_builds

    return example_builds()


def _index_near(widget: Optional[QWidget]) -> Optional[PartIndex]:
    """The catalog of the window ``widget`` sits in: its own ``index``, or its document's."""
    w = widget
    while w is not None:
        for cand in (getattr(w, "index", None), getattr(getattr(w, "doc", None), "index", None)):
            if isinstance(cand, PartIndex):
                return cand
        w = w.parentWidget()
    return None


def open_comparison(parent: Optional[QWidget], builds, index: Optional[PartIndex] = None) -> CompareDialog:
    """Open Compare Builds over ``parent`` with ``builds`` ((label, Build) pairs, at most four are
    taken) and show the table at once: what the optimiser's "Compare the Top 3" calls. The catalog is
    ``index``, else the one of the window ``parent`` sits in. Returns the dialog (shown, not modal)."""
    from rigbuilder.files.buildfile import BuildFileError, load

    idx = index if index is not None else _index_near(parent)
    if idx is None:
        raise ValueError("open_comparison: no catalog: pass index=")  # a programming error, not a user's

    def read(path: str) -> Build:
        try:
            return load(Path(path))
        except BuildFileError as e:
            raise ValueError(e.args[0] if e.args else str(e)) from None

    dlg = CompareDialog(idx, None, read, parent)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    items = list(builds)[: C.MAX_BUILDS]
    for label, build in items:
        dlg.add(label, build, compare=False)
    if len(dlg.builds) >= 2:
        dlg.run()
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg
