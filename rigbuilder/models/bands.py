"""Printed bands: the error within which a share of published cases lies (no imports, for every model)."""
from __future__ import annotations

import math
from typing import Sequence


def percentile_band(errors: Sequence[float], share: float = 0.8) -> float:
    """The smallest |error| that at least ``share`` of ``errors`` lie within (0 for no errors)."""
    ordered = sorted(abs(e) for e in errors)
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]
