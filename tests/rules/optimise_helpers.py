"""Shared by the optimiser tests: a stand-in throughput model and a brute-force reference search.

``StandIn`` is a TEST STAND-IN, not the shipped model: a card's throughput is its tensor TFLOPS
(the catalog figure), and a card whose link runs below x8 counts 80% (so the placement matters,
as it does for the adviser's scaling model). The shipped command and dialog use the adviser's
estimate.
"""
from __future__ import annotations

import itertools
import math
from typing import Optional

from rigbuilder.domain.build import Build, GpuPlacement, PartCount, PricePaid, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.parts import GPU
from rigbuilder.models.cost import purchase, running_cost
from rigbuilder.models.prices import change_currency
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.optimise import OPTIONAL_KINDS, Request, limit_w, objective_key
from rigbuilder.rules.optimise import choices, policy
from rigbuilder.rules.risers import reaches


class StandIn:
    """TEST STAND-IN throughput: tensor TFLOPS per card, 80% for a card linked below x8."""

    unit = "TFLOPS (test stand-in)"
    label = "test stand-in: tensor TFLOPS"

    def card(self, gpu: GPU) -> Optional[float]:
        return gpu.tensor_tflops

    def build(self, build: Build, index: PartIndex) -> float:
        ctx = Context(build, index)
        total = 0.0
        for g in ctx.gpus:
            link = ctx.link(g)
            total += (g.gpu.tensor_tflops or 0) * (1.0 if link is None or link.width >= 8 else 0.8)
        return total

    def fits(self, gpu: GPU, n_gpus: int) -> bool:
        return True


def _priced(index: PartIndex, kind: str) -> list:
    return [p for p in index.of_kind(kind) if p.price is not None]


def _bad(fs, req: Request, n_gpus: int) -> bool:
    return any(policy.refused(f, req, n_gpus) for f in fs)


def brute_force(req: Request, index: PartIndex, scorer) -> Optional[tuple]:
    """``_brute_force``, with the search's fallback to cards under the builder's least VRAM for training where
    none of that VRAM gives a build (``choices.smaller_cards_may_help``)."""
    got = _brute_force(req, index, scorer)
    if got is None and choices.smaller_cards_may_help(req):
        import dataclasses

        got = _brute_force(dataclasses.replace(req, choices=(*req.choices, ("training-vram", False))), index, scorer)
    return got


def _brute_force(req: Request, index: PartIndex, scorer) -> Optional[tuple]:
    """The best rank key (blowers, -ratio, -headroom) over every build the request allows, by
    enumerating every part of every kind, every placement of the grown build's cards and every
    subset of it for today's; feasibility by the check engine alone. Catalog prices only (no
    bundles, no price book), owned and insisted parts other than GPUs: the small catalogs of the tests.

    With ``req.risers``, also every build with every card on one priced riser model (issue 29), its
    cable in any of the board's slots, in an open frame with a position for each card (the search's
    rule for riser builds; the engine judges the riser's length, plug and links)."""
    n0, n1 = req.n_now, req.n_grown
    settings = change_currency(Build().settings, req.currency, index.prices.rates)
    settings.region = req.region
    settings.load_hours_per_day, settings.idle_hours_per_day = req.load_hours_per_day, req.idle_hours_per_day
    if req.price_per_kwh is not None:
        settings.price_per_kwh = req.price_per_kwh
    else:  # the region's household price of a kWh, as the search takes it
        from rigbuilder.models.prices import with_region_energy

        settings = with_region_energy(settings, index.prices.rates)
    if req.max_noise is not None:  # the engine's noise.loud judges at the request's level, as the search sets it
        settings.room_noise_db = req.max_noise
    kinds = {}
    fixed = dict(req.insist + req.own)
    owned = {pid for _, pid in req.own}
    for kind in ("motherboard", "cpu", "cooler", "memory", "storage", "case", "psu", "gpu"):
        priced = _priced(index, kind)
        kinds[kind] = [index.get(fixed[kind])] if kind in fixed else \
            priced if priced or kind not in OPTIONAL_KINDS else [None]
        if kind == "storage" and kind not in fixed and priced:
            kinds[kind] = [p for p in priced if choices.storage_ok(req, p, m2=False)]
    gpus = [g for g in kinds["gpu"] if scorer.card(g) and g.vram_gb >= req.min_vram_gb
            and g.vram_gb * n1 >= req.min_total_vram_gb and choices.fits(req, scorer, g, n1)]
    psu_opts = [(p, None) for p in kinds["psu"]]
    if req.second_psu and n1 > n0:
        psu_opts += [(a, b) for a in kinds["psu"] for b in _priced(index, "psu") if a.id != b.id]
    scored = []
    mounts = [None] + ([r for r in _priced(index, "riser") if not req.riser_length_mm
                        or r.length_mm >= req.riser_length_mm] if req.risers else [])
    for g, board, cpu, cooler, mem, sto, case, (p1, p2), riser in itertools.product(
            gpus, kinds["motherboard"], kinds["cpu"], kinds["cooler"], kinds["memory"], kinds["storage"],
            kinds["case"], psu_opts, mounts):
        if not choices.sockets_ok(req, g, n0, n1, p1, p2):
            continue  # a card's 12V-2x6 socket on an adapter (the builder's native-sockets choice)
        if mem is not None and "memory" not in fixed and not choices.memory_ok(req, mem, board, cpu, g.vram_gb * n1):
            continue
        if mem is not None and "memory" in fixed and mem.total_gb < choices.ram_needed(req, g.vram_gb * n1):
            continue
        if sto is not None and "storage" not in fixed and not choices.storage_ok(req, sto, bool(board.m2)):
            continue
        if riser is not None and not (case.type == "Open frame" and case.vertical_gpu_slots >= n1
                                      and reaches(case, riser, req.riser_length_mm)):
            continue  # the riser must be known to reach the frame's positions (stated, or the user's measure)
        if riser is None and case.type == "Open frame" and "case" not in fixed:
            continue  # cards in slots: an open frame holds its cards on risers
        if riser is None and "case" not in fixed and not choices.case_ok(req, case):
            continue  # cards in slots: a case whose GPU length limit or expansion positions are unconfirmed

        def card(p, riser=riser, g=g):
            if riser is None:
                return GpuPlacement(g.id, p, power_limit_w=limit_w(g, req.power_limit))
            return GpuPlacement(g.id, p, "riser", limit_w(g, req.power_limit), riser.id)
        base = Build(motherboard=board.id, cpu=cpu.id, cooler=cooler.id if cooler else None, case=case.id,
                     psus=[p1.id], memory=[PartCount(mem.id)] if mem else [],
                     storage=[StorageItem(sto.id)] if sto else [], settings=settings,
                     prices_paid={pid: PricePaid(0.0, req.currency) for pid in owned})
        today = purchase(Build(**{**base.__dict__, "gpus": [card(None) for _ in range(n0)]}), index)
        if today.missing or (p2 is not None and p2.price is None):
            continue  # a part without a price cannot be costed
        if req.budget is not None and today.total > req.budget + 1e-9:
            continue
        for pos in itertools.combinations(sorted(s.position for s in board.slots), n1):
            if not choices.link_ok(req, g, board, cpu, pos, riser):
                continue
            grown = base.clone()
            grown.settings.budget = req.grown_budget
            grown.psus = [p1.id] + ([p2.id] if p2 else [])
            grown.gpus = [card(p) for p in pos]
            ctx = Context(grown, index)
            if req.max_noise is not None and (ctx.noise.level("training") or 0.0) > req.max_noise:
                continue  # louder than the request allows (the noise model itself, not the finding)
            bought = purchase(grown, index).total
            if req.grown_budget is not None and bought > req.grown_budget + 1e-9:
                continue
            total = bought + req.years * running_cost(ctx.power, settings).cost_per_year
            t = scorer.build(grown, index)
            dc = ctx.power.dc["peak"]
            head = ctx.power.psu_rating_w / dc - 1
            key = objective_key(req.goal, t, total, head, req.quiet and g.cooler == "blower", req.target)
            if req.goal == "cheapest" and key[0] is True:
                continue  # short of the target throughput
            scored.append((key, grown, pos, base, card))
    scored.sort(key=lambda x: x[0])
    for key, grown, pos, base, card in scored:
        if _bad(run_checks(grown, index), req, n1):
            continue
        for sub in itertools.combinations(pos, n0):
            today = base.clone()
            today.gpus = [card(p) for p in sub]
            today.settings.budget = req.budget
            if not _bad(run_checks(today, index), req, n0):
                return key
    return None


def same_key(a: tuple, b: tuple) -> bool:
    """Two rank keys equal up to float rounding (sums taken in another order)."""
    return len(a) == len(b) and all(x == y if isinstance(x, bool) else math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
                                    for x, y in zip(a, b))


def agreed(req: Request, index: PartIndex, scorer):
    """The search's result for ``req`` where brute force finds a build (asserting the two agree on the best
    rank key), None where neither finds one (asserting the search finds none either)."""
    from rigbuilder.rules.optimise import optimise

    res = optimise(req, index, scorer)
    want = brute_force(req, index, scorer)
    if want is None:
        assert res.best is None, f"brute force finds nothing, the search found {res.best.grown}"
        return None
    assert res.best is not None, f"the search found nothing ({res.infeasible}); brute force {want}"
    assert same_key(res.best.key, want), (res.best.key, want, res.best.grown)
    return res
