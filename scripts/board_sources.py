#!/usr/bin/env python3
"""Write docs/board-sources.md's board-by-board section from the shipped board rows.

    python scripts/board_sources.py          (rewrites the section between its markers)
    python scripts/board_sources.py --check  (exit 1 when the document is out of date)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rigbuilder.catalog.boardsources import replace_section, section  # noqa: E402
from rigbuilder.catalog.loader import catalog_files, load_catalog_file  # noqa: E402
from rigbuilder.domain.parts import Motherboard  # noqa: E402

DOC = ROOT / "docs" / "board-sources.md"


def boards() -> list:
    out = []
    for f in catalog_files():
        if f.name.startswith("motherboards"):
            parts, _problems = load_catalog_file(f)
            out += [p for p in parts if isinstance(p, Motherboard)]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    new = replace_section(text, section(boards()))
    if a.check:
        return 0 if new == text else 1
    DOC.write_text(new, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
