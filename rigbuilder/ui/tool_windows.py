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
                 open_path: Callable[[str], bool]) -> None:
        self.doc, self.parent, self.prefs, self.dialogs = doc, parent, prefs, dialogs
        self.do, self.start_dir, self.open_path = do, start_dir, open_path
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
                                          start_dir=str(self.start_dir()))
        _bring_up(self.comparer)

    def open_cluster_dialog(self) -> None:
        path, _unused = QFileDialog.getOpenFileName(self.parent, _("Open cluster plan"), str(self.start_dir()),
                                                    _("Cluster plans (*.rigcluster)") + ";;" + _("All files (*)"))
        if path:
            self.open_cluster(path)

    def open_cluster(self, path: str):
        """Show a cluster plan in its own window; its machines open in the main window's board view."""
        from rigbuilder.files.buildfile import BuildFileError
        from rigbuilder.ui.cluster_view import ClusterView, lab_figures, open_cluster

        lab = lab_figures(self.prefs.get("lab/database_url"), self.prefs.get("lab/password_file"))
        try:
            plan, cc = open_cluster(Path(path), self.doc.index, lab)
        except BuildFileError as e:
            self.dialogs.error(_("Cannot open cluster plan"), render_ui(e.args[0] if e.args else str(e)))
            return None
        view = ClusterView(plan, cc, Path(path), lambda p: self.open_path(p), parent=self.parent, lab=lab)
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
