"""The search's bounds that cannot remove the optimum: the placements the slot geometry allows
(slot spacing), Pareto fronts of each kind of part, and what a PSU must carry (connectors)."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Optional, Sequence

from rigbuilder.domain.findings import Severity
from rigbuilder.domain.parts import GPU, PSU, Motherboard
from rigbuilder.models import power as power_model
from rigbuilder.rules.geometry import case_slots_needed, covers, fan_gap_severity, fits_slot, gap_mm
from rigbuilder.rules.power import cables


def placements(board: Motherboard, gpu: GPU, n: int, quiet: bool) -> list[tuple[tuple[int, ...], int]]:
    """Every way to put ``n`` of ``gpu`` in the board's slots without an error the geometry alone
    decides (a slot the connector does not fit, cards overlapping, fans touching the next card;
    with ``quiet`` any gap under one slot): (positions, fewest expansion positions the case needs)."""
    fit = sorted(s.position for s in board.slots if fits_slot(gpu, s))
    width = gpu.slot_width
    out: list[tuple[tuple[int, ...], int]] = []

    def ok_pair(p: int, q: int) -> bool:
        if covers(p, gpu, q):
            return False
        sev = fan_gap_severity(gpu, gap_mm(p, width, q))  # as the thermal check judges it
        if sev is Severity.ERROR or (quiet and sev is not None):
            return False
        return True

    def rec(start: int, chosen: list[int]) -> None:
        if len(chosen) == n:
            out.append((tuple(chosen), case_slots_needed(chosen[-1], gpu, air=quiet)))
            return
        for i in range(start, len(fit)):
            if chosen and not ok_pair(chosen[-1], fit[i]):
                continue
            chosen.append(fit[i])
            rec(i + 1, chosen)
            chosen.pop()

    if n <= len(fit):
        rec(0, [])
    return out


# -- Pareto fronts ---------------------------------------------------------------------------------
def pareto(items: Sequence, key: Callable[[object], tuple]) -> list:
    """Items no other item beats: ``key`` gives figures where smaller is better in every place
    (an item equal in every figure to an earlier one is dropped too: it can do nothing the
    earlier one cannot)."""
    return pareto_sorted(sorted(((key(x), x) for x in items), key=lambda kx: kx[0]))


def pareto_sorted(keyed: Sequence[tuple[tuple, object]]) -> list:
    """``pareto`` of (figures, item) pairs already sorted by their figures (stably: a subsequence of a
    list sorted once is sorted, so many fronts of one kind's parts share one sort)."""
    front: list[tuple[tuple, object]] = []
    seen: set = set()
    for k, x in keyed:
        # An earlier item with the same figures but the first (the price) beats this one, or an item
        # on the front beats both: no need to compare (most of a large catalog's parts repeat figures).
        if k[1:] in seen:
            continue
        seen.add(k[1:])
        if any(all(a <= b for a, b in zip(fk, k)) for fk, _ in front):
            continue
        front.append((k, x))
    return [x for _, x in front]


@lru_cache(maxsize=None)
def level_at_least(a: str, b: str, table: str) -> bool:
    """Whether 80 PLUS level ``a`` is at least as efficient as ``b`` at every load (both curves are
    linear between their points and flat past the last, so comparing at every point of either
    curve, at zero load and past full load proves it)."""
    pa = power_model.EFFICIENCY_POINTS[table].get(a, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
    pb = power_model.EFFICIENCY_POINTS[table].get(b, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
    xs = {0.0, 2.0} | {x for x, _ in pa} | {x for x, _ in pb}
    return all(power_model.efficiency(a, table, x)[0] >= power_model.efficiency(b, table, x)[0] - 1e-12 for x in xs)


def _cables(p: PSU) -> int:
    return p.pcie_cables if p.pcie_cables is not None else p.pcie_8pin


def psu_front(psus: Sequence[PSU], price: Callable[[PSU], float], table: str) -> list[PSU]:
    """PSUs no other PSU of the same wattage beats: cheaper or as cheap, at least as efficient at
    every load, at least as many PCIe cables and 12V-2x6 sockets, no longer, ATX 3.x if it is."""
    priced = {id(p): price(p) for p in psus}  # once per PSU (the comparisons ask for prices many times)
    price = lambda p: priced[id(p)]  # noqa: E731

    def beats(a: PSU, b: PSU) -> bool:
        return (a.wattage == b.wattage and price(a) <= price(b) and _cables(a) >= _cables(b)
                and a.hpwr_sockets >= b.hpwr_sockets and none_zero(a.length_mm) <= none_zero(b.length_mm)
                and (a.atx3 or not b.atx3) and level_at_least(a.efficiency, b.efficiency, table))

    ordered = sorted(psus, key=lambda p: (price(p), p.id))
    front: list[PSU] = []
    by_watts: dict = {}  # the front so far per wattage: only a PSU of the same wattage beats one
    for p in ordered:
        same = by_watts.setdefault(p.wattage, [])
        if not any(beats(f, p) for f in same):
            front.append(p)
            same.append(p)
    return front


def none_inf(v: Optional[float]) -> float:
    return math.inf if v is None else v


def none_zero(v: Optional[float]) -> float:
    return 0.0 if v is None else v


def plug_key(g: GPU) -> tuple:
    """What ``cables`` reads of a card: its power plugs, and its board power where one is a 12VHPWR."""
    hp = any(c in ("12VHPWR", "12V-2x6") for c in g.power_connectors)
    return (tuple(g.power_connectors), g.board_power_w if hp else None)


def socket_key(p: PSU) -> tuple:
    """What ``cables`` reads of a PSU: its 12V-2x6 sockets and its PCIe cables (or sockets)."""
    return (p.hpwr_sockets, _cables(p))


def connectors_ok(gpus: Sequence[GPU], psus: Sequence[PSU]) -> bool:
    """No psu.connectors error (the rule's own count)."""
    return cables(gpus, psus).enough
