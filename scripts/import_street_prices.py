"""Ship pc-part-dataset's US street prices (observed 2025-07) as dated price observations.

    python scripts/import_street_prices.py [DATASET_DIR]

Reads the dataset's CSV files (PCPartPicker product data scraped 2025-07-23; only parts in stock
then carry a price), and:

* writes ``resources/catalog/memory-pcpp.json`` and ``storage-pcpp.json``: every priced memory kit
  and internal drive the curated catalog lacks, as catalog rows (generation, speed, modules x size,
  CAS latency; capacity, type, interface, form factor), their figures marked unverified;
* matches every priced row of the other kinds (GPU, CPU, board, PSU, case, CPU cooler, wired NIC),
  and the memory kits and drives the curated catalog has, to catalog rows with the one matcher the
  list import uses (``rigbuilder.catalog.match``), taking only clear matches;
* adds the launch price of each community card's chip where Epoch AI's data gives one (a launch
  price, never today's);
* writes ``resources/money/street-prices-2025-07.json``: one observation per matched part (the
  lowest in-stock price when several listings match it), amount in USD, new, shop, dated 2025-07,
  with its source.

Prints the coverage per kind (rows, rows with a street price) and how many priced rows matched.
Run again after the catalog changes: it reads the catalog without the files it writes.
"""
from __future__ import annotations

import csv
import hashlib
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rigbuilder.catalog.loader import catalog_files, load_catalog_file  # noqa: E402
from rigbuilder.catalog.match import MATCHED, Matcher  # noqa: E402
from rigbuilder.catalog.opendb import slug  # noqa: E402
from rigbuilder.domain.catalog import PartIndex  # noqa: E402

OBSERVED = "2025-07"
SOURCE = "Doc Oliver (docyx), pc-part-dataset, PCPartPicker data of 2025-07-23, MIT licence, https://github.com/docyx/pc-part-dataset"
NOTE = "US street price, lowest in stock"
EPOCH_SOURCE = ("Epoch AI, \"Data on Machine Learning Hardware\", epoch.ai, CC-BY 4.0, "
                "https://epoch.ai/data/machine-learning-hardware")
GENERATED = ("memory-pcpp.json", "storage-pcpp.json")
ROW_SOURCE = SOURCE + " (kit and drive figures as PCPartPicker lists them)"  # rows: commit c52a04ca

KINDS = {  # dataset file -> (PCPartPicker category, catalog kind)
    "video-card": ("Video Card", "gpu"), "cpu": ("CPU", "cpu"), "motherboard": ("Motherboard", "motherboard"),
    "power-supply": ("Power Supply", "psu"), "case": ("Case", "case"), "memory": ("Memory", "memory"),
    "internal-hard-drive": ("Storage", "storage"), "cpu-cooler": ("CPU Cooler", "cooler"),
    "wired-network-card": ("Wired Network Adapter", "nic"),
}


def _num(text: str):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _pair(text: str):
    bits = [b for b in (text or "").split(",") if b.strip()]
    return tuple(_num(b) for b in bits) if bits else ()


def line_name(kind: str, r: dict) -> str:
    """The row as a PCPartPicker list line names it: name plus the figures that tell it apart (and,
    for cards, cases and PSUs, the colour: community rows list each colour apart)."""
    name = _line_name(kind, r)
    colour = " ".join((r.get("color") or "").replace("/", " ").split())
    return f"{name} {colour}" if colour and kind in ("gpu", "case", "psu") else name


def _line_name(kind: str, r: dict) -> str:
    name = r["name"].strip()
    if kind == "gpu":
        chip = re.sub(r"\s*\d+\s*GB$", "", (r.get("chipset") or "").strip())
        nums = re.findall(r"\d{3,4}", chip)
        if chip and not all(n in name for n in nums):
            maker, _, rest = name.partition(" ")
            name = f"{maker} {chip} {rest}"
        elif chip and not any(w in name.lower() for w in ("ti", "super", "xt")) and re.search(r"\b(Ti|SUPER|XT)\b", chip):
            name = f"{name} {chip}"
        mem = _num(r.get("memory"))
        return f"{name} {mem:g} GB" if mem else name
    if kind == "psu":
        w = _num(r.get("wattage"))
        return f"{name} {w:g} W" if w else name
    if kind == "memory":
        gen, speed = (_pair(r["speed"]) + (None, None))[:2]
        n, size = (_pair(r["modules"]) + (None, None))[:2]
        cas = _num(r.get("cas_latency"))
        bits = [name]
        if n and size:
            bits.append(f"({n:g} x {size:g} GB)")
        if gen and speed:
            bits.append(f"DDR{gen:g}-{speed:g}")
        if cas:
            bits.append(f"CL{cas:g}")
        return " ".join(bits)
    if kind == "storage":
        cap = _num(r.get("capacity"))
        return f"{name} {cap:g} GB" if cap and not re.search(r"\d\s*[GT]B\b", name) else name
    return name


MODULE_NOTE = ("Kit as PCPartPicker lists it; ECC and registered read from the maker's part number "
               "(Samsung: M393 RDIMM, M386 LRDIMM, M391 ECC UDIMM; Kingston: KSM..R registered, KSM..E ECC "
               "unbuffered; Micron: a 72-bit ..72A..Z module is an ECC UDIMM).")


def module_kind(maker: str, model: str) -> tuple[bool, bool] | None:
    """(ecc, registered) from the maker's part-number scheme (Samsung, Kingston and Micron decoders);
    None where the part number does not say."""
    pn = model.split(" ")[0].upper()
    if maker == "Samsung" and re.match(r"M39[13]|M386", pn):
        return True, not pn.startswith("M391")
    if maker == "Kingston" and (m := re.match(r"KSM\d\d([RE])", pn)):
        return True, m.group(1) == "R"
    if maker == "Crucial" and re.match(r"MTA\d+AS[FA]\d+G72A", pn) and pn.split("-")[0].endswith("Z"):
        return True, False
    return None


def memory_row(r: dict) -> dict | None:
    gen, speed = (_pair(r["speed"]) + (None, None))[:2]
    n, size = (_pair(r["modules"]) + (None, None))[:2]
    if not (gen and speed and n and size) or gen < 3:
        return None
    maker, _, rest = r["name"].strip().partition(" ")
    cas = _num(r.get("cas_latency"))
    model = f"{rest} ({n:g} x {size:g} GB) DDR{gen:g}-{speed:g}" + (f" CL{cas:g}" if cas else "")
    return {"id": "", "maker": maker, "model": model, "price": None, "currency": None, "price_note": None,
            "source": ROW_SOURCE, "source_date": "2025-07-23", "unverified": ["ecc", "registered", "voltage"],
            "notes": "Kit as PCPartPicker lists it; whether it is ECC or registered is not stated there.",
            "type": f"DDR{gen:g}", "total_gb": n * size, "modules": int(n), "speed_mts": int(speed), "ecc": False,
            "registered": False, "voltage": None} | _module_fields(maker, rest)


def _module_fields(maker: str, model: str) -> dict:
    kind = module_kind(maker, model)
    if kind is None:
        return {}
    return {"ecc": kind[0], "registered": kind[1], "unverified": ["voltage"], "notes": MODULE_NOTE}


def storage_row(r: dict) -> dict | None:
    cap = _num(r.get("capacity"))
    iface = (r.get("interface") or "").strip()
    if not cap:
        return None
    if r.get("type") == "SSD":
        kind = "NVMe SSD" if "PCIe" in iface or "NVMe" in iface else "SATA SSD"
    else:
        kind = "HDD"
    lanes = re.search(r"X(\d)\b", iface)
    maker, _, rest = r["name"].strip().partition(" ")
    cap_text = f"{cap / 1000:g} TB" if cap >= 1000 else f"{cap:g} GB"
    ff = (r.get("form_factor") or "").strip() or None
    return {"id": "", "maker": maker, "model": f"{rest} {cap_text}", "price": None, "currency": None,
            "price_note": None, "source": ROW_SOURCE, "source_date": "2025-07-23",
            "unverified": ["idle_power_w", "active_power_w"],
            "notes": f"Drive as PCPartPicker lists it{' (' + r['type'] + ' RPM)' if kind == 'HDD' else ''}; "
                     "power figures not published there.",
            "type": kind, "interface": iface, "form_factor": ff.replace("M.2-", "M.2 ") if ff else None,
            "pcie_lanes": int(lanes[1]) if kind == "NVMe SSD" and lanes else 0, "capacity_gb": cap,
            "idle_power_w": None, "active_power_w": None}


def _id(prefix: str, row: dict) -> str:
    h = hashlib.sha1(f"{row['maker']} {row['model']}".encode()).hexdigest()[:8]
    return f"{prefix}pcpp-{slug(row['maker'] + ' ' + row['model'])[:70]}-{h}"


def main(argv: list[str]) -> int:
    data = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "data" / "pc-part-dataset"
    cat_dir = ROOT / "resources" / "catalog"
    parts = []
    for path in catalog_files(cat_dir):
        if path.name not in GENERATED:
            parts.extend(load_catalog_file(path)[0])
    index = PartIndex(parts)
    matcher = Matcher(index)
    best: dict[str, tuple[float, str]] = {}  # part id -> (lowest amount, the line that matched)
    listings: dict[str, int] = defaultdict(int)
    stats = {}
    generated = {"memory": {}, "storage": {}}
    for stem, (category, kind) in KINDS.items():
        rows = [r for r in csv.DictReader(open(data / f"{stem}.csv", encoding="utf-8")) if _num(r.get("price"))]
        matched = 0
        for r in rows:
            price = _num(r["price"])
            if not price or price <= 0:
                continue
            line = line_name(kind, r)
            m = matcher.match(category, line)
            pid = m.part_id if m.status == MATCHED else None
            if pid is None and kind in generated:
                row = memory_row(r) if kind == "memory" else storage_row(r)
                if row is not None:
                    row["id"] = _id("mem-" if kind == "memory" else "sto-", row)
                    generated[kind].setdefault(row["id"], row)
                    pid = row["id"]
            if pid is None:
                continue
            matched += 1
            listings[pid] += 1
            if pid not in best or price < best[pid][0]:
                best[pid] = (price, line)
        stats[kind] = (len(rows), matched)
    for kind, rows in generated.items():
        out = sorted(rows.values(), key=lambda x: x["id"])
        (cat_dir / f"{kind}-pcpp.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    obs = []
    for pid, (amount, line) in sorted(best.items()):
        n = listings[pid]
        obs.append({"part_id": pid, "amount": amount, "currency": "USD", "condition": "new", "origin": "shop",
                    "date": OBSERVED, "note": NOTE + (f" of {n} listings" if n > 1 else ""), "source": SOURCE})
    obs.extend(launch_prices(index, ROOT.parent / "shared" / "data" / "epoch-ml-hardware" / "ml_hardware.csv"))
    money = ROOT / "resources" / "money" / "street-prices-2025-07.json"
    money.write_text(json.dumps({"about": "US street prices observed 2025-07 (pc-part-dataset), matched to catalog "
                                          "rows by rigbuilder's matcher; and chip launch prices from Epoch AI for "
                                          "community cards. Written by scripts/import_street_prices.py.",
                                 "observations": obs}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for kind, (rows, matched) in stats.items():
        print(f"{kind:12s} priced rows {rows:5d}  matched or added {matched:5d}")
    print(f"observations {len(obs)}; generated memory {len(generated['memory'])}, storage {len(generated['storage'])}")
    return 0


def launch_prices(index: PartIndex, epoch_csv: Path) -> list[dict]:
    """The launch price of each community card's chip (Epoch AI rows with a release price), dated
    with the chip's release day; curated rows carry their own launch prices already."""
    if not epoch_csv.exists():
        return []
    chips = {}
    for r in csv.DictReader(open(epoch_csv, encoding="utf-8")):
        price = _num(r.get("Release price (USD)"))
        if price and r["Manufacturer"] in ("NVIDIA", "AMD"):
            name = re.sub(r"^(NVIDIA|AMD)\s+", "", r["Hardware name"]).strip()
            chips[name.lower()] = (price, r["Release date"], r["Hardware name"], (r.get("Source for the price") or "").strip())
    out = []
    for p in index.of_kind("gpu"):
        if not p.community or p.price is not None:
            continue
        chip = (getattr(p, "chip_model", "") or "").lower()
        hit = chips.get(chip)
        if hit is None:
            continue
        price, day, name, cited = hit
        out.append({"part_id": p.id, "amount": price, "currency": "USD", "condition": "new", "origin": "launch",
                    "date": day, "note": f"launch price of the {name} (the chip's reference card), not this card's "
                                         f"own price and not what it costs today",
                    "source": EPOCH_SOURCE + (f"; price cited there from {cited}" if cited.startswith("http") else "")})
    return out


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
