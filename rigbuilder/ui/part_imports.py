"""The window's imports: File > Import Parts (the user's own parts into the catalog, all rows or
none) and File > Import Parts List (a PCPartPicker list as a new build or added to the open one).

Given what it needs, not the window: the document, the catalog (its user database), the dialogs
and the parent widget they open over, and callbacks: ``status``, ``start_dir`` (where file dialogs
start), ``maybe_save`` (the open build may be replaced) and ``catalog_changed`` (the catalog panel
shows the catalog's new index)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from rigbuilder.ui.i18n import _, n_, render_ui

if TYPE_CHECKING:
    from rigbuilder.ui.document import BuildDocument


class PartImports:
    def __init__(self, doc: "BuildDocument", catalog: Any, dialogs: Any, parent: QWidget, *,
                 status: Callable[[str, int], None], start_dir: Callable[[], Path],
                 maybe_save: Callable[[], bool], catalog_changed: Callable[[Any], None] = lambda index: None) -> None:
        self.doc = doc
        self.catalog = catalog
        self.dialogs = dialogs
        self.parent = parent
        self.status = status
        self.start_dir = start_dir
        self.maybe_save = maybe_save
        self.catalog_changed = catalog_changed
        self.list_matcher = None  # keeps its keys (about 0.4 s for 12,000 parts) for the next list import
        self.list_dialog = None  # the open Import Parts List dialog (reachable from tests while open)

    def import_parts(self) -> None:
        """File > Import Parts: the user's own parts from CSV or JSON, all rows or none."""
        if self.catalog is None or self.catalog.user_path is None:
            self.dialogs.error(_("Import parts"), _("This window has no database for your own parts."))
            return
        path = self.dialogs.import_path(str(self.start_dir()))
        if not path:
            return
        from rigbuilder.catalog.userparts import ImportError_, import_parts

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            res = import_parts(self.catalog.user_engine, Path(path), self.catalog.index)
        except ImportError_ as e:
            shown = "\n".join(str(p) for p in e.problems[:15])
            more = "\n" + _("… and {n} more", n=len(e.problems) - 15) if len(e.problems) > 15 else ""
            self.dialogs.error(_("Nothing imported"), n_("{file} has {n} problem; nothing was imported:\n\n{problems}",
                                                         "{file} has {n} problems; nothing was imported:\n\n{problems}",
                                                         len(e.problems), file=Path(path).name, problems=shown + more))
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
        self.catalog_changed(self.catalog.index)
        self.doc.recheck()  # a build naming these parts now finds them
        self.status(_("{file}: {added} added, {updated} updated, {unchanged} unchanged",
                      file=Path(path).name, added=res.added, updated=res.updated, unchanged=res.unchanged), 8000)

    def import_parts_list(self) -> None:
        """File > Import Parts List: the dialog, then a new build or one undoable edit of the open one."""
        from PySide6.QtWidgets import QDialog

        from rigbuilder.ui.list_import_dialog import ListImportDialog, open_list_file

        doc = self.doc
        start = str(self.start_dir())
        dlg = ListImportDialog(doc.index, self.parent, open_file=lambda: open_list_file(self.parent, start),
                               can_add=bool(doc.build.part_ids()), matcher=self.list_matcher)
        self.list_matcher = dlg.matcher
        self.list_dialog = dlg
        try:
            if dlg.exec() != QDialog.DialogCode.Accepted or dlg.plan is None:
                return
            self.apply_list(dlg.plan, dlg.chosen(), dlg.mode())
        finally:
            self.list_dialog = None
            dlg.deleteLater()

    def apply_list(self, plan, chosen: dict[int, Optional[str]], mode: str) -> bool:
        """The list's chosen parts as a new build (``mode`` NEW) or added to the open one (ADD)."""
        from rigbuilder.ui.list_import_dialog import apply_import

        return apply_import(self.doc, self.dialogs, plan, chosen, mode, maybe_save=self.maybe_save,
                            status=self.status)
