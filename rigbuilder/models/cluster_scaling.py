"""Several machines: each machine's network path, and data-parallel scaling across machines.

The network of one machine (:func:`machine_network`): its network cards in their board slots,
each link as wide as the slot gives it (the board's lane table with the GPUs, drives and cards in
use) and as fast as the card's PCIe generation; the usable bandwidth of a card is the smaller of
its ports' line rate times ``WIRE_EFFICIENCY`` (an affordable 40 Gbit/s card moves about 4 GB/s
of its 5 GB/s; Dettmers 2014) and its slot. Whether GPUDirect RDMA can carry gradients from GPU
memory straight to the card (NVIDIA's GPUDirect RDMA User Manual v1.8: a capable card, RDMA on
the link (RoCE or InfiniBand), a Tesla or Quadro (data-centre or workstation) GPU, card and GPU on
the same PCIe root complex; a chipset slot is taken as not); otherwise every byte goes GPU -> CPU memory -> card and back, which costs a
second crossing of the GPU's own link, counted here as a serial copy: ``1/B = 1/B_card + 1/B_gpu``
(an assumption: real stacks pipeline the two copies partly, so this is the pessimistic end).

Scaling across machines (:func:`cluster_scaling`), hierarchical data parallel: inside each
machine the single-machine model (``rigbuilder.models.scaling``, reached through :func:`single_machine`)
gives the machine's throughput over its own links; between machines a ring all-reduce of the
gradients over the cards, with the single-machine model's own formula and figures
(``scaling.allreduce_seconds``: ``2 (M-1)/M x S / B``, NVIDIA nccl-tests; ``scaling.step_figures``: the
step time and the gradient bytes S; ``scaling.link_fit().overlap``: the share of the backward pass
that hides communication, fitted to Lambda's several-card runs, here taken to hold between machines
too, an assumption), B the slowest machine's path:
``t_M = t_1 + max(0, t_net - overlap x backward)`` and the speed-up of M machines is ``M t_1 / t_M``.
Synchronous data parallel runs at the slowest machine's pace. Latency is left out (gradients are
megabytes; per-message latency is microseconds).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.cluster import RDMA_KINDS, Network, NicPlacement
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, NIC, Motherboard, PcieSlot, Storage
from rigbuilder.models import lanes
from rigbuilder.models.lanes import GEN_GBPS_PER_LANE
from rigbuilder.models.workloads import Workload

DETTMERS_2014 = T("{author}, {title}, {year}", author="Tim Dettmers",
                  title="\u201cHow To Build and Use a Multi GPU System for Deep Learning\u201d", year="2014")
NCCL_TESTS = T("{author}, {title}", author="NVIDIA", title="nccl-tests \u201cPerformance\u201d notes")
LI_2020 = T("{author}, {title}, {year}", author="Li et al.",
            title="\u201cPyTorch Distributed: Experiences on Accelerating Data Parallel Training\u201d (VLDB)",
            year="2020")
NVIDIA_GDR = T("{author}, {title}", author="NVIDIA",
               title="\u201cGPUDirect RDMA User Manual\u201d v1.8, system requirements (Tesla or Quadro GPUs; card and "
                     "GPU on the same PCIe root complex for full speed)")

WIRE_EFFICIENCY = 4.0 / 5.0
"""Usable share of a card's line rate: "affordable cards are at about 4GB/s" for 40 Gbit/s (5 GB/s)
cards (Dettmers 2014)."""
PCIE3_X16_GBS = 15.75
"""PCIe 3.0 x16 per direction as Dettmers (2014) quotes it."""


def overlap() -> float:
    """The share of the backward pass that hides an all-reduce: the single-machine model's fitted figure."""
    from rigbuilder.models import scaling

    return scaling.link_fit().overlap


@dataclass(frozen=True)
class NicLink:
    """One network card in its slot."""

    placement: NicPlacement
    nic: Optional[NIC]
    slot: Optional[PcieSlot]
    width: int  # electrical lanes it gets (0: none)
    gen: int
    port_gbps: float  # per cabled port, after the network's speed

    @property
    def slot_gbs(self) -> float:
        return self.width * GEN_GBPS_PER_LANE.get(self.gen, 0.985)

    @property
    def wire_gbs(self) -> float:
        return self.port_gbps * self.placement.ports / 8.0

    @property
    def usable_gbs(self) -> float:
        return min(self.wire_gbs * WIRE_EFFICIENCY, self.slot_gbs) if self.width > 0 else 0.0


@dataclass(frozen=True)
class GpuLinkChange:
    num: int
    before: int  # lanes without the network cards
    after: int  # lanes with them
    source: str


@dataclass(frozen=True)
class MachineNet:
    """One machine's network path as the plan places its cards."""

    gpus: tuple[tuple[int, GPU, int, int, str], ...]  # (number, card, lanes, gen, slot source)
    nics: tuple[NicLink, ...]
    changes: tuple[GpuLinkChange, ...]  # GPUs whose links the cards narrow
    rdma: bool
    rdma_why: tuple[str, ...]  # why the path goes (or may go) through the CPU
    nic_gbs: float  # the cards' usable GB/s together
    path_gbs: float  # GPU to the wire, after staging through CPU memory where there is no RDMA
    intra_gbs: float  # the slowest GPU link inside the machine (0: no GPU on a known link)


def _gpu_slots(build: Build, index: PartIndex, board: Motherboard) -> list[tuple[int, GPU, PcieSlot]]:
    out = []
    for i, pl in enumerate(build.gpus):
        g = index.get(pl.part_id)
        if isinstance(g, GPU) and pl.position is not None and (s := board.slot_at(pl.position)) is not None:
            out.append((i + 1, g, s))
    return out


def machine_network(build: Build, index: PartIndex, nics: Sequence[NicPlacement], network: Network) -> MachineNet:
    board = index.get(build.motherboard)
    board = board if isinstance(board, Motherboard) else None
    cpu = index.get(build.cpu)
    cpu = cpu if isinstance(cpu, CPU) else None
    cpu_lanes = cpu.pcie_lanes if cpu else None
    cpu_gen = cpu.pcie_gen if cpu else None
    gpus = _gpu_slots(build, index, board) if board else []
    links: list[NicLink] = []
    changes: list[GpuLinkChange] = []
    gpu_rows = []
    if board is not None:
        storage = [(d, s.count, s.m2) for s in build.storage if isinstance(d := index.get(s.part_id), Storage)]
        used = set(lanes.m2_assignment(board, storage)) | {s.id for _, _, s in gpus}
        nic_slots = {p.slot for p in nics if p.slot and any(s.id == p.slot for s in board.slots)}
        before = lanes.slot_widths(board, used, cpu_lanes)
        after = lanes.slot_widths(board, used | nic_slots, cpu_lanes)
        for num, g, s in gpus:
            b = min(before.get(s.id, s.lanes), g.pcie_lanes)
            a = min(after.get(s.id, s.lanes), g.pcie_lanes)
            ln = lanes.link_for(s, a, g.pcie_gen, g.pcie_lanes, cpu_gen)
            gpu_rows.append((num, g, ln.width, ln.gen, s.source))
            if a < b:
                changes.append(GpuLinkChange(num, b, a, s.source))
    else:
        after = {}
    for p in nics:
        nic = index.get(p.part_id)
        nic = nic if isinstance(nic, NIC) else None
        slot = next((s for s in board.slots if s.id == p.slot), None) if board and p.slot else None
        speed = 0.0
        if nic is not None:
            speed = min(nic.speed_gbps, network.speed_gbps) if network.speed_gbps else nic.speed_gbps
        if nic is None or slot is None:
            links.append(NicLink(p, nic, slot, 0, 0, speed))
            continue
        ln = lanes.link_for(slot, after.get(slot.id, slot.lanes), nic.pcie_gen, nic.pcie_lanes, cpu_gen)
        links.append(NicLink(p, nic, slot, ln.width, ln.gen, speed))
    nic_gbs = sum(x.usable_gbs for x in links)
    gpu_gbs = [w * GEN_GBPS_PER_LANE.get(gen, 0.985) for _, _, w, gen, _ in gpu_rows if w > 0]
    intra = min(gpu_gbs) if gpu_gbs else 0.0
    rdma, why = _rdma(gpu_rows, links, network)
    if rdma or nic_gbs <= 0:
        path = nic_gbs
    else:
        slowest_gpu = intra or PCIE3_X16_GBS
        path = 1.0 / (1.0 / nic_gbs + 1.0 / slowest_gpu)
    return MachineNet(tuple(gpu_rows), tuple(links), tuple(changes), rdma, tuple(why), nic_gbs, path, intra)


def _rdma(gpus, links: Sequence[NicLink], network: Network) -> tuple[bool, list[str]]:
    """(GPUDirect RDMA possible for every GPU and card, the reasons it is not or may not be)."""
    why: list[str] = []
    placed = [x for x in links if x.nic is not None and x.slot is not None]
    if not network.gpudirect:
        why.append(T("the plan does not use GPUDirect RDMA"))
    if network.kind not in RDMA_KINDS:
        why.append(T("plain Ethernet (TCP) carries no RDMA: use RoCE or InfiniBand"))
    for x in placed:
        if not x.nic.rdma:
            why.append(T("{nic} has no RDMA", nic=x.nic.name))
        if x.slot.source == "chipset":
            why.append(T("{nic} sits on a chipset slot ({slot}): its traffic crosses the chipset and the CPU",
                         nic=x.nic.name, slot=x.slot.id))
    for num, g, _w, _gen, source in gpus:
        if g.vendor != "NVIDIA" or g.segment == "consumer":
            why.append(T("GPU {num} ({name}) is a consumer card: NVIDIA documents GPUDirect RDMA for its data-centre "
                         "and workstation cards ({source})", num=num, name=g.name, source=NVIDIA_GDR))
            break
    for num, g, _w, _gen, source in gpus:
        if source == "chipset":
            why.append(T("GPU {num} sits on a chipset slot: not under the same PCIe root as the card", num=num))
    if not placed:
        return False, why
    return not why, why


# --------------------------------------------------------------------------- scaling


@dataclass(frozen=True)
class SingleMachine:
    """What the cluster model needs of one machine (the seam to ``rigbuilder.models.scaling``)."""

    throughput: float  # the machine's throughput, after its own links
    unit: str
    n_gpus: int
    card_rate: float  # the slowest card alone
    fits: bool
    strategy: Optional[str]
    basis: str


def single_machine(build: Build, index: PartIndex, workload: Workload) -> SingleMachine:
    """The single-machine scaling model, through one narrow call (rewire here when it changes)."""
    from rigbuilder.models import scaling

    bt = scaling.build_throughput(build, index, workload)
    rate = min((c.rate for c in bt.cards), default=0.0)
    return SingleMachine(bt.value, bt.unit, bt.n_gpus, rate, bt.fits, bt.strategy, bt.basis)


def gradient_bytes(workload: Workload) -> float:
    """Bytes all-reduced per step, as the single-machine model counts them."""
    from rigbuilder.models import scaling

    return scaling.step_figures(workload, 1.0)[1]


def scaling_step(workload: Workload, rate: float) -> float:
    """Seconds one card takes for one step at ``rate``."""
    from rigbuilder.models import scaling

    return scaling.step_figures(workload, rate)[0]


def samples_per_step(workload: Workload) -> float:
    """Units of the workload's throughput one card does per step (tokens: batch x context): the step
    time at a rate of one unit a second."""
    from rigbuilder.models import scaling

    return scaling.step_figures(workload, 1.0)[0]


@dataclass(frozen=True)
class ClusterPoint:
    machines: int
    throughput: float
    speedup: float  # over one machine
    t_step_s: float
    t_net_s: float  # the all-reduce between machines per step
    t_exposed_s: float  # what the backward pass cannot hide

    @property
    def linked(self) -> bool:
        """False when no working network link joins the machines (no card, an unknown card, a card in
        a slot the board lacks): the all-reduce never ends, the step time is infinite."""
        return math.isfinite(self.t_step_s) and math.isfinite(self.t_net_s)


def _json_number(x: float, digits: int):
    """``x`` rounded, or None (JSON null) when it is not finite: JSON has no Infinity or NaN."""
    return round(x, digits) if math.isfinite(x) else None


@dataclass(frozen=True)
class ClusterScaling:
    workload: Workload
    unit: str
    points: tuple[ClusterPoint, ...]  # 1..N machines
    limit: str  # the limiting link, in words
    path_gbs: float
    rdma: bool
    gradient_gb: float
    fits: bool  # the model fits one machine (data parallel possible)
    reasons: tuple[str, ...] = field(default_factory=tuple)

    def headline(self) -> str:
        if not self.fits or len(self.points) < 2:
            return self.limit
        last = self.points[-1]
        return T("{limit}: {n} machines give {x:.2f}x one", limit=self.limit, n=last.machines, x=last.speedup)

    def to_dict(self) -> dict:
        return {"workload": self.workload.id, "unit": self.unit, "limit": self.limit, "headline": self.headline(),
                "path_gbs": round(self.path_gbs, 3), "rdma": self.rdma, "gradient_gb": round(self.gradient_gb, 4),
                "fits_one_machine": self.fits, "reasons": list(self.reasons),
                "points": [{"machines": p.machines, "throughput": _json_number(p.throughput, 3),
                            "speedup": _json_number(p.speedup, 4), "t_step_s": _json_number(p.t_step_s, 5),
                            "t_net_s": _json_number(p.t_net_s, 5), "t_exposed_s": _json_number(p.t_exposed_s, 5),
                            "linked": p.linked}
                           for p in self.points]}


def link_label(net: MachineNet) -> str:
    """'40 Gbit/s RoCE with GPUDirect RDMA' / '10 Gbit/s Ethernet without RDMA (through the CPU)'."""
    speeds = [x.port_gbps for x in net.nics if x.nic is not None and x.width > 0]
    speed = min(speeds) if speeds else 0
    if net.rdma:
        return T("{speed:g} Gbit/s with GPUDirect RDMA", speed=speed)
    return T("{speed:g} Gbit/s without RDMA (through the CPU)", speed=speed)


def cluster_scaling(machines: Sequence[tuple[Build, MachineNet]], index: PartIndex, workload: Workload
                    ) -> ClusterScaling:
    """Data-parallel scaling from 1 to len(machines) machines (see the module docstring)."""
    singles = [single_machine(b, index, workload) for b, _ in machines]
    unit = singles[0].unit if singles else workload.unit
    s_bytes = gradient_bytes(workload)
    nets = [n for _, n in machines]
    path = min((n.path_gbs for n in nets), default=0.0)
    slowest_net = min(nets, key=lambda n: n.path_gbs) if nets else None
    rdma = all(n.rdma for n in nets) if nets else False
    ov = overlap() if workload.training else 0.0
    reasons = [T("ring all-reduce between machines: 2(M-1)/M x {gb:.3g} GB of gradients per step over {gbs:.2f} GB/s "
                 "({nccl}); {ov:.0%} of the backward pass hides it (fitted to one machine's runs, taken to hold "
                 "between machines: an assumption; {li})",
                 gb=s_bytes / 1e9, gbs=path, nccl=NCCL_TESTS, ov=ov, li=LI_2020)]
    if slowest_net is not None:
        reasons += list(slowest_net.rdma_why)
    fits = all(s.fits for s in singles) and bool(singles)
    if not workload.training:
        label = T("inference: each machine serves on its own, no traffic between machines")
        pts = tuple(ClusterPoint(m, sum(s.throughput for s in singles[:m]),
                                 (sum(s.throughput for s in singles[:m]) / singles[0].throughput
                                  if singles and singles[0].throughput else 0.0), 0.0, 0.0, 0.0)
                    for m in range(1, len(singles) + 1))
        return ClusterScaling(workload, unit, pts, label, path, rdma, s_bytes / 1e9, fits, tuple(reasons))
    if not fits:
        return ClusterScaling(workload, unit, (), T("the model does not fit one machine: data parallel across machines "
                                                    "is not possible"), path, rdma, s_bytes / 1e9, False,
                              tuple(reasons))
    label = link_label(slowest_net) if slowest_net is not None else T("no network card")
    slowest = min(singles, key=lambda s: s.throughput / max(1, s.n_gpus))
    n_gpus = slowest.n_gpus
    per_step = samples_per_step(workload)
    t1 = per_step * n_gpus / slowest.throughput if slowest.throughput > 0 else float("inf")
    t_compute = scaling_step(workload, slowest.card_rate) if slowest.card_rate > 0 else t1
    from rigbuilder.models import scaling

    t_bwd = scaling.BACKWARD_SHARE * t_compute
    points = []
    for m in range(1, len(singles) + 1):
        if m == 1:
            points.append(ClusterPoint(1, singles[0].throughput, 1.0, t1, 0.0, 0.0))
            continue
        t_net = scaling.allreduce_seconds(s_bytes, m, path)
        exposed = max(0.0, t_net - ov * t_bwd)
        t_m = t1 + exposed
        speedup = m * t1 / t_m if t_m != float("inf") else 0.0
        thr = slowest.throughput * speedup
        points.append(ClusterPoint(m, thr, speedup, t_m, t_net, exposed))
    return ClusterScaling(workload, unit, tuple(points), label, path, rdma, s_bytes / 1e9, True, tuple(reasons))
