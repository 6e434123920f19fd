"""Render the power and cost panel for a 4x RTX 3090 build to a PNG, offscreen (a smoke test too),
with the power chart's readout over the idle bar; in a language and theme if asked.

Run: .venv/bin/python benchmarks/graphs_screenshot.py [OUT.png] [WIDTHxHEIGHT] [--lang ja] [--dark]
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from rigbuilder.catalog.loader import load_shipped
    from rigbuilder.domain.catalog import PartIndex
    from tests.builds import RTX3090_FE, x99_4x3090

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    lang = sys.argv[sys.argv.index("--lang") + 1] if "--lang" in sys.argv else "en"
    args = [a for a in args if a != lang]
    out = args[0] if args else "/tmp/graphs.png"
    w, h = (int(v) for v in (args[1] if len(args) > 1 else "1100x900").split("x"))
    app = QApplication.instance() or QApplication([])
    from PySide6.QtCore import QPointF

    from rigbuilder.ui import theme
    from rigbuilder.ui.i18n import set_ui_language

    set_ui_language(lang)
    if "--dark" in sys.argv:
        theme.apply(app, "dark")
    parts, _ = load_shipped()
    index = PartIndex(parts)
    build = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    build.gpus[3].power_limit_w = 280
    from rigbuilder.ui.graphs import PowerCostPanel

    panel = PowerCostPanel()
    panel.resize(w, h)
    panel.show_build(build, index)
    panel.show()
    app.processEvents()
    panel._on_mouse_moved(panel.power_plot.vb.mapViewToScene(QPointF(0.0, 500.0)))  # the readout over the idle bar
    app.processEvents()
    if not panel.grab().save(out):
        raise SystemExit(f"could not write {out}")
    print(f"wrote {out} ({w}x{h})")
    panel.close()


if __name__ == "__main__":
    main()
