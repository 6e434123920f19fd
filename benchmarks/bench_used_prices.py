"""Used prices estimated where none is observed (issue 38): the depreciation model's error on chips
held out of its fit, chip by chip, and the time to fit it (once per price book, on the first used
price asked for) and to estimate one part. Target: the fit under 1 s beside the catalog's own
loading, an estimate under 1 ms.

Run: .venv/bin/python benchmarks/bench_used_prices.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.timing import time_ms  # noqa: E402


def main() -> None:
    from rigbuilder.catalog.loader import load_shipped
    from rigbuilder.catalog.prices import load_observations, load_rates
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.domain.money import PriceBook
    from rigbuilder.models import depreciation as D
    from rigbuilder.models.prices import catalog_observation

    parts, _ = load_shipped()
    index = PartIndex(parts, prices=PriceBook.of(load_observations(), load_rates()))
    pts = D.training_points(index, catalog_observation)
    chips = sorted({p.chip for p in pts})
    print(f"{len(pts)} points (chip and month), {len(chips)} chips with a launch price")
    print("Held out (each group of chips predicted by a fit on the others), newest month observed:")
    h = D.held_out(pts)
    folds = D.FOLDS
    ratios = iter(h.ratios)
    for k in range(folds):
        for c in [c for i, c in enumerate(chips) if i % folds == k]:
            r = next(ratios, None)
            if r is not None:
                print(f"  {c:34s} {r:+7.1%}")
    print(h.band())
    t = time.perf_counter()
    est = D.Estimator.from_index(index, catalog_observation)
    print(f"fit (training points, fit, held-out error): {(time.perf_counter() - t) * 1000:.0f} ms")
    gpus = [p for p in index.of_kind("gpu")]
    est._memo.clear()  # noqa: SLF001 - time the estimate itself, not the memo
    t = time.perf_counter()
    n = sum(1 for g in gpus if est.estimate(g, index) is not None)
    dt = (time.perf_counter() - t) * 1000
    print(f"estimates for {len(gpus)} GPU rows: {n} made, {dt:.0f} ms ({dt / len(gpus):.3f} ms each)")
    med, p95 = time_ms(lambda: est.estimate(gpus[0], index), 100)
    print(f"an estimate already made (memo): median {med:.4f} ms, p95 {p95:.4f} ms")


if __name__ == "__main__":
    main()
