"""How the cards of a build are mounted: the option the search is given. ``InSlots`` (every card in
a board slot) is the search's own; ``frames.OnRiser`` stands every card on one riser model in an open
frame. A mount says which cases hold the cards, what a card costs with its mount, where the cards
can go on a board, how a card of a build is placed, the tie-break between placements, and what the
answer adds (the mount's parts and the lines that explain it)."""
from __future__ import annotations

from typing import Callable, Optional

from rigbuilder.domain.build import GpuPlacement
from rigbuilder.domain.parts import GPU, Motherboard, Part, Riser
from rigbuilder.models import lanes as lane_model
from rigbuilder.rules.geometry import gap_mm, gap_severity
import rigbuilder.rules.optimise.policy as policy
from rigbuilder.rules.optimise.bounds import placements
from rigbuilder.rules.optimise.request import Candidate, Request, limit_w


class InSlots:
    """Every card in a board slot: open frames (which hold cards on risers) are no case for these builds."""
    CARDS_IN_SLOTS = True
    riser: Optional[Riser] = None
    key: tuple = ("slots",)
    """What the mount-dependent lists (cases, card prices, placements) are kept under."""
    link: Optional[tuple] = None
    """What the mount gives the cards' links (the throughput is kept per card and link): in slots, nothing."""

    def cases(self, pool: list, req: Request, count: Callable[[str, int], None]) -> list:
        """The cases of the pool that can hold the cards on this mount."""
        return pool

    def covers(self, g: GPU) -> bool:
        """Whether another mount searched before gives ``g``'s cards the same builds for no more (not in slots)."""
        return False

    def extra(self, p: Optional[Part], units: int) -> float:
        """What the mount adds to the price of ``units`` of part ``p`` (nothing in slots)."""
        return 0.0

    def board_placements(self, b: Motherboard, geom: tuple, g: GPU, req: Request, cache: dict) -> list:
        """The positions for the grown build's cards on ``b``, each with the case slots it needs."""
        key = (b.id, geom)
        pl = cache.get(key)
        if pl is None:
            pl = placements(b, g, req.n_grown, policy.refuses_gap(req))
            cache[key] = pl
        return pl

    def placement(self, g: GPU, position: int, req: Request) -> GpuPlacement:
        """One card of a build the search makes: in the slot at ``position``."""
        return GpuPlacement(g.id, position, power_limit_w=limit_w(g, req.power_limit))

    def soft(self, b: Motherboard, c, g: GPU, pos: tuple[int, ...]) -> tuple:
        """Tie-break between placements of equal throughput: fewer airflow gaps under one slot,
        wider links, then higher slots."""
        gaps = 0
        if g.cooler == "open-air":
            gaps = sum(1 for p, q in zip(pos, pos[1:]) if gap_severity(gap_mm(p, g.slot_width, q)) is not None)
        used = {s.id for s in b.slots if s.position in pos}
        widths = lane_model.slot_widths(b, used, c.pcie_lanes)
        lanes = sum(min(widths.get(b.slot_at(p).id, 0), g.pcie_lanes) for p in pos)
        return (gaps, -lanes)

    def dress(self, cand: Candidate, b: Motherboard, req: Request, where: Callable[[str], str]) -> None:
        """What the mount adds to a candidate (its parts' prices, notes, the build's name)."""

    def board_lines(self, best: Candidate, index, req: Request) -> Optional[list[str]]:
        """The explanation's lines about the board and the mount; None: the board bound's."""
        return None
