"""Builds side by side (issue 29): seed 002's one RTX 4090 or two used RTX 3090s."""
from __future__ import annotations

from datetime import date

import pytest

from rigbuilder.domain.build import GpuPlacement, Settings
from rigbuilder.models import renting
from rigbuilder.models.workloads import workload
from rigbuilder.rules import compare as C
from tests.builds import x99_4x3090


def one_4090():
    b = x99_4x3090(limit_w=None, region="EU-16A")
    b.name = "One RTX 4090"
    b.gpus = [GpuPlacement("gpu-nvidia-rtx-4090-fe", 1)]
    b.settings = Settings(region="EU-16A", price_per_kwh=0.30, currency="EUR")
    return b


def two_3090():
    b = x99_4x3090(limit_w=None, gpu="gpu-nvidia-rtx-3090-fe", region="EU-16A")
    b.name = "Two used RTX 3090"
    b.gpus = [GpuPlacement("gpu-nvidia-rtx-3090-fe", 1), GpuPlacement("gpu-nvidia-rtx-3090-fe", 4)]
    b.settings = Settings(region="US-15A", price_per_kwh=0.10, currency="USD", condition="used")
    return b


def test_seed_002_side_by_side(index):
    wls = [workload("qlora", 13e9), workload("llm-inference", 70e9, precision="int4")]
    cmp = C.compare([("a", one_4090()), ("b", two_3090())], index, wls, years=3)
    a, b = cmp.columns
    assert (a.n_gpus, b.n_gpus) == (1, 2)
    assert (a.vram_total_gb, b.vram_total_gb) == (24, 48)
    # the first build's usage applies to both: same region and currency, so energy compares
    assert cmp.currency == "EUR" and b.purchase.currency == "EUR"
    assert b.build.settings.region == "EU-16A" and b.build.settings.condition == "used"
    assert b.wall_training_w > a.wall_training_w
    assert b.running.cost_per_year > a.running.cost_per_year
    assert a.tco == pytest.approx(a.purchase.total + 3 * a.running.cost_per_year)
    # the QLoRA 13B fits both; the throughput and its band are the adviser's
    assert a.throughput[0].fits and b.throughput[0].fits and a.throughput[0].value > 0
    d = C.to_dict(cmp)
    assert [w["id"] for w in d["workloads"]] == ["qlora", "llm-inference"]
    assert d["builds"][1]["n_gpus"] == 2 and d["builds"][0]["throughput"][1]["precision"] == "int4"


def test_compare_takes_two_to_four(index):
    with pytest.raises(ValueError, match="2 to 4"):
        C.compare([("a", one_4090())], index)


def test_parse_workload():
    wl = C.parse_workload("llm-inference:70B:int4")
    assert wl.id == "llm-inference" and wl.precision == "int4" and wl.model.params > 6e10
    assert C.parse_workload("cnn-training").id == "cnn-training"
    with pytest.raises(ValueError):
        C.parse_workload("nope:7B")
    with pytest.raises(ValueError):
        C.parse_workload("a:b:c:d")


def test_break_even_by_hand():
    price = renting.CloudPrice("GeForce RTX 3090", 0.40, "EUR", "P", "on-demand", "2026-03", "S")
    be = renting.break_even(1000.0, "EUR", 2, 500.0, 0.30, price)
    # owning: 1000 + h x 0.5 kW x 0.30 = renting: h x 2 x 0.40  ->  h = 1000 / (0.80 - 0.15)
    assert be.energy_per_hour == pytest.approx(0.15)
    assert be.hours == pytest.approx(1000 / 0.65)
    assert be.own_cost(be.hours) == pytest.approx(be.rent_cost(be.hours))
    cheap = renting.CloudPrice("x", 0.05, "EUR", observed="2026-03")
    assert renting.break_even(1000.0, "EUR", 2, 500.0, 0.30, cheap).hours is None  # renting below the energy


def test_rental_price_staleness_at_six_months():
    p = renting.CloudPrice("x", 1.0, "USD", observed="2026-05-26")
    assert p.age_months(date(2026, 11, 26)) == 6 and not p.stale(date(2026, 11, 26))
    assert p.age_months(date(2026, 12, 26)) == 7 and p.stale(date(2026, 12, 26))
    assert not renting.CloudPrice("x", 1.0, "USD", observed="2026-11").stale(date(2026, 11, 26))


def test_shipped_rental_prices_name_their_publication(index):
    prices = renting.load_cloud_prices()
    chips = {g.chip_model for g in index.of_kind("gpu")}
    assert prices
    for p in prices:
        assert p.chip_model in chips, p.chip_model  # each names a chip the catalog has
        assert p.source and p.observed and p.provider and p.amount > 0


def test_compare_shows_each_builds_noise(index):
    """Issue 41: each column's level at 1 m (models/noise.py), in the table and the JSON."""
    from rigbuilder.rules.compare import compare, table, to_dict
    from rigbuilder.rules.context import Context
    from tests.builds import x99_4x3090

    loud, quiet = x99_4x3090(limit_w=None), x99_4x3090(limit_w=280)
    cmp = compare([("loud", loud), ("quiet", quiet)], index)
    _heads, rows, _notes = table(cmp)
    cells = dict(rows)[next(k for k, _ in rows if k == "noise at 1 m")]
    want = [Context(b, index).noise.level("training") for b in (loud, quiet)]
    assert [f"{w:.0f} training" in c for w, c in zip(want, cells)] == [True, True]
    d = to_dict(cmp)
    assert [b["noise"]["training"] for b in d["builds"]] == [round(w, 1) for w in want]
    assert d["builds"][0]["noise"]["training"] > d["builds"][1]["noise"]["training"]
