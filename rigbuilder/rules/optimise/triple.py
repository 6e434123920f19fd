"""One (GPU, board, CPU): the best build of its case, cooler, memory kit, drive, PSU option and
placement. The combinations come lazily, cheapest first (``walk.Walk``), each checked for what the
search can decide without the engine (cooler height, PSU length, the budgets, PSU capacity and
transients, the wall circuit); the engine judges the best kept combination with its best placement left as soon as no
combination not yet looked at can beat it, and each verdict removes a placement or a set of parts."""
from __future__ import annotations

import heapq
import math
from typing import Callable, Optional

from rigbuilder.domain.build import Settings
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, Motherboard
from rigbuilder.rules.fit import cooler_fits_case, cooler_radiator, psu_fits_case
import rigbuilder.rules.optimise.choices as choices
from rigbuilder.rules.optimise.judge import Judge
from rigbuilder.rules.optimise.keeping import Keeper
from rigbuilder.rules.optimise.placement import Placement
from rigbuilder.rules.optimise.pools import radiators_ok
from rigbuilder.rules.optimise.power import MAX_EFFICIENCY, add_dc
from rigbuilder.rules.optimise.request import Cancelled, Request
from rigbuilder.rules.optimise.tally import Tally
from rigbuilder.rules.optimise.walk import Combo, Walk
from rigbuilder.rules.power import HEADROOM


class Triple:
    """The search within one (GPU, board, CPU), given the search's rooms."""

    def __init__(self, req: Request, settings: Settings, pools, place: Placement, keeper: Keeper, judge: Judge,
                 tally: Tally, cancelled: Optional[Callable[[], bool]] = None) -> None:
        self.req, self.settings, self.pools, self.place = req, settings, pools, place
        self.keeper, self.judge, self.tally, self.cancelled = keeper, judge, tally, cancelled

    def search(self, g: GPU, b: Motherboard, c: CPU, pcost: float, how: str, pl, parts, least: float) -> None:
        """The best build of one (GPU, board, CPU): the combinations of case, cooler, memory kit,
        drive and PSU option come lazily, cheapest first (price plus the least energy the part
        could draw), each checked for what the search can decide without the engine; the engine
        judges the best kept combination (with its best placement left) as soon as no combination
        not yet looked at can beat it."""
        req, own, pw = self.req, self.pools.owned, self.pools.power
        n0, n1 = req.n_now, req.n_grown
        cases, coolers, mems, stores, *_ = parts
        self.tally.reach("engine")
        riser = self.place.mount.riser
        # Once per mount, placement list, card and CPU (the same at every power-limit step).
        memo = self.pools._shared.setdefault(("triple", "linked"), {})
        got = memo.get((id(pl), b.id, g.id, c.id))
        if got is None or got[0] is not pl:
            got = memo[(id(pl), b.id, g.id, c.id)] = (pl, [x for x in pl if choices.link_ok(req, g, b, c, x[0], riser)])
        linked = got[1]
        if len(linked) < len(pl):
            self.tally.count("placement: a platform or link a builder would not choose (choices)", len(pl) - len(linked))
            pl = linked
            if not pl:
                self.tally.fail("link", T("the {board} with the {cpu} is no platform a builder would choose for the {gpu} "
                                          "(training-link, platform-link, platform-age)", board=b.name, cpu=c.name,
                                          gpu=g.name))
                return
        g_now = self.pools.price(g, own.get("gpu", 0), n0)
        g_all = self.pools.price(g, own.get("gpu", 0), n1)
        gdc1 = add_dc(*(self.pools.gpu_dc(g),) * n1)
        gdc0 = add_dc(*(self.pools.gpu_dc(g),) * n0)
        base = add_dc(pw.platform(b, c), pw.fans)
        psu_opts = self.pools.psu.options(g, add_dc(gdc1, base)[2])
        if not psu_opts:
            self.tally.count("triple: PSU wattage floor (no PSU carries the grown build)")
            self.tally.fail("psu", T("no PSU with a price carries {n} x {gpu} on the {board} with 10% headroom", n=n1,
                                gpu=g.name, board=b.name) if req.psu_headroom else
                       T("no PSU with a price carries {n} x {gpu} on the {board}", n=n1, gpu=g.name, board=b.name))
            return
        circuit = self.settings.circuit_w()
        least_wall = add_dc(gdc1, base)[2] / MAX_EFFICIENCY  # no PSU turns the grown build's peak into less
        if least_wall > circuit + 1e-9:
            self.tally.count("triple: wall circuit floor (the cards, board and CPU alone draw more at the wall)")
            self.tally.fail("circuit", T("{n} x {gpu} with the {board} and its CPU alone draw at least {wall:.0f} W at "
                                         "the wall, over the {circuit:.0f} W a {region} circuit carries", n=n1,
                                         gpu=g.name, board=b.name, wall=least_wall, circuit=circuit,
                                         region=T(self.settings.region_info().label)))
            return
        spikes1, spikes0 = self.pools.psu.spikes(g, n1), self.pools.psu.spikes(g, n0)
        grown_budget = req.grown_budget
        head = HEADROOM if req.psu_headroom else 1.0
        blowers = req.quiet and g.cooler == "blower"
        if req.max_noise is not None:
            coolers, psu_opts = self.pools.psu.quiet_parts(g, coolers, psu_opts)
            if not psu_opts or not coolers:
                self.tally.count("triple: noise floor (no CPU cooler and PSU quiet enough with the cards)")
                self.tally.fail("psu", T("no CPU cooler and PSU with a price are quiet enough with {n} x {gpu} for "
                                    "{limit:.0f} dB(A) at 1 m", n=n1, gpu=g.name, limit=req.max_noise))
                return
        # PSU options that no combination can pass: the grown or today's build with the least drawing
        # cooler, memory kit and drive over the option's rating with the headroom, or with the cards'
        # spikes where the policy refuses them (both grow with the draw, so no other parts pass either).
        least = sum(min(pw.part(x)[2] for x in lst) for lst in (coolers, mems, stores))
        low1, low0 = add_dc(gdc1, base)[2] + least, add_dc(gdc0, base)[2] + least
        kept = []
        for o in psu_opts:
            rating1 = o[0].wattage + (o[1].wattage if o[1] is not None else 0)
            if low1 * head > rating1 + 1e-9 or low0 * head > o[0].wattage + 1e-9:
                self.tally.count("triple: PSU option too small for the least drawing parts")
            elif (spikes1 is not None and not (o[0].atx3 and (o[1] is None or o[1].atx3))
                  and low1 + spikes1 > rating1 + 1e-6) or \
                    (spikes0 is not None and not o[0].atx3 and low0 + spikes0 > o[0].wattage + 1e-6):
                self.tally.count("triple: PSU option under the cards' spikes (not ATX 3.x)")
            else:
                kept.append(o)
        if not kept:
            self.tally.fail("psu", T("no PSU with a price carries {n} x {gpu} on the {board} with the cards' spikes "
                                     "(a PSU that is not ATX 3.x) or the headroom", n=n1, gpu=g.name, board=b.name))
            return
        psu_opts = kept
        walk = Walk(self.pools, cases, coolers, mems, stores, psu_opts, now=pcost + g_now, total=pcost + g_all,
                     fixed_dc=add_dc(base, gdc1))
        if not walk.left or not self.keeper.may_improve(self.place.ceiling(g), walk.floor(), g):
            self.tally.count("triple: price floor (best possible ratio below the best found)")
            return
        # Placements by (drive, case size): throughput order; each list shrinks as the engine rejects.
        by_key: dict = {}

        def plist(key2):
            lst = by_key.get(key2)
            if lst is None:
                sid, cs = key2
                sto = self.pools.index.get(sid) if sid else None
                lst = []
                for pos, need in pl:
                    if need > cs:
                        continue
                    t = self.place.throughput(g, b, c, sto, pos)
                    lst.append((-t, self.place.soft(b, c, g, pos), pos))
                lst.sort()
                by_key[key2] = lst = [[t, pos] for t, _, pos in lst]
            return lst

        # The most any combination could give: the best placement left for any drive and case size;
        # for a drive whose placements are not scored yet, the best placement with no drive (a drive
        # only takes lanes: ``_throughput`` checks that no drive gives more).
        key2s = list(dict.fromkeys((sto.id if sto else None, case.expansion_slots) for sto in stores for case in cases))
        bare: dict = {}

        def bare_best(cs: int) -> float:
            v = bare.get(cs)
            if v is None:
                v = bare[cs] = max((self.place.throughput(g, b, c, None, pos) for pos, need in pl if need <= cs), default=0.0)
            return v

        def best_left() -> float:
            return max((-lst[0][0] if lst else 0.0) if (lst := by_key.get(k2)) is not None else bare_best(k2[1])
                       for k2 in key2s)

        top = best_left()
        if top <= 0:  # no placement in any case size (cannot happen: every case holds the fewest slots)
            return
        if not self.keeper.may_improve(top, walk.floor(), g):
            self.tally.count("triple: price floor (best possible ratio below the best found)")
            return
        heap: list = []  # (rank key, the combination's place in the product of the lists: ties, combination)
        seen = 0
        while True:
            # What no combination not yet looked at can beat: the top throughput over the least cost left.
            ub_key = self.keeper.key(top, max(1e-9, walk.floor()), math.inf, blowers) if walk.left else None
            if ub_key is not None and self.keeper.beaten(ub_key):
                self.tally.count("combination: price bound (ratio below the best found)", walk.drop())
                ub_key = None
            if ub_key is not None and not (heap and heap[0][0] < ub_key):
                seen += 1
                if seen % 2048 == 0 and self.cancelled and self.cancelled():
                    raise Cancelled()
                got = walk.next()
                if got is None:
                    continue
                order, (case, cooler, mem, sto, (psu_now, p1, p2)), rest = got
                if cooler is not None and not cooler_fits_case(cooler, case):
                    self.tally.count("combination: cooler too tall for the case")
                    continue
                if cooler_radiator(cooler) and not radiators_ok(self.req, g, cooler, case):
                    self.tally.count("combination: radiators (the case's mounts cannot hold the cards' and the "
                                     "cooler's radiators, or are not known)")
                    continue
                if not all(psu_fits_case(p, case) for p in (p1, p2) if p is not None):
                    self.tally.count("combination: PSU too long for the case")
                    continue
                cost_now = pcost + rest + psu_now + g_now
                if req.budget is not None and cost_now > req.budget + 1e-9:
                    self.tally.count("combination: over budget now")
                    continue
                cost_growth = (g_all - g_now) + (self.pools.price(p2) if p2 else 0.0)
                if grown_budget is not None and cost_now + cost_growth > grown_budget + 1e-9:
                    self.tally.count("combination: over the grown stage's budget")
                    continue
                psus1 = (p1, p2) if p2 else (p1,)
                rating1 = sum(p.wattage for p in psus1)
                parts_dc = add_dc(base, pw.part(cooler), pw.part(mem), pw.part(sto))
                dc1 = add_dc(parts_dc, gdc1)
                dc0 = add_dc(parts_dc, gdc0)
                if dc1[2] * head > rating1 + 1e-9 or dc0[2] * head > p1.wattage + 1e-9:
                    self.tally.count("combination: PSU capacity")
                    continue
                if (spikes1 is not None and not all(p.atx3 for p in psus1) and dc1[2] + spikes1 > rating1 + 1e-6) \
                        or (spikes0 is not None and not p1.atx3 and dc0[2] + spikes0 > p1.wattage + 1e-6):
                    self.tally.count("combination: PSU transients (spikes over a PSU that is not ATX 3.x)")
                    continue
                rep1 = pw.wall(dc1, psus1)
                rep0 = pw.wall(dc0, (p1,))
                if rep1.wall["peak"] > circuit or rep0.wall["peak"] > circuit:
                    self.tally.count("combination: wall circuit")
                    self.tally.fail("circuit", T("{n} x {gpu} draw about {wall:.0f} W at the wall, over the {circuit:.0f} W "
                                            "a {region} circuit carries", n=n1, gpu=g.name, wall=rep1.wall["peak"],
                                            circuit=circuit, region=T(self.settings.region_info().label)))
                    continue
                energy, per_month = pw.energy(rep1)
                cb = Combo(case, cooler, mem, sto, p1, p2, cost_now, cost_growth, energy, per_month,
                            rating1 / dc1[2] - 1 if dc1[2] else math.inf, dc1[2], rep1.wall["peak"])
                lst = plist(cb.key2)
                if lst:
                    heapq.heappush(heap, (self.keeper.key(-lst[0][0], cost_now + cost_growth + energy, cb.headroom,
                                                    blowers), order, cb))
                continue
            if not heap:
                return
            key, order, cb = heapq.heappop(heap)
            if self.keeper.beaten(key):
                self.tally.count("combination: price bound (ratio below the best found)", len(heap) + 1 + walk.drop())
                return
            if cb.rejected:
                continue
            lst = plist(cb.key2)
            if not lst:
                continue
            t, pos = -lst[0][0], lst[0][1]
            fresh = self.keeper.key(t, cb.cost_now + cb.cost_growth + cb.energy, cb.headroom, blowers)
            if fresh != key:
                heapq.heappush(heap, (fresh, order, cb))
                continue
            if self.cancelled and self.cancelled():
                raise Cancelled()
            verdict = self.judge.judge(g, b, c, cb, pos)
            if verdict is None:
                continue
            bad_place, bad_parts, cand = verdict
            if cand is not None:
                cand.throughput = t
                self.keeper.keep(cand, how)
                return
            if bad_place:
                lst.pop(0)
                top = best_left()
            if bad_parts:
                cb.rejected = True
            else:
                heapq.heappush(heap, (key, order, cb))
