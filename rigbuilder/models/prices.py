"""Pricing a part, and a build's purchase, in one currency. The one place money is decided.

``price_part(part_id, currency, index)`` is the function every door (and the adviser) calls to
price a part: it picks one observation and converts it, saying how.

Which observation: the price the build says was paid for it, else the newest price the user
entered, else (with ``condition="used"``) the newest observed used price, else the used price the
depreciation model estimates (``index.used_estimates``, rigbuilder.models.depreciation), else the newest shop or
marketplace price in the preferred condition, else the launch price, else any other. Bundle
prices (one amount for several parts bought together) never price a single part; they are shown
beside it. A price in a currency the rates do not know is not converted: the part is then
counted as unpriced and named, never summed as zero.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Collection, Optional

from rigbuilder.domain.build import Build, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.money import ExchangeRates, MoneyError, PriceObservation
from rigbuilder.domain.parts import Part


_OBSERVED_RE = re.compile(r"\b(\d{4}-\d{2}(?:-\d{2})?)\b")


def catalog_observation(part: Part) -> Optional[PriceObservation]:
    """The catalog row's own price: a launch price dated with the part's release year, or a street
    price dated with the month its note says it was seen ('PCPartPicker street price 2025-07'),
    else the row's date."""
    if part.price is None:
        return None
    note = part.price_note or ""
    origin = "launch" if note.lower().startswith("launch") else "shop"
    seen = _OBSERVED_RE.search(note) if origin == "shop" else None
    released = getattr(part, "release_year", None)
    # a launch price is dated with the launch (the year the part came out), not with the row's sources
    date = seen[1] if seen else str(released) if origin == "launch" and released else part.source_date
    return PriceObservation(part.id, float(part.price), (part.currency or "USD").upper(), "new", origin,
                            part.source, date, note)


def observations(part_id: str, index: PartIndex, build: Optional[Build] = None) -> list[PriceObservation]:
    """Every price known for a part: paid (build), the user's, shipped observations, the row's."""
    out: list[PriceObservation] = []
    if build is not None and part_id in build.prices_paid:
        out.append(build.prices_paid[part_id].observation(part_id))
    out.extend(index.prices.for_part(part_id))
    p = index.get(part_id)
    if p is not None and (o := catalog_observation(p)) is not None:
        out.append(o)
    if p is not None and getattr(index, "used_estimates", False) and not any(o.condition == "used" for o in out):
        from rigbuilder.models.depreciation import estimator_for

        est = estimator_for(index, catalog_observation)
        if est is not None and (e := est.estimate(p, index)) is not None:
            out.append(e)  # never shown as observed: origin "estimate", ranked below every observed price
    return out


_RANK = {"paid": 0, "user": 1}


def choose(obs: list[PriceObservation], condition: Optional[str] = None,
           strict: bool = False) -> Optional[PriceObservation]:
    """The observation that prices the part (see the module's docstring). ``strict`` takes only
    prices in ``condition`` (and a build's price paid): a used answer never falls back to a new
    price unless the caller allows it."""
    single = [o for o in obs if not o.with_parts]
    if strict and condition:
        single = [o for o in single if o.condition == condition or o.origin == "paid"]
    if not single:
        return None
    want = condition or "new"

    def key(o: PriceObservation):
        rank = _RANK.get(o.origin)
        if rank is None:
            if o.condition == want:
                rank = 2 if o.origin not in ("launch", "estimate") else 3
            else:
                rank = 4
        return (rank, _neg_date(o.date))

    return min(single, key=key)


def bundle_applies(o: PriceObservation, index: PartIndex, conditions: Collection[str],
                   paid: Collection[str] = ()) -> bool:
    """Whether a bundle price may price its parts together: it names other parts, it is in one of
    ``conditions``, and no part of it has a price of the user's own (one paid, named in ``paid``,
    or one the user entered): a bundle never overrides the user's price. The purchase and the
    optimiser both ask this."""
    if not o.with_parts or o.condition not in conditions:
        return False
    return not any(x in paid or any(ob.origin == "user" for ob in index.prices.for_part(x))
                   for x in (o.part_id, *o.with_parts))


def _neg_date(d: str) -> tuple:
    # newest first: sort descending on the ISO text
    return tuple(-ord(c) for c in d)


@dataclass(frozen=True)
class PartPrice:
    """One unit of a part priced in ``currency``: ``amount`` is None when it could not be converted."""

    part_id: str
    observation: PriceObservation
    currency: str
    amount: Optional[float]
    conversion: str = ""  # "converted at 0.9523 EUR per USD, rates of 2025-02-25"; "" if none needed
    problem: str = ""  # why ``amount`` is None

    @property
    def observed(self) -> str:
        return self.observation.date

    def stale(self, today: Optional[str] = None) -> bool:
        return self.observation.stale(today)

    def trace(self) -> str:
        """Where the figure comes from (with its age), and how it was converted."""
        bits: list[str] = [self.observation.describe()]
        if self.observation.note:
            bits = [self.observation.note_text, "; "] + bits
        if self.conversion:
            bits += ["; ", self.conversion]
        return T.join(*bits)


def convert(obs: PriceObservation, currency: str, rates: ExchangeRates, region: Optional[str] = None) -> PartPrice:
    """``obs`` in ``currency``, bought in ``region``: converted at ``rates``, and the region's VAT or
    consumption tax added where the price was seen before it (``domain.market.tax_step``); the
    conversion note says both ("US price + 19% VAT, converted at 0.8951 EUR per USD, ECB rates of
    2026-10-30"). No region: converted only."""
    from rigbuilder.domain.market import tax_step

    tax = tax_step(obs, region)
    if obs.currency == currency:
        return PartPrice(obs.part_id, obs, currency, obs.amount * tax.factor, tax.text)
    try:
        amt = rates.convert(obs.amount, obs.currency, currency) * tax.factor
        note = _note(rates, obs.currency, currency)
        return PartPrice(obs.part_id, obs, currency, amt, T.join(tax.text, ", ", note) if tax.text else note)
    except MoneyError as e:
        return PartPrice(obs.part_id, obs, currency, None, problem=str(e))


_NOTES: dict = {}


def _note(rates: ExchangeRates, frm: str, to: str) -> str:
    """``rates.note`` once per rates, pair of currencies and day (pricing a whole catalog for the
    optimiser converts thousands of prices at a few rates; the note counts the rates' age to today)."""
    import datetime

    key = (id(rates), frm, to, datetime.date.today())
    got = _NOTES.get(key)
    if got is None or got[0] is not rates:
        if len(_NOTES) > 256:
            _NOTES.clear()
        got = _NOTES[key] = (rates, rates.note(frm, to))
    return got[1]


def price_part(part_id: str, currency: str, index: PartIndex, *, build: Optional[Build] = None,
               condition: Optional[str] = None, rates: Optional[ExchangeRates] = None,
               strict: bool = False, region: Optional[str] = None, today: Optional[str] = None) -> Optional[PartPrice]:
    """The price of one unit of ``part_id`` in ``currency``, or None when no price is known.

    Uses the index's price book (shipped and user observations, exchange rates) and the build's
    prices paid. ``condition`` "used" prefers used prices. ``region`` (else the build's) is where
    it is bought: its tax is added (``convert``). A launch price past the part's end of sale is no
    new price (``domain.endofsale``). The result says which observation it used and how it was
    converted."""
    o = choose(current(observations(part_id, index, build), index, today), condition, strict)
    if o is None:
        return None
    if region is None and build is not None:
        region = build.settings.region
    return convert(o, currency, rates or index.prices.rates, region)


def current(obs: list[PriceObservation], index: PartIndex, today: Optional[str] = None) -> list[PriceObservation]:
    """``obs`` without the launch prices that are no longer new prices: the part is past its end
    of sale, or launched more than three years before ``today`` (``domain.endofsale``)."""
    from rigbuilder.domain.endofsale import launch_expired

    return [o for o in obs if not (o.origin == "launch" and launch_expired(o, index.get(o.part_id), today))]


def availability(part_id: str, index: PartIndex, build: Optional[Build] = None, today: Optional[str] = None) -> str:
    """'new' (a current new price), 'used only' (no current new price, a used one), 'no current new
    price' (neither: the launch price is past the end of sale) or 'unpriced'."""
    every = observations(part_id, index, build)
    now = [o for o in current(every, index, today) if not o.with_parts]
    if any(o.condition == "new" for o in now):
        return "new"
    if any(o.condition == "used" for o in now):
        return "used only"
    return "no current new price" if every else "unpriced"


AVAILABILITY = {"new": N_("new"), "used only": N_("used only"), "no current new price": N_("no current new price"),
                "unpriced": N_("no price")}


def change_currency(settings: Settings, currency: str, rates: ExchangeRates) -> Settings:
    """The settings in another currency: the electricity price, the budget and the rent per
    GPU-hour are converted, not relabelled. Raises MoneyError when the rates do not know one of the
    currencies."""
    if currency == settings.currency:
        return settings
    r = rates.rate(settings.currency, currency)
    rent = settings.rent_per_gpu_hour
    return replace(settings, currency=currency, price_per_kwh=round(settings.price_per_kwh * r, 4),
                   budget=None if settings.budget is None else round(settings.budget * r, 2),
                   rent_per_gpu_hour=None if rent is None else round(rent * r, 4))


def settings_for_region(settings: Settings, region: str, rates: ExchangeRates) -> Settings:
    """A new build's settings for ``region``: its wall circuit and its currency (prices converted)."""
    from rigbuilder.domain.build import REGIONS

    s = replace(settings, region=region)
    cur = REGIONS[region].currency
    try:
        s = change_currency(s, cur, rates)
    except MoneyError:
        return s
    return with_region_energy(s, rates)


def region_energy(region: str, currency: str, rates: ExchangeRates) -> Optional[float]:
    """The household price of a kWh in ``region``'s market (``domain.market.ENERGY``) in ``currency``;
    None when the rates cannot convert it."""
    from rigbuilder.domain.market import energy_for

    e = energy_for(region)
    if e is None:
        return None
    try:
        return round(rates.convert(e.amount, e.currency, currency), 4)
    except MoneyError:
        return None


def with_region_energy(settings: Settings, rates: ExchangeRates) -> Settings:
    """The settings with their region's household electricity price (converted to their currency)."""
    p = region_energy(settings.region, settings.currency, rates)
    return settings if p is None else replace(settings, price_per_kwh=p)


def energy_source(settings: Settings, rates: ExchangeRates, today: Optional[str] = None) -> str:
    """Where the build's price of a kWh comes from: the region's published price with its source and
    age when the build uses it ('0.2872 EUR/kWh, 2025-06 (17 months old, stale): Eurostat ...'),
    else 'your price'."""
    from rigbuilder.domain.market import energy_for

    e = energy_for(settings.region)
    p = region_energy(settings.region, settings.currency, rates)
    if e is None or p is None or abs(p - settings.price_per_kwh) > 5e-5:
        return T("your price")
    text = e.describe(today)
    if e.currency != settings.currency:
        text = T.join(text, "; ", rates.note(e.currency, settings.currency, today))
    return text
