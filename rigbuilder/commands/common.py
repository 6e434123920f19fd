"""Helpers the sub-commands share: opening the catalog and build files with clear errors."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from rigbuilder.config import Paths


class UsageError(Exception):
    """Bad input from the user: printed as one message, exit code 2."""


def open_catalog(user: bool = True):
    from rigbuilder.catalog.store import open_catalog as _open

    try:
        return _open(Paths.from_env(), with_user=user)
    except ValueError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot open the catalog: {e}") from None


def load_build(path: str):
    from rigbuilder.files.buildfile import BuildFileError, load

    try:
        return load(Path(path))
    except BuildFileError as e:
        raise UsageError(str(e)) from None


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def require_parts(build, index, path: str) -> None:
    """Refuse a build naming parts this catalog lacks (or of the wrong kind): figures made without
    them would silently leave them out. ``check`` reports them as findings instead."""
    from rigbuilder.rules.context import Context

    missing = Context(build, index).missing
    if missing:
        raise UsageError(f"{path}: names {len(missing)} part(s) this catalog lacks or of another kind: "
                         f"{', '.join(dict.fromkeys(missing))}; 'rigbuilder check {path}' lists them")


def apply_edits(build, index, steps):
    """Apply ``(flag text, edit)`` steps in order; the first refused one is a UsageError naming
    the flag and why."""
    from rigbuilder.domain.edits import EditError

    for flag, edit in steps:
        try:
            build = edit.apply(build, index)
        except EditError as e:
            raise UsageError(f"{flag}: {e}") from None
    return build


def save_build(build, path: str) -> None:
    from rigbuilder.files.buildfile import BuildFileError, save

    try:
        save(build, Path(path))
    except BuildFileError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


def number_arg(flag: str, text, lo: float, hi: float) -> float:
    """A command-line number within [lo, hi], or a UsageError naming the flag and the value."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise UsageError(f"{flag} {text}: expected a number") from None
    if not math.isfinite(v) or not lo <= v <= hi:
        raise UsageError(f"{flag} {text}: must be between {lo:g} and {hi:g}")
    return v
