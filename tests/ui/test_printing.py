"""Printing the parts list: PDF through QTextDocument/QPrinter, the dialogs, the board drawing."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from rigbuilder.domain.build import Build, GpuPlacement, PartCount
from rigbuilder.files.report import report_data, to_html

pytest.importorskip("PySide6")
from rigbuilder.ui import printing  # noqa: E402

needs_poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")


def four_3090() -> Build:
    return Build(name="4x RTX 3090 on X99", motherboard="mb-asrock-x99-ws-e",
                 cpu="cpu-intel-xeon-e5-2697-v4", psus=["psu-evga-supernova-1600-t2"],
                 case="case-phanteks-enthoo-719",
                 memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
                 gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", p) for p in (1, 3, 5, 7)])


def _flat(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u00ad", "").replace("-\n", "-"))


@needs_poppler
def test_pdf_has_every_part_total_and_finding(qapp, index, tmp_path):
    b = four_3090()
    img = printing.board_image_png(b, index, tmp_path / "board.png")
    assert img is not None and img.stat().st_size > 1000
    d = report_data(b, index, board_image_path=img)
    pdf = printing.render_pdf(to_html(d).decode(), tmp_path / "list.pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert not list(tmp_path.glob(".list.pdf.*"))  # the temporary file was renamed
    text = _flat(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                                check=True).stdout)
    for r in d["parts"]:
        assert r["name"].split(" (")[0] in text, r["name"]
    for t in d["totals"]:
        assert f"{t['amount']:,.2f} {t['currency']}" in text
    for f in d["findings"]["items"]:
        assert f["code"] in text, f["code"]


def test_board_image_is_the_board_view_drawing(qapp, index):
    img = printing.render_board(four_3090(), index, 800)
    assert img.width() == 800 and img.height() > 300
    # overlapping cards are hatched red somewhere in the picture
    reds = sum(1 for x in range(0, 800, 4) for y in range(0, img.height(), 4)
               if (c := img.pixelColor(x, y)).red() > 150 and c.green() < 90 and c.blue() < 90)
    assert reds > 0


def test_print_preview_opens_and_paints(qtbot, qapp, index):
    html = to_html(report_data(four_3090(), index)).decode()
    dlg = printing.print_preview(None, html)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert dlg.isVisible()
    dlg.close()


def test_print_with_dialog_cancel_and_accept(qapp, index, tmp_path):
    html = to_html(report_data(four_3090(), index)).decode()

    class FakeDialog:
        answer = 0

        def __init__(self, printer, parent):
            self.printer = printer

        def exec(self):
            if FakeDialog.answer:  # "print to file" as a user would choose it
                from PySide6.QtPrintSupport import QPrinter

                self.printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
                self.printer.setOutputFileName(str(tmp_path / "printed.pdf"))
            return FakeDialog.answer

    assert printing.print_with_dialog(None, html, dialog_factory=FakeDialog) is False
    FakeDialog.answer = 1
    assert printing.print_with_dialog(None, html, dialog_factory=FakeDialog) is True
    assert (tmp_path / "printed.pdf").stat().st_size > 1000


def _pages(pdf) -> list[list[tuple[float, float, str]]]:
    """Each page's words as (top, bottom, word), in points from the top of the sheet."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in out.split("<page ")[1:]:
        pages.append([(float(a), float(b), w) for a, b, w in
                      re.findall(r'<word [^>]*yMin="([\d.]+)"[^>]*yMax="([\d.]+)">([^<]*)</word>', page)])
    return pages


def x99_4x3090_print(riser: bool = False) -> Build:
    from rigbuilder.domain.build import StorageItem

    b = Build(name="X99 4x RTX 3090", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
              cooler="cool-noctua-nh-u14s", psus=["psu-evga-supernova-1600-t2"], case="case-phanteks-enthoo-719",
              memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
              storage=[StorageItem("sto-samsung-970-evo-500gb")],
              gpus=[GpuPlacement("gpu-asus-rtx-3090-turbo", p) for p in (1, 3, 5, 7)])
    if riser:
        b.gpus[3] = GpuPlacement("gpu-asus-rtx-3090-turbo", None, "riser")
    return b


@needs_poppler
@pytest.mark.parametrize("riser", [False, True])
def test_printed_drawing_is_text_without_ui_hints(qapp, index, tmp_path, riser):
    """Issue 13 item 11: the printed board drawing said "Risers / vertical mount: drop cards here".
    The drawing is printed as vectors and text (so pdftotext reads it) and says nothing about
    dragging and dropping; the window's drawing keeps its hints."""
    from rigbuilder.rules.context import Context
    from rigbuilder.rules.engine import run_checks
    from rigbuilder.render.board import UI_HINTS
    from rigbuilder.ui.boardview import BoardScene

    b = x99_4x3090_print(riser)
    pdf = printing.write_report(b, index, "pdf", tmp_path / "x99.pdf")
    text = _flat(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout)
    drawing = text[text.index("Board layout"):text.index("Sources")]
    assert "PCIE1 x16 Gen3" in drawing and "GPU 1 · ASUS Turbo GeForce RTX 3090" in drawing  # the drawing's words
    assert "Case takes cards up to 503 mm" in drawing or "case takes cards up to 503 mm" in drawing
    for hint in UI_HINTS:
        assert hint.lower() not in text.lower()
    assert ("Risers / vertical mount" in drawing) == riser  # the riser area only where a card sits on one
    # the window's drawing still tells the user where to drop cards
    scene = BoardScene()
    scene.show_build(b, Context(b, index), run_checks(b, index))
    shown = " ".join(it.text() for it in scene.items() if hasattr(it, "text") and callable(it.text))
    assert "drop cards here" in shown


@needs_poppler
def test_no_page_is_left_nearly_empty(qapp, index, tmp_path):
    """Issue 13 item 11: the drawing, too tall for the rest of its page, went to the next page and
    left its heading above a half-empty page; the names in the parts table broke every few letters
    (a long unbreakable total took the Item column's width), making the list three pages."""
    pdf = printing.write_report(x99_4x3090_print(), index, "pdf", tmp_path / "x99.pdf")
    top, bottom = 15 / 25.4 * 72, 842 - 15 / 25.4 * 72  # A4, 15 mm margins
    # A heading moved to the next page is also in the PDF just below the previous page's printable
    # area, clipped away: not on that page for a reader (pdftotext reads it all the same).
    pages = [[w for w in page if w[0] < bottom - 1] for page in _pages(pdf)]
    assert len(pages) <= 4  # 3 before the power-limit section and the field names in words (issue 25)
    for n, words in enumerate(pages[:-1], 1):
        filled = (max(b for _, b, _ in words) - top) / (bottom - top)
        assert filled > 0.9, f"page {n} is {filled:.0%} full"
    # the last page is no stray line or two
    assert len({round(t) for t, _, _ in pages[-1]}) > 10
    # the names read whole in the parts table (they broke every few letters)
    words = {w for page in pages for _, _, w in page}
    assert {"ASRock", "X99", "WS-E", "Corsair", "Vengeance"} <= words
    # a heading is never the last line of its page
    for words in pages:
        last = max(words, key=lambda t: t[1])
        assert last[2] not in ("Sources", "Board", "Findings:", "Power", "Parts")
