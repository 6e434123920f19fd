"""One geometry for the checks and the arranger, and the board markings decided in the core."""
from __future__ import annotations

import pytest

from rigbuilder.domain.findings import Severity
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.geometry import MIN_GAP_MM, fits_case, gap_mm, gap_severity, overlapping, span
from rigbuilder.rules.marks import card_marks, gap_marks, overlap_marks
from tests.builds import ZOTAC_2070, frank_2070


@pytest.mark.parametrize("upper, width, lower, severity", [
    (1, 2, 3, Severity.ERROR),  # fans against the next card
    (1, 2.5, 4, Severity.WARNING),  # half a slot of air
    (1, 2, 4, None),  # one free slot: enough
    (1, 3, 3, None),  # overlap: slot.overlap says so, not the gap
])
def test_gap_thresholds(upper, width, lower, severity):
    assert gap_severity(gap_mm(upper, width, lower)) is severity


def test_geometry_basics(index):
    card = index.get(ZOTAC_2070)
    assert span(card) == 2 and gap_mm(1, 2, 4) == pytest.approx(MIN_GAP_MM)
    assert overlapping(gap_mm(1, 3, 3)) and not overlapping(gap_mm(1, 2, 3))
    assert fits_case(6, card, 7) and not fits_case(7, card, 7) and fits_case(7, card, None)


def test_marks_follow_the_findings(index):
    fs = run_checks(frank_2070(2, positions=(1, 3)), index)  # GPU 1's fans against GPU 2
    gaps = gap_marks(fs)
    assert [(g.gpu, g.gap_mm, g.severity) for g in gaps] == [(1, 0.0, Severity.ERROR)]
    assert gaps[0].label == "0 mm gap\n(needs 20)"
    assert card_marks(fs)[1] is Severity.ERROR
    assert overlap_marks(fs) == []
    b = frank_2070(2, positions=(1, 2))  # GPU 2 in the slot GPU 1 covers
    b.gpus[1].position = 2
    ov = overlap_marks(run_checks(b, index))
    assert [o.gpus for o in ov] == [(1, 2)]
