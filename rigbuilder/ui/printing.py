"""Printing the parts list: a thin Qt shell over the HTML exporter (``rigbuilder.files.report``).

``render_pdf`` writes a PDF without a screen (offscreen is fine); ``print_with_dialog`` and
``print_preview`` show Qt's dialogs; ``board_image_svg`` draws the board to scale for the report
(as the board view draws it, less its hints about dragging and dropping), and the printed PDF
draws it as vectors and text; ``write_report`` writes any format, for File > Export and
``rigbuilder report`` alike. A QApplication must exist before any of these run.
"""
from __future__ import annotations

import base64
import tempfile
from pathlib import Path
from typing import Optional, Union

from PySide6.QtCore import QByteArray, QMarginsF, QSizeF
from PySide6.QtGui import (QFont, QFontMetricsF, QImage, QPageLayout, QPageSize, QPyTextObject, QTextCharFormat, QTextCursor,
                           QTextDocument, QTextFormat)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtSvg import QSvgRenderer

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.files.atomic import atomic_path, write_atomic
from rigbuilder.ui.i18n import _

MARGINS_MM = QMarginsF(15, 15, 15, 15)


SVG_URI = "data:image/svg+xml;base64,"
SVG_OBJECT = QTextFormat.ObjectTypes.UserObject + 1
SVG_DATA = QTextFormat.Property.UserProperty + 1
SVG_SIZE = QTextFormat.Property.UserProperty + 2


class _SvgObject(QPyTextObject):
    """Draws an SVG picture of the document (the board drawing) with the printer's painter, so the
    PDF keeps its lines and words as vectors and text; Qt itself would print a bitmap of it."""

    def intrinsicSize(self, doc, pos, fmt) -> QSizeF:  # noqa: N802 (Qt name)
        return fmt.property(SVG_SIZE)

    def drawObject(self, painter, rect, doc, pos, fmt) -> None:  # noqa: N802 (Qt name)
        QSvgRenderer(QByteArray(fmt.property(SVG_DATA))).render(painter, rect)


def _fragments(doc: QTextDocument):
    """Every text fragment of ``doc``, block by block."""
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            yield it.fragment()
            it += 1
        block = block.next()


def _svg_as_vectors(doc: QTextDocument, page: QSizeF) -> int:
    """Every SVG image of ``doc`` (``<img src="data:image/svg+xml;base64,...">``) becomes an object
    drawn by ``_SvgObject``: its ``width`` attribute wide with the picture's proportions, at most
    the page's width and 90% of its height (the board of a build with many risers is tall).
    Returns how many."""
    handler = _SvgObject(doc)
    doc.documentLayout().registerHandler(SVG_OBJECT, handler)
    doc._svg_handler = handler  # noqa: SLF001 - kept alive with the document
    found = [(frag.position(), frag.length(), frag.charFormat().toImageFormat()) for frag in _fragments(doc)
             if frag.charFormat().isImageFormat()
             and frag.charFormat().toImageFormat().name().startswith(SVG_URI)]
    for pos, length, img in reversed(found):
        data = base64.b64decode(img.name()[len(SVG_URI):])
        view = QSvgRenderer(QByteArray(data)).viewBoxF()
        ratio = view.height() / max(view.width(), 1.0)
        w = min(page.width(), img.width() or page.width(), 0.9 * page.height() / max(ratio, 1e-6))
        obj = QTextCharFormat()
        obj.setObjectType(SVG_OBJECT)
        obj.setProperty(SVG_DATA, QByteArray(data))
        obj.setProperty(SVG_SIZE, QSizeF(w, w * ratio))
        cur = QTextCursor(doc)
        cur.setPosition(pos)
        cur.setPosition(pos + length, QTextCursor.MoveMode.KeepAnchor)
        cur.insertText("\ufffc", obj)
    if found:
        _relayout(doc)
    return len(found)


def _relayout(doc: QTextDocument) -> None:
    """Lay ``doc`` out again from the start: Qt's own relayout after an edit left the last block
    (the footer) without lines, and it was not printed."""
    doc.markContentsDirty(0, doc.characterCount())


SMALLEST_DRAWING = 0.7  # of its full size: how small a drawing may be drawn to fill a page or save one


def _objects(doc: QTextDocument) -> list[tuple[int, QSizeF]]:
    """The SVG objects of ``doc``: (position, full size)."""
    return [(frag.position(), frag.charFormat().property(SVG_SIZE)) for frag in _fragments(doc)
            if frag.charFormat().objectType() == SVG_OBJECT]


def _set_size(doc: QTextDocument, pos: int, size: QSizeF) -> None:
    cur = QTextCursor(doc)
    cur.setPosition(pos)
    cur.setPosition(pos + 1, QTextCursor.MoveMode.KeepAnchor)
    fmt = cur.charFormat()
    fmt.setProperty(SVG_SIZE, size)
    cur.setCharFormat(fmt)


class _Pages:
    """Page breaks where a page would otherwise be left near empty without reason: a heading
    with no room for its first lines starts the next page, and a drawing too tall for the rest
    of its page is drawn smaller (down to ``SMALLEST_DRAWING``) or starts the next page with its
    heading. Of the drawing sizes tried, the one with the fewest pages wins, then the largest:
    Qt alone left the "Board layout" heading above a half-empty page, and a report that ran two
    lines onto a last page."""

    def __init__(self, doc: QTextDocument) -> None:
        self.doc = doc
        self.page_h = doc.pageSize().height()
        self.broken: set[int] = set()  # block numbers given a page break here

    def _break_before(self, block) -> None:
        bf = block.blockFormat()
        bf.setPageBreakPolicy(bf.pageBreakPolicy() | QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        QTextCursor(block).setBlockFormat(bf)
        self.broken.add(block.blockNumber())
        _relayout(self.doc)  # what follows moved

    def reset(self) -> None:
        for n in self.broken:
            block = self.doc.findBlockByNumber(n)
            bf = block.blockFormat()
            bf.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_Auto)
            QTextCursor(block).setBlockFormat(bf)
        self.broken.clear()

    def headings(self, lines: int = 2) -> None:
        """A heading with room for less than ``lines`` lines of text under it starts the next page."""
        layout = self.doc.documentLayout()
        line_h = QFontMetricsF(self.doc.defaultFont()).lineSpacing()
        block = self.doc.begin().next()  # the title starts the first page anyway
        while block.isValid():
            if block.blockFormat().headingLevel():
                r = layout.blockBoundingRect(block)
                top = r.top() % self.page_h
                need = max(lines * line_h, self._first_row(block.next()))
                if top > 1 and self.page_h - top - r.height() < need:
                    self._break_before(block)
            block = block.next()

    def _first_row(self, block) -> float:
        """The height of a table's first row when ``block`` starts a table (a row does not split
        over pages: a heading over a table of tall rows needs room for the first row), else 0."""
        if not block.isValid():
            return 0.0
        table = QTextCursor(block).currentTable()
        if table is None:
            return 0.0
        layout = self.doc.documentLayout()
        tall = 0.0
        for c in range(table.columns()):
            cell = table.cellAt(0, c)
            first = layout.blockBoundingRect(cell.firstCursorPosition().block())
            last = layout.blockBoundingRect(cell.lastCursorPosition().block())
            tall = max(tall, last.bottom() - first.top())
        return tall

    def drawings(self, full: dict[int, QSizeF]) -> None:
        """A drawing reaching past its page: smaller where it is if it keeps ``SMALLEST_DRAWING``
        of its full size, else on the next page with the block before it (its heading)."""
        layout = self.doc.documentLayout()
        for pos, size in full.items():
            block = self.doc.findBlock(pos)
            cur = QTextCursor(self.doc)
            cur.setPosition(pos + 1)
            now = cur.charFormat().property(SVG_SIZE)
            r = layout.blockBoundingRect(block)
            top = r.top() % self.page_h
            room = self.page_h - top - (r.height() - now.height()) - 2  # less the block's margins
            if now.height() <= room:
                continue
            if room >= SMALLEST_DRAWING * size.height():
                _set_size(self.doc, pos, now * (room / now.height()))
                _relayout(self.doc)
            elif block.previous().isValid():
                self._break_before(block.previous())

    def lay_out(self, scale: float, full: dict[int, QSizeF]) -> int:
        self.reset()
        for pos, size in full.items():
            _set_size(self.doc, pos, size * scale)
        _relayout(self.doc)
        self.headings()
        if full:
            self.drawings(full)
            self.headings()  # those after a drawing now drawn smaller
        return self.doc.pageCount()

    def best(self) -> None:
        full = dict(_objects(self.doc))
        pages = self.lay_out(1.0, full)
        # Smaller drawings are tried only where what they give back could empty the last page,
        # largest first; the first that saves a page is taken (each try lays the document out
        # again: about 20 ms for a 16-GPU build).
        last = self.doc.size().height() - (pages - 1) * self.page_h
        if not full or last > sum(size.height() for size in full.values()) * (1 - SMALLEST_DRAWING):
            return
        for scale in (0.9, 0.8, SMALLEST_DRAWING):
            if self.lay_out(scale, full) < pages:
                return
        self.lay_out(1.0, full)


FALLBACK_FAMILIES = ("DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Color Emoji",
                     "Noto Emoji", "Symbola", "Segoe UI Emoji", "Segoe UI Symbol", "Apple Color Emoji")
"""The faces the printed list draws with, in order: a character the first lacks (an emoji, a Han
character) is drawn from the next that has it."""
_drawable: dict[int, bool] = {}


def _can_draw(cp: int) -> bool:
    """Whether any installed face can draw the character ``cp`` (cached)."""
    got = _drawable.get(cp)
    if got is None:
        from PySide6.QtGui import QFontDatabase

        families = [f for f in FALLBACK_FAMILIES if QFontDatabase.hasFamily(f)]
        families += [f for f in QFontDatabase.families() if f not in families]
        got = any(QFontMetricsF(QFont(f)).inFontUcs4(cp) for f in families)
        _drawable[cp] = got
    return got


def printable(html: str) -> str:
    """``html`` with every character that no installed face can draw written as its code
    ([U+1F600]) instead of an empty box; combining marks and controls are left to the text."""
    import unicodedata

    if html.isascii():
        return html
    out = []
    for ch in html:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if cp < 0x2000 or cat[0] in "MZ" or cat in ("Cc", "Cf", "Cs") or _can_draw(cp):
            out.append(ch)
        else:
            out.append(f"[U+{cp:04X}]")
    return "".join(out)


def _document(html: str, printer: QPrinter) -> QTextDocument:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    font = QFont("DejaVu Sans")
    font.setFamilies(list(FALLBACK_FAMILIES))  # emoji and CJK from the next face that has them
    font.setPointSizeF(9)
    doc.setDefaultFont(font)
    doc.setHtml(printable(html))
    # Lay out on the printable page so the tables take the full width.
    page = printer.pageRect(QPrinter.Unit.Point).size()
    doc.setPageSize(QSizeF(page))
    _svg_as_vectors(doc, QSizeF(page))
    _Pages(doc).best()
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
            raise OSError(_("Qt wrote an empty PDF for {path}", path=str(path)))
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
    dlg.setWindowTitle(_("Print preview - parts list"))
    dlg.paintRequested.connect(lambda p: print_html(html, p))
    dlg._printer = printer  # the dialog does not own the printer: keep it alive with the dialog
    dlg._html = html
    return dlg


# --------------------------------------------------------------------------- board drawing

def render_board(build: Build, index: PartIndex, width_px: int = 1200) -> QImage:
    """The board drawing as the app's board view draws it, for paper: no hints about dragging
    and dropping (needs a QApplication)."""
    from rigbuilder.ui.boardview import render_board_image

    return render_board_image(build, index, width_px)


def board_image_svg(build: Build, index: PartIndex, path: Union[str, Path], width_px: int = 1200) -> Optional[Path]:
    """Write the printed board drawing as SVG (text stays text); None when the build has no
    board and no GPU."""
    from rigbuilder.ui.boardview import render_board_svg

    if build.motherboard is None and not build.gpus:
        return None
    path = Path(path)
    path.write_bytes(render_board_svg(build, index, width_px))
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

def report_with_board(build: Build, index: PartIndex, workload=None, lang: str = "en") -> dict:
    """The report data (``rigbuilder.files.report``) with the board drawing embedded."""
    from rigbuilder.files.report import report_data

    with tempfile.TemporaryDirectory() as td:
        img = board_image_svg(build, index, Path(td) / "board.svg")
        return report_data(build, index, board_image_path=img, workload=workload, lang=lang)


def report_html(build: Build, index: PartIndex, workload=None, lang: str = "en") -> str:
    """What File > Print and Print Preview print: the HTML report with the board drawing."""
    from rigbuilder.files.report import to_html

    return to_html(report_with_board(build, index, workload, lang)).decode("utf-8")


def write_report(build: Build, index: PartIndex, fmt: str, path: Union[str, Path], *,
                 board: bool = True, workload=None, lang: str = "en") -> Path:
    """Write the parts list as ``fmt`` (pdf, md, csv, txt, html) to ``path``, atomically: the
    app's File > Export and ``rigbuilder report`` both come here. PDF and HTML carry the board
    drawing unless ``board`` is False."""
    from rigbuilder.files.report import EXPORTERS, report_data, to_html

    path = Path(path)
    data = (report_with_board(build, index, workload, lang) if board and fmt in ("pdf", "html")
            else report_data(build, index, workload=workload, lang=lang))
    if fmt == "pdf":
        return render_pdf(to_html(data).decode("utf-8"), path)
    if fmt not in EXPORTERS:
        raise ValueError(f"unknown report format {fmt!r}")
    write_atomic(path, EXPORTERS[fmt](data))
    return path

