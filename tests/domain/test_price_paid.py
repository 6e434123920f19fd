"""SetPricePaid (the price paid for an item, in this build), the budget edit, user-set rates and
amounts typed by hand."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.edits import ChangeSettings, EditError, SetPricePaid
from rigbuilder.domain.money import ExchangeRates, MoneyError, PriceBook, parse_amount
from rigbuilder.domain.parts import GPU
from rigbuilder.models.prices import price_part

RATES = ExchangeRates("CNY", {"CNY": 1.0, "USD": 7.1726, "EUR": 7.5322}, "2025-02-25", "test")


@pytest.fixture
def one_card():
    gpu = GPU("gpu-a", "NVIDIA", "A", "maker page", "2020-09", price=1499, currency="USD", board_power_w=350)
    return Build(gpus=[GpuPlacement("gpu-a", 1)], settings=Settings(currency="EUR")), PartIndex([gpu], prices=PriceBook.of([], RATES))


def test_price_paid_is_set_used_and_removed(one_card):
    b, index = one_card
    e = SetPricePaid("gpu-a", 650.0, "EUR", "used", "local listing", "2026-11-20")
    assert e.text(b, index) == "Price paid for NVIDIA A: 650.00 EUR (used)"
    b2 = e.applied_to(b, index)
    assert b.prices_paid == {}  # the given build is untouched
    assert b2.prices_paid["gpu-a"].amount == 650.0 and b2.prices_paid["gpu-a"].condition == "used"
    pp = price_part("gpu-a", "EUR", index, build=b2)
    assert pp.amount == 650.0 and pp.observation.origin == "paid"
    b3 = SetPricePaid("gpu-a", None).applied_to(b2, index)
    assert b3.prices_paid == {}
    assert price_part("gpu-a", "EUR", index, build=b3).observation.amount == 1499  # the catalog row again


def test_price_paid_refuses_what_it_cannot_take(one_card):
    b, index = one_card
    with pytest.raises(EditError, match="not in this build"):
        SetPricePaid("gpu-zzz", 10.0, "EUR").applied_to(b, index)
    with pytest.raises(EditError, match="three-letter"):
        SetPricePaid("gpu-a", 10.0, "EURO").applied_to(b, index)
    with pytest.raises(EditError, match="between 0 and"):
        SetPricePaid("gpu-a", -1.0, "EUR").applied_to(b, index)
    with pytest.raises(EditError, match="condition"):
        SetPricePaid("gpu-a", 1.0, "EUR", "mint").applied_to(b, index)
    with pytest.raises(EditError, match="none is set"):
        SetPricePaid("gpu-a", None).applied_to(b, index)


def test_budget_can_be_set_and_cleared(one_card):
    b, index = one_card
    b2 = ChangeSettings.of(budget=2000).applied_to(b, index)
    assert b2.settings.budget == 2000.0
    assert ChangeSettings.of(budget=None).applied_to(b2, index).settings.budget is None
    with pytest.raises(EditError):
        ChangeSettings.of(budget=-5).applied_to(b, index)


def test_a_rate_the_user_sets_is_marked_with_its_date():
    r = RATES.with_rate("USD", 7.6, "2026-11-24")
    assert r.is_users("USD") and not r.is_users("EUR")
    assert r.rate_label("USD") == "yours, 2026-11-24" and r.rate_label("EUR").startswith("rates of 2025-02-25")
    # 7.6 / 7.5322 = 1.009001 EUR per USD
    assert r.note("USD", "EUR", today="2025-03-01") == ("converted at 1.009 EUR per USD, rates of 2025-02-25; "
                                                        "your USD rate of 2026-11-24")
    assert RATES.note("USD", "EUR", today="2025-03-01").endswith("rates of 2025-02-25")  # the original is unchanged
    with pytest.raises(MoneyError):
        RATES.with_rate("CNY", 2.0)  # the base is 1 by definition
    with pytest.raises(MoneyError):
        RATES.with_rate("USD", 0)


@pytest.mark.parametrize("text,expected", [("650", (650.0, "EUR")), ("1,200.50 usd", (1200.5, "USD")),
                                           ("GBP 99", (99.0, "GBP")), (" 0 ", (0.0, "EUR"))])
def test_typed_amounts(text, expected):
    assert parse_amount(text, "EUR") == expected


@pytest.mark.parametrize("text", ["", "abc", "12 EUR USD", "1 2", "-5", "5 EURO", "nan"])
def test_typed_amounts_that_cannot_be_read(text):
    with pytest.raises(MoneyError):
        parse_amount(text, "EUR")
