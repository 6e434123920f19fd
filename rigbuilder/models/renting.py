"""Buy or rent: the hours of use at which owning a build costs less than renting the same number of
GPUs of the same class in a cloud, energy included.

Owning costs the purchase on day one plus the build's energy for every hour it runs (wall draw
under training load x price per kWh). Renting costs ``n_gpus x price per GPU-hour`` for the same
hours and nothing else (storage, egress and the rest of a cloud bill are left out, which favours
renting). So owning wins after ``purchase / (n x rent per hour - energy per hour)`` hours; when the
rent per hour does not exceed the energy per hour, owning never catches up.

Example prices are published on-demand rates (``resources/money/cloud-prices.json``), each with its
provider, month and publication; like every price they are stale after six months. A price the user
types wins over them.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Optional, Sequence

from rigbuilder.domain.i18n import T

TIERS = {"on-demand": T("on-demand"), "on-demand (lowest listed)": T("on-demand (lowest listed)"),
         "spot": T("spot (interruptible)")}
"""The rental tiers the shipped prices name, as translatable texts."""

STALE_MONTHS = 6
"""A published price older than this many months is marked stale wherever it is shown."""


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
                 tier=TIERS.get(self.tier, T.verbatim(self.tier)), when=when, source=self.source)


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

    @property
    def rent_per_hour(self) -> float:
        return self.n_gpus * self.rent_per_gpu_hour

    @property
    def hours(self) -> Optional[float]:
        """Hours of use after which owning costs less; None: never (renting is cheaper per hour than
        the energy alone)."""
        gain = self.rent_per_hour - self.energy_per_hour
        if gain <= 0:
            return None
        return self.purchase / gain

    def days_at(self, hours_per_day: float) -> Optional[float]:
        h = self.hours
        if h is None or hours_per_day <= 0:
            return None
        return h / hours_per_day

    def own_cost(self, hours: float) -> float:
        return self.purchase + hours * self.energy_per_hour

    def rent_cost(self, hours: float) -> float:
        return hours * self.rent_per_hour

    def summary(self, hours_per_day: float) -> str:
        h = self.hours
        if h is None:
            return T("renting {n} GPUs costs {rent:.2f} {cur} an hour, less than the build's energy "
                     "({energy:.2f} {cur}): owning never catches up", n=self.n_gpus, rent=self.rent_per_hour,
                     cur=self.currency, energy=self.energy_per_hour)
        days = self.days_at(hours_per_day)
        if days is None:
            return T("owning beats renting after {hours:,.0f} hours of use", hours=h)
        return T("owning beats renting after {hours:,.0f} hours of use (about {months:.1f} months at "
                 "{per_day:g} h a day)", hours=h, months=days / 30.4, per_day=hours_per_day)

    def to_dict(self) -> dict:
        p = self.price
        return {"n_gpus": self.n_gpus, "rent_per_gpu_hour": round(self.rent_per_gpu_hour, 4),
                "rent_per_hour": round(self.rent_per_hour, 4), "energy_per_hour": round(self.energy_per_hour, 4),
                "purchase": round(self.purchase, 2), "currency": self.currency,
                "break_even_hours": None if self.hours is None else round(self.hours, 1),
                "price": None if p is None else {
                    "chip_model": p.chip_model, "amount": p.amount, "currency": p.currency, "provider": p.provider,
                    "tier": p.tier, "observed": p.observed, "stale": p.stale(), "age_months": p.age_months(),
                    "source": p.source, "yours": p.yours},
                "rate_note": self.rate_note}


def break_even(purchase: float, currency: str, n_gpus: int, wall_training_w: float, price_per_kwh: float,
               price: CloudPrice, rates=None) -> BreakEven:
    """Owning a build bought for ``purchase`` (in ``currency``) against renting ``n_gpus`` GPUs at
    ``price``, converted with ``rates`` (an ``ExchangeRates``) when its currency differs."""
    amount, note = price.amount, ""
    if price.currency != currency:
        if rates is None:
            raise ValueError(T("no exchange rate from {frm} to {to}", frm=price.currency, to=currency))
        amount = rates.convert(price.amount, price.currency, currency)
        note = T("rent converted at {rate:.4f} {to} per {frm} ({when})", rate=rates.rate(price.currency, currency),
                 to=currency, frm=price.currency, when=rates.date)
    energy = wall_training_w / 1000.0 * price_per_kwh
    return BreakEven(n_gpus, amount, energy, purchase, currency, price, note)
