"""Check shipped catalog files: ``python -m rigbuilder.catalog.validate FILE...``."""
from __future__ import annotations

import sys
from pathlib import Path

from rigbuilder.catalog.loader import load_catalog_file


def main(argv: list[str]) -> int:
    status = 0
    for name in argv:
        parts, problems = load_catalog_file(Path(name))
        for p in problems:
            print(p)
        unverified = sum(1 for x in parts if not x.verified)
        print(f"{name}: {len(parts)} valid rows, {unverified} with unverified fields, {len(problems)} problems")
        status |= bool(problems)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
