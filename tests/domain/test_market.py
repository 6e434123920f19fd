"""Tax and market (issue 38): one declared table of the tax each region's buyer pays and of its
household price of a kWh; a price in another market is converted and taxed, and says so."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import REGIONS, Settings
from rigbuilder.domain.market import ENERGY, MARKETS, TAXES, price_market, tax_step
from rigbuilder.domain.money import ExchangeRates, PriceObservation
from rigbuilder.models.prices import convert, energy_source, settings_for_region

RATES = ExchangeRates("EUR", {"EUR": 1.0, "USD": 0.8951, "GBP": 1.15, "JPY": 0.0058, "CNY": 0.125}, "2026-10-30",
                      "European Central Bank reference rates of 2026-10-30")
US = PriceObservation("gpu-x", 1000.0, "USD", "new", "shop", "a shop", "2026-10")


def test_every_region_names_a_market_with_a_tax_and_an_energy_price():
    for r in REGIONS.values():
        assert r.market in MARKETS and r.market in TAXES and r.market in ENERGY, r.code
    for t in TAXES.values():
        assert 0 <= t.rate < 0.3 and t.source
    for e in ENERGY.values():
        assert e.amount > 0 and e.source and e.date[:2] in ("20",)


def test_the_declared_rates():
    assert {m: t.rate for m, t in TAXES.items()} == {"US": 0.0, "DE": 0.19, "FR": 0.20, "UK": 0.20, "JP": 0.10,
                                                     "CN": 0.13, "EU": 0.219}


def test_a_german_build_of_a_us_priced_part_shows_the_vat_line():
    pp = convert(US, "EUR", RATES, "DE-16A")
    assert pp.amount == pytest.approx(1000 * 0.8951 * 1.19)
    assert pp.conversion == "US price + 19% VAT, converted at 0.8951 EUR per USD, ECB rates of 2026-10-30"
    assert "19% VAT" in pp.trace()


def test_each_region_adds_its_own_tax():
    assert convert(US, "EUR", RATES, "FR-16A").amount == pytest.approx(1000 * 0.8951 * 1.20)
    assert convert(US, "GBP", RATES, "UK-13A").conversion.startswith("US price + 20% VAT, converted at ")
    jp = convert(US, "JPY", RATES, "JP-15A")
    assert jp.conversion.startswith("US price + 10% consumption tax, converted at ")
    assert convert(US, "CNY", RATES, "CN-10A").conversion.startswith("US price + 13% VAT")
    assert convert(US, "EUR", RATES, "EU-16A").conversion.startswith("US price + 21.9% VAT")


def test_a_us_build_says_before_sales_tax_and_adds_nothing():
    pp = convert(US, "USD", RATES, "US-15A")
    assert pp.amount == 1000 and pp.conversion == "US price before sales tax"
    assert convert(US, "USD", RATES).conversion == ""  # no region: converted only (nothing to say)


def test_the_users_own_and_paid_prices_are_what_they_pay():
    mine = PriceObservation("gpu-x", 800.0, "EUR", "used", "user", "a listing", "2026-11-01")
    paid = PriceObservation("gpu-x", 800.0, "EUR", "used", "paid", "eBay", "2026-11-01")
    assert price_market(mine) is None and price_market(paid) is None
    assert convert(mine, "EUR", RATES, "DE-16A").amount == 800
    assert tax_step(paid, "DE-16A").factor == 1.0


def test_a_price_with_german_vat_bought_in_france_swaps_the_vat():
    de = PriceObservation("gpu-x", 1190.0, "EUR", "new", "shop", "a German shop", "2026-10", market="DE")
    assert convert(de, "EUR", RATES, "FR-16A").amount == pytest.approx(1000 * 1.20)
    assert convert(de, "EUR", RATES, "DE-16A").amount == pytest.approx(1190)
    assert convert(de, "USD", RATES, "US-15A").amount == pytest.approx(1000 / 0.8951)


@pytest.mark.parametrize("region,amount,currency,source", [
    ("US-15A", 0.1872, "USD", "Energy Information Administration"), ("US-20A", 0.1872, "USD", "Electric Power Monthly"),
    ("DE-16A", 0.397, "EUR", "BDEW"), ("FR-16A", 0.2016, "EUR", "CRE"), ("UK-13A", 0.2635, "GBP", "Ofgem"),
    ("JP-15A", 31.68, "JPY", "TEPCO"), ("CN-10A", 0.4883, "CNY", "National Development and Reform Commission"),
    ("EU-16A", 0.2872, "EUR", "Eurostat")])
def test_a_new_build_takes_its_regions_energy_price_with_source_and_age(region, amount, currency, source):
    s = settings_for_region(Settings(), region, RATES)
    assert s.currency == currency and s.price_per_kwh == pytest.approx(amount)
    said = energy_source(s, RATES, "2026-11-26")
    assert source in said and "old" in said and str(ENERGY[REGIONS[region].market].date) in said
    assert energy_source(Settings(region=region, currency=currency, price_per_kwh=0.5), RATES) == "your price"


def test_a_region_in_another_currency_converts_its_energy_price_and_says_so():
    s = settings_for_region(Settings(), "US-15A", RATES)
    from dataclasses import replace

    from rigbuilder.models.prices import change_currency, with_region_energy

    eur = with_region_energy(change_currency(s, "EUR", RATES), RATES)
    assert eur.price_per_kwh == pytest.approx(0.1872 * 0.8951, abs=1e-4)
    assert "converted at" in energy_source(eur, RATES) and "Energy Information Administration" in energy_source(eur, RATES)
    assert energy_source(replace(eur, price_per_kwh=0.2), RATES) == "your price"


def test_a_published_euro_price_is_taken_with_its_vat_in_the_euro_area():
    eur = PriceObservation("case-frame", 25.0, "EUR", "new", "shop", "Amazon.de listing", "2026-10")
    assert convert(eur, "EUR", RATES, "EU-16A").amount == 25.0
    assert convert(eur, "EUR", RATES, "DE-16A").amount == 25.0
    assert convert(eur, "EUR", RATES, "DE-16A").conversion == "EU average price with VAT"
    assert convert(eur, "USD", RATES, "US-15A").amount == pytest.approx(25.0 / 1.219 / 0.8951)  # VAT off
