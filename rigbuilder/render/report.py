"""Every report format written to a file: Markdown, CSV, text and HTML from
``rigbuilder.files.report``, PDF from its HTML (``rigbuilder.render.pdf``). The app's File > Export
and ``rigbuilder report`` both come here. The board drawing is given as ``board_svg(build, index)``
(the window's board view draws it), so this module knows no widgets."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable, Optional, Union

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.files.atomic import write_atomic

BoardDrawing = Callable[[Build, PartIndex], bytes]
"""The board drawing of a build as SVG."""


def report_with_board(build: Build, index: PartIndex, board_svg: Optional[BoardDrawing], workload=None,
                      lang: str = "en", measured: Optional[dict] = None, **checked) -> dict:
    """The report data (``rigbuilder.files.report``) with the board drawing embedded (none for a
    build with no board and no GPU, or without ``board_svg``). ``checked``: the ``context`` and
    ``findings`` the caller holds for the build (``report_data``)."""
    from rigbuilder.files.report import report_data

    if board_svg is None or (build.motherboard is None and not build.gpus):
        return report_data(build, index, workload=workload, lang=lang, measured=measured, **checked)
    with tempfile.TemporaryDirectory() as td:
        img = Path(td) / "board.svg"
        img.write_bytes(board_svg(build, index))
        return report_data(build, index, board_image_path=img, workload=workload, lang=lang, measured=measured,
                           **checked)


def write_report(build: Build, index: PartIndex, fmt: str, path: Union[str, Path], *,
                 board_svg: Optional[BoardDrawing] = None, workload=None, lang: str = "en",
                 measured: Optional[dict] = None, **checked) -> Path:
    """Write the parts list as ``fmt`` (pdf, md, csv, txt, html) to ``path``, atomically. PDF and
    HTML carry the board drawing when ``board_svg`` is given."""
    from rigbuilder.files.report import EXPORTERS, to_html

    path = Path(path)
    data = report_with_board(build, index, board_svg if fmt in ("pdf", "html") else None, workload, lang, measured,
                             **checked)
    if fmt == "pdf":
        from rigbuilder.render.pdf import render_pdf

        return render_pdf(to_html(data).decode("utf-8"), path)
    if fmt not in EXPORTERS:
        raise ValueError(T("unknown report format {format}", format=repr(fmt)))
    write_atomic(path, EXPORTERS[fmt](data))
    return path
