"""Printing the parts list: a thin Qt shell over the HTML exporter (``rigbuilder.files.report``).

``render_pdf`` writes a PDF without a screen (offscreen is fine); ``print_with_dialog`` and
``print_preview`` show Qt's dialogs; ``board_image_png`` draws the board to scale for the report
(as the board view draws it); ``write_report`` writes any format, for File > Export and
``rigbuilder report`` alike. A QApplication must exist before any of these run.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Optional, Union

from PySide6.QtCore import QMarginsF, QSizeF
from PySide6.QtGui import (QFont, QImage, QPageLayout, QPageSize, QTextDocument)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.files.atomic import atomic_path, write_atomic

MARGINS_MM = QMarginsF(15, 15, 15, 15)


def _document(html: str, printer: QPrinter) -> QTextDocument:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    font = QFont("DejaVu Sans")
    font.setPointSizeF(9)
    doc.setDefaultFont(font)
    doc.setHtml(html)
    # Lay out on the printable page so the tables take the full width.
    doc.setPageSize(QSizeF(printer.pageRect(QPrinter.Unit.Point).size()))
    return doc


def make_printer(mode: QPrinter.PrinterMode = QPrinter.PrinterMode.HighResolution) -> QPrinter:
    printer = QPrinter(mode)
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                      MARGINS_MM, QPageLayout.Unit.Millimeter))
    return printer


def print_html(html: str, printer: QPrinter) -> None:
    """Print ``html`` on ``printer`` (a paper printer or a PDF file)."""
    _document(html, printer).print_(printer)


def render_pdf(html: str, path: Union[str, Path]) -> Path:
    """Write ``html`` as an A4 PDF to ``path`` atomically (a temporary file, then rename)."""
    path = Path(path)
    with atomic_path(path, suffix=".pdf") as tmp:
        printer = make_printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(tmp))
        printer.setDocName(path.stem)
        print_html(html, printer)
        if tmp.stat().st_size == 0:
            raise OSError(f"Qt wrote an empty PDF for {path}")
    return path


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
    dlg.setWindowTitle("Print preview - parts list")
    dlg.paintRequested.connect(lambda p: print_html(html, p))
    dlg._printer = printer  # the dialog does not own the printer: keep it alive with the dialog
    dlg._html = html
    return dlg


# --------------------------------------------------------------------------- board drawing

def render_board(build: Build, index: PartIndex, width_px: int = 1200) -> QImage:
    """The board drawing, as the app's board view draws it (needs a QApplication)."""
    from rigbuilder.ui.boardview import render_board_image

    return render_board_image(build, index, width_px)


def board_image_png(build: Build, index: PartIndex, path: Union[str, Path], width_px: int = 1200) -> Optional[Path]:
    """Write the board drawing as PNG; None when the build has no board and no GPU."""
    if build.motherboard is None and not build.gpus:
        return None
    img = render_board(build, index, width_px)
    path = Path(path)
    if not img.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")
    return path


# --------------------------------------------------------------------------- the parts list

def report_with_board(build: Build, index: PartIndex) -> dict:
    """The report data (``rigbuilder.files.report``) with the board drawing embedded."""
    from rigbuilder.files.report import report_data

    with tempfile.TemporaryDirectory() as td:
        img = board_image_png(build, index, Path(td) / "board.png")
        return report_data(build, index, board_image_path=img)


def report_html(build: Build, index: PartIndex) -> str:
    """What File > Print and Print Preview print: the HTML report with the board drawing."""
    from rigbuilder.files.report import to_html

    return to_html(report_with_board(build, index)).decode("utf-8")


def write_report(build: Build, index: PartIndex, fmt: str, path: Union[str, Path], *,
                 board: bool = True) -> Path:
    """Write the parts list as ``fmt`` (pdf, md, csv, txt, html) to ``path``, atomically: the
    app's File > Export and ``rigbuilder report`` both come here. PDF and HTML carry the board
    drawing unless ``board`` is False."""
    from rigbuilder.files.report import EXPORTERS, report_data, to_html

    path = Path(path)
    data = report_with_board(build, index) if board and fmt in ("pdf", "html") else report_data(build, index)
    if fmt == "pdf":
        return render_pdf(to_html(data).decode("utf-8"), path)
    if fmt not in EXPORTERS:
        raise ValueError(f"unknown report format {fmt!r}")
    write_atomic(path, EXPORTERS[fmt](data))
    return path

