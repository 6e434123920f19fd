"""The labelled money figures the power and cost panel shows (``cost.money_lines``), worked by hand.

Rates: the shipped CFETS central parity of 2025-02-25 (CNY per unit: USD 7.1726, EUR 7.5322), so
1 USD = 7.1726 / 7.5322 = 0.952258 EUR."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import Build, GpuPlacement, PricePaid, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import ExchangeRates, PriceBook
from rigbuilder.models import cost as cm
from tests.models.money_parts import gpu as _gpu, mixed_gpus, mixed_parts

RATES = ExchangeRates("CNY", {"CNY": 1.0, "USD": 7.1726, "EUR": 7.5322}, "2025-02-25", "test")


@pytest.fixture
def mixed() -> tuple[Build, PartIndex]:
    """Two USD cards (1499 USD each), an EUR price paid for the CPU (250 EUR), an unpriced card."""
    parts = mixed_parts()
    b = Build(cpu="cpu-c", gpus=mixed_gpus(),
              settings=Settings(currency="EUR", budget=2000.0, region="DE-16A"),
              prices_paid={"cpu-c": PricePaid(250.0, "EUR", "used", "a local listing")})
    return b, PartIndex(parts, prices=PriceBook.of([], RATES))


def test_mixed_currencies_and_an_unpriced_part_are_labelled(mixed):
    b, index = mixed
    buy = cm.purchase(b, index)
    # a German build: 2 x 1499 USD x 0.952258 x 1.19 (VAT) = 3397.30 EUR; + 250 EUR paid (what was paid,
    # nothing added) = 3647.30 EUR; gpu-b has no price.
    assert buy.total == pytest.approx(2 * 1499 * 7.1726 / 7.5322 * 1.19 + 250, abs=0.005)
    run = cm.RunningCost(1000, 100, 8, 4, 30, 0.30, "EUR", 8.4, 252, 3066, 2.52, 75.6, 919.8)
    lines = cm.money_lines(buy, run, 3)
    # the cards' 2025-07 street price is stale: the answer says so first, and how old its prices are
    assert lines[0] == ("Stale prices: 1 of the 2 part prices were seen more than 6 months ago; check today's "
                        "prices before you buy.")
    assert lines[2].startswith("Price age: prices paid (parts: 1); street prices of 2025-07, ")
    assert "months old, stale (parts: 1)" in lines[2]
    assert "prices paid of an unknown date, stale" not in lines[2]  # a price paid is never stale
    lines = [x for x in lines if not x.startswith(("Stale prices", "Price age"))]
    assert lines[0] == ("Purchase (parts): at least 3,647.30 EUR (1 part unpriced: NVIDIA gpu-b)"
                        " without board, memory, storage, PSU, case")  # a partial build: the total says what it lacks
    # over the 2,000 EUR budget by at least 1,647.30 EUR
    assert lines[1] == "Budget 2,000.00 EUR: purchase over by at least 1,647.30 EUR"
    assert lines[2] == "Energy: 75.60 EUR a month, 919.80 EUR a year (252 kWh a month at 0.3 EUR/kWh)"
    # 3647.30 + 3 x 919.80 = 6406.70
    assert lines[3] == ("3-year cost of ownership (purchase + 3 years of energy): at least 6,406.70 EUR "
                        "(unpriced parts not counted)")
    assert lines[4].startswith("Prices: US price + 19% VAT, converted at 0.9523 EUR per USD, rates of 2025-02-25 (")
    assert not any("not priced in" in x for x in lines)


def test_complete_purchase_within_budget(mixed):
    b, index = mixed
    b.gpus.pop()  # the unpriced card
    b.settings.budget = 4000.0
    lines = [x for x in cm.money_lines(cm.purchase(b, index), None, 3) if not x.startswith(("Stale", "Price age"))]
    assert lines[0] == "Purchase (parts): 3,647.30 EUR without board, memory, storage, PSU, case"
    assert lines[1] == "Budget 4,000.00 EUR: purchase within it, 352.70 EUR left"
    assert not any("cost of ownership" in x for x in lines)  # no energy figures given: no total claimed


def test_nothing_priced_says_unknown_not_zero():
    index = PartIndex([_gpu("gpu-b")], prices=PriceBook.of([], RATES))
    lines = cm.money_lines(cm.purchase(Build(gpus=[GpuPlacement("gpu-b", 1)]), index), None, 1)
    assert lines == ["Purchase (parts): unknown (1 part unpriced: NVIDIA gpu-b) without board, CPU, memory, storage, PSU, case"]


def test_unpriced_names_are_cut_after_four():
    parts = [_gpu(f"gpu-{i}") for i in range(6)]
    b = Build(gpus=[GpuPlacement(p.id, None) for p in parts])
    text = cm.unpriced_text(cm.purchase(b, PartIndex(parts, prices=PriceBook.of([], RATES))))
    assert text.startswith("6 parts unpriced: NVIDIA gpu-0, NVIDIA gpu-1") and text.endswith("and 2 more")
