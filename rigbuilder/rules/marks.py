"""What the board drawing marks for a set of findings: which cards get a colour, which gaps in
front of fans are shown with their figure, which card bodies overlap. Decided here, next to the
rules that know the thresholds; the board view only draws what it is told."""
from __future__ import annotations

from dataclasses import dataclass

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.rules.geometry import MIN_GAP_MM


@dataclass(frozen=True)
class GapMark:
    """Too little air in front of the fans of card ``gpu`` (1-based)."""

    gpu: int
    gap_mm: float
    min_gap_mm: float
    severity: Severity
    message: str
    fix: str

    @property
    def label(self) -> str:
        return f"{self.gap_mm:.0f} mm gap\n(needs {self.min_gap_mm:.0f})"


@dataclass(frozen=True)
class OverlapMark:
    """Two cards (1-based) whose bodies take the same space."""

    gpus: tuple[int, int]
    message: str


def card_marks(findings: list[Finding]) -> dict[int, Severity]:
    """The worst error or warning naming each card (1-based); information colours nothing."""
    out: dict[int, Severity] = {}
    for f in findings:
        if f.severity is Severity.INFO:
            continue
        for n in f.gpus:
            if n not in out or f.severity.rank < out[n].rank:
                out[n] = f.severity
    return out


def gap_marks(findings: list[Finding]) -> list[GapMark]:
    out = []
    for f in findings:
        if f.code != "thermal.open-air-gap" or not f.gpus:
            continue
        fig = dict(f.figures)
        out.append(GapMark(f.gpus[0], float(fig.get("gap_mm", 0.0)), float(fig.get("min_gap_mm", MIN_GAP_MM)),
                           f.severity, f.message, f.fix or ""))
    return out


def overlap_marks(findings: list[Finding]) -> list[OverlapMark]:
    return [OverlapMark((f.gpus[0], f.gpus[1]), f.message) for f in findings
            if f.code == "slot.overlap" and len(f.gpus) == 2]
