"""The windows the Tools and Help menus open beside the main window: Optimise Build, Compare Builds,
a cluster plan, the rule codes and About. Each is made on first use and kept while open.

Given what it needs, not the window: the document, the parent widget the windows open over, the
preferences (the lab database a cluster plan reads), and callbacks: ``do`` (an edit as one
undoable step), ``start_dir`` (where file dialogs start) and ``open_path`` (a cluster's machine
opened in the main window)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from rigbuilder.ui.i18n import _, render_ui, ui_language
from rigbuilder.ui.report_actions import shown_name

if TYPE_CHECKING:
    from rigbuilder.ui.document import BuildDocument


class ToolWindows:
    def __init__(self, doc: "BuildDocument", parent: QWidget, prefs: Any, dialogs: Any, *,
                 do: Callable[[Any], bool], start_dir: Callable[[], Path],
                 open_path: Callable[[str], bool], open_build: Callable[[Any], bool] = lambda b: False) -> None:
        self.doc, self.parent, self.prefs, self.dialogs = doc, parent, prefs, dialogs
        self.do, self.start_dir, self.open_path, self.open_build = do, start_dir, open_path, open_build
        self.example_comparison = None
        self.optimiser = None  # Tools > Optimise Build's dialog, once opened
        self.comparer = None  # Tools > Compare Builds' dialog, once opened
        self.cluster_views: list = []
        self.rule_codes = None  # Help > Rule Codes, kept open beside the findings

    def optimise_build(self) -> None:
        """Tools > Optimise Build: the optimiser's dialog (one per window, kept while open)."""
        if self.optimiser is None:
            from rigbuilder.domain.edits import ReplaceBuild
            from rigbuilder.rules.optimise import scoring as optimise_scoring
            from rigbuilder.ui.optimiser_dialog import OptimiserDialog

            s = self.doc.build.settings
            self.optimiser = OptimiserDialog(
                self.doc.index, lambda build, text: self.do(ReplaceBuild(build, text)),
                optimise_scoring.shipped_scorer, optimise_scoring.workload_ids() or ["cnn-training"],
                self.doc.index.prices.rates.currencies(), self.parent, region=s.region, currency=s.currency,
                sized_workloads=optimise_scoring.sized_workloads(), compare=self.add_to_comparison)
        _bring_up(self.optimiser)

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

            self.comparer = CompareDialog(self.doc.index, current, lambda p: load(Path(p)), self.parent,
                                          start_dir=str(self.start_dir()),
                                          choose_file=lambda: self.dialogs.open_path(str(self.start_dir())) or "")
        _bring_up(self.comparer)

    def compare_with(self) -> None:
        """File > Compare With…: the open build against a build file (or, from the dialog's Add Example,
        a shipped example); the table shows as soon as the second build is in."""
        self.compare_builds()
        c = self.comparer
        if not c.builds:
            c._add_current()
        c._add_file()

    def open_example(self, example) -> None:
        """File > Examples: a shipped example opened as what it is: a build (untitled, so that Save asks
        where), two builds side by side, or a cluster plan."""
        from rigbuilder.files.buildfile import BuildFileError, load
        from rigbuilder.files.examples import paths
        from rigbuilder.ui.compare_dialog import open_comparison

        files = paths(example)
        if example.kind == "cluster":
            self.open_cluster(str(files[0]))
            return
        try:
            builds = [load(p) for p in files]
        except BuildFileError as e:
            self.dialogs.error(_("Cannot open build"), render_ui(e.args[0] if e.args else str(e)))
            return
        if example.kind == "compare":
            from dataclasses import replace

            named = [(_(label), replace(b, name=_(label))) for label, b in zip(example.labels, builds)]
            self.example_comparison = open_comparison(self.parent, named, self.doc.index)
            return
        if self.open_build(builds[0]):
            self.dialogs.info(_("Example"), _(example.question))

    def open_cluster_dialog(self) -> None:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Open cluster plan"), str(self.start_dir()),
                                                    _("Cluster plans (*.rigcluster)") + ";;" + _("All files (*)"))
        if path:
            self.open_cluster(path)

    def open_cluster(self, path: str):
        """Show a cluster plan in its own window, to change and save; its machines open in the main
        window's board view."""
        from rigbuilder.files import clusterfile
        from rigbuilder.files.buildfile import BuildFileError

        try:
            plan = clusterfile.load(Path(path))
            builds = {lm.machine.build: lm.build for lm in clusterfile.load_machines(plan, Path(path))}
        except BuildFileError as e:
            self.dialogs.error(_("Cannot open cluster plan"), render_ui(e.args[0] if e.args else str(e)))
            return None
        return self._cluster_window(plan, Path(path), builds)

    def new_cluster(self):
        """File > New Cluster Plan: an empty plan with the open build as its first machine (when it has GPUs)."""
        from rigbuilder.domain.cluster import ClusterPlan

        view = self._cluster_window(ClusterPlan("", ()), None, {})
        if self.doc.build.gpus:
            view.add_current()
            view.undo_stack.clear()
        return view

    def add_to_cluster(self, label: str, build, count: int = 1):
        """A build (an optimiser answer) as a machine of the cluster plan open last, or of a new one."""
        from shiboken6 import isValid

        from rigbuilder.domain.cluster import ClusterPlan

        open_ = [v for v in self.cluster_views if isValid(v) and v.isVisible()]
        view = open_[-1] if open_ else self._cluster_window(ClusterPlan("", ()), None, {})
        view.add_build(label, build, count)
        _bring_up(view)
        return view

    def _cluster_window(self, plan, path, builds):
        from rigbuilder.files.buildfile import load
        from rigbuilder.ui.cluster_editor import ClusterEditor
        from rigbuilder.ui.cluster_view import lab_figures

        url, passfile = self.prefs.get("lab/database_url"), self.prefs.get("lab/password_file")
        lab = lab_figures(url, passfile)

        def lab_db():
            from rigbuilder.catalog.labdb import LabDb

            return LabDb.open(url, passfile=Path(passfile).expanduser() if passfile else None) if url else None

        def current():
            b = self.doc.build.clone()
            return (self.doc.path.name if self.doc.path else shown_name(b.name)), b

        def ask_path(save: bool, suggested: str) -> str:
            if save:
                got, _unused = QFileDialog.getSaveFileName(self.parent, _("Save cluster plan"), suggested,
                                                           _("Cluster plans (*.rigcluster)"))
                return got and (got if got.endswith(".rigcluster") else got + ".rigcluster")
            return self.dialogs.open_path(suggested) or ""

        view = ClusterEditor(self.doc.index, current, lambda p: load(Path(p)), lambda p: self.open_path(p),
                             self.parent, plan=plan, plan_path=path, builds=builds, lab=lab, lab_db=lab_db,
                             ask_path=ask_path, error=self.dialogs.error, start_dir=str(self.start_dir()))
        view.setWindowFlag(Qt.WindowType.Window)
        view.show()
        self.cluster_views.append(view)
        return view

    def show_rule_codes(self) -> None:
        from rigbuilder.ui.help import show_rule_codes

        self.rule_codes = show_rule_codes(self.parent, ui_language())  # kept open beside the findings

    def show_about(self) -> None:
        from rigbuilder.ui.about import show_about

        show_about(self.parent)


def _bring_up(dialog: QWidget) -> None:
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
