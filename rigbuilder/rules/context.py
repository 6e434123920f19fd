"""A build resolved against the catalog once, shared by every check of one run."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional

from rigbuilder.domain.build import MOUNT_SLOT, Build, GpuPlacement
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import (CPU, GPU, NIC, PSU, Case, Cooler, MemoryKit, Motherboard,
                                     Part, Riser, Storage)
from rigbuilder.models import lanes as lane_model
from rigbuilder.models import power as power_model


@dataclass(frozen=True)
class PlacedGpu:
    num: int  # 1-based, as the user sees it
    placement: GpuPlacement
    gpu: GPU
    riser: Optional[Riser] = None  # the riser part it stands on, where the build names one

    @property
    def on_board(self) -> bool:
        return self.placement.mount == MOUNT_SLOT and self.placement.position is not None

    @property
    def position(self) -> Optional[int]:
        return self.placement.position

    @property
    def span(self) -> int:
        """Expansion positions the card covers (ceil of its slot width)."""
        return self.gpu.span

    @property
    def covered(self) -> range:
        p = self.placement.position or 0
        return range(p, p + self.span)


def _get(index: PartIndex, pid: Optional[str], cls: type, missing: list[str]):
    if pid is None:
        return None
    p = index.get(pid)
    if p is None or not isinstance(p, cls):
        missing.append(pid)
        return None
    return p


class Context:
    def __init__(self, build: Build, index: PartIndex) -> None:
        self.build = build
        self.index = index
        self.missing: list[str] = []
        m = self.missing
        self.board: Optional[Motherboard] = _get(index, build.motherboard, Motherboard, m)
        self.cpu: Optional[CPU] = _get(index, build.cpu, CPU, m)
        self.cooler: Optional[Cooler] = _get(index, build.cooler, Cooler, m)
        self.case: Optional[Case] = _get(index, build.case, Case, m)
        self.psus: list[PSU] = [p for p in (_get(index, x, PSU, m) for x in build.psus) if p]
        self.memory: list[tuple[MemoryKit, int]] = [
            (k, mc.count) for mc in build.memory if (k := _get(index, mc.part_id, MemoryKit, m))]
        self.storage: list[tuple[Storage, int, Optional[str]]] = [
            (d, s.count, s.m2) for s in build.storage if (d := _get(index, s.part_id, Storage, m))]
        self.nics: list[NIC] = [n for n in (_get(index, x, NIC, m) for x in build.nics) if n]
        self.gpus: list[PlacedGpu] = []
        for i, pl in enumerate(build.gpus):
            g = _get(index, pl.part_id, GPU, m)
            if g is not None:
                riser = _get(index, pl.riser, Riser, m) if pl.mount != MOUNT_SLOT else None
                self.gpus.append(PlacedGpu(i + 1, pl, g, riser))

    @cached_property
    def board_gpus(self) -> list[PlacedGpu]:
        return sorted((g for g in self.gpus if g.on_board), key=lambda g: (g.position, g.num))

    @cached_property
    def m2_assignment(self) -> dict[str, tuple[Storage, int]]:
        """NVMe drives on the board's M.2 sockets: the socket the build names, else the next free."""
        if self.board is None:
            return {}
        return lane_model.m2_assignment(self.board, self.storage)

    @cached_property
    def unplaced_nvme(self) -> int:
        total = sum(c for d, c, _ in self.storage if d.pcie_lanes > 0)
        return total - len(self.m2_assignment)

    @cached_property
    def used_ids(self) -> set[str]:
        used = set(self.m2_assignment)
        if self.board is not None:
            for g in self.gpus:
                if g.position is not None:
                    s = self.board.slot_at(g.position)
                    if s is not None:
                        used.add(s.id)
        return used

    @cached_property
    def widths(self) -> dict[str, int]:
        if self.board is None:
            return {}
        return lane_model.slot_widths(self.board, self.used_ids,
                                      self.cpu.pcie_lanes if self.cpu else None)

    def link(self, g: PlacedGpu, through_riser: bool = True) -> Optional[lane_model.Link]:
        """The card's link: through the riser part it stands on (``through_riser``), else the slot's side
        of it alone (what the board and CPU give)."""
        if self.board is None or g.position is None:
            return None
        slot = self.board.slot_at(g.position)
        if slot is None:
            return None
        return lane_model.link_for(slot, self.widths.get(slot.id, slot.lanes), g.gpu.pcie_gen,
                                   g.gpu.pcie_lanes, self.cpu.pcie_gen if self.cpu else None,
                                   g.riser if through_riser else None)

    @cached_property
    def power_components(self) -> list[power_model.Component]:
        return power_model.components(
            gpus=[(g.num, g.gpu, g.placement.power_limit_w) for g in self.gpus],
            cpu=self.cpu, board=self.board, memory=self.memory,
            storage=[(d, c) for d, c, _ in self.storage], cooler=self.cooler, nics=self.nics,
            calibration=self.index.calibration)

    @cached_property
    def gpu_transient_w(self) -> float:
        extra = 0.0
        for g in self.gpus:
            draw = power_model.gpu_power(g.gpu, g.placement.power_limit_w)["training"]
            extra += draw * (power_model.transient_factor(g.gpu)[0] - 1)
        return extra

    @cached_property
    def noise(self) -> "noise_model.NoiseReport":
        """The build's noise at 1 m (models/noise.py)."""
        from rigbuilder.models import noise as noise_model

        return noise_model.report(gpus=[(g.num, g.gpu, g.placement.power_limit_w) for g in self.gpus],
                                  psus=self.psus, cooler=self.cooler, case=self.case)

    @cached_property
    def power(self) -> power_model.PowerReport:
        return power_model.report(self.power_components, self.psus,
                                  self.build.settings.region_info().efficiency_table,
                                  self.gpu_transient_w)

    def position_note(self, positions) -> str:
        """For a finding that rests on where slots sit on the board: a sentence naming the slots at
        ``positions`` whose position no published source confirms ("" when all are confirmed)."""
        if self.board is None:
            return ""
        slots = [s for s in (self.board.slot_at(p) for p in positions if p) if s and not s.position_confirmed]
        if not slots:
            return ""
        return T(" No published source confirms where {slots} sit on the board (a slot table gives "
                 "slots, not their places): check the board's manual.", slots=", ".join(s.id for s in slots))

    def part(self, pid: str) -> Optional[Part]:
        return self.index.get(pid)


def gpu_label(g: PlacedGpu) -> str:
    return f"GPU {g.num}"  # short: the message leads with what is wrong; the card's name is in the details


def mm(x: float) -> str:
    return f"{x:.0f} mm" if abs(x - round(x)) < 0.05 else f"{x:.1f} mm"
