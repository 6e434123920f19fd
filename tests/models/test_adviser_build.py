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


def test_ring_allreduce_and_step_formula_by_hand():
    # 2(n-1)/n x bytes / busbw: 4 cards, 1.34 GB at 10 GB/s = 1.5 x 0.134 s
    assert S.allreduce_seconds(1.34e9, 4, 10.0) == pytest.approx(1.5 * 0.134)
    assert S.allreduce_seconds(1e9, 1, 10.0) == 0.0
    # a 0.5 s step, 0.201 s of communication, 20% of the 1/3 s backward hides 0.0667 s, 2% sync
    e = S.data_parallel_efficiency(0.5, 1.34e9, 4, 10.0, 0.2, sync_share=0.02)
    assert e == pytest.approx(0.5 / (0.5 * 1.02 + (0.201 - 0.2 * 2 / 3 * 0.5)))
    assert S.data_parallel_efficiency(0.5, 1.34e9, 4, 10.0, 1.0) == 1.0  # all of it hidden behind the backward pass
    assert S.data_parallel_efficiency(0.5, 1e9, 2, 0.0, 0.2) == 0.0


def test_bus_bandwidth_from_the_links():
    f = S.link_fit()
    p2p = S.CardLink(1, 16, 4, p2p=True)
    host = S.CardLink(2, 16, 4)
    chipset = S.CardLink(3, 4, 4, "chipset", slot="PCIEX4")
    assert p2p.bus(f.u_p2p, f.u_host) == pytest.approx(16 * 1.969 * f.u_p2p)
    assert host.bus(f.u_p2p, f.u_host) == pytest.approx(16 * 1.969 * f.u_host)
    assert chipset.bus(f.u_p2p, f.u_host) == pytest.approx(4 * 1.969 * f.u_host * 6.5 / 13.17)
    bus, worst = S.bus_bandwidth([p2p, host, chipset], f.u_p2p, f.u_host)
    assert worst is chipset and bus == chipset.bus(f.u_p2p, f.u_host)
    assert S.CardLink(1, 16, 4, riser=True).gbps == pytest.approx(16 * 0.985)  # a riser counted a generation lower
    assert S.CardLink(1, 16, 4, nvlink_gbs=56.25).bus(f.u_p2p, f.u_host) == pytest.approx(56.25 * f.u_p2p)
    assert str(chipset.describe()) == "x4 Gen4 through the chipset, no P2P"


def test_scaling_fit_against_lambdas_runs():
    """Six chips, two workloads, 2 to 8 cards; some held out of the fit. P2P cards scale better than
    GeForce cards on the same links (4x RTX 6000 Ada against 2x RTX 4090 on BERT-large)."""
    f = S.link_fit()
    chips = {c.chip for c in S.FIT_CASES}
    assert len(chips) >= 4 and {c.workload for c in S.FIT_CASES} == {"resnet50", "bert-large"}
    assert len(S.FIT_CASES_ALL) - len(S.FIT_CASES) == len(S.HELD_OUT) >= 3
    assert 0 < f.u_host < f.u_p2p <= 1.0 and 0 <= f.overlap <= 1
    assert f.mean_abs < 0.05 and f.held_out_mean_abs < 0.10 and f.max_abs < 0.15
    rows = {(c.chip, c.workload, c.n): e for c, e, _ in S.fit_report()}
    assert rows[("GeForce RTX 4090", "bert-large", 2)] < 0.8 < rows[("RTX 6000 Ada Generation", "bert-large", 4)]


def test_narrow_chipset_and_riser_links_lower_it():
    bert = W.workload("bert-training")
    good = [S.CardLink(1, 16, 4), S.CardLink(2, 16, 4)]
    e_good = S.efficiency(bert, 2, good, rate=52)
    x4 = S.explain(bert, 2, [S.CardLink(1, 16, 4), S.CardLink(2, 4, 4)], rate=52)
    assert x4[0] < e_good and "GPU 2: x4 Gen4 on CPU lanes, no P2P" in str(x4[1][0])
    chipset = S.explain(bert, 2, [S.CardLink(1, 16, 4), S.CardLink(2, 4, 4, "chipset", slot="PCIEX4")], rate=52)
    assert chipset[0] < x4[0] and any("GPU 2 on a chipset x4 slot" in str(r) for r in chipset[1])
    assert str(chipset[1][0]).startswith(f"GPU 2: x4 Gen4 through the chipset, no P2P: {chipset[0]:.2f}")
    riser = S.efficiency(bert, 2, [S.CardLink(1, 16, 4), S.CardLink(2, 16, 4, riser=True)], rate=52)
    assert riser < e_good
    # the formula: step 24 / 52 s, 335M fp32 gradients, the x4 link's bus bandwidth
    f = S.link_fit()
    bus = 4 * 1.969 * f.u_host
    assert x4[0] == pytest.approx(S.data_parallel_efficiency(24 / 52, 335e6 * 4, 2, bus, f.overlap,
                                                             sync_share=f.sync))
    # professional cards with P2P scale better than GeForce cards on the same links
    p2p = [S.CardLink(i, 16, 4, p2p=True) for i in (1, 2, 3, 4)]
    assert S.efficiency(bert, 4, p2p, rate=52) > S.efficiency(bert, 4, [S.CardLink(i, 16, 4) for i in (1, 2, 3, 4)],
                                                              rate=52)


def test_inference_scaling():
    inf = W.workload("llm-inference")
    assert S.efficiency(inf, 4) == 1.0
    assert S.efficiency(inf, 2, strategy="pipeline") == pytest.approx(1 / 2)


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
    assert bt.efficiency < S.efficiency(W.workload("bert-training"), 2, S.good_links(2, index.get(RTX3090_FE)),
                                        rate=bt.cards[0].throughput.value)
    assert any("GPU 2 on a chipset x4 slot" in str(r) for r in bt.reasons)
    assert "through the chipset, no P2P" in str(bt.reasons[0])


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
