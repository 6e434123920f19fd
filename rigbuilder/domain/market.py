"""Markets: which tax a price includes, which tax a buyer pays, and a household's price of a kWh.
Plain Python, no Qt. The one declared table of both (``TAXES``, ``ENERGY``), each figure sourced and
dated.

A price is seen in a market: the shipped street, launch and used prices are US prices before
sales tax (US shops and eBay US show them so; the sales tax varies by state); a price the user entered or paid is what they pay, tax included. A build in another region
converts the amount and adds that region's VAT or consumption tax, and says so: "US price + 19%
VAT, converted at 0.8951 EUR per USD, ECB rates of 2026-10-30". A US build says "US price before
sales tax". A price seen in a VAT market (a German shop's) carries its market; bought from another
market, its VAT is taken off and the buyer's added.

Each region (``rigbuilder.domain.build.REGIONS``) names its market; a new build in it starts with
that market's household electricity price (``ENERGY``), shown with its source and age as a price.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from rigbuilder.domain.i18n import N_, T


@dataclass(frozen=True)
class Tax:
    market: str
    rate: float  # a share of the price before tax: 0.19 is 19%
    name: str  # "VAT", "consumption tax" (marked N_: translated where shown)
    source: str  # the law or the publication that states the rate, with its year

    @property
    def percent(self) -> str:
        return f"{self.rate * 100:g}%"


@dataclass(frozen=True)
class Energy:
    """A household's price of one kWh in a market, all taxes included, as its statistics office or
    regulator publishes it."""

    market: str
    amount: float  # per kWh, in ``currency``
    currency: str
    date: str  # when the price applied (ISO month or day)
    source: str  # publisher, title, year, link
    note: str = ""  # what the figure is

    def age(self, today: Optional[str] = None) -> str:
        from rigbuilder.domain.money import age_text

        return age_text(self.date, today)

    def describe(self, today: Optional[str] = None) -> str:
        """'0.2872 EUR/kWh, 2025-06 (17 months old, stale): Eurostat, ...'"""
        return T("{amount:g} {currency}/kWh, {date} ({age}): {source}", amount=self.amount, currency=self.currency,
                 date=self.date, age=self.age(today), source=T.verbatim(self.source))


MARKETS: dict[str, str] = {"US": N_("US"), "EU": N_("EU average"), "DE": N_("Germany"), "FR": N_("France"),
                           "UK": N_("UK"), "JP": N_("Japan"), "CN": N_("China")}
"""The markets a price is seen in and a build is bought in."""

PRICE_MARKET = "US"
"""The market of the shipped prices (street, launch and used): US, before sales tax."""
CURRENCY_MARKETS = {"USD": "US", "EUR": "EU", "GBP": "UK", "JPY": "JP", "CNY": "CN"}
"""A published price that records no market was seen where its currency is spent (the few shipped
euro prices are Amazon.de listing prices, VAT included: "EU", which euro country left open)."""
EURO_MARKETS = ("EU", "DE", "FR")

TAXES: dict[str, Tax] = {t.market: t for t in (
    Tax("US", 0.0, N_("sales tax"),
        "no national VAT; state and local sales taxes vary by state and averaged 7.5% combined in 2025 (Tax "
        "Foundation, press release on VAT rates in Europe, 2026-01-26): prices are shown before sales tax"),
    Tax("DE", 0.19, N_("VAT"), "Umsatzsteuergesetz (UStG) section 12 (1): standard rate 19%, since 2007"),
    Tax("FR", 0.20, N_("VAT"), "Code general des impots, article 278: taux normal 20%, since 2014"),
    Tax("UK", 0.20, N_("VAT"), "HM Revenue & Customs, \"VAT rates\", standard rate 20%, since 2011"),
    Tax("JP", 0.10, N_("consumption tax"),
        "National Tax Agency Japan, consumption tax standard rate 10% (7.8% national, 2.2% local), since "
        "2019-10-01"),
    Tax("CN", 0.13, N_("VAT"),
        "Ministry of Finance, State Taxation Administration and General Administration of Customs of China, "
        "announcement 2019 No. 39: VAT on goods 13%, since 2019-04-01"),
    Tax("EU", 0.219, N_("VAT"),
        "Tax Foundation, press release on VAT rates in Europe, 2026-01-26: the EU's average standard VAT rate "
        "21.9% (the buyer's country sets the rate: 17% in Luxembourg to 27% in Hungary)"),
)}

ENERGY: dict[str, Energy] = {e.market: e for e in (
    Energy("US", 0.1872, "USD", "2026-04",
           "U.S. Energy Information Administration, Electric Power Monthly, Table 5.6.A, average price of "
           "electricity to residential customers, U.S. total, 18.72 cents per kWh (as compiled by "
           "energypricestoday.com, updated 2026-04-26), https://www.eia.gov/electricity/monthly/",
           "residential average, before any standing charge; states range from about 11 to 43 cents"),
    Energy("DE", 0.397, "EUR", "2025-03",
           "BDEW Bundesverband der Energie- und Wasserwirtschaft, \"BDEW-Strompreisanalyse\", 2025: 39.7 ct/kWh for "
           "a household of three using 3,500 kWh a year, https://www.bdew.de/service/daten-und-grafiken/",
           "average household price, all taxes and levies included"),
    Energy("FR", 0.2016, "EUR", "2025-02-01",
           "Commission de regulation de l'energie (CRE), tarifs reglementes de vente d'electricite (EDF tarif "
           "bleu) from 1 February 2025, option base: 0.2016 EUR/kWh TTC (as reported by Revolution Energetique, "
           "\"Voici les nouveaux prix de l'electricite au 1er fevrier 2025\", 2025)",
           "regulated tariff, option base, per kWh, taxes included; the subscription is extra"),
    Energy("UK", 0.2635, "GBP", "2025-10-01",
           "Ofgem, \"Changes to energy price cap between 1 October and 31 December 2025\", 2025: average "
           "electricity unit rate 26.35 p/kWh (Direct Debit, VAT included), "
           "https://www.ofgem.gov.uk/news/changes-energy-price-cap-between-1-october-and-31-december-2025",
           "price cap unit rate; the standing charge of 53.68 p a day is extra"),
    Energy("JP", 31.68, "JPY", "2025-07",
           "Jiji Press, \"Japan household electricity bills for July to fall\", nippon.com, 2025-06-27, with "
           "the bill of TEPCO's standard household (260 kWh a month): 8,236 JPY for July 2025 usage "
           "(thisis-japan.com, 2025); 8,236 / 260 = 31.68 JPY/kWh",
           "a whole bill over the kWh used (basic charge, fuel adjustment and renewable levy included, after "
           "that month's 2 JPY/kWh government subsidy)"),
    Energy("CN", 0.4883, "CNY", "2012-07-01",
           "National Development and Reform Commission, tiered residential electricity prices from 1 July "
           "2012; Beijing's first tier (up to 240 kWh a month) 0.4883 CNY/kWh (Xinhua, \"China implements new "
           "electricity pricing system\", China Daily, 2012-07-02)",
           "Beijing's first tier; provinces set their own (Zhejiang 0.538 CNY/kWh)"),
    Energy("EU", 0.2872, "EUR", "2025-06",
           "Eurostat, \"Household electricity prices in 1st half of 2025: -0.5%\", news release 2025-10-29 "
           "(dataset nrg_pc_204): EU average 28.72 EUR per 100 kWh, all taxes included",
           "EU average of the first half of 2025; Germany 38.35, Hungary 10.40 EUR per 100 kWh"),
)}


def check_market(value: object, where: str = "") -> str:
    """A price's market as a file or a feed gives it: a key of ``MARKETS`` (any case), or "" when
    empty (the user's own price, tax included). MoneyError naming ``where`` otherwise: the same
    check at every door (``price import``, ``price update``, the lab's prices)."""
    from rigbuilder.domain.money import MoneyError

    text = "" if value is None else str(value).strip()
    if not text:
        return ""
    if text.upper() in MARKETS:
        return text.upper()
    raise MoneyError(T("{where}: {value} must be one of: {choices} (where the price was seen; empty: a price you "
                       "paid, tax included)", where=where or T("market"), value=f"{text!r:.20}",
                       choices=", ".join(MARKETS)))


def market_label(market: str) -> str:
    m = MARKETS.get(market)
    return T(m) if m else T.verbatim(market)


def region_market(region: Optional[str]) -> Optional[str]:
    """The market a region's builds are bought in (None when the region is unknown)."""
    from rigbuilder.domain.build import REGIONS

    r = REGIONS.get(region or "")
    return r.market if r is not None else None


def price_market(obs) -> Optional[str]:
    """The market a price was seen in: its own where it records one; the shipped prices' (US, before
    sales tax) for a launch, shop or marketplace price; None for a price the user entered or paid
    (what they pay, tax included: nothing is added)."""
    m = getattr(obs, "market", "") or ""
    if m:
        return m
    if obs.origin in ("user", "paid"):
        return None
    return CURRENCY_MARKETS.get(obs.currency, PRICE_MARKET)


@dataclass(frozen=True)
class TaxStep:
    """What a buyer in another market pays on top of a price: the factor and the words."""

    factor: float
    text: str  # "US price + 19% VAT"; "US price before sales tax"; "" when nothing applies


NO_TAX = TaxStep(1.0, "")


def tax_step(obs, region: Optional[str]) -> TaxStep:
    """The tax a buyer in ``region`` adds to ``obs`` (None: no region, nothing added)."""
    buyer = region_market(region)
    seen = price_market(obs)
    if buyer is None or seen is None:
        return NO_TAX
    bt, st = TAXES.get(buyer), TAXES.get(seen)
    if bt is None or st is None:
        return NO_TAX
    if seen == "EU" and buyer in EURO_MARKETS:  # a euro price with VAT (which country's unknown): as it is
        return TaxStep(1.0, T("{market} price with {tax}", market=market_label(seen), tax=T(st.name)))
    if seen == buyer:
        if bt.rate == 0:
            return TaxStep(1.0, T("{market} price before {tax}", market=market_label(seen), tax=T(bt.name)))
        return TaxStep(1.0, T("{market} price with {rate} {tax}", market=market_label(seen), rate=bt.percent,
                              tax=T(bt.name)))
    if st.rate == 0:
        if bt.rate == 0:
            return TaxStep(1.0, T("{market} price before {tax}", market=market_label(seen), tax=T(bt.name)))
        return TaxStep(1.0 + bt.rate, T("{market} price + {rate} {tax}", market=market_label(seen), rate=bt.percent,
                                        tax=T(bt.name)))
    return TaxStep((1.0 + bt.rate) / (1.0 + st.rate),
                   T("{market} price less its {seen_rate} {seen_tax}, + {rate} {tax}", market=market_label(seen),
                     seen_rate=st.percent, seen_tax=T(st.name), rate=bt.percent, tax=T(bt.name)))


def energy_for(region: Optional[str]) -> Optional[Energy]:
    """The household electricity price of a region's market (None when unknown)."""
    m = region_market(region)
    return ENERGY.get(m) if m else None


DEFAULT_BUDGET = (2000.0, "USD")
"""The optimiser's budget before the user types one: a two-to-four-card used-GPU workstation's parts
(amount, currency); shown converted to the build's currency and rounded (:func:`default_budget`)."""


def round_figure(amount: float) -> float:
    """``amount`` to two significant figures, as a person writes a budget: 1790.2 -> 1800,
    299871 -> 300000, 14420 -> 14000."""
    import math

    if amount <= 0 or not math.isfinite(amount):
        return 0.0
    step = 10 ** (math.floor(math.log10(amount)) - 1)
    return float(round(amount / step) * step)


def default_budget(currency: str, rates) -> float:
    """The optimiser's default budget in ``currency``: :data:`DEFAULT_BUDGET` converted with ``rates``
    (an ``ExchangeRates``) and rounded (2000 USD reads 300,000 JPY at 150 JPY per USD, not 2000 JPY);
    the amount as it is when the rates do not know the currency."""
    from rigbuilder.domain.money import MoneyError

    amount, base = DEFAULT_BUDGET
    try:
        return round_figure(rates.convert(amount, base, currency))
    except (MoneyError, KeyError):
        return amount
