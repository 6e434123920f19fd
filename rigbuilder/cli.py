"""The command line: ``rigbuilder`` opens the desktop app, ``rigbuilder <command>`` runs headless.

Exit codes: 0 success; 1 the build has error findings (``check``); 2 bad input (a message on
stderr says what and where, never a traceback).
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from rigbuilder import __version__
from rigbuilder.commands.common import UsageError  # noqa: F401 (the sub-commands raise it; kept importable here)
from rigbuilder.domain.i18n import LANGUAGES, N_

COMMAND_MODULES = (
    "rigbuilder.commands.catalog",
    "rigbuilder.commands.build",
    "rigbuilder.commands.power",
    "rigbuilder.commands.noise",
    "rigbuilder.commands.report",
    "rigbuilder.commands.price",
    "rigbuilder.commands.importlist",
    "rigbuilder.commands.advise",
    "rigbuilder.commands.optimise",
    "rigbuilder.commands.compare",
    "rigbuilder.commands.cluster",
    "rigbuilder.commands.lab",
    "rigbuilder.commands.measured",
)
"""Each module has ``register(subparsers)``; its sub-parsers set ``func(args) -> int``."""




def make_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line's parser; its descriptions and option help in ``lang`` (argparse's own
    words, such as "usage:", come from Python's translations)."""
    p = argparse.ArgumentParser(prog="rigbuilder", description=N_("Plan multi-GPU deep-learning workstations. "
                                "Without a command, opens the desktop app."))
    p.add_argument("--version", action="version", version=f"rigbuilder {__version__}")
    p.add_argument("--lang", metavar="{" + ",".join(LANGUAGES) + "}",  # the one list of languages
                   help=N_("language of the output (default: the system locale; may also follow the command)"))
    p.add_argument("--no-estimates", action="store_true",
                   help=N_("never use a used price estimated by the depreciation model (only observed prices)"))
    p.add_argument("--no-calibration", action="store_true",
                   help=N_("plan with the model's figures, not calibrated by your measured power logs "
                        "(may also follow the command)"))
    menu = p.add_mutually_exclusive_group()
    menu.add_argument("--install-shortcut", action="store_true",
                      help=N_("add rigbuilder to the desktop's menu for this user (Linux: a desktop entry and "
                              "icon; Windows: a Start Menu shortcut; macOS: an app in ~/Applications)"))
    menu.add_argument("--remove-shortcut", action="store_true",
                      help=N_("remove what --install-shortcut added"))
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    app = sub.add_parser("app", help=N_("open the desktop app (the default)"))
    app.add_argument("file", nargs="?", help=N_("a .rig build file to open"))
    app.set_defaults(func=_run_app)
    for name in COMMAND_MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        mod.register(sub)
    if lang != "en":
        _translate_help(p, lang)
    return p


def _translate_help(parser: argparse.ArgumentParser, lang: str) -> None:
    """Every description and help text of ``parser`` and its sub-commands looked up in the catalogs
    (the texts are marked ``N_`` where the commands declare them)."""
    from rigbuilder.domain.i18n import gettext

    seen: set[int] = set()

    def walk(p: argparse.ArgumentParser) -> None:
        if id(p) in seen:
            return
        seen.add(id(p))
        if p.description:
            p.description = gettext(p.description, lang)
        for a in p._actions:
            if a.help and a.help is not argparse.SUPPRESS:
                a.help = gettext(a.help, lang)
            if isinstance(a, argparse._SubParsersAction):
                for shown in a._choices_actions:  # the one-line help in the parent's list of commands
                    if shown.help:
                        shown.help = gettext(shown.help, lang)
                for sp in a.choices.values():
                    walk(sp)

    walk(parser)


def _run_app(args: argparse.Namespace) -> int:
    from rigbuilder.app import run_app

    return run_app(getattr(args, "file", None), lang=getattr(args, "asked_lang", None))


def _shortcut(install: bool, lang: str) -> int:
    """``--install-shortcut`` / ``--remove-shortcut``: the menu entry of this installation
    (rigbuilder.shortcut), its icon rasterised with Qt's SVG renderer."""
    from rigbuilder import shortcut
    from rigbuilder.domain.i18n import T, render

    places = shortcut.Places.from_env()
    try:
        if install:
            from rigbuilder.render.icon import svg_to_png

            svg = shortcut._icon_svg()
            paths = shortcut.install(places, render_png=lambda size: svg_to_png(svg, size))
        else:
            paths = shortcut.remove(places)
    except OSError as e:
        msg = (T("cannot write the shortcut: {error}", error=str(e)) if install
               else T("cannot remove the shortcut: {error}", error=str(e)))
        print(f"rigbuilder: {render(msg, lang)}", file=sys.stderr)
        return 2
    for p in paths:
        print(render(T("written: {path}", path=str(p)) if install else T("removed: {path}", path=str(p)), lang))
    if not install and not paths:
        print(render(T("no shortcut of rigbuilder's was found"), lang))
    return 0


def _take_lang(argv: list) -> tuple[list, Optional[str]]:
    """``--lang xx`` / ``--lang=xx`` anywhere on the line (before or after the command)."""
    out, lang, i = [], None, 0
    while i < len(argv):
        a = argv[i]
        if a == "--lang" and i + 1 < len(argv):
            lang, i = argv[i + 1], i + 2
            continue
        if a.startswith("--lang="):
            lang = a.split("=", 1)[1]
        else:
            out.append(a)
        i += 1
    return out, lang


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (len(argv) == 1 and argv[0].endswith(".rig")):
        from rigbuilder.app import run_app

        return run_app(argv[0] if argv else None)
    argv, lang = _take_lang(argv)
    if lang and (not argv or (len(argv) == 1 and argv[0].endswith(".rig"))):  # `rigbuilder --lang de`
        from rigbuilder.app import run_app

        return run_app(argv[0] if argv else None, lang=lang)
    if "--no-calibration" in argv:  # anywhere on the line, like --lang
        argv = ["--no-calibration"] + [a for a in argv if a != "--no-calibration"]
    from rigbuilder.codecache import dataclass_code_cached
    from rigbuilder.config import Paths

    with dataclass_code_cached(Paths.from_env().cache_dir):  # the dataclasses' methods, compiled once
        return _command(argv, lang)


def _command(argv: list, lang: Optional[str]) -> int:
    from rigbuilder.domain.i18n import choose_language

    from rigbuilder.commands.argwords import argparse_speaks

    asked, lang = lang, choose_language(lang)
    with argparse_speaks(lang):  # "usage:", "error:", the -h help in the language too
        return _parsed(argv, lang, asked)


def _parsed(argv: list, lang: str, asked: Optional[str]) -> int:
    parser = make_parser(lang)
    args = parser.parse_args(argv)
    args.lang = lang
    args.asked_lang = asked  # `--lang` as given: the window follows it over its preference
    from rigbuilder.commands import common

    common.OUTPUT_LANG = lang
    common.USED_ESTIMATES = not getattr(args, "no_estimates", False)
    common.CALIBRATE = not getattr(args, "no_calibration", False)
    common.SAID.clear()
    if args.install_shortcut or args.remove_shortcut:
        return _shortcut(install=args.install_shortcut, lang=lang)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UsageError as e:
        from rigbuilder.domain.i18n import render

        print(f"rigbuilder: {render(e.args[0] if e.args else '', args.lang)}", file=sys.stderr)
        return 2
    except ValueError as e:  # the user database refused a write (a full disk, read-only, locked)
        from rigbuilder.catalog.userdb import UserDatabaseError
        from rigbuilder.domain.i18n import render

        if not isinstance(e, UserDatabaseError):
            raise
        if e.args and e.args[0] in common.SAID:
            return 2  # the notice printed when the catalog opened said why already
        print(f"rigbuilder: {render(e.args[0] if e.args else '', args.lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
