"""Risers as a part kind (issue 29): validated rows, the file stem, open frames, user imports, the CLI."""
from __future__ import annotations

import json

from rigbuilder.catalog.loader import kind_for_file, load_catalog_file
from rigbuilder.catalog.schema import part_to_dict, validate_part
from rigbuilder.catalog.store import open_catalog
from rigbuilder.catalog.userparts import import_parts
from rigbuilder.cli import main
from rigbuilder.config import Paths
from rigbuilder.domain.kinds import FILE_KINDS, KIND_LABELS, PART_KINDS, kind_of_id
from rigbuilder.domain.parts import Case, Riser
from tests.risers import frame_row, riser, riser_row


def test_a_riser_row_round_trips_and_is_its_own_kind():
    part, probs = validate_part(Riser, riser_row(), "t")
    assert probs == [] and isinstance(part, Riser)
    assert (part.length_mm, part.pcie_gen, part.lanes, part.type, part.angle) == (200.0, 4, 16, "ribbon", "straight")
    assert validate_part(Riser, part_to_dict(part), "t")[0] == part
    assert PART_KINDS["riser"] is Riser and FILE_KINDS["risers"] == "riser" and KIND_LABELS["riser"] == "Riser"
    assert kind_of_id("riser-x") == "riser"


def test_bad_riser_values_are_named():
    _, probs = validate_part(Riser, riser_row(pcie_gen=2, lanes=12, type="flex", id="gpu-riser"), "risers.json row 2")
    text = "\n".join(map(str, probs))
    for f in ("pcie_gen", "lanes", "type"):
        assert f"risers.json row 2: field '{f}'" in text
    row = riser_row()
    del row["length_mm"]
    assert [(p.field, p.message) for p in validate_part(Riser, row, "w")[1]] == [("length_mm", "is missing")]
    assert any(p.field == "id" for p in validate_part(Riser, riser_row(id="gpu-riser"), "w")[1])


def test_a_riser_of_no_length_or_of_kilometres_is_refused():
    """Issue 44: a 0 mm riser was accepted (a cable that joins nothing)."""
    for length in (0, -0.0, 2001, 1e7):
        part, probs = validate_part(Riser, riser_row(length_mm=length), "risers.json row 2")
        assert part is None and [p.field for p in probs] == ["length_mm"], (length, probs)
    assert validate_part(Riser, riser_row(length_mm=50), "w")[1] == []


def test_risers_json_and_cases_frames_json_load(tmp_path):
    (tmp_path / "risers.json").write_text(json.dumps([riser_row(), riser_row(id="riser-test-b", angle=None)]))
    (tmp_path / "cases-frames.json").write_text(json.dumps([frame_row()]))
    assert kind_for_file(tmp_path / "risers.json") == "riser"
    parts, probs = load_catalog_file(tmp_path / "risers.json")
    assert probs == [] and [p.angle for p in parts] == ["straight", None]
    frames, probs = load_catalog_file(tmp_path / "cases-frames.json")
    assert probs == [] and isinstance(frames[0], Case)
    assert frames[0].open_frame and frames[0].riser_min_length_mm == 300 and frames[0].max_gpu_length_mm is None


def test_an_ordinary_case_row_may_name_a_riser_minimum_or_leave_it_out():
    row = frame_row(type="Full tower", vertical_gpu_slots=1, riser_min_length_mm=None)
    case, probs = validate_part(Case, row, "t")
    assert probs == [] and not case.open_frame and case.riser_min_length_mm is None
    del row["riser_min_length_mm"]
    assert validate_part(Case, row, "t")[1] == []  # older rows without it still load


def test_a_users_riser_imports_and_is_listed(tmp_path, capsys):
    mine = riser(id="riser-user-mine", model="My riser")
    f = tmp_path / "mine.json"
    f.write_text(json.dumps([{"kind": "riser", **part_to_dict(mine)}]))
    cat = open_catalog(Paths.from_env())
    assert import_parts(cat.user_engine, f, cat.index).added == 1
    assert main(["catalog", "list", "risers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows if r["origin"] == "user"] == ["riser-user-mine"]
    assert all(r["kind"] == "riser" for r in rows)
    assert main(["catalog", "show", "riser-user-mine"]) == 0
    assert "length_mm" in capsys.readouterr().out
