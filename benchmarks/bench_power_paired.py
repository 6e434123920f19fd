"""The power and cost panel against an earlier one, in one process (issue 23): bench_power.py's edit
loop on both panels, edit by edit in turn (which goes first alternates, so a busy machine slows
both alike), timed by the wall clock and by the process's CPU time.

Run: git show <commit>:rigbuilder/ui/graphs.py > /tmp/graphs_before.py
     .venv/bin/python benchmarks/bench_power_paired.py /tmp/graphs_before.py [N]
The earlier module is loaded from its file beside this tree's package (it must take
``show_build(build, index)``, as every panel since issue 5 does).
"""
from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from rigbuilder.catalog.loader import load_shipped
    from rigbuilder.domain.build import Build, GpuPlacement, PartCount, Settings
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.ui.graphs import PowerCostPanel

    spec = importlib.util.spec_from_file_location("rigbuilder.ui.graphs_before", sys.argv[1])
    before = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(before)
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    app = QApplication.instance() or QApplication([])
    parts, _ = load_shipped()
    index = PartIndex(parts)

    def build() -> Build:
        return Build(name="8x RTX 3090", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
                     psus=["psu-evga-supernova-1600-t2", "psu-evga-supernova-1600-t2"],
                     memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
                     gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", p) for p in range(1, 9)],
                     settings=Settings(region="US-20A", price_per_kwh=0.16, currency="USD"))

    panels = {}
    for name, cls in (("before", before.PowerCostPanel), ("after", PowerCostPanel)):
        panel, b = cls(), build()
        panel.resize(1100, 900)
        panel.show()
        panel.show_build(b, index)
        panels[name] = (panel, b)
    app.processEvents()

    def edit(b: Build, i: int) -> None:
        b.gpus[i % 8].power_limit_w = None if b.gpus[i % 8].power_limit_w else 280.0
        b.settings.price_per_kwh = 0.16 + 0.01 * (i % 5)

    for clock_name, clock in (("wall", time.perf_counter), ("cpu", time.process_time)):
        for label, repaint in (("models + plot data", False), ("models + plot data + repaint", True)):
            times: dict[str, list[float]] = {"before": [], "after": []}
            for i in range(n):
                for name in (("before", "after") if i % 2 else ("after", "before")):
                    panel, b = panels[name]
                    edit(b, i)
                    t0 = clock()
                    panel.show_build(b, index)
                    if repaint:
                        panel.plots.repaint()  # (the charts, children of it, with it)
                    times[name].append((clock() - t0) * 1000)
                    app.processEvents()
            med = {k: statistics.median(v) for k, v in times.items()}
            p95 = {k: sorted(v)[int(0.95 * (len(v) - 1))] for k, v in times.items()}
            print(f"{clock_name:4} {label:30} before {med['before']:6.2f} ms (p95 {p95['before']:6.2f})   "
                  f"after {med['after']:6.2f} ms (p95 {p95['after']:6.2f})   after/before "
                  f"{med['after'] / med['before']:.2f}   (n={n}, 8 GPUs)")
    for panel, _b in panels.values():
        panel.close()


if __name__ == "__main__":
    main()
