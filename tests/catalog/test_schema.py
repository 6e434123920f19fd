"""Row validation: every problem names where and which field."""
from __future__ import annotations

import json

from rigbuilder.catalog.loader import load_catalog_file
from rigbuilder.catalog.schema import part_to_dict, validate_part
from rigbuilder.domain.parts import GPU


def gpu_row(**over):
    row = {"id": "gpu-test-card", "maker": "Test", "model": "Card", "source": "a test", "source_date": "2024-01",
           "vendor": "NVIDIA", "chip_model": "GeForce RTX 3090", "chip": "GA102", "architecture": "Ampere",
           "segment": "consumer", "vram_gb": 24, "memory_type": "GDDR6X", "bandwidth_gbs": 936,
           "fp32_tflops": 35.6, "tensor_tflops": 71, "board_power_w": 350, "idle_power_w": None,
           "length_mm": 313, "height_mm": 138, "slot_width": 3, "cooler": "open-air",
           "power_connectors": ["8-pin", "8-pin"], "pcie_gen": 4, "pcie_lanes": 16, "release_year": 2020,
           "unverified": []}
    row.update(over)
    return row


def test_valid_row_round_trips():
    part, probs = validate_part(GPU, gpu_row(), "t")
    assert probs == [] and part is not None
    again, probs = validate_part(GPU, part_to_dict(part), "t")
    assert again == part


def test_bad_values_are_named():
    _, probs = validate_part(GPU, gpu_row(cooler="fan", slot_width="wide", vram_gb=-1, id="GPU X"), "f.json row 3")
    text = "\n".join(map(str, probs))
    assert "f.json row 3: field 'cooler'" in text
    assert "field 'slot_width'" in text and "field 'vram_gb'" in text


def test_missing_and_unknown_fields():
    row = gpu_row(extra=1)
    del row["length_mm"]
    _, probs = validate_part(GPU, row, "w")
    assert {(p.field, p.message) for p in probs} >= {("length_mm", "is missing"), ("extra", "unknown field")}


def test_unverified_must_name_fields():
    _, probs = validate_part(GPU, gpu_row(unverified=["colour"]), "w")
    assert probs and probs[0].field == "unverified"


def test_wrong_prefix_rejected():
    _, probs = validate_part(GPU, gpu_row(id="cpu-oops"), "w")
    assert any(p.field == "id" for p in probs)


def test_file_with_broken_json_reports_line(tmp_path):
    f = tmp_path / "gpus-x.json"
    f.write_text('[\n{"id": 1,\n')
    parts, probs = load_catalog_file(f)
    assert parts == [] and ":2:" in probs[0].where or ":3:" in probs[0].where


def test_file_name_must_name_kind(tmp_path):
    f = tmp_path / "widgets.json"
    f.write_text(json.dumps([gpu_row()]))
    _, probs = load_catalog_file(f)
    assert "kind" in probs[0].message


def test_lane_rule_triggers_may_name_slots_with_parentheses():
    """ASUS prints slot names such as PCIEX16(G5)_2; a rule triggered by one is valid, an unknown one is not."""
    from rigbuilder.domain.parts import Motherboard
    from tests.shipped import shipped_parts
    board = next(p for p in shipped_parts()[0] if p.id == "mb-asus-pro-ws-w680-ace")
    row = part_to_dict(board)
    _, probs = validate_part(Motherboard, row, "t")
    assert probs == []
    row["lane_rules"] = [{"when": ["PCIEX16(G9)_9"], "widths": {"PCIEX16(G5)_1": 8}, "note": ""}]
    _, probs = validate_part(Motherboard, row, "t")
    assert any("unknown slot or M.2 id" in p.message for p in probs)
