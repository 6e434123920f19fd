"""What a builder would choose: the parts filters the search applies to every pool, declared once here
with their reasons and sources (``CHOICES``), each one adjustable (``Request.choices``: (name, on);
``optimise --choice NAME=off``). The search (``search``, ``frames``) and the brute-force reference of
the tests read the same functions, so an answer never holds a part a builder would replace before
buying. docs/optimiser.md "What a builder would choose" lists them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.parts import CPU, GPU, PSU, Case, MemoryKit, Motherboard, Riser, Storage
from rigbuilder.models.throughput import has_tensor_cores
from rigbuilder.rules.optimise.policy import training
from rigbuilder.rules.power import hpwr_plugs
from rigbuilder.rules.optimise.request import Request

SYSTEM_DRIVE_GB = 1000.0
"""The least size of the system drive (``system-drive``): the system, the environments and a data set."""


@dataclass(frozen=True)
class Choice:
    name: str
    what: str  # marked for translation
    reason: str
    source: str  # the publication it rests on (author/site, title, year)
    default: bool = True  # on unless the request says otherwise


CHOICES: tuple[Choice, ...] = (
    Choice("memory-channels",
           N_("memory fills at least two channels, four on a platform with four or more (one module per channel)"),
           N_("one module leaves the other channels empty: half the memory bandwidth or less for loading data, "
              "for the price of one more module"),
           "the CPU makers' memory channel counts (catalog field memory_channels); Frank, 'Deep Learning PC', "
           "2019 (2 x 8 GB)"),
    Choice("memory-vs-vram",
           N_("system memory holds at least the cards' total VRAM (--ram-per-vram, default 1)"),
           N_("a model and its data are staged in system memory before they go to the cards"),
           "Tim Dettmers, 'A Full Hardware Guide to Deep Learning', 2018"),
    Choice("system-drive",
           N_("the system drive is an SSD of at least 1 TB (NVMe where the board has an M.2 socket); never an HDD "
              "as the only drive"),
           N_("the system, the environments and the current data set live on it; an HDD is for archives"),
           "Frank, 'Deep Learning PC', 2019 (an SSD for the system and the current data, an HDD for archives)"),
    Choice("vram-margin",
           N_("each card holds the workload with a quarter of its VRAM to spare for training, 15% for inference"),
           N_("the estimate of the need leaves out larger batches, longer sequences and the framework's own "
              "buffers; a card filled to the last gigabyte runs out of memory in practice (inference: its need "
              "already counts the KV cache, so less is left out)"),
           "a judgement of this program: the VRAM model (the models' documentation, 'VRAM need') counts weights, gradients, "
           "optimiser state and activations at one batch size only"),
    Choice("training-link",
           N_("for training, each card's link runs at most one PCIe generation below the card's own"),
           N_("each generation down halves the bandwidth per lane (Gen3 0.985, Gen4 1.969, Gen5 3.938 GB/s): "
              "a Gen5 card on Gen3 gets a quarter of it"),
           "PCI-SIG, PCI Express Base Specifications 3.0-5.0; Tim Dettmers, 'A Full Hardware Guide to Deep "
           "Learning', 2018"),
    Choice("training-vram",
           N_("for training, each card has at least 12 GB of VRAM"),
           N_("a card that holds today's model with nothing to spare is outgrown by the next one: larger images, "
              "batches or 3D data; for computer vision, builders' guides advise no less than 12 GB (24 GB for language "
              "models, whose need the VRAM model works out)"),
           "Antonis Makropoulos, 'How to Build a Multi-GPU System for Deep Learning in 2023', Towards Data Science, "
           "2023 ('for computer vision tasks not below 12 GB'); Tim Dettmers, 'Which GPU(s) to Get for Deep "
           "Learning', 2019 (8 GB too small for computer vision)"),
    Choice("tensor-cores",
           N_("for training, each card has tensor cores (matrix units)"),
           N_("mixed-precision training runs on them: a card without them (Pascal, Maxwell, the GTX 16 series, "
              "older Radeons) trains at a fraction of the speed its FLOPS suggest, and current frameworks are "
              "dropping it"),
           "Tim Dettmers, 'Which GPU(s) to Get for Deep Learning', 2019 (for convolutional networks and "
           "transformers: tensor cores first); Antonis Makropoulos, 'How to Build a Multi-GPU System for Deep "
           "Learning in 2023', Towards Data Science, 2023 (tensor cores: look for them in 2023)"),
    Choice("platform-link",
           N_("the board runs each card at the PCIe generation the card and the CPU share (no board that holds the "
              "CPU's lanes a generation back)"),
           N_("the board is the cheapest part of the platform to get right: a board of the same socket that runs the "
              "CPU's own generation costs little more (a B550 rather than a B450 under a Ryzen 3000), and the "
              "card's link, the loading of weights and data, doubles"),
           "a judgement of this program; the chipset makers' specifications (AMD B450: PCIe 3.0 graphics slot, "
           "B550 and X570: PCIe 4.0); PCI-SIG, PCI Express Base Specifications 3.0-5.0"),
    Choice("platform-age",
           N_("the CPU came out at most 4 years before the card"),
           N_("a new card on a platform from years before it is held back by the platform (its PCIe generation, "
              "cores, memory) and has no upgrade path; 4 years is the gap of a common used build, RTX 3090s "
              "(2020) on an X99 board with a Xeon E5 v4 (2016)"),
           "a judgement of this program, bounded by Antonis Makropoulos, 'How to Build a Multi-GPU System for Deep "
           "Learning in 2023', Towards Data Science, 2023 (used X99 or X299 platforms under RTX 3090s)"),
    Choice("native-sockets",
           N_("a card with a 12VHPWR/12V-2x6 socket is fed from a native socket of the PSU, one per card (no adapter "
              "from 8-pin cables), today and when grown"),
           N_("the 16-pin plug carries up to 600 W with little margin: the melted RTX 4090 plugs of 2022 were mostly "
              "the bulky adapters, bent or not fully seated; a PSU with native sockets costs little more than one "
              "without"),
           "PCI-SIG, statement to its members on 12VHPWR adapters and non-ATX 3.0 power supplies, 2022; Gamers "
           "Nexus, investigation of the melted RTX 4090 power connectors, 2022 (plugs not fully seated, "
           "debris); NVIDIA, statement on the RTX 4090 power connector reports, 2022"),
    Choice("case-fit-confirmed",
           N_("the case's GPU length limit and expansion positions are confirmed (not unverified community or "
              "catalog figures) for a build with cards in its slots"),
           N_("whether the cards fit rests on these two figures; a builder does not order a case on figures nobody "
              "checked, when a case whose maker states them costs little more"),
           "a judgement of this program: the case makers' specification pages and manuals, which the catalog cites "
           "for each confirmed figure",
           default=False),  # off until the catalog confirms enough priced cases (docs/optimiser.md)
)
"""The builder's choices, each on by default but ``case-fit-confirmed`` (see its ``default``)."""

NAMES = tuple(c.name for c in CHOICES)
DEFAULTS = {c.name: c.default for c in CHOICES}


def on(req: Request, name: str) -> bool:
    """Whether choice ``name`` holds for ``req`` (its default unless the request turns it on or off)."""
    return dict(req.choices).get(name, DEFAULTS.get(name, True))


VRAM_MARGIN = 0.25
"""The share of a card's VRAM left to spare for training (``vram-margin``)."""

INFERENCE_VRAM_MARGIN = 0.15
"""The share left to spare for inference (``vram-margin``): its need already counts the weights and the KV
cache at the workload's context; what it leaves out is the framework's own buffers and a longer context."""

TRAINING_VRAM_GB = 12.0
"""The least VRAM per card for training (``training-vram``)."""

PLATFORM_AGE_YEARS = 4
"""The most years the CPU may have come out before the card (``platform-age``)."""


def explicit(req: Request, name: str) -> bool:
    """Whether the request names choice ``name`` itself (``--choice NAME=on`` or ``=off``)."""
    return any(n == name for n, _ in req.choices)


def yours(req: Request, p) -> bool:
    """Whether the request owns or insists on part ``p`` (taken as it is: the choices judge what the search
    picks, not what you have or named)."""
    return any(pid == p.id for _kind, pid in (*req.own, *req.insist))


def smaller_cards_may_help(req: Request) -> bool:
    """Whether a request that found no build may be answered with cards under ``TRAINING_VRAM_GB``: it trains,
    leaves ``training-vram`` at its default (``--choice training-vram=on`` keeps it strict) and asks for no
    more VRAM itself."""
    return training(req) and on(req, "training-vram") and not explicit(req, "training-vram") \
        and req.min_vram_gb < TRAINING_VRAM_GB


def card_ok(req: Request, g: GPU) -> bool:
    """``training-vram``: a card for training has at least ``TRAINING_VRAM_GB``; ``tensor-cores``: and tensor
    cores (``models.throughput.has_tensor_cores``: an NVIDIA architecture that has them, or any card whose
    catalog row states a tensor figure)."""
    if not training(req) or yours(req, g):
        return True
    if on(req, "training-vram") and g.vram_gb < TRAINING_VRAM_GB:
        return False
    return not on(req, "tensor-cores") or has_tensor_cores(g)


def fits(req: Request, scorer, g: GPU, n: int) -> bool:
    """Whether ``n`` cards of ``g`` hold the workload, with the margin (``vram-margin``) where the
    throughput model can say so; for training only cards a builder would train on (``card_ok``)."""
    if not card_ok(req, g):
        return False
    if on(req, "vram-margin"):
        try:
            return scorer.fits(g, n, VRAM_MARGIN if training(req) else INFERENCE_VRAM_MARGIN)
        except TypeError:  # a scorer without a margin (the tests' stand-in)
            pass
    return scorer.fits(g, n)


def problems(req: Request) -> list[str]:
    """The request's choices that name no choice of ``CHOICES``."""
    return [T("choice {name}: must be one of {names}", name=f"{n!r:.40}", names=", ".join(NAMES))
            for n, _ in req.choices if n not in NAMES]


def modules_needed(req: Request, board: Motherboard, cpu: CPU) -> int:
    """The fewest memory modules a build of ``board`` and ``cpu`` takes (``memory-channels``)."""
    if not on(req, "memory-channels"):
        return 1
    want = 4 if (cpu.memory_channels or 2) >= 4 else 2
    return max(1, min(want, board.dimm_slots))


def ram_needed(req: Request, vram_total_gb: float) -> float:
    """The least system memory in GB (``memory-vs-vram``: ``ram_per_vram`` times the grown build's VRAM)."""
    return req.ram_per_vram * vram_total_gb if on(req, "memory-vs-vram") else 0.0


def memory_ok(req: Request, m: MemoryKit, board: Motherboard, cpu: CPU, vram_total_gb: float) -> bool:
    return m.modules >= modules_needed(req, board, cpu) and m.total_gb >= ram_needed(req, vram_total_gb)


def drive_gb(req: Request) -> float:
    """The least size of the drive: the request's, and 1 TB for a system drive (``system-drive``)."""
    return max(req.min_storage_gb, SYSTEM_DRIVE_GB if on(req, "system-drive") else 0.0)


CASE_FIT_FACTS = ("max_gpu_length_mm", "expansion_slots")
"""The case figures a build with cards in its slots rests on (``case-fit-confirmed``)."""


def case_ok(req: Request, case: Case) -> bool:
    """``case-fit-confirmed``: the case states its GPU length limit and expansion positions, neither
    unverified (a community row's figures all are); a case you own or insist on is taken as it is."""
    if not on(req, "case-fit-confirmed") or yours(req, case):
        return True
    return case.max_gpu_length_mm is not None and not case.community \
        and not any(f in case.unverified for f in CASE_FIT_FACTS)


def is_ssd(s: Storage) -> bool:
    return "ssd" in (s.type or "").lower() or s.pcie_lanes > 0


def storage_ok(req: Request, s: Storage, m2: bool) -> bool:
    """The drive for a board that has (``m2``) or has no M.2 socket."""
    if s.capacity_gb < drive_gb(req):
        return False
    if not on(req, "system-drive"):
        return True
    return is_ssd(s) and (s.pcie_lanes > 0 or not m2)


def link_gen(g: GPU, board: Motherboard, cpu: CPU, position: Optional[int], riser: Optional[Riser] = None) -> int:
    slot = board.slot_at(position) if position is not None else None
    gen = g.pcie_gen if slot is None else min(slot.gen, g.pcie_gen)
    if slot is not None and slot.source == "CPU" and cpu.pcie_gen:
        gen = min(gen, cpu.pcie_gen)
    if riser is not None:
        gen = min(gen, riser.pcie_gen)
    return gen


def age_ok(req: Request, g: GPU, cpu: CPU) -> bool:
    """``platform-age``: the CPU came out at most ``PLATFORM_AGE_YEARS`` before the card (where both years
    are known; not where the card or the CPU is yours)."""
    if not on(req, "platform-age") or not g.release_year or not cpu.release_year or yours(req, g) \
            or yours(req, cpu):
        return True
    return g.release_year - cpu.release_year <= PLATFORM_AGE_YEARS


def link_ok(req: Request, g: GPU, board: Motherboard, cpu: CPU, positions: Sequence[int],
            riser: Optional[Riser] = None) -> bool:
    """The platform and the links a builder would choose for cards of ``g`` at ``positions``:
    ``training-link`` (for training, every card's link at most one generation below the card's own),
    ``platform-link`` (the board's slot runs each card at the generation the card and the CPU share; a
    riser is judged by ``training-link`` alone; not on a board that is yours) and ``platform-age``."""
    if not age_ok(req, g, cpu):
        return False
    if on(req, "platform-link") and not yours(req, board):
        shared = min(g.pcie_gen, cpu.pcie_gen or g.pcie_gen)
        if any(link_gen(g, board, cpu, p) < shared for p in positions):
            return False
    if not (on(req, "training-link") and training(req)):
        return True
    return all(link_gen(g, board, cpu, p, riser) >= g.pcie_gen - 1 for p in positions)


def sockets_ok(req: Request, g: GPU, n_now: int, n_grown: int, p1: PSU, p2: Optional[PSU] = None) -> bool:
    """``native-sockets``: the PSU bought now has a native 12V-2x6 socket for each 12VHPWR/12V-2x6 socket of
    today's ``n_now`` cards, and with the second PSU (``p2``, added when growing) for the grown build's
    ``n_grown`` (not where a PSU of the option is yours: it is taken as it is)."""
    per = hpwr_plugs(g)
    if not per or not on(req, "native-sockets") or yours(req, p1) or (p2 is not None and yours(req, p2)):
        return True
    grown = p1.hpwr_sockets + (p2.hpwr_sockets if p2 is not None else 0)
    return p1.hpwr_sockets >= per * n_now and grown >= per * n_grown
