"""Power and cost panel speed (issue 5): time to recompute every model and update every graph after
an edit, for an 8-GPU build. Target: median under 5 ms.

Run: .venv/bin/python benchmarks/bench_power.py [N]
Prints two figures: models + plot data (``show_build``), and the same followed by a repaint
(``processEvents`` with the panel shown offscreen).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import median_p95  # noqa: E402
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from rigbuilder.catalog.loader import load_shipped
    from rigbuilder.domain.build import Build, GpuPlacement, PartCount, Settings
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.ui.graphs import PowerCostPanel

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    app = QApplication.instance() or QApplication([])
    parts, _ = load_shipped()
    index = PartIndex(parts)
    build = Build(name="8x RTX 3090", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
                  psus=["psu-evga-supernova-1600-t2", "psu-evga-supernova-1600-t2"],
                  memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
                  gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", p) for p in range(1, 9)],
                  settings=Settings(region="US-20A", price_per_kwh=0.16, currency="USD"))
    panel = PowerCostPanel()
    panel.resize(1100, 900)
    panel.show()
    panel.show_build(build, index)
    app.processEvents()

    def edit(i: int) -> None:
        build.gpus[i % 8].power_limit_w = None if build.gpus[i % 8].power_limit_w else 280.0
        build.settings.price_per_kwh = 0.16 + 0.01 * (i % 5)

    for label, repaint in (("models + plot data", False), ("models + plot data + repaint", True)):
        times = []
        for i in range(n):
            edit(i)
            t0 = time.perf_counter()
            panel.show_build(build, index)
            if repaint:
                panel.plots.repaint()  # (the charts, children of it, with it)
            times.append((time.perf_counter() - t0) * 1000)
            app.processEvents()
        med, p95 = median_p95(times)
        print(f"{label:30} median {med:6.2f} ms   p95 {p95:6.2f} ms   (n={n}, 8 GPUs)")
    panel.close()


if __name__ == "__main__":
    main()
