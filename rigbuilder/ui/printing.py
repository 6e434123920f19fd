"""Printing the parts list from the window: Qt's print and preview dialogs over
``rigbuilder.render`` (which lays the HTML report out and writes PDFs without widgets), and the
board drawing of the board view for the report: ``board_image_svg`` draws the board to scale (as
the board view draws it, less its hints about dragging and dropping), and the printed PDF draws it
as vectors and text; ``write_report`` writes any format with it, for File > Export. A QApplication
must exist before any of these run.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from PySide6.QtGui import QImage
from PySide6.QtPrintSupport import QPrintDialog, QPrintPreviewDialog

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.render import report as _report
from rigbuilder.render.pdf import make_printer, print_html, render_pdf  # noqa: F401 (the window's and tests' names)
from rigbuilder.ui.i18n import _, ui_language


def print_with_dialog(parent, html: str, dialog_factory=QPrintDialog) -> bool:
    """Ask for a printer with Qt's print dialog and print; False when the user cancels."""
    printer = make_printer()
    dlg = dialog_factory(printer, parent)
    if dlg.exec() != QPrintDialog.DialogCode.Accepted:
        return False
    print_html(html, printer)
    return True


def print_preview(parent, html: str) -> QPrintPreviewDialog:
    """A print-preview dialog for ``html``; the caller shows it (``.exec()`` in the app,
    ``.show()`` in tests)."""
    printer = make_printer()
    dlg = QPrintPreviewDialog(printer, parent)
    dlg.setWindowTitle(_("Print preview - parts list"))
    dlg.paintRequested.connect(lambda p: print_html(html, p))
    dlg._printer = printer  # the dialog does not own the printer: keep it alive with the dialog
    dlg._html = html
    return dlg


# --------------------------------------------------------------------------- board drawing

def render_board(build: Build, index: PartIndex, width_px: int = 1200) -> QImage:
    """The board drawing as the app's board view draws it, for paper: no hints about dragging
    and dropping (needs a QApplication)."""
    from rigbuilder.render.board import render_board_image

    return render_board_image(build, index, width_px, ui_language())


def board_image_svg(build: Build, index: PartIndex, path: Union[str, Path], width_px: int = 1200) -> Optional[Path]:
    """Write the printed board drawing as SVG (text stays text); None when the build has no
    board and no GPU."""
    from rigbuilder.render.board import render_board_svg

    if build.motherboard is None and not build.gpus:
        return None
    path = Path(path)
    path.write_bytes(render_board_svg(build, index, width_px, ui_language()))
    return path


def board_image_png(build: Build, index: PartIndex, path: Union[str, Path], width_px: int = 1200) -> Optional[Path]:
    """Write the board drawing as PNG; None when the build has no board and no GPU."""
    if build.motherboard is None and not build.gpus:
        return None
    img = render_board(build, index, width_px)
    path = Path(path)
    if not img.save(str(path), "PNG"):
        raise OSError(_("cannot write {path}", path=str(path)))
    return path


# --------------------------------------------------------------------------- the parts list

def _board_svg(build: Build, index: PartIndex) -> bytes:
    """The board drawing in the window's language (the window's texts are in it too)."""
    from rigbuilder.render.board import render_board_svg

    return render_board_svg(build, index, 1200, ui_language())


def report_with_board(build: Build, index: PartIndex, workload=None, lang: str = "en", measured=None,
                      **checked) -> dict:
    """The report data (``rigbuilder.files.report``) with the board drawing embedded (``checked``:
    the document's ``context`` and ``findings``, not judged again)."""
    return _report.report_with_board(build, index, _board_svg, workload, lang, measured, **checked)


def report_html(build: Build, index: PartIndex, workload=None, lang: str = "en", measured=None, **checked) -> str:
    """What File > Print and Print Preview print: the HTML report with the board drawing."""
    from rigbuilder.files.report import to_html

    return to_html(report_with_board(build, index, workload, lang, measured, **checked)).decode("utf-8")


def write_report(build: Build, index: PartIndex, fmt: str, path: Union[str, Path], *,
                 board: bool = True, workload=None, lang: str = "en", measured=None, **checked) -> Path:
    """``rigbuilder.render.report.write_report`` with the board drawing of the board view
    (``measured``: the build's latest power log, ``rigbuilder.files.measured.log_json``)."""
    return _report.write_report(build, index, fmt, path, board_svg=_board_svg if board else None,
                                workload=workload, lang=lang, measured=measured, **checked)
