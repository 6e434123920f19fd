"""Part kinds as frozen dataclasses.

The field list of each class is the catalog schema (docs/catalog-format.md): the validator in
``rigbuilder.catalog.schema`` reads these type hints, so a field is declared once, here.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import ClassVar, Optional

from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.safeio import display_text

SLOT_PITCH_MM = 20.32
"""Expansion-slot pitch: 0.8 in (ATX specification)."""

COOLER_TYPES = ("blower", "open-air", "passive", "hybrid", "water-block")
GPU_CONNECTORS = ("6-pin", "8-pin", "12-pin", "12VHPWR", "12V-2x6", "8-pin EPS")
"""``12-pin`` is NVIDIA's RTX 30 Founders Edition connector, fed by an adapter from two 8-pin cables."""
EFFICIENCY_LEVELS = ("80 PLUS", "Bronze", "Silver", "Gold", "Platinum", "Titanium")
OPEN_FRAME = "Open frame"
"""The ``type`` of a case row that is an open frame (cards on risers, held off the board)."""
SLOT_WIDTHS = (1, 1.5, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75, 4, 4.25, 4.5)



YOUR_OWN = N_("your own figures")
SEGMENT_WORDS: dict[str, str] = {"consumer": N_("consumer"), "workstation": N_("workstation"),
                                 "datacenter": N_("data centre")}
"""A GPU's market segment (its ``segment`` field's values) in words, translated where shown."""
COMMUNITY = N_("community data")
COMMUNITY_SOURCE = "BuildCores OpenDB"
"""A row whose source starts with this was imported from the community-maintained OpenDB."""


FIELD_LABELS: dict[str, str] = {  # the words a catalog field is named by (translated where shown)
    "price": N_("price"), "currency": N_("currency"), "price_note": N_("price note"), "vendor": N_("vendor"),
    "chip_model": N_("chip model"), "chip": N_("chip"), "architecture": N_("architecture"), "segment": N_("segment"),
    "vram_gb": N_("VRAM (GB)"), "memory_type": N_("memory type"), "bandwidth_gbs": N_("bandwidth (GB/s)"),
    "fp32_tflops": N_("FP32 (TFLOPS)"), "tensor_tflops": N_("tensor (TFLOPS)"), "board_power_w": N_("board power (W)"),
    "idle_power_w": N_("idle power (W)"), "length_mm": N_("length"), "height_mm": N_("height"),
    "slot_width": N_("slot width"), "cooler": N_("cooler"), "cooler_derived": N_("cooler type derived from"),
    "power_connectors": N_("power connectors"),
    "pcie_gen": N_("PCIe generation"), "pcie_lanes": N_("PCIe lanes"), "release_year": N_("release year"),
    "socket": N_("socket"), "chipset": N_("chipset"), "form_factor": N_("form factor"), "width_mm": N_("width"),
    "depth_mm": N_("depth"), "dimm_slots": N_("DIMM slots"), "max_memory_gb": N_("max. memory (GB)"),
    "expansion_positions": N_("expansion positions"), "cpu_sockets": N_("CPU sockets"), "cores": N_("cores"), "threads": N_("threads"),
    "tdp_w": N_("TDP (W)"), "peak_power_w": N_("peak power (W)"), "memory_types": N_("memory types"),
    "memory_channels": N_("memory channels"), "type": N_("type"), "total_gb": N_("total (GB)"), "modules": N_("modules"),
    "speed_mts": N_("speed (MT/s)"), "ecc": N_("ECC"), "registered": N_("registered"), "voltage": N_("voltage (V)"),
    "interface": N_("interface"), "capacity_gb": N_("capacity (GB)"), "active_power_w": N_("active power (W)"),
    "wattage": N_("wattage (W)"), "efficiency": N_("efficiency"), "atx_version": N_("ATX version"),
    "pcie_8pin": N_("PCIe 8-pin connectors"), "pcie_cables": N_("PCIe cables"), "hpwr_sockets": N_("12VHPWR sockets"),
    "modular": N_("modular"), "noise_db": N_("noise (dB)"), "form_factors": N_("form factors"),
    "expansion_slots": N_("expansion slots"), "max_gpu_length_mm": N_("max. GPU length"),
    "max_cpu_cooler_height_mm": N_("max. CPU cooler height"), "max_psu_length_mm": N_("max. PSU length"),
    "vertical_gpu_slots": N_("vertical GPU slots"), "sockets": N_("sockets"), "radiator_mm": N_("radiator"),
    "fan_power_w": N_("fan power (W)"), "tdp_rating_w": N_("TDP rating (W)"), "speed_gbps": N_("speed (Gbit/s)"),
    "ports": N_("ports"), "protocol": N_("protocol"), "rdma": N_("RDMA"), "power_w": N_("power (W)"),
    "family": N_("controller family"), "port_type": N_("port type"), "rdma_protocols": N_("RDMA protocols"),
    "slots": N_("PCIe slots"), "slot_positions": N_("slot positions"), "m2": N_("M.2 sockets"), "lane_rules": N_("lane sharing rules"),
    "maker": N_("maker"), "model": N_("model"),
    "lanes": N_("lanes"), "angle": N_("angle"), "riser_min_length_mm": N_("min. riser length"),
    "radiator_mounts": N_("radiator mounts"),
}


def field_words(fields) -> T:
    """Catalog field names as texts name them ('form factor, width'), translatable (issue 25: the
    German report showed 'form_factor, width_mm')."""
    words: list[str] = []
    for i, f in enumerate(fields):
        if i:
            words.append(T(", "))
        words.append(T(FIELD_LABELS[f]) if f in FIELD_LABELS else T.verbatim(f.replace("_", " ")))
    return T.join(*words)


def trust_text(origin: str, unverified, community: bool = False) -> str:
    """"verified", "unverified: a, b", for a user part "your own figures", for a row imported
    from a community database "community data; unverified: ..." (one place for the words)."""
    listed = T("unverified: {fields}", fields=field_words(unverified)) if unverified else ""
    head = T(YOUR_OWN) if origin == "user" else T(COMMUNITY) if community else None
    if head is None:
        return listed or T("verified")
    return T.join(head, "; ", listed) if listed else head

@dataclass(frozen=True)
class Part:
    """Fields every catalog row has."""

    KIND: ClassVar[str] = "part"
    PREFIX: ClassVar[str] = ""

    id: str
    maker: str
    model: str
    source: str
    source_date: str
    price: Optional[float] = None
    currency: Optional[str] = None
    price_note: Optional[str] = None
    unverified: tuple[str, ...] = ()
    notes: Optional[str] = None
    origin: str = "shipped"  # "shipped" or "user"; not part of the file format

    @property
    def verified(self) -> bool:
        """Every figure confirmed from a cited published source. A user's own part is never
        verified: its figures are the user's, checked by no one. A community row is never verified
        either: even where it took a curated row's facts, that it is the same product rests on
        the community database's name."""
        return self.origin != "user" and not self.community and not self.unverified

    @property
    def community(self) -> bool:
        """Imported from a community-maintained database (BuildCores OpenDB): every figure it
        gave is unverified."""
        return self.source.startswith(COMMUNITY_SOURCE)

    @property
    def provenance(self) -> str:
        """Where the row comes from, as the JSON output names it: "curated" (written by hand from
        cited sources), "community" (imported from OpenDB) or "user" (the user's own part: the same
        word ``price list`` gives the prices the user entered)."""
        return "user" if self.origin == "user" else "community" if self.community else "curated"

    @property
    def trust(self) -> str:
        """What a user is told about the part's figures, in a few words."""
        return trust_text(self.origin, self.unverified, self.community)

    @property
    def name(self) -> str:
        """The name every door shows (bidirectional controls as visible marks, one line: see
        ``domain.safeio.display_text``); the maker and model are stored as given."""
        if self.model.lower().startswith(self.maker.lower()):
            return display_text(self.model)
        return display_text(f"{self.maker} {self.model}")


@dataclass(frozen=True)
class GPU(Part):
    KIND: ClassVar[str] = "gpu"
    PREFIX: ClassVar[str] = "gpu-"
    CHOICES: ClassVar[dict] = {
        "cooler": COOLER_TYPES,
        "segment": ("consumer", "workstation", "datacenter"),
        "vendor": ("NVIDIA", "AMD", "Intel"),
        "slot_width": SLOT_WIDTHS,
        "power_connectors": GPU_CONNECTORS,
        "pcie_gen": (1, 2, 3, 4, 5, 6),
    }

    vendor: str = "NVIDIA"
    chip_model: str = ""
    chip: str = ""
    architecture: str = ""
    segment: str = "consumer"
    vram_gb: float = 0
    memory_type: str = ""
    bandwidth_gbs: float = 0
    fp32_tflops: float = 0
    tensor_tflops: Optional[float] = None
    board_power_w: float = 0
    idle_power_w: Optional[float] = None
    length_mm: float = 0
    height_mm: Optional[float] = None
    slot_width: float = 2
    cooler: str = "open-air"
    cooler_derived: Optional[str] = None
    """Where the cooler type was derived from the product line rather than read from a source for
    this card (community rows): the line and the publication that gives its cooler type."""
    power_connectors: tuple[str, ...] = ()
    pcie_gen: int = 3
    pcie_lanes: int = 16
    release_year: int = 0
    radiator_mm: Optional[float] = None
    """A hybrid (AIO) card's radiator: its length class in mm (120, 240, 360: the fans it carries), which
    needs a case mount of that size; None for other coolers, or where no source states it (then listed
    in ``unverified``)."""

    @property
    def span(self) -> int:
        """Expansion positions the card covers: its slot width rounded up."""
        return max(1, math.ceil(self.slot_width - 1e-9))


PROBE_WORDS = ("smbios", "dmi collection", "lspci", "probe")
"""Words of a ``confirmed_by`` that names a real machine's slot table, which confirms a slot but
not its place on the board."""
UNPLACED_WORDS = ("position not", "position by", "positions not", "position and physical size not")
"""Words of a ``confirmed_by`` that says its document does not place the slot."""
UNSIZED_WORDS = ("physical size not", "size not in")
"""Words of a ``confirmed_by`` that says its document does not give the slot's physical size."""
_SIZE_IN_NAME = re.compile(r"(?:PCIEX|PCIE_?X|PCI-E\s*\d\.\d\s*X|PCIE\s*\d\.\d\s*X|\bX)(1|4|8|16)(?:\b|\(|_)",
                           re.IGNORECASE)


def size_in_designation(designation: str) -> Optional[int]:
    """The physical size a slot designation names (ASUS ``PCIEX16_2`` or ``PCIEX16(G5)_6``,
    Supermicro ``CPU SLOT6 PCI-E 3.0 X16``; for ``X8 (IN X16)`` the size in the brackets), or None
    where the name gives none (Gigabyte's and ASRock's ``PCIE3``)."""
    inner = re.search(r"IN\s*X(1|4|8|16)\b", designation, re.IGNORECASE)
    if inner:
        return int(inner.group(1))
    m = _SIZE_IN_NAME.search(designation)
    return int(m.group(1)) if m else None


_QUOTED_DESIGNATION = re.compile(r"PCI-?E (?:GEN )?\d\.\d ?X(16|8|4|1)\b(?: ?\(IN X(16|8|4|1)\))?", re.IGNORECASE)


def _quoted_size(text: str) -> Optional[int]:
    """The size a Supermicro designation quoted in a ``confirmed_by`` names ("CPU SLOT4 PCI-E 3.0
    X8 (IN X16)": 16), or None."""
    m = _QUOTED_DESIGNATION.search(text)
    return int(m.group(2) or m.group(1)) if m else None


@dataclass(frozen=True)
class PcieSlot:
    """One expansion slot. How a firmware slot table is read (docs/board-sources.md, "One reading
    of a firmware slot table"): the table's "x8" is the slot's **electrical width** (``lanes``); its
    **physical size** comes from the designation (``PCIEX16_2``) or from a second source
    (``size_source``); its **position** from a layout source (``position_source``)."""

    CHOICES: ClassVar[dict] = {
        "physical": (1, 4, 8, 16),
        "lanes": (0, 1, 2, 4, 8, 16),
        "source": ("CPU", "chipset", "switch"),
        "gen": (1, 2, 3, 4, 5, 6),
    }
    id: str
    position: int
    physical: int
    open_ended: bool
    gen: int
    lanes: int
    source: str
    confirmed_by: Optional[str] = None
    """The published document that confirmed this slot's designation, generation, width and lane
    source (author or maker, title, year), or None where no source confirmed it."""
    position_source: Optional[str] = None
    """The published document that places the slot at its expansion position (a manual's layout
    drawing, a review's photo), where ``confirmed_by`` does not (an SMBIOS slot table names a
    slot's designation, width and root port, not where it sits on the board)."""
    size_source: Optional[str] = None
    """The second source that gives the slot's physical size where ``confirmed_by`` is a slot table
    (whose "x8" is the electrical width) and the designation names no size."""

    @property
    def from_probe(self) -> bool:
        """``confirmed_by`` is a real machine's firmware slot table or lspci tree."""
        by = (self.confirmed_by or "").lower()
        return any(w in by for w in PROBE_WORDS)

    @property
    def size_confirmed(self) -> bool:
        """A source gives the physical size: ``size_source``, a designation that names it, or a
        ``confirmed_by`` that is a document with the slot's size (not a slot table)."""
        if self.size_source:
            return True
        if not self.confirmed_by:
            return False
        if self.from_probe:
            named = size_in_designation(self.id) or _quoted_size(self.confirmed_by)
            return named == self.physical
        return not any(w in self.confirmed_by.lower() for w in UNSIZED_WORDS)

    @property
    def table_confirmed(self) -> bool:
        """The slot's row is confirmed: designation, width, generation and lane source by
        ``confirmed_by``, and its physical size (see ``size_confirmed``)."""
        return bool(self.confirmed_by) and self.size_confirmed

    @property
    def position_confirmed(self) -> bool:
        """A published source places this slot at its position: ``position_source``, or a
        ``confirmed_by`` that is not a machine's SMBIOS slot table (a manual or a spec page with
        its layout)."""
        if self.position_source:
            return True
        by = (self.confirmed_by or "").lower()
        return bool(by) and not any(w in by for w in PROBE_WORDS + UNPLACED_WORDS)


def slot_table_words(slot: PcieSlot) -> T:
    """Flag one of a slot, in words with its source: what confirmed its row, or that none did."""
    if not slot.confirmed_by:
        return T("Slot unconfirmed: no published source confirmed this slot")
    if not slot.size_confirmed:
        return T("Width and lane source from {source}; physical size unconfirmed (a slot table gives the electrical "
                 "width, not the size)", source=slot.confirmed_by)
    if slot.size_source:
        return T("Slot confirmed by {source}; physical size from {size_source}", source=slot.confirmed_by,
                 size_source=slot.size_source)
    return T("Slot confirmed by {source}", source=slot.confirmed_by)


def slot_position_words(slot: PcieSlot) -> T:
    """Flag two of a slot, in words with its source: what places it, or that nothing does."""
    if slot.position_source:
        return T("Position {position} from {source}", position=slot.position, source=slot.position_source)
    if slot.position_confirmed:
        return T("Position {position} from {source}", position=slot.position, source=slot.confirmed_by)
    return T("Position {position} unconfirmed: no source places the slot on the board (dotted outline)",
             position=slot.position)


def board_slot_flags(board: "Motherboard") -> T:
    """The board's two flags in one line: slot table and positions, each confirmed or not."""
    n = len(board.slots)
    table = sum(s.table_confirmed for s in board.slots)
    placed = sum(s.position_confirmed for s in board.slots)
    return T("slot table: {table} of {n} slots confirmed{complete}; positions: {placed} of {n} confirmed",
             table=table, n=n, placed=placed,
             complete=T(" (which slots the board has: unconfirmed)") if "slots" in board.unverified and table == n
             else T.verbatim(""))


@dataclass(frozen=True)
class M2Socket:
    CHOICES: ClassVar[dict] = {"source": ("CPU", "chipset", "switch")}
    id: str
    gen: int
    lanes: int
    source: str


@dataclass(frozen=True)
class LaneRule:
    when: tuple[str, ...]
    widths: dict[str, int]
    note: Optional[str] = None


@dataclass(frozen=True)
class Motherboard(Part):
    KIND: ClassVar[str] = "motherboard"
    PREFIX: ClassVar[str] = "mb-"
    CHOICES: ClassVar[dict] = {
        "form_factor": ("ATX", "E-ATX", "CEB", "EEB", "SSI-EEB", "SSI-CEB", "Micro-ATX",
                        "Mini-ITX", "XL-ATX", "EATX", "Proprietary"),
    }

    socket: str = ""
    chipset: str = ""
    form_factor: str = "ATX"
    width_mm: float = 244
    depth_mm: float = 305
    memory_type: str = "DDR4"
    dimm_slots: int = 4
    max_memory_gb: int = 0
    expansion_positions: int = 7
    cpu_sockets: int = 1
    """CPU sockets: a dual-socket board is planned with two of the build's CPU (each slot's lanes come
    from one of them; the lane budget and the CPU power count both)."""
    slots: tuple[PcieSlot, ...] = ()
    m2: tuple[M2Socket, ...] = ()
    lane_rules: tuple[LaneRule, ...] = ()

    EXTRA_UNVERIFIED: ClassVar[tuple[str, ...]] = ("slot_positions",)
    """Names ``unverified`` may list beside the fields: ``slots`` is the slot table (which slots,
    their size, width and lane source), ``slot_positions`` where they sit."""

    @property
    def slots_confirmed(self) -> bool:
        """Flag one: every slot's row confirmed by a named source and the list complete (no source
        says the board has a slot the table lacks: then ``slots`` is in ``unverified``)."""
        return (bool(self.slots) and "slots" not in self.unverified
                and all(s.table_confirmed for s in self.slots))

    @property
    def positions_confirmed(self) -> bool:
        """Flag two: every slot placed at its expansion position by a named source."""
        return (bool(self.slots) and "slot_positions" not in self.unverified
                and all(s.position_confirmed for s in self.slots))

    def slot_at(self, position: int) -> Optional[PcieSlot]:
        for s in self.slots:
            if s.position == position:
                return s
        return None


@dataclass(frozen=True)
class CPU(Part):
    KIND: ClassVar[str] = "cpu"
    PREFIX: ClassVar[str] = "cpu-"
    socket: str = ""
    cores: int = 0
    threads: int = 0
    pcie_lanes: int = 0
    pcie_gen: int = 3
    tdp_w: float = 0
    peak_power_w: Optional[float] = None
    memory_types: tuple[str, ...] = ()
    memory_channels: Optional[int] = None
    max_memory_gb: Optional[int] = None
    release_year: Optional[int] = None


@dataclass(frozen=True)
class MemoryKit(Part):
    KIND: ClassVar[str] = "memory"
    PREFIX: ClassVar[str] = "mem-"
    type: str = "DDR4"
    total_gb: float = 0
    modules: int = 1
    speed_mts: Optional[int] = None
    ecc: bool = False
    registered: bool = False
    voltage: Optional[float] = None


@dataclass(frozen=True)
class Storage(Part):
    KIND: ClassVar[str] = "storage"
    PREFIX: ClassVar[str] = "sto-"
    CHOICES: ClassVar[dict] = {"type": ("NVMe SSD", "SATA SSD", "HDD")}
    type: str = "NVMe SSD"
    interface: str = ""
    form_factor: Optional[str] = None
    pcie_lanes: int = 0
    capacity_gb: float = 0
    idle_power_w: Optional[float] = None
    active_power_w: Optional[float] = None


@dataclass(frozen=True)
class PSU(Part):
    KIND: ClassVar[str] = "psu"
    PREFIX: ClassVar[str] = "psu-"
    CHOICES: ClassVar[dict] = {
        "efficiency": EFFICIENCY_LEVELS,
        "atx_version": ("2.x", "3.0", "3.1"),
        "modular": ("full", "semi", "none"),
    }
    wattage: float = 0
    efficiency: str = "80 PLUS"
    atx_version: str = "2.x"
    pcie_8pin: int = 0
    pcie_cables: Optional[int] = None
    hpwr_sockets: int = 0
    form_factor: Optional[str] = "ATX"
    length_mm: Optional[float] = None
    modular: Optional[str] = None
    noise_db: Optional[float] = None

    @property
    def atx3(self) -> bool:
        return self.atx_version.startswith("3")


@dataclass(frozen=True)
class Case(Part):
    KIND: ClassVar[str] = "case"
    PREFIX: ClassVar[str] = "case-"
    form_factors: tuple[str, ...] = ()
    expansion_slots: int = 7
    max_gpu_length_mm: Optional[float] = None
    max_cpu_cooler_height_mm: Optional[float] = None
    max_psu_length_mm: Optional[float] = None
    vertical_gpu_slots: int = 0
    type: Optional[str] = None
    riser_min_length_mm: Optional[float] = None
    """The shortest riser cable that reaches from the board's slots to the case's (or open frame's)
    GPU positions, as the maker states or recommends; None where not stated."""
    radiator_mounts: Optional[tuple[int, ...]] = None
    """The radiator positions (front, top, side, rear, bottom), each as the largest radiator it takes in
    mm (a 360 mm front, a 240 mm top: ``[360, 240]``); ``[]`` where the maker states none; None where
    no source states them (then listed in ``unverified``)."""

    @property
    def open_frame(self) -> bool:
        """An open frame: cards stand off the board on risers, no case length limit unless stated."""
        return (self.type or "").strip().lower() == OPEN_FRAME.lower()


@dataclass(frozen=True)
class Cooler(Part):
    KIND: ClassVar[str] = "cooler"
    PREFIX: ClassVar[str] = "cool-"
    CHOICES: ClassVar[dict] = {"type": ("air", "AIO")}
    type: str = "air"
    sockets: tuple[str, ...] = ()
    height_mm: Optional[float] = None
    radiator_mm: Optional[float] = None
    fan_power_w: Optional[float] = None
    tdp_rating_w: Optional[float] = None


@dataclass(frozen=True)
class NIC(Part):
    KIND: ClassVar[str] = "nic"
    PREFIX: ClassVar[str] = "nic-"
    CHOICES: ClassVar[dict] = {"protocol": ("Ethernet", "InfiniBand", "VPI")}
    speed_gbps: float = 0
    ports: int = 1
    protocol: str = "Ethernet"
    rdma: bool = False
    pcie_gen: int = 3
    pcie_lanes: int = 8
    power_w: Optional[float] = None
    family: Optional[str] = None
    """The controller family, e.g. "ConnectX-6 Dx", "Intel E810"."""
    port_type: Optional[str] = None
    """The port cage or jack, e.g. "QSFP56", "SFP28", "OSFP", "RJ45 10GBASE-T"."""
    rdma_protocols: tuple[str, ...] = ()
    """How the card does RDMA: "InfiniBand", "RoCE", "RoCE v2", "iWARP"; () when ``rdma`` is false."""


RISER_TYPES = ("ribbon", "twinax", "usb", "oculink", "slimsas", "mcio")
"""ribbon: a flat (shielded) flex x16 ribbon; twinax: an individually shielded cable bundle; usb: an x1
mining riser over a USB-3 cable; oculink, slimsas, mcio: host adapter, cable and device board sold as one kit."""


@dataclass(frozen=True)
class Riser(Part):
    """A PCIe riser (extension) cable: a card on it stands off the board, in a vertical mount or an
    open frame. The card's link runs at the lowest generation of slot, riser and card, on the fewest
    lanes of the three."""

    KIND: ClassVar[str] = "riser"
    PREFIX: ClassVar[str] = "riser-"
    CHOICES: ClassVar[dict] = {"pcie_gen": (3, 4, 5), "lanes": (16, 8, 4, 1), "type": RISER_TYPES}
    MAX_LENGTH_MM: ClassVar[float] = 2000.0
    """The longest riser a row may name (the optimiser's riser-length limit is the same)."""
    length_mm: float = 0
    """Cable length between the two connectors, as sold: more than 0, at most MAX_LENGTH_MM."""
    pcie_gen: int = 4
    """The PCIe generation the maker rates the riser for."""
    lanes: int = 16
    """Electrical lanes it carries."""
    type: str = "ribbon"
    angle: Optional[str] = None
    """The card-end connector's orientation where the maker states it ("straight", "90°"); None if not."""


_CARD_NOISE = re.compile(r"\([^)]*\)|\b\d+\s?G(?:B)?\b|\bGDDR\d\w*\b|\bHBM\d\w*\b|\b(?:Black|White|Silver|Red|Blue|"
                         r"Orange|Grey|Gray)\b|/", re.IGNORECASE)


def compact_card_name(gpu) -> str:
    """A card's name for a narrow column: its chip without the brand ('RTX 4090', 'RTX A4000') and the maker's
    own words for the variant, without the maker, the memory size, the memory type or the colour
    ('RTX 4090 iCHILL', 'RTX 3090 Turbo'); the model as it is where the chip is not part of it."""
    model, chip = gpu.model, gpu.chip_model or ""
    at = model.lower().find(chip.lower()) if chip else -1
    if at < 0 and chip:  # the chip's memory size written otherwise in the model ('12 GB', '12GB'): the chip alone
        chip = re.sub(r"\s+\d+\s?GB$", "", chip)
        at = model.lower().find(chip.lower())
    if at < 0:
        return model
    short_chip = re.sub(r"^(?:NVIDIA\s+|AMD\s+|Intel\s+)?(?:GeForce\s+|Radeon\s+(?=RX))?", "", chip)
    rest = model[:at] + " " + model[at + len(chip):]
    rest = _CARD_NOISE.sub(" ", rest)
    words = [w for w in rest.split() if w.lower() not in {(gpu.maker or "").lower(), "asus", "msi", "gigabyte",
                                                          "zotac", "inno3d", "evga", "pny", "palit", "gainward",
                                                          "galax", "colorful", "nvidia", "amd", "sapphire",
                                                          "xfx", "powercolor", "asrock"}]
    words = [w for w in words if not re.fullmatch(r"[\d-]{6,}|(?:RTX|GTX|A-Series|Series|PRO)", w, re.IGNORECASE)]
    return " ".join([short_chip] + words)
