"""Throughput under a power limit, per kind of work, against published sweeps."""
from __future__ import annotations

import pytest

from rigbuilder.models import perf


def test_the_decode_curve_is_the_published_sweep_and_flat_where_it_was_measured_flat():
    for p, v in perf.DECODE_SWEEP:
        assert perf.throughput(p, "decode") == pytest.approx(v)
    # memory-bound decoding loses little to a limit that costs training far more
    assert perf.throughput(0.6, "decode") > 0.94 > perf.throughput(0.6, "training")
    assert perf.throughput(1.0, "decode") == perf.throughput(1.0, "training") == 1.0
    assert not perf.is_extrapolated(perf.MIN_FRACTION, "decode") and perf.is_extrapolated(0.6, "training")


@pytest.mark.parametrize("fraction, published", [
    (150 / 180, 80.4 / 81.2),  # InventiveHQ, RTX 5060 Ti, llama.cpp, 2026 (held out)
    (162 / 180, 81.4 / 81.2),
    (280 / 350, 0.99),  # Jean F. Brito, RTX 3090, llama.cpp: "less than 1% performance loss", 2026 (held out)
])
def test_decode_sweeps_not_used_to_build_the_curve_lie_within_two_percent(fraction, published):
    assert perf.throughput(fraction, "decode") == pytest.approx(published, rel=0.02)


def test_llm_inference_takes_the_decode_curve():
    assert perf.kind_of("llm-inference") == "decode"
    assert {perf.kind_of(k) for k in ("image-training", "transformer-training", "llm-finetune",
                                      "diffusion-inference")} == {"training"}
