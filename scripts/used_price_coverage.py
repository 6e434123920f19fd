"""Print the used-price coverage table of docs/data-sources.md ("Used prices, observed and
estimated") from the shipped catalog and price files:

    python scripts/used_price_coverage.py

GPU chips and other parts with a dated used observation, GPU rows with an observed used price,
GPU rows (and chips) with only an estimated one, and the estimate's error on held-out chips.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rigbuilder.catalog.store import open_catalog  # noqa: E402
from rigbuilder.config import Paths  # noqa: E402
from rigbuilder.models.depreciation import estimator_for  # noqa: E402
from rigbuilder.models.prices import catalog_observation  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        cat = open_catalog(Paths(Path(tmp) / "data", Path(tmp) / "cache"), with_user=False)
        ix = cat.index
        est = estimator_for(ix, catalog_observation)
        chips, others, gpu_rows, est_rows, est_chips = set(), set(), 0, 0, set()
        for p in ix:
            dated = [o for o in ix.prices.for_part(p.id) if o.condition == "used" and o.date]
            if dated:
                if p.KIND == "gpu":
                    chips.add(p.chip_model)
                    gpu_rows += 1
                else:
                    others.add(p.id)
            elif p.KIND == "gpu" and est is not None and est.estimate(p, ix) is not None:
                est_rows += 1
                est_chips.add(p.chip_model)
        print("| coverage | count |\n|---|---:|")
        print(f"| GPU chips with a dated used observation | {len(chips)} |")
        print(f"| other parts with a dated used observation | {len(others)} |")
        print(f"| GPU rows with an observed used price | {gpu_rows:,} |")
        print(f"| GPU rows with an estimated used price (no observed one) | {est_rows:,}, of {len(est_chips - chips)} "
              "more chips |")
        if est is not None:
            e = est.error
            print(f"| the estimate's held-out error ({e.chips} chips) | half within ±{e.median_abs * 100:.0f}%, 80% "
                  f"within {e.low * 100:+.0f}% to {e.high * 100:+.0f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
