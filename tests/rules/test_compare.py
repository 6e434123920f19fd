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


def test_a_verdict_per_workload_and_the_kind_of_price_each_total_rests_on(index):
    """Issue 43: the table ends with one line per workload and says which kind of price each total rests on."""
    wls = [workload("qlora", 13e9), workload("llm-inference", 70e9, precision="q4_k_m")]
    cmp = C.compare([("A", one_4090()), ("B", two_3090())], index, wls, years=3)
    a, b = cmp.columns
    v = C.verdicts(cmp)
    assert len(v) == 2
    assert v[1] == "LLM inference, Llama 2 70B, q4_k_m: only B fits"  # 48 GB against 24 GB
    fast, slow = (a, b) if a.throughput[0].value > b.throughput[0].value else (b, a)
    pct = fast.throughput[0].value / slow.throughput[0].value - 1
    # the QLoRA rates carry the fine-tuning band (held out, about ±28%): a difference inside it names no winner
    assert v[0].startswith(f"QLoRA, Llama 2 13B, nf4: {fast.label} and {slow.label} are within the estimates' ±")
    assert f"of each other ({pct:.0%} apart): no clear winner; " in v[0]
    cheaper = fast.purchase.total < slow.purchase.total
    assert ("cheaper" if cheaper else "more") in v[0]
    assert v[0].endswith("(prices incomplete)") == (not (a.purchase.complete and b.purchase.complete))
    # the used build's cards rest on used marketplace prices, the new one's on street prices
    assert "used marketplace prices (2 parts)" in C.price_kinds(b.purchase)
    assert "used" not in C.price_kinds(a.purchase) and "street prices" in C.price_kinds(a.purchase)
    heads, rows, notes = C.table(cmp)
    assert ("prices the purchase rests on", [C.price_kinds(a.purchase), C.price_kinds(b.purchase)]) in rows
    d = C.to_dict(cmp)
    assert d["verdicts"] == v and d["builds"][1]["purchase"]["price_kinds"] == C.price_kinds(b.purchase)


def test_verdict_when_none_fits_or_both_are_as_fast(index):
    wl = workload("llm-inference", 70e9, precision="fp16")  # 140 GB: neither
    cmp = C.compare([("A", one_4090()), ("B", one_4090())], index, [wl, workload("qlora", 13e9)], years=3)
    v = C.verdicts(cmp)
    assert v[0] == "LLM inference, Llama 2 70B, fp16: no build fits"
    assert v[1] == "QLoRA, Llama 2 13B, nf4: A and B are about as fast; about the same price (prices incomplete)"


def test_a_difference_inside_the_bands_names_no_winner():
    """Issue 39: 'A is 4% faster' when both figures are ±9% is inside the estimates' error: no winner."""
    from rigbuilder.models.estimates import Banded

    fig = lambda v, band, how="held-out": Banded("build-throughput", v, "images/s", band, how)  # noqa: E731
    assert C.speed_verdict("A", fig(1040, 0.09), "B", fig(1000, 0.09)) == \
        "A and B are within the estimates' \u00b19% of each other (4% apart): no clear winner"
    # the wider band counts; just past it, the faster is named
    assert "within the estimates' \u00b112%" in C.speed_verdict("A", fig(1110, 0.05), "B", fig(1000, 0.12))
    assert C.speed_verdict("A", fig(1130, 0.05), "B", fig(1000, 0.12)) == "A is 13% faster than B"
    # compared as printed: '15% faster' is inside '±15%' (a band of 0.147 and a difference of 0.149 both print 15%)
    assert "no clear winner" in C.speed_verdict("A", fig(1149, 0.147), "B", fig(1000, 0.147))
    assert C.speed_verdict("A", fig(1160, 0.147), "B", fig(1000, 0.147)) == "A is 16% faster than B"
    assert C.speed_verdict("A", fig(1010, 0.09), "B", fig(1000, 0.09)) == "A and B are about as fast"
    # measured figures (band 0) are told apart by any difference beyond 2%; an unknown band says so
    assert C.speed_verdict("A", fig(1040, 0.0, "measured"), "B", fig(1000, 0.0, "measured")) == \
        "A is 4% faster than B"
    assert C.speed_verdict("A", fig(1040, None, "unknown"), "B", fig(1000, 0.09)) == \
        "A is 4% faster than B (error band unknown)"


def test_the_table_and_json_carry_each_throughput_band(index):
    """Issue 39: every throughput cell reads 'value unit ±band' (models.estimates), and the JSON has the band
    beside the value and every estimate with its band."""
    from rigbuilder.models.estimates import of_build

    wl = workload("cnn-training")
    cmp = C.compare([("A", one_4090()), ("B", two_3090())], index, [wl], years=3)
    _heads, rows, _notes = C.table(cmp)
    cells = dict(rows)[C.workload_label(wl)]
    figs = [of_build(col.throughput[0]) for col in cmp.columns]
    assert figs[0].how == "measured" and str(cells[0]).startswith(f"{figs[0].value:,.0f} images/s, measured")
    assert figs[1].band > 0 and str(cells[1]) == f"{figs[1].value:,.0f} images/s \u00b1{figs[1].band:.0%}"
    d = C.to_dict(cmp)
    t = d["builds"][1]["throughput"][0]
    assert t["band"] == pytest.approx(of_build(cmp.columns[1].throughput[0]).band, abs=1e-4) and t["band"] > 0
    est = t["estimates"]
    assert est["throughput"]["band"] == t["band"] and est["throughput"]["low"] < t["value"] < est["throughput"]["high"]
    assert est["scaling"]["band"] > 0 and len(est["cards"]) == 2  # two training cards: the scaling fit's band too
