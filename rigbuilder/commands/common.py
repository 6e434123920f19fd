"""Helpers the sub-commands share: opening the catalog and build files with clear errors."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rigbuilder.cli import UsageError
from rigbuilder.config import Paths


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
