"""Placement: where a search's cards can sit on a board (through the mount: slots, or the slots a
riser's plug takes) and what the cards give there (the throughput model's figure for a board, CPU,
drive and positions, checked against the bounds the search relies on: at most the cards' single
figures added up, no more with a drive than without, at most the ceiling on ideal links)."""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from rigbuilder.domain.build import Build, GpuPlacement, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, Motherboard, PcieSlot, Storage
from rigbuilder.models import lanes as lane_model
from rigbuilder.rules.optimise.request import OptimiseError, Request, Scorer, limit_w
from typing import Optional


class Placement:
    def __init__(self, req: Request, index: PartIndex, scorer: Scorer, mount, placements: dict, shared: dict,
                 scores: Optional[dict] = None) -> None:
        self.req, self.index, self.scorer, self.mount = req, index, scorer, mount
        self._placements, self._shared = placements, shared
        self._scores: dict = {} if scores is None else scores

    def board_placements(self, b: Motherboard, geom: tuple, g: GPU) -> list:
        """The positions of the grown build's cards on ``b`` (each with the case slots they need)."""
        return self.mount.board_placements(b, geom, g, self.req, self._placements)

    def placement(self, g: GPU, position: int) -> GpuPlacement:
        """One card of a build the search makes, at ``position`` (in the slot, or on the mount's riser)."""
        return self.mount.placement(g, position, self.req)

    def soft(self, b: Motherboard, c: CPU, g: GPU, pos: tuple[int, ...]) -> tuple:
        """The tie-break between placements of equal throughput (the mount's; where the request keeps
        slots free for a network card, then the placement that leaves the card the better slot:
        ``nic_slots``)."""
        soft = self.mount.soft(b, c, g, pos)
        if self.req.free_slots:
            best = nic_slots(b, c.pcie_lanes, g, pos)
            soft += (best[0].rank if best else NO_NIC_SLOT,)
        return soft

    def next_placed(self, pairs: list, geom: tuple, g: GPU, i: int, stop: int) -> int:
        """The first pair from ``i`` on whose board has a placement for cards of ``geom``, or ``stop``
        when there is none before it. The boards are looked at in the pairs' order once per kind of
        card geometry (every card of that geometry, at every power limit, reads the same list)."""
        st = self._shared.get(("placed", geom))
        if st is None or st[0] is not pairs:
            st = self._shared[("placed", geom)] = [pairs, [], 0]  # pairs, the placed ones, all below looked at
        _, placed, upto = st
        at = bisect.bisect_left(placed, i)
        if at < len(placed):
            return min(placed[at], stop)
        j = upto
        while j < stop:
            if self.board_placements(pairs[j][0], geom, g):
                placed.append(j)
                st[2] = j + 1
                if j >= i:
                    return j
            j += 1
        st[2] = max(st[2], j)
        return stop

    def ceiling(self, g: GPU) -> float:
        """The most the grown build's cards can give in any build: the throughput model's figure for
        them on ideal links (a build without a board, where the model takes every card on x16 lanes of
        its own generation from the CPU), at most the cards' single-card figures added up.
        ``_throughput`` checks every build it scores against it."""
        key = ("ceiling", g.id)
        v = self._scores.get(key)
        if v is None:
            n1 = self.req.n_grown
            lw = limit_w(g, self.req.power_limit)
            build = Build(gpus=[GpuPlacement(g.id, None, power_limit_w=lw) for _ in range(n1)])
            v = self._scores[key] = min(n1 * (self.scorer.card(g) or 0.0), float(self.scorer.build(build, self.index)))
        return v

    def throughput(self, g: GPU, b: Motherboard, c: CPU, sto: Optional[Storage], pos: tuple[int, ...]) -> float:
        key = ("t", self.mount.link, g.id, b.id, c.id, sto.id if sto else None, pos)  # per card and link
        t = self._scores.get(key)
        if t is None:
            build = Build(motherboard=b.id, cpu=c.id, storage=[StorageItem(sto.id)] if sto else [],
                          gpus=[self.placement(g, p) for p in pos])
            t = float(self.scorer.build(build, self.index))
            one = self.scorer.card(g) or 0.0
            if t > len(pos) * one * (1 + 1e-9):
                raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu}, more than {n} times one card "
                                      "({one:g}): the search's bounds would not hold", t=t, n=len(pos), gpu=g.name, one=one))
            ceiling = self.ceiling(g) if len(pos) == self.req.n_grown else math.inf
            if sto is not None:
                bare = self.throughput(g, b, c, None, pos)
                if t > bare * (1 + 1e-9):
                    raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu} on the {board} with the "
                                          "{drive}, more than with no drive ({bare:g}): the search's bounds would not "
                                          "hold", t=t, n=len(pos), gpu=g.name, board=b.name, drive=sto.name, bare=bare))
            if t > ceiling * (1 + 1e-9):
                raise OptimiseError(T("the throughput model gives {t:g} for {n} x {gpu} on the {board}, more than on "
                                      "ideal links ({ceiling:g}): the search's bounds would not hold", t=t, n=len(pos),
                                      gpu=g.name, board=b.name, ceiling=ceiling))
            self._scores[key] = t
        return t


def free_slots(board: Motherboard, g: GPU, positions: tuple[int, ...]) -> int:
    """The board's expansion slots that cards of ``g`` at ``positions`` neither fill nor cover: what
    is left for a network card (``Request.free_slots``)."""
    covered = {q for p in positions for q in range(p, p + g.span)}
    return sum(1 for sl in board.slots if sl.position not in covered)


NIC_LANES = 8
"""The lanes a cluster's network card takes: the dual-port 25 and 40 GbE cards the seeds and issue 37
name (Intel XXV710-DA2, Mellanox ConnectX-3) are PCIe x8 cards."""


NO_NIC_SLOT = (True, True, True, True, 0, 0, math.inf)
"""``NicSlot.rank`` of no slot at all: after every slot."""


@dataclass(frozen=True)
class NicSlot:
    """A slot the cards leave free, as a network card would find it."""

    slot: PcieSlot
    width: int  # the lanes it runs at with the cards (and drives) in place, at most NIC_LANES
    starves: bool  # a card in it takes lanes from a GPU (the board's lane table)
    fits: bool  # an x8 card goes in (physically x8 or more, or open-ended)

    @property
    def chipset(self) -> bool:
        return self.slot.source == "chipset"

    @property
    def gives_link(self) -> bool:
        """Wired to the CPU (or the GPUs' PCIe switch), takes an x8 card and gives it all its lanes."""
        return not self.chipset and self.fits and self.width >= NIC_LANES

    @property
    def rank(self) -> tuple:
        """Smaller is better: a slot that gives the card its link first, then one that takes no lanes from a
        GPU, then one not on the chipset; then the widest, the newest generation, the first on the board."""
        return (not self.gives_link, self.starves, self.chipset, not self.fits, -self.width, -self.slot.gen,
                self.slot.position)


def nic_slots(board: Motherboard, cpu_lanes, g: GPU, positions: tuple[int, ...], used: tuple[str, ...] = ()
              ) -> list[NicSlot]:
    """The slots that cards of ``g`` at ``positions`` neither fill nor cover (as ``free_slots`` counts
    them), best first for a network card (``NicSlot.rank``): the optimiser prefers the placement whose
    best slot ranks first (``Placement.soft``) and the answer names it. ``used``: other slots and M.2
    sockets in use (the drives), for the board's lane table."""
    covered = {q for p in positions for q in range(p, p + g.span)}
    cards = {s.id for s in board.slots if s.position in positions}
    before = lane_model.slot_widths(board, cards | set(used), cpu_lanes)
    out = []
    for s in board.slots:
        if s.position in covered or s.lanes <= 0:
            continue
        after = lane_model.slot_widths(board, cards | set(used) | {s.id}, cpu_lanes)
        starves = any(after.get(i, 0) < before.get(i, 0) for i in cards)
        out.append(NicSlot(s, min(after.get(s.id, s.lanes), NIC_LANES), starves,
                           s.physical >= NIC_LANES or s.open_ended))
    return sorted(out, key=lambda x: x.rank)
