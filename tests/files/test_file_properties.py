"""Property tests over the .rig format and the part import: any generated input ends in a result or
one clean error naming where; what is saved or exported opens or imports again unchanged."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigbuilder.catalog.schema import part_to_dict
from rigbuilder.catalog.userparts import ImportError_, export_csv, export_json, parse_parts
from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.files import buildfile
from rigbuilder.files.buildfile import BuildFileError
from tests.shipped import shipped_parts

_PARTS, _ = shipped_parts()
_GPUS = [p.id for p in _PARTS if p.KIND == "gpu"]
_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                         lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
                         max_leaves=10)
_FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_FAST
@given(name=st.text(max_size=60), notes=st.text(max_size=200),
       gpus=st.lists(st.tuples(st.sampled_from(_GPUS), st.integers(-3, 30) | st.none(),
                               st.none() | st.text(max_size=130)), max_size=6))
def test_any_build_saves_and_reopens_unchanged_or_is_refused_before_writing(tmp_path_factory, name, notes, gpus):
    b = Build(name=name, notes=notes, motherboard="mb-asrock-x99-ws-e",
              gpus=[GpuPlacement(g, p, "riser" if r is not None else "slot", riser=r) for g, p, r in gpus])
    path = tmp_path_factory.mktemp("p") / "b.rig"
    try:
        buildfile.save(b, path)
    except BuildFileError as e:
        assert str(e) and not path.exists()
        return
    assert buildfile.load(path) == b


@_FAST
@given(key=st.sampled_from(["name", "notes", "gpus", "settings", "psus", "memory", "format_version", "case"]),
       value=_VALUES)
def test_any_value_anywhere_in_a_build_file_loads_or_is_refused_naming_where(key, value):
    from tests.builds import x99_4x3090
    d = json.loads(buildfile.dumps(x99_4x3090()))
    d[key] = value
    try:
        b = buildfile.loads(json.dumps(d))
    except BuildFileError as e:
        assert "build" in str(e)
        return
    assert buildfile.loads(buildfile.dumps(b)) == b


@_FAST
@given(field=st.sampled_from(["maker", "model", "notes", "source", "vram_gb", "length_mm", "power_connectors",
                              "cooler", "slot_width", "unverified"]), value=_VALUES)
def test_any_import_value_imports_and_exports_again_or_is_refused(tmp_path_factory, field, value):
    gpu = next(p for p in _PARTS if p.KIND == "gpu")
    row = {"kind": "gpu", **part_to_dict(gpu), "id": "gpu-mine"}
    row[field] = value
    d = tmp_path_factory.mktemp("i")
    f = d / "in.json"
    f.write_text(json.dumps([row]))
    try:
        parts = parse_parts(f)
    except ImportError_ as e:
        assert e.problems and all(p.where for p in e.problems)
        return
    for exporter, name in ((export_csv, "out.csv"), (export_json, "out.json")):
        (d / name).write_bytes(exporter(parts))
        assert parse_parts(d / name) == parts
