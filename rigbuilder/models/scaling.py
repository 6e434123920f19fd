"""Multi-GPU scaling: how much of N x one card's throughput a build gets, and why.

Efficiency = N-card throughput / (N x one card), data parallel, measured by Lambda ("Deep Learning GPU
Benchmarks", PyTorch, PCIe, weak scaling, 2025) for ResNet-50 (CNNs) and BERT-large (transformers,
whose large gradients lose more over PCIe). A card whose chip Lambda measured in several-card
machines uses its own figures; every other card uses the RTX 3090 pair's (a consumer card without
peer-to-peer transfers, the most conservative PCIe figure). Beyond the measured counts the last
step's loss per doubling is repeated.

The build's links reduce it (ring all-reduce runs at the pace of the slowest link). With e the
efficiency on a good link, the communication time grows by r, the slowest card's bandwidth penalty:
``e' = 1 / (1 + (1/e - 1) * r)``, where r multiplies

- the link's shortfall below x8 at PCIe 4.0 (x8 Gen4 loses nothing for one card, TechPowerUp's
  RTX 5090 PCIe scaling, 2025): r = 15.75 GB/s / the link's GB/s, when larger than 1;
- a chipset-attached slot: 13.17 / 6.5 (peer-to-peer GB/s between two CPU-attached RTX 3090s at
  PCIe 4.0 x8 against a card behind the chipset; noonghunna, "club-3090" PCIe P2P notes, 2025);
- a riser: one PCIe generation lower (an assumption: riser cables are often run a generation lower
  for signal integrity; no published measurement was found).

Inference: independent copies (replicated) scale perfectly; a model split over N cards
(pipeline, tensor) streams at about one card's rate (Xiongjie Dai's llama.cpp figures: 2x RTX 3090
47.72 against one 47.40 tokens/s on Llama 3 8B fp16), i.e. efficiency 1/N.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from rigbuilder.domain.build import MOUNT_RISER, Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, Motherboard, Storage
from rigbuilder.models import lanes, perf
from rigbuilder.models import throughput as TP
from rigbuilder.models import vram as V
from rigbuilder.models.lanes import GEN_GBPS_PER_LANE
from rigbuilder.models.workloads import Workload

LAMBDA_SCALING = T("{author}, {title} (PyTorch, PCIe, weak scaling), {site}, {year}", author="Lambda",
                   title="\u201cDeep Learning GPU Benchmarks\u201d", site="lambdalabs.com", year="2025")
CLUB_3090 = T("{author}, {title} PCIe peer-to-peer notes, {year}", author="noonghunna", title="\u201cclub-3090\u201d",
              year="2025")

# efficiency by card count, per chip and workload class ("cnn" = ResNet-50, "transformer" = BERT-large)
MEASURED_SCALING: dict[str, dict[str, dict[int, float]]] = {
    "GeForce RTX 3090": {"cnn": {2: 0.97}, "transformer": {2: 0.86}},
    "A100 PCIe 80 GB": {"cnn": {2: 0.98}, "transformer": {2: 0.88}},
    "H100 PCIe 80 GB": {"cnn": {2: 0.99, 4: 0.99, 8: 0.99}, "transformer": {2: 0.97, 4: 0.93, 8: 0.94}},
}
DEFAULT_CHIP = "GeForce RTX 3090"
GOOD_LINK_GBPS = 8 * GEN_GBPS_PER_LANE[4]
CHIPSET_PENALTY = 13.17 / 6.5
DAI_SPLIT = 47.72 / 47.40


@dataclass(frozen=True)
class CardLink:
    """One card's connection as the build has it."""

    num: int  # GPU number as the user sees it
    width: int  # electrical lanes (0: none)
    gen: int
    source: str = "CPU"  # "CPU", "chipset" or "switch"
    riser: bool = False
    slot: str = ""  # the slot's id, for the reason text

    @property
    def gbps(self) -> float:
        gen = self.gen - 1 if self.riser and self.gen > 1 else self.gen
        return self.width * GEN_GBPS_PER_LANE.get(gen, 0.985)

    def penalty(self) -> tuple[float, list[str]]:
        r, why = 1.0, []
        if self.width <= 0:
            return float("inf"), [T("GPU {num} has no link", num=self.num)]
        if self.gbps < GOOD_LINK_GBPS - 1e-9:
            r *= GOOD_LINK_GBPS / self.gbps
            if self.riser:
                why.append(T("GPU {num} on an x{width} Gen{gen} link ({gbps:.1f} GB/s) through a riser, counted a "
                             "generation lower (assumption)", num=self.num, width=self.width, gen=self.gen, gbps=self.gbps))
            else:
                why.append(T("GPU {num} on an x{width} Gen{gen} link ({gbps:.1f} GB/s)", num=self.num,
                             width=self.width, gen=self.gen, gbps=self.gbps))
        elif self.riser:
            why.append(T("GPU {num} on a riser (counted a PCIe generation lower, an assumption)", num=self.num))
        if self.source == "chipset":
            r *= CHIPSET_PENALTY
            if self.slot:
                why.append(T("GPU {num} on a chipset x{width} slot ({slot}): a chipset-attached card drags every "
                             "collective ({source})", num=self.num, width=self.width, slot=self.slot, source=CLUB_3090))
            else:
                why.append(T("GPU {num} on a chipset x{width} slot: a chipset-attached card drags every collective "
                             "({source})", num=self.num, width=self.width, source=CLUB_3090))
        return r, why


def workload_class(wl: Workload) -> str:
    if wl.kind in ("llm-inference", "diffusion-inference"):
        return "inference"
    if wl.kind == "image-training" and not wl.model.layers:
        return "cnn"
    return "transformer"


def base_efficiency(chip: str, cls: str, n: int) -> tuple[float, str]:
    """(efficiency on good links, what it rests on) for ``n`` cards of ``chip``."""
    if n <= 1:
        return 1.0, ""
    table = MEASURED_SCALING.get(chip, MEASURED_SCALING[DEFAULT_CHIP])[cls]
    which = chip if chip in MEASURED_SCALING else DEFAULT_CHIP
    if n in table:
        return table[n], T("measured for {n}x {chip} ({source})", n=n, chip=which, source=LAMBDA_SCALING)
    counts = sorted(table)
    below = [c for c in counts if c <= n]
    c0 = below[-1] if below else counts[0]
    e0 = table[c0]
    prev = [c for c in counts if c < c0]
    step = (e0 / table[prev[-1]]) if prev else e0  # loss per doubling
    import math

    doublings = math.log2(n / c0)
    e = e0 * step ** doublings
    return max(0.05, min(1.0, e)), T("extrapolated from {n}x {chip} ({source}); the loss per doubling of cards "
                                     "repeated", n=c0, chip=which, source=LAMBDA_SCALING)


def efficiency(workload: Workload, n_gpus: int, links: Sequence[CardLink] = (), *, chip: str = DEFAULT_CHIP,
               strategy: str = "replicated") -> float:
    """Scaling efficiency of ``n_gpus`` cards on ``links`` (see the module docstring)."""
    return explain(workload, n_gpus, links, chip=chip, strategy=strategy)[0]


def explain(workload: Workload, n_gpus: int, links: Sequence[CardLink] = (), *, chip: str = DEFAULT_CHIP,
            strategy: str = "replicated") -> tuple[float, list[str]]:
    """(efficiency, reasons): the reasons name each card that lowers it."""
    cls = workload_class(workload)
    if n_gpus <= 1:
        return 1.0, []
    if cls == "inference":
        if strategy == "replicated":
            return 1.0, [T("independent copies, one per card: no communication")]
        return min(1.0, DAI_SPLIT) / n_gpus, [
            T("the model is split over {n} cards: one stream runs at about one card's speed ({source})", n=n_gpus,
              source="Xiongjie Dai, \u201cGPU-Benchmarks-on-LLM-Inference\u201d, 2024")]
    e, basis = base_efficiency(chip, cls, n_gpus)
    reasons = [basis]
    worst, worst_why = 1.0, []
    for ln in links:
        r, why = ln.penalty()
        worst_why += why
        worst = max(worst, r)
    if worst == float("inf"):
        return 0.0, reasons + worst_why
    if worst > 1.0:
        e = 1.0 / (1.0 + (1.0 / e - 1.0) * worst)
    return e, reasons + worst_why


@dataclass(frozen=True)
class CardFigure:
    num: int
    part_id: str
    name: str
    rate: float  # one card, after its power limit
    power_fraction: float  # of board power (1.0: no limit)
    throughput: TP.Throughput
    link: Optional[CardLink]


@dataclass(frozen=True)
class BuildThroughput:
    workload: Workload
    value: float  # the build's estimated throughput, in ``unit``
    unit: str
    n_gpus: int
    efficiency: float
    reasons: tuple[str, ...]
    strategy: Optional[str]  # how the model is held: "replicated", "zero3", "tensor", "pipeline"; None: does not fit
    need: Optional[V.VramNeed]
    fits: bool
    cards: tuple[CardFigure, ...] = ()
    measured: bool = False  # every card's rate is measured
    basis: str = "estimated"  # "measured" (every card), "scaled" (every card measured or scaled from one), "estimated"
    typical_error: Optional[float] = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {
            "workload": self.workload.id, "model": self.workload.model.name, "params": self.workload.model.params,
            "value": round(self.value, 3), "unit": self.unit, "n_gpus": self.n_gpus,
            "efficiency": round(self.efficiency, 4), "reasons": list(self.reasons), "strategy": self.strategy,
            "fits": self.fits, "vram_per_gpu_gb": None if self.need is None else self.need.to_dict(),
            "measured": self.measured, "basis": self.basis,
            "typical_error": None if self.typical_error is None else round(self.typical_error, 4),
            "notes": list(self.notes),
            "cards": [{"gpu": c.num, "part_id": c.part_id, "name": c.name, "rate": round(c.rate, 3),
                       "power_fraction": round(c.power_fraction, 4), "throughput": c.throughput.to_dict(),
                       "link": None if c.link is None else {"width": c.link.width, "gen": c.link.gen,
                                                             "source": c.link.source, "riser": c.link.riser}}
                      for c in self.cards],
        }


def build_links(build: Build, index: PartIndex) -> list[tuple[int, GPU, Optional[CardLink], Optional[float]]]:
    """(GPU number, card, its link or None, its power limit) for every GPU the build names that the
    catalog knows. Widths as the checks compute them (``rigbuilder.models.lanes``: the board's lane
    table for the slots and M.2 sockets in use, and the CPU's generation)."""
    board = index.get(build.motherboard)
    board = board if isinstance(board, Motherboard) else None
    cpu = index.get(build.cpu)
    cpu = cpu if isinstance(cpu, CPU) else None
    gpus = [(i + 1, pl, index.get(pl.part_id)) for i, pl in enumerate(build.gpus)]
    gpus = [(num, pl, g) for num, pl, g in gpus if isinstance(g, GPU)]
    widths: dict[str, int] = {}
    if board is not None:
        storage = [(d, s.count, s.m2) for s in build.storage if isinstance(d := index.get(s.part_id), Storage)]
        used = set(lanes.m2_assignment(board, storage))
        for _, pl, _ in gpus:
            if pl.position is not None and (slot := board.slot_at(pl.position)) is not None:
                used.add(slot.id)
        widths = lanes.slot_widths(board, used, cpu.pcie_lanes if cpu else None)
    out = []
    for num, pl, g in gpus:
        link = None
        if board is not None and pl.position is not None and (slot := board.slot_at(pl.position)) is not None:
            ln = lanes.link_for(slot, widths.get(slot.id, slot.lanes), g.pcie_gen, g.pcie_lanes,
                                cpu.pcie_gen if cpu else None)
            link = CardLink(num, ln.width, ln.gen, slot.source, pl.mount == MOUNT_RISER, slot.id)
        out.append((num, g, link, pl.power_limit_w))
    return out


def build_throughput(build: Build, catalog: PartIndex, workload: Workload) -> BuildThroughput:
    """The build's throughput on ``workload``: per card (power limits through ``perf``) x count x scaling."""
    cards = build_links(build, catalog)
    n = len(cards)
    if n == 0:
        return BuildThroughput(workload, 0.0, workload.unit, 0, 0.0, (T("the build has no GPU"),), None, None, False)
    figs = []
    for num, gpu, link, limit in cards:
        t = TP.estimate(gpu, workload)
        frac = 1.0
        if limit and gpu.board_power_w:
            frac = min(1.0, limit / gpu.board_power_w)
        figs.append(CardFigure(num, gpu.id, gpu.name, t.value * perf.throughput(frac), frac, t, link))
    smallest = min((gpu for _, gpu, _, _ in cards), key=lambda g: g.vram_gb)
    strategy, nd = V.best_strategy(workload, smallest, n)
    notes: list[str] = []
    if len({g.id for _, g, _, _ in cards}) > 1:
        notes.append(T("mixed cards: data-parallel training runs at the slowest card's pace; memory is judged "
                       "on the smallest card ({name}, {vram:g} GB)", name=smallest.name, vram=smallest.vram_gb))
    if any(f.power_fraction < perf.KNEE for f in figs):
        notes.append(T("a power limit below 70% of board power: its throughput is an extrapolation"))
    links = [f.link for f in figs if f.link is not None]
    if workload_class(workload) != "inference" and len(links) < n and n > 1:
        notes.append(T("some cards have no known link (no board, or a riser not plugged in): their links are not "
                       "judged"))
    chip = cards[0][1].chip_model
    eff, reasons = explain(workload, n, links, chip=chip, strategy=strategy or "replicated")
    if workload_class(workload) == "inference" or workload.kind == "diffusion-inference":
        total = sum(f.rate for f in figs) * eff if strategy in (None, "replicated") else min(f.rate for f in figs) * n * eff
    else:
        total = min(f.rate for f in figs) * n * eff
    measured = all(f.throughput.measured for f in figs)
    basis = ("measured" if measured else "scaled" if all(f.throughput.basis in ("measured", "scaled") for f in figs)
             else "estimated")
    errs = [f.throughput.typical_error for f in figs if f.throughput.typical_error is not None]
    return BuildThroughput(workload, total if strategy is not None else 0.0, workload.unit, n, eff, tuple(reasons),
                           strategy, nd, strategy is not None, tuple(figs), measured, basis,
                           max(errs) if errs else None, tuple(notes))
