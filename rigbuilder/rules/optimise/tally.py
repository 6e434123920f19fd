"""What one search counts and notes as it goes: how many candidates each bound removed, the parts
left out for want of a price, the engine's reasons for rejecting builds, how far the search got and
the least purchase now it met. The answer reports the counts; ``explain`` reads the notes to say why
no build met the request."""
from __future__ import annotations

from typing import Optional

from rigbuilder.domain.findings import Finding

STAGES = ["gpu", "board", "parts", "engine"]
"""How far a search got (the reason for no answer names the furthest)."""


class Tally:
    def __init__(self) -> None:
        self.bounds: dict[str, int] = {}
        self.excluded: dict[str, int] = {}
        self.left_out: list[str] = []
        self.reject_codes: dict[str, tuple[int, str]] = {}
        self.judged = 0
        self.stage_reached = "gpu"
        self.min_floor_now: Optional[float] = None

    def count(self, bound: str, n: int = 1) -> None:
        self.bounds[bound] = self.bounds.get(bound, 0) + n

    def reach(self, stage: str) -> None:
        self.stage_reached = max(self.stage_reached, stage, key=STAGES.index)

    def fail(self, stage: str, text: str) -> None:
        """A kind of part (or the circuit) that stopped a candidate, with the first reason given."""
        self.reject_codes.setdefault("stage:" + stage, (0, text))
        n, t = self.reject_codes["stage:" + stage]
        self.reject_codes["stage:" + stage] = (n + 1, t)

    def note_rejects(self, bad: list[Finding]) -> None:
        for f in bad:
            n, msg = self.reject_codes.get(f.code, (0, f.message))
            self.reject_codes[f.code] = (n + 1, msg)

    def note_floor_now(self, now: float) -> None:
        """A lower bound on the purchase now of some builds (the budget answer names the least)."""
        self.reach("parts")
        self.min_floor_now = now if self.min_floor_now is None else min(self.min_floor_now, now)
