"""Seed 001's Japanese 4x RTX 3090 build on a 100 V / 15 A outlet, at full power and at 280 W:
``rigbuilder limits`` and ``check`` give the right advice, in Japanese (issue 25)."""
from __future__ import annotations

import json

import pytest

from rigbuilder.files.buildfile import save
from tests.builds import x99_4x3090
from tests.cli_lang import run


@pytest.fixture
def rigs(tmp_path):
    out = {}
    for limit in (None, 280):
        f = tmp_path / f"jp-{limit or 'full'}.rig"
        save(x99_4x3090(limit, region="JP-15A"), f)
        out[limit] = f
    return out


def test_full_power_in_japanese_says_it_does_not_fit_and_gives_the_commands(rigs, capsys):
    rc, out, _ = run(capsys, "limits", str(rigs[None]), "--lang", "ja")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith("フルパワー時:") and "定格 1,500 W を超過" in lines[0]
    assert "現在の電力制限" not in out  # no limits held: nothing to judge there
    assert "sudo nvidia-smi -pm 1" in out and "sudo nvidia-smi -i 3 -pl " in out
    assert "再起動" in out and "ExecStart=/usr/bin/nvidia-smi" in out and out.count("@reboot") >= 1
    for english in ("Limit every GPU", "At full power", "circuit", "fits", "reboot."):
        assert english not in out


def test_at_280_w_both_verdicts_are_said_and_the_proposal_lands_below_1200_w(rigs, capsys):
    rc, out, _ = run(capsys, "limits", str(rigs[280]), "--lang", "ja")
    assert rc == 0
    assert "フルパワー時:" in out and "現在の電力制限（280 W）時:" in out
    rc, js, _ = run(capsys, "limits", str(rigs[280]), "--json")
    d = json.loads(js)
    assert d["full_power"]["fits"] is False and d["current"]["fits"] is False
    assert d["current"]["peak_wall_w"] > d["current"]["circuit_w"] == 1200
    assert d["needed"] and d["peak_wall_w"] <= 1200
    assert d["commands"][0] == "sudo nvidia-smi -pm 1" and len(d["commands"]) == 5
    assert d["systemd_unit"].startswith("[Unit]") and d["cron"].startswith("@reboot ")


def test_check_in_japanese_error_at_full_power_warning_at_280_w(rigs, capsys):
    rc, out, _ = run(capsys, "check", str(rigs[None]), "--lang", "ja")
    assert rc == 1 and "power.circuit" in out and "定格 1,500 W を超えています" in out
    rc, out, _ = run(capsys, "check", str(rigs[280]), "--lang", "ja", "--only", "power.circuit")
    assert "power.circuit" in out and "1,200 W" in out and "Japan" not in out and "socket" not in out
    rc, js, _ = run(capsys, "check", str(rigs[280]), "--json", "--only", "power.circuit")
    f = json.loads(js)["findings"][0]
    assert f["severity"] in ("warning", "error") and f["figures"]["circuit_w"] == 1200


def test_the_report_prints_the_advice_and_the_commands(rigs, capsys):
    rc, md, _ = run(capsys, "report", str(rigs[280]), "--format", "md", "-o", "-")
    assert rc == 0 and "## Power limits" in md
    section = md[md.index("## Power limits"):]
    assert "At the current limits (280 W)" in section and "sudo nvidia-smi -i 3 -pl " in section
    assert "@reboot /usr/bin/nvidia-smi" in section and "sudo crontab -e" in section
    rc, html, _ = run(capsys, "report", str(rigs[280]), "--format", "html", "--no-board", "-o", "-", "--lang", "de")
    assert "<h2>Leistungslimits</h2>" in html and '<pre class="commands">sudo nvidia-smi -pm 1' in html
