"""power.circuit from each circuit's continuous rating, and the power-limit advice that keeps a build
under it (issue 25): seed 001's 4x RTX 3090 build on a Japanese 100 V / 15 A outlet."""
from __future__ import annotations

import pytest

from rigbuilder.domain import gpu_commands
from rigbuilder.domain.build import CIRCUIT_MARGIN, REGIONS, Settings
from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import render
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.power import advise_power_limit, plan_limits
from tests.builds import x99_4x3090


def _circuit(fs):
    return [f for f in fs if f.code == "power.circuit"]


def test_every_region_states_its_rating_and_continuous_figure_with_a_source():
    for r in REGIONS.values():
        assert r.rated_w == r.voltage * r.amps
        cont = r.continuous_w(CIRCUIT_MARGIN)
        assert 0 < cont <= r.rated_w
        assert r.source and str(r.continuous_source(CIRCUIT_MARGIN))
        if r.code_share is None:  # no code sets one: the stated margin, a setting
            assert cont == pytest.approx(CIRCUIT_MARGIN * r.rated_w)
            assert "80%" in r.continuous_source(0.8) and r.continuous_w(0.9) > cont
        else:
            assert "NEC" in r.code_source and r.continuous_w(0.95) == cont  # the code's figure, not the margin
    assert REGIONS["US-15A"].continuous_w() == 1440 and REGIONS["JP-15A"].continuous_w() == 1200
    assert REGIONS["JP-15A"].rated_w == 1500


def test_the_margin_is_a_setting_of_the_build():
    assert Settings(region="JP-15A").circuit_w() == 1200
    assert Settings(region="JP-15A", circuit_margin=0.9).circuit_w() == 1350
    assert Settings(region="US-15A", circuit_margin=0.9).circuit_w() == 1440


def test_japan_full_power_is_an_error_and_280_w_a_warning_above_the_continuous_figure(index):
    full = _circuit(run_checks(x99_4x3090(None, region="JP-15A"), index))
    assert len(full) == 1 and full[0].severity is Severity.ERROR
    assert "above the 1500 W a Japan 100 V / 15 A circuit is rated for" in full[0].message
    limited = _circuit(run_checks(x99_4x3090(280, region="JP-15A"), index))
    assert len(limited) == 1 and limited[0].severity in (Severity.WARNING, Severity.ERROR)
    figs = dict(limited[0].figures)
    assert figs["circuit_w"] == 1200 and figs["wall_w"] > 1200
    ja = render(limited[0].message, "ja")
    assert "日本 100 V / 15 A" in ja and "規程" in ja and "Japan" not in ja and "socket" not in ja


def test_below_the_continuous_figure_but_near_it_is_info_only(index):
    b = x99_4x3090(None, region="JP-15A")
    b.settings.circuit_margin = 1.0
    adv = advise_power_limit(Context(b, index))
    for g in b.gpus:
        g.power_limit_w = adv.limits_w[0][1]
    fs = _circuit(run_checks(b, index))
    assert all(f.severity is Severity.INFO for f in fs)


def test_proposed_limits_land_below_what_the_circuit_carries_continuously(index):
    for region in ("JP-15A", "US-15A", "UK-13A"):
        b = x99_4x3090(None, region=region)
        adv = advise_power_limit(Context(b, index))
        assert adv.feasible and adv.peak_wall_w <= b.settings.circuit_w(), region
        for g in b.gpus:
            g.power_limit_w = adv.limits_w[0][1]
        assert not [f for f in _circuit(run_checks(b, index)) if f.severity is not Severity.INFO], region


def test_plan_judges_full_power_and_the_current_limits(index):
    plan = plan_limits(x99_4x3090(280, region="JP-15A"), index)
    assert plan.needed and not plan.full.fits and plan.full.wall_w > 1500
    assert plan.current is not None and not plan.current.circuit_ok and plan.current.wall_w > 1200
    assert plan.current_limits == ((1, 280), (2, 280), (3, 280), (4, 280))
    assert plan.to_apply == plan.advice.limits_w and plan.advice.peak_wall_w <= 1200
    eu = plan_limits(x99_4x3090(280, region="EU-16A"), index)
    assert eu.current.fits and eu.to_apply == eu.current_limits  # the build's own limits fit: those
    assert plan_limits(x99_4x3090(None, region="EU-16A"), index).current is None


def test_commands_carry_sudo_persistence_and_a_reboot_recipe():
    limits = [(1, 210), (2, 210)]
    assert gpu_commands.set_limits(limits) == ["sudo nvidia-smi -pm 1", "sudo nvidia-smi -i 0 -pl 210",
                                               "sudo nvidia-smi -i 1 -pl 210"]
    unit = gpu_commands.systemd_unit(limits)
    assert "Type=oneshot" in unit and "ExecStart=/usr/bin/nvidia-smi -i 1 -pl 210" in unit
    assert "WantedBy=multi-user.target" in unit
    assert gpu_commands.cron_line(limits).startswith("@reboot /usr/bin/nvidia-smi -pm 1 && ")
    text = [str(x) for x in gpu_commands.instructions(limits)]
    assert any("systemctl enable --now gpu-power-limits.service" in t for t in text)
    assert any("nvidia-smi -L" in t for t in text)
    assert gpu_commands.instructions([]) == []
