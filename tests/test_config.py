"""Typed, versioned preferences: defaults declared once, an upgrade step, values checked."""
from __future__ import annotations

import pytest

from rigbuilder.config import OPTIONS, SETTINGS_VERSION, VERSION_KEY, DictStore, Preferences, upgrade


def test_settings_from_before_versions_are_upgraded():
    # an INI file reads a one-item list back as a bare string
    store = DictStore({"recent_files": "/home/ana/x99.rig", "window/geometry": b"..."})
    prefs = Preferences.open(store)
    assert prefs.upgraded == [1]
    assert store["recent_files"] == ["/home/ana/x99.rig"]
    assert store[VERSION_KEY] == SETTINGS_VERSION
    assert store["window/geometry"] == b"..."  # what the step does not concern is left alone
    assert upgrade(store) == []  # once


def test_settings_of_a_newer_version_are_left_alone():
    store = DictStore({VERSION_KEY: "7", "recent_files": "a.rig"})
    assert upgrade(store) == [] and store["recent_files"] == "a.rig" and store[VERSION_KEY] == "7"


def test_defaults_and_checked_values():
    prefs = Preferences.open(DictStore())
    assert prefs.get("money/default_region") == prefs.default("money/default_region") == "EU-16A"  # LANG=C
    assert prefs.new_build_currency() == "EUR"
    prefs.set("money/default_region", "US-15A")
    assert prefs.new_build_currency() == "USD"
    prefs.set("money/default_currency", "gbp")
    assert prefs.get("money/default_currency") == "GBP" and prefs.new_build_currency() == "GBP"
    with pytest.raises(ValueError, match="Region of new builds"):
        prefs.set("money/default_region", "Mars")
    with pytest.raises(ValueError, match="three-letter"):
        prefs.set("money/default_currency", "EURO")
    prefs.store["money/default_region"] = "Atlantis"  # a hand-edited file: read as the default
    assert prefs.get("money/default_region") == "EU-16A"
    prefs.set("money/default_currency", "")  # back to the default: nothing stored
    assert "money/default_currency" not in prefs.store


def test_new_builds_take_the_region_from_the_locale(monkeypatch):
    from rigbuilder.domain.build import region_for_locale

    assert region_for_locale({"LANG": "ja_JP.UTF-8"}) == "JP-15A"
    assert region_for_locale({"LANG": "de_DE.UTF-8"}) == "DE-16A"
    assert region_for_locale({"LANG": "en_US.UTF-8"}) == "US-15A"
    assert region_for_locale({"LANG": "en_GB.UTF-8", "LC_MONETARY": "zh_CN.UTF-8"}) == "CN-10A"
    assert region_for_locale({"LANG": "C.UTF-8"}, "ja") == "JP-15A"  # no country: the window's language
    assert region_for_locale({"LANG": "C.UTF-8"}) == "EU-16A"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    prefs = Preferences.open(DictStore())
    assert prefs.get("money/default_region") == "JP-15A" and prefs.new_build_currency() == "JPY"
    prefs.set("money/default_region", "US-15A")  # a choice wins over the locale
    assert prefs.get("money/default_region") == "US-15A"
    assert prefs.get("power/circuit_margin") == 0.8
    prefs.set("power/circuit_margin", 0.75)
    assert prefs.get("power/circuit_margin") == 0.75


def test_the_cli_new_build_follows_the_locale_too(tmp_path, monkeypatch, capsys):
    from rigbuilder.cli import main
    from rigbuilder.files.buildfile import load

    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    out = tmp_path / "b.rig"
    assert main(["new", "-o", str(out)]) == 0
    s = load(out).settings
    assert (s.region, s.currency) == ("JP-15A", "JPY")
