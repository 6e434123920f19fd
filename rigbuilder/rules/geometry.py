"""Where cards sit and how much air they get: the one place for the slot pitch, a card's span, which
slot a card goes into, the gap in front of its fans, how a link's width is judged, the thresholds
that judge them and which findings are about placement. The checks (slots, lanes, thermal), the
arranger, the optimiser and the board drawing's markings all use these."""
from __future__ import annotations

from typing import Optional

from rigbuilder.domain.findings import Severity
from rigbuilder.domain.parts import GPU, SLOT_PITCH_MM, PcieSlot

MIN_GAP_MM = SLOT_PITCH_MM
"""Air an open-air card needs in front of its fans: one free expansion slot (20.32 mm)."""
TOUCHING_MM = 0.5
"""Less than this and the fans press against the next card: an error, not a warning."""
TOLERANCE_MM = 0.01
"""Slot widths are quarter slots: gaps differ by 5.08 mm, so this only absorbs rounding."""
RECOMMENDED_LANES = 8
"""Lanes a GPU's link should have for multi-GPU training; fewer is a warning, x1 or none an error."""

CARD_PLACEMENT_CODES = ("slot.", "thermal.open-air-gap", "lanes.width", "case.expansion-slots", "riser.slot")
"""Errors about where one card sits (each names its cards): moving cards can clear them (the
arranger's measure of a placement)."""
PLACEMENT_CODES = CARD_PLACEMENT_CODES + ("lanes.",)
"""Every finding that depends on where the cards sit: on the board, CPU, drives, case size and the
positions, never on the other parts (so an optimiser's verdict removes a placement, not the parts)."""


def span(card: GPU) -> int:
    """Expansion positions a card covers (its slot width rounded up)."""
    return card.span


def fits_slot(card: GPU, slot: PcieSlot) -> bool:
    """Whether the card's connector goes into the slot: a closed slot narrower than the card does
    not take it (slot.physical); an open-ended slot takes any card."""
    return card.pcie_lanes <= slot.physical or slot.open_ended


def covers(upper_position: int, card: GPU, lower_position: int) -> bool:
    """Whether a card in ``upper_position`` covers ``lower_position`` (a card there: slot.overlap)."""
    return upper_position <= lower_position < upper_position + span(card)


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


def lane_severity(width: int) -> Optional[Severity]:
    """How a GPU link of ``width`` lanes is judged (lanes.width): no link or x1 an error, under
    x8 a warning, else nothing."""
    if width <= 1:
        return Severity.ERROR
    return Severity.WARNING if width < RECOMMENDED_LANES else None


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


def case_slots_needed(position: int, card: GPU, air: bool = False) -> int:
    """The fewest expansion positions a case needs for ``card`` in ``position`` (``fits_case``); with
    ``air``, an open-air card also keeps a full slot of air above the case floor (no
    thermal.open-air-gap there)."""
    need = position + span(card) - 1
    if air and card.cooler == "open-air":
        while gap_severity(gap_mm(position, card.slot_width, need + 1)) is not None:
            need += 1
    return need
