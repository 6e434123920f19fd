"""GPU adviser (issue 17): the throughput estimate's leave-one-out error per workload, and the time to
recompute every card's figures after a workload change with the full GPU catalog (and one grown to
N cards, as an imported catalog may be). Target for the panel update: under 50 ms.

Run: .venv/bin/python benchmarks/bench_adviser.py [--panel] [N]
Prints the leave-one-out table (each measured chip predicted by a fit without it), then the model
timings; with --panel also the Adviser panel's update time (offscreen Qt).
"""
from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import time_ms  # noqa: E402

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def loo_report() -> None:
    from rigbuilder.models import throughput as T
    from rigbuilder.models.workloads import WORKLOADS

    print("Leave-one-out error of the throughput estimate (|predicted / measured - 1|, after the bias correction)")
    bands = [(b.label, b.unit, T.benchmark_loo(k)) for k, b in T.BENCHMARKS.items()]
    bands.append(("llama.cpp token generation", "tokens/s", T.decode_loo()))
    for label, unit, loo in bands:
        print(f"\n{label} ({unit}), {loo.n} points: mean {loo.mean_abs:.1%} (before the correction "
              f"{loo.raw_mean_abs:.1%}, bias x{loo.bias:.4f}), max {loo.max_abs:.1%}")
        for what, v, p in loo.per_point:
            print(f"  {what:52s} measured {v:9.2f}  predicted {p:9.2f}  {p / v - 1:+7.1%}")
    print("\nBand per preset workload:")
    for wid, e in T.loo_errors().items():
        print(f"  {wid:22s} {e:6.1%}  ({WORKLOADS[wid].label})")
    print("  diffusion-inference    unknown (no measurements)")


def grown(gpus, n):
    out = list(gpus)
    k = 0
    while len(out) < n:
        g = gpus[k % len(gpus)]
        out.append(replace(g, id=f"{g.id}-copy{k}"))
        k += 1
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n_big = int(args[0]) if args else 2500
    loo_report()
    from rigbuilder.catalog.loader import load_shipped
    from rigbuilder.models import adviser
    from rigbuilder.models.workloads import WORKLOADS, workload

    parts, _ = load_shipped()
    gpus = [p for p in parts if p.KIND == "gpu"]
    wls = [workload(w) for w in WORKLOADS] + [workload("qlora", 70e9)]
    print("\nModel figures for every card after a workload change (median / p95 ms):")
    for label, cards in ((f"{len(gpus)} cards (shipped)", gpus), (f"{n_big} cards", grown(gpus, n_big))):
        table = adviser.CardTable.of(cards)
        i = [0]

        def step():
            i[0] += 1
            adviser.figures(table, wls[i[0] % len(wls)], n_gpus=1 + i[0] % 4)

        med, p95 = time_ms(step, 60)
        print(f"  {label:24s} {med:7.2f} / {p95:7.2f}")
    if "--panel" in sys.argv:
        panel_bench(parts, n_big)


def panel_bench(parts, n_big) -> None:
    from PySide6.QtWidgets import QApplication

    from rigbuilder.catalog.prices import load_observations, load_rates
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.domain.money import PriceBook
    from rigbuilder.ui.adviser_panel import AdviserPanel

    app = QApplication.instance() or QApplication([])
    book = PriceBook.of(load_observations(), load_rates())
    print("\nAdviser panel update after a workload or filter change, offscreen (median / p95 ms):")
    gpus = [p for p in parts if p.KIND == "gpu"]
    others = [p for p in parts if p.KIND != "gpu"]
    for label, cards in ((f"{len(gpus)} cards (shipped)", gpus), (f"{n_big} cards", grown(gpus, n_big))):
        index = PartIndex(others + cards, "bench", book)
        panel = AdviserPanel(index)
        panel.resize(900, 700)
        panel.show()
        app.processEvents()
        ids = panel.workload_ids()
        i = [0]

        def step():
            i[0] += 1
            panel.set_workload(ids[i[0] % len(ids)])
            panel.set_filter_fits(i[0] % 2 == 0)
            app.processEvents()

        med, p95 = time_ms(step, 40)
        print(f"  {label:24s} {med:7.2f} / {p95:7.2f}")
        panel.close()
        panel.deleteLater()
        app.processEvents()


if __name__ == "__main__":
    main()
