"""The power and cost panel's loading at start-up, this checkout against another (issue 36: the
charts back on pyqtgraph, loaded after the window's first paint in pieces), paired in one run.

Each side is a ``git archive`` of a commit (default: ``main`` before, ``HEAD`` after) with the
shipped catalog database copied in, started as the app starts (``start_app`` on a 4-GPU build,
the window 1440x900, offscreen), once without compiled byte code (PYTHONDONTWRITEBYTECODE set, no
``__pycache__``) and once with it (``python -m compileall rigbuilder`` with the variable unset, as
an install has it). Every round runs the four launches back to back, the order turned each round,
so that a shared machine's load hits both sides alike. Figures per launch:

- first paint: launch to the window's first paint event;
- largest turn: the longest gap between two turns of a 2 ms timer from the first turn after
  the window's first paint until the panel has been painted in its place (``GraphsLoader.painted``), as wall-clock
  time and as the GUI thread's own CPU time (what it did between two turns, without waiting for
  a core on a loaded machine); the community rows' loading runs in the same turns on both sides;
- charts drawn: launch to the panel painted, as wall-clock time and as the CPU time the process
  (all its threads) had used by then (the work done, without the waits of a loaded machine);
- pyqtgraph at first paint: whether it was imported by then.

Prints min-median-max of the after/before ratios and the median figures.

Run: .venv/bin/python benchmarks/bench_graphs_load.py [--runs 6] [--before main] [--after HEAD]
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = """
import sys, time
launched = float(sys.argv[2])
from PySide6.QtCore import QEvent, QObject, Qt, QTimer

class FirstPaint(QObject):
    at = None
    pg = None
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.time()
            self.pg = "pyqtgraph" in sys.modules
        return False

watch = FirstPaint()
import rigbuilder.app
make = rigbuilder.app.create_main_window
def create_main_window(*a, **k):  # watched from before it is shown
    w = make(*a, **k)
    w.installEventFilter(watch)
    w.resize(1440, 900)
    return w
rigbuilder.app.create_main_window = create_main_window
from rigbuilder.app import start_app
app, w = start_app(sys.argv[1])
ticks, cpu = [], []
done = []
def tick():
    ticks.append(time.time())
    cpu.append(time.thread_time())
    if w.graphs_loader.painted and not done:
        done.append(ticks[-1])
        done.append(time.process_time())
    if done or ticks[-1] - ticks[0] > 30:
        app.quit()
timer = QTimer(); timer.setTimerType(Qt.TimerType.PreciseTimer); timer.setInterval(2)
timer.timeout.connect(tick); timer.start()
app.exec()
# the turns after the window's first paint (that paint's own turn is the window's, not the panel's)
after = [i for i, t in enumerate(ticks) if watch.at is not None and t > watch.at] or list(range(len(ticks)))
gap = max((ticks[i + 1] - ticks[i] for i in after[:-1]), default=0.0)
gap_cpu = max((cpu[i + 1] - cpu[i] for i in after[:-1]), default=0.0)
print("FIGURES", watch.at - launched, gap, gap_cpu, (done[0] if done else float("nan")) - launched, int(bool(watch.pg)),
      done[1] if done else float("nan"))
w.doc.undo_stack.setClean(); w.close()
"""


def checkout(ref: str, dest: Path, compiled: bool) -> Path:
    """``ref``'s tree in ``dest`` with the shipped catalog database; byte code compiled or not."""
    data = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True).stdout
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest)
    db = ROOT / "resources" / "catalog" / "catalog.sqlite"
    if db.exists():
        shutil.copy2(db, dest / "resources" / "catalog" / "catalog.sqlite")
    if compiled:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-m", "compileall", "-q", "rigbuilder"], cwd=dest, env=env, check=True)
    return dest


def launch(tree: Path, rig: Path, tmp: Path) -> list[float]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(tree), PYTHONFAULTHANDLER="1",
               RIGBUILDER_DATA_DIR=str(tmp / f"data-{tree.name}"), RIGBUILDER_CACHE_DIR=str(tmp / f"cache-{tree.name}"))
    r = subprocess.run([sys.executable, "-c", CHILD, str(rig), repr(time.time())], cwd=tree, env=env,
                       capture_output=True, text=True, timeout=240)
    line = next((ln for ln in r.stdout.splitlines() if ln.startswith("FIGURES")), None)
    if line is None:
        raise SystemExit(f"{tree.name}: no figures (exit {r.returncode}):\n{r.stderr[-3000:]}")
    return [float(v) for v in line.split()[1:]]


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    s = sorted(values)
    return "-".join(fmt.format(v) for v in (s[0], statistics.median(s), s[-1]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--before", default="main")
    ap.add_argument("--after", default="HEAD")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-graphs-"))
    try:
        trees = {}
        for side, ref in (("before", args.before), ("after", args.after)):
            for compiled in (False, True):
                name = f"{side}-{'pyc' if compiled else 'src'}"
                trees[name] = checkout(ref, tmp / name, compiled)
        from rigbuilder.files.buildfile import save
        from tests.builds import x99_4x3090

        rig = tmp / "b.rig"
        save(x99_4x3090(280), rig)
        refs = {side: subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True,
                                     text=True).stdout.strip() for side, ref in (("before", args.before),
                                                                                ("after", args.after))}
        print(f"before: {args.before} ({refs['before']}), after: {args.after} ({refs['after']}); {args.runs} rounds; "
              f"offscreen; load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        for name, tree in trees.items():
            launch(tree, rig, tmp)  # warms the disk cache and each side's own caches
        figures: dict[str, list[list[float]]] = {name: [] for name in trees}
        order = list(trees)
        for i in range(args.runs):
            for name in (order if i % 2 == 0 else order[::-1]):
                figures[name].append(launch(trees[name], rig, tmp))
        what = ("first paint (s)", "largest turn, wall (ms)", "largest turn, GUI-thread CPU (ms)",
                "charts drawn (s)", None, "charts drawn, process CPU (s)")
        scale = (1, 1000, 1000, 1, 1, 1)
        for code in ("src", "pyc"):
            before, after = figures[f"before-{code}"], figures[f"after-{code}"]
            print(f"\nbyte code {'compiled (compileall, PYTHONDONTWRITEBYTECODE unset)' if code == 'pyc' else 'not compiled (PYTHONDONTWRITEBYTECODE set, no __pycache__)'}:")
            for k, (label, s) in enumerate(zip(what, scale)):
                if label is None:
                    continue
                b = [r[k] * s for r in before]
                a = [r[k] * s for r in after]
                ratios = [x / y for x, y in zip(a, b)]
                print(f"  {label}: before {spread(b)}, after {spread(a)}; after/before {spread(ratios)}x")
            print(f"  pyqtgraph imported at the first paint: before {sum(r[4] for r in before)}/{len(before)}, "
                  f"after {sum(r[4] for r in after)}/{len(after)} runs")
        print(f"\nload average after: {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
