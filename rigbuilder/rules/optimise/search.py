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
  possible ratio (every card at its single-card throughput, the cheapest part of every kind that
  could go with it, the least energy any PSU could draw) is below the best build found so far
  (the pairs come cheapest first, so the walk stops at the first that cannot win);
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
import dataclasses
from dataclasses import dataclass, replace
from typing import Callable, Optional, Protocol, Sequence

from rigbuilder.domain import fields as F
from rigbuilder.domain.build import REGIONS, Build, GpuPlacement, PartCount, PricePaid, Settings, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import N_, Money, T, interleave
from rigbuilder.domain.money import STALE_MONTHS, MoneyError, any_stale, price_ages
from rigbuilder.domain.parts import CPU, GPU, PSU, Case, Cooler, MemoryKit, Motherboard, Part, Storage
from rigbuilder.models import lanes as lane_model
from rigbuilder.models import power as power_model
from rigbuilder.models.cost import DAYS_PER_YEAR, running_cost
from rigbuilder.models.prices import PartPrice, bundle_applies, change_currency, convert, price_part
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.fit import norm_form_factor, norm_socket
from rigbuilder.rules.geometry import PLACEMENT_CODES, case_slots_needed, covers, fits_slot, gap_mm, gap_severity
from rigbuilder.rules.power import HEADROOM, cables

CONDITIONS = (*F.CONDITION.choices, "both")
"""Which prices a request takes: a build's condition, or the cheaper of a new and a used price."""
KINDS = ("gpu", "motherboard", "cpu", "cooler", "memory", "storage", "psu", "case")
OPTIONAL_KINDS = ("cooler", "memory", "storage")
"""Kinds a build may go without when no part of the kind has a price (said in the result)."""
UNVERIFIED_FIELDS = {
    "gpu": {"cooler": N_("cooler type"), "slot_width": N_("slot width"), "length_mm": N_("length")},
    "motherboard": {"slots": N_("slot layout"), "expansion_positions": N_("expansion positions"),
                    "lane_rules": N_("lane sharing")},
    "case": {"expansion_slots": N_("expansion positions"), "max_gpu_length_mm": N_("GPU length limit"),
             "max_cpu_cooler_height_mm": N_("cooler height limit"), "form_factors": N_("board sizes")},
    "cooler": {"height_mm": N_("height"), "sockets": N_("sockets")},
    "psu": {"pcie_8pin": N_("PCIe sockets"), "pcie_cables": N_("PCIe cables"), "length_mm": N_("length")},
}
MAX_EFFICIENCY = max(e for t in power_model.EFFICIENCY_POINTS.values() for pts in t.values() for _, e in pts)


class OptimiseError(ValueError):
    """A request that cannot be searched (an unknown part, a bad figure); the message says which."""


class Cancelled(Exception):
    """The search was cancelled by its caller."""


class Scorer(Protocol):
    """Throughput of cards and builds for one workload (pluggable: the adviser's estimate ships)."""

    unit: str
    label: str

    def card(self, gpu: GPU) -> Optional[float]:
        """One card's throughput, alone; None: no estimate (the card is left out)."""

    def build(self, build: Build, index: PartIndex) -> float:
        """The build's throughput; never more than its card count times ``card`` of its card."""

    def fits(self, gpu: GPU, n_gpus: int) -> bool:
        """Whether ``n_gpus`` of ``gpu`` hold the workload (VRAM)."""


def build_name(n0: int, n1: int, gpu: str, board: str) -> T:
    """A generated build's name: '1 -> 4 x RTX 3090 on X99 WS-E' (translated where shown; a door that
    stores it in a build renders it in its language first)."""
    if n1 != n0:
        return T("{now} -> {grown} x {gpu} on {board}", now=n0, grown=n1, gpu=gpu, board=board)
    return T("{n} x {gpu} on {board}", n=n0, gpu=gpu, board=board)


@dataclass(frozen=True)
class Request:
    budget: Optional[float] = None  # the purchase now, in ``currency``
    currency: str = F.CURRENCY.default
    condition: str = F.CONDITION.default  # "new", "used" (used prices only: parts without one are left out and
    # named) or "both" (the cheaper of a new and a used price, each labelled)
    workload: str = "cnn-training"
    model_params_b: Optional[float] = None  # model size, billions of parameters (the adviser's)
    precision: Optional[str] = None  # weights (and KV cache) at this precision; None: the workload's own
    gpus_now: int = 1
    grow_to: Optional[int] = None  # None: no growth
    min_vram_gb: float = 0.0  # per card
    min_total_vram_gb: float = 0.0  # over all cards of the grown build
    region: str = F.REGION.default
    price_per_kwh: Optional[float] = None  # in ``currency``; None: the app's default, converted
    load_hours_per_day: float = F.LOAD_HOURS.default
    idle_hours_per_day: float = F.IDLE_HOURS.default
    years: float = 3.0
    quiet: bool = False  # blower cards rank after every other build; a full slot of air in front of open-air fans
    atx3: bool = False  # ATX 3.x PSUs only
    second_psu: bool = False  # growing may add a second PSU
    psu_headroom: bool = True  # at least 10% PSU headroom at peak (as psu.capacity asks)
    ram_per_vram: float = 1.0  # system memory at least this times the grown build's VRAM
    power_limit: Optional[float] = None  # every GPU limited to this fraction of its board power (F.POWER_LIMIT_FRACTION)
    power_limits: tuple[float, ...] = ()  # steps to search (fractions of board power); the best step wins
    insist: tuple[tuple[str, str], ...] = ()  # (kind, part id): use this part, priced as usual
    own: tuple[tuple[str, str], ...] = ()  # (kind, part id): already owned, costs nothing; a GPU once per card
    top: int = 5
    today: Optional[str] = None  # ISO day the prices' age is counted to (today by default)

    @property
    def n_now(self) -> int:
        return self.gpus_now

    @property
    def n_grown(self) -> int:
        return self.grow_to if self.grow_to is not None else self.gpus_now

    def problems(self) -> list[str]:
        out = []
        if not isinstance(self.gpus_now, int) or not 1 <= self.gpus_now <= 8:
            out.append(T("GPUs now: {v} must be a whole number from 1 to 8", v=repr(self.gpus_now)))
        elif not isinstance(self.n_grown, int) or not self.gpus_now <= self.n_grown <= 8:
            out.append(T("grow to: {v} must be a whole number from {lo} (GPUs now) to 8", v=repr(self.grow_to),
                         lo=self.gpus_now))
        if self.condition not in CONDITIONS:
            out.append(T("prices: {v} must be one of {known}", v=repr(self.condition), known=", ".join(CONDITIONS)))
        if self.region not in REGIONS:
            out.append(T("region: {v} must be one of {known}", v=repr(self.region), known=", ".join(REGIONS)))
        for name, v, lo, hi in ((T("budget"), self.budget, F.BUDGET.lo, F.BUDGET.hi), (T("years"), self.years, 0, 50),
                                (T("minimum VRAM per card"), self.min_vram_gb, 0, 10000),
                                (T("minimum total VRAM"), self.min_total_vram_gb, 0, 100000),
                                (T("price per kWh"), self.price_per_kwh, F.PRICE_PER_KWH.lo, F.PRICE_PER_KWH.hi),
                                (T("RAM per VRAM"), self.ram_per_vram, 0, 100)):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
                out.append(T("{name}: {v} must be a number from {lo:g} to {hi:g}", name=name, v=repr(v), lo=lo, hi=hi))
        f = F.POWER_LIMIT_FRACTION
        for v in (self.power_limit, *self.power_limits):
            if f.problem(v) is not None:
                out.append(T("power limit: {v} must be a fraction of board power from {lo:g} to {hi:g}", v=repr(v),
                             lo=f.lo, hi=f.hi))
        for f, v in ((F.LOAD_HOURS, self.load_hours_per_day), (F.IDLE_HOURS, self.idle_hours_per_day)):
            if f.problem(v) is not None:
                out.append(T("{name}: {v} must be from 0 to 24 a day", name=T(f.title), v=repr(v)))
        usage = F.usage_problem(self.load_hours_per_day, self.idle_hours_per_day)
        if not out and usage is not None:
            out.append(usage)
        for kind, _ in self.insist + self.own:
            if kind not in KINDS:
                out.append(T("part kind {kind} must be one of {known}", kind=f"{kind!r:.20}", known=", ".join(KINDS)))
        return out


# -- results ---------------------------------------------------------------------------------------
@dataclass
class Candidate:
    """One complete build at both stages, with its figures (money in the request's currency)."""

    today: Build
    grown: Build
    gpu: GPU
    throughput: float
    unit: str
    cost_now: float
    cost_growth: float
    energy: float  # N years of the grown build's energy
    years: float
    total: float
    ratio: float  # throughput per 1,000 of currency
    headroom: float  # PSU rating over the grown build's peak DC load, minus 1
    vram_gb: float  # per card
    peak_dc_w: float
    peak_wall_w: float
    energy_per_month: float
    findings_today: list[Finding]
    findings_grown: list[Finding]
    prices: list[tuple[str, int, float, str]]  # (part id, units, amount per unit, where the price comes from)
    unverified: list[str]
    blowers: bool = False

    @property
    def key(self) -> tuple:
        return rank_key(self.ratio, self.headroom, self.blowers)

    @property
    def label(self) -> str:
        """'1 -> 4 x RTX A4000 on X99 WS-E'"""
        n0, n1 = len(self.today.gpus), len(self.grown.gpus)
        name = self.grown.name
        if isinstance(name, T) and name.template == "{name} (grown)":
            return name.params["name"]
        return name or build_name(n0, n1, self.gpu.model, self.grown.motherboard or "")

    def counts(self, stage: str = "grown") -> dict[str, int]:
        fs = self.findings_grown if stage == "grown" else self.findings_today
        c = {s.value: 0 for s in Severity}
        for f in fs:
            c[f.severity.value] += 1
        return c


def limit_w(gpu: GPU, fraction: Optional[float]) -> Optional[float]:
    """The power limit in watts a card gets for ``fraction`` of its board power (None: none)."""
    return F.limit_at_fraction(gpu.board_power_w, fraction)


def figure(v: float) -> str:
    """A throughput or ratio as shown: whole numbers from 100, else three significant figures."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def rank_key(ratio: float, headroom: float, blowers: bool = False) -> tuple:
    """Smaller is better: no blowers first (quiet), then throughput per cost, then headroom."""
    return (blowers, -ratio, -headroom)


@dataclass
class Result:
    request: Request
    candidates: list[Candidate]
    explanation: list[str]
    bounds: dict[str, int]  # candidates each bound removed
    excluded: dict[str, int]  # parts left out for want of a price, by kind
    left_out: list[str]  # kinds no build has (no part of the kind has a price)
    infeasible: Optional[str]
    seconds: float
    judged: int  # builds the engine judged (each stage counts once)
    scorer: str = ""
    priced: dict = dataclasses.field(default_factory=dict)  # part id -> the PartPrice it was given (age, conversion)
    price_notes: list = dataclasses.field(default_factory=list)  # the first lines of the explanation: stale
    # prices, the prices' age, the conversions (a door shows them before anything else)

    @property
    def best(self) -> Optional[Candidate]:
        return self.candidates[0] if self.candidates else None


# -- prices ----------------------------------------------------------------------------------------
class _Prices:
    def __init__(self, req: Request, index: PartIndex) -> None:
        self.req, self.index = req, index
        self.cur = req.currency
        self._cache: dict[str, Optional[tuple[float, PartPrice]]] = {}
        self.chosen: dict[str, PartPrice] = {}  # the price each priced part was given (its age, its conversion)
        self.no_used: list[str] = []  # parts with no used price, when the request wants used prices
        self.conditions = ("new", "used") if req.condition == "both" else (req.condition,)

    def unit(self, pid: str) -> Optional[tuple[float, PartPrice]]:
        """(amount, the priced unit) for one unit, or None when it has no usable price."""
        if pid in self._cache:
            return self._cache[pid]
        best: Optional[tuple[float, PartPrice]] = None
        for c in self.conditions:
            # used prices only when the request says used: a new price only where "both" allows it
            pp = price_part(pid, self.cur, self.index, condition=c, strict=True)
            if pp is None or pp.amount is None:
                continue
            if best is None or pp.amount < best[0]:
                best = (pp.amount, pp)  # the trace is written when a build shows it (``where``)
                self.chosen[pid] = pp
        if best is None and self.req.condition == "used":
            self.no_used.append(pid)
        self._cache[pid] = best
        return best

    def where(self, pid: str) -> str:
        """Where one unit's price comes from (for the prices of an answer)."""
        u = self.unit(pid)
        return u[1].trace() if u else ""

    def bundle(self, board: str, cpu: str) -> Optional[tuple[float, str]]:
        """A bundle price for exactly this board and CPU in the wanted condition (as the purchase
        takes it: ``bundle_applies``)."""
        book = self.index.prices
        best = None
        for pid, other in ((board, cpu), (cpu, board)):
            for o in book.for_part(pid):
                if o.with_parts == (other,) and bundle_applies(o, self.index, self.conditions):
                    pp = convert(o, self.cur, book.rates)
                    if pp.amount is not None and (best is None or pp.amount < best[0]):
                        best = (pp.amount, pp.trace())
        return best


# -- power -----------------------------------------------------------------------------------------
def _dc(comps: Sequence[power_model.Component]) -> tuple[float, float, float]:
    return tuple(sum(c.watts[s] for c in comps) for s in power_model.STATES)  # type: ignore[return-value]


def _zero() -> tuple[float, float, float]:
    return (0.0, 0.0, 0.0)


def _add(*vs: tuple[float, float, float]) -> tuple[float, float, float]:
    return tuple(sum(x) for x in zip(*vs))  # type: ignore[return-value]


class _Power:
    """DC draw per part (from the power model, one part at a time: the model adds them up) and the
    energy cost of a DC load on given PSUs."""

    def __init__(self, settings: Settings, years: float) -> None:
        self.settings, self.years = settings, years
        self.table = settings.region_info().efficiency_table
        self._part: dict = {}
        self.fans = _dc(power_model.components(gpus=[], cpu=None, board=None, memory=[], storage=[], cooler=None,
                                               nics=[], case_fans=True))
        self._wall: dict = {}

    def part(self, p: Optional[Part], limit: Optional[float] = None) -> tuple[float, float, float]:
        """DC draw (idle, training, peak) of one part; a GPU at power ``limit`` watts."""
        if p is None:
            return _zero()
        key = p.id if limit is None else (p.id, limit)
        w = self._part.get(key)
        if w is None:
            kw: dict = dict(gpus=[], cpu=None, board=None, memory=[], storage=[], cooler=None, nics=[],
                            case_fans=False)
            if isinstance(p, GPU):
                kw["gpus"] = [(1, p, limit)]
            elif isinstance(p, CPU):
                kw["cpu"] = p
            elif isinstance(p, Motherboard):
                kw["board"] = p
            elif isinstance(p, MemoryKit):
                kw["memory"] = [(p, 1)]
            elif isinstance(p, Storage):
                kw["storage"] = [(p, 1)]
            elif isinstance(p, Cooler):
                kw["cooler"] = p
            w = _dc(power_model.components(**kw))
            self._part[key] = w
        return w

    def wall(self, dc: tuple[float, float, float], psus: tuple[PSU, ...]) -> power_model.PowerReport:
        key = (dc, tuple(p.id for p in psus))
        rep = self._wall.get(key)
        if rep is None:
            comp = power_model.Component("build", "build", dict(zip(power_model.STATES, dc)), False, "")
            rep = power_model.report([comp], psus, self.table)
            self._wall[key] = rep
        return rep

    def energy(self, rep: power_model.PowerReport) -> tuple[float, float]:
        """(cost over the years, cost per month)."""
        run = running_cost(rep, self.settings)
        return self.years * run.cost_per_year, run.cost_per_month

    def energy_floor(self, dc: tuple[float, float, float]) -> float:
        """No PSU draws less at the wall than ``dc`` over the best efficiency any 80 PLUS level certifies."""
        s = self.settings
        day = (dc[1] * s.load_hours_per_day + dc[0] * s.idle_hours_per_day) / 1000.0 / MAX_EFFICIENCY
        return self.years * day * DAYS_PER_YEAR * s.price_per_kwh


# -- placements ------------------------------------------------------------------------------------
def placements(board: Motherboard, gpu: GPU, n: int, quiet: bool) -> list[tuple[tuple[int, ...], int]]:
    """Every way to put ``n`` of ``gpu`` in the board's slots without an error the geometry alone
    decides (a slot the connector does not fit, cards overlapping, fans touching the next card;
    with ``quiet`` any gap under one slot): (positions, fewest expansion positions the case needs)."""
    fit = sorted(s.position for s in board.slots if fits_slot(gpu, s))
    width = gpu.slot_width
    out: list[tuple[tuple[int, ...], int]] = []

    def ok_pair(p: int, q: int) -> bool:
        if covers(p, gpu, q):
            return False
        if gpu.cooler == "open-air":
            sev = gap_severity(gap_mm(p, width, q))
            if sev is Severity.ERROR or (quiet and sev is not None):
                return False
        return True

    def rec(start: int, chosen: list[int]) -> None:
        if len(chosen) == n:
            out.append((tuple(chosen), case_slots_needed(chosen[-1], gpu, air=quiet)))
            return
        for i in range(start, len(fit)):
            if chosen and not ok_pair(chosen[-1], fit[i]):
                continue
            chosen.append(fit[i])
            rec(i + 1, chosen)
            chosen.pop()

    if n <= len(fit):
        rec(0, [])
    return out


# -- Pareto fronts ---------------------------------------------------------------------------------
def pareto(items: Sequence, key: Callable[[object], tuple]) -> list:
    """Items no other item beats: ``key`` gives figures where smaller is better in every place
    (an item equal in every figure to an earlier one is dropped too: it can do nothing the
    earlier one cannot)."""
    keyed = sorted(((key(x), x) for x in items), key=lambda kx: kx[0])
    front: list[tuple[tuple, object]] = []
    for k, x in keyed:
        if any(all(a <= b for a, b in zip(fk, k)) for fk, _ in front):
            continue
        front.append((k, x))
    return [x for _, x in front]


def level_at_least(a: str, b: str, table: str) -> bool:
    """Whether 80 PLUS level ``a`` is at least as efficient as ``b`` at every load (both curves are
    linear between their points and flat past the last, so comparing at every point of either
    curve, at zero load and past full load proves it)."""
    pa = power_model.EFFICIENCY_POINTS[table].get(a, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
    pb = power_model.EFFICIENCY_POINTS[table].get(b, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
    xs = {0.0, 2.0} | {x for x, _ in pa} | {x for x, _ in pb}
    return all(power_model.efficiency(a, table, x)[0] >= power_model.efficiency(b, table, x)[0] - 1e-12 for x in xs)


def _cables(p: PSU) -> int:
    return p.pcie_cables if p.pcie_cables is not None else p.pcie_8pin


def psu_front(psus: Sequence[PSU], price: Callable[[PSU], float], table: str) -> list[PSU]:
    """PSUs no other PSU of the same wattage beats: cheaper or as cheap, at least as efficient at
    every load, at least as many PCIe cables and 12V-2x6 sockets, no longer, ATX 3.x if it is."""
    def beats(a: PSU, b: PSU) -> bool:
        return (a.wattage == b.wattage and price(a) <= price(b) and _cables(a) >= _cables(b)
                and a.hpwr_sockets >= b.hpwr_sockets and _none_zero(a.length_mm) <= _none_zero(b.length_mm)
                and (a.atx3 or not b.atx3) and level_at_least(a.efficiency, b.efficiency, table))

    ordered = sorted(psus, key=lambda p: (price(p), p.id))
    front: list[PSU] = []
    for p in ordered:
        if not any(beats(f, p) for f in front):
            front.append(p)
    return front


def _none_inf(v: Optional[float]) -> float:
    return math.inf if v is None else v


def _none_zero(v: Optional[float]) -> float:
    return 0.0 if v is None else v


# -- the search ------------------------------------------------------------------------------------
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


def _plug_key(g: GPU) -> tuple:
    """What ``cables`` reads of a card: its power plugs, and its board power where one is a 12VHPWR."""
    hp = any(c in ("12VHPWR", "12V-2x6") for c in g.power_connectors)
    return (tuple(g.power_connectors), g.board_power_w if hp else None)


def _connectors_ok(gpus: Sequence[GPU], psus: Sequence[PSU]) -> bool:
    """No psu.connectors error (the rule's own count)."""
    return cables(gpus, psus).enough


class _Search:
    def __init__(self, req: Request, index: PartIndex, scorer: Scorer,
                 progress: Optional[Callable[[float, str], None]] = None,
                 cancelled: Optional[Callable[[], bool]] = None, shared: Optional[dict] = None) -> None:
        self.req, self.index, self.scorer = req, index, scorer
        self.progress, self.cancelled = progress, cancelled
        # What does not depend on the power limit is shared by the searches of the limit steps:
        # prices, placements, and the parts lists and floors of every kind but GPUs and PSUs.
        shared = {} if shared is None else shared
        self.prices = shared.setdefault("prices", _Prices(req, index))
        self._shared: dict = shared.setdefault("lists", {})
        self.today = req.today
        self.settings = self._settings()
        self.power = _Power(self.settings, req.years)
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
        return replace(s, condition="used" if req.condition == "used" else "new")

    def gpu_dc(self, g: GPU) -> tuple[float, float, float]:
        """One card's DC draw at the request's power limit."""
        return self.power.part(g, limit_w(g, self.req.power_limit))

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
        bad = self.req.problems()
        if bad:
            raise OptimiseError("; ".join(bad))
        fixed, owned = self._fixed()
        self.fixed, self.owned = fixed, owned
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
            if g.vram_gb < req.min_vram_gb or g.vram_gb * n1 < req.min_total_vram_gb or not self.scorer.fits(g, n1):
                self.count("GPU: too little VRAM")
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
            self.psu2_pool = psu_front(every, self.price, self.power.table)
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
            dc = _add(*(self.gpu_dc(g),) * n1, self.power.fans)
            rest, rest_now = self._gpu_floor(g)
            ub = 1000 * n1 * s / max(1e-9, gcost + plat_floor + rest + self.power.energy_floor(dc))
            order.append((ub, s, g, gcost, rest, rest_now, self.power.energy_floor(dc)))
        order.sort(key=lambda t: (-t[0], t[2].id))
        for k, (ub, s, g, gcost, rest, rest_now, efloor) in enumerate(order):
            if self.cancelled and self.cancelled():
                raise Cancelled()
            if self.progress:
                self.progress(k / len(order), g.name)
            if not self._may_improve(ub, g):
                self.count("GPU: price floor (best possible ratio below the best found)")
                continue
            now = self.price(g, owned.get("gpu", 0) if "gpu" in fixed else 0, req.n_now) + plat_floor + rest_now
            if req.budget is not None and now > req.budget + 1e-9:
                self._note_floor_now(now)
                self.count("GPU: budget floor (cheapest purchase now with the card over budget)")
                continue
            self._gpu(g, s, gcost, pairs, rest, rest_now, efloor)
        return self._finish(t0, None if self.best else self._reason())

    def _may_improve(self, ub: float, g: GPU) -> bool:
        if len(self.best) < max(1, self.req.top):
            return True
        worst = self.best[-1]
        blower = self.req.quiet and g.cooler == "blower"
        return rank_key(ub, math.inf, blower) < worst.key

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
        req, own = self.req, self.owned
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
            need = req.ram_per_vram * g.vram_gb * req.n_grown
            rest += cheapest(("memfloor", need), "memory", lambda m: m.total_gb >= need)
        if "storage" not in self.left_out:
            rest += cheapest(("storefloor",), "storage")
        psu, psu_now = self._psu_floors(g)
        fl = self._scores[key] = (rest + (psu or 0.0), rest + (psu_now or 0.0))
        return fl

    def _gpu(self, g: GPU, s: float, gcost: float, pairs, rest: float, rest_now: float, efloor: float) -> None:
        """Every (board, CPU) for ``g``, best possible ratio first. The pairs come cheapest first,
        and a pair's cheap bound (its price plus ``g``'s floors for the other kinds) falls along
        them, so the walk stops at the first pair that cannot beat the best found or fit the
        budget; a pair's exact floors (its case, cooler, memory, PSU) are worked out only when
        its cheap bound is reached, and a triple is searched when its exact bound is the highest
        left."""
        req = self.req
        n1 = req.n_grown
        vram_total = g.vram_gb * n1
        gdc = _add(*(self.gpu_dc(g),) * n1)
        g_now = self.price(g, self.owned.get("gpu", 0), req.n_now)
        geom = (g.span, g.slot_width, g.cooler, g.pcie_lanes)
        heap: list = []
        i, npairs = 0, len(pairs)
        while True:
            cheap = -math.inf
            if i < npairs:
                pcost = pairs[i][2]
                cheap = 1000 * n1 * s / max(1e-9, gcost + pcost + rest + efloor)
                if req.budget is not None and g_now + pcost + rest_now > req.budget + 1e-9:
                    self._note_floor_now(g_now + pcost + rest_now)
                    self.count("triple: budget floor (cheapest purchase now over budget)", npairs - i)
                    i, cheap = npairs, -math.inf
                elif not self._may_improve(cheap, g):
                    self.count("triple: price floor (best possible ratio below the best found)", npairs - i)
                    i, cheap = npairs, -math.inf
            if heap and -heap[0][0] >= cheap:
                ub, _, _, b, c, pcost, how, pl, parts = heapq.heappop(heap)
                if not self._may_improve(-ub, g):
                    self.count("triple: price floor (best possible ratio below the best found)", len(heap) + 1)
                    return
                if self.cancelled and self.cancelled():
                    raise Cancelled()
                self._triple(g, b, c, pcost, how, pl, parts)
                continue
            if i >= npairs:
                return
            b, c, pcost, how = pairs[i]
            i += 1
            pl = self._board_placements(b, geom, g)
            if not pl:
                self.count("board: slot spacing (no N slots far enough apart for the card)")
                continue
            self.stage_reached = max(self.stage_reached, "parts", key=_STAGES.index)
            parts = self._parts(g, b, c, pl, vram_total)
            if parts is None:
                continue
            cases, coolers, mems, stores, floor_rest, floor_psu, floor_psu_now = parts
            dc = _add(gdc, self.power.part(c), self.power.part(b), self.power.fans)
            floor = gcost + pcost + floor_rest + floor_psu
            now_floor = g_now + pcost + floor_rest + floor_psu_now
            self._note_floor_now(now_floor)
            if req.budget is not None and now_floor > req.budget + 1e-9:
                self.count("triple: budget floor (cheapest purchase now over budget)")
                continue
            ub = 1000 * n1 * s / max(1e-9, floor + self.power.energy_floor(dc))
            heapq.heappush(heap, (-ub, b.id, c.id, b, c, pcost, how, pl, parts))

    def _board_placements(self, b: Motherboard, geom: tuple, g: GPU):
        key = (b.id, geom)
        pl = self._placements.get(key)
        if pl is None:
            pl = placements(b, g, self.req.n_grown, self.req.quiet)
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
            need = req.ram_per_vram * vram_total
            mems = self._cached(("mems", b.memory_type, b.dimm_slots, b.max_memory_gb, c.memory_types,
                                 c.max_memory_gb, need), lambda: self._mems(b, c, need))
            if not mems:
                self.count("triple: no memory kit for the board and the VRAM")
                self._fail("memory", T("no {mem} kit with a price fits the {board} with {gb:g} GB or more",
                                       mem=b.memory_type, board=b.name, gb=req.ram_per_vram * vram_total))
                return None
        stores: list = [None]
        if "storage" not in self.left_out:
            stores = self._cached(("stores",), self._stores)
        own = self.owned
        floor_rest = (min(self.price(k, own.get("case", 0)) for k in cases)
                      + min(self.price(k, own.get("cooler", 0)) for k in coolers)
                      + min(self.price(k, own.get("memory", 0)) for k in mems)
                      + min(self.price(k, own.get("storage", 0)) for k in stores))
        floor_psu, floor_psu_now = self._psu_floors(g)
        if floor_psu is None:
            self.count("triple: PSU wattage floor (no PSU carries the cards)")
            self._fail("psu", T("no PSU with a price carries {n} x {gpu} with 10% headroom", n=req.n_grown,
                                gpu=g.name) if req.psu_headroom else
                       T("no PSU with a price carries {n} x {gpu}", n=req.n_grown, gpu=g.name))
            return None
        return cases, coolers, mems, stores, floor_rest, floor_psu, floor_psu_now

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

    def _cases(self, ff: str, g: GPU, min_cs: int) -> list:
        own = self.owned.get("case", 0)
        cases = []
        for k in self.pools["case"]:
            assert isinstance(k, Case)
            if k.form_factors and ff not in self._case_ffs(k):
                continue
            if k.max_gpu_length_mm and g.length_mm > k.max_gpu_length_mm:
                continue
            if g.cooler == "passive" and "rack" not in (k.type or "").lower():
                continue
            if k.expansion_slots < min_cs:
                continue
            cases.append(k)
        front = pareto(cases, lambda k: (self.price(k, own), -k.expansion_slots,
                                         -_none_inf(k.max_cpu_cooler_height_mm), -_none_inf(k.max_psu_length_mm)))
        self.count("case: dominated (Pareto: price, slots, cooler height, PSU length)", len(cases) - len(front))
        return front

    def _coolers(self, c: CPU) -> list:
        own = self.owned.get("cooler", 0)
        sock = norm_socket(c.socket)
        cs = [k for k in self.pools["cooler"] if not k.sockets or sock in {norm_socket(x) for x in k.sockets}]
        front = pareto(cs, lambda k: (self.price(k, own), _none_zero(k.height_mm), *self.power.part(k)))
        self.count("cooler: dominated (Pareto: price, height, power)", len(cs) - len(front))
        return front

    def _mems(self, b: Motherboard, c: CPU, need_gb: float) -> list:
        own = self.owned.get("memory", 0)
        ms = []
        for m in self.pools["memory"]:
            assert isinstance(m, MemoryKit)
            if m.type != b.memory_type or (c.memory_types and m.type not in c.memory_types):
                continue
            if m.modules > b.dimm_slots or (b.max_memory_gb and m.total_gb > b.max_memory_gb) \
                    or (c.max_memory_gb and m.total_gb > c.max_memory_gb):
                continue
            if m.total_gb < need_gb:
                continue
            ms.append(m)
        front = pareto(ms, lambda m: (self.price(m, own), *self.power.part(m)))
        self.count("memory: dominated (Pareto: price, power)", len(ms) - len(front))
        return front

    def _stores(self) -> list:
        own = self.owned.get("storage", 0)
        ss = list(self.pools["storage"])
        front = pareto(ss, lambda s: (self.price(s, own), *self.power.part(s), s.pcie_lanes > 0))
        self.count("storage: dominated (Pareto: price, power, M.2 lanes)", len(ss) - len(front))
        return front

    def _psu_floors(self, g: GPU) -> tuple:
        """The cheapest PSU option that could carry the cards alone, all told and bought now (the
        second PSU is bought when growing): price floors, (None, None) when there is none."""
        key = ("psufloor", _plug_key(g), self.req.n_grown * self.gpu_dc(g)[2])
        if key not in self._scores:
            ps = self._psus(g, self.req.n_grown * self.gpu_dc(g)[2])
            self._scores[key] = (min((self._psu_cost(o) for o in ps), default=None),
                                 min((self.price(o[0], self.owned.get("psu", 0)) for o in ps), default=None))
        return self._scores[key]

    def _psu_cost(self, o: tuple[PSU, Optional[PSU]]) -> float:
        return self.price(o[0], self.owned.get("psu", 0)) + (self.price(o[1]) if o[1] is not None else 0.0)

    def _psus(self, g: GPU, need_dc: float) -> list[tuple[PSU, Optional[PSU]]]:
        """PSU options for the grown build: (PSU bought now, second PSU added when growing or None),
        with enough PCIe cables and at least ``need_dc`` (plus 10% with the headroom preference)."""
        req, n0, n1 = self.req, self.req.n_now, self.req.n_grown
        key = ("psus", _plug_key(g), need_dc)  # the card counts only through its plugs
        out: Optional[list[tuple[PSU, Optional[PSU]]]] = self._scores.get(key)
        if out is not None:
            return out
        head = HEADROOM if req.psu_headroom else 1.0
        out = self._scores[key] = []
        for p in self.psu_pool:
            if p.wattage >= need_dc * head - 1e-9 and _connectors_ok([g] * n1, [p]):
                out.append((p, None))
        if req.second_psu and n1 > n0:
            for p1 in self.psu_pool:
                if not _connectors_ok([g] * n0, [p1]):
                    continue
                for p2 in self.psu2_pool:
                    if p2.id != p1.id and p1.wattage + p2.wattage >= need_dc * head - 1e-9 \
                            and _connectors_ok([g] * n1, [p1, p2]):
                        out.append((p1, p2))
        return out

    def _fail(self, stage: str, text: str) -> None:
        self.reject_codes.setdefault("stage:" + stage, (0, text))
        n, t = self.reject_codes["stage:" + stage]
        self.reject_codes["stage:" + stage] = (n + 1, t)

    # -- one (GPU, board, CPU) -----------------------------------------------------------------------
    def _triple(self, g: GPU, b: Motherboard, c: CPU, pcost: float, how: str, pl, parts) -> None:
        req, own, pw = self.req, self.owned, self.power
        n0, n1 = req.n_now, req.n_grown
        cases, coolers, mems, stores, *_ = parts
        self.stage_reached = max(self.stage_reached, "engine", key=_STAGES.index)
        g_now = self.price(g, own.get("gpu", 0), n0)
        g_all = self.price(g, own.get("gpu", 0), n1)
        gdc1 = _add(*(self.gpu_dc(g),) * n1)
        gdc0 = _add(*(self.gpu_dc(g),) * n0)
        base = _add(pw.part(c), pw.part(b), pw.fans)
        psu_opts = self._psus(g, _add(gdc1, base)[2])
        if not psu_opts:
            self.count("triple: PSU wattage floor (no PSU carries the grown build)")
            self._fail("psu", T("no PSU with a price carries {n} x {gpu} on the {board} with 10% headroom", n=n1,
                                gpu=g.name, board=b.name) if req.psu_headroom else
                       T("no PSU with a price carries {n} x {gpu} on the {board}", n=n1, gpu=g.name, board=b.name))
            return
        combos: list[_Combo] = []
        circuit = self.settings.circuit_w()
        head = HEADROOM if req.psu_headroom else 1.0
        top = n1 * (self.scorer.card(g) or 0.0)  # no placement gives more (checked in _throughput)
        psu_opts = sorted(((self.price(p1, own.get("psu", 0)), p1, p2) for p1, p2 in psu_opts),
                          key=lambda t: t[0])  # cheapest now first: the budget cuts the rest
        for case, cooler, mem, sto in itertools.product(cases, coolers, mems, stores):
            if cooler is not None and cooler.height_mm and case.max_cpu_cooler_height_mm \
                    and cooler.height_mm > case.max_cpu_cooler_height_mm:
                self.count("combination: cooler too tall for the case", len(psu_opts))
                continue
            rest = (self.price(case, own.get("case", 0)) + self.price(cooler, own.get("cooler", 0))
                    + self.price(mem, own.get("memory", 0)) + self.price(sto, own.get("storage", 0)))
            parts_dc = _add(base, pw.part(cooler), pw.part(mem), pw.part(sto))
            dc1 = _add(parts_dc, gdc1)
            dc0 = _add(parts_dc, gdc0)
            efloor = pw.energy_floor(dc1)
            for k, (psu_now, p1, p2) in enumerate(psu_opts):
                if case.max_psu_length_mm and any(p and p.length_mm and p.length_mm > case.max_psu_length_mm
                                                  for p in (p1, p2)):
                    self.count("combination: PSU too long for the case")
                    continue
                cost_now = pcost + rest + psu_now + g_now
                if req.budget is not None and cost_now > req.budget + 1e-9:
                    self.count("combination: over budget now", len(psu_opts) - k)
                    break
                cost_growth = (g_all - g_now) + (self.price(p2) if p2 else 0.0)
                psus1 = (p1, p2) if p2 else (p1,)
                rating1 = sum(p.wattage for p in psus1)
                if dc1[2] * head > rating1 + 1e-9 or dc0[2] * head > p1.wattage + 1e-9:
                    self.count("combination: PSU capacity")
                    continue
                if not self._may_improve(1000 * top / max(1e-9, cost_now + cost_growth + efloor), g):
                    self.count("combination: price bound (ratio below the best found)")
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
                combos.append(_Combo(case, cooler, mem, sto, p1, p2, cost_now, cost_growth, energy, per_month,
                                     rating1 / dc1[2] - 1 if dc1[2] else math.inf, dc1[2], rep1.wall["peak"]))
        if not combos:
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

        blowers = req.quiet and g.cooler == "blower"
        heap = []
        for i, cb in enumerate(combos):
            lst = plist(cb.key2)
            if not lst:
                continue
            t = -lst[0][0]
            heapq.heappush(heap, (rank_key(1000 * t / (cb.cost_now + cb.cost_growth + cb.energy), cb.headroom, blowers), i))
        while heap:
            key, i = heapq.heappop(heap)
            if len(self.best) >= max(1, req.top) and key >= self.best[-1].key:
                self.count("combination: price bound (ratio below the best found)", len(heap) + 1)
                return
            cb = combos[i]
            if cb.rejected:
                continue
            lst = plist(cb.key2)
            if not lst:
                continue
            t, pos = -lst[0][0], lst[0][1]
            fresh = rank_key(1000 * t / (cb.cost_now + cb.cost_growth + cb.energy), cb.headroom, blowers)
            if fresh != key:
                heapq.heappush(heap, (fresh, i))
                continue
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
            if bad_parts:
                cb.rejected = True
            else:
                heapq.heappush(heap, (key, i))

    def _throughput(self, g: GPU, b: Motherboard, c: CPU, sto: Optional[Storage], pos: tuple[int, ...]) -> float:
        key = ("t", g.id, b.id, c.id, sto.id if sto else None, pos)
        t = self._scores.get(key)
        if t is None:
            build = Build(motherboard=b.id, cpu=c.id, storage=[StorageItem(sto.id)] if sto else [],
                          gpus=[GpuPlacement(g.id, p, power_limit_w=limit_w(g, self.req.power_limit)) for p in pos])
            t = float(self.scorer.build(build, self.index))
            one = self.scorer.card(g) or 0.0
            if t > len(pos) * one * (1 + 1e-9):
                raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu}, more than {n} times one card "
                                      "({one:g}): the search's bounds would not hold", t=t, n=len(pos), gpu=g.name, one=one))
            self._scores[key] = t
        return t

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
        build = Build(name="", motherboard=b.id, cpu=c.id, cooler=cb.cooler.id if cb.cooler else None,
                      case=cb.case.id, psus=[cb.psu1.id],
                      memory=[PartCount(cb.memory.id)] if cb.memory else [],
                      storage=[StorageItem(cb.storage.id)] if cb.storage else [],
                      gpus=[GpuPlacement(g.id, p, power_limit_w=limit_w(g, req.power_limit)) for p in pos],
                      settings=s)
        for kind, pid in req.own:
            if kind != "gpu":
                build.prices_paid[pid] = PricePaid(0.0, req.currency, note="owned")
        return build

    def _verdict(self, fs: list[Finding]) -> tuple[bool, bool, list[Finding]]:
        """(a placement problem, a parts problem, the findings that rule the build out)."""
        bad = []
        for f in fs:
            if f.severity is Severity.ERROR or (self.req.quiet and f.code == "thermal.open-air-gap") \
                    or (self.req.psu_headroom and f.code == "psu.capacity"):
                bad.append(f)
        place = any(f.code.startswith(PLACEMENT_CODES) for f in bad)
        parts = any(not f.code.startswith(PLACEMENT_CODES) for f in bad)
        return place, parts, bad

    def _note_rejects(self, bad: list[Finding]) -> None:
        for f in bad:
            n, msg = self.reject_codes.get(f.code, (0, f.message))
            self.reject_codes[f.code] = (n + 1, msg)

    def _judge(self, g: GPU, b: Motherboard, c: CPU, cb: _Combo, pos: tuple[int, ...]):
        req = self.req
        grown = self._builds(g, b, c, cb, pos)
        grown.settings.budget = None  # the budget is for the purchase now
        if cb.psu2 is not None:
            grown.psus.append(cb.psu2.id)
        fs1 = run_checks(grown, self.index)
        self.judged += 1
        place, parts, bad = self._verdict(fs1)
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
            p0, q0, bad0 = self._verdict(fs0)
            if not bad0:
                return False, False, self._candidate(g, b, c, cb, today, grown, fs0, fs1)
            last_bad = bad0
            if q0:
                break  # a parts problem today does not depend on where the cards sit
        self._note_rejects(last_bad)
        self.count("engine: rejected (today's build)")
        p0, q0, _ = self._verdict(last_bad)
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
        fam = (cand.gpu.id, cand.grown.motherboard)
        same = [x for x in self.best if (x.gpu.id, x.grown.motherboard) == fam]
        if same:
            if (same[0].key, same[0].total) <= (cand.key, cand.total):
                return
            self.best.remove(same[0])
        self.best.append(cand)
        self.best.sort(key=lambda x: (x.key, x.total))
        del self.best[max(1, self.req.top):]

    # -- explanations ------------------------------------------------------------------------------
    def _no_gpu_reason(self) -> str:
        req = self.req
        bits = []
        if req.min_vram_gb:
            bits.append(T("at least {gb:g} GB per card", gb=req.min_vram_gb))
        if req.min_total_vram_gb:
            bits.append(T("at least {gb:g} GB over {n} cards", gb=req.min_total_vram_gb, n=req.n_grown))
        vram = T("{a} and {b}", a=bits[0], b=bits[1]) if len(bits) == 2 else bits[0] if bits else ""
        priced = len(self.pools["gpu"])
        if not priced:
            return T("GPU: no card in the catalog has a {cond} price in {currency}", cond=self._cond_words(),
                     currency=req.currency)
        if self.bounds.get("GPU: too little VRAM"):
            if vram:
                return T("GPU: none of the {n} priced cards has the VRAM asked for ({vram})", n=priced, vram=vram)
            return T("GPU: none of the {n} priced cards has the VRAM asked for ({workload} needs more on {cards} "
                     "cards)", n=priced, workload=req.workload, cards=req.n_grown)
        return T("GPU: no priced card has a throughput estimate for {workload}", workload=req.workload)

    def _reason(self) -> str:
        req = self.req
        if self.total_pairs == 0:
            return T("board and CPU: no board and CPU with the same socket both have a price")
        if self.stage_reached == "board":
            if req.quiet:
                return T("slot spacing: no board with a price has {n} slots far enough apart for any eligible card "
                         "with a full slot of air in front of open-air fans (quiet)", n=req.n_grown)
            return T("slot spacing: no board with a price has {n} slots far enough apart for any eligible card",
                     n=req.n_grown)
        if req.budget is not None and self.min_floor_now is not None and self.min_floor_now > req.budget:
            return T("budget: the cheapest build that could hold {n} cards costs at least {floor} now, over the "
                     "budget of {budget}", n=req.n_grown, floor=Money(self.min_floor_now, req.currency),
                     budget=Money(req.budget, req.currency))
        stages = {k[6:]: v for k, v in self.reject_codes.items() if k.startswith("stage:")}
        engine = {k: v for k, v in self.reject_codes.items() if not k.startswith("stage:")}
        if engine:
            code, (n, msg) = max(engine.items(), key=lambda kv: kv[1][0])
            return T("{code}: every build that passed the bounds has errors; most often ({n}x): {msg}", code=code,
                     n=n, msg=msg)
        # The furthest a candidate got names what stopped it (a build that found a case and a PSU
        # but not the circuit was stopped by the circuit).
        for stage, words in (("circuit", T("wall circuit")), ("psu", T("psu")), ("memory", T("memory")),
                             ("cooler", T("cooler")), ("case", T("case"))):
            if stage in stages:
                return T("{stage}: {why}", stage=words, why=stages[stage][1])
        return T("no complete build within the request")

    def _finish(self, t0: float, infeasible: Optional[str]) -> Result:
        res = Result(self.req, self.best, [], self.bounds, self.excluded, self.left_out, infeasible,
                     time.perf_counter() - t0, self.judged, getattr(self.scorer, "label", ""))
        used = {pid for c in self.best for pid in c.grown.part_ids()}
        res.priced = {pid: pp for pid, pp in self.prices.chosen.items() if pid in used}
        res.explanation = self._explain(res)
        res.price_notes = self._price_age(res.best)
        return res

    def _explain(self, res: Result) -> list[str]:
        req, cur = self.req, self.req.currency
        out: list[str] = []
        best = res.best
        if best is not None:
            g = best.gpu
            b = self.index.get(best.grown.motherboard)
            out.append(T("Best throughput per total cost: {rate} {unit} for {total} ({now} now, {grow} to grow, "
                         "{energy} energy over {years:g} years): {ratio} per 1,000 {currency}.",
                         rate=figure(best.throughput), unit=best.unit, total=Money(best.total, cur),
                         now=Money(best.cost_now, cur), grow=Money(best.cost_growth, cur),
                         energy=Money(best.energy, cur), years=req.years, ratio=figure(best.ratio), currency=cur))
            if len(res.candidates) > 1:
                nxt = res.candidates[1]
                out.append(T("Next best: {name}, {pct:.1f}% less per {currency}.",
                             name=nxt.label, pct=100 * (1 - nxt.ratio / best.ratio),
                             currency=cur))
            if req.budget is not None:
                out.append(T("Budget: {now} of {budget} spent now.", now=Money(best.cost_now, cur),
                             budget=Money(req.budget, cur)))
            if req.quiet:
                out.append(T("Quiet: no build without blower cards meets the request; these use blowers.")
                           if best.blowers else T("Quiet: no blower cards, a full slot of air in front of every "
                                                  "open-air card's fans."))
            out.extend(self._board_bound(best, g, b))
            psu_w = sum(self.index.get(p).wattage for p in best.grown.psus)
            out.append(T("Power: {peak:.0f} W peak load on {psu:.0f} W of PSU ({head:.0f}% headroom); about "
                         "{wall:.0f} W at the wall of the {circuit:.0f} W circuit.", peak=best.peak_dc_w, psu=psu_w,
                         head=100 * best.headroom, wall=best.peak_wall_w,
                         circuit=self.settings.circuit_w()))
        for kind in res.left_out:
            n = self.excluded.get(kind, 0)
            out.append(T("No {kind} in the catalog has a used price: the builds have none ({n} left out); enter "
                         "your used price for one (rigbuilder price set --used, or price import) and search again.",
                         kind=_KIND_WORDS[kind], n=n) if req.condition == "used" else
                       T("No {kind} in the catalog has a price: the builds have none ({n} left out); add one "
                         "yourself, or enter your price for one (rigbuilder price set) and search again.",
                         kind=_KIND_WORDS[kind], n=n))
        ex = {k: v for k, v in self.excluded.items() if k not in res.left_out}
        if ex and req.condition != "used":  # with used prices the parts without one are named below
            counted = [T("{n} {kind}", n=v, kind=(_KIND_WORDS if v == 1 else _KIND_PLURALS)[k]) for k, v in ex.items()]
            out.append(T("Left out for want of a price: {list}.", list=T.join(*interleave(counted, ", "))))
        out.extend(self._used_missing())
        return self._price_age(best) + out

    def _used_missing(self) -> list[str]:
        """With used prices asked for, the parts that have none, per kind and by name (a few named,
        the rest counted): they are left out, never priced new behind the user's back."""
        if self.req.condition != "used" or not self.prices.no_used:
            return []
        by: dict[str, list[str]] = {}
        for pid in self.prices.no_used:
            p = self.index.get(pid)
            if p is not None:
                by.setdefault(p.KIND, []).append(p.name)
        out = []
        for kind, names in by.items():
            shown = sorted(names)[:USED_NAMED]
            more = len(names) - len(shown)
            listed = T.join(*interleave([T.verbatim(n) for n in shown], ", "))
            out.append(T("No used price for {n} {kind}, so they are left out (not priced new): {names}{more}. "
                         "--prices both allows new prices, labelled new.", n=len(names),
                         kind=(_KIND_WORDS if len(names) == 1 else _KIND_PLURALS).get(kind, kind), names=listed,
                         more=T(" and {n} more", n=more) if more else ""))
        return out

    def _price_age(self, best: Optional[Candidate]) -> list[str]:
        """How old the prices behind the answer are, and how they were converted; a stale answer
        says so first."""
        if best is None:
            return []
        chosen = [self.prices.chosen[pid] for pid in dict.fromkeys(best.grown.part_ids())
                  if pid in self.prices.chosen]
        if not chosen:
            return []
        obs = [pp.observation for pp in chosen]
        out = []
        if any_stale(obs, self.today):
            stale = [pp for pp in chosen if pp.stale(self.today)]
            out.append(T("Stale prices: {n} of the {total} part prices behind this answer were seen more than "
                         "{months} months ago; check today's prices before you buy.", n=len(stale), total=len(chosen),
                         months=STALE_MONTHS))
        out.append(T("Price age: {ages}.", ages=T.join(*interleave(price_ages(obs, self.today), ", "))))
        convs = sorted({pp.conversion for pp in chosen if pp.conversion})
        if convs:
            out.append(T("Currency: {conversions}.", conversions=T.join(*interleave(convs, ", "))))
        return out

    def _board_bound(self, best: Candidate, g: GPU, b: Optional[Part]) -> list[str]:
        """Why no cheaper board: the issue's "no board under 400 EUR has four x8 slots 2 positions apart"."""
        if not isinstance(b, Motherboard):
            return []
        n1, cur = self.req.n_grown, self.req.currency
        bp = self.board_floor.get(b.id, 0.0)
        cheaper = [x for x in self.pools["motherboard"] if isinstance(x, Motherboard) and x.id != b.id
                   and self.board_floor.get(x.id, math.inf) < bp]
        if not cheaper:
            return [T("Board: the {board} (with its CPU {price}) is the cheapest board and CPU that qualify.",
                      board=b.name, price=Money(bp, cur))]
        spaced = [x for x in cheaper if not self._board_placements(x, (g.span, g.slot_width, g.cooler, g.pcie_lanes), g)]
        if len(spaced) == len(cheaper) and n1 > 1:
            return [T("Board: no board and CPU under {price} have {n} slots that take the {width:g}-slot {gpu} {span} "
                      "positions apart ({checked} cheaper boards checked).", price=Money(bp, cur), n=n1,
                      width=g.slot_width, gpu=g.model, span=g.span, checked=len(cheaper))]
        return [T("Board: {bad} of {checked} cheaper boards cannot hold {n} of these {width:g}-slot cards; the others "
                  "gave a lower ratio or failed the checks.", bad=len(spaced), checked=len(cheaper), n=n1,
                  width=g.slot_width)]


USED_NAMED = 8
"""How many parts without a used price an answer names (the rest are counted)."""
_STAGES = ["gpu", "board", "parts", "engine"]
_MISSING = object()
_KIND_WORDS = {"gpu": T("GPU"), "motherboard": T("board"), "cpu": T("CPU"), "cooler": T("CPU cooler"),
               "memory": T("memory kit"), "storage": T("drive"), "psu": T("PSU"), "case": T("case")}
_KIND_PLURALS = {"gpu": T("GPUs"), "motherboard": T("boards"), "cpu": T("CPUs"), "cooler": T("CPU coolers"),
                 "memory": T("memory kits"), "storage": T("drives"), "psu": T("PSUs"), "case": T("cases")}



LIMIT_STEPS = (1.0, 0.9, 0.8, 0.7)
"""The power-limit steps the search tries when asked to choose the limit (fractions of board power)."""


def optimise(req: Request, index: PartIndex, scorer: Scorer, *,
             progress: Optional[Callable[[float, str], None]] = None,
             cancelled: Optional[Callable[[], bool]] = None) -> Result:
    """The best builds for ``req`` (best first), or an answer naming the constraint that cannot be met.
    Raises OptimiseError for a request that cannot be searched, Cancelled when ``cancelled()`` says so.

    With ``req.power_limits`` the power limit is a search variable: each step is searched exactly
    (every card at that fraction of its board power) and the best builds of all steps are merged,
    so the answer is the best over the steps, and a circuit or PSU that binds at full power can be
    met by limiting the cards instead of dropping them."""
    steps = tuple(dict.fromkeys(req.power_limits))
    if not steps:
        return _Search(req, index, scorer, progress, cancelled).run()
    bad = req.problems()
    if bad:
        raise OptimiseError("; ".join(bad))
    t0 = time.perf_counter()
    results: list[tuple[float, Result]] = []
    shared: dict = {}
    for i, f in enumerate(steps):
        sub = replace(req, power_limit=None if f >= 1.0 else f, power_limits=())
        part = None if progress is None else (
            lambda x, text, i=i: progress((i + x) / len(steps), text))
        results.append((f, _Search(sub, index, scorer, part, cancelled, shared).run()))
    return _merge_steps(req, results, time.perf_counter() - t0)


def budget_step(req: Request, res: Result, index: PartIndex, scorer: Scorer, step: float) -> list[str]:
    """What ``step`` more budget would buy: the best build at the larger budget against ``res``'s
    (one more search). Nothing when the request has no budget."""
    if req.budget is None:
        return []
    more = optimise(replace(req, budget=req.budget + step), index, scorer)
    cur = req.currency
    if more.best is None:
        return [T("+{step}: still no build meets the request.", step=Money(step, cur))]
    if res.best is None:
        return [T("+{step}: {name}, {rate} {unit}.", step=Money(step, cur), name=more.best.label,
                  rate=figure(more.best.throughput), unit=more.best.unit)]
    if more.best.key == res.best.key or more.best.label == res.best.label:
        return [T("+{step}: the same build; more budget buys nothing better per cost.", step=Money(step, cur))]
    return [T("+{step}: {name}, {x:.2f}x the throughput for {extra} more now.", step=Money(step, cur),
              name=more.best.label, x=more.best.throughput / res.best.throughput if res.best.throughput else 0,
              extra=Money(more.best.cost_now - res.best.cost_now, cur))]


def _step_text(f: float) -> str:
    return T("full power") if f >= 1.0 else T("{pct:.0%} of board power", pct=f)


def _merge_steps(req: Request, results: list[tuple[float, "Result"]], seconds: float) -> Result:
    """One answer from the searches of each power-limit step: the best candidates of all steps, and
    what each step gave."""
    cands: list[Candidate] = []
    for _, r in results:
        cands.extend(r.candidates)
    cands.sort(key=lambda c: c.key)
    seen: set = set()
    best: list[Candidate] = []
    for c in cands:  # the same parts at two limits: keep the better one
        k = (c.grown.motherboard, c.grown.cpu, c.gpu.id)
        if k in seen:
            continue
        seen.add(k)
        best.append(c)
        if len(best) >= req.top:
            break
    winner = next((r for _, r in results if r.best is not None and best and r.best is best[0]), None)
    first = results[0][1]
    bounds: dict[str, int] = {}
    for _, r in results:
        for k, v in r.bounds.items():
            bounds[k] = bounds.get(k, 0) + v
    infeasible = None if best else first.infeasible
    res = Result(req, best, [], bounds, first.excluded, first.left_out, infeasible, seconds,
                 sum(r.judged for _, r in results), first.scorer)
    out = list((winner or first).explanation)
    lines = []
    for f, r in results:
        if r.best is None:
            lines.append(T("{step}: no build ({why})", step=_step_text(f), why=r.infeasible or ""))
        else:
            lines.append(T("{step}: {ratio} per 1,000 {currency}", step=_step_text(f), ratio=figure(r.best.ratio),
                           currency=req.currency))
    if best:
        f = next((f for f, r in results if r.best is best[0]), 1.0)
        why = T("Power limit: {step} wins.", step=_step_text(f))
        full = results[0][1] if results[0][0] >= 1.0 else None
        if f < 1.0 and full is not None and full.best is None and full.infeasible:
            why = T("Power limit: {step} wins; at full power no build meets the request ({reason}).",
                    step=_step_text(f), reason=full.infeasible)
        out.insert(1 if out else 0, T.join(why, " ", T("Each step:"), " ", *interleave(lines, "; "), "."))
    res.explanation = out
    return res

