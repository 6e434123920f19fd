"""The build optimiser: the best complete build for a budget and a workload, today and grown.

A request names a budget, a workload, how many GPUs now and how many later, a region and
preferences. The search looks at complete builds (board, CPU, cooler, memory, storage, PSU, case
and N identical GPUs placed in slots) drawn from the catalog. Each build has two stages: *today*
(the first GPUs) and *grown* (the same build with the rest of the GPUs added and, if allowed, a
second PSU); both are judged by the real check engine and must have no error (and, with the
default preferences, no PSU with less than 10% headroom). Builds are ranked by

    throughput of the grown build / (purchase now + cost of growing + N years of energy)

(energy of the grown build at the request's hours and price per kWh), ties broken by PSU
headroom. Throughput comes from a :class:`Scorer` (the adviser's estimate in the app and the
command line).

Exactness: the search prunes only with bounds that cannot remove the optimum, then lets the
engine judge the survivors:

- parts of one kind that another part of that kind beats on price and on every figure the checks
  and models read for that role (Pareto fronts per kind, in the context of one GPU, board and CPU);
- price floors: a GPU, a (GPU, board, CPU) before its parts are looked at, or a triple, whose best
  possible ratio (the cards' throughput on ideal links, ``_ceiling``, the cheapest part of every
  kind that could go with it, the least energy any PSU could draw) is below the best build found
  so far (the pairs come cheapest first, so the walk stops at the first that cannot win);
- within a triple, the combinations of parts and PSU options come cheapest first (``_Walk``) and
  the walk stops when no combination left can beat the best found;
- slot spacing: a board with no N slots far enough apart for the card (no overlap, no touching
  fans, with the quiet preference a full slot of air);
- PSU floors: wattage, connectors and the wall circuit, computed with the same formulas the
  checks use;
- the budget: the same floors for the purchase now, then the purchase now computed exactly.

Placement and the other parts are separable for the engine (errors about slots, lanes, airflow gaps
and expansion positions depend only on the board, CPU, drive, case size and where the cards sit;
the others not on where the cards sit), so the search within one (GPU, board, CPU) triple walks
(parts, placement) pairs best-first and each engine verdict removes either a placement or a set of
parts. ``tests/rules/test_exact_optimise.py`` compares the answer with brute force.

Parts without a usable price cannot be costed: they are left out and counted (said in the result);
a kind of which no part has a price at all (memory in the shipped catalog) is left out of every
build, and the result says so. Parts the user owns cost nothing; parts the user insists on are
priced as usual (an insisted part without a price stops the search with a message).
"""
from __future__ import annotations

import bisect
import contextlib
import gc
import heapq
import math
import threading
import time
from dataclasses import replace
from typing import Callable, Optional

from rigbuilder.domain.build import Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.fields import fraction_limit
from rigbuilder.domain.i18n import Money, T
from rigbuilder.domain.money import MoneyError
from rigbuilder.domain.parts import GPU
from rigbuilder.models.prices import change_currency, with_region_energy
import rigbuilder.rules.optimise.choices as choices
from rigbuilder.rules.optimise.explain import Explanation, merge_steps, steps_bar
from rigbuilder.rules.optimise.judge import UNVERIFIED_FIELDS, Judge  # noqa: F401 (UNVERIFIED_FIELDS: where it was)
from rigbuilder.rules.optimise.keeping import Keeper
from rigbuilder.rules.optimise.mount import InSlots
from rigbuilder.rules.optimise.placement import Placement, free_slots  # noqa: F401 (free_slots: where it was)
from rigbuilder.rules.optimise.pools import Pools
from rigbuilder.rules.optimise.power import Power, add_dc
from rigbuilder.rules.optimise.prices import prices_for
from rigbuilder.rules.optimise.request import (Cancelled, Candidate, OptimiseError, Request, Result, Scorer,
                                               figure_num)
from rigbuilder.rules.optimise.tally import Tally
from rigbuilder.rules.optimise.triple import Triple
from rigbuilder.rules.optimise.walk import Walk as _Walk  # noqa: F401 (the name the walk's tests import)


class _Search:
    """The search over (GPU, board, CPU) triples for one request (one power-limit step) and one mount
    (``mount.InSlots``, every card in a board slot, unless given another: ``frames.OnRiser``), in
    rooms given what they need: the pools (``pools``, ``psus``), placement and throughput
    (``placement``), scoring and keeping (``keeping``), the search within a triple (``triple``), the
    engine's verdicts (``judge``) and the explanation (``explain``). What does not depend on the
    power limit is shared by the searches of the limit steps (``shared``): prices, placements, and
    the parts lists and floors of every kind but GPUs and PSUs. ``seed``: builds found before (by the
    searches of other mounts) that this search must beat."""

    def __init__(self, req: Request, index: PartIndex, scorer: Scorer,
                 progress: Optional[Callable[[float, str], None]] = None,
                 cancelled: Optional[Callable[[], bool]] = None, shared: Optional[dict] = None,
                 mount: Optional[InSlots] = None, seed: tuple[Candidate, ...] = ()) -> None:
        self.req, self.index, self.scorer = req, index, scorer
        self.progress, self.cancelled = progress, cancelled
        shared = {} if shared is None else shared
        self.mount = InSlots() if mount is None else mount
        self.prices = shared.get("prices") or shared.setdefault("prices", prices_for(req, index))
        lists: dict = shared.setdefault("lists", {})  # what depends on neither the power limit nor the mount
        mounted: dict = shared.setdefault(("lists", self.mount.key), {})  # ... nor the power limit, on the mount
        scores: dict = shared.setdefault(("scores", req.power_limit), {})  # on the power limit, not the mount
        self.settings = self._settings()
        self.power = shared.get("power")  # its DC draws per part and limit, wall reports: the same at every step
        if self.power is None:
            self.power = shared["power"] = Power(self.settings, req.years)
        self.tally = Tally()
        self.pools = Pools(req, index, scorer, self.prices, self.power, self.mount, self.tally, mounted, progress,
                           cancelled, lists, scores)
        self.place = Placement(req, index, scorer, self.mount, shared.setdefault("placements", {}), mounted, scores)
        # Among the searches of several power-limit steps: the key past which a build of this step
        # cannot be among the merged answer's, from the steps searched before (``explain.steps_bar``).
        done: Optional[list[list[Candidate]]] = shared.get("steps")
        self.keeper = Keeper(req, self.tally.count, None if done is None else steps_bar(done, req.top))
        self.keeper.best.extend(seed)  # in place: the power-limit steps' bar reads this list
        if done is not None:
            done.append(self.keeper.best)
        self.judge = Judge(req, index, scorer, self.settings, self.prices, self.pools, self.place, self.tally)
        self.triple = Triple(req, self.settings, self.pools, self.place, self.keeper, self.judge, self.tally, cancelled)
        self.explanation = Explanation(req, index, scorer, self.settings, self.prices, self.pools, self.tally,
                                       self.place)

    @property
    def best(self) -> list[Candidate]:
        return self.keeper.best

    def _settings(self) -> Settings:
        req = self.req
        base = Settings(region=req.region, load_hours_per_day=req.load_hours_per_day,
                        idle_hours_per_day=req.idle_hours_per_day)
        try:
            s = change_currency(base, req.currency, self.index.prices.rates)
        except MoneyError as e:
            raise OptimiseError(T("currency {currency}: {error}", currency=req.currency, error=str(e))) from None
        if req.price_per_kwh is not None:
            s = replace(s, price_per_kwh=float(req.price_per_kwh))
        else:  # the region's household price of a kWh (``domain.market.ENERGY``), converted
            s = with_region_energy(s, self.index.prices.rates)
        return replace(s, condition="used" if req.condition == "used" else "new")

    # -- the whole search ------------------------------------------------------------------------
    def run(self) -> Result:
        t0 = time.perf_counter()
        bad = self.req.problems() + choices.problems(self.req)
        if bad:
            raise OptimiseError("; ".join(bad))
        self.pools.prepare()
        fixed, owned = self.pools.fixed, self.pools.owned
        req = self.req
        n1 = req.n_grown
        gpus, pairs = self.pools.setup(fixed, owned)
        if not gpus:
            return self.explanation.finish(self.keeper.best, t0, self.explanation.no_gpu_reason())
        self.tally.reach("board")
        # Order GPUs by the best ratio they could reach (every card at full single-card throughput,
        # the cheapest platform any GPU could have, the cheapest part of every other kind that
        # could go with the card, the least energy its cards and the case fans alone draw).
        pairs.sort(key=lambda t: (t[2], t[0].id, t[1].id))  # cheapest first: the pair bounds fall along it
        plat_floor = pairs[0][2] if pairs else math.inf
        order = []
        for s, g, gcost in gpus:
            dc = add_dc(*(self.pools.gpu_dc(g),) * n1, self.power.fans)
            rest, rest_now = self.pools.gpu_floor(g)
            least = gcost + plat_floor + rest + self.power.energy_floor(dc)
            ub = 1000 * n1 * s / max(1e-9, least)
            order.append((ub, s, g, gcost, rest, rest_now, self.power.energy_floor(dc), least))
        if req.goal == "per-cost":
            order.sort(key=lambda t: (-t[0], t[2].id))
        else:  # the best bound of each objective first
            order.sort(key=lambda t: (self.keeper.bound(n1 * t[1], t[7], t[2]), t[2].id))
        for k, (ub, s, g, gcost, rest, rest_now, efloor, least) in enumerate(order):
            if self.cancelled and self.cancelled():
                raise Cancelled()
            if self.progress:
                self.progress(k / len(order), g.name)
            if self.mount.covers(g):
                self.tally.count("GPU: an earlier riser, no dearer, gives its cards the same links and frames")
                continue
            if not self.keeper.may_improve(n1 * s, least, g):
                self.tally.count("GPU: price floor (best possible ratio below the best found)")
                continue
            now = self.pools.price(g, owned.get("gpu", 0) if "gpu" in fixed else 0, req.n_now) + plat_floor + rest_now
            if req.budget is not None and now > req.budget + 1e-9:
                self.tally.note_floor_now(now)
                self.tally.count("GPU: budget floor (cheapest purchase now with the card over budget)")
                continue
            self._gpu(g, s, gcost, pairs, rest, rest_now, efloor, least)
        return self.explanation.finish(self.keeper.best, t0, None if self.keeper.best else self.explanation.reason())

    def _gpu(self, g: GPU, s: float, gcost: float, pairs, rest: float, rest_now: float, efloor: float,
             least0: float) -> None:
        """Every (board, CPU) for ``g``, best possible ratio first. The pairs come cheapest first,
        and a pair's cheap bound (its price plus ``g``'s floors for the other kinds) falls along
        them, so the walk stops at the first pair that cannot beat the best found or fit the
        budget; a pair's exact floors (its case, cooler, memory, PSU) are worked out only when
        its cheap bound is reached, and a triple is searched when its exact bound is the highest
        left."""
        req = self.req
        n1 = req.n_grown
        vram_total = g.vram_gb * n1
        gdc = add_dc(*(self.pools.gpu_dc(g),) * n1)
        g_now = self.pools.price(g, self.pools.owned.get("gpu", 0), req.n_now)
        geom = (g.span, g.slot_width, g.cooler, g.pcie_lanes)
        top = self.place.ceiling(g)
        if n1 * s > 0 and not self.keeper.may_improve(top, least0, g):
            self.tally.count("GPU: price floor (best possible ratio below the best found)")
            return
        heap: list = []
        i, npairs = 0, len(pairs)
        # The first pair over the budget now (the pairs come cheapest first), and the pairs in between
        # whose board has no placement for the cards skipped at once: a pair without one adds nothing
        # and its cheap bound is no lower than the next placed pair's, so the triples come in the same
        # order as when every pair is looked at.
        over = npairs if req.budget is None else bisect.bisect_left(
            range(npairs), True, key=lambda j: g_now + pairs[j][2] + rest_now > req.budget + 1e-9)
        k = 0
        while True:
            cheap = -math.inf
            if i < npairs:
                k = self.place.next_placed(pairs, geom, g, i, over)
                if k < npairs:
                    pcost = pairs[k][2]
                    cheap = 1000 * top / max(1e-9, gcost + pcost + rest + efloor)
                    if k == over:
                        self.tally.note_floor_now(g_now + pcost + rest_now)
                        self._spaced(k - i)
                        self.tally.count("triple: budget floor (cheapest purchase now over budget)", npairs - k)
                        i, cheap = npairs, -math.inf
                    elif not self.keeper.may_improve(top, gcost + pcost + rest + efloor, g):
                        self._spaced(k - i)
                        self.tally.count("triple: price floor (best possible ratio below the best found)", npairs - k)
                        i, cheap = npairs, -math.inf
            if heap and -heap[0][0] >= cheap:
                ub, _, _, b, c, pcost, how, pl, parts, least = heapq.heappop(heap)
                if not self.keeper.may_improve(top, least, g):
                    self.tally.count("triple: price floor (best possible ratio below the best found)", len(heap) + 1)
                    return
                if self.cancelled and self.cancelled():
                    raise Cancelled()
                self.triple.search(g, b, c, pcost, how, pl, parts, least)
                continue
            if i >= npairs:
                return
            self._spaced(k - i)
            if k >= npairs:  # no board left holds the cards: the triples queued come next
                i = npairs
                continue
            b, c, pcost, how = pairs[k]
            i = k + 1
            pl = self.place.board_placements(b, geom, g)
            self.tally.reach("parts")
            parts = self.pools.parts(g, b, c, pl, vram_total)
            if parts is None:
                continue
            cases, coolers, mems, stores, floor_rest, floor_psu, floor_psu_now = parts
            dc = add_dc(gdc, self.power.platform(b, c), self.power.fans)
            floor = gcost + pcost + floor_rest + floor_psu
            now_floor = g_now + pcost + floor_rest + floor_psu_now
            self.tally.note_floor_now(now_floor)
            if req.budget is not None and now_floor > req.budget + 1e-9:
                self.tally.count("triple: budget floor (cheapest purchase now over budget)")
                continue
            least = floor + self.power.energy_floor(dc)
            ub = 1000 * top / max(1e-9, least)
            heapq.heappush(heap, (-ub, b.id, c.id, b, c, pcost, how, pl, parts, least))

    def _spaced(self, n: int) -> None:
        if n:
            self.tally.count("board: slot spacing (no N slots far enough apart for the card)", n)


_GC = {"depth": 0, "was": False}
_GC_LOCK = threading.Lock()


@contextlib.contextmanager
def cyclic_gc_paused():
    """Python's cyclic garbage collector paused while any search runs (in any thread), resumed as it was when
    the last one ends. A search makes and keeps hundreds of thousands of small objects (its pools, lists,
    floors and throughput figures) and almost no cycles; the collector's full passes walk every one of them
    again and again (a fifth to a quarter of a search's time on a catalog with every part priced). Reference
    counting frees what the search drops as always; what cycles there are are collected after."""
    with _GC_LOCK:
        if _GC["depth"] == 0:
            _GC["was"] = gc.isenabled()
            gc.disable()
        _GC["depth"] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC["depth"] -= 1
            if _GC["depth"] == 0 and _GC["was"]:
                gc.enable()


LIMIT_STEPS = (1.0, 0.9, 0.8, 0.7)
"""The power-limit steps the search tries when asked to choose the limit (fractions of board power)."""


def optimise(req: Request, index: PartIndex, scorer: Scorer, *,
             progress: Optional[Callable[[float, str], None]] = None,
             cancelled: Optional[Callable[[], bool]] = None, run: Optional[Callable] = None) -> Result:
    """The best builds for ``req`` (best first), or an answer naming the constraint that cannot be met.
    Raises OptimiseError for a request that cannot be searched, Cancelled when ``cancelled()`` says so.

    With ``req.power_limits`` the power limit is a search variable: each step is searched exactly
    (every card at that fraction of its board power) and the best builds of all steps are merged,
    so the answer is the best over the steps, and a circuit or PSU that binds at full power can be
    met by limiting the cards instead of dropping them.

    ``run(request, shared, progress)`` searches one request (one power-limit step); by default the
    search of builds with their cards in slots (``frames.optimise`` adds the builds on risers)."""
    with cyclic_gc_paused():
        return _optimise(req, index, scorer, progress, cancelled, run)


def _optimise(req: Request, index: PartIndex, scorer: Scorer, progress, cancelled, run) -> Result:
    if run is None:
        def run(sub: Request, shared: Optional[dict], part) -> Result:
            return _Search(sub, index, scorer, part, cancelled, shared).run()
    steps = tuple(dict.fromkeys(req.power_limits))
    if not steps:
        return run(req, None, progress)
    bad = req.problems()
    if bad:
        raise OptimiseError("; ".join(bad))
    t0 = time.perf_counter()
    results: dict[float, Result] = {}
    shared: dict = {"steps": []}
    # The most limited step first: it wins most often (the energy saved outweighs the throughput
    # lost), and the builds it finds bound the other steps' searches (``explain.steps_bar``).
    for i, f in enumerate(sorted(steps)):
        sub = replace(req, power_limit=fraction_limit(f), power_limits=())
        part = None if progress is None else (
            lambda x, text, i=i: progress((i + x) / len(steps), text))
        results[f] = run(sub, shared, part)
    return merge_steps(req, [(f, results[f]) for f in steps], time.perf_counter() - t0)


def budget_step(req: Request, res: Result, index: PartIndex, scorer: Scorer, step: float,
                progress: Optional[Callable[[float, str], None]] = None,
                cancelled: Optional[Callable[[], bool]] = None, optimiser: Optional[Callable] = None) -> list[str]:
    """What ``step`` more budget would buy: the best build at the larger budget against ``res``'s
    (one more search with ``optimiser``, ``optimise`` by default, with its progress and cancel). Nothing
    when the request has no budget."""
    if req.budget is None:
        return []
    more = (optimiser or optimise)(replace(req, budget=req.budget + step), index, scorer, progress=progress,
                                   cancelled=cancelled)
    cur = req.currency
    if more.best is None:
        return [T("+{step}: still no build meets the request.", step=Money(step, cur))]
    if res.best is None:
        return [T("+{step}: {name}, {rate} {unit}.", step=Money(step, cur), name=more.best.label,
                  rate=figure_num(more.best.throughput), unit=more.best.unit)]
    if more.best.key == res.best.key or more.best.label == res.best.label:
        return [T("+{step}: the same build; more budget buys nothing better per cost.", step=Money(step, cur))]
    return [T("+{step}: {name}, {x:.2f}x the throughput for {extra} more now.", step=Money(step, cur),
              name=more.best.label, x=more.best.throughput / res.best.throughput if res.best.throughput else 0,
              extra=Money(more.best.cost_now - res.best.cost_now, cur))]
