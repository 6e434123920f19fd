"""Value of a card for a workload: throughput per unit of money and per watt, and the cost of work.

Prices come from ``rigbuilder.models.prices.price_part`` (new or used, converted with the price book's
exchange rates, each conversion stated); a card without a usable price says so and has no
per-money figure. Energy uses the running-cost model's arithmetic (``rigbuilder.models.cost``):
the card's own draw (board power, or its power limit) x hours under load x the price of a kWh.

cost per unit of work over N years = (price + N x energy per year) / (throughput x seconds under
load in N years). The rest of the machine's draw is in the build's running cost, not here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from rigbuilder.domain.build import Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import GPU
from rigbuilder.models import cost, perf
from rigbuilder.models.prices import PartPrice, price_part
from rigbuilder.models.throughput import Throughput


@dataclass(frozen=True)
class Value:
    part_id: str
    currency: str
    throughput: Throughput
    watts: float  # the card's draw under load (board power, or its limit)
    price: Optional[float]  # one card, in ``currency``; None when unknown
    price_trace: str  # which price and how converted, or why there is none
    per_money: Optional[float]  # throughput per unit of currency (e.g. images/s per EUR)
    per_watt: float
    energy_per_year: float  # currency per year for the card's own draw
    years: float
    cost_per_million: Optional[float]  # currency per million units of work (images, tokens) over ``years``

    @property
    def priced(self) -> bool:
        return self.price is not None

    def to_dict(self) -> dict:
        r = lambda x, n=6: None if x is None else round(x, n)  # noqa: E731
        return {"part_id": self.part_id, "currency": self.currency, "price": r(self.price, 2),
                "price_source": self.price_trace, "per_money": r(self.per_money), "per_watt": r(self.per_watt),
                "watts": r(self.watts, 1), "energy_per_year": r(self.energy_per_year, 2), "years": self.years,
                "cost_per_million": r(self.cost_per_million, 4)}


def cost_per_million(purchase: float, energy_per_year: float, rate: float, load_hours_per_day: float,
                     years: float) -> Optional[float]:
    """Currency per million units of work: (purchase + years x energy per year) / (units/s x seconds
    under load in ``years``) x 10^6; None when no work is done."""
    work = rate * load_hours_per_day * 3600.0 * cost.DAYS_PER_YEAR * years
    if work <= 0:
        return None
    return (purchase + years * energy_per_year) / work * 1e6


def card_price(gpu: GPU, currency: str, index: PartIndex, condition: str = "new",
               region: Optional[str] = None) -> tuple[Optional[float], str]:
    """(price of one card in ``currency`` or None, where it comes from or why it is missing), bought
    in ``region`` (its VAT or consumption tax added, as the optimiser's prices; None: as seen)."""
    pp: Optional[PartPrice] = price_part(gpu.id, currency, index, condition=condition, region=region)
    if pp is None:
        return None, T("no price known")
    if pp.amount is None:
        return None, T("price not converted: {problem}", problem=pp.problem)
    if condition != "used" and pp.observation.condition == "used" and pp.observation.origin != "paid":
        from rigbuilder.models.prices import AVAILABILITY

        # no current new price (a launch price past the end of sale): the used price, said so
        return pp.amount, T.join(T(AVAILABILITY["used only"]), ": ", pp.trace())
    return pp.amount, pp.trace()


def value(gpu: GPU, t: Throughput, index: PartIndex, settings: Optional[Settings] = None, *, years: float = 3.0,
          currency: Optional[str] = None, condition: Optional[str] = None,
          power_limit_w: Optional[float] = None, kind: str = "training") -> Value:
    """The card's value for the throughput ``t`` (from ``throughput.estimate``), under ``settings``
    (price of a kWh, hours under load, currency, new or used); ``kind``: the power-limit curve
    (``perf.kind_of`` the workload's kind)."""
    s = settings or Settings()
    cur = currency or s.currency
    cond = condition or s.condition
    if years < 0:
        raise ValueError(T("years cannot be negative ({years:g})", years=years))
    cost.check_usage(s.load_hours_per_day, s.idle_hours_per_day, s.price_per_kwh, s.days_per_month)
    watts = gpu.board_power_w
    rate = t.value
    if power_limit_w and gpu.board_power_w:
        frac = min(1.0, power_limit_w / gpu.board_power_w)
        watts = gpu.board_power_w * frac
        rate = t.value * perf.throughput(frac, kind)
    price, trace = card_price(gpu, cur, index, cond)
    energy_year = cost.kwh(watts, s.load_hours_per_day) * cost.DAYS_PER_YEAR * s.price_per_kwh
    cpm = None if price is None else cost_per_million(price, energy_year, rate, s.load_hours_per_day, years)
    return Value(gpu.id, cur, t, watts, price, trace,
                 None if price is None or price <= 0 else rate / price,
                 rate / watts if watts > 0 else 0.0, energy_year, years, cpm)
