"""What the power and cost panel shows, Qt-free (issue 23): one frozen description a plot at a
time, computed from the models, that the window only draws.

``describe(build, years)`` (``build``: a build resolved against the catalog, the checks'
``rules.context.Context``) returns a :class:`PanelDescription`:

- :class:`PowerPlot`: a stacked bar a kind of component for idle, training and peak (DC), the wall
  draw of each, the reference lines (PSU rating, 80% of it, the wall circuit's continuous limit)
  with their legend names, the axis top, the title and what hovering over each state's bars reads;
- :class:`EfficiencyPlot`: the 80 PLUS curve of the build's PSU level for the region's table in
  pieces, each flagged extrapolated or not (an extrapolated piece shares its end point with the
  certified one, so the curve reads as one line), the certified points, the build's operating
  points with their labels, the axes' ranges and the title;
- :class:`CostPlot`: cumulative purchase + energy, the comparison scenarios, the cumulative rent of
  the same GPUs in a cloud with the month where buying overtakes it and the verdict, the axes and
  the title;
- :class:`Controls`: the settings as the controls show them, and a :class:`LimitSlider` a GPU
  (range from the power-limit floor of ``domain.fields`` to the board power, value, label);
- the figures under the controls, a line each.

Every text is a translatable text (``T``) that a door renders in its language. An axis top grows
as soon as the data needs it and shrinks only when the data falls below half of it: give the
description shown before as ``before`` and the axes stay where they were across small edits.
Nothing here imports Qt (``tests/test_core_has_no_qt.py``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional, Protocol, Sequence

from rigbuilder.domain import fields as F
from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain import kinds
from rigbuilder.domain.i18n import N_, T, interleave
from rigbuilder.domain.parts import GPU, PSU
from rigbuilder.models import cost as cost_model
from rigbuilder.models import noise as noise_model
from rigbuilder.models import perf
from rigbuilder.models import power as power_model
from rigbuilder.models import renting

STATES = power_model.STATES
SHARES: tuple[kinds.Kind, ...] = kinds.drawing()
"""The power bars' shares, stacking order bottom first: the part kinds that draw power, in the bill's
order, each named by its kind's label (``domain.kinds``: a new kind that draws power is a share of
the chart without an edit here or in the panel)."""
KINDS = tuple(k.name for k in SHARES)
KIND_LABELS = {k.name: k.label for k in SHARES}
STATE_NAMES = {"idle": N_("idle"), "training": N_("training"), "peak": N_("peak")}
"""The power model's states as the plots name them (``STATES`` are the keys)."""
SCENARIO_KEYS = ("psu_better", "power_limit", "price")
LINE_KEYS = ("rating", "rating80", "circuit")
EMPTY_FIGURES = N_("Nothing to judge yet: power draw and running cost appear once the build has parts.")
CURVE_POINTS = 241  # points of the efficiency curve over its axis
EFFICIENCY_Y = (60.0, 112.0)  # % (room above 100% for the peak label)
RATING_SHARE = 0.8  # the PSU line drawn at this share of its rating
OFF_SCALE = 1.6  # a circuit limit this far above the bars' top is left off the scale (the title says so)


NOTHING = T.verbatim("")


_STATE_TEXTS = {k: T(v) for k, v in STATE_NAMES.items()}


def state_name(state: str) -> T:
    return _STATE_TEXTS.get(state) or T(state)


# --------------------------------------------------------------------------- axes

def nice_top(v: float) -> float:
    """An axis top at or above ``v`` on a coarse grid (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^n),
    so most edits leave the axis as it was (and the window keeps its drawn axis)."""
    if v <= 0:
        return 1.0
    mag = 10 ** math.floor(math.log10(v))
    for m in (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * mag >= v - 1e-9:
            return m * mag
    return 10 * mag


def sticky_top(current: Optional[float], needed: float) -> float:
    """An axis top that grows as soon as the data needs it, but shrinks only when the data has
    fallen below half of it: adding and removing a card then leaves the axis where it was."""
    if current is None or needed > current or needed < 0.5 * current:
        return nice_top(needed)
    return current


# --------------------------------------------------------------------------- the description

@dataclass(frozen=True)
class Bars:
    """One kind of component's share of each state (``STATES``), stacked on the kinds before it."""

    kind: str
    label: T
    heights: tuple[float, ...]
    bottoms: tuple[float, ...]


@dataclass(frozen=True)
class RefLine:
    """A horizontal line of the power plot, named with its watts in the legend."""

    key: str  # "rating", "rating80", "circuit"
    watts: float
    shown: bool
    label: T


@dataclass(frozen=True)
class Readout:
    """What hovering over one state's bars reads: the total, each kind's watts, the PSU's load."""

    head: T
    shares: tuple[T, ...]
    tail: tuple[T, ...]


@dataclass(frozen=True)
class PowerPlot:
    state_labels: tuple[T, ...]
    bars: tuple[Bars, ...]  # in KINDS order
    wall: tuple[float, ...]
    lines: tuple[RefLine, ...]  # in LINE_KEYS order
    y_top: float
    title: T

    def line(self, key: str) -> RefLine:
        return next(x for x in self.lines if x.key == key)

    def heights(self, kind: str) -> tuple[float, ...]:
        return next(b.heights for b in self.bars if b.kind == kind)


@dataclass(frozen=True)
class CurvePiece:
    """A stretch of the efficiency curve (x: % of the PSU's rating, y: % efficiency)."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    extrapolated: bool


@dataclass(frozen=True)
class OperatingPoint:
    state: str
    x: float  # % of the PSU's rating
    y: float  # % efficiency
    label: T


@dataclass(frozen=True)
class EfficiencyPlot:
    level: Optional[str]  # the 80 PLUS level drawn; None: no PSU, nothing drawn
    table: str
    pieces: tuple[CurvePiece, ...]
    certified: tuple[tuple[float, float], ...]  # the published points, in %
    points: tuple[OperatingPoint, ...]  # a state each (none without a PSU)
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    title: T


@dataclass(frozen=True)
class Series:
    """A cumulative cost line: months 0..n and the amount in the build's currency."""

    key: str  # "build", a scenario's key, "rent"
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    label: T


@dataclass(frozen=True)
class CostPlot:
    own: Series
    scenarios: tuple[Series, ...]  # those the build has, in SCENARIO_KEYS order
    rent: Optional[Series]
    break_even: Optional[tuple[float, float]]  # (month, cost) where buying overtakes renting, on the plot
    verdict: T  # "" when there is nothing to say
    rent_notes: tuple[T, ...]  # what the rent line rests on (price, source, age), a line each
    y_label: T
    x_range: tuple[float, float]
    y_top: float
    title: T

    @property
    def lines(self) -> tuple[Series, ...]:
        return (self.own, *self.scenarios, *((self.rent,) if self.rent is not None else ()))


@dataclass(frozen=True)
class LimitSlider:
    """One GPU's power-limit slider: from the floor of ``domain.fields`` to the board power (the
    right end: no limit)."""

    index: int  # the GPU's place in the build (0-based)
    num: int  # as the user sees it (1-based)
    name: str
    board_w: float
    lo: int
    hi: int
    value: int
    label: T
    tip: tuple[T, ...]


@dataclass(frozen=True)
class Controls:
    region: str
    price_per_kwh: float
    currency: str
    currencies: tuple[str, ...]  # those the exchange rates know, and the build's
    load_hours: float
    idle_hours: float
    load_hours_max: float  # load plus idle fill at most a day
    idle_hours_max: float
    budget: Optional[float]
    rent_per_gpu_hour: Optional[float]
    limits: tuple[LimitSlider, ...]


@dataclass(frozen=True)
class PanelDescription:
    power: PowerPlot
    efficiency: EfficiencyPlot
    cost: Optional[CostPlot]  # None: the cost could not be computed (the figures say why)
    controls: Controls
    figures: tuple[T, ...]
    empty: bool  # nothing in the build: no plots, the figures say so
    years: float
    # What the figures were computed from (not part of what is drawn: never compared).
    report: power_model.PowerReport = field(compare=False, repr=False, default=None)  # type: ignore[assignment]
    costs: Optional[cost_model.CostReport] = field(compare=False, repr=False, default=None)
    break_even: Optional[renting.BreakEven] = field(compare=False, repr=False, default=None)
    rent_missing: T = field(compare=False, default=NOTHING)  # why there is no rent line

    def readout(self, state: int) -> Readout:
        """What hovering over the power plot's bars of ``STATES[state]`` reads."""
        return readout(self.report, STATES[state])


class _Placed(Protocol):
    num: int
    placement: GpuPlacement
    gpu: GPU


class Resolved(Protocol):
    """A build resolved against the catalog: what ``rules.context.Context`` offers (the checks'
    context is passed in; this module sits below the rules and does not import them)."""

    build: Build
    index: PartIndex
    gpus: Sequence[_Placed]
    psus: Sequence[PSU]

    @property
    def power(self) -> power_model.PowerReport: ...

    @property
    def noise(self) -> "noise_model.NoiseReport": ...


# --------------------------------------------------------------------------- texts

def limit_label(num: int, watts: float, board_w: float) -> T:
    """'GPU 1: 280 W (80%, ~96% speed)', or '(no limit)' at the board power (``fields.limit_for``)."""
    if F.limit_for(watts, board_w) is None:
        return T("GPU {num}: {watts} W (no limit)", num=num, watts=int(watts))
    return T("GPU {num}: {watts} W ({fraction:.0%}, ~{speed:.0%} speed)", num=num, watts=int(watts),
             fraction=round(100 * watts / board_w) / 100, speed=perf.throughput(watts / board_w))


def rent_verdict(be: renting.BreakEven, horizon_months: float, hours_per_day: float, days_per_month: float,
                 complete: bool = True) -> tuple[Optional[float], T]:
    """The month where buying overtakes renting on the cost graph (None: not within the
    ``horizon_months``) and the label saying so; the month is ``BreakEven.months_at``."""
    if be.purchase <= 0:
        return None, T("buying against renting: unknown until the parts have prices")
    if be.hours is None:
        return None, T("renting stays cheaper: its price per hour is below the build's energy")
    months = be.months_at(hours_per_day, days_per_month)
    if months is None:
        return None, T("renting stays cheaper over the horizon (no hours under load)")
    if months > horizon_months:
        return None, T("renting stays cheaper over the horizon (buying beats it after {months:,.0f} months)",
                       months=months)
    if months < 1:
        return months, T("buying beats renting within the first month")
    if complete:
        return months, T("buying beats renting after {months:,.0f} months", months=months)
    return months, T("buying beats renting after at least {months:,.0f} months", months=months)


def rent_source(price: Optional[renting.CloudPrice]) -> T:
    """Where a rental price comes from, short: 'RunPod, 2026-03 (8 months old, stale)' or 'your price'."""
    if price is None or price.yours:
        return T("your price")
    age = price.age_months()
    if age is None:
        return T("{provider}, {observed} (age unknown)", provider=price.provider, observed=price.observed)
    if price.stale():
        return T("{provider}, {observed} ({age} months old, stale)", provider=price.provider,
                 observed=price.observed, age=age)
    return T("{provider}, {observed} ({age} months old)", provider=price.provider, observed=price.observed, age=age)


def rent_legend(be: renting.BreakEven) -> T:
    """The rent line's name in the cost legend, short: whose price and of when, stale marked (the
    price, the publication and the age are in its notes and in the panel's figures)."""
    p = be.price
    if p is None or p.yours:
        return T("renting at your price")
    if p.stale():
        return T("renting ({provider}, {observed}, ⚠ stale)", provider=p.provider, observed=p.observed)
    return T("renting ({provider}, {observed})", provider=p.provider, observed=p.observed)


def rent_notes(be: Optional[renting.BreakEven], missing: str) -> tuple[T, ...]:
    """What the rent line rests on: the price used, where it comes from and how old it is."""
    if be is None:
        return (T("No rent line: {why}", why=missing),) if missing else ()
    lines = []
    if be.price is not None and not be.price.yours:
        lines.append(be.price.describe())
    if be.rate_note:
        lines.append(be.rate_note)
    lines.append(T("Renting: {n} × {price:.2f} {currency} per GPU-hour for the same hours of use (the load "
                   "hours a day); owning: the purchase, then the energy under load and idle.",
                   price=be.rent_per_gpu_hour, currency=be.currency, n=be.n_gpus))
    return tuple(lines)


# --------------------------------------------------------------------------- the plots

_STATE_LABELS = tuple(state_name(s) for s in STATES)


def _power(rep: power_model.PowerReport, circuit_w: float, before: Optional[PowerPlot],
           shares: Optional[tuple[kinds.Kind, ...]] = None) -> PowerPlot:
    bars = []
    base = [0.0] * len(STATES)
    for k in shares or SHARES:
        h = tuple(rep.share(k.name, s) for s in STATES)
        bars.append(Bars(k.name, T(k.label), h, tuple(base)))
        base = [b + x for b, x in zip(base, h)]
    wall = tuple(rep.wall[s] for s in STATES)
    rating = rep.psu_rating_w
    top = max(max(wall), max(base), rating, 1.0)
    off_scale = circuit_w > OFF_SCALE * top
    if not off_scale:
        top = max(top, circuit_w)
    lines = (RefLine("rating", rating, rating > 0,
                     T("PSU {watts:.0f} W", watts=rating) if rating else T("PSU: none chosen")),
             RefLine("rating80", RATING_SHARE * rating, rating > 0,
                     T("{share:.0%}: {watts:.0f} W", share=RATING_SHARE, watts=RATING_SHARE * rating) if rating
                     else T("{share:.0%}: -", share=RATING_SHARE)),
             RefLine("circuit", circuit_w, not off_scale, T("circuit {watts:.0f} W", watts=circuit_w)))
    title = (T("Power: bars DC, ◆ at the wall (circuit limit {watts:.0f} W: above the scale)", watts=circuit_w)
             if off_scale else T("Power: bars DC, ◆ at the wall"))
    return PowerPlot(_STATE_LABELS, tuple(bars), wall, lines,
                     sticky_top(before.y_top if before else None, top * 1.08), title)


def readout(rep: power_model.PowerReport, s: str, table: Optional[tuple[kinds.Kind, ...]] = None) -> Readout:
    """What hovering over the bars of state ``s`` reads (made when asked: a hover, not an edit)."""
    head = T("{state}: {dc:.0f} W DC, {wall:.0f} W at the wall", state=state_name(s), dc=rep.dc[s], wall=rep.wall[s])
    shares = tuple(T("{kind}: {watts:.0f} W", kind=T(k.label), watts=w) for k in table or SHARES
                   if (w := rep.share(k.name, s)))
    tail = []
    if rep.psu_rating_w:
        tail.append(T("PSU load {load:.0%}, efficiency {efficiency:.1%} (model)", load=rep.load_fraction(s),
                      efficiency=rep.efficiency[s]) if rep.efficiency_estimated[s]
                    else T("PSU load {load:.0%}, efficiency {efficiency:.1%}", load=rep.load_fraction(s),
                           efficiency=rep.efficiency[s]))
    if s == "peak" and rep.gpu_transient_w:
        tail.append(T("GPU spikes: about {watts:.0f} W (ms, estimate)", watts=rep.dc["peak"] + rep.gpu_transient_w))
    if s != "idle":  # a figure the user's measured logs changed says so (docs/telemetry.md)
        notes = dict.fromkeys(c.calibration.note() for c in rep.components if c.calibration is not None)
        tail += [T("GPU draw {note}", note=n) for n in notes]
    return Readout(head, shares, tuple(tail))


@lru_cache(maxsize=64)
def efficiency_pieces(level: str, table: str, x_top: float) -> tuple[CurvePiece, ...]:
    """The efficiency curve of ``level`` over 0..``x_top`` (a fraction of the rating) in pieces,
    in %: each run of points the model certifies or extrapolates (``models.power.efficiency``), an
    extrapolated piece joined to its certified neighbour by their common end point."""
    xs = [x_top * i / (CURVE_POINTS - 1) for i in range(CURVE_POINTS)]
    curve = power_model.efficiency_curve(level, table, xs)
    runs: list[list[int]] = []
    for i, (_x, _y, extra) in enumerate(curve):
        if runs and curve[runs[-1][0]][2] == extra:
            runs[-1].append(i)
        else:
            runs.append([i])
    pieces = []
    for j, run in enumerate(runs):
        extra = curve[run[0]][2]
        idx = list(run)
        if extra:  # shares its end points with the certified pieces beside it
            if j > 0:
                idx.insert(0, run[0] - 1)
            if j < len(runs) - 1:
                idx.append(run[-1] + 1)
        pieces.append(CurvePiece(tuple(100 * curve[i][0] for i in idx), tuple(100 * curve[i][1] for i in idx), extra))
    return tuple(pieces)


def _efficiency(ctx: Resolved, rep: power_model.PowerReport, table: str,
                before: Optional[EfficiencyPlot]) -> EfficiencyPlot:
    level = ctx.psus[0].efficiency if ctx.psus else None
    fr = {s: rep.load_fraction(s) for s in STATES}
    names = T.join(*interleave([T("{watts:g} W {level}", watts=p.wattage, level=p.efficiency) for p in ctx.psus],
                               " + "))
    title = (T("Efficiency: {psus}, {table}", psus=names, table=table.replace("V", " V")) if ctx.psus
             else T("PSU efficiency: no PSU chosen"))
    if level is None:
        return EfficiencyPlot(None, table, (), (), (), (0.0, 110.0), EFFICIENCY_Y, title)
    # In steps of 10% of the rating, so a small change of load leaves the axis as it was.
    prev = before.x_range[1] / 100 if before is not None and before.level is not None else None
    x_top = sticky_top(prev, max(1.1, fr["peak"] * 1.08))
    pts = power_model.EFFICIENCY_POINTS[table].get(level, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
    points = tuple(OperatingPoint(s, 100 * fr[s], 100 * rep.efficiency[s],
                                  T("{state} {load:.0%}", state=state_name(s), load=fr[s])) for s in STATES)
    return EfficiencyPlot(level, table, efficiency_pieces(level, table, x_top),
                          tuple((100 * x, 100 * y) for x, y in pts), points, (0.0, 100 * x_top), EFFICIENCY_Y, title)


def _cost(cr: cost_model.CostReport, be: Optional[renting.BreakEven], missing: str, settings: Settings,
          before: Optional[CostPlot]) -> CostPlot:
    months = int(round(cr.years * 12))
    total = cr.purchase.total
    xs, ys = cost_model.cumulative(total, cr.running.cost_per_month, months)
    xs_t = tuple(xs)
    own = Series("build", xs_t, tuple(ys), T("this build"))
    by_key = {sc.key: sc for sc in cr.scenarios}
    scenarios = tuple(Series(k, xs_t, tuple(cost_model.cumulative(total, by_key[k].running.cost_per_month, months)[1]),
                             T.verbatim(by_key[k].label) if not isinstance(by_key[k].label, T) else by_key[k].label)
                      for k in SCENARIO_KEYS if k in by_key)
    rent, mark, verdict = None, None, NOTHING
    if be is not None:
        h, d = settings.load_hours_per_day, settings.days_per_month
        rxs, rys = be.rent_by_month(months, h, d)
        rent = Series("rent", tuple(rxs), tuple(rys), rent_legend(be))
        at, verdict = rent_verdict(be, months, h, d, cr.purchase.complete)
        if at is not None:
            mark = (at, be.own_cost(at * h * d))
    top = max([own.ys[-1]] + [s.ys[-1] for s in scenarios])
    if rent is not None:
        # renting's line in full unless it would squash owning's to the bottom: then it leaves the top
        top = max(top, min(rent.ys[-1], 2 * top))
    y_top = sticky_top(before.y_top if before else None, top * (1.25 if verdict else 1.05))  # room for the verdict
    buy = cr.purchase
    title = (T("{years:g} years: purchase + energy", years=cr.years) if buy.complete else
             T("{years:g} years: priced parts + energy ({n} unpriced)", years=cr.years, n=len(buy.missing))
             if buy.total else T("{years:g} years: energy only (no part priced)", years=cr.years))
    return CostPlot(own, scenarios, rent, mark, verdict, rent_notes(be, missing),
                    T("Cumulative cost ({currency})", currency=cr.running.currency),
                    (0.0, float(max(1, months))), y_top, title)


@lru_cache(maxsize=256)
def limit_slider(num: int, name: str, board_w: float, limit_w: Optional[float]) -> LimitSlider:
    """The power-limit slider of GPU ``num`` (1-based) of ``board_w`` limited to ``limit_w``
    (None: no limit, the slider's right end); its left end is the floor ``domain.fields`` declares."""
    value = int(round(limit_w if limit_w else board_w))
    return LimitSlider(num - 1, num, name, board_w, F.power_limit_floor_w(board_w), int(board_w), value,
                       limit_label(num, value, board_w),
                       (T("GPU {num}: {name}", num=num, name=name),
                        T("Power limit (nvidia-smi -i {index} -pl W); right end = no limit ({board_w:g} W board power)",
                          index=num - 1, board_w=board_w)))


def _controls(ctx: Resolved) -> Controls:
    s = ctx.build.settings
    known = list(ctx.index.prices.rates.currencies())
    day = F.HOURS_A_DAY  # load plus idle hours fill at most a day
    limits = [limit_slider(g.num, g.gpu.name, g.gpu.board_power_w, g.placement.power_limit_w) for g in ctx.gpus]
    return Controls(s.region, s.price_per_kwh, s.currency, tuple(known + ([s.currency] if s.currency not in known else [])),
                    s.load_hours_per_day, s.idle_hours_per_day, day - min(day, s.idle_hours_per_day),
                    day - min(day, s.load_hours_per_day), s.budget, s.rent_per_gpu_hour, tuple(limits))


def _figures(rep: power_model.PowerReport, cr: Optional[cost_model.CostReport], cost_error: str,
             be: Optional[renting.BreakEven], missing: str, settings: Settings) -> tuple[T, ...]:
    w = rep.wall
    lines = [T("At the wall: {idle:.0f} W idle · {training:.0f} W training · {peak:.0f} W peak",
               idle=w["idle"], training=w["training"], peak=w["peak"])]
    if rep.psu_rating_w:
        lines.append(T("PSU {watts:.0f} W: {load:.0%} loaded at peak, {efficiency:.1%} efficient in training",
                       watts=rep.psu_rating_w, load=rep.load_fraction("peak"), efficiency=rep.efficiency["training"]))
    if cr is None:
        lines.append(T.verbatim("⚠ ") + T("Cost not computed: {error}", error=cost_error))
        return tuple(lines)
    lines += cost_model.money_lines(cr.purchase, cr.running, cr.years, cr.energy_source)
    if be is not None and be.purchase <= 0:
        lines.append(T("Against renting: {why}", why=T("buying against renting: unknown until the parts have prices")))
    elif be is not None:
        verdict = be.summary(settings.load_hours_per_day, settings.days_per_month)
        lines.append(T("Against renting: {verdict}", verdict=verdict) if cr.purchase.complete else
                     T("Against renting, at least (unpriced parts not counted): {verdict}", verdict=verdict))
        lines.append(T.verbatim("  ") + T("rent {price:.2f} {currency} per GPU-hour, {source}", price=be.rent_per_gpu_hour,
                                 currency=be.currency, source=rent_source(be.price)))
    elif missing:
        lines.append(T("Against renting: {why}", why=missing))
    return tuple(lines)


def noise_line(rep: "noise_model.NoiseReport") -> Optional[T]:
    """The build's level at idle, training and peak at 1 m, the band and the loudest source (None:
    no fan counted)."""
    t = rep.total
    if t["training"].db is None:
        return None
    idle = T("silent") if t["idle"].db is None else T.verbatim(f"{t['idle'].db:.0f}")
    loud = rep.loudest("training")
    return T("Noise at 1 m: {idle} idle · {training:.0f} training · {peak:.0f} peak dB(A) (± {band:.0f}); "
             "loudest: {source}", idle=idle, training=t["training"].db, peak=t["peak"].db, band=t["training"].band,
             source=loud.label if loud else "")


def _rent(ctx: Resolved, cr: cost_model.CostReport) -> tuple[Optional[renting.BreakEven], T]:
    """Owning against renting the build's GPUs (``models.renting.for_usage``, as the comparison)."""
    gpus = [g.gpu for g in ctx.gpus]
    shipped, error = renting.shipped_cloud_prices()
    be, why = renting.for_usage(gpus, cr.purchase.total, cr.running, typed=renting.typed_price(ctx.build.settings),
                                shipped=shipped, rates=ctx.index.prices.rates)
    missing = why if isinstance(why, T) else T.verbatim(why or "")
    if be is None and error and gpus:
        missing = missing + " (" + error + ")"
    return be, missing


def describe(ctx: Resolved, years: float = 3.0, before: Optional[PanelDescription] = None) -> PanelDescription:
    """What the power and cost panel shows for the resolved build ``ctx`` over a cost horizon of
    ``years``; ``before``: the description shown until now (its axes stay where they were when
    the data still fits them)."""
    build = ctx.build
    rep = ctx.power
    s = build.settings
    try:
        cr: Optional[cost_model.CostReport] = cost_model.cost_report(rep, build, ctx.index, s, float(years))
        cost_error = ""
    except ValueError as e:
        cr, cost_error = None, e.args[0] if e.args else str(e)
    be, missing = _rent(ctx, cr) if cr is not None else (None, NOTHING)
    empty = not build.part_ids()
    figures = (T(EMPTY_FIGURES),) if empty else _figures(rep, cr, cost_error, be, missing, s)
    heard = None if empty else noise_line(ctx.noise)
    if heard is not None:  # under the wall and PSU lines
        at = 2 if rep.psu_rating_w else 1
        figures = figures[:at] + (heard,) + figures[at:]
    return PanelDescription(
        power=_power(rep, s.circuit_w(), before.power if before else None),
        efficiency=_efficiency(ctx, rep, s.region_info().efficiency_table, before.efficiency if before else None),
        cost=_cost(cr, be, missing, s, before.cost if before else None) if cr is not None else None,
        controls=_controls(ctx), figures=figures, empty=empty, years=float(years),
        report=rep, costs=cr, break_even=be, rent_missing=missing)
