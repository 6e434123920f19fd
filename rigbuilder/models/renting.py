"""Buy or rent: the hours of use at which owning a build costs less than renting the same number of
GPUs of the same class in a cloud, energy included.

Owning costs the purchase on day one plus the build's energy for every hour of use (wall draw
under training load x price per kWh) and, where the usage has idle hours, the idle energy that
comes with each hour of use (idle wall draw x idle hours / load hours x price per kWh): the
running cost of ``models.cost`` spread over the hours of use. Renting costs ``n_gpus x price per
GPU-hour`` for the hours of use and nothing else (storage, egress and the rest of a cloud bill are
left out, which favours renting). So owning wins after ``purchase / (n x rent per hour - owning's
energy per hour of use)`` hours; when the rent per hour does not exceed that energy, owning never
catches up. Over months, an hour of use is ``load hours a day x days a month`` of them a month, as
the cost graph counts them (``for_usage``, ``months_at``, ``rent_by_month``).

Example prices are published on-demand rates (``resources/money/cloud-prices.json``), each with its
provider, month and publication; like every price they are stale after six months. A price the user
types wins over them.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from rigbuilder.domain.i18n import T
from rigbuilder.domain.pricenotes import quoted

if TYPE_CHECKING:
    from rigbuilder.domain.build import Settings
    from rigbuilder.domain.parts import GPU
    from rigbuilder.models.cost import RunningCost

TIERS = {"on-demand": T("on-demand"), "on-demand (lowest listed)": T("on-demand (lowest listed)"),
         "spot": T("spot (interruptible)")}
"""The rental tiers the shipped prices name, as translatable texts."""

STALE_MONTHS = 6
"""A published price older than this many months is marked stale wherever it is shown."""

DAYS_PER_MONTH = 30.4
"""Days in an average month, where a usage gives no days a month of its own."""


@dataclass(frozen=True)
class CloudPrice:
    """One published (or typed) rental price for one GPU for one hour."""

    chip_model: str  # as the catalog's GPU rows name the chip ("GeForce RTX 4090")
    amount: float  # per GPU per hour
    currency: str
    provider: str = ""
    tier: str = ""
    observed: str = ""  # "YYYY-MM" or "YYYY-MM-DD"
    source: str = ""
    yours: bool = False

    def age_months(self, today: Optional[date] = None) -> Optional[int]:
        return months_between(self.observed, today or date.today())

    def stale(self, today: Optional[date] = None) -> bool:
        age = self.age_months(today)
        return age is not None and age > STALE_MONTHS

    def describe(self, today: Optional[date] = None) -> str:
        """'RunPod, on-demand, 2026-03 (8 months old, stale): <publication>'."""
        if self.yours:
            return T("your price")
        age = self.age_months(today)
        when = self.observed
        if age is not None:
            when = (T("{observed} ({age} months old, stale)", observed=self.observed, age=age) if self.stale(today)
                    else T("{observed} ({age} months old)", observed=self.observed, age=age))
        return T("{provider}, {tier}, {when}: {source}", provider=self.provider,
                 tier=TIERS.get(self.tier, T.verbatim(self.tier)), when=when, source=quoted(self.source))


def months_between(observed: str, today: date) -> Optional[int]:
    """Whole months from an ISO ``YYYY-MM`` or ``YYYY-MM-DD`` day to ``today``; None if unreadable."""
    try:
        parts = [int(p) for p in observed.split("-")[:3]]
        y, m = parts[0], parts[1]
        d = parts[2] if len(parts) > 2 else 1
    except (ValueError, IndexError):
        return None
    months = (today.year - y) * 12 + (today.month - m)
    if today.day < d:
        months -= 1
    return max(0, months)


def load_cloud_prices(path: Optional[Path] = None) -> list[CloudPrice]:
    """The shipped example prices. A broken file is a ValueError naming the file and the row."""
    if path is None:
        from rigbuilder.catalog.loader import resources_dir

        path = resources_dir() / "money" / "cloud-prices.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(T("{path}: cannot read ({error})", path=str(path), error=str(e))) from None
    out = []
    for i, row in enumerate(data.get("prices", []) if isinstance(data, dict) else []):
        try:
            amount = float(row["usd_per_gpu_hour"])
            if not math.isfinite(amount) or amount <= 0:
                raise ValueError(T("price must be more than 0"))
            out.append(CloudPrice(str(row["chip_model"]), amount, "USD", str(row.get("provider", "")),
                                  str(row.get("tier", "")), str(row["observed"]), str(row["source"])))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(T("{path}: prices[{i}]: {error}", path=str(path), i=i,
                               error=e.args[0] if isinstance(e, ValueError) and e.args else str(e))) from None
    return out


@lru_cache(maxsize=1)
def shipped_cloud_prices() -> tuple[tuple[CloudPrice, ...], str]:
    """The shipped example prices, read once per process, and ""; a broken file: none, and why
    (a translatable text), so that a window can say why it draws no rent line."""
    try:
        return tuple(load_cloud_prices()), ""
    except ValueError as e:
        return (), e.args[0]


def prices_for(chip_model: str, prices: Sequence[CloudPrice]) -> list[CloudPrice]:
    """The example prices for one chip, cheapest first."""
    return sorted((p for p in prices if p.chip_model == chip_model), key=lambda p: p.amount)


@dataclass(frozen=True)
class BreakEven:
    """Owning against renting ``n_gpus`` cards at ``rent_per_gpu_hour``, all in ``currency``."""

    n_gpus: int
    rent_per_gpu_hour: float
    energy_per_hour: float  # the build's energy for one hour under training load
    purchase: float
    currency: str
    price: Optional[CloudPrice]  # the rental price used (None: typed with no provenance)
    rate_note: str = ""  # how the rental price was converted
    idle_energy_per_hour: float = 0.0  # the idle energy owning pays per hour of use (renting pays none)

    @property
    def rent_per_hour(self) -> float:
        return self.n_gpus * self.rent_per_gpu_hour

    @property
    def own_per_hour(self) -> float:
        """What owning costs per hour of use after the purchase: energy under load plus the idle
        energy that comes with it."""
        return self.energy_per_hour + self.idle_energy_per_hour

    @property
    def hours(self) -> Optional[float]:
        """Hours of use after which owning costs less; None: never (renting is cheaper per hour than
        the energy alone)."""
        gain = self.rent_per_hour - self.own_per_hour
        if gain <= 0:
            return None
        return self.purchase / gain

    def days_at(self, hours_per_day: float) -> Optional[float]:
        h = self.hours
        if h is None or hours_per_day <= 0:
            return None
        return h / hours_per_day

    def months_at(self, hours_per_day: float, days_per_month: float = DAYS_PER_MONTH) -> Optional[float]:
        """Months of use, at ``hours_per_day`` hours of use a day and ``days_per_month`` days a month,
        after which owning costs less (None: never, or no use at all)."""
        days = self.days_at(hours_per_day)
        return None if days is None or days_per_month <= 0 else days / days_per_month

    def own_cost(self, hours: float) -> float:
        return self.purchase + hours * self.own_per_hour

    def rent_cost(self, hours: float) -> float:
        return hours * self.rent_per_hour

    def rent_by_month(self, months: int, hours_per_day: float,
                      days_per_month: float = DAYS_PER_MONTH) -> tuple[list[float], list[float]]:
        """(months 0..months, cumulative rent): renting the same GPUs for the same hours of use,
        month by month (nothing paid up front), as ``models.cost.cumulative`` counts owning."""
        from rigbuilder.models.cost import cumulative

        return cumulative(0.0, self.rent_cost(max(0.0, hours_per_day) * days_per_month), months)

    def summary(self, hours_per_day: float, days_per_month: float = DAYS_PER_MONTH) -> str:
        h = self.hours
        if h is None:
            return T("renting {n} GPUs costs {rent:.2f} {cur} an hour, less than the build's energy "
                     "({energy:.2f} {cur}): owning never catches up", n=self.n_gpus, rent=self.rent_per_hour,
                     cur=self.currency, energy=self.own_per_hour)
        months = self.months_at(hours_per_day, days_per_month)
        if months is None:
            return T("owning beats renting after {hours:,.0f} hours of use", hours=h)
        return T("owning beats renting after {hours:,.0f} hours of use (about {months:.1f} months at "
                 "{per_day:g} h a day)", hours=h, months=months, per_day=hours_per_day)

    def to_dict(self) -> dict:
        p = self.price
        return {"n_gpus": self.n_gpus, "rent_per_gpu_hour": round(self.rent_per_gpu_hour, 4),
                "rent_per_hour": round(self.rent_per_hour, 4), "energy_per_hour": round(self.energy_per_hour, 4),
                "idle_energy_per_hour": round(self.idle_energy_per_hour, 4),
                "purchase": round(self.purchase, 2), "currency": self.currency,
                "break_even_hours": None if self.hours is None else round(self.hours, 1),
                "price": None if p is None else {
                    "chip_model": p.chip_model, "amount": p.amount, "currency": p.currency, "provider": p.provider,
                    "tier": p.tier, "observed": p.observed, "stale": p.stale(), "age_months": p.age_months(),
                    "source": p.source, "yours": p.yours},
                "rate_note": self.rate_note}


def break_even(purchase: float, currency: str, n_gpus: int, wall_training_w: float, price_per_kwh: float,
               price: CloudPrice, rates=None, *, idle_wall_w: float = 0.0,
               idle_hours_per_hour_of_use: float = 0.0) -> BreakEven:
    """Owning a build bought for ``purchase`` (in ``currency``) against renting ``n_gpus`` GPUs at
    ``price``, converted with ``rates`` (an ``ExchangeRates``) when its currency differs. Owning
    also pays ``idle_wall_w`` for ``idle_hours_per_hour_of_use`` hours with each hour of use."""
    amount, note = price.amount, ""
    if price.currency != currency:
        if rates is None:
            raise ValueError(T("no exchange rate from {frm} to {to}", frm=price.currency, to=currency))
        amount = rates.convert(price.amount, price.currency, currency)
        note = T("rent converted at {rate:.4f} {to} per {frm} ({when})", rate=rates.rate(price.currency, currency),
                 to=currency, frm=price.currency, when=rates.date)
    energy = wall_training_w / 1000.0 * price_per_kwh
    idle = idle_wall_w / 1000.0 * idle_hours_per_hour_of_use * price_per_kwh
    return BreakEven(n_gpus, amount, energy, purchase, currency, price, note, idle)


def typed_price(settings: "Settings") -> Optional[CloudPrice]:
    """The build's own price per GPU-hour (``Settings.rent_per_gpu_hour``, in its currency), if set."""
    amount = settings.rent_per_gpu_hour
    return None if amount is None or amount <= 0 else CloudPrice("", amount, settings.currency, yours=True)


def choose_price(gpus: Sequence["GPU"], typed: Optional[CloudPrice],
                 shipped: Sequence[CloudPrice]) -> tuple[Optional[CloudPrice], str]:
    """The rental price to compare ``gpus`` with: the one typed, else the cheapest published
    example for their chip; (None, why) when there is none (no GPU, mixed cards, no example)."""
    if typed is not None:
        return typed, ""
    if not gpus:
        return None, T("the build has no GPU")
    chips = {g.chip_model for g in gpus}
    if len(chips) != 1:
        return None, T("mixed cards: type a price per GPU-hour to compare with renting")
    chip = next(iter(chips))
    found = prices_for(chip, shipped)
    if not found:
        return None, T("no published rental price for {chip}: type one to compare with renting", chip=chip)
    return found[0], ""


def for_usage(gpus: Sequence["GPU"], purchase: float, running: "RunningCost", *, typed: Optional[CloudPrice] = None,
              shipped: Sequence[CloudPrice] = (), rates=None) -> tuple[Optional[BreakEven], str]:
    """A build's cards against renting them at its usage: ``purchase`` in ``running``'s currency,
    owning's energy per hour of use from ``running`` (``models.cost.running_cost``: training draw,
    and the idle hours that come with the load hours). (None, why) when no price fits or the
    rental price cannot be converted. The comparison and the window's cost graph both use it."""
    price, why = choose_price(gpus, typed, shipped)
    if price is None:
        return None, why
    per_use = running.idle_hours_per_day / running.load_hours_per_day if running.load_hours_per_day > 0 else 0.0
    try:
        be = break_even(purchase, running.currency, len(gpus), running.wall_training_w, running.price_per_kwh,
                        price, rates, idle_wall_w=running.wall_idle_w, idle_hours_per_hour_of_use=per_use)
    except (ValueError, KeyError) as e:
        return None, T("cannot compare with renting: {error}", error=e.args[0] if e.args else str(e))
    return be, ""
