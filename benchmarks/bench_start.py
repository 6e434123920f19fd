"""What users wait for at launch (issue 31), each figure a ratio to its reference measured in the
same run: ``--runs`` rounds (default 10), each round running a case and its reference back to
back, so that a shared machine's load hits both alike. Prints min-median-max of the ratios and
the median times.

- first start / warm start: launch to the window answering input (its event loop's first turn)
  with an empty data and cache folder, then again with what the first start left; the shipped
  catalog database as a package carries it, prebuilt (``resources/catalog/catalog.sqlite``,
  made here when missing: ``rigbuilder catalog build-db``);
- warm start / same-classes bare window: the bare window first imports every PySide6 name the
  start-up UI modules import (``bench_ui.same_classes_window``), then shows a 1440x900 window;
- the largest GUI-thread stall after the window answers: the longest gap between turns of a
  2 ms timer from the first turn until the community rows are all in the catalog list (warm
  and first starts, the graphs' loading left out); then the same with the graphs loading too,
  until the power and cost panel has been painted in its place (``GraphsLoader.painted``);
- ``report b.rig -o x.md`` / ``rigbuilder --version``; ``import-list`` of a 20-line
  PCPartPicker list / ``check b.rig`` (launch to exit).

Whether the byte code was compiled is printed: the environment here sets
PYTHONDONTWRITEBYTECODE, a user's install has compiled byte code (``--compile`` runs
``python -m compileall rigbuilder`` with the variable unset first).

Run: .venv/bin/python benchmarks/bench_start.py [--runs 10] [--compile]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ui import same_classes_window  # noqa: E402

TICKS = """
import time, sys
from PySide6.QtCore import Qt, QTimer
ticks, cpu = [], []
def tick():  # the event loop's turns: the first says the window answers; the gaps, how long it did not
    ticks.append(time.time())
    cpu.append(time.thread_time())  # the GUI thread's own CPU time: what it did between two turns
    if done() or ticks[-1] - ticks[0] > 20:
        app.quit()
timer = QTimer(); timer.setTimerType(Qt.TimerType.PreciseTimer); timer.setInterval(2); timer.timeout.connect(tick); timer.start()
app.exec()
print(ticks[0], max([b - a for a, b in zip(ticks, ticks[1:])] or [0]), max([b - a for a, b in zip(cpu, cpu[1:])] or [0]))
"""
APP = """
import sys
graphs = sys.argv[2] == "graphs"
import rigbuilder.app
if not graphs:  # the community rows' loading on its own: the graphs' imports left out (patched
    make = rigbuilder.app.create_main_window  # as the window is made, so the imports keep the app's order)
    def create_main_window(*a, **k):
        from rigbuilder.ui.panel_loader import GraphsLoader
        GraphsLoader.start = lambda self: None
        return make(*a, **k)
    rigbuilder.app.create_main_window = create_main_window
from rigbuilder.app import start_app  # how the app starts
app, w = start_app(sys.argv[1])
w.resize(1440, 900); app.processEvents(); w.repaint()  # laid out and painted at the bare window's size
def done():
    return (w.graphs_loader.painted or not graphs) and not w.catalog_panel.index.pending
""" + TICKS + """
w.doc.undo_stack.setClean(); w.close()
"""


def bare_code() -> str:
    head = same_classes_window().split("import time\n", 1)[0]  # the PySide6 imports
    return head + """
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
w = QMainWindow(); w.resize(1440, 900); w.show(); app.processEvents(); w.repaint()
def done():
    return True
""" + TICKS


def compiled() -> bool:
    src = ROOT / "rigbuilder" / "ui" / "main_window.py"
    pyc = Path(importlib.util.cache_from_source(str(src)))
    return pyc.exists() and pyc.stat().st_mtime >= src.stat().st_mtime


CRASHES: list[str] = []


def launch(argv: list[str], env: dict) -> tuple[float, list[float]]:
    """Seconds from launch to exit, and the numbers the child printed (as offsets from launch
    where they are times)."""
    t0 = time.time()
    r = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=ROOT,
                       env=dict(env, PYTHONFAULTHANDLER="1"))
    wall = time.time() - t0
    if r.returncode not in (0, 1):  # check exits 1 on a build with error findings
        what = ("app " + argv[-1] if len(argv) > 2 else "bare window") if argv[0] == "-c" else " ".join(argv[:3])
        if r.stdout.strip() and r.returncode in (-11, 139):  # measured, then crashed on the way out
            CRASHES.append(f"{what}: {r.stderr.strip().splitlines()[-12:]}")
        else:
            raise SystemExit(f"{what} failed ({r.returncode}): {r.stderr[-3000:]}")
    nums = [float(x) for x in r.stdout.split()] if argv[0] == "-c" else []
    if nums:
        nums[0] -= t0
    return wall, nums


def spread(xs: list[float], fmt: str = "{:.2f}") -> str:
    return "-".join(fmt.format(v) for v in (min(xs), statistics.median(xs), max(xs)))


def twenty_line_list(tmp: Path) -> Path:
    """A PCPartPicker Markdown list of 20 part lines (two of the test lists' lines together)."""
    data = ROOT / "tests" / "files" / "data" / "pcpp"
    rows = []
    for name in ("us-threadripper-4x3090.md", "de-am5-2x4090.md", "au-reddit-post.md"):
        rows += [ln for ln in (data / name).read_text(encoding="utf-8").splitlines() if ln.startswith("**")]
    assert len(rows) >= 20, len(rows)
    out = tmp / "list.md"
    out.write_text("Type|Item|Price\n:----|:----|:----\n" + "\n".join(rows[:20]) + "\n", encoding="utf-8")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--compile", action="store_true", help="compile the byte code first (as an install has it)")
    args = ap.parse_args()
    if args.compile:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-m", "compileall", "-q", "rigbuilder"], cwd=ROOT, env=env, check=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-start-"))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT),
               RIGBUILDER_DATA_DIR=str(tmp / "data"), RIGBUILDER_CACHE_DIR=str(tmp / "cache"))
    prebuilt = ROOT / "resources" / "catalog" / "catalog.sqlite"
    from rigbuilder.catalog.loader import catalog_fingerprint
    from rigbuilder.catalog.shippeddb import db_version

    import sqlite3

    def written_in_list_order() -> bool:
        try:
            with sqlite3.connect(f"file:{prebuilt}?mode=ro", uri=True) as con:
                return con.execute("select value from catalog_meta where key='order'").fetchone() == ("list",)
        except sqlite3.Error:
            return False

    if db_version(prebuilt) != catalog_fingerprint() or not written_in_list_order():
        launch(["-m", "rigbuilder", "catalog", "build-db", "-o", str(prebuilt)], env)
    from rigbuilder.files.buildfile import save
    from tests.builds import x99_4x3090

    rig = tmp / "b.rig"
    save(x99_4x3090(280), rig)
    lst = twenty_line_list(tmp)
    print(f"byte code compiled: {'yes' if compiled() else 'no'} (PYTHONDONTWRITEBYTECODE="
          f"{os.environ.get('PYTHONDONTWRITEBYTECODE', 'unset')}); {args.runs} paired runs; "
          f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    bare = bare_code()
    launch(["-c", APP, str(rig), "graphs"], env)  # warms the disk cache and the match keys below
    launch(["-m", "rigbuilder", "import-list", str(lst)], env)
    first, warm, bare_t, stalls = [], [], [], {}
    cli = {k: [] for k in ("report", "version", "import", "check")}
    for i in range(args.runs):
        fresh = dict(env, RIGBUILDER_DATA_DIR=str(tmp / f"d{i}"), RIGBUILDER_CACHE_DIR=str(tmp / f"c{i}"))
        _, (f_answer, f_stall, f_cpu) = launch(["-c", APP, str(rig), "rows"], fresh)
        _, (w_answer, w_stall, w_cpu) = launch(["-c", APP, str(rig), "rows"], fresh)
        _, (b_answer, _, _) = launch(["-c", bare], env)
        _, (_, g_stall, g_cpu) = launch(["-c", APP, str(rig), "graphs"], fresh)
        first.append(f_answer)
        warm.append(w_answer)
        bare_t.append(b_answer)
        for k, v in (("first", f_stall), ("warm", w_stall), ("graphs", g_stall), ("first cpu", f_cpu),
                     ("warm cpu", w_cpu), ("graphs cpu", g_cpu)):
            stalls.setdefault(k, []).append(v * 1000)
        cli["report"].append(launch(["-m", "rigbuilder", "report", str(rig), "-o", str(tmp / "x.md")], env)[0])
        cli["version"].append(launch(["-m", "rigbuilder", "--version"], env)[0])
        cli["import"].append(launch(["-m", "rigbuilder", "import-list", str(lst)], env)[0])
        cli["check"].append(launch(["-m", "rigbuilder", "check", str(rig)], env)[0])

    def ratio(a: list[float], b: list[float], what: str, target: str) -> None:
        rs = [x / y for x, y in zip(a, b)]
        print(f"  {what}: {spread(rs)}x (median {statistics.median(a):.3f} s vs {statistics.median(b):.3f} s; "
              f"target {target})")

    print("ratios, min-median-max of the paired runs:")
    ratio(first, warm, "first start / warm start (window answering)", "<= 2x")
    ratio(warm, bare_t, "warm start / same-classes bare window", "<= 2x")
    ms = lambda k: spread(stalls[k], "{:.0f}")  # noqa: E731
    print("  largest GUI-thread stall after the window answers, until the community rows are all in the list "
          "(target < 17 ms):")
    print(f"    GUI thread's CPU time between two turns of its event loop: warm {ms('warm cpu')} ms, "
          f"first start {ms('first cpu')} ms")
    print(f"    wall-clock gap between two turns (a loaded machine's scheduling included): warm {ms('warm')} ms, "
          f"first start {ms('first')} ms")
    print(f"    the same with the graphs loading too, until they are painted: CPU {ms('graphs cpu')} ms, "
          f"wall {ms('graphs')} ms")
    ratio(cli["report"], cli["version"], "report b.rig -o x.md / rigbuilder --version", "<= 2x")
    ratio(cli["import"], cli["check"], "import-list (20 lines) / check b.rig", "<= 2x")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if CRASHES:
        print(f"{len(CRASHES)} runs crashed after printing their figures:")
        for c in CRASHES:
            print("  " + c)


if __name__ == "__main__":
    main()
