"""Buy or rent over a build's usage (issue 29): owning pays the idle energy that comes with each
hour of use, months of use count as the cost graph counts them, a build's own rent price is a
setting that converts with the currency and survives its file."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import Settings
from rigbuilder.domain.money import ExchangeRates
from rigbuilder.models import cost as cost_model
from rigbuilder.models import renting
from rigbuilder.models.prices import change_currency
from rigbuilder.rules.context import Context
from tests.builds import RTX3090_FE, x99_4x3090

PRICE = renting.CloudPrice("GeForce RTX 3090", 0.40, "EUR", "P", "on-demand", "2026-03", "S")


def test_idle_energy_with_each_hour_of_use_by_hand():
    # 2 cards, 1000 EUR; 500 W under load, 100 W idle, 0.30 EUR/kWh; 8 h load and 4 h idle a day:
    # owning costs 0.15 + 0.1 kW x 4/8 h x 0.30 = 0.165 EUR per hour of use, renting 0.80
    be = renting.break_even(1000.0, "EUR", 2, 500.0, 0.30, PRICE, idle_wall_w=100.0, idle_hours_per_hour_of_use=0.5)
    assert be.own_per_hour == pytest.approx(0.165)
    assert be.hours == pytest.approx(1000.0 / (0.80 - 0.165))
    assert be.own_cost(be.hours) == pytest.approx(be.rent_cost(be.hours))
    # in months at 8 h a day, 30 days a month
    assert be.months_at(8.0, 30.0) == pytest.approx(be.hours / 240.0)
    assert be.months_at(0.0, 30.0) is None
    xs, ys = be.rent_by_month(12, 8.0, 30.0)
    assert xs[12] == 12.0 and ys[12] == pytest.approx(12 * 240 * 0.80) and ys[0] == 0.0


def test_for_usage_crosses_the_cost_graphs_owning_curve(index):
    """The month ``for_usage`` gives is where the owning curve of ``models.cost`` (purchase +
    energy, idle included) meets the rent: the comparison and the graph agree."""
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    ctx = Context(b, index)
    run = cost_model.running_cost(ctx.power, b.settings)
    gpus = [g.gpu for g in ctx.gpus]
    be, why = renting.for_usage(gpus, 5000.0, run, shipped=renting.load_cloud_prices(), rates=index.prices.rates)
    assert why == "" and be is not None and be.n_gpus == 4 and be.price.provider == "RunPod"
    s = b.settings
    m = be.months_at(s.load_hours_per_day, s.days_per_month)
    own = 5000.0 + m * run.cost_per_month  # models.cost.cumulative at month m
    assert own == pytest.approx(be.rent_cost(m * s.load_hours_per_day * s.days_per_month))
    assert be.idle_energy_per_hour > 0
    # a typed price wins; a build without cards has none
    mine, _ = renting.for_usage(gpus, 5000.0, run, typed=renting.CloudPrice("", 1.0, "USD", yours=True))
    assert mine.rent_per_gpu_hour == 1.0 and mine.price.yours
    assert renting.for_usage([], 5000.0, run)[0] is None


def test_mixed_cards_and_unknown_currency_say_why(index):
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    ctx = Context(b, index)
    run = cost_model.running_cost(ctx.power, b.settings)
    g = ctx.gpus[0].gpu
    other = next(p for p in index if getattr(p, "chip_model", g.chip_model) != g.chip_model and hasattr(p, "chip_model"))
    be, why = renting.for_usage([g, other], 5000.0, run, shipped=renting.load_cloud_prices())
    assert be is None and "mixed cards" in str(why)
    be, why = renting.for_usage([g], 5000.0, run, typed=renting.CloudPrice("", 1.0, "XYZ", yours=True),
                                rates=index.prices.rates)
    assert be is None and "cannot compare with renting" in str(why)


def test_rent_setting_converts_with_the_currency_and_survives_the_file():
    from rigbuilder.files.buildfile import dumps, loads

    rates = ExchangeRates("EUR", {"USD": 0.9}, "2026-11-01", "test")
    s = change_currency(Settings(currency="USD", rent_per_gpu_hour=2.0), "EUR", rates)
    assert s.currency == "EUR" and s.rent_per_gpu_hour == pytest.approx(1.8)
    assert renting.typed_price(s) == renting.CloudPrice("", 1.8, "EUR", yours=True)
    assert renting.typed_price(Settings()) is None
    b = x99_4x3090()
    b.settings.rent_per_gpu_hour = 0.75
    assert loads(dumps(b)).settings.rent_per_gpu_hour == 0.75
    b.settings.rent_per_gpu_hour = None
    assert loads(dumps(b)).settings.rent_per_gpu_hour is None
    import json

    d = json.loads(dumps(b))
    d["settings"]["rent_per_gpu_hour"] = -1
    with pytest.raises(Exception) as e:
        loads(json.dumps(d))
    assert "settings.rent_per_gpu_hour" in str(e.value)


def test_comparison_takes_each_builds_own_rent_price(index):
    """The second build's own price (in USD) is used for it, converted to the comparison's EUR; the
    first build, with none, keeps the published example; a price typed for the comparison wins."""
    from rigbuilder.models.workloads import workload
    from rigbuilder.rules import compare as C
    from tests.rules.test_compare import one_4090, two_3090

    b = two_3090()
    b.settings.rent_per_gpu_hour = 1.0
    wls = [workload("qlora", 13e9)]
    cmp = C.compare([("a", one_4090()), ("b", b)], index, wls)
    first, second = (c.rent for c in cmp.columns)
    assert not first.price.yours and first.price.provider
    assert second.price.yours and second.rent_per_gpu_hour == pytest.approx(index.prices.rates.rate("USD", "EUR"))
    assert cmp.columns[1].build.settings.rent_per_gpu_hour is None  # the usage is the first build's, not the rent
    typed = renting.CloudPrice("", 0.7, "EUR", yours=True)
    cmp = C.compare([("a", one_4090()), ("b", b)], index, wls, cloud=typed)
    assert [c.rent.rent_per_gpu_hour for c in cmp.columns] == [0.7, 0.7]
