"""Export a 16-GPU, 40-part build in every format and print the times (target: under 1 s each).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_report.py``
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from rigbuilder.catalog.loader import load_shipped  # noqa: E402
from rigbuilder.domain.build import MOUNT_RISER, Build, GpuPlacement, PartCount, StorageItem  # noqa: E402
from rigbuilder.domain.catalog import PartIndex  # noqa: E402
from rigbuilder.files.report import EXPORTERS, report_data, to_html  # noqa: E402


def big_build(index: PartIndex) -> Build:
    gpus = [p.id for p in index.of_kind("gpu")][:16]
    mems = [p.id for p in index.of_kind("memory")][:4]
    stos = [p.id for p in index.of_kind("storage")][:8]
    nics = [p.id for p in index.of_kind("nic")][:6]
    placements = [GpuPlacement(g, p) for g, p in zip(gpus[:4], (1, 3, 5, 7))]
    placements += [GpuPlacement(g, None, MOUNT_RISER) for g in gpus[4:]]
    b = Build(name="Benchmark: 16 GPUs, 40 parts", motherboard="mb-asrock-x99-ws-e",
              cpu="cpu-intel-xeon-e5-2697-v4", cooler="cool-noctua-nh-u14s", case="case-phanteks-enthoo-719",
              psus=["psu-evga-supernova-1600-t2", next(p.id for p in index.of_kind("psu") if p.id != "psu-evga-supernova-1600-t2")],
              memory=[PartCount(m, 1) for m in mems],
              storage=[StorageItem(s) for s in stos], nics=nics, gpus=placements)
    return b


def main() -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # noqa: F841
    from rigbuilder.ui.printing import board_image_png, render_pdf, write_report

    parts, _ = load_shipped()
    index = PartIndex(parts, version="bench")
    b = big_build(index)
    lines = len({*b.part_ids()})
    print(f"build: {len(b.gpus)} GPUs, {len(b.part_ids())} parts ({lines} distinct lines)")
    with tempfile.TemporaryDirectory() as td:
        t = time.perf_counter()
        img = board_image_png(b, index, Path(td) / "board.png")
        t_img = time.perf_counter() - t
        t = time.perf_counter()
        data = report_data(b, index, board_image_path=img)
        t_data = time.perf_counter() - t
        print(f"{'board image':12} {t_img * 1000:8.1f} ms")
        print(f"{'report_data':12} {t_data * 1000:8.1f} ms")
        for fmt, fn in EXPORTERS.items():
            t = time.perf_counter()
            out = fn(data)
            (Path(td) / f"x.{fmt}").write_bytes(out)
            dt = time.perf_counter() - t
            print(f"{fmt:12} {dt * 1000:8.1f} ms  ({len(out) / 1024:.0f} KiB; total with data+image "
                  f"{(dt + t_data + t_img) * 1000:.0f} ms)")
        t = time.perf_counter()
        pdf = render_pdf(to_html(data).decode(), Path(td) / "x.pdf")
        dt = time.perf_counter() - t
        print(f"{'pdf':12} {dt * 1000:8.1f} ms  ({pdf.stat().st_size / 1024:.0f} KiB; total with data+image "
              f"{(dt + t_data + t_img) * 1000:.0f} ms)")
        # what File > Export and 'rigbuilder report' do: the drawing as SVG, printed as vectors, the
        # page breaks fitted (several layouts of the document)
        t = time.perf_counter()
        pdf = write_report(b, index, "pdf", Path(td) / "y.pdf")
        dt = time.perf_counter() - t
        print(f"{'pdf (export)':12} {dt * 1000:8.1f} ms  ({pdf.stat().st_size / 1024:.0f} KiB, everything included)")


if __name__ == "__main__":
    main()
