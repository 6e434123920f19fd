"""noise.loud: an info finding when the build is louder while training than its room level."""
from __future__ import annotations

from dataclasses import replace

from rigbuilder.domain.build import ROOM_NOISE_DB
from rigbuilder.domain.findings import Severity
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import RULE_CODES, run_checks
from rigbuilder.rules.noise import check_noise
from tests.builds import RTX3090_FE, frank_2070, x99_4x3090


def test_default_room_level_is_40():
    assert ROOM_NOISE_DB == 40.0 and x99_4x3090().settings.room_noise_db == 40.0


def test_four_blowers_unlimited_are_loud_for_a_work_room(index):
    b = x99_4x3090(limit_w=None)
    ctx = Context(b, index)
    found = list(check_noise(ctx))
    assert len(found) == 1
    f = found[0]
    assert f.code == "noise.loud" and f.severity is Severity.INFO
    figs = dict(f.figures)
    assert figs["training_db"] > figs["room_db"] == 40.0
    assert f.gpus == (1, 2, 3, 4)
    assert "1 m" in f.message and f.fix and f.limits
    assert any(x.code == "noise.loud" for x in run_checks(b, index))


def test_a_higher_room_level_silences_the_finding(index):
    b = x99_4x3090(limit_w=None)
    level = Context(b, index).noise.total["training"].db
    b.settings = replace(b.settings, room_noise_db=round(level) + 1)
    assert list(check_noise(Context(b, index))) == []


def test_a_lower_room_level_calls_a_quiet_build_loud(index):
    b = frank_2070()
    assert list(check_noise(Context(b, index))) == []  # one open-air RTX 2070 in a work room
    b.settings = replace(b.settings, room_noise_db=20.0)
    assert [f.code for f in check_noise(Context(b, index))] == ["noise.loud"]


def test_the_finding_is_documented():
    assert "noise.loud" in RULE_CODES
