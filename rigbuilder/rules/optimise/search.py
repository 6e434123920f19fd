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
import heapq
import itertools
import math
import time
from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence

from rigbuilder.domain.build import Build, GpuPlacement, PartCount, PricePaid, Settings, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding
from rigbuilder.domain.fields import fraction_limit
from rigbuilder.domain.i18n import N_, Money, T, interleave
from rigbuilder.domain.money import MoneyError
from rigbuilder.domain.parts import CPU, GPU, PSU, Case, Cooler, MemoryKit, Motherboard, Part, Storage
from rigbuilder.models import lanes as lane_model
from rigbuilder.models import noise as noise_model
from rigbuilder.models.prices import change_currency, with_region_energy
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.fit import norm_form_factor, norm_socket
from rigbuilder.rules.geometry import PLACEMENT_CODES, gap_mm, gap_severity
import rigbuilder.rules.optimise.choices as choices
import rigbuilder.rules.optimise.policy as policy
from rigbuilder.rules.optimise.bounds import (connectors_ok, none_inf, none_zero, pareto, pareto_sorted, placements,
                                              plug_key, psu_front, socket_key)
from rigbuilder.rules.optimise.explain import Explaining, merge_steps, steps_bar
from rigbuilder.rules.optimise.power import Power, add_dc
from rigbuilder.rules.optimise.prices import Prices
from rigbuilder.rules.optimise.request import (KINDS, OPTIONAL_KINDS, Cancelled, Candidate, OptimiseError, Request,
                                               Result, Scorer, build_name, figure_num, limit_w, objective_key)
from rigbuilder.rules.power import HEADROOM

UNVERIFIED_FIELDS = {
    "gpu": {"cooler": N_("cooler type"), "slot_width": N_("slot width"), "length_mm": N_("length")},
    "motherboard": {"slots": N_("slot layout"), "expansion_positions": N_("expansion positions"),
                    "lane_rules": N_("lane sharing")},
    "case": {"expansion_slots": N_("expansion positions"), "max_gpu_length_mm": N_("GPU length limit"),
             "max_cpu_cooler_height_mm": N_("cooler height limit"), "form_factors": N_("board sizes")},
    "cooler": {"height_mm": N_("height"), "sockets": N_("sockets")},
    "psu": {"pcie_8pin": N_("PCIe sockets"), "pcie_cables": N_("PCIe cables"), "length_mm": N_("length")},
}
"""The figures of a part an answer names as unverified when the catalog marks them so."""
_STAGES = ["gpu", "board", "parts", "engine"]
"""How far a search got (the reason for no answer names the furthest)."""
_MISSING = object()


@dataclass
class _Combo:
    case: Case
    cooler: Optional[Cooler]
    memory: Optional[MemoryKit]
    storage: Optional[Storage]
    psu1: PSU
    psu2: Optional[PSU]
    cost_now: float
    cost_growth: float
    energy: float
    per_month: float
    headroom: float
    peak_dc: float
    peak_wall: float
    rejected: bool = False

    @property
    def key2(self) -> tuple:
        return (self.storage.id if self.storage else None, self.case.expansion_slots)


class _Walk:
    """The combinations of a (GPU, board, CPU)'s case, cooler, memory kit, drive and PSU option,
    cheapest first: a best-first walk over the lists sorted by price plus the least energy each part
    could draw (the "k smallest sums" of sorted lists; each combination has one parent, the one with
    its last raised index one lower, so none comes twice). A combination whose parts bought now cost
    more than the budget, with the cheapest part at or after each index, has no successor within
    the budget: its successors are not walked. Each combination comes with its place in the product
    of the lists in their given order (the PSU options cheapest now first), which breaks ties between
    equal rank keys as a walk of the whole product in that order would."""

    def __init__(self, search: "_Search", cases, coolers, mems, stores, psu_opts, *, now: float, total: float,
                 fixed_dc: tuple[float, float, float]) -> None:
        pw = search.power
        dims = [self._dim(search, kind, items) for kind, items in
                (("case", cases), ("cooler", coolers), ("memory", mems), ("storage", stores))]
        # The PSU options: each priced with the least energy of the fixed draw (cards, board, CPU,
        # fans) on it, at its best efficiency over the loads the build could draw (widened to steps
        # of 25 W: a wider range gives a lower floor, and one PSU option's rates serve many triples).
        lo = tuple(25.0 * math.floor(w / 25.0) for w in add_dc(fixed_dc, *(d[6] for d in dims)))
        hi = tuple(25.0 * math.ceil(w / 25.0) for w in add_dc(fixed_dc, *(d[7] for d in dims)))
        # Once per list of options, range of load and fixed draw (triples of one GPU and CPU on boards
        # of the same draw share them).
        cols = search._shared.setdefault(("walk", "psu columns"), {})
        got = cols.get((id(psu_opts), lo, hi, fixed_dc))
        if got is None or got[0] is not psu_opts:
            memo = search._shared.setdefault("energy rates", {})
            rows = []
            for i, (now_, total_, p1, p2, eff) in enumerate(self._psus(search, psu_opts)):  # cheapest now first
                r = memo.get((eff, lo, hi))
                if r is None:
                    r = memo[(eff, lo, hi)] = pw.energy_rates((p1, p2) if p2 is not None else (p1,), lo, hi)
                rows.append((total_ + r[0] * fixed_dc[0] + r[1] * fixed_dc[1], now_, i, (now_, p1, p2)))
            rows.sort(key=lambda r: (r[0], r[2]))
            got = cols[(id(psu_opts), lo, hi, fixed_dc)] = (psu_opts, self._columns(None, rows, (0.0,) * 3, (0.0,) * 3))
        dims.append(got[1])
        self.search = search
        self.keys, self.prices, self.orig, self.items, self.smin = ([d[k] for d in dims] for k in range(1, 6))
        self.lens = [len(k) for k in self.keys]
        self.now, self.total, self.budget = now, total, search.req.budget
        self.size = math.prod(self.lens)
        self.taken = 0
        start = (0,) * len(dims)
        self.heap = [(self._sum(start), start)] if self.size else []

    @staticmethod
    def _psus(search: "_Search", psu_opts: list) -> list:
        """The PSU options as (price now, price all told, PSU, second PSU, what the energy rates read),
        cheapest now first; once per list of options (shared by the triples with the same need)."""
        cache = search._shared.setdefault(("walk", "psu"), {})
        got = cache.get(id(psu_opts))
        if got is not None and got[0] is psu_opts:
            return got[1]
        price, o = search.price, search.owned.get("psu", 0)
        rows = sorted(((price(p1, o), p1, p2) for p1, p2 in psu_opts), key=lambda t: t[0])
        out = [(now_, now_ + (price(p2) if p2 is not None else 0.0), p1, p2,
                (p1.efficiency, p1.wattage, p2.efficiency if p2 else None, p2.wattage if p2 else 0))
               for now_, p1, p2 in rows]
        cache[id(psu_opts)] = (psu_opts, out)
        return out

    @staticmethod
    def _columns(items, rows, lo, hi) -> tuple:
        prices = [r[1] for r in rows]
        smin, m = [], math.inf  # the least price now at or after each index (the budget floor of the successors)
        for v in reversed(prices):
            m = min(m, v)
            smin.append(m)
        return (items, [r[0] for r in rows], prices, [r[2] for r in rows], [r[3] for r in rows], smin[::-1], lo, hi)

    @classmethod
    def _dim(cls, search: "_Search", kind: str, items: list) -> tuple:
        """One kind's list sorted by price plus the least energy the part could draw (the best
        efficiency any 80 PLUS level certifies), with the least and most DC draw of its parts; once
        per list (the lists are shared by the triples)."""
        cache = search._shared.setdefault(("walk", kind), {})
        got = cache.get(id(items))
        if got is not None and got[0] is items:
            return got
        pw, o = search.power, search.owned.get(kind, 0)
        dcs = [pw.part(p) for p in items]
        rows = sorted(((pr + pw.energy_floor(dc), pr, i, p)
                       for i, (p, dc, pr) in enumerate(zip(items, dcs, (search.price(p, o) for p in items)))),
                      key=lambda r: (r[0], r[2]))
        lo = tuple(min(d[k] for d in dcs) for k in range(3)) if dcs else (0.0,) * 3
        hi = tuple(max(d[k] for d in dcs) for k in range(3)) if dcs else (0.0,) * 3
        got = cache[id(items)] = cls._columns(items, rows, lo, hi)
        return got

    def _sum(self, idx: tuple[int, ...]) -> float:
        keys = self.keys
        return keys[0][idx[0]] + keys[1][idx[1]] + keys[2][idx[2]] + keys[3][idx[3]] + keys[4][idx[4]]

    @property
    def left(self) -> bool:
        return bool(self.heap)

    def floor(self) -> float:
        """The least total cost (purchase, growth and the least energy) of any combination not yet walked."""
        return (self.total + self.heap[0][0]) * (1 - 1e-12)

    def drop(self) -> int:
        """Stop: how many combinations were never walked."""
        n = self.size - self.taken
        self.heap, self.taken = [], self.size
        return n

    def next(self):
        """The next combination: (its place in the product, (case, cooler, memory, drive, PSU option),
        the price of the parts but the PSUs), or None when it is over the budget now."""
        _, idx = heapq.heappop(self.heap)
        self.taken += 1
        if self.budget is not None:
            smin = self.smin
            floor = self.now + smin[0][idx[0]] + smin[1][idx[1]] + smin[2][idx[2]] + smin[3][idx[3]] + smin[4][idx[4]]
            if floor > self.budget + 1e-9:
                self.search.count("combination: over budget now")
                if not self.heap:  # what was never walked is over the budget too
                    self.search.count("combination: over budget now", self.drop())
                return None
        last = max((d for d, i in enumerate(idx) if i), default=0)
        for d in range(last, len(idx)):
            if idx[d] + 1 < self.lens[d]:
                j = idx[:d] + (idx[d] + 1,) + idx[d + 1:]
                heapq.heappush(self.heap, (self._sum(j), j))
        if not self.heap and self.taken < self.size:
            self.search.count("combination: over budget now", self.drop())
        items = tuple(self.items[d][i] for d, i in enumerate(idx))
        order = tuple(self.orig[d][i] for d, i in enumerate(idx))
        pr = self.prices
        return order, items, pr[0][idx[0]] + pr[1][idx[1]] + pr[2][idx[2]] + pr[3][idx[3]]


class _Search(Explaining):
    CARDS_IN_SLOTS = True
    """Every card in a board slot: open frames (which hold cards on risers) are no case for these builds."""

    def __init__(self, req: Request, index: PartIndex, scorer: Scorer,
                 progress: Optional[Callable[[float, str], None]] = None,
                 cancelled: Optional[Callable[[], bool]] = None, shared: Optional[dict] = None) -> None:
        self.req, self.index, self.scorer = req, index, scorer
        self.progress, self.cancelled = progress, cancelled
        # What does not depend on the power limit is shared by the searches of the limit steps:
        # prices, placements, and the parts lists and floors of every kind but GPUs and PSUs.
        shared = {} if shared is None else shared
        self.prices = shared.setdefault("prices", Prices(req, index))
        self._shared: dict = shared.setdefault("lists", {})
        self.today = req.today
        self.settings = self._settings()
        self.power = shared.get("power")  # its DC draws per part and limit, wall reports: the same at every step
        if self.power is None:
            self.power = shared["power"] = Power(self.settings, req.years)
        self.bounds: dict[str, int] = {}
        self.excluded: dict[str, int] = {}
        self.left_out: list[str] = []
        self.judged = 0
        self.best: list[Candidate] = []  # top ``req.top``, best first, one per (GPU, board, CPU)
        self.reject_codes: dict[str, tuple[int, str]] = {}
        self.min_floor_now: Optional[float] = None
        self.stage_reached = "gpu"
        self._placements: dict = shared.setdefault("placements", {})
        self._scores: dict = {}
        self._gpu_dc: dict[str, tuple[float, float, float]] = {}
        # Among the searches of several power-limit steps: the key past which a build of this step
        # cannot be among the merged answer's, from the steps searched before (``explain.steps_bar``).
        done: Optional[list[list[Candidate]]] = shared.get("steps")
        self._bar: Optional[tuple] = None if done is None else steps_bar(done, req.top)
        if done is not None:
            done.append(self.best)

    # -- setup ---------------------------------------------------------------------------------
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

    def gpu_dc(self, g: GPU) -> tuple[float, float, float]:
        """One card's DC draw at the request's power limit (once per card: the search asks often)."""
        v = self._gpu_dc.get(g.id)
        if v is None:
            v = self._gpu_dc[g.id] = self.power.part(g, limit_w(g, self.req.power_limit))
        return v

    def count(self, bound: str, n: int = 1) -> None:
        self.bounds[bound] = self.bounds.get(bound, 0) + n

    def _fixed(self) -> tuple[dict[str, Part], dict[str, int]]:
        fixed: dict[str, Part] = {}
        owned: dict[str, int] = {}
        for kind, pid in self.req.insist + self.req.own:
            p = self.index.get(pid)
            if p is None:
                raise OptimiseError(T("{pid}: no such part in the catalog", pid=f"{pid!s:.80}"))
            if p.KIND != kind:
                raise OptimiseError(T("{name} ({pid}) is a {kind}, not a {wanted}", name=p.name, pid=pid, kind=p.KIND,
                                      wanted=kind))
            if kind in fixed and fixed[kind].id != pid:
                if kind == "gpu":
                    raise OptimiseError(T("two different GPUs named ({a}, {b}): the search uses one GPU model for "
                                          "every card", a=fixed[kind].id, b=pid))
                raise OptimiseError(T("two different parts of kind {kind} named ({a}, {b}): the search uses one",
                                      kind=kind, a=fixed[kind].id, b=pid))
            fixed[kind] = p
        for kind, pid in self.req.own:
            owned[kind] = owned.get(kind, 0) + 1
        if owned.get("gpu", 0) > self.req.n_grown:
            raise OptimiseError(T("{n} owned GPUs, more than the {grown} the build grows to", n=owned["gpu"],
                                  grown=self.req.n_grown))
        for kind, n in owned.items():
            if kind != "gpu" and n > 1:
                raise OptimiseError(T("{kind} owned {n} times: a build has one {kind}", kind=kind, n=n))
        for kind, p in fixed.items():
            if owned.get(kind, 0) < (1 if kind != "gpu" else self.req.n_grown) and self.prices.unit(p.id) is None \
                    and kind not in ("motherboard", "cpu"):
                raise OptimiseError(T("{name} ({pid}) has no {cond} price in {currency}, so a build with it cannot "
                                      "be costed: enter your price for it (rigbuilder price set) or name it as owned",
                                      name=p.name, pid=p.id, cond=self._cond_words(), currency=self.req.currency))
        return fixed, owned

    def _cond_words(self) -> str:
        return {"new": T("new"), "used": T("used"), "both": T("new or used")}[self.req.condition]

    def _pool(self, kind: str, fixed: dict[str, Part], owned: dict[str, int]) -> list[Part]:
        if kind in fixed:
            return [fixed[kind]]
        parts = self.index.of_kind(kind)
        if kind in ("motherboard", "cpu"):  # priced per pair: a bundle price may price both
            return parts
        priced = [p for p in parts if self.prices.unit(p.id) is not None]
        if len(priced) < len(parts):
            self.excluded[kind] = len(parts) - len(priced)
        if not priced and parts and kind in OPTIONAL_KINDS:
            self.left_out.append(kind)
        if kind == "storage":  # a drive too small for a data set, or an HDD as the system drive, is no choice
            priced = [p for p in priced if choices.storage_ok(self.req, p, m2=False)]
        if kind == "case" and self.CARDS_IN_SLOTS:
            kept = [p for p in priced if not (isinstance(p, Case) and p.open_frame)]
            if len(kept) < len(priced):
                self.count("case: an open frame (its cards stand on risers, searched with risers only)",
                           len(priced) - len(kept))
            priced = kept
        return priced

    def price(self, p: Optional[Part], owned_units: int = 0, units: int = 1) -> float:
        if p is None:
            return 0.0
        u = self.prices.unit(p.id)
        paid = max(0, units - owned_units)
        if paid == 0:
            return 0.0
        assert u is not None
        return u[0] * paid

    # -- the whole search ------------------------------------------------------------------------
    def run(self) -> Result:
        t0 = time.perf_counter()
        bad = self.req.problems() + choices.problems(self.req)
        if bad:
            raise OptimiseError("; ".join(bad))
        fixed, owned = self._fixed()
        self.fixed, self.owned = fixed, owned
        req = self.req
        n1 = req.n_grown
        gpus, pairs = self._setup(fixed, owned)
        if not gpus:
            return self._finish(t0, self._no_gpu_reason())
        self.stage_reached = "board"
        # Order GPUs by the best ratio they could reach (every card at full single-card throughput,
        # the cheapest platform any GPU could have, the cheapest part of every other kind that
        # could go with the card, the least energy its cards and the case fans alone draw).
        pairs.sort(key=lambda t: (t[2], t[0].id, t[1].id))  # cheapest first: the pair bounds fall along it
        plat_floor = pairs[0][2] if pairs else math.inf
        order = []
        for s, g, gcost in gpus:
            dc = add_dc(*(self.gpu_dc(g),) * n1, self.power.fans)
            rest, rest_now = self._gpu_floor(g)
            least = gcost + plat_floor + rest + self.power.energy_floor(dc)
            ub = 1000 * n1 * s / max(1e-9, least)
            order.append((ub, s, g, gcost, rest, rest_now, self.power.energy_floor(dc), least))
        if req.goal == "per-cost":
            order.sort(key=lambda t: (-t[0], t[2].id))
        else:  # the best bound of each objective first
            order.sort(key=lambda t: (self._bound(n1 * t[1], t[7], t[2]), t[2].id))
        for k, (ub, s, g, gcost, rest, rest_now, efloor, least) in enumerate(order):
            if self.cancelled and self.cancelled():
                raise Cancelled()
            if self.progress:
                self.progress(k / len(order), g.name)
            if not self._may_improve(n1 * s, least, g):
                self.count("GPU: price floor (best possible ratio below the best found)")
                continue
            now = self.price(g, owned.get("gpu", 0) if "gpu" in fixed else 0, req.n_now) + plat_floor + rest_now
            if req.budget is not None and now > req.budget + 1e-9:
                self._note_floor_now(now)
                self.count("GPU: budget floor (cheapest purchase now with the card over budget)")
                continue
            self._gpu(g, s, gcost, pairs, rest, rest_now, efloor, least)
        return self._finish(t0, None if self.best else self._reason())

    def _setup(self, fixed: dict[str, Part], owned: dict[str, int]) -> tuple[list, list]:
        """The pools, the GPUs with their estimates, the (board, CPU) pairs and the PSU fronts: none
        depends on the power limit, so the searches of the limit steps work them out once (each step
        counts what they removed as a search of its own would)."""
        got = self._shared.get("setup")
        if got is not None:
            keep, counts = got
            for name, v in keep.items():  # the lists are only read; what a result reports is its own copy
                setattr(self, name, type(v)(v) if name in ("excluded", "left_out") else v)
            for bound, n in counts:
                self.count(bound, n)
            return self.gpus, self.pairs
        before = dict(self.bounds)
        req = self.req
        n1 = req.n_grown
        pools = {k: self._pool(k, fixed, owned) for k in KINDS}
        self.pools = pools
        # GPUs: the workload's estimate, the VRAM the request asks for.
        gpus: list[tuple[float, GPU, float]] = []
        for k, g in enumerate(pools["gpu"]):
            assert isinstance(g, GPU)
            if self.cancelled and self.cancelled():
                raise Cancelled()
            if self.progress and k % 50 == 0:
                self.progress(0.0, g.name)  # scoring the cards: cancel and progress answer here too
            s = self.scorer.card(g)
            if s is None or s <= 0:
                self.count("GPU: no throughput estimate for the workload")
                continue
            if g.vram_gb < req.min_vram_gb or g.vram_gb * n1 < req.min_total_vram_gb \
                    or not choices.fits(req, self.scorer, g, n1):
                self.count("GPU: too little VRAM")
                continue
            if req.max_noise is not None and self._noise_floor(g) > req.max_noise:
                self.count("GPU: louder than the noise limit")  # the cards and the case fans alone
                continue
            gpus.append((s, g, self.price(g, owned.get("gpu", 0) if "gpu" in fixed else 0, n1)))
        # Board and CPU pairs (sockets, memory type), priced together where a bundle price exists.
        pairs: list[tuple[Motherboard, CPU, float, str]] = []
        for b in pools["motherboard"]:
            for c in pools["cpu"]:
                assert isinstance(b, Motherboard) and isinstance(c, CPU)
                if norm_socket(b.socket) != norm_socket(c.socket) or (c.memory_types and b.memory_type not in c.memory_types):
                    continue
                priced = self._pair_price(b, c)
                if priced is not None:
                    pairs.append((b, c, *priced))
        self.total_pairs = len(pairs)
        self.board_floor: dict[str, float] = {}
        for b, _, cost, _ in pairs:
            self.board_floor[b.id] = min(cost, self.board_floor.get(b.id, math.inf))
        for kind, have in (("motherboard", {b.id for b, *_ in pairs}), ("cpu", {c.id for _, c, *_ in pairs})):
            n = sum(1 for p in pools[kind] if p.id not in have and self.prices.unit(p.id) is None)
            if n and kind not in fixed:
                self.excluded[kind] = n  # no price of its own and none in a bundle with a partner
            pools[kind] = [p for p in pools[kind] if p.id in have]
        # PSUs: one Pareto front per wattage (the same for every GPU and board).
        psus = [p for p in pools["psu"] if isinstance(p, PSU) and (p.atx3 or not req.atx3)]
        if req.atx3 and len(psus) < len(pools["psu"]):
            self.count("PSU: not ATX 3.x", len(pools["psu"]) - len(psus))
        front = psu_front(psus, lambda p: self.price(p, owned.get("psu", 0)), self.power.table)
        self.count("PSU: dominated (Pareto within a wattage: price, efficiency, cables, length)", len(psus) - len(front))
        self.psu_pool = front
        self.psu2_pool: list[PSU] = []
        if req.second_psu:
            every = [p for p in self.index.of_kind("psu") if isinstance(p, PSU) and (p.atx3 or not req.atx3)
                     and self.prices.unit(p.id) is not None]
            front2 = psu_front(every, self.price, self.power.table)
            # A second PSU is another model than the first: a first PSU that dominates every other
            # needs a partner from the next front (each PSU the first front dominates is matched or
            # beaten by one of the two fronts other than the first PSU itself).
            taken = {p.id for p in front2}
            self.psu2_pool = front2 + psu_front([p for p in every if p.id not in taken], self.price, self.power.table)
        self.gpus, self.pairs = gpus, pairs
        names = ("pools", "excluded", "left_out", "gpus", "pairs", "total_pairs", "board_floor", "psu_pool",
                 "psu2_pool")
        self._shared["setup"] = ({k: getattr(self, k) for k in names},
                                 [(k, v - before.get(k, 0)) for k, v in self.bounds.items() if v != before.get(k, 0)])
        return gpus, pairs

    def _key(self, t: float, total: float, headroom: float, blowers: bool) -> tuple:
        """A build's rank key for the request's objective (``request.objective_key``)."""
        return objective_key(self.req.goal, t, total, headroom, blowers, self.req.target)

    def _bound(self, t: float, least: float, g: GPU) -> tuple:
        """The best rank key a build of ``g`` with at most ``t`` throughput and at least ``least`` total
        cost could have."""
        return self._key(t, max(1e-9, least), math.inf, self.req.quiet and g.cooler == "blower")

    def _may_improve(self, t: float, least: float, g: GPU) -> bool:
        return not self._beaten(self._bound(t, least, g))

    def _beaten(self, key: tuple) -> bool:
        """Whether no build with a rank key of at least ``key`` can change the answer: this search's
        top builds are full and the last is at least as good; or, among the searches of several
        power-limit steps, the merged answer's builds from the steps searched before and this
        step's best and next best all beat it (``explain.steps_bar``)."""
        if self.req.goal == "cheapest" and key[0] is True:  # the throughput cannot reach the target
            return True
        if len(self.best) >= max(1, self.req.top) and key >= self.best[-1].key:
            return True
        # Past the other steps' bar and this step's next best, a build changes neither the merged
        # answer nor this step's best and next best (the step's line and, if it wins, its explanation).
        k = min(2, max(1, self.req.top))
        if self._bar is not None and len(self.best) >= k and key > self._bar and key > self.best[k - 1].key:
            self.count("power-limit steps: the builds of the steps searched before beat it")
            return True
        return False

    def _pair_price(self, b: Motherboard, c: CPU) -> Optional[tuple[float, str]]:
        """The board and CPU together: a bundle price for the two when there is one (as the
        purchase takes it), else each part's own; None when one of them cannot be costed."""
        ob, oc = self.owned.get("motherboard", 0), self.owned.get("cpu", 0)
        if not ob and not oc:
            bun = self.prices.bundle(b.id, c.id)
            if bun is not None:
                return bun[0], bun[1]
        if (not ob and self.prices.unit(b.id) is None) or (not oc and self.prices.unit(c.id) is None):
            return None
        return self.price(b, ob) + self.price(c, oc), ""

    # -- one GPU -----------------------------------------------------------------------------------
    def _note_floor_now(self, now: float) -> None:
        """A lower bound on the purchase now of some builds (the budget answer names the least)."""
        self.stage_reached = max(self.stage_reached, "parts", key=_STAGES.index)
        self.min_floor_now = now if self.min_floor_now is None else min(self.min_floor_now, now)

    def _by_price(self, kind: str) -> list:
        """The pool of one kind as (price, part), cheapest first (once per search)."""
        key = ("byprice", kind)
        v = self._shared.get(key)
        if v is None:
            own = self.owned.get(kind, 0)
            v = self._shared[key] = sorted(((self.price(p, own), p) for p in self.pools[kind]),
                                           key=lambda t: (t[0], t[1].id))
        return v

    def _gpu_floor(self, g: GPU) -> tuple[float, float]:
        """(cost, cost now) that every build with ``g`` pays besides the cards, the board and the CPU,
        at least: the cheapest case that takes the card, cooler, memory kit with the RAM asked for,
        drive and PSU option that carries the cards alone. A kind with no such part adds nothing
        here (the per-triple search names it)."""
        req = self.req
        fit = bisect.bisect_left(self._case_limits(), g.length_mm) if g.length_mm else -1
        passive = g.cooler == "passive"
        key = ("gpufloor", g.id)
        fl = self._scores.get(key)
        if fl is not None:
            return fl

        def cheapest(key2, kind, ok=lambda p: True) -> float:
            v = self._shared.get(key2)
            if v is None:
                v = self._shared[key2] = next((price for price, p in self._by_price(kind) if ok(p)), 0.0)
            return v

        rest = cheapest(("casefloor", fit, passive), "case", lambda k: not (
            k.max_gpu_length_mm and g.length_mm > k.max_gpu_length_mm)
            and not (passive and "rack" not in (k.type or "").lower()))
        if "cooler" not in self.left_out:
            rest += cheapest(("coolerfloor",), "cooler")
        if "memory" not in self.left_out:
            need = choices.ram_needed(req, g.vram_gb * req.n_grown)
            rest += cheapest(("memfloor", need), "memory", lambda m: m.total_gb >= need)
        if "storage" not in self.left_out:
            rest += cheapest(("storefloor",), "storage")
        psu, psu_now = self._psu_floors(g)
        fl = self._scores[key] = (rest + (psu or 0.0), rest + (psu_now or 0.0))
        return fl

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
        gdc = add_dc(*(self.gpu_dc(g),) * n1)
        g_now = self.price(g, self.owned.get("gpu", 0), req.n_now)
        geom = (g.span, g.slot_width, g.cooler, g.pcie_lanes)
        top = self._ceiling(g)
        if n1 * s > 0 and not self._may_improve(top, least0, g):
            self.count("GPU: price floor (best possible ratio below the best found)")
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
                k = self._next_placed(pairs, geom, g, i, over)
                if k < npairs:
                    pcost = pairs[k][2]
                    cheap = 1000 * top / max(1e-9, gcost + pcost + rest + efloor)
                    if k == over:
                        self._note_floor_now(g_now + pcost + rest_now)
                        self._spaced(k - i)
                        self.count("triple: budget floor (cheapest purchase now over budget)", npairs - k)
                        i, cheap = npairs, -math.inf
                    elif not self._may_improve(top, gcost + pcost + rest + efloor, g):
                        self._spaced(k - i)
                        self.count("triple: price floor (best possible ratio below the best found)", npairs - k)
                        i, cheap = npairs, -math.inf
            if heap and -heap[0][0] >= cheap:
                ub, _, _, b, c, pcost, how, pl, parts, least = heapq.heappop(heap)
                if not self._may_improve(top, least, g):
                    self.count("triple: price floor (best possible ratio below the best found)", len(heap) + 1)
                    return
                if self.cancelled and self.cancelled():
                    raise Cancelled()
                self._triple(g, b, c, pcost, how, pl, parts, least)
                continue
            if i >= npairs:
                return
            self._spaced(k - i)
            if k >= npairs:  # no board left holds the cards: the triples queued come next
                i = npairs
                continue
            b, c, pcost, how = pairs[k]
            i = k + 1
            pl = self._board_placements(b, geom, g)
            self.stage_reached = max(self.stage_reached, "parts", key=_STAGES.index)
            parts = self._parts(g, b, c, pl, vram_total)
            if parts is None:
                continue
            cases, coolers, mems, stores, floor_rest, floor_psu, floor_psu_now = parts
            dc = add_dc(gdc, self.power.part(c), self.power.part(b), self.power.fans)
            floor = gcost + pcost + floor_rest + floor_psu
            now_floor = g_now + pcost + floor_rest + floor_psu_now
            self._note_floor_now(now_floor)
            if req.budget is not None and now_floor > req.budget + 1e-9:
                self.count("triple: budget floor (cheapest purchase now over budget)")
                continue
            least = floor + self.power.energy_floor(dc)
            ub = 1000 * top / max(1e-9, least)
            heapq.heappush(heap, (-ub, b.id, c.id, b, c, pcost, how, pl, parts, least))

    def _spaced(self, n: int) -> None:
        if n:
            self.count("board: slot spacing (no N slots far enough apart for the card)", n)

    def _next_placed(self, pairs: list, geom: tuple, g: GPU, i: int, stop: int) -> int:
        """The first pair from ``i`` on whose board has a placement for cards of ``geom``, or ``stop``
        when there is none before it. The boards are looked at in the pairs' order once per kind of
        card geometry (every card of that geometry, at every power limit, reads the same list)."""
        st = self._shared.get(("placed", geom))
        if st is None or st[0] is not pairs:
            st = self._shared[("placed", geom)] = [pairs, [], 0]  # pairs, the placed ones, all below looked at
        _, placed, upto = st
        at = bisect.bisect_left(placed, i)
        if at < len(placed):
            return min(placed[at], stop)
        j = upto
        while j < stop:
            if self._board_placements(pairs[j][0], geom, g):
                placed.append(j)
                st[2] = j + 1
                if j >= i:
                    return j
            j += 1
        st[2] = max(st[2], j)
        return stop

    def _board_placements(self, b: Motherboard, geom: tuple, g: GPU):
        key = (b.id, geom)
        pl = self._placements.get(key)
        if pl is None:
            pl = placements(b, g, self.req.n_grown, policy.refuses_gap(self.req))
            self._placements[key] = pl
        return pl

    def _cached(self, key, make):
        """A parts list that depends on neither the cards' power nor the PSUs (shared by the steps)."""
        v = self._shared.get(key, _MISSING)
        if v is _MISSING:
            v = make()
            self._shared[key] = v
        return v

    def _parts(self, g: GPU, b: Motherboard, c: CPU, pl, vram_total: float):
        """The candidate parts of every other kind for one (GPU, board, CPU): compatible, Pareto-
        filtered, with the cheapest of each (price floors). None when a kind has none."""
        req = self.req
        min_cs = min(need for _, need in pl)
        ff = norm_form_factor(b.form_factor)
        passive = g.cooler == "passive"
        # Cases that take the card depend on its length only through which case limits it exceeds:
        # one key per run of lengths between two case limits, not one per GPU length.
        fit = bisect.bisect_left(self._case_limits(), g.length_mm) if g.length_mm else -1
        cases = self._cached(("cases", ff, fit, passive, min_cs), lambda: self._cases(ff, g, min_cs))
        if not cases:
            self.count("triple: no case takes the board and the cards")
            self._fail("case", T("no case with a price takes the {board} and {n} x {gpu}", board=b.name, n=req.n_grown,
                                   gpu=g.name))
            return None
        coolers: list = [None]
        if "cooler" not in self.left_out:
            coolers = self._cached(("coolers", norm_socket(c.socket)), lambda: self._coolers(c))
            if not coolers:
                self.count("triple: no cooler for the CPU socket")
                self._fail("cooler", T("no CPU cooler with a price fits socket {socket}", socket=c.socket))
                return None
        mems: list = [None]
        if "memory" not in self.left_out:
            need = choices.ram_needed(req, vram_total)
            modules = choices.modules_needed(req, b, c) if "memory" not in self.fixed else 1  # yours: as it is
            mems = self._cached(("mems", b.memory_type, b.dimm_slots, b.max_memory_gb, c.memory_types,
                                 c.max_memory_gb, need, modules), lambda: self._mems(b, c, need, modules))
            if not mems:
                self.count("triple: no memory kit for the board and the VRAM")
                self._fail("memory", T("no {mem} kit with a price fits the {board} with {gb:g} GB or more in {n} or "
                                       "more modules", mem=b.memory_type, board=b.name, gb=need, n=modules))
                return None
        stores: list = [None]
        if "storage" not in self.left_out:
            m2 = bool(b.m2)
            stores = self._cached(("stores", m2), lambda: self._stores(m2))
            if not stores:
                self.count("triple: no drive of the size asked for")
                self._fail("storage", T("no drive of {gb:g} GB or more has a price", gb=choices.drive_gb(req))
                           if not choices.on(req, "system-drive") else
                           T("no SSD of {gb:g} GB or more ({nvme}) has a price", gb=choices.drive_gb(req),
                             nvme=T("NVMe: the board has an M.2 socket") if m2 else T("SATA or NVMe")))
                return None
        floor_rest = (self._least("case", cases) + self._least("cooler", coolers) + self._least("memory", mems)
                      + self._least("storage", stores))
        floor_psu, floor_psu_now = self._psu_floors(g)
        if floor_psu is None:
            self.count("triple: PSU wattage floor (no PSU carries the cards)")
            self._fail("psu", T("no PSU with a price carries {n} x {gpu} with 10% headroom", n=req.n_grown,
                                gpu=g.name) if req.psu_headroom else
                       T("no PSU with a price carries {n} x {gpu}", n=req.n_grown, gpu=g.name))
            return None
        return cases, coolers, mems, stores, floor_rest, floor_psu, floor_psu_now

    def _least(self, kind: str, items: list) -> float:
        """The cheapest price in one of the shared parts lists (once per list; [None]: a kind left out)."""
        if items == [None]:
            return 0.0
        got = self._shared.get(("least", id(items)))
        if got is None or got[0] is not items:
            own = self.owned.get(kind, 0)
            got = self._shared[("least", id(items))] = (items, min(self.price(k, own) for k in items))
        return got[1]

    def _case_limits(self) -> list[float]:
        """The distinct GPU length limits of the cases in the pool, sorted."""
        lim = getattr(self, "_case_limits_", None)
        if lim is None:
            lim = self._case_limits_ = sorted({k.max_gpu_length_mm for k in self.pools["case"] if k.max_gpu_length_mm})
        return lim

    def _case_ffs(self, k: Case) -> frozenset:
        """A case's board form factors, normalised once per search."""
        cache = self.__dict__.setdefault("_case_ffs_", {})
        v = cache.get(k.id)
        if v is None:
            v = cache[k.id] = frozenset(norm_form_factor(f) for f in k.form_factors)
        return v

    def _front(self, kind: str, fits: Callable, figures: Callable, bound: str) -> list:
        """The parts of ``kind`` that ``fits``, less those another beats on price and on every one of
        their ``figures`` (Pareto; how many counted under ``bound``)."""
        own = self.owned.get(kind, 0)
        parts = [p for p in self.pools[kind] if fits(p)]
        front = pareto(parts, lambda p: (self.price(p, own), *figures(p)))
        self.count(bound, len(parts) - len(front))
        return front

    def _cases(self, ff: str, g: GPU, min_cs: int) -> list:
        # the cases that take the board size, once per size (most of a large catalog's cases take few)
        # keyed by the front's figures and sorted once per size: each front below filters and scans it
        takes = self._shared.get(("cases taking", ff))
        if takes is None:
            own = self.owned.get("case", 0)
            takes = self._shared[("cases taking", ff)] = sorted(
                (((self.price(k, own), -k.expansion_slots, -none_inf(k.max_cpu_cooler_height_mm),
                   -none_inf(k.max_psu_length_mm)), k)
                 for k in self.pools["case"] if not (k.form_factors and ff not in self._case_ffs(k))),
                key=lambda kx: kx[0])

        def fits(k: Case) -> bool:
            return (not (k.max_gpu_length_mm and g.length_mm > k.max_gpu_length_mm)
                    and not (g.cooler == "passive" and "rack" not in (k.type or "").lower())
                    and k.expansion_slots >= min_cs)

        keyed = [kx for kx in takes if fits(kx[1])]
        front = pareto_sorted(keyed)
        self.count("case: dominated (Pareto: price, slots, cooler height, PSU length)", len(keyed) - len(front))
        return front

    def _coolers(self, c: CPU) -> list:
        sock = norm_socket(c.socket)
        return self._front("cooler", lambda k: not k.sockets or sock in {norm_socket(x) for x in k.sockets},
                           lambda k: (none_zero(k.height_mm), *self.power.part(k)),
                           "cooler: dominated (Pareto: price, height, power)")

    def _mems(self, b: Motherboard, c: CPU, need_gb: float, modules: int = 1) -> list:
        def fits(m: MemoryKit) -> bool:
            return (m.type == b.memory_type and not (c.memory_types and m.type not in c.memory_types)
                    and m.modules <= b.dimm_slots and not (b.max_memory_gb and m.total_gb > b.max_memory_gb)
                    and not (c.max_memory_gb and m.total_gb > c.max_memory_gb) and m.total_gb >= need_gb
                    and m.modules >= modules)

        # registered and unbuffered kits never stand in for each other (compat.memory-registered)
        return self._front("memory", fits, lambda m: (*self.power.part(m), m.registered, not m.registered),
                           "memory: dominated (Pareto: price, power)")

    def _stores(self, m2: bool = False) -> list:
        mine = "storage" in self.fixed  # a drive you own or insist on is taken as it is
        return self._front("storage", lambda s: mine or choices.storage_ok(self.req, s, m2), lambda s: (*self.power.part(s), s.pcie_lanes > 0),
                           "storage: dominated (Pareto: price, power, M.2 lanes)")

    def _psu_floors(self, g: GPU) -> tuple:
        """The cheapest PSU option that could carry the cards alone, all told and bought now (the
        second PSU is bought when growing): price floors, (None, None) when there is none."""
        need_dc = self.req.n_grown * self.gpu_dc(g)[2]
        key = ("psufloor", plug_key(g), need_dc)
        v = self._scores.get(key)
        if v is None:
            # the options that carry the cards' plugs by wattage, with the least prices from each
            # wattage up (once per kind of plugs, whatever the load: every step's loads share it)
            skey = ("psu floors", plug_key(g))
            srt = self._shared.get(skey)
            if srt is None:
                rows = sorted(((w, self._psu_cost((p1, p2)), self.price(p1, self.owned.get("psu", 0)))
                               for p1, p2, w in self._every_psu(g)), key=lambda r: r[0])
                least, least_now, lo, lo_now = [], [], math.inf, math.inf
                for _, cost, now in reversed(rows):
                    lo, lo_now = min(lo, cost), min(lo_now, now)
                    least.append(lo)
                    least_now.append(lo_now)
                srt = self._shared[skey] = ([r[0] for r in rows], least[::-1], least_now[::-1])
            ws, least, least_now = srt
            i = bisect.bisect_left(ws, need_dc * (HEADROOM if self.req.psu_headroom else 1.0) - 1e-9)
            v = self._scores[key] = (least[i], least_now[i]) if i < len(ws) else (None, None)
        return v

    def _psu_cost(self, o: tuple[PSU, Optional[PSU]]) -> float:
        return self.price(o[0], self.owned.get("psu", 0)) + (self.price(o[1]) if o[1] is not None else 0.0)

    def _psus(self, g: GPU, need_dc: float) -> list[tuple[PSU, Optional[PSU]]]:
        """PSU options for the grown build: (PSU bought now, second PSU added when growing or None),
        with enough PCIe cables and at least ``need_dc`` (plus 10% with the headroom preference)."""
        key = ("psus", plug_key(g), need_dc)  # the card counts only through its plugs; the same at every step
        out: Optional[list[tuple[PSU, Optional[PSU]]]] = self._shared.get(key)
        if out is not None:
            return out
        need = need_dc * (HEADROOM if self.req.psu_headroom else 1.0) - 1e-9
        out = self._shared[key] = [(p1, p2) for p1, p2, w in self._every_psu(g) if w >= need]
        return self._quiet_enough(g, out) if self.req.max_noise is not None else out

    # The noise limit (``req.max_noise``): the engine's noise.loud judges each build (``_verdict``);
    # these floors only leave out what cannot be at or below the limit whatever else is chosen (the
    # cards and the case fans every build has, then with the PSUs), so they cannot remove the optimum.
    def _noise_floor(self, g: GPU, *more: Optional[float]) -> float:
        key = ("noise floor", g.id, limit_w(g, self.req.power_limit))
        base = self._shared.get(key)
        if base is None:
            data = noise_model.load_data()
            card = noise_model.gpu_training_db(g, limit_w(g, self.req.power_limit), data)
            fans = noise_model.case_fan_figures(data)["training"].db
            base = self._shared[key] = noise_model.db_sum([card] * self.req.n_grown + [fans]) or 0.0
        return noise_model.db_sum([base, *more]) or 0.0 if more else base

    def _quiet_enough(self, g: GPU, options: list[tuple[PSU, Optional[PSU]]]) -> list[tuple[PSU, Optional[PSU]]]:
        key = ("quiet psus", id(options), g.id, limit_w(g, self.req.power_limit))
        got = self._shared.get(key)
        if got is not None and got[0] is options:
            return got[1]
        levels = self._shared.setdefault("psu noise", {})

        def db(p: Optional[PSU]) -> Optional[float]:
            if p is None:
                return None
            if p.id not in levels:
                levels[p.id] = noise_model.psu_figures(noise_model.load_data(), p, {})["training"].db
            return levels[p.id]

        out = [o for o in options if self._noise_floor(g, db(o[0]), db(o[1])) <= self.req.max_noise + 1e-9]
        if len(out) < len(options):
            self.count("PSU: louder than the noise limit with the cards", len(options) - len(out))
        self._shared[key] = (options, out)
        return out

    def _cooler_db(self, k: Optional[Cooler]) -> Optional[float]:
        levels = self._shared.setdefault("cooler noise", {})
        if k is None:
            return None
        if k.id not in levels:
            levels[k.id] = noise_model.cooler_figures(noise_model.load_data(), k)["training"].db
        return levels[k.id]

    def _quiet_parts(self, g: GPU, coolers: list, psu_opts: list) -> tuple[list, list]:
        """The coolers quiet enough with the cards, the case fans and the quietest PSU option, and the
        PSU options quiet enough with the quietest cooler (each a floor of every build of the triple)."""
        levels = self._shared.get("psu noise", {})
        psu_db = [noise_model.db_sum([levels.get(p1.id), levels.get(p2.id) if p2 else None]) for p1, p2 in psu_opts]
        quiet_psu = min((d for d in psu_db if d is not None), default=None)
        quiet_cooler = min((d for k in coolers if (d := self._cooler_db(k)) is not None), default=None)
        if any(k is None for k in coolers):
            quiet_cooler = None  # a build without a cooler (none has a price) adds nothing
        lim = self.req.max_noise + 1e-9
        keep_c = [k for k in coolers if self._noise_floor(g, self._cooler_db(k), quiet_psu) <= lim]
        keep_p = [o for o, d in zip(psu_opts, psu_db) if self._noise_floor(g, d, quiet_cooler) <= lim]
        if len(keep_c) < len(coolers):
            self.count("cooler: louder than the noise limit with the cards", len(coolers) - len(keep_c))
        return keep_c, keep_p

    def _every_psu(self, g: GPU) -> list[tuple[PSU, Optional[PSU], float]]:
        """The PSU options whose connectors carry the cards, whatever the load, with their wattage
        (once per kind of plugs: the same at every power limit)."""
        req, n0, n1 = self.req, self.req.n_now, self.req.n_grown
        ckey = ("psus with the connectors", plug_key(g))
        every = self._shared.get(ckey)
        if every is None:
            ok: dict = {}  # per kind of sockets (most PSUs share a few)

            def carries(p: PSU) -> bool:
                v = ok.get(socket_key(p))
                if v is None:
                    v = ok[socket_key(p)] = connectors_ok([g] * n1, [p])
                return v

            every = [(p, None, p.wattage) for p in self.psu_pool if carries(p)]
            if req.second_psu and n1 > n0:
                for p1 in self.psu_pool:
                    if not connectors_ok([g] * n0, [p1]):
                        continue
                    for p2 in self.psu2_pool:
                        if p2.id != p1.id and connectors_ok([g] * n1, [p1, p2]):
                            every.append((p1, p2, p1.wattage + p2.wattage))
            self._shared[ckey] = every
        return every

    def _fail(self, stage: str, text: str) -> None:
        self.reject_codes.setdefault("stage:" + stage, (0, text))
        n, t = self.reject_codes["stage:" + stage]
        self.reject_codes["stage:" + stage] = (n + 1, t)

    # -- one (GPU, board, CPU) -----------------------------------------------------------------------
    def _triple(self, g: GPU, b: Motherboard, c: CPU, pcost: float, how: str, pl, parts, least: float) -> None:
        """The best build of one (GPU, board, CPU): the combinations of case, cooler, memory kit,
        drive and PSU option come lazily, cheapest first (price plus the least energy the part
        could draw), each checked for what the search can decide without the engine; the engine
        judges the best kept combination (with its best placement left) as soon as no combination
        not yet looked at can beat it."""
        req, own, pw = self.req, self.owned, self.power
        n0, n1 = req.n_now, req.n_grown
        cases, coolers, mems, stores, *_ = parts
        self.stage_reached = max(self.stage_reached, "engine", key=_STAGES.index)
        riser = getattr(self, "riser", None)
        linked = [x for x in pl if choices.link_ok(req, g, b, c, x[0], riser)]
        if len(linked) < len(pl):
            self.count("placement: a platform or link a builder would not choose (choices)", len(pl) - len(linked))
            pl = linked
            if not pl:
                self._fail("link", T("the {board} with the {cpu} is no platform a builder would choose for the {gpu} "
                                     "(training-link, platform-link, platform-age)", board=b.name, cpu=c.name,
                                     gpu=g.name))
                return
        g_now = self.price(g, own.get("gpu", 0), n0)
        g_all = self.price(g, own.get("gpu", 0), n1)
        gdc1 = add_dc(*(self.gpu_dc(g),) * n1)
        gdc0 = add_dc(*(self.gpu_dc(g),) * n0)
        base = add_dc(pw.part(c), pw.part(b), pw.fans)
        psu_opts = self._psus(g, add_dc(gdc1, base)[2])
        if not psu_opts:
            self.count("triple: PSU wattage floor (no PSU carries the grown build)")
            self._fail("psu", T("no PSU with a price carries {n} x {gpu} on the {board} with 10% headroom", n=n1,
                                gpu=g.name, board=b.name) if req.psu_headroom else
                       T("no PSU with a price carries {n} x {gpu} on the {board}", n=n1, gpu=g.name, board=b.name))
            return
        circuit = self.settings.circuit_w()
        grown_budget = req.grown_budget
        head = HEADROOM if req.psu_headroom else 1.0
        blowers = req.quiet and g.cooler == "blower"
        if req.max_noise is not None:
            coolers, psu_opts = self._quiet_parts(g, coolers, psu_opts)
            if not psu_opts or not coolers:
                self.count("triple: noise floor (no CPU cooler and PSU quiet enough with the cards)")
                self._fail("psu", T("no CPU cooler and PSU with a price are quiet enough with {n} x {gpu} for "
                                    "{limit:.0f} dB(A) at 1 m", n=n1, gpu=g.name, limit=req.max_noise))
                return
        walk = _Walk(self, cases, coolers, mems, stores, psu_opts, now=pcost + g_now, total=pcost + g_all,
                     fixed_dc=add_dc(base, gdc1))
        if not walk.left or not self._may_improve(self._ceiling(g), walk.floor(), g):
            self.count("triple: price floor (best possible ratio below the best found)")
            return
        # Placements by (drive, case size): throughput order; each list shrinks as the engine rejects.
        by_key: dict = {}

        def plist(key2):
            lst = by_key.get(key2)
            if lst is None:
                sid, cs = key2
                sto = self.index.get(sid) if sid else None
                lst = []
                for pos, need in pl:
                    if need > cs:
                        continue
                    t = self._throughput(g, b, c, sto, pos)
                    lst.append((-t, self._soft(b, c, g, pos), pos))
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
                v = bare[cs] = max((self._throughput(g, b, c, None, pos) for pos, need in pl if need <= cs), default=0.0)
            return v

        def best_left() -> float:
            return max((-lst[0][0] if lst else 0.0) if (lst := by_key.get(k2)) is not None else bare_best(k2[1])
                       for k2 in key2s)

        top = best_left()
        if top <= 0:  # no placement in any case size (cannot happen: every case holds the fewest slots)
            return
        if not self._may_improve(top, walk.floor(), g):
            self.count("triple: price floor (best possible ratio below the best found)")
            return
        heap: list = []  # (rank key, the combination's place in the product of the lists: ties, combination)
        seen = 0
        while True:
            # What no combination not yet looked at can beat: the top throughput over the least cost left.
            ub_key = self._key(top, max(1e-9, walk.floor()), math.inf, blowers) if walk.left else None
            if ub_key is not None and self._beaten(ub_key):
                self.count("combination: price bound (ratio below the best found)", walk.drop())
                ub_key = None
            if ub_key is not None and not (heap and heap[0][0] < ub_key):
                seen += 1
                if seen % 2048 == 0 and self.cancelled and self.cancelled():
                    raise Cancelled()
                got = walk.next()
                if got is None:
                    continue
                order, (case, cooler, mem, sto, (psu_now, p1, p2)), rest = got
                if cooler is not None and cooler.height_mm and case.max_cpu_cooler_height_mm \
                        and cooler.height_mm > case.max_cpu_cooler_height_mm:
                    self.count("combination: cooler too tall for the case")
                    continue
                if case.max_psu_length_mm and any(p and p.length_mm and p.length_mm > case.max_psu_length_mm
                                                  for p in (p1, p2)):
                    self.count("combination: PSU too long for the case")
                    continue
                cost_now = pcost + rest + psu_now + g_now
                if req.budget is not None and cost_now > req.budget + 1e-9:
                    self.count("combination: over budget now")
                    continue
                cost_growth = (g_all - g_now) + (self.price(p2) if p2 else 0.0)
                if grown_budget is not None and cost_now + cost_growth > grown_budget + 1e-9:
                    self.count("combination: over the grown stage's budget")
                    continue
                psus1 = (p1, p2) if p2 else (p1,)
                rating1 = sum(p.wattage for p in psus1)
                parts_dc = add_dc(base, pw.part(cooler), pw.part(mem), pw.part(sto))
                dc1 = add_dc(parts_dc, gdc1)
                dc0 = add_dc(parts_dc, gdc0)
                if dc1[2] * head > rating1 + 1e-9 or dc0[2] * head > p1.wattage + 1e-9:
                    self.count("combination: PSU capacity")
                    continue
                rep1 = pw.wall(dc1, psus1)
                rep0 = pw.wall(dc0, (p1,))
                if rep1.wall["peak"] > circuit or rep0.wall["peak"] > circuit:
                    self.count("combination: wall circuit")
                    self._fail("circuit", T("{n} x {gpu} draw about {wall:.0f} W at the wall, over the {circuit:.0f} W "
                                            "a {region} circuit carries", n=n1, gpu=g.name, wall=rep1.wall["peak"],
                                            circuit=circuit, region=T(self.settings.region_info().label)))
                    continue
                energy, per_month = pw.energy(rep1)
                cb = _Combo(case, cooler, mem, sto, p1, p2, cost_now, cost_growth, energy, per_month,
                            rating1 / dc1[2] - 1 if dc1[2] else math.inf, dc1[2], rep1.wall["peak"])
                lst = plist(cb.key2)
                if lst:
                    heapq.heappush(heap, (self._key(-lst[0][0], cost_now + cost_growth + energy, cb.headroom,
                                                    blowers), order, cb))
                continue
            if not heap:
                return
            key, order, cb = heapq.heappop(heap)
            if self._beaten(key):
                self.count("combination: price bound (ratio below the best found)", len(heap) + 1 + walk.drop())
                return
            if cb.rejected:
                continue
            lst = plist(cb.key2)
            if not lst:
                continue
            t, pos = -lst[0][0], lst[0][1]
            fresh = self._key(t, cb.cost_now + cb.cost_growth + cb.energy, cb.headroom, blowers)
            if fresh != key:
                heapq.heappush(heap, (fresh, order, cb))
                continue
            if self.cancelled and self.cancelled():
                raise Cancelled()
            verdict = self._judge(g, b, c, cb, pos)
            if verdict is None:
                continue
            bad_place, bad_parts, cand = verdict
            if cand is not None:
                cand.throughput = t
                self._keep(cand, how)
                return
            if bad_place:
                lst.pop(0)
                top = best_left()
            if bad_parts:
                cb.rejected = True
            else:
                heapq.heappush(heap, (key, order, cb))

    def _ceiling(self, g: GPU) -> float:
        """The most the grown build's cards can give in any build: the throughput model's figure for
        them on ideal links (a build without a board, where the model takes every card on x16 lanes of
        its own generation from the CPU), at most the cards' single-card figures added up.
        ``_throughput`` checks every build it scores against it."""
        key = ("ceiling", g.id)
        v = self._scores.get(key)
        if v is None:
            n1 = self.req.n_grown
            lw = limit_w(g, self.req.power_limit)
            build = Build(gpus=[GpuPlacement(g.id, None, power_limit_w=lw) for _ in range(n1)])
            v = self._scores[key] = min(n1 * (self.scorer.card(g) or 0.0), float(self.scorer.build(build, self.index)))
        return v

    def _throughput(self, g: GPU, b: Motherboard, c: CPU, sto: Optional[Storage], pos: tuple[int, ...]) -> float:
        key = ("t", g.id, b.id, c.id, sto.id if sto else None, pos)
        t = self._scores.get(key)
        if t is None:
            build = Build(motherboard=b.id, cpu=c.id, storage=[StorageItem(sto.id)] if sto else [],
                          gpus=[self._placement(g, p) for p in pos])
            t = float(self.scorer.build(build, self.index))
            one = self.scorer.card(g) or 0.0
            if t > len(pos) * one * (1 + 1e-9):
                raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu}, more than {n} times one card "
                                      "({one:g}): the search's bounds would not hold", t=t, n=len(pos), gpu=g.name, one=one))
            ceiling = self._ceiling(g) if len(pos) == self.req.n_grown else math.inf
            if sto is not None:
                bare = self._throughput(g, b, c, None, pos)
                if t > bare * (1 + 1e-9):
                    raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu} on the {board} with the "
                                          "{drive}, more than with no drive ({bare:g}): the search's bounds would not "
                                          "hold", t=t, n=len(pos), gpu=g.name, board=b.name, drive=sto.name, bare=bare))
            if t > ceiling * (1 + 1e-9):
                raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu} on the {board}, more than on "
                                      "ideal links ({ceiling:g}): the search's bounds would not hold", t=t, n=len(pos),
                                      gpu=g.name, board=b.name, ceiling=ceiling))
            self._scores[key] = t
        return t

    def _placement(self, g: GPU, position: int) -> GpuPlacement:
        """One card of a build the search makes: in the slot at ``position`` (``frames`` puts it on a riser)."""
        return GpuPlacement(g.id, position, power_limit_w=limit_w(g, self.req.power_limit))

    def _soft(self, b: Motherboard, c: CPU, g: GPU, pos: tuple[int, ...]) -> tuple:
        """Tie-break between placements of equal throughput: fewer airflow gaps under one slot,
        wider links, then higher slots."""
        gaps = 0
        if g.cooler == "open-air":
            gaps = sum(1 for p, q in zip(pos, pos[1:]) if gap_severity(gap_mm(p, g.slot_width, q)) is not None)
        used = {s.id for s in b.slots if s.position in pos}
        widths = lane_model.slot_widths(b, used, c.pcie_lanes)
        lanes = sum(min(widths.get(b.slot_at(p).id, 0), g.pcie_lanes) for p in pos)
        return (gaps, -lanes)

    def _builds(self, g: GPU, b: Motherboard, c: CPU, cb: _Combo, pos: Sequence[int]) -> Build:
        req = self.req
        s = replace(self.settings, budget=req.budget)
        if req.max_noise is not None:  # noise.loud then says when a build is over the limit (``_verdict``)
            s = replace(s, room_noise_db=req.max_noise)
        build = Build(name="", motherboard=b.id, cpu=c.id, cooler=cb.cooler.id if cb.cooler else None,
                      case=cb.case.id, psus=[cb.psu1.id],
                      memory=[PartCount(cb.memory.id)] if cb.memory else [],
                      storage=[StorageItem(cb.storage.id)] if cb.storage else [],
                      gpus=[self._placement(g, p) for p in pos], settings=s)
        for kind, pid in req.own:
            if kind != "gpu":
                build.prices_paid[pid] = PricePaid(0.0, req.currency, note="owned")
        return build

    def _verdict(self, fs: list[Finding], n_gpus: int) -> tuple[bool, bool, list[Finding]]:
        """(a placement problem, a parts problem, the findings that rule the build out: ``policy``)."""
        bad = [f for f in fs if policy.refused(f, self.req, n_gpus)]
        place = any(f.code.startswith(PLACEMENT_CODES) for f in bad)
        parts = any(not f.code.startswith(PLACEMENT_CODES) for f in bad)
        return place, parts, bad

    def _note_rejects(self, bad: list[Finding]) -> None:
        for f in bad:
            n, msg = self.reject_codes.get(f.code, (0, f.message))
            self.reject_codes[f.code] = (n + 1, msg)

    def _judge(self, g: GPU, b: Motherboard, c: CPU, cb: _Combo, pos: tuple[int, ...]):
        req = self.req
        if req.free_slots and free_slots(b, g, pos) < req.free_slots:
            self.count("placement: no slot left for other cards")
            return True, False, None  # another placement may leave one
        grown = self._builds(g, b, c, cb, pos)
        grown.settings.budget = req.grown_budget  # today's budget plus the growth budget, or none
        if cb.psu2 is not None:
            grown.psus.append(cb.psu2.id)
        fs1 = run_checks(grown, self.index)
        self.judged += 1
        place, parts, bad = self._verdict(fs1, req.n_grown)
        if bad:
            self._note_rejects(bad)
            self.count("engine: rejected (grown build)")
            return place, parts, None
        # Today: the first cards on a subset of the grown positions (the best subset the engine accepts).
        last_bad: list[Finding] = []
        for sub in itertools.combinations(pos, req.n_now):
            today = self._builds(g, b, c, cb, sub)
            fs0 = run_checks(today, self.index)
            self.judged += 1
            p0, q0, bad0 = self._verdict(fs0, req.n_now)
            if not bad0:
                return False, False, self._candidate(g, b, c, cb, today, grown, fs0, fs1)
            last_bad = bad0
            if q0:
                break  # a parts problem today does not depend on where the cards sit
        self._note_rejects(last_bad)
        self.count("engine: rejected (today's build)")
        p0, q0, _ = self._verdict(last_bad, req.n_now)
        return p0 and not q0, q0, None

    def _candidate(self, g, b, c, cb: _Combo, today: Build, grown: Build, fs0, fs1) -> Candidate:
        req = self.req
        n0, n1 = req.n_now, req.n_grown
        own = self.owned
        pair = self._pair_price(b, c)
        bundle = pair if pair and pair[1] else None
        prices = []
        for p, units, owned_units in ((b, 1, own.get("motherboard", 0)), (c, 1, own.get("cpu", 0)),
                                      (cb.cooler, 1, own.get("cooler", 0)), (cb.memory, 1, own.get("memory", 0)),
                                      (cb.storage, 1, own.get("storage", 0)), (cb.case, 1, own.get("case", 0)),
                                      (cb.psu1, 1, own.get("psu", 0)), (cb.psu2, 1, 0), (g, n1, own.get("gpu", 0))):
            if p is None:
                continue
            u = self.prices.unit(p.id)
            paid = max(0, units - owned_units)
            if p in (b, c) and bundle:
                u = (bundle[0], T("bundle price with the {cpu}: {where}", cpu=c.name, where=bundle[1])) if p is b else \
                    (0.0, T("in the bundle price of the {board}", board=b.name))
            where = self.prices.where(p.id) if u and not (p in (b, c) and bundle) else u[1] if u else ""
            if owned_units:
                where = (T("{n} owned; {where}", n=min(units, owned_units), where=where) if paid else
                         T("{n} owned", n=min(units, owned_units)))
            prices.append((p.id, units, u[0] if (u and paid) else 0.0, where))
        unverified = []
        for p in (g, b, cb.case, cb.cooler, cb.psu1, cb.psu2):
            if p is None:
                continue
            fields_ = UNVERIFIED_FIELDS.get(p.KIND, {})
            bits = [T(fields_[f]) for f in p.unverified if f in fields_]
            if p.origin == "user":
                unverified.append(T("{name}: your own figures", name=p.name))
            elif bits:
                unverified.append(T("{name}: {fields} unverified", name=p.name, fields=T.join(*interleave(bits, ", "))))
        if req.condition == "both":  # the planner prices one condition: the one closer to this search's prices
            from rigbuilder.models.cost import purchase

            def gap(cond: str) -> tuple:
                trial = replace(grown, settings=replace(grown.settings, condition=cond))
                buy = purchase(trial, self.index, req.currency)
                return (len(buy.missing), abs(buy.total - (cb.cost_now + cb.cost_growth)))

            cond = min(("new", "used"), key=gap)
            today.settings = replace(today.settings, condition=cond)
            grown.settings = replace(grown.settings, condition=cond)
        total = cb.cost_now + cb.cost_growth + cb.energy
        name = build_name(n0, n1, g.model, b.model)
        today.name = T("{name} (today)", name=name)
        grown.name = T("{name} (grown)", name=name) if n1 != n0 else name
        return Candidate(today, grown, g, 0.0, self.scorer.unit, cb.cost_now, cb.cost_growth, cb.energy, req.years,
                         total, 0.0, cb.headroom, g.vram_gb, cb.peak_dc, cb.peak_wall, cb.per_month, fs0, fs1,
                         prices, unverified, req.quiet and g.cooler == "blower")

    def _keep(self, cand: Candidate, how: str) -> None:
        """Keep the best ``top`` builds, one per (GPU, board) family (another CPU or case for the same
        cards and board is not a different answer)."""
        cand.ratio = 1000 * cand.throughput / cand.total if cand.total > 0 else math.inf
        cand.goal, cand.target = self.req.goal, self.req.target
        if cand.goal == "cheapest" and cand.key[0] is True:
            return  # short of the target throughput
        fam = (cand.gpu.id, cand.grown.motherboard)
        same = [x for x in self.best if (x.gpu.id, x.grown.motherboard) == fam]
        if same:
            if (same[0].key, same[0].total) <= (cand.key, cand.total):
                return
            self.best.remove(same[0])
        self.best.append(cand)
        self.best.sort(key=lambda x: (x.key, x.total))
        del self.best[max(1, self.req.top):]


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


def free_slots(board: Motherboard, g: GPU, positions: tuple[int, ...]) -> int:
    """The board's expansion slots that cards of ``g`` at ``positions`` neither fill nor cover: what
    is left for a network card (``Request.free_slots``)."""
    covered = {q for p in positions for q in range(p, p + g.span)}
    return sum(1 for sl in board.slots if sl.position not in covered)
