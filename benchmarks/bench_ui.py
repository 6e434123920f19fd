"""Desktop app speed (issue 4): drop-to-repaint latency on an 8-card build, and start-up time
against a bare PySide6 window measured in the same run.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_ui.py
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

BARE = """
import time, sys
t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
w = QMainWindow(); w.resize(1440, 900); w.show(); app.processEvents()
print(time.perf_counter() - t0)
"""
APP = """
import time, sys, os
t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication
app = QApplication([])
from rigbuilder.app import create_main_window
from rigbuilder.config import Paths
w = create_main_window(Paths.from_env(), sys.argv[1])
w.show(); app.processEvents()
print(time.perf_counter() - t0)
w.doc.undo_stack.setClean(); w.close()
"""


def startup(code: str, *args: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
        times.append(float(r.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def main() -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from rigbuilder.catalog.loader import load_shipped
    from rigbuilder.domain.build import GpuPlacement
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.files.buildfile import save
    from rigbuilder.ui.main_window import MainWindow
    from tests.builds import x99_4x3090

    tmp = Path(tempfile.mkdtemp())
    os.environ["RIGBUILDER_DATA_DIR"] = str(tmp / "data")
    app = QApplication.instance() or QApplication([])
    index = PartIndex(load_shipped()[0])
    b = x99_4x3090(280)
    b.gpus = [GpuPlacement("gpu-asus-rtx-3090-turbo", p) for p in range(1, 8)] + [GpuPlacement("gpu-asus-rtx-3090-turbo", None, "riser")]
    win = MainWindow(index, QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
    win.doc.replace(b, None)
    win.resize(1440, 900)
    win.show()
    app.processEvents()
    times = []
    for i in range(60):
        t = time.perf_counter()
        win.set_power_limit(i % 8, 250.0 + i)  # one undoable edit
        app.processEvents()  # the repaints Qt schedules for what changed
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(f"edit -> findings, board, panels{' and graphs' if win.graphs else ''} repainted, 8-card build: "
          f"median {statistics.median(times):.1f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms "
          "(target median < 8 ms, p95 < 16 ms)")
    win.doc.undo_stack.setClean()
    win.close()
    rig = tmp / "b.rig"
    save(b, rig)
    env_note = "same machine, same run, median of 5 starts"
    bare = startup(BARE)
    full = startup(APP, str(rig))
    print(f"start-up to shown window: rigbuilder {full:.2f} s, bare PySide6 window {bare:.2f} s, "
          f"ratio {full / bare:.1f}x (target <= 2x; {env_note})")


if __name__ == "__main__":
    main()
