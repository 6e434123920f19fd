"""Throughput under a power limit: a documented *model*, calibrated on published figures.

Calibration points: a 10-20% limit costs under 5% of performance (Makropoulos 2023);
Puget measured 4x RTX 3090 from 350 W to 280 W (80%) keeping over 95% of TensorFlow throughput.
Model: throughput = p ** ALPHA for p >= 0.7 of board power, with ALPHA chosen so that p = 0.8
keeps 96%; below 0.7 throughput falls in proportion to power (an extrapolation, labelled as such).
"""
from __future__ import annotations

import math

from rigbuilder.domain.fields import POWER_LIMIT_FLOOR

ALPHA = math.log(0.96) / math.log(0.8)
KNEE = 0.7
MIN_FRACTION = POWER_LIMIT_FLOOR
"""The lowest power limit a card takes, as a fraction of board power (``domain.fields``)."""


def throughput(fraction: float) -> float:
    """Relative throughput at ``fraction`` of board power (1.0 = no limit)."""
    p = min(1.0, max(0.0, fraction))
    if p >= KNEE:
        return p ** ALPHA
    return KNEE ** ALPHA * p / KNEE


def is_extrapolated(fraction: float) -> bool:
    return fraction < KNEE
