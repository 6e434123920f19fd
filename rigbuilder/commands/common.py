"""Helpers the sub-commands share: opening the catalog and build files with clear errors."""
from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from rigbuilder.config import Paths
from rigbuilder.domain.i18n import N_, T, nT


class UsageError(Exception):
    """Bad input from the user: printed as one message, exit code 2. The message is a ``T`` (or
    plain text from elsewhere): ``rigbuilder.cli.main`` renders it in the output's language."""


OUTPUT_LANG = "en"
"""The language of this run's output (``rigbuilder.cli.main`` sets it), for texts printed on the way."""
USED_ESTIMATES = True
"""Whether this run offers used prices the depreciation model estimates (``--no-estimates``: no)."""
CALIBRATE = True
"""Whether this run's plans are calibrated by the user's measured power logs (--no-calibration)."""
SAID: list = []
"""The notices this run printed (a refused write that a notice already explained is not said twice)."""


def open_catalog(user: bool = True):
    """The catalog; what the user must know about their data folder (a damaged database moved
    aside, a read-only one, a broken rates file) is said once on stderr."""
    from rigbuilder.catalog.store import open_catalog as _open
    from rigbuilder.domain.i18n import render

    try:
        cat = _open(Paths.from_env(), with_user=user, used_estimates=USED_ESTIMATES)
    except ValueError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    except OSError as e:
        raise UsageError(T("cannot open the catalog: {error}", error=str(e))) from None
    if not CALIBRATE:
        cat.apply_calibration(False)
    for note in cat.notices:
        if note not in SAID:
            print(f"rigbuilder: {render(note, OUTPUT_LANG)}", file=sys.stderr)
            SAID.append(note)
    return cat


def load_build(path: str):
    from rigbuilder.files.buildfile import BuildFileError, load

    try:
        return load(Path(path))
    except BuildFileError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None


def add_command(sub, name: str, func, *, json: bool = False, **kw):
    """A sub-command ``name`` of ``sub`` (its ``help``, ``description`` ... in ``kw``) that runs
    ``func``; with ``json``, its --json flag. Returns the parser for the command's own arguments."""
    p = sub.add_parser(name, **kw)
    p.set_defaults(func=func)
    if json:
        add_json_flag(p)
    return p


def add_json_flag(p) -> None:
    """``--json``: the command's result as JSON, its field names stable (and English) for scripts."""
    p.add_argument("--json", action="store_true", help=N_("JSON output (stable field names)"))


def refuse_overwrite(path: str, force: bool) -> None:
    """A command that writes a new file (``new -o``, ``lab pull -o``, ``cluster new``) never replaces
    one that exists unless told to with --force."""
    if not force and path != "-" and os.path.lexists(path):
        raise UsageError(T("{path} exists; --force overwrites it", path=str(path)))


def json_safe(data: Any) -> Any:
    """``data`` with every float that is not finite (NaN, Infinity) as None: JSON has neither, and a
    reader such as JavaScript's JSON.parse refuses Python's ``Infinity``."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: json_safe(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [json_safe(v) for v in data]
    return data


def print_json(data: Any) -> None:
    """Every ``--json`` output: standard JSON (never NaN or Infinity: null where a figure is not finite)."""
    json.dump(json_safe(data), sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write("\n")


def require_parts(build, index, path: str) -> None:
    """Refuse a build naming parts this catalog lacks (or of the wrong kind): figures made without
    them would silently leave them out. ``check`` reports them as findings instead."""
    from rigbuilder.rules.context import Context

    missing = Context(build, index).missing
    if missing:
        raise UsageError(nT("{path}: names {n} part this catalog lacks or of another kind: {ids}; "
                            "'rigbuilder check {path}' lists it",
                            "{path}: names {n} parts this catalog lacks or of another kind: {ids}; "
                            "'rigbuilder check {path}' lists them", len(missing), path=path,
                           ids=", ".join(dict.fromkeys(missing))))


def apply_edits(build, index, steps, say=None):
    """Apply ``(flag text, edit)`` steps in order; the first refused one is a UsageError naming
    the flag and why. ``say`` is given what a step did other than asked (``Edit.remarks``)."""
    from rigbuilder.domain.edits import EditError

    for flag, edit in steps:
        try:
            if say is not None:
                for note in edit.remarks(build, index):
                    say(T("{flag}: {error}", flag=flag, error=note))
            build = edit.applied_to(build, index)
        except EditError as e:
            raise UsageError(T("{flag}: {error}", flag=flag, error=e.args[0] if e.args else str(e))) from None
    return build


def save_build(build, path: str) -> None:
    from rigbuilder.files.buildfile import BuildFileError, save

    try:
        save(build, Path(path))
    except BuildFileError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    except OSError as e:
        raise UsageError(T("cannot write {path}: {error}", path=path, error=e.strerror or str(e))) from None


def number_arg(flag: str, text, lo: float, hi: float) -> float:
    """A command-line number within [lo, hi], or a UsageError naming the flag and the value."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise UsageError(T("{flag} {value}: expected a number", flag=flag, value=str(text))) from None
    if not math.isfinite(v) or not lo <= v <= hi:
        raise UsageError(T("{flag} {value}: must be between {lo:g} and {hi:g}", flag=flag, value=str(text), lo=lo, hi=hi))
    return v
