"""A program that started the window with start_app() and loaded the graphs leaves without a
crash when the interpreter exits (issue 31: PySide6's clean-up deleted pyqtgraph's items in no
particular order and crashed in about one run in three; the window is now deleted first). The
window is painted before pyqtgraph is imported (issue 36: it is loaded afterwards, a piece a turn),
and the graphs drawn with it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys, time
from PySide6.QtCore import QEvent, QObject
from rigbuilder.app import start_app

class FirstPaint(QObject):
    seen = None
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and self.seen is None:
            self.seen = sorted({"pyqtgraph", "numpy"} & set(sys.modules)) or ["neither"]
        return False

watch = FirstPaint()
from PySide6.QtWidgets import QApplication
import rigbuilder.app
make = rigbuilder.app.create_main_window
def create_main_window(*a, **k):  # the window watched from before it is shown
    w = make(*a, **k)
    w.installEventFilter(watch)
    return w
rigbuilder.app.create_main_window = create_main_window
app, w = start_app(None)
end = time.time() + 60
while not w.graphs_loader.painted and time.time() < end:  # made a piece a turn, then painted
    app.processEvents()
    time.sleep(0.002)
print("graphs" if w.graphs_loader.painted else "no graphs")
print("first-paint:" + ",".join(watch.seen or ["unpainted"]))
print(*sorted({"pyqtgraph"} & set(sys.modules)) or ["no-pyqtgraph"])
from rigbuilder.ui import graphs
print(type(w.graphs_loader.panel.power_plot).__module__.split(".")[0])
w.doc.undo_stack.setClean()
w.close()
"""  # and the interpreter exits as a script's does: atexit calls, then PySide6's clean-up


def test_the_interpreter_exits_cleanly_after_the_graphs_loaded(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONFAULTHANDLER="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]),
               RIGBUILDER_DATA_DIR=str(tmp_path / "data"))  # the session's cache folder (conftest)
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=180)
    graphs, first_paint, loaded, plot_lib = r.stdout.split()
    assert graphs == "graphs", r.stderr[-3000:]
    assert "pyqtgraph" not in first_paint and first_paint != "first-paint:unpainted"  # painted without it
    assert loaded == "pyqtgraph" and plot_lib == "pyqtgraph"  # and the graphs then drawn with it
    assert r.returncode == 0, r.stderr[-3000:]
