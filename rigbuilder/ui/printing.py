"""Printing the parts list: a thin Qt shell over the HTML exporter (``rigbuilder.files.report``).

``render_pdf`` writes a PDF without a screen (offscreen is fine); ``print_with_dialog`` and
``print_preview`` show Qt's dialogs; ``board_image_png`` draws the board to scale for the report.
A QGuiApplication (or QApplication) must exist before any of these run.
"""
from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Optional, Union

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (QBrush, QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPen,
                           QTextDocument)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.parts import SLOT_PITCH_MM

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
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".pdf", dir=path.parent if str(path.parent) else ".")
    os.close(fd)
    try:
        printer = make_printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(tmp)
        printer.setDocName(path.stem)
        print_html(html, printer)
        if os.path.getsize(tmp) == 0:
            raise OSError(f"Qt wrote an empty PDF for {path}")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
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

def _own_board_image(build: Build, index: PartIndex, width_px: int) -> QImage:
    """The board seen from above, to scale: outline, slots at 20.32 mm pitch, cards spanning
    their slot width, overlaps hatched red."""
    from rigbuilder.rules.context import Context

    ctx = Context(build, index)
    board = ctx.board
    n_pos = max(board.expansion_positions if board else 7,
                max((g.covered.stop - 1 for g in ctx.board_gpus), default=0))
    depth_mm = board.depth_mm if board else 305.0
    width_mm = board.width_mm if board else 244.0
    longest = max((g.gpu.length_mm for g in ctx.board_gpus), default=0)
    margin = 6.0
    gutter = 34.0  # left of the board: slot labels
    # Expansion area: positions run down the board (top = position 1), cards run to the right
    # from the rear bracket edge (x = 0).
    area_w = gutter + max(width_mm, longest + 4) + 2 * margin
    top_mm = depth_mm - (n_pos * SLOT_PITCH_MM) - 10 if board else 40.0
    area_h = max(depth_mm, top_mm + (n_pos + 0.5) * SLOT_PITCH_MM) + 2 * margin
    scale = width_px / area_w
    img = QImage(width_px, int(math.ceil(area_h * scale)), QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(scale, scale)
    p.translate(margin + gutter, margin)

    small = QFont("DejaVu Sans")
    small.setPixelSize(max(1, int(5.2)))
    p.setFont(small)
    if board:
        p.setPen(QPen(QColor("#2d5a3d"), 0.8))
        p.setBrush(QColor("#dcecdf"))
        p.drawRoundedRect(QRectF(0, 0, width_mm, depth_mm), 3, 3)
        p.setPen(QColor("#2d5a3d"))
        p.drawText(QRectF(4, 3, width_mm - 8, 10), Qt.AlignmentFlag.AlignLeft,
                   f"{board.name} ({board.form_factor}, {width_mm:g} x {depth_mm:g} mm)")
    y0 = top_mm if board else 20.0

    def y_of(pos: int) -> float:
        return y0 + (pos - 1) * SLOT_PITCH_MM

    # Slots: the connector drawn at the rear edge, labelled by id and position.
    for pos in range(1, n_pos + 1):
        slot = board.slot_at(pos) if board else None
        y = y_of(pos)
        p.setPen(QPen(QColor("#9aa7b4"), 0.3, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(-gutter, y), QPointF(area_w - 2 * margin - gutter, y))
        if slot:
            length = {16: 89.0, 8: 56.0, 4: 39.0, 1: 25.0}.get(slot.physical, 89.0)
            p.setPen(QPen(QColor("#1d2733"), 0.4))
            p.setBrush(QColor("#3a4a5a"))
            p.drawRect(QRectF(42, y + SLOT_PITCH_MM / 2 - 2.5, length, 5))
        p.setPen(QColor("#1d2733"))
        p.drawText(QRectF(-gutter, y + 2, gutter - 3, 8), Qt.AlignmentFlag.AlignRight, f"position {pos}")
        p.setPen(QColor("#5a6673"))
        p.drawText(QRectF(-gutter, y + 9, gutter - 3, 8), Qt.AlignmentFlag.AlignRight,
                   f"{slot.id} x{slot.physical}/x{slot.lanes}" if slot else "no slot")

    # Cards: a rectangle covering the positions the card spans; overlaps hatched red.
    rects = []
    for g in ctx.board_gpus:
        r = QRectF(2, y_of(g.position) + 2, g.gpu.length_mm, g.gpu.slot_width * SLOT_PITCH_MM - 4)
        rects.append((g, r))
        p.setPen(QPen(QColor("#0f3d66"), 0.6))
        p.setBrush(QColor(40, 110, 180, 150))
        p.drawRoundedRect(r, 1.5, 1.5)
        p.setPen(QColor("white"))
        big = QFont(small)
        big.setPixelSize(6)
        big.setBold(True)
        p.setFont(big)
        p.drawText(r.adjusted(4, 2, -3, -2), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   f"GPU {g.num}: {g.gpu.name} ({g.gpu.slot_width:g}-slot, {g.gpu.length_mm:g} mm)")
        p.setFont(small)
    p.setPen(QPen(QColor("#b3261e"), 0.8))
    for i, (_, a) in enumerate(rects):
        for _, b in rects[i + 1:]:
            x = a.intersected(b)
            if x.height() > 0.1 and x.width() > 0.1:
                p.setBrush(QBrush(QColor(200, 30, 30, 200), Qt.BrushStyle.BDiagPattern))
                p.drawRect(x)
    p.end()
    return img


def render_board(build: Build, index: PartIndex, width_px: int = 1200) -> QImage:
    """The board drawing: the interactive board view's renderer where the app has one."""
    from PySide6.QtWidgets import QApplication

    render_board_image = None
    # The board view draws through a QGraphicsScene, which needs a QApplication (widgets);
    # under a bare QGuiApplication it would crash, so the simple drawing below stands in.
    if isinstance(QApplication.instance(), QApplication):
        try:
            from rigbuilder.ui.boardview import render_board_image  # type: ignore[attr-defined]
        except ImportError:
            render_board_image = None
    if render_board_image is not None:
        return render_board_image(build, index, width_px)
    return _own_board_image(build, index, width_px)


def board_image_png(build: Build, index: PartIndex, path: Union[str, Path], width_px: int = 1200) -> Optional[Path]:
    """Write the board drawing as PNG; None when the build has no board and no GPU."""
    if build.motherboard is None and not build.gpus:
        return None
    img = render_board(build, index, width_px)
    path = Path(path)
    if not img.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")
    return path
