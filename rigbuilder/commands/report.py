"""``rigbuilder report FILE -o OUT [--format pdf|md|csv|txt|html]``: the parts list of a build.

Markdown, CSV, text and HTML come from ``rigbuilder.files.report`` without Qt; PDF is printed
from the HTML through Qt (offscreen when there is no display). Outputs are written atomically.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rigbuilder.commands.common import UsageError, load_build, open_catalog, require_parts
from rigbuilder.domain.i18n import N_, T, tr
from rigbuilder.files.atomic import write_atomic

FORMATS = ("pdf", "md", "csv", "txt", "html")
EXTENSIONS = {".pdf": "pdf", ".md": "md", ".markdown": "md", ".csv": "csv", ".txt": "txt",
              ".text": "txt", ".html": "html", ".htm": "html"}


def register(sub) -> None:
    r = sub.add_parser("report", help=N_("write the parts list of a build (PDF, Markdown, CSV, text, HTML)"))
    r.add_argument("file", help=N_("a .rig build file"))
    r.add_argument("-o", "--output", required=True, help=N_("where to write; '-' for standard output (not PDF)"))
    r.add_argument("--format", choices=FORMATS, help=N_("default: from the output file's extension"))
    r.add_argument("--no-board", action="store_true", help=N_("leave the board drawing out of PDF/HTML"))
    r.add_argument("--currency", help=N_("show money in this currency (prices and the electricity price converted)"))
    r.add_argument("--workload", metavar="W", help=N_("add the build's estimated throughput for a workload "
                   "(as in 'rigbuilder advise build')"))
    r.add_argument("--params", metavar="P", help=N_("model size for the LLM workloads, e.g. 70B"))
    r.set_defaults(func=cmd_report)


def pick_format(output: str, fmt: str | None) -> str:
    if fmt:
        return fmt
    if output == "-":
        return "txt"
    ext = Path(output).suffix.lower()
    if ext not in EXTENSIONS:
        raise UsageError(T("-o {path}: cannot tell the format from the extension {ext}; use --format {formats}",
                           path=output, ext=ext or "(none)", formats="|".join(FORMATS)))
    return EXTENSIONS[ext]


def _ensure_qt_app():
    """A QApplication for rendering (fonts for the board drawing; the PDF's printer); offscreen
    when no display is available."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from PySide6.QtWidgets import QApplication
    except ImportError as e:  # pragma: no cover - Qt is a dependency
        raise UsageError(T("PDF output needs PySide6: {error}", error=str(e))) from None
    return QApplication.instance() or QApplication(["rigbuilder"])


def _board_svg(lang: str):
    """The board drawing, as the window's board view draws it for paper, in ``lang``."""
    from rigbuilder.render.board import render_board_svg

    return lambda build, index: render_board_svg(build, index, 1200, lang)


def latest_measured(cat, build_path: str):
    """The build's latest imported power log as the report prints it (None: none imported)."""
    from rigbuilder.catalog.measurements import build_key, read_logs
    from rigbuilder.files.measured import log_json

    logs = read_logs(cat.user_path, build_key(Path(build_path)))
    return log_json(logs[-1], {g.id: g.name for g in cat.index.of_kind("gpu")}) if logs else None


def cmd_report(args: argparse.Namespace) -> int:
    from rigbuilder.files.report import EXPORTERS, report_data

    fmt = pick_format(args.output, args.format)
    if fmt == "pdf" and args.output == "-":
        raise UsageError(T("-o -: PDF cannot go to standard output; give a file name"))
    out = None if args.output == "-" else Path(args.output)
    if out is not None:
        if out.is_dir():
            raise UsageError(T("-o {path}: is a folder; give a file name", path=str(out)))
        parent = out.parent if str(out.parent) else Path(".")
        if not parent.is_dir():
            raise UsageError(T("-o {path}: the folder {folder} does not exist", path=str(out), folder=str(parent)))
        if not os.access(parent, os.W_OK):
            raise UsageError(T("-o {path}: cannot write in {folder} (permission denied)", path=str(out), folder=str(parent)))
    workload = None
    if args.workload is not None:
        from rigbuilder.commands.advise import workload_of

        workload = workload_of(args)
    elif args.params is not None:
        raise UsageError(T("--params needs --workload (e.g. --workload qlora --params 70B)"))
    cat = open_catalog()
    build = load_build(args.file)
    require_parts(build, cat.index, args.file)
    if args.currency:
        from rigbuilder.domain.money import MoneyError, check_currency
        from rigbuilder.models.prices import change_currency

        try:
            build.settings = change_currency(build.settings, check_currency(args.currency, "--currency"),
                                             cat.index.prices.rates)
        except MoneyError as e:
            raise UsageError(e.args[0] if e.args else str(e)) from None

    measured = latest_measured(cat, args.file)
    try:
        if fmt == "pdf":
            _ensure_qt_app()
            from rigbuilder.render.report import write_report

            write_report(build, cat.index, fmt, out,
                         board_svg=None if args.no_board else _board_svg(getattr(args, "lang", "en")),
                         workload=workload, lang=getattr(args, "lang", "en"), measured=measured)
        else:
            if fmt == "html" and not args.no_board:  # the board drawing needs Qt; the rest does not
                _ensure_qt_app()
                from rigbuilder.render.report import report_with_board

                data = report_with_board(build, cat.index, _board_svg(getattr(args, "lang", "en")), workload,
                                         getattr(args, "lang", "en"), measured)
            else:
                data = report_data(build, cat.index, workload=workload, lang=getattr(args, "lang", "en"),
                                   measured=measured)
            payload = EXPORTERS[fmt](data)
            if out is None:
                sys.stdout.buffer.write(payload)
                sys.stdout.flush()
                return 0
            write_atomic(out, payload)
    except OSError as e:
        raise UsageError(T("cannot write {path}: {error}", path=args.output, error=e.strerror or str(e))) from None
    print(tr("wrote {path} ({format})", getattr(args, "lang", "en"), path=args.output, format=fmt))
    return 0
