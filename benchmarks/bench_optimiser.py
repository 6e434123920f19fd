"""Speed of the build optimiser (issue 18 target: the whole shipped catalog in under 2 s for a
4-GPU growth target), and how many candidates each bound removed.

Then on the catalog as a user who imported prices for everything would have it (issue 31):
every row without a price, the community rows included, priced from its specs by a fixed
formula per kind (``spec_price``: timing only, in this script only, never shipped), for the seed
questions and for a tight and an infeasible budget. ``--grown`` adds the older run on a catalog
grown by synthetic variants of the priced GPUs, PSUs, cases and boards.

Run: .venv/bin/python benchmarks/bench_optimiser.py [--repeat 1] [--grown] [--catalog priced] [--only TEXT] [--cold]
(``--catalog priced --only "seed 00"``: the seeds' questions with and without risers, ending with
issue 37's four figures on one line; the process keeps the prices of a catalog, so only the first
search prices every part: ``--cold`` makes every search do so)
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rigbuilder.catalog.loader import load_shipped  # noqa: E402
from rigbuilder.catalog.prices import load_observations, load_rates  # noqa: E402
from rigbuilder.domain.catalog import PartIndex  # noqa: E402
from rigbuilder.domain.money import PriceBook, PriceObservation  # noqa: E402
from rigbuilder.rules.optimise import LIMIT_STEPS, Request, optimise  # noqa: E402
from rigbuilder.rules.optimise.prices import forget as forget_prices  # noqa: E402


def scorer():
    """The adviser's estimate when it is there; else the tests' stand-in (said in the output)."""
    from rigbuilder.rules.optimise.scoring import ThroughputUnavailable, shipped_scorer
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
PRICED_REQUESTS = {
    **{k: v for k, v in REQUESTS.items() if k.startswith("seed")},
    # --power-limit auto: the power limit as a search variable (100, 90, 80 and 70% of board power)
    "power-limit steps 100/90/80/70% (auto), the seed-000-like request, new prices": Request(
        budget=2000, currency="EUR", gpus_now=1, grow_to=4, power_limits=LIMIT_STEPS),
    "power-limit steps 100/90/80/70% (auto), the seed-000-like request, new or used prices": Request(
        budget=2000, currency="EUR", condition="both", gpus_now=1, grow_to=4, power_limits=LIMIT_STEPS),
    "tight: 1,100 EUR, 1 GPU now, 2 later": Request(
        budget=1100, currency="EUR", gpus_now=1, grow_to=2),
    "tight: 1,500 EUR, 1 GPU now, 2 later": Request(budget=1500, currency="EUR", gpus_now=1, grow_to=2),
    "infeasible: 400 EUR, 4 x 24 GB now": Request(budget=400, currency="EUR", gpus_now=4, min_vram_gb=24),
    # issue 37: the seeds' own questions, each objective's default, with and without risers (target < 2 s)
    "seed 000: 2,000 EUR, 1 -> 4, DE, quiet (most throughput within the budget)": Request(
        budget=2000, currency="EUR", gpus_now=1, grow_to=4, region="DE-16A", quiet=True),
    "seed 000 with risers": Request(budget=2000, currency="EUR", gpus_now=1, grow_to=4, region="DE-16A", quiet=True,
                                    risers=True),
    "seed 001: 4 x RTX 3090 Turbo, US 15 A, power limit auto": Request(
        currency="USD", condition="both", gpus_now=4, region="US-15A", power_limits=LIMIT_STEPS,
        insist=(("gpu", "gpu-gigabyte-rtx-3090-turbo"),)),
    "seed 001 with risers": Request(currency="USD", condition="both", gpus_now=4, region="US-15A",
                                    power_limits=LIMIT_STEPS, insist=(("gpu", "gpu-gigabyte-rtx-3090-turbo"),),
                                    risers=True),
}


def spec_price(p) -> float:
    """A plausible new price in EUR from a part's specs (timing only: the optimiser's work grows
    with how many parts have a price, not with what the prices are)."""
    k = p.KIND
    if k == "gpu":
        return 150 + 45 * (p.vram_gb or 0) + 0.8 * (p.board_power_w or 0)
    if k == "psu":
        return 40 + 0.12 * (p.wattage or 0)
    if k == "case":
        return 60 + 0.4 * (p.max_gpu_length_mm or 0) / 4 + 15 * (p.expansion_slots or 0)
    if k == "motherboard":
        return 120 + 40 * (p.expansion_positions or 0) + 1.5 * (p.max_memory_gb or 0)
    if k == "cpu":
        return 80 + 22 * (p.cores or 0)
    if k == "memory":
        return 20 + 2.5 * (p.total_gb or 0)
    if k == "storage":
        return 30 + 0.06 * (p.capacity_gb or 0)
    if k == "cooler":
        return 30 + 0.2 * (p.tdp_rating_w or 0)
    return 50.0


def priced(index: PartIndex) -> PartIndex:
    """The same catalog with a user price (as ``rigbuilder price import`` makes) for every part
    that has neither a price of its own nor a shipped observation."""
    book = index.prices
    extra = [PriceObservation(p.id, round(spec_price(p), 2), "EUR", "new", "user", "benchmark", "2026-11-26")
             for p in index if p.price is None and not book.for_part(p.id)]
    return PartIndex(list(index), prices=book.with_observations(extra))


def run(index: PartIndex, label: str, make_scorer, requests: dict = REQUESTS, repeat: int = 3,
        cold: bool = False) -> dict:
    """Each request searched ``repeat`` times; the best (wall, CPU) seconds of each, by name. ``cold``: the
    prices the process keeps (``rules.optimise.prices.prices_for``) dropped before each search, so every
    search prices every part, as the first search of a process does."""
    figures = {}
    counts = {k: len(index.of_kind(k)) for k in ("gpu", "motherboard", "cpu", "psu", "case")}
    print(f"\n== {label}: " + ", ".join(f"{v} {k}s" for k, v in counts.items()))
    for name, req in requests.items():
        times, cpu = [], []
        for _ in range(repeat):
            sc = make_scorer()  # a scorer of its own, as each search of the app and the command line has
            if cold:
                forget_prices()
            t, c = time.perf_counter(), time.process_time()
            res = optimise(req, index, sc)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        figures[name] = (min(times), min(cpu))
        best = res.best
        print(f"- {name}: {min(times):.3f} s, {min(cpu):.3f} s CPU (best of {repeat}; target < 2 s; load average "
              f"{os.getloadavg()[0]:.1f}), {res.judged} builds judged by the engine")
        if best:
            print(f"  best: {best.label}, {best.ratio:.4g} {best.unit} per 1,000 {req.currency}, "
                  f"total {best.total:,.0f} {req.currency}")
        else:
            print(f"  no build: {res.infeasible}")
        for bound, n in sorted(res.bounds.items(), key=lambda kv: -kv[1]):
            print(f"    {n:7d}  {bound}")
    return figures


SEEDS = ("seed 000: 2,000 EUR, 1 -> 4, DE, quiet (most throughput within the budget)", "seed 000 with risers",
         "seed 001: 4 x RTX 3090 Turbo, US 15 A, power limit auto", "seed 001 with risers")
"""Issue 37's four figures: the seeds' questions with and without risers, every part priced (each < 2 s)."""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="runs per request (the best is taken)")
    ap.add_argument("--grown", action="store_true", help="also the catalog grown by synthetic variants")
    ap.add_argument("--only", default="", help="only the requests whose name holds this text (or one of several "
                    "separated by |)")
    ap.add_argument("--catalog", choices=("both", "shipped", "priced"), default="both",
                    help="the shipped catalog's prices, every row priced, or both (priced only: the first request "
                    "is the first search of the process, as a user's first search is)")
    ap.add_argument("--cold", action="store_true", help="every search prices every part (the prices the process "
                    "keeps dropped before each), as the first search of a process does")
    args = ap.parse_args()
    parts, _ = load_shipped()
    prices = PriceBook.of(load_observations(), load_rates())
    print(f"throughput: {scorer().label}")
    shipped = PartIndex(parts, prices=prices)
    pick = lambda reqs: {k: v for k, v in reqs.items() if any(o in k for o in args.only.split("|"))}  # noqa: E731
    if args.catalog != "priced":
        run(shipped, "shipped catalog", scorer, pick(REQUESTS), args.repeat)
    if args.catalog == "shipped":
        return
    full = priced(shipped)
    n = sum(1 for p in full if p.price is not None or full.prices.for_part(p.id))
    got = run(full, f"every row priced from its specs ({n:,} of {len(full):,} parts priced)", scorer,
              pick(PRICED_REQUESTS), args.repeat, args.cold)
    if any(k in got for k in SEEDS):
        print(f"\n== issue 37's four figures, every part priced (target: each < 2 s){'; cold' if args.cold else ''}: "
              + "; ".join(
            f"{k.split(':')[0]}: {got[k][0]:.2f} s ({got[k][1]:.2f} s CPU)" for k in SEEDS if k in got))
    if args.grown:
        run(PartIndex(grown_catalog(parts, 10), prices=prices),
            "catalog with 10 synthetic variants per GPU, PSU, case, board", scorer)


if __name__ == "__main__":
    main()
