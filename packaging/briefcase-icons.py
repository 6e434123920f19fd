#!/usr/bin/env python3
"""Render the icons Briefcase's [tool.briefcase.app.rigbuilder] `icon` names, from the one SVG:
build/briefcase-icons/rigbuilder-<size>.png (Linux), rigbuilder.ico (Windows), rigbuilder.icns
(macOS). Nothing binary is committed; run this before `briefcase create`.

    .venv/bin/python packaging/briefcase-icons.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rigbuilder.render.icon import svg_to_png  # noqa: E402
from rigbuilder.shortcut import MAC_ICON_TYPES, icns, ico  # noqa: E402


def main() -> int:
    svg = (ROOT / "resources" / "icons" / "rigbuilder.svg").read_bytes()
    out = ROOT / "build" / "briefcase-icons"
    out.mkdir(parents=True, exist_ok=True)
    pngs = {s: svg_to_png(svg, s) for s in (16, 32, 48, 64, 128, 256, 512)}
    for s in (16, 32, 64, 128, 256, 512):
        (out / f"rigbuilder-{s}.png").write_bytes(pngs[s])
    (out / "rigbuilder.ico").write_bytes(ico({s: pngs[s] for s in (16, 32, 48, 256)}))
    (out / "rigbuilder.icns").write_bytes(icns({s: pngs[s] for s in MAC_ICON_TYPES}))
    print(f"icons in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
