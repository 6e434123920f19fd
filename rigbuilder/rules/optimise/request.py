"""The optimiser's request and its answer: what is asked (``Request``, checked by ``problems``), what
comes back (``Candidate``, ``Result``), the errors a search raises and the throughput interface a
search is given (``Scorer``)."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Optional, Protocol

from rigbuilder.domain import fields as F
from rigbuilder.domain.build import REGIONS, ROOM_NOISE_RANGE, Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import Num, T, nT
from rigbuilder.domain.parts import compact_card_name
from rigbuilder.domain.parts import GPU

CONDITIONS = (*F.CONDITION.choices, "both")
"""Which prices a request takes: a build's condition, or the cheaper of a new and a used price."""
KINDS = ("gpu", "motherboard", "cpu", "cooler", "memory", "storage", "psu", "case")
OPTIONAL_KINDS = ("cooler", "memory", "storage")
"""Kinds a build may go without when no part of the kind has a price (said in the result)."""


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


OBJECTIVES = ("within-budget", "per-cost", "cheapest")
"""What a request asks for (``Request.objective``): the most throughput within the budget (the default
when a budget is given: the budget is spent on throughput), the most throughput per total cost (the
default without a budget), or the cheapest build (total cost) that reaches ``target_throughput`` (and
holds the workload, as every answer does)."""

RISER_LENGTH_MM = (0.0, 2000.0)
"""The riser length a request may ask for, in mm (0: any)."""


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
    min_storage_gb: float = 500.0  # the drive holds at least this much (a data set and the system; 0: any)
    power_limit: Optional[float] = None  # every GPU limited to this fraction of its board power (F.POWER_LIMIT_FRACTION)
    power_limits: tuple[float, ...] = ()  # steps to search (fractions of board power); the best step wins
    insist: tuple[tuple[str, str], ...] = ()  # (kind, part id): use this part, priced as usual
    own: tuple[tuple[str, str], ...] = ()  # (kind, part id): already owned, costs nothing; a GPU once per card
    risers: bool = False  # cards may also stand on risers in an open frame with a position for each (``frames``);
    # off by default: each riser option is one more whole search (seconds on a fully priced catalog)
    riser_length_mm: Optional[float] = None  # risers at least this long (what the user measured from the
    # slots to the frame's card positions; no shipped frame states it); None: any length
    max_noise: Optional[float] = None  # dB(A) at 1 m while training (models/noise.py): every answer at or below it
    free_slots: int = 0  # expansion slots the grown build's cards must leave free (a network card for a cluster)
    top: int = 5
    today: Optional[str] = None  # ISO day the prices' age is counted to (today by default)
    objective: Optional[str] = None  # one of OBJECTIVES; None: "within-budget" with a budget, else "per-cost"
    target_throughput: Optional[float] = None  # with "cheapest": the least throughput (the scorer's unit)
    grow_budget: Optional[float] = None  # most spent on growing (cards added later, a second PSU); the grown
    # stage is judged against budget + grow_budget; None: growing has no cap
    allow_warnings: bool = False  # accept the warnings ``policy.REFUSED`` refuses by default
    choices: tuple[tuple[str, bool], ...] = ()  # (name, on) over ``choices.CHOICES``' defaults
    gpu_counts: tuple[int, ...] = ()  # the number of cards as a search variable (``frames.optimise``): each
    # count searched (bought now, no growth), the best of all wins; () : ``gpus_now`` as given

    @property
    def goal(self) -> str:
        """The objective in force."""
        if self.objective is not None:
            return self.objective
        return "within-budget" if self.budget is not None else "per-cost"

    @property
    def target(self) -> float:
        """The least throughput an answer must reach (only with the "cheapest" objective)."""
        return float(self.target_throughput or 0.0) if self.goal == "cheapest" else 0.0

    @property
    def grown_budget(self) -> Optional[float]:
        """What the grown stage may have cost in all (today's budget plus the growth budget), or None."""
        if self.budget is None or self.grow_budget is None:
            return None
        return self.budget + self.grow_budget

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
                                (T("RAM per VRAM"), self.ram_per_vram, 0, 100),
                                (T("minimum drive size"), self.min_storage_gb, 0, 1e6),
                                (T("riser length"), self.riser_length_mm, *RISER_LENGTH_MM),
                                (T("maximum noise"), self.max_noise, *ROOM_NOISE_RANGE)):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
                out.append(T("{name}: {v} must be a number from {lo:g} to {hi:g}", name=name, v=repr(v), lo=lo, hi=hi))
        if any(isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 8 for n in self.gpu_counts):
            out.append(T("GPUs: {v} must be whole numbers from 1 to 8", v=repr(self.gpu_counts)))
        elif self.gpu_counts and self.grow_to is not None:
            out.append(T("GPUs: a range of card counts is searched without growth (no grow to)"))
        if self.objective is not None and self.objective not in OBJECTIVES:
            out.append(T("objective: {v} must be one of {known}", v=repr(self.objective), known=", ".join(OBJECTIVES)))
        for name, v in ((T("target throughput"), self.target_throughput), (T("growth budget"), self.grow_budget)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1e9):
                out.append(T("{name}: {v} must be a number from {lo:g} to {hi:g}", name=name, v=repr(v), lo=0, hi=1e9))
        if isinstance(self.free_slots, bool) or not isinstance(self.free_slots, int) or not 0 <= self.free_slots <= 8:
            out.append(T("free slots: {v} must be a whole number from 0 to 8", v=repr(self.free_slots)))
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
    goal: str = "per-cost"  # the objective it was ranked by (``objective_key``)
    target: float = 0.0
    estimate: Optional[object] = None  # the grown build's models.scaling.BuildThroughput, for its error bands
    # (set after the search by ``rules.optimise.bands.attach``; the search ranks by ``throughput`` alone)
    variants: list["Candidate"] = dataclasses.field(default_factory=list)
    # the same build with other makers' variants of the card (``same_but_card``): listed in its row, not as rows
    # of their own (``keeping.Keeper.keep``), so that the top builds are different builds

    @property
    def key(self) -> tuple:
        if self.goal == "per-cost":
            return rank_key(self.ratio, self.headroom, self.blowers)
        return objective_key(self.goal, self.throughput, self.total, self.headroom, self.blowers, self.target)

    @property
    def label(self) -> str:
        """'1 -> 4 x RTX A4000 on X99 WS-E'"""
        n0, n1 = len(self.today.gpus), len(self.grown.gpus)
        name = self.grown.name
        if isinstance(name, T) and name.template == "{name} (grown)":
            return name.params["name"]
        return name or build_name(n0, n1, self.gpu.model, self.grown.motherboard or "")

    @property
    def row_label(self) -> str:
        """The label as a list of builds shows it: with how many other makers' variants of the card give the
        same build, and the card named by its chip and variant (``compact_card_name``: '4 x RTX 3090 Turbo on
        X99 WS-E (or 2 other variants)'), so that a narrow column still shows the board."""
        label = self.label
        if isinstance(label, T) and "gpu" in label.params:
            label = T(label.template, **{**label.params, "gpu": compact_card_name(self.gpu)})
        if not self.variants:
            return label
        return nT("{name} (or {n} other variant)", "{name} (or {n} other variants)", len(self.variants), name=label)

    def same_but_card(self, other: "Candidate") -> bool:
        """Whether ``other`` is this build with another maker's variant of the card: the same chip and VRAM,
        the same rank key, total cost and throughput, the same errors and warnings count, and every other
        part, position, mount and power limit the same at both stages."""
        a, b = self.gpu, other.gpu
        if a.id == b.id or (a.chip_model or a.chip or a.model) != (b.chip_model or b.chip or b.model) \
                or a.vram_gb != b.vram_gb:
            return False
        if len(self.key) != len(other.key) or not all(
                x == y if isinstance(x, bool) or not isinstance(x, float) else math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
                for x, y in zip(self.key, other.key)):
            return False
        if not (math.isclose(self.total, other.total, rel_tol=1e-9, abs_tol=1e-6)
                and math.isclose(self.throughput, other.throughput, rel_tol=1e-9, abs_tol=1e-9)):
            return False
        for fa, fb in ((self.findings_today, other.findings_today), (self.findings_grown, other.findings_grown)):
            ca, cb = Candidate._serious(fa), Candidate._serious(fb)
            if ca != cb:
                return False
        return all(_rest(x) == _rest(y) for x, y in ((self.today, other.today), (self.grown, other.grown)))

    @staticmethod
    def _serious(fs: list[Finding]) -> tuple[int, int]:
        return (sum(1 for f in fs if f.severity is Severity.ERROR), sum(1 for f in fs if f.severity is Severity.WARNING))

    def counts(self, stage: str = "grown") -> dict[str, int]:
        fs = self.findings_grown if stage == "grown" else self.findings_today
        c = {s.value: 0 for s in Severity}
        for f in fs:
            c[f.severity.value] += 1
        return c


def _rest(b: Build) -> tuple:
    """A build's parts but the cards' model: what ``Candidate.same_but_card`` compares."""
    return (b.motherboard, b.cpu, b.cooler, b.case, tuple(b.psus), tuple((m.part_id, m.count) for m in b.memory),
            tuple((s.part_id, s.count, s.m2) for s in b.storage),
            tuple((g.position, g.mount, g.power_limit_w, g.riser) for g in b.gpus))


def limit_w(gpu: GPU, fraction: Optional[float]) -> Optional[float]:
    """The power limit in watts a card gets for ``fraction`` of its board power (None: none)."""
    return F.limit_at_fraction(gpu.board_power_w, fraction)


def figure(v: float) -> str:
    """A throughput or ratio as shown: whole numbers from 100, else three significant figures."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def figure_num(v: float) -> Num:
    """``figure`` inside a translated text: the same digits, in the language's own format
    ('1,437' in English, '1.437' in German)."""
    return Num(v, figure(v))


def rank_key(ratio: float, headroom: float, blowers: bool = False) -> tuple:
    """Smaller is better: no blowers first (quiet), then throughput per cost, then headroom."""
    return (blowers, -ratio, -headroom)


def objective_key(goal: str, throughput: float, total: float, headroom: float, blowers: bool = False,
                  target: float = 0.0) -> tuple:
    """Smaller is better, for each objective of ``OBJECTIVES``. With a throughput that is at most
    ``throughput`` and a total cost that is at least ``total``, no build has a smaller key than this
    (so the search's bounds use it as is). "per-cost": ``rank_key``; "within-budget": the most
    throughput, then the least total cost; "cheapest": the least total cost among the builds that
    reach ``target`` (a key whose first place is True misses it: no answer), then the most throughput."""
    if goal == "per-cost":
        return rank_key(1000 * throughput / total if total > 0 else math.inf, headroom, blowers)
    if goal == "within-budget":
        return (False, blowers, -throughput, total, -headroom)
    return (throughput < target * (1 - 1e-12), blowers, total, -throughput, -headroom)


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
    steps: list = dataclasses.field(default_factory=list)  # with power-limit steps: (fraction of board power,
    # that step's best build or None, why it has none) per step, as searched (``explain.merge_steps``)

    @property
    def best(self) -> Optional[Candidate]:
        return self.candidates[0] if self.candidates else None
