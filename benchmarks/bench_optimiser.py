"""Speed of the build optimiser (issue 18 target: the whole shipped catalog in under 2 s for a
4-GPU growth target), and how many candidates each bound removed.

Also runs on a catalog grown to thousands of parts by synthetic variants of the shipped GPUs,
PSUs, cases and boards (timing only: ids ``...-benchvar-N``, prices scaled by a seeded random
factor; never shipped).

Run: .venv/bin/python benchmarks/bench_optimiser.py
"""
from __future__ import annotations

import dataclasses
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rigbuilder.catalog.loader import load_shipped  # noqa: E402
from rigbuilder.catalog.prices import load_observations, load_rates  # noqa: E402
from rigbuilder.domain.catalog import PartIndex  # noqa: E402
from rigbuilder.domain.money import PriceBook  # noqa: E402
from rigbuilder.rules.optimise import Request, optimise  # noqa: E402


def scorer():
    """The adviser's estimate when it is there; else the tests' stand-in (said in the output)."""
    from rigbuilder.rules.optimise_scoring import ThroughputUnavailable, shipped_scorer
    try:
        return shipped_scorer("cnn-training")
    except ThroughputUnavailable:
        from tests.rules.optimise_helpers import StandIn
        return StandIn()


def grown_catalog(parts, factor: int, seed: int = 1):
    rnd = random.Random(seed)
    out = list(parts)
    for p in parts:
        if p.KIND not in ("gpu", "psu", "case", "motherboard") or p.price is None:
            continue
        for k in range(factor):
            out.append(dataclasses.replace(p, id=f"{p.id}-benchvar-{k}", price=round(p.price * rnd.uniform(0.8, 1.4), 2)))
    return out


REQUESTS = {
    "seed-000-like: 2,000 EUR, 1 GPU now, 4 later, EU, new prices": Request(budget=2000, currency="EUR", gpus_now=1, grow_to=4),
    "seed-000-like, new or used prices": Request(budget=2000, currency="EUR", condition="both", gpus_now=1, grow_to=4),
    "1 GPU now, 4 later, EU, no budget": Request(currency="EUR", gpus_now=1, grow_to=4),
    "1 GPU now, 4 later, quiet, ATX 3.x, second PSU allowed": Request(currency="EUR", gpus_now=1, grow_to=4, quiet=True,
                                                                      atx3=True, second_psu=True),
    "seed-001-like: 4 x 24 GB, used prices, US 15 A": Request(currency="USD", condition="used", gpus_now=4,
                                                              min_vram_gb=24, region="US-15A"),
}


def run(index: PartIndex, label: str, sc) -> None:
    counts = {k: len(index.of_kind(k)) for k in ("gpu", "motherboard", "cpu", "psu", "case")}
    print(f"\n== {label}: " + ", ".join(f"{v} {k}s" for k, v in counts.items()))
    for name, req in REQUESTS.items():
        times = []
        for _ in range(3):
            t = time.perf_counter()
            res = optimise(req, index, sc)
            times.append(time.perf_counter() - t)
        best = res.best
        print(f"- {name}: {min(times):.3f} s (best of 3; target < 2 s), {res.judged} builds judged by the engine")
        if best:
            print(f"  best: {best.label}, {best.ratio:.4g} {best.unit} per 1,000 {req.currency}, "
                  f"total {best.total:,.0f} {req.currency}")
        else:
            print(f"  no build: {res.infeasible}")
        for bound, n in sorted(res.bounds.items(), key=lambda kv: -kv[1]):
            print(f"    {n:7d}  {bound}")


def main() -> None:
    parts, _ = load_shipped()
    prices = PriceBook.of(load_observations(), load_rates())
    sc = scorer()
    print(f"throughput: {sc.label}")
    run(PartIndex(parts, prices=prices), "shipped catalog", sc)
    run(PartIndex(grown_catalog(parts, 10), prices=prices), "catalog with 10 synthetic variants per GPU, PSU, case, board", sc)


if __name__ == "__main__":
    main()
