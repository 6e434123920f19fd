"""Arrange: the placement of a build's GPUs with the fewest and mildest findings.

Ranking: fewer errors, then fewer warnings, then fewer infos; ties go to more airflow gap in front
of open-air fans, then more lanes. Every candidate placement is scored with a fast arithmetic
pre-score; the best candidates are then judged by the full check engine.
"""
from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass
from typing import Iterator, Optional

from rigbuilder.domain.build import MOUNT_SLOT, Build, GpuPlacement
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.parts import GPU, SLOT_PITCH_MM, Motherboard
from rigbuilder.models import lanes as lane_model
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import counts, run_checks

FULL_CHECKS = 24
MAX_CANDIDATES = 20000


@dataclass
class Arrangement:
    build: Build
    findings: list[Finding]
    fits: bool  # no error finding caused by placement
    advice: list[str]

    def positions(self) -> list[Optional[int]]:
        return [g.position for g in self.build.gpus]


def _multiset_perms(items: list[int], ids: list[str]) -> Iterator[tuple[int, ...]]:
    """Permutations of card indices, skipping those that only swap identical parts."""
    seen: set[tuple[str, ...]] = set()
    for perm in itertools.permutations(items):
        key = tuple(ids[i] for i in perm)
        if key in seen:
            continue
        seen.add(key)
        yield perm


def _prescore(board: Motherboard, cards: list[GPU], positions: tuple[int, ...], case_slots: Optional[int],
              cpu_lanes: Optional[int]) -> tuple:
    errors = warnings = 0
    gap_total = 0.0
    order = sorted(range(len(cards)), key=lambda i: positions[i])
    for a, b in zip(order, order[1:]):
        ca, pa, pb = cards[a], positions[a], positions[b]
        gap = (pb - pa - ca.slot_width) * SLOT_PITCH_MM
        if gap < -1e-6:
            errors += 1
        elif ca.cooler == "open-air":
            if gap < 0.5:
                errors += 1
            elif gap < SLOT_PITCH_MM - 0.01:
                warnings += 1
            gap_total += min(gap, 2 * SLOT_PITCH_MM)
    for i, c in enumerate(cards):
        slot = board.slot_at(positions[i])
        if slot is None:
            errors += 1
            continue
        if c.pcie_lanes > slot.physical and not slot.open_ended:
            errors += 1
        if case_slots is not None and positions[i] + max(1, -int(-c.slot_width // 1)) - 1 > case_slots:
            errors += 1
    used = {board.slot_at(p).id for p in positions if board.slot_at(p)}
    widths = lane_model.slot_widths(board, used, cpu_lanes)
    lanes = 0
    for i, c in enumerate(cards):
        slot = board.slot_at(positions[i])
        if slot is None:
            continue
        w = min(widths.get(slot.id, 0), c.pcie_lanes)
        lanes += w
        if w == 0 or w <= 1:
            errors += 1
        elif w < 8:
            warnings += 1
    return (errors, warnings, -gap_total, -lanes)


def arrange(build: Build, index: PartIndex) -> Arrangement:
    """Best placement of the build's board-mounted GPUs over the board's slots."""
    ctx = Context(build, index)
    board = ctx.board
    if board is None:
        raise ValueError("the build has no motherboard (or it is not in the catalog)")
    movable = [i for i, g in enumerate(build.gpus) if g.mount == MOUNT_SLOT and index.get(g.part_id)]
    cards: list[GPU] = [index.get(build.gpus[i].part_id) for i in movable]  # type: ignore[misc]
    slots = sorted(s.position for s in board.slots)
    case_slots = ctx.case.expansion_slots if ctx.case else None
    cpu_lanes = ctx.cpu.pcie_lanes if ctx.cpu else None
    if len(cards) > len(slots):
        return Arrangement(copy.deepcopy(build), run_checks(build, index), False,
                           [f"The {board.name} has {len(slots)} slots for {len(cards)} cards: put "
                            f"{len(cards) - len(slots)} card(s) on risers or choose a board with more slots."])
    ids = [c.id for c in cards]
    scored: list[tuple[tuple, tuple[int, ...]]] = []
    n = 0
    for subset in itertools.combinations(slots, len(cards)):
        for perm in _multiset_perms(list(range(len(cards))), ids):
            positions = tuple(subset[perm.index(i)] for i in range(len(cards)))
            scored.append((_prescore(board, cards, positions, case_slots, cpu_lanes), positions))
            n += 1
            if n >= MAX_CANDIDATES:
                break
        if n >= MAX_CANDIDATES:
            break
    scored.sort()
    best: Optional[tuple[tuple, Build, list[Finding]]] = None
    for pre, positions in scored[:FULL_CHECKS]:
        cand = copy.deepcopy(build)
        for k, i in enumerate(movable):
            cand.gpus[i] = GpuPlacement(cand.gpus[i].part_id, positions[k], MOUNT_SLOT,
                                        cand.gpus[i].power_limit_w)
        fs = run_checks(cand, index)
        c = counts(fs)
        key = (c["error"], c["warning"], c["info"], pre[2], pre[3])
        if best is None or key < best[0]:
            best = (key, cand, fs)
    assert best is not None or not cards
    if best is None:
        return Arrangement(copy.deepcopy(build), run_checks(build, index), True, [])
    _, cand, fs = best
    placement_codes = ("slot.", "thermal.open-air-gap", "lanes.width", "case.expansion-slots")
    bad = [f for f in fs if f.severity is Severity.ERROR and f.code.startswith(placement_codes)]
    advice = []
    if bad:
        advice.append("No placement on this board fits all cards without errors.")
        wide = [c for c in cards if c.slot_width > 2]
        if wide:
            advice.append(f"{len(wide)} card(s) are wider than 2 slots: blower or water-block versions "
                          "take 2 slots or fewer.")
        if any(c.cooler == "open-air" for c in cards):
            advice.append("Open-air cards need a free slot in front of their fans: blower cards can sit side by side.")
        advice.append("Risers or vertical mounts move cards off the board; a board with more slots or "
                      "wider slot spacing (e.g. a 7-slot workstation board) fits more cards.")
    return Arrangement(cand, fs, not bad, advice)
