"""A program that started the window with start_app() and loaded the graphs leaves without a
crash when the interpreter exits (issue 31: PySide6's clean-up deleted pyqtgraph's items in no
particular order and crashed in about one run in three; the window is now deleted first). The
graphs are painted without importing pyqtgraph or numpy (the charts are our own since issue 31)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys, time
from rigbuilder.app import start_app
app, w = start_app(None)
end = time.time() + 60
while not w.graphs_loader.painted and time.time() < end:  # made a piece a turn, then painted
    app.processEvents()
    time.sleep(0.002)
print("graphs" if w.graphs_loader.painted else "no graphs")
print(*sorted({"pyqtgraph", "numpy"} & set(sys.modules)) or ["neither"])
w.doc.undo_stack.setClean()
w.close()
"""  # and the interpreter exits as a script's does: atexit calls, then PySide6's clean-up


def test_the_interpreter_exits_cleanly_after_the_graphs_loaded(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONFAULTHANDLER="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]),
               RIGBUILDER_DATA_DIR=str(tmp_path / "data"))  # the session's cache folder (conftest)
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=180)
    assert r.stdout.split() == ["graphs", "neither"], r.stderr[-3000:]
    assert r.returncode == 0, r.stderr[-3000:]
