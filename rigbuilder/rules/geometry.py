"""Where cards sit and how much air they get: the one place for the slot pitch, a card's span, the
gap in front of its fans and the thresholds that judge it. The checks (thermal, slots), the
arranger's quick scoring and the board drawing's markings all use these."""
from __future__ import annotations

from typing import Optional

from rigbuilder.domain.findings import Severity
from rigbuilder.domain.parts import GPU, SLOT_PITCH_MM

MIN_GAP_MM = SLOT_PITCH_MM
"""Air an open-air card needs in front of its fans: one free expansion slot (20.32 mm)."""
TOUCHING_MM = 0.5
"""Less than this and the fans press against the next card: an error, not a warning."""
TOLERANCE_MM = 0.01
"""Slot widths are quarter slots: gaps differ by 5.08 mm, so this only absorbs rounding."""


def span(card: GPU) -> int:
    """Expansion positions a card covers (its slot width rounded up)."""
    return card.span


def gap_mm(upper_position: int, upper_slot_width: float, lower_position: int) -> float:
    """Millimetres between the fan side of a card in ``upper_position`` and whatever sits in
    ``lower_position`` (a card, or the case floor one past its last position); negative: overlap."""
    return (lower_position - upper_position - upper_slot_width) * SLOT_PITCH_MM


def overlapping(gap: float) -> bool:
    return gap < -TOLERANCE_MM


def gap_severity(gap: float) -> Optional[Severity]:
    """How a gap in front of open-air fans is judged: None when there is enough air (or the cards
    overlap, which slot.overlap reports), an error when the fans touch, else a warning."""
    if gap >= MIN_GAP_MM - TOLERANCE_MM or overlapping(gap):
        return None
    return Severity.ERROR if gap < TOUCHING_MM else Severity.WARNING


def cooler_unconfirmed(gpu) -> bool:
    """The card's cooler type is community data no source confirmed (read from OpenDB's fan count
    or derived from the product line): a finding resting on it is at most a warning."""
    return gpu.community and "cooler" in gpu.unverified


def fan_gap_severity(card: GPU, gap: float) -> Optional[Severity]:
    """How the gap in front of ``card``'s fans is judged (the check, the arranger and the optimiser
    all ask here): ``gap_severity`` for an open-air card, at most a warning when its cooler type is
    unconfirmed community data, None for a blower or passive card."""
    if card.cooler != "open-air":
        return None
    sev = gap_severity(gap)
    if sev is Severity.ERROR and cooler_unconfirmed(card):
        return Severity.WARNING
    return sev


def fits_case(position: int, card: GPU, case_slots: Optional[int]) -> bool:
    """Whether a card in ``position`` stays within the case's expansion slots (no case: yes)."""
    return case_slots is None or position + span(card) - 1 <= case_slots
