"""Throughput under a power limit carries its curve's held-out band (issue 39)."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from rigbuilder.models import estimates as E
from rigbuilder.models import perf


def test_of_power_limit_is_the_curve_with_its_band():
    b = E.of_power_limit(0.8, "training")
    assert b.value == pytest.approx(perf.throughput(0.8)) and b.band == perf.band("training") and b.how == "held-out"
    d = E.of_power_limit(0.6, "decode")
    assert d.value == pytest.approx(perf.throughput(0.6, "decode")) and d.band == perf.band("decode")
    assert E.of_power_limit(1.0).pair() == (1.0, 0.0)


def _bt(fracs, measured=False, err=0.10, kind="image-training", n=1):
    cards = tuple(SimpleNamespace(power_fraction=f, throughput=SimpleNamespace(held_out_band=False)) for f in fracs)
    return SimpleNamespace(measured=measured, value=100.0, unit="images/s", typical_error=err, cards=cards,
                           n_gpus=n, workload=SimpleNamespace(kind=kind))


def test_a_build_under_a_limit_joins_the_curves_band_and_one_without_keeps_its_own():
    free = E.of_build(_bt([1.0]))
    assert free.band == pytest.approx(0.10) and free.how == "leave-one-out" and E.power_limited(_bt([1.0])) is None
    lim = E.of_build(_bt([1.0, 0.7], n=2))
    assert lim.band == pytest.approx(math.hypot(0.10, perf.band("training"))) and lim.how == "held-out"
    dec = E.of_build(_bt([0.7], kind="llm-inference"))
    assert dec.band == pytest.approx(math.hypot(0.10, perf.band("decode")))
    # a rate measured at full power, scaled by the curve: the curve's band, no longer 'measured'
    m = E.of_build(_bt([0.8], measured=True))
    assert m.band == pytest.approx(perf.band("training")) and m.how == "held-out"
    assert E.of_build(_bt([1.0], measured=True)).how == "measured"
    assert E.of_build(_bt([0.8], err=None)).band is None
