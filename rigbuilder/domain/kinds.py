"""Part kinds and the roles they play in a build, declared once (the way Picard's
``formats/registry.py`` registers each file format and reads names and extensions from it).

Each :class:`Kind` names its part class (whose fields are the catalog schema), its labels, its
catalog file, the columns a catalog list shows, the PCPartPicker categories a parts list names it
by, and the :class:`Role` it plays in a build: which attribute of :class:`~rigbuilder.domain.build.Build`
holds it, how many a build holds, whether every build needs one, the command line's word for it.

Whoever lists kinds or roles reads them here: the catalog loader (file names), the limits (how
many), the edits (which roles can be set or removed, what changed), the ``.rig`` file's order, the
report's bill and subtotals, the list import (categories, order), the catalog panel (labels,
columns) and the command line (flags). Adding a part kind is one entry in :data:`KINDS` beside its
class in :mod:`rigbuilder.domain.parts`, plus the rules and data that are new about it.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Optional

from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.parts import CPU, GPU, NIC, PSU, Case, Cooler, MemoryKit, Motherboard, Part, Riser, Storage

MAX_ITEMS = 64
"""The most entries a list role (GPUs, memory kits, drives, network cards) may have."""
MAX_PSUS = 2
"""The most power supplies a build holds (the second one beside the first)."""

ONE, LIST, COUNTED, PLACED, UNDER = "one", "list", "counted", "placed", "under"
"""How a role holds its parts in a build: ``one`` an id or None (``build.cpu``); ``list`` a list of
ids (``build.psus``); ``counted`` entries with a ``part_id`` and a ``count`` (``build.memory``);
``placed`` the GPU placements (``build.gpus``); ``under`` an id on each GPU placement (its riser)."""


@dataclass(frozen=True)
class Role:
    """Where a kind's parts sit in a build."""

    attr: str  # the Build attribute ("psus"); for ``under``: the GpuPlacement attribute ("riser")
    shape: str  # ONE, LIST, COUNTED, PLACED or UNDER
    most: int  # how many a build holds (for COUNTED: how many entries)
    required: bool  # every build needs one (a build without one gets build.incomplete, totals say so)
    flag: str  # the command line's word for the role (``--board``, ``--set board=ID``, ``--remove board``)


@dataclass(frozen=True)
class Kind:
    name: str  # "gpu": a part's KIND, its role's name in edits
    cls: type[Part]
    label: str  # N_: the kind's title in lists, the catalog panel and the report ("Power supply")
    word: str  # N_: the kind in running text ("PSU": 'without board, PSU', 'Set PSU: ...')
    file: str  # the shipped catalog file's stem ("psus": psus.json, psus-more.json)
    role: Role
    columns: tuple[tuple[str, str], ...]  # (N_ title, field) a catalog list shows; a length's title holds {unit}
    categories: tuple[str, ...] = ()  # the PCPartPicker categories that are this kind (list import)
    bill: int = 0  # where its lines stand in a report's bill of parts (lower first)
    draws: bool = False  # its parts draw power of their own (``models.power``): a share of the power chart

    @property
    def prefix(self) -> str:
        """The catalog id's prefix ("gpu-")."""
        return self.cls.PREFIX

    @property
    def fields(self) -> tuple[str, ...]:
        """The catalog fields of the kind (its class's fields; ``rigbuilder.catalog.schema`` validates them)."""
        return tuple(f.name for f in fields(self.cls) if f.name != "origin")


def _cols(*pairs: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return ((N_("Name"), "name"), *pairs, (N_("Price"), "price"))


KINDS: tuple[Kind, ...] = (
    Kind("gpu", GPU, N_("GPU"), N_("GPU"), "gpus", Role("gpus", PLACED, MAX_ITEMS, False, "gpu"),
         _cols((N_("VRAM GB"), "vram_gb"), (N_("Cooler"), "cooler"), (N_("Slots"), "slot_width"),
               (N_("Length {unit}"), "length_mm"), (N_("Power W"), "board_power_w")),
         ("Video Card",), bill=5, draws=True),
    Kind("motherboard", Motherboard, N_("Motherboard"), N_("board"), "motherboards",
         Role("motherboard", ONE, 1, True, "board"),
         _cols((N_("Socket"), "socket"), (N_("Form"), "form_factor"), (N_("Slots"), "slots")),
         ("Motherboard",), bill=0, draws=True),
    Kind("cpu", CPU, N_("CPU"), N_("CPU"), "cpus", Role("cpu", ONE, 1, True, "cpu"),
         _cols((N_("Socket"), "socket"), (N_("Cores"), "cores"), (N_("Lanes"), "pcie_lanes"), (N_("TDP W"), "tdp_w")),
         ("CPU",), bill=1, draws=True),
    Kind("memory", MemoryKit, N_("Memory"), N_("memory"), "memory", Role("memory", COUNTED, MAX_ITEMS, True, "memory"),
         _cols(), ("Memory",), bill=3, draws=True),
    Kind("storage", Storage, N_("Storage"), N_("storage"), "storage",
         Role("storage", COUNTED, MAX_ITEMS, True, "storage"), _cols(), ("Storage",), bill=4, draws=True),
    Kind("psu", PSU, N_("Power supply"), N_("PSU"), "psus", Role("psus", LIST, MAX_PSUS, True, "psu"),
         _cols((N_("Watts"), "wattage"), (N_("80 PLUS"), "efficiency"), (N_("ATX"), "atx_version"),
               (N_("PCIe 8-pin"), "pcie_8pin")),
         ("Power Supply",), bill=8),
    Kind("case", Case, N_("Case"), N_("case"), "cases", Role("case", ONE, 1, True, "case"),
         _cols((N_("Positions"), "expansion_slots"), (N_("GPU {unit}"), "max_gpu_length_mm"),
               (N_("Cooler {unit}"), "max_cpu_cooler_height_mm")),
         ("Case",), bill=9, draws=True),
    Kind("cooler", Cooler, N_("CPU cooler"), N_("CPU cooler"), "coolers", Role("cooler", ONE, 1, False, "cooler"),
         _cols(), ("CPU Cooler",), bill=2, draws=True),
    Kind("nic", NIC, N_("Network card"), N_("network card"), "nics", Role("nics", LIST, MAX_ITEMS, False, "nic"),
         _cols(), ("Wired Network Adapter",), bill=7, draws=True),
    Kind("riser", Riser, N_("Riser"), N_("riser"), "risers", Role("riser", UNDER, MAX_ITEMS, False, "riser"),
         _cols((N_("Length {unit}"), "length_mm"), (N_("PCIe gen"), "pcie_gen"), (N_("Lanes"), "lanes"),
               (N_("Type"), "type")),
         bill=6),
)
"""Every part kind, in the order lists show them."""

BY_NAME: dict[str, Kind] = {k.name: k for k in KINDS}
PART_KINDS: dict[str, type[Part]] = {k.name: k.cls for k in KINDS}
"""Every part class by its kind name."""
KIND_LABELS: dict[str, str] = {k.name: k.label for k in KINDS}
"""Each kind's title (English; translated where shown)."""
FILE_KINDS: dict[str, str] = {k.file: k.name for k in KINDS}
"""Shipped catalog file-name stem (before an optional ``-suffix``) -> kind."""
BUILD_ATTRS: tuple[str, ...] = tuple(k.role.attr for k in KINDS if k.role.shape != UNDER)
"""The Build attributes that hold parts (``gpus``, ``motherboard``, ``psus``, ...)."""
SINGLE_ROLES: tuple[str, ...] = tuple(k.name for k in KINDS if k.role.shape == ONE)
"""The roles a build holds one part of (board, CPU, case, cooler)."""
REQUIRED: tuple[str, ...] = tuple(k.name for k in KINDS if k.role.required)
"""The roles every build needs, in the order texts list them."""
CATEGORY_KINDS: dict[str, str] = {c: k.name for k in KINDS for c in k.categories}
"""PCPartPicker's categories and the catalog kind each one is."""
BILL: tuple[Kind, ...] = tuple(sorted(KINDS, key=lambda k: k.bill))
"""The kinds in the order a bill of parts lists them."""


def drawing(table=KINDS) -> tuple[Kind, ...]:
    """The kinds whose parts draw power of their own, in bill order: the power chart's shares
    (``models.plots``), each named by its kind's label; a new kind with ``draws`` set is one more."""
    return tuple(k for k in sorted(table, key=lambda k: k.bill) if k.draws)
FLAGS: dict[str, str] = {k.role.flag: k.name for k in KINDS}
"""The command line's word for each role -> the role."""


def kind(name: str) -> Kind:
    return BY_NAME[name]


def kind_of_id(part_id: str) -> Optional[str]:
    """The kind a catalog id names by its prefix, or None."""
    for k in KINDS:
        if part_id.startswith(k.prefix):
            return k.name
    return None


def word(role: str) -> T:
    """The role (a kind's name) as running text names it ('PSU'), translated where shown."""
    k = BY_NAME.get(role)
    return T(k.word) if k else T.verbatim(role)


def words(roles) -> T:
    """'memory, storage' as a translatable list of roles (empty for none)."""
    out: list[str] = []
    for i, role in enumerate(roles):
        if i:
            out.append(T(", "))
        out.append(word(role))
    return T.join(*out) if out else T.verbatim("")


def ids_in(build, name: str) -> list[str]:
    """The part ids a build holds in the role ``name``, each entry once (a counted entry once)."""
    r = BY_NAME[name].role
    v = getattr(build, r.attr) if r.shape != UNDER else None
    if r.shape == ONE:
        return [v] if v else []
    if r.shape == LIST:
        return list(v)
    if r.shape in (COUNTED, PLACED):
        return [e.part_id for e in v]
    return [x for x in (getattr(g, r.attr) for g in build.gpus) if x]


def quantities(build) -> list[tuple[str, int]]:
    """Each catalog id the build names and how many of it (a counted entry its count), in the bill's order."""
    out: dict[str, int] = {}
    for k in BILL:
        if k.role.shape == COUNTED:
            pairs = [(e.part_id, e.count) for e in getattr(build, k.role.attr)]
        else:
            pairs = [(pid, 1) for pid in ids_in(build, k.name)]
        for pid, n in pairs:
            out[pid] = out.get(pid, 0) + n
    return list(out.items())


def part_ids(build) -> list[str]:
    """Every catalog id the build names, in the bill's order (:data:`BILL`)."""
    return [pid for k in BILL for pid in ids_in(build, k.name)]
