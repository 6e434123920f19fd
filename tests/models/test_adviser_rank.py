"""Adviser ranking: the array figures equal the single-card models; budgets, counts, caveats."""
from __future__ import annotations

import math

import pytest

from rigbuilder.models import adviser as A
from rigbuilder.models import scaling as S
from rigbuilder.models import throughput as T
from rigbuilder.models import vram as V
from rigbuilder.models import workloads as W


@pytest.fixture(scope="module")
def table(index):
    return A.CardTable.of(index.of_kind("gpu"))


@pytest.mark.parametrize("wid,params,n", [("cnn-training", None, 1), ("qlora", 70e9, 4), ("llm-inference", 13e9, 2),
                                          ("llm-full-finetune", 13e9, 4), ("diffusion-inference", None, 2)])
def test_figures_equal_the_single_card_models(table, wid, params, n):
    wl = W.workload(wid, params)
    f = A.figures(table, wl, n)
    for i, g in enumerate(table.gpus):
        t = T.estimate(g, wl, table.ratios)
        assert f.rate[i] == pytest.approx(t.value, rel=1e-12)
        assert bool(f.measured[i]) == t.measured and bool(f.scaled[i]) == (t.basis == "scaled")
        assert bool(f.fits_alone[i]) == V.fits(V.need(wl), g)
        s, _ = V.best_strategy(wl, g, n)
        assert f.strategy_n[i] == s
        if s is None:
            assert f.total[i] == 0
        elif wl.kind == "llm-inference":
            split = s in ("pipeline", "tensor")
            assert f.total[i] == pytest.approx(T.estimate(g, wl, table.ratios, n_cards=n if split else 1).value)
        elif wl.training and n > 1:
            eff = S.efficiency(wl, n, S.good_links(n, g), rate=t.value, strategy=s)
            assert f.total[i] == pytest.approx(t.value * n * eff)
        else:
            assert f.total[i] == pytest.approx(t.value * n)


def test_rank_qlora_70b(index):
    recs = A.rank(index, W.workload("qlora", 70e9), currency="USD", limit=0)
    assert recs
    by = {r.gpu.id: r for r in recs}
    assert by["gpu-nvidia-rtx-a6000"].n_gpus == 1  # 48 GB holds a 70B QLoRA
    r3090 = by["gpu-nvidia-rtx-3090-fe"]
    assert r3090.n_gpus == 2 and r3090.strategy in ("zero3", "tensor") and r3090.need_gb <= 24 * V.GIB_IN_GB
    totals = [r.total for r in recs]
    assert totals == sorted(totals, reverse=True)


def test_rank_with_budget_and_gpus(index):
    recs = A.rank(index, W.workload("qlora", 70e9), n_gpus=4, budget=3000, currency="EUR", limit=0)
    assert recs and all(r.n_gpus == 4 and r.price_total is not None and r.price_total <= 3000 for r in recs)
    assert all(r.per_money == pytest.approx(r.total / r.price_total) for r in recs)
    value = A.rank(index, W.workload("cnn-training"), currency="USD", sort="value", limit=5)
    pm = [r.per_money for r in value]
    assert pm == sorted(pm, reverse=True)
    with pytest.raises(ValueError):
        A.rank(index, W.workload("cnn-training"), budget=-1)
    with pytest.raises(ValueError):
        A.rank(index, W.workload("cnn-training"), sort="cheapest")


def test_layout_caveat_names_unverified_layout_fields(index):
    g = index.get("gpu-evga-rtx-3090-ftw3-ultra")
    assert "slot width" in A.layout_caveat(g)
    assert A.layout_caveat(index.get("gpu-nvidia-rtx-3090-fe")) == ""
    # tensor TFLOPS being unverified says nothing about the card's layout
    assert A.layout_caveat(index.get("gpu-nvidia-rtx-3080-ti-fe")) == ""


def test_prices_missing_are_nan_and_said(index, table):
    amounts, traces = table.prices(index, "USD")
    i = table.ids.index("gpu-nvidia-rtx-a4500")
    assert math.isnan(amounts[i]) and traces[i] == "no price known"


def test_rank_prices_carry_the_regions_tax_like_the_optimisers(index):
    """A German buyer's price of a US-priced card: converted, + 19% VAT, and said so; a US buyer's:
    the US price before sales tax (the same figure ``models.prices.price_part`` gives the optimiser)."""
    from rigbuilder.models.prices import price_part

    wl = W.workload("qlora", 70e9)
    de = {r.gpu.id: r for r in A.rank(index, wl, currency="EUR", limit=0, region="DE-16A")}
    plain = {r.gpu.id: r for r in A.rank(index, wl, currency="EUR", limit=0)}
    us = {r.gpu.id: r for r in A.rank(index, wl, currency="USD", limit=0, region="US-15A")}
    gid = "gpu-nvidia-rtx-3090-fe"
    pp = price_part(gid, "EUR", index, region="DE-16A")
    assert pp is not None and pp.observation.currency == "USD"
    assert de[gid].price_each == pytest.approx(pp.amount)
    assert de[gid].price_each == pytest.approx(plain[gid].price_each * 1.19)
    assert "19%" in de[gid].price_trace and "19%" not in plain[gid].price_trace
    assert us[gid].price_each == pytest.approx(pp.observation.amount)
    assert "before" in us[gid].price_trace
