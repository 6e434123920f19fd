from __future__ import annotations

import json

import pytest

from rigbuilder.files import buildfile
from rigbuilder.files.buildfile import BuildFileError, load, loads, save
from tests.builds import frank_2070, x99_4x3090


def test_round_trip(tmp_path):
    b = x99_4x3090()
    p = tmp_path / "seed.rig"
    save(b, p)
    assert load(p) == b
    assert json.loads(p.read_text())["format_version"] == buildfile.FORMAT_VERSION


def test_save_is_atomic_and_keeps_old_file_on_failure(tmp_path, monkeypatch):
    p = tmp_path / "b.rig"
    save(frank_2070(1), p)
    before = p.read_bytes()

    def boom(*a, **k):
        raise OSError("disk full")

    from rigbuilder.files import atomic
    monkeypatch.setattr(atomic.os, "replace", boom)
    with pytest.raises(OSError):
        save(frank_2070(4), p)
    assert p.read_bytes() == before
    assert [x.name for x in tmp_path.iterdir()] == ["b.rig"]


@pytest.mark.parametrize("text, where", [
    ("{", "line 1"),
    ('{"format": "rigbuilder-build", "format_version": 1, "gpus": [{"part_id": 5}]}', "gpus[0].part_id"),
    ('{"format": "rigbuilder-build", "format_version": 1, "gpus": [{"part_id": "x", "position": "1"}]}', "gpus[0].position"),
    ('{"format": "rigbuilder-build", "format_version": 1, "settings": {"region": "MARS"}}', "settings.region"),
    ('{"format": "rigbuilder-build", "format_version": 99}', "newer rigbuilder"),
    ('{"format": "other"}', "not a rigbuilder build file"),
    ('[1, 2]', "top level"),
    ('{"format": "rigbuilder-build", "format_version": 1, "gpus": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
    ('{"format": "rigbuilder-build", "format_version": 1, "psus": ["a", "b", "c"]}', "at most two"),
    ('{"format": "rigbuilder-build", "format_version": 1, "settings": {"load_hours_per_day": 20, "idle_hours_per_day": 10}}', "24"),
])
def test_bad_files_say_what_and_where(text, where):
    with pytest.raises(BuildFileError) as e:
        loads(text, "x.rig")
    assert where in str(e.value) and str(e.value).startswith("x.rig")


def test_truncated_and_oversized_files(tmp_path):
    p = tmp_path / "t.rig"
    save(frank_2070(1), p)
    p.write_bytes(p.read_bytes()[:40])
    with pytest.raises(BuildFileError, match="not valid JSON"):
        load(p)
    p.write_bytes(b" " * (buildfile.MAX_BYTES + 1))
    with pytest.raises(BuildFileError, match="at most"):
        load(p)
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BuildFileError, match="UTF-8"):
        load(p)


def test_unknown_part_still_loads(tmp_path):
    b = frank_2070(1)
    b.gpus[0].part_id = "gpu-from-the-future"
    p = tmp_path / "u.rig"
    save(b, p)
    assert load(p).gpus[0].part_id == "gpu-from-the-future"


def test_older_version_is_upgraded(monkeypatch):
    """Each upgrade step runs from the file's version up to the current one, before validation."""
    doc = buildfile.to_dict(frank_2070(1))
    doc["title"] = doc.pop("name")  # pretend version 1 called it "title" and version 2 "name"
    monkeypatch.setattr(buildfile, "FORMAT_VERSION", 2)
    monkeypatch.setitem(buildfile.UPGRADES, 1,
                        lambda d: {**{k: v for k, v in d.items() if k != "title"}, "name": d["title"]})
    b = buildfile.from_dict(doc)
    assert b.name == frank_2070(1).name
