"""Arrange: the placement of a build's GPUs with the fewest and mildest findings.

Ranking: no overlapping cards first, then fewer errors, then fewer warnings, then fewer infos;
ties go to more airflow gap in front of open-air fans, then more lanes. Every candidate placement is
scored with a fast arithmetic pre-score; the best candidates are then judged by the full check
engine. The result never has overlapping cards: when the board cannot hold them all, the widest
cards go to risers (keeping the narrowest cards on the board fits the most of them) and the advice
says so.
"""
from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass
from typing import Iterator, Optional

from rigbuilder.domain.build import MOUNT_RISER, MOUNT_SLOT, Build, GpuPlacement
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T, nT
from rigbuilder.domain.parts import GPU, Motherboard
from rigbuilder.models import lanes as lane_model
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import counts, run_checks
from rigbuilder.rules.geometry import (CARD_PLACEMENT_CODES, MIN_GAP_MM, fan_gap_severity, fits_case, fits_slot,
                                       gap_mm, lane_severity, overlapping, span)

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
    """Distinct orderings of card indices: orderings that only swap identical parts are never
    generated (eleven identical cards give one ordering, not 11! to be filtered). The order is the
    one ``itertools.permutations`` would give with the repeats removed."""
    groups: dict[str, list[int]] = {}
    for i in items:
        groups.setdefault(ids[i], []).append(i)
    keys = list(groups)
    used = {k: 0 for k in keys}
    out: list[int] = []
    n = len(items)

    def rec() -> Iterator[tuple[int, ...]]:
        if len(out) == n:
            yield tuple(out)
            return
        for k in keys:
            c = used[k]
            if c < len(groups[k]):
                used[k] = c + 1
                out.append(groups[k][c])
                yield from rec()
                out.pop()
                used[k] = c

    yield from rec()


def _prescore(board: Motherboard, cards: list[GPU], positions: tuple[int, ...], case_slots: Optional[int],
              cpu_lanes: Optional[int]) -> tuple:
    errors = warnings = overlaps = 0
    gap_total = 0.0
    order = sorted(range(len(cards)), key=lambda i: positions[i])
    for a, b in zip(order, order[1:]):
        ca, pa, pb = cards[a], positions[a], positions[b]
        gap = gap_mm(pa, ca.slot_width, pb)
        if overlapping(gap):
            errors += 1
            overlaps += 1
        elif ca.cooler == "open-air":
            sev = fan_gap_severity(ca, gap)
            errors += sev is Severity.ERROR
            warnings += sev is Severity.WARNING
            gap_total += min(gap, 2 * MIN_GAP_MM)
    for i, c in enumerate(cards):
        slot = board.slot_at(positions[i])
        if slot is None:
            errors += 1
            continue
        if not fits_slot(c, slot):
            errors += 1
        if not fits_case(positions[i], c, case_slots):
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
        sev = lane_severity(w)
        errors += sev is Severity.ERROR
        warnings += sev is Severity.WARNING
    return (overlaps, errors, warnings, -gap_total, -lanes)


def _overlaps(findings: list[Finding]) -> int:
    return sum(1 for f in findings if f.code == "slot.overlap")


def _most_that_fit(cards: list[GPU], slots: list[int], case_slots: Optional[int]) -> int:
    """How many of ``cards`` the slots hold without overlaps: narrowest first, each in the first
    slot its predecessor leaves free (optimal: any set that fits can swap in narrower cards)."""
    n, free_from = 0, 0
    for c in sorted(cards, key=span):
        pos = next((p for p in slots if p >= free_from
                    and fits_case(p, c, case_slots)), None)
        if pos is None:
            break
        n += 1
        free_from = pos + span(c)
    return n


def _with_risers(build: Build, index: PartIndex, board: Motherboard, movable: list[int], cards: list[GPU],
                 slots: list[int], case_slots: Optional[int]) -> Arrangement:
    keep_n = _most_that_fit(cards, slots, case_slots)
    # Keep the narrowest cards on the board (the build's order breaks ties); the rest go to risers.
    order = sorted(range(len(cards)), key=lambda k: (span(cards[k]), k))
    to_riser = sorted(movable[k] for k in order[keep_n:])
    trial = copy.deepcopy(build)
    for i in to_riser:
        trial.gpus[i] = GpuPlacement(trial.gpus[i].part_id, None, MOUNT_RISER, trial.gpus[i].power_limit_w,
                                     trial.gpus[i].riser)
    res = arrange(trial, index) if keep_n else Arrangement(trial, run_checks(trial, index), False, [])
    _plug_risers(res.build, index, board, to_riser)
    res.findings = run_checks(res.build, index)
    names = ", ".join(f"GPU {i + 1}" for i in to_riser)
    advice = [T("The {board} holds {keep} of these {n} cards without overlaps: {names} moved to risers (their cables "
                "plugged into slots no card covers, where there is one), or use thinner cards.",
                board=board.name, keep=keep_n, n=len(cards), names=names)]
    advice += [a for a in res.advice if a not in advice and not a.startswith(("The ", "No placement"))]
    advice += [a for a in _card_advice(cards, board) if a not in advice]
    return Arrangement(res.build, res.findings, False, advice)


def _plug_risers(build: Build, index: PartIndex, board: Motherboard, riser_gpus: list[int]) -> None:
    """Plug the riser cables of ``riser_gpus`` into slots no card covers, widest link first."""
    ctx = Context(build, index)
    plugged = {g.position for g in build.gpus if g.position is not None}  # cards and riser cables
    taken = plugged | {p for g in ctx.board_gpus for p in g.covered}
    for i in riser_gpus:
        free = [s for s in board.slots if s.position not in taken]
        if not free:
            return
        used = {s.id for s in board.slots if s.position in plugged}
        widths = lane_model.slot_widths(board, used, ctx.cpu.pcie_lanes if ctx.cpu else None)
        best = max(free, key=lambda s: (widths.get(s.id, 0), s.gen, -s.position))
        build.gpus[i].position = best.position
        taken.add(best.position)
        plugged.add(best.position)


def arrange(build: Build, index: PartIndex) -> Arrangement:
    """Best placement of the build's board-mounted GPUs over the board's slots; when placement
    errors remain and the case has vertical mount positions left, cards move there one at a time
    while that removes errors."""
    res = _arrange_on_board(build, index)
    ctx = Context(build, index)
    if res.fits or ctx.case is None or ctx.board is None:
        return res
    free = ctx.case.vertical_gpu_slots - sum(1 for g in res.build.gpus if g.mount == MOUNT_RISER)
    moved: list[int] = []
    while free > 0:
        base = counts(res.findings)["error"]
        trial: Optional[tuple[int, Arrangement]] = None
        # Only cards named by a placement error are tried, one per distinct part (identical cards
        # give the same result after re-arranging).
        named = {n - 1 for f in res.findings if f.severity is Severity.ERROR
                 and f.code.startswith(CARD_PLACEMENT_CODES) for n in f.gpus}
        tried: set[str] = set()
        for i, g in enumerate(res.build.gpus):
            if (i not in named or g.mount != MOUNT_SLOT or g.part_id in tried
                    or not isinstance(index.get(g.part_id), GPU)):
                continue
            tried.add(g.part_id)
            b2 = copy.deepcopy(res.build)
            b2.gpus[i].mount, b2.gpus[i].position = MOUNT_RISER, None
            r = _arrange_on_board(b2, index)
            _plug_risers(r.build, index, ctx.board, [i])
            r.findings = run_checks(r.build, index)
            if trial is None or counts(r.findings)["error"] < counts(trial[1].findings)["error"]:
                trial = (i, r)
        if trial is None or counts(trial[1].findings)["error"] >= base:
            break
        moved.append(trial[0])
        res = trial[1]
        free -= 1
        if res.fits:
            break
    if moved:
        names = ", ".join(f"GPU {i + 1}" for i in sorted(moved))
        res.advice = ([nT("{names} moved to the {case}'s vertical mount position ({n} in all).",
                          "{names} moved to the {case}'s vertical mount positions ({n} in all).",
                          ctx.case.vertical_gpu_slots, names=names, case=ctx.case.name)] + res.advice)
    return res


def _binding_advice(ctx: Context, bad: list[Finding], cards: list[GPU]) -> list[str]:
    """What limits the placement, named: the case, the cards' width or cooling, or the board."""
    codes = {f.code for f in bad}
    out = []
    if "case.expansion-slots" in codes and ctx.case is not None:
        out.append(T("The case is the limit: the {case} has {positions} expansion positions, so a card in a low slot "
                     "reaches past them; a case with more expansion positions (or its vertical mounts) fits more "
                     "cards, not a board with more slots.", case=ctx.case.name, positions=ctx.case.expansion_slots))
    if any(c.startswith("slot.") for c in codes):
        out.append(T("Card width is the limit: wider cards cover the slots next to them."))
    if "thermal.open-air-gap" in codes:
        out.append(T("Cooling is the limit: open-air cards need a free slot in front of their fans."))
    if "lanes.width" in codes and ctx.board is not None:
        out.append(T("The board is the limit: the {board}'s slots do not give every card its lanes.", board=ctx.board.name))
    return out


def _arrange_on_board(build: Build, index: PartIndex) -> Arrangement:
    ctx = Context(build, index)
    board = ctx.board
    if board is None:
        raise ValueError(T("the build has no motherboard (or it is not in the catalog)"))
    # Only entries that name a GPU card move; an unknown id or a part of another kind stays where it
    # is (the checks report it).
    movable = [i for i, g in enumerate(build.gpus)
               if g.mount == MOUNT_SLOT and isinstance(index.get(g.part_id), GPU)]
    cards: list[GPU] = [index.get(build.gpus[i].part_id) for i in movable]  # type: ignore[misc]
    slots = sorted(s.position for s in board.slots)
    case_slots = ctx.case.expansion_slots if ctx.case else None
    cpu_lanes = ctx.cpu.pcie_lanes if ctx.cpu else None
    if len(cards) > len(slots):
        return _with_risers(build, index, board, movable, cards, slots, case_slots)
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
        key = (_overlaps(fs), c["error"], c["warning"], c["info"], pre[3], pre[4])
        if best is None or key < best[0]:
            best = (key, cand, fs)
    assert best is not None or not cards
    if best is None:
        return Arrangement(copy.deepcopy(build), run_checks(build, index), True, [])
    key, cand, fs = best
    if key[0]:  # no placement of all the cards without overlaps: the widest go to risers
        return _with_risers(build, index, board, movable, cards, slots, case_slots)
    bad = [f for f in fs if f.severity is Severity.ERROR and f.code.startswith(CARD_PLACEMENT_CODES)]
    advice = ([T("No placement on this board fits all cards without errors.")] + _binding_advice(ctx, bad, cards)
              + _card_advice(cards, board)) if bad else []
    return Arrangement(cand, fs, not bad, advice)


def _card_advice(cards: list[GPU], board: Optional[Motherboard] = None) -> list[str]:
    """What would make more of ``cards`` fit."""
    advice = []
    wide = [c for c in cards if c.slot_width > 2]
    if wide:
        advice.append(nT("{n} card is wider than 2 slots: a blower or water-block version takes 2 slots or fewer.",
                         "{n} cards are wider than 2 slots: blower or water-block versions take 2 slots or fewer.",
                         len(wide)))
    if any(c.cooler == "open-air" for c in cards):
        advice.append(T("Open-air cards need a free slot in front of their fans: blower cards can sit side by side."))
    if board is not None and len(board.slots) >= 7:
        advice.append(T("Risers or vertical mounts move cards off the board."))
    else:
        advice.append(T("Risers or vertical mounts move cards off the board; a board with more slots or wider slot "
                        "spacing (e.g. a 7-slot workstation board) fits more cards."))
    return advice
