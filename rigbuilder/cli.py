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
from rigbuilder.domain.i18n import N_

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
)
"""Each module has ``register(subparsers)``; its sub-parsers set ``func(args) -> int``."""




def make_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line's parser; its descriptions and option help in ``lang`` (argparse's own
    words, such as "usage:", come from Python's translations)."""
    p = argparse.ArgumentParser(prog="rigbuilder", description=N_("Plan multi-GPU deep-learning workstations. "
                                "Without a command, opens the desktop app."))
    p.add_argument("--version", action="version", version=f"rigbuilder {__version__}")
    p.add_argument("--lang", metavar="LANG",
                   help=N_("language of the output: en, de, fr, ja, zh_CN (default: the system locale; "
                        "may also follow the command)"))
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

    return run_app(getattr(args, "file", None))


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
    from rigbuilder.codecache import dataclass_code_cached
    from rigbuilder.config import Paths

    with dataclass_code_cached(Paths.from_env().cache_dir):  # the dataclasses' methods, compiled once
        return _command(argv, lang)


def _command(argv: list, lang: Optional[str]) -> int:
    from rigbuilder.domain.i18n import choose_language

    lang = choose_language(lang)
    parser = make_parser(lang)
    args = parser.parse_args(argv)
    args.lang = lang
    from rigbuilder.commands import common

    common.OUTPUT_LANG = lang
    common.SAID.clear()
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
