"""Running cost and total cost of ownership: energy at the wall times the price of a kWh.

Formulas (docs/models.md, Running cost):

- energy per day (kWh) = (wall W under training x load hours + wall W at idle x idle hours) / 1000
- per month = per day x ``days_per_month`` (a setting, 30 by default); per year = per day x 365
- cost = energy x price per kWh
- total cost of ownership over N years = purchase price + N x cost per year
- cumulative cost after m months = purchase price + m x cost per month (the graph's series)

Hours the machine is off cost nothing (standby draw is not modelled). The purchase prices every
part with ``rigbuilder.models.prices.price_part`` in the cost currency, converting at the price
book's exchange rates and stating each conversion; parts without a price (or in a currency the
rates do not know) are named and the total is "at least" that sum, never a silent zero.
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field, replace
from typing import Optional, Sequence

from rigbuilder.domain import fields as F
from rigbuilder.domain import kinds
from rigbuilder.domain.build import Build, Settings, without_text
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import Money, T, nT
from rigbuilder.domain.money import STALE_MONTHS, ExchangeRates, PriceObservation
from rigbuilder.models.prices import PartPrice, bundle_applies, price_part
from rigbuilder.models.prices import convert as price_convert
from rigbuilder.models import power as power_model

DAYS_PER_YEAR = 365.0
HOURS_PER_DAY = F.HOURS_A_DAY


def kwh(watts: float, hours: float) -> float:
    """Energy in kWh of ``watts`` drawn for ``hours``."""
    return watts * hours / 1000.0


def check_usage(load_hours_per_day: float, idle_hours_per_day: float, price_per_kwh: float,
                days_per_month: float = F.DAYS_PER_MONTH.default) -> None:
    """Raise ValueError naming the bad figure (the CLI turns it into exit 2): the ranges of
    ``domain.fields``, and load plus idle hours within a day."""
    for f, v in ((F.LOAD_HOURS, load_hours_per_day), (F.IDLE_HOURS, idle_hours_per_day),
                 (F.PRICE_PER_KWH, price_per_kwh), (F.DAYS_PER_MONTH, days_per_month)):
        why = f.problem(v)
        if why is not None:
            raise ValueError(T.join(T(f.title), ": ", why))
    usage = F.usage_problem(load_hours_per_day, idle_hours_per_day)
    if usage is not None:
        raise ValueError(usage)


@dataclass(frozen=True)
class RunningCost:
    wall_training_w: float
    wall_idle_w: float
    load_hours_per_day: float
    idle_hours_per_day: float
    days_per_month: float
    price_per_kwh: float
    currency: str
    kwh_per_day: float
    kwh_per_month: float
    kwh_per_year: float
    cost_per_day: float
    cost_per_month: float
    cost_per_year: float

    def to_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def running_cost(rep: power_model.PowerReport, settings: Settings) -> RunningCost:
    s = settings
    check_usage(s.load_hours_per_day, s.idle_hours_per_day, s.price_per_kwh, s.days_per_month)
    return _running(rep, s)


def _running(rep: power_model.PowerReport, s: Settings) -> RunningCost:
    """``running_cost`` of settings already checked (a scenario's price is a what-if of a checked
    one: 1.5 times the highest price a build may hold is still a figure, never an error)."""
    day = kwh(rep.wall["training"], s.load_hours_per_day) + kwh(rep.wall["idle"], s.idle_hours_per_day)
    month = day * s.days_per_month
    year = day * DAYS_PER_YEAR
    p = s.price_per_kwh
    return RunningCost(rep.wall["training"], rep.wall["idle"], s.load_hours_per_day, s.idle_hours_per_day,
                       s.days_per_month, p, s.currency, day, month, year, day * p, month * p, year * p)


@dataclass(frozen=True)
class PricedPart:
    part_id: str
    name: str
    quantity: int
    price: Optional[float]  # one unit, in the purchase currency (converted); None = unpriced
    currency: Optional[str]  # the purchase currency when priced
    priced: Optional[PartPrice] = None  # which observation, how converted
    bundle: str = ""  # priced as part of a bundle with these parts (the amount sits on the first)

    @property
    def subtotal(self) -> Optional[float]:
        return None if self.price is None else self.price * self.quantity


@dataclass(frozen=True)
class Purchase:
    currency: str
    total: float  # sum of the priced parts, converted to ``currency``
    parts: tuple[PricedPart, ...]
    unpriced: tuple[str, ...]  # part ids without a usable price (named, not in the total)
    other_currency: tuple[str, ...]  # part ids priced in a currency the rates cannot convert
    by_currency: dict[str, float] = field(default_factory=dict)  # amounts as observed, per currency
    conversions: tuple[str, ...] = ()  # "converted at 0.9523 EUR per USD, rates of 2025-02-25", each once
    budget: Optional[float] = None
    upper_bound: bool = False  # a price is "under" its amount (the total is then at most this)
    without: tuple[str, ...] = ()  # essential roles the build has no part for (Build.missing_roles)

    @property
    def complete(self) -> bool:
        return not self.unpriced and not self.other_currency

    @property
    def missing(self) -> tuple[str, ...]:
        """Every part id left out of the total."""
        return self.unpriced + tuple(x for x in self.other_currency if x not in self.unpriced)

    def missing_names(self) -> list[str]:
        names = {p.part_id: p.name for p in self.parts}
        return [names.get(x, x) for x in self.missing]

    @property
    def over_budget(self) -> Optional[float]:
        """By how much the known total exceeds the budget (None: no budget or not over)."""
        if self.budget is None or self.total <= self.budget + 1e-9:
            return None
        return self.total - self.budget

    def biggest(self, n: int = 3) -> list[PricedPart]:
        return sorted((p for p in self.parts if p.subtotal), key=lambda p: -(p.subtotal or 0))[:n]

    @property
    def observations(self) -> list[PriceObservation]:
        """The price observation behind each priced part (its date tells how old the total is)."""
        return [p.priced.observation for p in self.parts if p.priced is not None]

    def stale(self, today: Optional[str] = None) -> int:
        """How many of the part prices were seen more than six months before ``today``."""
        return sum(1 for o in self.observations if o.stale(today))

    def age_line(self, today: Optional[str] = None) -> str:
        """'Price age: street prices of 2025-07, 16 months old, stale (parts: 7); ...' ('' unpriced)."""
        from rigbuilder.domain.money import price_ages

        ages = price_ages(self.observations, today)
        return T("Price age: {ages}.", ages=T.join(*[x for i, a in enumerate(ages) for x in (("; ", a) if i else (a,))])) \
            if ages else ""

    def stale_line(self, today: Optional[str] = None) -> str:
        """The warning an answer resting on stale prices opens with ('' when none is stale)."""
        n = self.stale(today)
        if not n:
            return ""
        return T("Stale prices: {n} of the {total} part prices were seen more than {months} months ago; check "
                 "today's prices before you buy.", n=n, total=len(self.observations), months=STALE_MONTHS)

    def total_label(self) -> str:
        """'1,234.00 EUR', 'at least 1,234.00 EUR (2 parts without a price)' or '1,234.00 EUR without
        memory': what the total contains and what it leaves out."""
        t = Money(self.total, self.currency)
        if self.missing:
            n = len(self.missing)
            label = nT("at least {total} ({n} part without a price)", "at least {total} ({n} parts without a price)", n,
                       total=t)
        else:
            label = T("{total}", total=t)
        return self.with_without(label)

    def with_without(self, label: str) -> str:
        """``label`` (a total) followed by the parts the build lacks: '1,788 EUR without memory'."""
        if not self.without:
            return label
        return T("{total} without {parts}", total=label, parts=without_text(self.without))


def unpriced_names(names: Sequence[str], shown: int = 4) -> str:
    """'2 parts unpriced: ASUS RTX 3090 Turbo, ASRock X99 WS-E' ('' when ``names`` is empty)."""
    n = len(names)
    if not n:
        return ""
    listed: str = ", ".join(names[:shown])
    if n > shown:
        listed = T("{names} and {more} more", names=listed, more=n - shown)
    return nT("{n} part unpriced: {names}", "{n} parts unpriced: {names}", n, names=listed)


def unpriced_text(buy: "Purchase", names: int = 4) -> str:
    """``unpriced_names`` of the parts ``buy`` has no price for."""
    return unpriced_names(buy.missing_names(), names)


def money_lines(buy: "Purchase", running: Optional[RunningCost], years: float, energy_source: str = "") -> list[str]:
    """The money figures of a build, each line saying exactly what it contains: purchase (with
    what it leaves out), budget, energy (and where its price of a kWh comes from, ``energy_source``),
    cost of ownership over ``years`` and the conversions. The window's power and cost panel shows
    these (translatable texts: render them)."""

    cur = buy.currency
    total = Money(buy.total, cur)
    missing = bool(buy.missing)
    unpriced = unpriced_text(buy)
    lines = [buy.stale_line()] if buy.stale() else []  # an answer resting on stale prices says so first
    if missing and len(buy.missing) == len(buy.parts):
        lines += [T("Purchase (parts): unknown ({unpriced})", unpriced=unpriced)]
    elif missing:
        lines += [T("Purchase (parts): at least {total} ({unpriced})", total=total, unpriced=unpriced)]
    else:
        lines += [T("Purchase (parts): {total}", total=total)]
    if buy.without:
        k = len(lines) - 1  # the purchase line (after a stale-price warning, when there is one)
        lines[k] = buy.with_without(lines[k])
    if buy.observations:
        lines.append(buy.age_line())
    if buy.upper_bound:
        lines.append(T("A published price is an upper bound (\"under\" that amount): the purchase is at most this."))
    if buy.budget is not None:
        budget = Money(buy.budget, cur)
        if buy.over_budget is not None:
            over = Money(buy.over_budget, cur)
            lines.append(T("Budget {budget}: purchase over by at least {over}", budget=budget, over=over) if missing
                         else T("Budget {budget}: purchase over by {over}", budget=budget, over=over))
        else:
            left = Money(buy.budget - buy.total, cur)
            lines.append(T("Budget {budget}: purchase within it, at most {left} left (unpriced parts not counted)",
                           budget=budget, left=left) if missing
                         else T("Budget {budget}: purchase within it, {left} left", budget=budget, left=left))
    if running is not None:
        lines.append(T("Energy: {month} a month, {year} a year ({kwh:,.0f} kWh a month at {price:g} {currency}/kWh)",
                       month=Money(running.cost_per_month, cur), year=Money(running.cost_per_year, cur),
                       kwh=running.kwh_per_month, price=running.price_per_kwh, currency=cur))
        if energy_source:
            lines.append(T("Electricity price: {source}", source=energy_source))
        t = Money(buy.total + years * running.cost_per_year, cur)
        if missing:
            lines.append(T("{years:g}-year cost of ownership (purchase + {years:g} years of energy): at least {total} "
                           "(unpriced parts not counted)", years=years, total=t))
        else:
            lines.append(T("{years:g}-year cost of ownership (purchase + {years:g} years of energy): {total}",
                           years=years, total=t))
    for c in buy.conversions:
        lines.append(T("Prices: {conversion}", conversion=c))
    return lines


def quantities(build: Build) -> list[tuple[str, int]]:
    """Each catalog id the build names and how many of it, in a stable order (``domain.kinds``)."""
    return kinds.quantities(build)


def _bundles(build: Build, index: PartIndex, counts: dict[str, int], condition: str) -> dict[str, PriceObservation]:
    """Bundle prices that price a pair of parts the build has once each, in the wanted condition, when
    neither has a price paid or a price of the user's own: first part id -> observation."""
    out: dict[str, PriceObservation] = {}
    taken: set[str] = set()
    for pid in counts:
        for o in index.prices.for_part(pid):
            group = (pid, *o.with_parts)
            if (pid in taken or any(counts.get(x) != 1 or x in taken for x in group)
                    or not bundle_applies(o, index, (condition,), build.prices_paid)):
                continue
            out[pid] = o
            taken.update(group)
    return out


def purchase(build: Build, index: PartIndex, currency: Optional[str] = None,
             rates: Optional[ExchangeRates] = None) -> Purchase:
    """Every part priced in ``currency`` (the build's by default): the one purchase every door shows."""
    cur = currency or build.settings.currency
    rates = rates or index.prices.rates
    cond = build.settings.condition
    parts: list[PricedPart] = []
    unpriced: list[str] = []
    other: list[str] = []
    by_cur: dict[str, float] = {}
    notes: list[str] = []
    total = 0.0
    upper = False
    counts = dict(quantities(build))
    bundles = _bundles(build, index, counts, cond)
    in_bundle = {x: pid for pid, o in bundles.items() for x in o.with_parts}
    for pid, n in counts.items():
        p = index.get(pid)
        name = p.name if p is not None else pid
        if pid in in_bundle:
            first = index.get(in_bundle[pid])
            parts.append(PricedPart(pid, name, n, 0.0, cur, None,
                                    T("in the bundle price of {name}", name=first.name if first else in_bundle[pid])))
            continue
        if pid in bundles:
            pp = price_convert(bundles[pid], cur, rates, build.settings.region)
            others = ", ".join((index.get(x).name if index.get(x) else x) for x in bundles[pid].with_parts)
            bundle = T("with {others}", others=others)
        else:
            pp = price_part(pid, cur, index, build=build, condition=cond, rates=rates)
            bundle = ""
        if pp is None:
            unpriced.append(pid)
            parts.append(PricedPart(pid, name, n, None, None))
            continue
        o = pp.observation
        by_cur[o.currency] = by_cur.get(o.currency, 0.0) + o.amount * n
        if pp.amount is None:
            other.append(pid)
            parts.append(PricedPart(pid, name, n, None, None, pp, bundle))
            continue
        upper = upper or o.upper_bound
        if pp.conversion and pp.conversion not in notes:
            notes.append(pp.conversion)
        total += pp.amount * n
        parts.append(PricedPart(pid, name, n, pp.amount, cur, pp, bundle))
    budget = build.settings.budget
    if budget is not None and cur != build.settings.currency:
        try:
            budget = rates.convert(budget, build.settings.currency, cur)
        except ValueError:
            budget = None
    return Purchase(cur, total, tuple(parts), tuple(unpriced), tuple(other), by_cur, tuple(notes), budget, upper,
                    build.missing_roles())


def tco(purchase_total: float, running: RunningCost, years: float) -> float:
    """Total cost of ownership: purchase plus ``years`` of energy."""
    if years < 0:
        raise ValueError(T("years cannot be negative ({years:g})", years=years))
    return purchase_total + years * running.cost_per_year


def cumulative(purchase_total: float, cost_per_month: float, months: int) -> tuple[list[float], list[float]]:
    """(months 0..months, cumulative cost): purchase on day one, then energy month by month."""
    xs = [float(m) for m in range(months + 1)]
    return xs, [purchase_total + m * cost_per_month for m in range(months + 1)]


@dataclass(frozen=True)
class Scenario:
    key: str
    label: str
    report: power_model.PowerReport
    running: RunningCost

    def saving_per_year(self, base: RunningCost) -> float:
        return base.cost_per_year - self.running.cost_per_year


def scenario(key: str, label: str, rep: power_model.PowerReport, settings: Settings, *,
             level: Optional[str] = None, fraction: Optional[float] = None,
             price_per_kwh: Optional[float] = None) -> Scenario:
    """The build with every PSU at another 80 PLUS ``level``, every GPU limited to ``fraction``
    of its board power and/or another price per kWh."""
    check_usage(settings.load_hours_per_day, settings.idle_hours_per_day, settings.price_per_kwh,
                settings.days_per_month)
    r = power_model.recompute(rep, level=level, fraction=fraction) if (level or fraction) else rep
    if price_per_kwh is not None and not (math.isfinite(price_per_kwh) and price_per_kwh >= 0):
        raise ValueError(T("price per kWh: {value} is not a finite number", value=str(price_per_kwh)[:20]))
    s = settings if price_per_kwh is None else replace(settings, price_per_kwh=price_per_kwh)
    return Scenario(key, label, r, _running(r, s))


def standard_scenarios(rep: power_model.PowerReport, settings: Settings, *, limit_fraction: float = 0.8,
                       price_factor: float = 1.5) -> list[Scenario]:
    """What the graph overlays: PSU one 80 PLUS level better (if there is one), every GPU at
    ``limit_fraction`` of board power (if there are GPUs), and the price times ``price_factor``."""
    out = []
    if rep.psus:
        levels = {p.efficiency for p in rep.psus}
        better = power_model.level_step(min(levels, key=power_model.efficiency_levels().index)
                                        if levels <= set(power_model.efficiency_levels()) else "80 PLUS")
        if better:
            out.append(scenario("psu_better", T("PSU {level}", level=better), rep, settings, level=better))
    if any(c.kind == "gpu" and c.board_power_w for c in rep.components):
        cut = round(100 * (1 - limit_fraction)) / 100
        out.append(scenario("power_limit", T("GPUs limited {cut:.0%}", cut=cut), rep, settings, fraction=limit_fraction))
    change = round(100 * (price_factor - 1)) / 100
    label = T("price +{change:.0%}", change=change) if change >= 0 else T("price -{change:.0%}", change=-change)
    out.append(scenario("price", label, rep, settings, price_per_kwh=settings.price_per_kwh * price_factor))
    return out


@dataclass(frozen=True)
class CostReport:
    running: RunningCost
    purchase: Purchase
    years: float
    tco: float
    scenarios: tuple[Scenario, ...]
    energy_source: str = ""  # the region's published price of a kWh with its source and age, or "your price"


def cost_report(rep: power_model.PowerReport, build: Build, index: PartIndex, settings: Optional[Settings] = None,
                years: float = 3.0, scenarios: Optional[Sequence[Scenario]] = None) -> CostReport:
    s = settings or build.settings
    run = running_cost(rep, s)
    buy = purchase(build, index, s.currency)
    scen = tuple(standard_scenarios(rep, s) if scenarios is None else scenarios)
    from rigbuilder.models.prices import energy_source

    return CostReport(run, buy, years, tco(buy.total, run, years), scen, energy_source(s, index.prices.rates))
