"""The window's report actions: File > Print, Print Preview and Export, the parts list of the open
build. A small object given what it needs (the document, the dialogs, a parent widget for Qt's
print dialogs, a status callback, where file dialogs start and the workload the Adviser shows),
not the window."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from PySide6.QtWidgets import QWidget

from rigbuilder.domain.build import UNTITLED, Build
from rigbuilder.domain.build import shown_name as build_shown_name
from rigbuilder.ui.i18n import N_, _, ui_language

if TYPE_CHECKING:
    from rigbuilder.ui.document import BuildDocument

EXPORT_FILTERS = {"pdf": N_("PDF (*.pdf)"), "md": N_("Markdown (*.md)"), "csv": N_("CSV (*.csv)"),
                  "txt": N_("Text (*.txt)"), "html": N_("HTML (*.html)")}


def shown_name(name: str) -> str:
    """A build's name as the window shows it: a build never named reads 'Untitled build' in the
    window's language (its file stores no name: ``rigbuilder.domain.build.shown_name``)."""
    return build_shown_name(name, ui_language())


def file_stem(name: str) -> str:
    """A build's name as a file name: path separators and characters file systems refuse replaced."""
    stem = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "-", name).strip(" .-")
    return stem or _(UNTITLED)


class ReportActions:
    def __init__(self, doc: "BuildDocument", dialogs: Any, parent: QWidget, *, status: Callable[[str, int], None],
                 start_dir: Callable[[], Path], workload: Callable[[], Any],
                 measured: Callable[[], Optional[dict]] = lambda: None) -> None:
        self.doc = doc
        self.dialogs = dialogs
        self.parent = parent
        self.status = status
        self.start_dir = start_dir
        self.workload = workload  # the Adviser's workload, for the throughput line (None before it was opened)
        self.preview: Optional[QWidget] = None  # the open print preview, kept alive while it is open
        self.measured = measured  # the build's latest power log, printed against the plan (issue 42)

    def _measured(self) -> dict:
        """``measured=`` the build's latest power log for the report, when it has one."""
        m = self.measured()
        return {"measured": m} if m is not None else {}

    def titled_build(self) -> Build:
        """The build as reports show it: a build never named takes its file's name."""
        b = self.doc.build
        if self.doc.path is not None and not b.name.strip():
            return dataclasses.replace(b, name=self.doc.path.stem)
        return b

    def checked(self) -> dict:
        """The checks' context and findings the document holds (the report takes them, not judging again)."""
        return {"context": self.doc.context, "findings": self.doc.findings}

    def html(self) -> str:
        from rigbuilder.ui.printing import report_html

        return report_html(self.titled_build(), self.doc.index, self.workload(), ui_language(), **self._measured(),
                           **self.checked())

    def print_report(self) -> None:
        from rigbuilder.ui.printing import print_with_dialog

        print_with_dialog(self.parent, self.html())

    def print_preview(self) -> None:
        from rigbuilder.ui.printing import print_preview

        self.preview = print_preview(self.parent, self.html())
        self.preview.open()  # window-modal without a nested event loop

    def export(self, fmt: str) -> None:
        stem = self.doc.path.stem if self.doc.path is not None else file_stem(shown_name(self.doc.build.name))
        path = self.dialogs.export_path(str(self.start_dir() / f"{stem}.{fmt}"), _(EXPORT_FILTERS[fmt]))
        if not path:
            return
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        from rigbuilder.ui.printing import write_report

        try:
            write_report(self.titled_build(), self.doc.index, fmt, Path(path), workload=self.workload(),
                         lang=ui_language(), **self._measured(), **self.checked())
        except OSError as e:
            self.dialogs.error(_("Export failed"), _("Could not write {path}:\n{error}", path=path,
                                                     error=str(e.strerror or e)))
            return
        self.status(_("Exported the parts list to {path}", path=path), 6000)
