"""Adviser: scaling over the build's links, the build's throughput, value per money and per watt."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import MOUNT_RISER, Build, GpuPlacement, Settings
from rigbuilder.models import perf
from rigbuilder.models import scaling as S
from rigbuilder.models import throughput as T
from rigbuilder.models import value as Val
from rigbuilder.models import workloads as W
from tests.builds import RTX3090_FE, x99_4x3090


def test_measured_scaling_figures():
    bert, cnn = W.workload("bert-training"), W.workload("cnn-training")
    good = [S.CardLink(i, 16, 4) for i in (1, 2)]
    assert S.efficiency(cnn, 2, good, chip="GeForce RTX 3090") == 0.97
    assert S.efficiency(bert, 2, good, chip="GeForce RTX 3090") == 0.86
    assert S.efficiency(bert, 4, [S.CardLink(i, 16, 5) for i in range(4)], chip="H100 PCIe 80 GB") == 0.93
    assert S.efficiency(bert, 1) == 1.0
    # an unmeasured chip uses the RTX 3090 pair's figures; more cards lose more
    assert S.efficiency(bert, 2, good, chip="GeForce RTX 4090") == 0.86
    assert S.efficiency(bert, 4, chip="GeForce RTX 4090") < 0.86


def test_narrow_chipset_and_riser_links_lower_it():
    bert = W.workload("bert-training")
    good = [S.CardLink(1, 16, 4), S.CardLink(2, 8, 4)]
    e_good = S.efficiency(bert, 2, good)
    assert e_good == 0.86  # x8 at Gen4 loses nothing
    x4 = S.explain(bert, 2, [S.CardLink(1, 16, 4), S.CardLink(2, 4, 4)])
    assert x4[0] < e_good and any("x4" in r for r in x4[1])
    chipset = S.explain(bert, 2, [S.CardLink(1, 16, 4), S.CardLink(2, 4, 4, "chipset", slot="PCIEX4")])
    assert chipset[0] < x4[0] and any("GPU 2 on a chipset x4 slot" in r for r in chipset[1])
    riser = S.efficiency(bert, 2, [S.CardLink(1, 16, 4), S.CardLink(2, 8, 4, riser=True)])
    assert riser < e_good
    # the formula: e' = 1 / (1 + (1/e - 1) r), r = 15.75 / 7.876 for x4 Gen4
    r = 8 * 1.969 / (4 * 1.969)
    assert x4[0] == pytest.approx(1 / (1 + (1 / 0.86 - 1) * r))


def test_inference_scaling():
    inf = W.workload("llm-inference")
    assert S.efficiency(inf, 4) == 1.0
    assert S.efficiency(inf, 2, strategy="pipeline") == pytest.approx(min(1, 47.72 / 47.40) / 2)


def test_build_throughput_four_limited_3090s(index):
    b = x99_4x3090(limit_w=280, gpu=RTX3090_FE)
    wl = W.workload("cnn-training")
    bt = S.build_throughput(b, index, wl)
    one = T.estimate(index.get(RTX3090_FE), wl).value
    assert bt.n_gpus == 4 and bt.fits and bt.strategy == "replicated"
    assert len(bt.cards) == 4 and all(c.link is not None for c in bt.cards)
    assert bt.cards[0].rate == pytest.approx(one * perf.throughput(280 / 350))
    assert bt.value == pytest.approx(bt.cards[0].rate * 4 * bt.efficiency)
    assert bt.to_dict()["cards"][0]["power_fraction"] == pytest.approx(0.8)


def test_build_throughput_qlora_70b_on_four_24gb_cards_shards(index):
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    bt = S.build_throughput(b, index, W.workload("qlora", 70e9))
    assert bt.fits and bt.strategy == "zero3"
    one = S.build_throughput(Build(gpus=[GpuPlacement(RTX3090_FE, 1)]), index, W.workload("qlora", 70e9))
    assert not one.fits and one.value == 0.0


def test_build_with_a_chipset_card_says_why(index):
    b = Build(motherboard="mb-gigabyte-x570s-aorus-master", gpus=[GpuPlacement(RTX3090_FE, 2),
                                                                  GpuPlacement(RTX3090_FE, 7)])
    bt = S.build_throughput(b, index, W.workload("bert-training"))
    assert bt.efficiency < 0.86
    assert any("GPU 2 on a chipset x4 slot" in r for r in bt.reasons)


def test_build_without_gpus(index):
    bt = S.build_throughput(Build(), index, W.workload("lora"))
    assert bt.n_gpus == 0 and not bt.fits


def test_value_per_money_and_watt(index):
    g = index.get("gpu-nvidia-rtx-4090-fe")
    t = T.estimate(g, W.workload("cnn-training"))
    s = Settings(price_per_kwh=0.30, currency="USD", load_hours_per_day=8)
    v = Val.value(g, t, index, s, years=3)
    assert v.price is not None and v.per_money == pytest.approx(t.value / v.price)
    assert v.per_watt == pytest.approx(t.value / 450)
    energy = 450 * 8 / 1000 * 365 * 0.30
    assert v.energy_per_year == pytest.approx(energy)
    work = t.value * 8 * 3600 * 365 * 3
    assert v.cost_per_million == pytest.approx((v.price + 3 * energy) / work * 1e6)


def test_value_in_another_currency_and_without_price(index):
    g = index.get("gpu-nvidia-rtx-4090-fe")
    t = T.estimate(g, W.workload("cnn-training"))
    usd = Val.value(g, t, index, Settings(currency="USD"))
    eur = Val.value(g, t, index, Settings(currency="EUR"))
    assert eur.price is not None and eur.price != usd.price and "EUR per USD" in eur.price_trace
    nop = index.get("gpu-nvidia-a100-pcie-80gb")
    v = Val.value(nop, T.estimate(nop, W.workload("cnn-training")), index, Settings(currency="USD"))
    if v.price is None:
        assert v.per_money is None and v.cost_per_million is None and "no price" in v.price_trace
    with pytest.raises(ValueError):
        Val.value(g, t, index, Settings(), years=-1)
