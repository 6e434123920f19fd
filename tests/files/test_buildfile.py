from __future__ import annotations

import json
import re
from pathlib import Path

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
    ('{"format": "rigbuilder-build", "format_version": 1, "psus": ["a", "b", "c"]}', "'psus' at most 2 entries"),
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
    doc["title"] = doc.pop("name")  # pretend version 2 called it "title" and version 3 "name"
    monkeypatch.setattr(buildfile, "FORMAT_VERSION", 3)
    monkeypatch.setitem(buildfile.UPGRADES, 2,
                        lambda d: {**{k: v for k, v in d.items() if k != "title"}, "name": d["title"]})
    b = buildfile.from_dict(doc)
    assert b.name == frank_2070(1).name


def test_format_1_file_upgrades_to_2_without_prices_paid_or_budget():
    doc = buildfile.to_dict(frank_2070(1))
    doc["format_version"] = 1
    for k in ("prices_paid",):
        doc.pop(k)
    for k in ("budget", "condition"):
        doc["settings"].pop(k)
    b = buildfile.from_dict(doc)
    assert b.prices_paid == {} and b.settings.budget is None and b.settings.condition == "new"
    assert b.name == frank_2070(1).name


def test_prices_paid_budget_and_condition_round_trip():
    from rigbuilder.domain.build import PricePaid

    b = frank_2070(1)
    b.settings.budget = 2000.0
    b.settings.condition = "used"
    b.prices_paid["gpu-x"] = PricePaid(412.5, "EUR", "used", "Kleinanzeigen", "2026-11-01")
    again = buildfile.loads(buildfile.dumps(b))
    assert again.prices_paid == b.prices_paid and again.settings == b.settings
    assert buildfile.to_dict(again)["format_version"] == 2


@pytest.mark.parametrize("patch, where", [
    ({"prices_paid": {"g": {"amount": 1, "currency": "euro"}}}, "prices_paid.g.currency"),
    ({"prices_paid": {"g": {"currency": "EUR"}}}, "prices_paid.g.amount"),
    ({"prices_paid": {"g": {"amount": -1, "currency": "EUR"}}}, "prices_paid.g.amount"),
    ({"prices_paid": []}, "prices_paid"),
    ({"settings": {"budget": "lots"}}, "settings.budget"),
    ({"settings": {"condition": "mint"}}, "settings.condition"),
])
def test_bad_money_fields_name_where(patch, where):
    doc = buildfile.to_dict(frank_2070(1))
    doc.update(patch)
    with pytest.raises(buildfile.BuildFileError, match=re.escape(f"'{where}'")):
        buildfile.from_dict(doc)


@pytest.mark.parametrize("key", ["load_hours_per_day", "idle_hours_per_day", "price_per_kwh", "days_per_month"])
def test_explicit_null_setting_reads_as_default(key):
    """An explicit null in the settings means "not set": the default, not a traceback later."""
    from rigbuilder.domain.build import Settings
    d = json.loads(buildfile.dumps(x99_4x3090()))
    d["settings"][key] = None
    b = loads(json.dumps(d))
    assert getattr(b.settings, key) == getattr(Settings(), key)


def _refusal(path):
    with pytest.raises(BuildFileError) as e:
        load(path)
    return str(e.value)


@pytest.mark.parametrize("where", ["name", "notes", "gpus[0].part_id"])
def test_lone_surrogates_are_refused_where_they_are_read(tmp_path, where):
    """They used to load and then break every output (--json, reports, Save As)."""
    d = json.loads(buildfile.dumps(x99_4x3090()))
    if where == "gpus[0].part_id":
        d["gpus"][0]["part_id"] += "\ud800"
    else:
        d[where] = "x\ud800y"
    p = tmp_path / "s.rig"
    p.write_text(json.dumps(d))  # ASCII escapes, valid UTF-8 on disk
    msg = _refusal(p)
    assert f"'{where}'" in msg and "not valid text" in msg
    b = x99_4x3090()
    b.name = "x\ud800y"
    with pytest.raises(BuildFileError):
        save(b, tmp_path / "out.rig")
    assert not (tmp_path / "out.rig").exists()


def test_devices_fifos_huge_numbers_and_deep_nesting_are_refused(tmp_path):
    import os
    fifo = tmp_path / "f.rig"
    os.mkfifo(fifo)
    assert "not a regular file" in _refusal(fifo)  # before: blocked forever
    assert "not a regular file" in _refusal(Path("/dev/zero"))  # before: read without end
    assert "not a regular file" in _refusal(tmp_path)
    d = buildfile.dumps(x99_4x3090()).replace('"days_per_month": 30.0', '"days_per_month": ' + "9" * 5000)
    (tmp_path / "big.rig").write_text(d)
    assert "over 4,300 digits" in _refusal(tmp_path / "big.rig")
    (tmp_path / "deep.rig").write_text("[" * 100000 + "]" * 100000)
    assert "nested too deeply" in _refusal(tmp_path / "deep.rig")


@pytest.mark.parametrize("where,value", [("name", "x\x1b[2Jy"), ("name", "x\nTotal 0 EUR"),
                                         ("gpus[0].part_id", "gpu-a\x00"), ("notes", "a\x07b")])
def test_control_characters_are_refused_where_they_are_read(tmp_path, where, value):
    """Escape sequences reached the terminal, a newline in the name forged a line of the text list,
    a NUL in a part id reached the Markdown report."""
    d = json.loads(buildfile.dumps(x99_4x3090()))
    if where == "gpus[0].part_id":
        d["gpus"][0]["part_id"] = value
    else:
        d[where] = value
    p = tmp_path / "c.rig"
    p.write_text(json.dumps(d))
    assert f"'{where}'" in _refusal(p)


def test_notes_keep_their_lines_and_cannot_forge_a_line_of_the_text_list(tmp_path, index):
    from rigbuilder.files.report import report_data, to_text
    b = x99_4x3090()
    b.notes = "bought in May\nTotal             0.00 EUR"
    p = tmp_path / "n.rig"
    save(b, p)
    assert load(p).notes == b.notes
    text = to_text(report_data(b, index)).decode("utf-8")
    assert "\nTotal             0.00 EUR" not in text and "  Total             0.00 EUR" in text


@pytest.mark.parametrize("date, amount, words", [("2024-02-30", 700.0, "not a day of the calendar"),
                                                 ("2999-12-31", 700.0, "is in the future"),
                                                 ("2025-03-01", "1e309", "not a finite number")])
def test_a_price_paid_in_a_build_file_is_checked_as_every_door_checks_a_price(date, amount, words):
    """Issue 44: a build file is a door too: an impossible or future date, or an infinite amount, is
    refused with the words price set and price import use (domain.money)."""
    from rigbuilder.domain.build import Build, PricePaid
    from rigbuilder.files.buildfile import BuildFileError, dumps, loads

    b = Build()
    b.prices_paid["gpu-nvidia-rtx-3090-fe"] = PricePaid(700.0, "USD", "used", "", date)
    text = dumps(b).replace("700.0", str(amount))
    with pytest.raises(BuildFileError, match=words):
        loads(text)
    b.prices_paid["gpu-nvidia-rtx-3090-fe"] = PricePaid(700.0, "USD", "used", "", "2025-03-01")
    assert loads(dumps(b)).prices_paid["gpu-nvidia-rtx-3090-fe"].date == "2025-03-01"
