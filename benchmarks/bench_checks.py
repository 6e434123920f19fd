"""Speed of the check engine and the arranger (issue 3 targets: check < 2 ms median, arrange < 200 ms).

Run: .venv/bin/python benchmarks/bench_checks.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import time_ms  # noqa: E402
from rigbuilder.catalog.loader import load_shipped  # noqa: E402
from rigbuilder.domain.build import Build, GpuPlacement  # noqa: E402
from rigbuilder.domain.catalog import PartIndex  # noqa: E402
from rigbuilder.rules.arrange import arrange  # noqa: E402
from rigbuilder.rules.engine import run_checks  # noqa: E402
from tests.builds import x99_4x3090  # noqa: E402


def main() -> None:
    index = PartIndex(load_shipped()[0])
    eight = x99_4x3090(280)
    eight.gpus = [GpuPlacement("gpu-asus-rtx-3090-turbo", p) for p in (1, 2, 3, 4, 5, 6, 7)] + \
        [GpuPlacement("gpu-asus-rtx-3090-turbo", 4, "riser")]
    n_findings = len(run_checks(eight, index))
    med, p95 = time_ms(lambda: run_checks(eight, index), 300)
    print(f"check, 8-GPU build ({n_findings} findings): median {med:.2f} ms, p95 {p95:.2f} ms (target median < 2 ms)")
    mixed = ["gpu-asus-rtx-3090-turbo", "gpu-gigabyte-rtx-3090-turbo", "gpu-nvidia-rtx-a6000",
             "gpu-asus-rtx-2080-ti-turbo", "gpu-nvidia-rtx-4000-ada", "gpu-nvidia-rtx-a4000", "gpu-nvidia-rtx-a5000"]
    seven = Build(motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
                  case="case-phanteks-enthoo-719", psus=["psu-evga-supernova-1600-t2"],
                  gpus=[GpuPlacement(g, None) for g in mixed])
    med, p95 = time_ms(lambda: arrange(seven, index), 15)
    print(f"arrange, 7 different cards over the 7-slot ASRock X99 WS-E: median {med:.1f} ms, p95 {p95:.1f} ms (target < 200 ms)")
    same = Build(motherboard="mb-asrock-x99-ws-e", gpus=[GpuPlacement("gpu-asus-rtx-3090-turbo", None)] * 7)
    med, p95 = time_ms(lambda: arrange(same, index), 15)
    print(f"arrange, 7 identical cards: median {med:.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
