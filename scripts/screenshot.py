"""Render the main window with a seed build to a PNG.

  QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py docs/images/main-window.png
  xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python scripts/screenshot.py shot.png   (a real X window)
Options: --seed 000-4 (Frank's box with four RTX 2070s, default) | 000 | 001;
--lang de|fr|ja|zh_CN (the window's language); --theme dark|light; --tab adviser (the Adviser
dock in front); --findings FILE.png and --adviser FILE.png also save those panels on their own.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("output")
    ap.add_argument("--seed", default="000-4", choices=("000", "000-4", "001"))
    ap.add_argument("--size", default="1440x900")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--theme", default="light", choices=("light", "dark", "system"))
    ap.add_argument("--tab", default="build", choices=("build", "adviser"))
    ap.add_argument("--findings", help="also save the findings panel to this PNG")
    ap.add_argument("--adviser", help="also save the adviser panel to this PNG")
    args = ap.parse_args()
    import os
    tmp = tempfile.mkdtemp()
    os.environ.setdefault("RIGBUILDER_DATA_DIR", tmp)
    from PySide6.QtWidgets import QApplication

    from rigbuilder.app import create_main_window, make_settings
    from rigbuilder.config import Paths, Preferences
    from rigbuilder.files.buildfile import save
    from tests.builds import frank_2070, x99_4x3090

    app = QApplication.instance() or QApplication([])
    build = {"000": frank_2070(1), "000-4": frank_2070(4), "001": x99_4x3090(280)}[args.seed]
    rig = Path(tmp) / "seed.rig"
    save(build, rig)
    paths = Paths.from_env()
    prefs = Preferences.open(make_settings(paths))
    prefs.set("ui/language", args.lang if args.lang != "en" else "en")
    prefs.set("appearance/theme", args.theme)
    win = create_main_window(paths, str(rig))
    w, h = (int(x) for x in args.size.split("x"))
    win.resize(w, h)
    win.show()
    app.processEvents()
    win.graphs_loader.load()  # as the window shows them a moment after it opens (their imports run on a thread)
    for _ in range(5):
        app.processEvents()
    if win.doc.findings:
        win.findings_panel.tree.setCurrentItem(win.findings_panel.tree.topLevelItem(0))
        app.processEvents()
    if args.tab == "adviser" or args.adviser:
        win.adviser_dock.raise_()
        for _ in range(5):
            app.processEvents()
    if args.adviser:
        win.adviser_dock.widget().grab().save(args.adviser)
    if args.tab != "adviser":
        win.right_tabs.parentWidget().raise_()  # the Build dock
        for _ in range(5):
            app.processEvents()
    if args.findings:
        win.findings_panel.grab().save(args.findings)
    win.grab().save(args.output)
    print(f"wrote {args.output} ({w}x{h})")
    win.doc.undo_stack.setClean()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
