"""Ship published used-market prices (eBay sold prices per GPU chip, month by month) as dated
price observations: writes ``resources/money/used-prices.json``.

    python scripts/import_used_prices.py TOMS_DIR [MANUAL_JSON]

Inputs, and where they came from:

* ``TOMS_DIR``: a checkout of https://github.com/buttke/ebay-2021-2023-gpu-prices (the snapshot
  of its ``main`` branch, commit be92047). Its ``data/<Month>_<Year>_.../table_*.csv`` files are
  the monthly tables of Tom's Hardware, "eBay Historical GPU Prices 2023: November 2023 Update"
  (Jarred Walton, Tom's Hardware, pages 2-25, October 2021 to October 2023), transcribed page by
  page: per GPU the average eBay sold price of the month and the number of cards sold. Tom's
  Hardware publishes an average over the sold listings, not a low or a median.
* ``MANUAL_JSON`` (default ``scripts/data/used-prices-manual.json``): observations transcribed by
  hand from other publications (each with its part, amount, month, source and, where the
  publication gives them, the low and the median). Nothing in it is derived or guessed.

For each GPU chip the tables name, the catalog's rows of that chip (``chip_model``) are found:

* the chip's reference row (the curated row of that chip, a Founders Edition or reference card
  first; else the first community row) gets the whole monthly series;
* every other row of the chip gets the newest month only (a chip-level price, the note says so:
  "not this edition's own").

Months and amounts already shipped in ``resources/money/prices.json`` are not repeated. Prints the
count of chips and of other parts with a dated used observation. Run again after the catalog
changes (it reads the catalog, not the file it writes).
"""
from __future__ import annotations

import csv
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rigbuilder.catalog.loader import catalog_files, load_catalog_file  # noqa: E402

OUT = ROOT / "resources" / "money" / "used-prices.json"
MANUAL = ROOT / "scripts" / "data" / "used-prices-manual.json"
TOMS_SOURCE = ("Tom's Hardware (Jarred Walton), \"eBay Historical GPU Prices 2023: November 2023 Update\", "
               "November 2023 ({month_name} eBay sold prices, average over the cards sold), "
               "https://www.tomshardware.com/news/gpus-historical-ebay-pricing; table as transcribed in "
               "https://github.com/buttke/ebay-2021-2023-gpu-prices")
NOTE = "average eBay sold price of {cards} cards (every maker, {sold} sold) in {month_name}, not this edition's own"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_ABBR = {m[:3].lower(): i + 1 for i, m in enumerate(MONTHS)}

# Tom's Hardware's names -> the catalog's chip_model, where they differ beyond "Super"/"SUPER".
CHIP_NAMES = {
    "GeForce RTX 3050": "GeForce RTX 3050 8 GB",
    "GeForce RTX 3060": "GeForce RTX 3060 12 GB",
    "GeForce RTX 3060 12GB": "GeForce RTX 3060 12 GB",
    "GeForce RTX 3080 12GB": "GeForce RTX 3080 12 GB",
    "GeForce RTX 4060 Ti": "GeForce RTX 4060 Ti 8 GB",
    "GeForce RTX 4060 Ti 16GB": "GeForce RTX 4060 Ti 16 GB",
    "Intel Arc A380": "Arc A380",
    "Intel Arc A580": "Arc A580",
    "Intel Arc A750": "Arc A750",
    "Intel Arc A770 16GB": "Arc A770",
    "Radeon RX 5500 XT 8GB": "Radeon RX 5500 XT",
    "Radeon RX 6700 10GB": "Radeon RX 6700",
}
SKIPPED = {"Intel Arc A770 8GB", "Radeon RX 5500 XT 4GB"}  # the catalog has only the other memory size


def chip_for(name: str) -> str:
    name = name.strip()
    if name in CHIP_NAMES:
        return CHIP_NAMES[name]
    return re.sub(r"\bSuper\b", "SUPER", name)


def _money(text: str):
    t = (text or "").replace("$", "").replace(",", "").strip()
    try:
        return float(t)
    except ValueError:
        return None


def _int(text: str):
    try:
        return int((text or "").replace(",", "").strip())
    except ValueError:
        return None


def table_month(folder: str, header: list[str]) -> str:
    """The month a table's prices were sold in: the first price column's month ("Oct eBay Price"),
    else (the early tables' "Avg eBay Price") the page's own month."""
    m = re.match(r"([A-Za-z]+)_(\d{4})_", folder) or re.match(r"([A-Za-z]+)_(\d{4})$", folder)
    if not m:
        raise ValueError(f"cannot read the month of {folder!r}")
    page_month, year = MONTHS.index(m[1]) + 1, int(m[2])
    first = header[1].split()[0].lower()[:3] if len(header) > 1 else "avg"
    month = _ABBR.get(first, page_month)
    if month > page_month:  # "Dec eBay Price" on the January page: the year before
        year -= 1
    return f"{year:04d}-{month:02d}"


def read_toms(folder: Path) -> dict[tuple[str, str], tuple[float, int]]:
    """(chip name as Tom's Hardware writes it, YYYY-MM) -> (average sold price, cards sold)."""
    out: dict[tuple[str, str], tuple[float, int]] = {}
    for table in sorted((folder / "data").glob("*/table_*.csv")):
        with open(table, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        if not rows or rows[0][0] != "GPU":
            continue
        month = table_month(table.parent.name, rows[0])
        for r in rows[1:]:
            if len(r) < 3:
                continue
            price, sold = _money(r[1]), _int(r[2])
            if price is None or price <= 0 or not sold:
                continue
            out[(r[0].strip(), month)] = (price, sold)
    return out


def month_name(ym: str) -> str:
    y, m = ym.split("-")
    return f"{MONTHS[int(m) - 1]} {y}"


def load_parts() -> list:
    parts = []
    for path in catalog_files(ROOT / "resources" / "catalog"):
        parts.extend(load_catalog_file(path)[0])
    return parts


def reference_row(rows: list) -> object:
    curated = [p for p in rows if not p.id.startswith("gpu-odb-")]
    pool = curated or rows

    def rank(p):
        ref = "-fe" in p.id or "reference" in p.id or "founders" in p.model.lower() or \
            (p.maker or "").lower() in ("nvidia", "amd", "intel")
        return (0 if ref else 1, p.id)

    return min(pool, key=rank)


def shipped_keys() -> set:
    d = json.loads((ROOT / "resources" / "money" / "prices.json").read_text(encoding="utf-8"))
    return {(o["part_id"], o.get("date"), o.get("condition"), float(o["amount"])) for o in d["observations"]}


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    toms = read_toms(Path(argv[1]))
    manual_path = Path(argv[2]) if len(argv) > 2 else MANUAL
    manual = json.loads(manual_path.read_text(encoding="utf-8"))["observations"]
    parts = load_parts()
    by_chip: dict[str, list] = defaultdict(list)
    known = {p.id: p for p in parts}
    for p in parts:
        if p.KIND == "gpu" and getattr(p, "chip_model", ""):
            by_chip[p.chip_model].append(p)
    shipped = shipped_keys()
    series: dict[str, dict[str, tuple[float, int]]] = defaultdict(dict)
    unmatched = set()
    for (name, month), v in toms.items():
        if name in SKIPPED:
            continue
        chip = chip_for(name)
        if chip not in by_chip:
            unmatched.add(name)
            continue
        old = series[chip].get(month)
        if old is None or v[1] > old[1]:  # two names for one chip in a month: the one with more sales
            series[chip][month] = v
    obs = []
    for chip in sorted(series):
        rows = by_chip[chip]
        ref = reference_row(rows)
        months = sorted(series[chip])
        cards = chip if not chip.startswith(("Arc ",)) else f"Intel {chip}"
        for month in months:
            price, sold = series[chip][month]
            targets = [ref] if month != months[-1] else sorted(rows, key=lambda p: p.id)
            for p in targets:
                if (p.id, month, "used", price) in shipped:
                    continue
                obs.append({"part_id": p.id, "amount": price, "currency": "USD", "condition": "used",
                            "origin": "marketplace", "date": month,
                            "note": NOTE.format(cards=cards, sold=sold, month_name=month_name(month)),
                            "source": TOMS_SOURCE.format(month_name=month_name(month)),
                            "chip": chip, "sold": sold})
    for i, o in enumerate(manual):
        if o.get("part_id") not in known:
            raise SystemExit(f"{manual_path.name} entry {i + 1}: unknown part {o.get('part_id')!r}")
        if not re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", str(o.get("date", ""))) or not o.get("source"):
            raise SystemExit(f"{manual_path.name} entry {i + 1}: needs a month and a source")
        obs.append(dict(o, condition="used"))
    gpu_chips = {known[o["part_id"]].chip_model for o in obs if known[o["part_id"]].KIND == "gpu"}
    others = {o["part_id"] for o in obs if known[o["part_id"]].KIND != "gpu"}
    about = ("Published used-market prices, observed: eBay sold prices per GPU chip by month (Tom's Hardware's "
             "monthly tables, 2021-10 to 2023-10) and used prices transcribed from other publications. "
             "Written by scripts/import_used_prices.py; 'chip' and 'sold' say which chip's table row and how many "
             "cards sold, 'low' and 'median' give the spread where the publication gives it.")
    OUT.write_text(json.dumps({"about": about, "observations": obs}, indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    print(f"{len(obs)} observations: {len(gpu_chips)} GPU chips, {len(others)} other parts with a dated used price")
    if unmatched:
        print("not in the catalog:", ", ".join(sorted(unmatched)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
