"""Throughput under a power limit, per kind of work: documented *models*, calibrated on published figures.

Training (``"training"``, compute-bound): a 10-20% limit costs under 5% of performance (Makropoulos 2023);
Puget Systems measured 4x RTX 3090 from 350 W to 280 W (80%) keeping over 95% of TensorFlow throughput.
Model: throughput = p ** ALPHA for p >= 0.7 of board power, with ALPHA chosen so that p = 0.8 keeps 96%;
below 0.7 throughput falls in proportion to power (an extrapolation, labelled as such).

LLM token generation (``"decode"``, memory-bound: each token reads every weight once, so the clocks a
limit takes away matter little until the memory controller itself is starved): the published sweep of
``DECODE_SWEEP`` (LLM Garage, six RTX 3090 with llama.cpp, 2026), interpolated linearly between its
points. Checked against sweeps not used to build it (docs/models.md): InventiveHQ's RTX 5060 Ti with
llama.cpp (2026; 150 W and 162 W of 180 W) and Jean F. Brito's RTX 3090 (2026; 280 W of 350 W "less
than 1% performance loss").

Bands (``band``): the 80th percentile of each curve's errors on the published sweeps held out of it
(``HELD_OUT``); training: qwertyforce's RTX 3090 ViT-Base sweeps (FP32, TF32). ``STRESS_TEST`` is the gpu-burn
case issue 39 cites, outside the training band and not a training load (docs/models.md).
"""
from __future__ import annotations

import math

from rigbuilder.domain.fields import POWER_LIMIT_FLOOR

ALPHA = math.log(0.96) / math.log(0.8)
KNEE = 0.7
MIN_FRACTION = POWER_LIMIT_FLOOR
"""The lowest power limit a card takes, as a fraction of board power (``domain.fields``)."""
KINDS = ("training", "decode")

DECODE_SOURCE = ("LLM Garage, \u201cTokens-per-Second Test Bench: Power Limit Sweep\u201d (6x RTX 3090, llama.cpp, "
                 "decode at 4K context), 2026")
DECODE_SWEEP = ((100 / 350, 12.1 / 72.6), (150 / 350, 62.6 / 72.6), (200 / 350, 68.3 / 72.6),
                (250 / 350, 70.7 / 72.6), (300 / 350, 72.1 / 72.6), (1.0, 1.0))
"""(power limit / board power, tokens/s / tokens/s at board power), from ``DECODE_SOURCE``."""


def kind_of(workload_kind: str) -> str:
    """The curve a workload kind runs on (``models.workloads.WORKLOAD_KINDS``): LLM inference decodes;
    everything else trains or computes."""
    from rigbuilder.models.workloads import WORKLOAD_KINDS

    return WORKLOAD_KINDS[workload_kind].curve


def _interpolate(points, p: float) -> float:
    if p <= points[0][0]:
        return points[0][1] * p / points[0][0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if p <= x1:
            return y0 + (y1 - y0) * (p - x0) / (x1 - x0)
    return points[-1][1]


def throughput(fraction: float, kind: str = "training") -> float:
    """Relative throughput at ``fraction`` of board power (1.0 = no limit) for ``kind`` of work."""
    p = min(1.0, max(0.0, fraction))
    if kind == "decode":
        return _interpolate(DECODE_SWEEP, p)
    if p >= KNEE:
        return p ** ALPHA
    return KNEE ** ALPHA * p / KNEE


def is_extrapolated(fraction: float, kind: str = "training") -> bool:
    if kind == "decode":
        return fraction < DECODE_SWEEP[0][0]
    return fraction < KNEE


# --- The curves' bands: published sweeps not used to build them (held out) -------------------------------------

HELD_OUT = {
    "decode": (
        # (source, power limit / reference power, published throughput / throughput at the reference)
        ("InventiveHQ, RTX 5060 Ti, llama.cpp, 2026", 150 / 180, 80.4 / 81.2),
        ("InventiveHQ, RTX 5060 Ti, llama.cpp, 2026", 162 / 180, 81.4 / 81.2),
        ("Jean F. Brito, \u201cRTX 3090 Power Limit: Finding the Sweet Spot for Local LLM Inference\u201d, 2026",
         280 / 350, 0.99),
    ),
    "training": (
        # qwertyforce, "Optimal power limit for deep learning tasks on RTX 3090" (blog; no year stated): ViT-Base
        # (timm vit_base_patch16_224) training at batch 160 on an RTX 3090 whose highest limit is 480 W, each limit's
        # speed given as a share of the speed at 480 W; the reference power is therefore 480 W.
        ("qwertyforce, RTX 3090, ViT-Base training, FP32", 280 / 480, 0.80),
        ("qwertyforce, RTX 3090, ViT-Base training, FP32", 330 / 480, 0.90),
        ("qwertyforce, RTX 3090, ViT-Base training, FP32", 380 / 480, 0.95),
        ("qwertyforce, RTX 3090, ViT-Base training, TF32", 230 / 480, 0.80),
        ("qwertyforce, RTX 3090, ViT-Base training, TF32", 280 / 480, 0.90),
        ("qwertyforce, RTX 3090, ViT-Base training, TF32", 320 / 480, 0.95),
    ),
}
"""Published sweeps held out of the curves, per kind: (source, fraction, published relative throughput)."""

STRESS_TEST = ("Nodehome, \u201cPower Caps On Three RTX 3090s: Bursts Versus Sustained Load\u201d", 250 / 300, 0.73)
"""The case issue 39 cites: three RTX 3090s running gpu-burn (a stress test that keeps every unit busy, not
training) lost about 27% going from 300 W to 250 W. No curve here models such a load; it lies outside the
training band and is listed, not hidden (docs/models.md)."""


def relative_error(kind: str, fraction: float, published: float) -> float:
    """The curve's error against one published point: curve / published - 1."""
    return throughput(fraction, kind) / published - 1


def held_out_errors(kind: str) -> list[float]:
    """The curve's relative errors on the published sweeps held out of it (``HELD_OUT``)."""
    return [relative_error(kind, f, v) for _src, f, v in HELD_OUT[kind]]


def band(kind: str = "training") -> float:
    """The curve's printed band: the 80th percentile (nearest rank) of its held-out absolute errors."""
    errs = sorted(abs(e) for e in held_out_errors(kind))
    return errs[max(0, math.ceil(0.8 * len(errs)) - 1)]
