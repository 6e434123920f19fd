"""Electrical lane widths of a board's slots for a given population (the manual's table)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from rigbuilder.domain.parts import Motherboard, PcieSlot, Riser, Storage

GEN_GBPS_PER_LANE = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}
"""Per-lane bandwidth per direction, GB/s (PCI-SIG base specifications)."""


def trigger_holds(trigger: str, used: set[str], cpu_lanes: Optional[int]) -> bool:
    if trigger.startswith("cpu_lanes<"):
        if cpu_lanes is None:
            return False
        return cpu_lanes < int(trigger[len("cpu_lanes<"):])
    if trigger.startswith("!"):
        return trigger[1:] not in used
    return trigger in used


def slot_widths(board: Motherboard, used: Iterable[str], cpu_lanes: Optional[int] = None
                ) -> dict[str, int]:
    """Electrical width of every slot and M.2 socket, given the ids in use.

    Every lane rule whose triggers all hold caps the widths it lists; caps combine by minimum.
    """
    used_set = set(used)
    widths = {s.id: s.lanes for s in board.slots}
    widths.update({m.id: m.lanes for m in board.m2})
    for rule in board.lane_rules:
        if all(trigger_holds(t, used_set, cpu_lanes) for t in rule.when):
            for sid, w in rule.widths.items():
                if sid in widths:
                    widths[sid] = min(widths[sid], w)
    return widths


def m2_assignment(board: Motherboard, storage: Iterable[tuple[Storage, int, Optional[str]]]
                  ) -> dict[str, tuple[Storage, int]]:
    """NVMe drives on the board's M.2 sockets: the socket the build names, else the next free.
    ``storage`` is (drive, count, socket id or None) per build line."""
    out: dict[str, tuple[Storage, int]] = {}
    free = [m.id for m in board.m2]
    pending: list[tuple[Storage, int]] = []
    for drive, count, m2 in storage:
        if drive.pcie_lanes <= 0:
            continue
        for k in range(count):
            if m2 and k == 0 and m2 in free:
                out[m2] = (drive, k)
                free.remove(m2)
            else:
                pending.append((drive, k))
    for drive, k in pending:
        if free:
            out[free.pop(0)] = (drive, k)
    return out


@dataclass(frozen=True)
class Link:
    width: int
    gen: int

    @property
    def gbps(self) -> float:
        return self.width * GEN_GBPS_PER_LANE.get(self.gen, 0.985)


def link_for(slot: PcieSlot, slot_width: int, card_gen: int, card_lanes: int,
             cpu_gen: Optional[int], riser: Optional[Riser] = None) -> Link:
    """A link runs at the lowest generation of card, slot, (for CPU lanes) CPU and the riser the card
    stands on, on the fewest lanes of slot, card and riser."""
    gen = min(slot.gen, card_gen)
    if cpu_gen is not None and slot.source == "CPU":
        gen = min(gen, cpu_gen)
    width = min(slot_width, card_lanes)
    if riser is not None:
        gen, width = min(gen, riser.pcie_gen), min(width, riser.lanes)
    return Link(width, gen)


SEED_BATCH_MS = {16: 1.1, 8: 2.3, 4: 4.5}
"""Seed 000: a batch of 32 ImageNet images (32x225x225x3 fp32, 19.4 MB) over PCIe 3.0 x16/x8/x4."""
BATCH_BYTES = 32 * 225 * 225 * 3 * 4


def batch_transfer_ms(link: Link) -> float:
    """Time to move the seed's ImageNet batch over ``link`` (ideal bandwidth, an estimate)."""
    if link.width <= 0:
        return float("inf")
    return BATCH_BYTES / (link.gbps * 1e9) * 1e3
