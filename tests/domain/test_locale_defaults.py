"""Defaults follow the locale and the currency (issue 43): under a Japanese locale a new build is in
Japan with yen and Japan's electricity price, and the optimiser's default budget is converted to
yen (not 2000 JPY, about 13 USD), rounded as a person writes a budget."""
from __future__ import annotations

from rigbuilder.domain.build import region_for_locale
from rigbuilder.domain.market import DEFAULT_BUDGET, default_budget, energy_for, round_figure
from rigbuilder.domain.money import ExchangeRates
from rigbuilder.models.prices import settings_for_region
from rigbuilder.domain.build import REGIONS, Settings

RATES = ExchangeRates("EUR", {"EUR": 1.0, "USD": 0.8951, "GBP": 1.15, "JPY": 0.0058, "CNY": 0.125}, "2026-10-30",
                      "European Central Bank reference rates of 2026-10-30")


def test_round_figure_keeps_two_significant_figures():
    assert round_figure(1790.2) == 1800
    assert round_figure(308672.4) == 310000
    assert round_figure(14321.6) == 14000
    assert round_figure(2000) == 2000
    assert round_figure(0) == 0 and round_figure(-5) == 0


def test_the_default_budget_is_converted_with_the_currency():
    amount, base = DEFAULT_BUDGET
    assert default_budget(base, RATES) == amount
    jpy = default_budget("JPY", RATES)
    usd_worth = RATES.convert(jpy, "JPY", "USD")
    assert jpy > 100_000 and abs(usd_worth - amount) / amount < 0.05  # about 2000 USD, not 13
    assert jpy == round_figure(jpy)
    eur = default_budget("EUR", RATES)
    assert eur == 1800  # 2000 USD x 0.8951 = 1790 EUR, rounded
    assert default_budget("CNY", RATES) == 14000
    assert default_budget("XXX", RATES) == amount  # a currency the rates do not know: left as it is


def test_a_japanese_locale_starts_a_build_in_japan_with_yen_and_japans_electricity_price():
    region = region_for_locale({"LANG": "ja_JP.UTF-8"})
    assert region == "JP-15A" and REGIONS[region].currency == "JPY"
    s = settings_for_region(Settings(), region, RATES)
    e = energy_for(region)
    assert s.currency == "JPY" and e.currency == "JPY" and s.price_per_kwh == e.amount
    assert region_for_locale({"LANG": "zh_CN.UTF-8"}).startswith("CN")
    assert region_for_locale({"LANG": "C.UTF-8"}, language="ja") == "JP-15A"  # no territory: the window's language
