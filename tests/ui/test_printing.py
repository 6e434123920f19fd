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
