"""Power model: component budget per state, 80 PLUS efficiency, wall draw, what-if recomputation.

Every expected figure is worked by hand in the comment next to it (domain.md, Power and PSU
efficiency sections).
"""
from __future__ import annotations

import pytest

from rigbuilder.domain.parts import PSU
from rigbuilder.models import power as pm
from rigbuilder.rules.context import Context
from tests.builds import RTX3090_FE, frank_2070, x99_4x3090


def psu(watts: float, level: str, pid: str = "psu-test") -> PSU:
    return PSU(pid, "Test", f"{watts:g} W {level}", "test", "2024", wattage=watts, efficiency=level)


def flat(label: str, kind: str, lo: float, hi: float) -> pm.Component:
    """A component drawing ``lo`` W idle and ``hi`` W under training and peak."""
    return pm.Component(label, kind, {"idle": lo, "training": hi, "peak": hi}, False, "seed 000")


# -- seed 000: Frank's component budget, min-max W ------------------------------------------
FRANK = [
    # The CPU's minimum is not in the seed: 90 - (5 + 11 + 4 + 2 + 46) = 22 W is what makes his total.
    flat("Threadripper 1900X", "cpu", 22, 180),
    flat("CPU cooler", "cooler", 5, 10),
    flat("2x8 GB DDR4", "memory", 11, 11),
    flat("3 TB HDD", "storage", 4, 20),
    flat("500 GB NVMe", "storage", 2, 10),
    flat("RTX 2070", "gpu", 46, 185),
]


def test_frank_budget_sums_to_90_416():
    rep = pm.report(FRANK, [], "230V")
    assert rep.dc == {"idle": 90, "training": 416, "peak": 416}
    assert rep.share("storage", "peak") == 30
    assert rep.share("gpu", "idle") == 46
    # No PSU: no efficiency to apply, wall = DC, flagged as not a real efficiency figure.
    assert rep.wall == rep.dc and rep.efficiency_estimated["peak"]


def test_frank_budget_on_his_1000w_platinum():
    rep = pm.report(FRANK, [psu(1000, "Platinum")], "230V")
    # 416 W on 1000 W = 41.6% load: between 20% (92%) and 50% (94%) -> 0.92 + 0.02 * 21.6/30 = 0.9344
    assert rep.efficiency["peak"] == pytest.approx(0.9344)
    assert rep.wall["peak"] == pytest.approx(416 / 0.9344)
    # 90 W = 9% load, below the lowest certified point (20%): the labelled low-load model
    # 0.92 - 0.15 * (0.2 - 0.09) / 0.2 = 0.8375
    assert rep.efficiency["idle"] == pytest.approx(0.8375)
    assert rep.efficiency_estimated["idle"] and not rep.efficiency_estimated["peak"]


def test_frank_catalog_budget_maximum(index):
    """The catalog-driven budget for seed 000. Its maximum differs from Frank's 416 W in documented
    ways (docs/models.md): the catalog adds the motherboard (60 W) and case fans (10 W), which his
    list leaves out; the Zotac RTX 2070 AMP's board power is 175 W (his 185 W is a factory-OC
    figure); the drives' datasheets give 5.4 + 5.3 W, not 10 + 20 W; memory is 4 W a module
    (8 W, not 11) and the cooler's fans 5 W (not 10). The CPU matches exactly: 180 W."""
    rep = Context(frank_2070(), index).power
    assert rep.share("cpu", "peak") == 180
    assert rep.share("gpu", "peak") == 175
    assert rep.share("motherboard", "peak") == 60
    assert rep.share("storage", "peak") == pytest.approx(10.7)
    # 180 + 175 + 60 + 8 + 10.7 + 5 + 10 = 448.7
    assert rep.dc["peak"] == pytest.approx(448.7)
    like_frank = rep.dc["peak"] - rep.share("motherboard", "peak") - 10  # without board and case fans
    assert like_frank == pytest.approx(416 - 10 - 19.3 - 3 - 5)  # = 378.7: below his 416 W
    # Idle: the catalog model's minimum is 84.5 W, near his 90 W (different per-part figures).
    assert rep.dc["idle"] == pytest.approx(84.49)


def test_states_are_ordered(index):
    for b in (frank_2070(), x99_4x3090()):
        rep = Context(b, index).power
        assert rep.dc["idle"] < rep.dc["training"] <= rep.dc["peak"]
        assert rep.wall["idle"] < rep.wall["training"] <= rep.wall["peak"]


# -- 80 PLUS efficiency -----------------------------------------------------------------------
@pytest.mark.parametrize("table,level,points", [
    ("115V", "Bronze", [(0.2, 0.82), (0.5, 0.85), (1.0, 0.82)]),
    ("115V", "Gold", [(0.2, 0.87), (0.5, 0.90), (1.0, 0.87)]),
    ("230V", "Platinum", [(0.2, 0.92), (0.5, 0.94), (1.0, 0.90)]),
    ("115V", "Titanium", [(0.1, 0.90), (0.2, 0.92), (0.5, 0.94), (1.0, 0.90)]),
    ("230V", "Titanium", [(0.1, 0.90), (0.2, 0.94), (0.5, 0.96), (1.0, 0.94)]),
])
def test_efficiency_at_certified_points(table, level, points):
    for x, e in points:
        assert pm.efficiency(level, table, x) == (pytest.approx(e), False)


@pytest.mark.parametrize("table,level,x,expected", [
    ("115V", "Gold", 0.35, 0.885),  # 0.87 + (0.90 - 0.87) * 0.15 / 0.30
    ("115V", "Gold", 0.75, 0.885),  # 0.90 + (0.87 - 0.90) * 0.25 / 0.50
    ("230V", "Bronze", 0.8, 0.862),  # 0.88 + (0.85 - 0.88) * 0.3 / 0.5
    ("230V", "Titanium", 0.15, 0.92),  # 0.90 + (0.94 - 0.90) * 0.05 / 0.10
])
def test_efficiency_interpolates_between_points(table, level, x, expected):
    e, extrapolated = pm.efficiency(level, table, x)
    assert e == pytest.approx(expected)
    assert not extrapolated


def test_efficiency_below_lowest_point_is_flagged():
    # Gold 115 V at 10%: 0.87 - 0.15 * (0.2 - 0.1) / 0.2 = 0.795
    assert pm.efficiency("Gold", "115V", 0.1) == (pytest.approx(0.795), True)
    # At zero load the model bottoms out 15 points below the 20% figure.
    assert pm.efficiency("Gold", "115V", 0.0) == (pytest.approx(0.72), True)
    # Titanium is certified down to 10%: 5% is extrapolated, 0.90 - 0.15 * 0.05 / 0.1 = 0.825
    assert pm.efficiency("Titanium", "230V", 0.05) == (pytest.approx(0.825), True)


def test_efficiency_above_full_load_is_flagged_and_flat():
    assert pm.efficiency("Gold", "115V", 1.2) == (pytest.approx(0.87), True)


def test_wall_is_dc_over_efficiency_at_load_fraction():
    # 800 W DC on a 1600 W Gold PSU at 115 V: 50% load, 90% -> 888.9 W at the wall
    rep = pm.report([flat("load", "gpu", 800, 800)], [psu(1600, "Gold")], "115V")
    assert rep.load_fraction("training") == pytest.approx(0.5)
    assert rep.wall["training"] == pytest.approx(800 / 0.90)


def test_two_psus_share_in_proportion_to_rating():
    # 1300 W over 1600 W Titanium + 1000 W Platinum (115 V): 800 W and 500 W, both at 50% load.
    rep = pm.report([flat("load", "gpu", 1300, 1300)], [psu(1600, "Titanium"), psu(1000, "Platinum")], "115V")
    assert rep.psu_rating_w == 2600
    assert rep.wall["peak"] == pytest.approx(800 / 0.94 + 500 / 0.92)
    assert rep.efficiency["peak"] == pytest.approx(1300 / (800 / 0.94 + 500 / 0.92))


# -- seed 001: 4x RTX 3090 at a 20% limit draw 1120 W ----------------------------------------
def test_four_3090_limited_by_20_percent_draw_1120(index):
    rep = Context(x99_4x3090(limit_w=None, gpu=RTX3090_FE), index).power
    assert rep.share("gpu", "peak") == 4 * 350
    limited = pm.recompute(rep, fraction=0.8)
    assert limited.share("gpu", "peak") == 1120  # 4 x round(350 x 0.8) = 4 x 280
    assert limited.share("gpu", "idle") == rep.share("gpu", "idle")  # idle is not limited
    rest = limited.dc["peak"] - 1120
    assert rest < 400  # seed 001: "400 W for the rest" is enough for CPU, board, memory, drives, fans
    assert limited.dc["peak"] <= 1600
    # The same as the build saved with 280 W limits.
    saved = Context(x99_4x3090(limit_w=280, gpu=RTX3090_FE), index).power
    assert limited.dc == saved.dc and limited.wall == pytest.approx(saved.wall)
    # The transient allowance scales with the GPUs' draw: 80% of the unlimited one.
    assert limited.gpu_transient_w == pytest.approx(rep.gpu_transient_w * 0.8)
    assert saved.gpu_transient_w == pytest.approx(4 * 280 * (460 / 350 - 1))


def test_limit_keeps_a_tighter_existing_limit(index):
    rep = Context(x99_4x3090(limit_w=250, gpu=RTX3090_FE), index).power
    assert pm.recompute(rep, fraction=0.8).share("gpu", "peak") == 4 * 250


def test_recompute_with_another_level_keeps_the_load():
    rep = pm.report([flat("load", "gpu", 1600, 1600)], [psu(1600, "Bronze")], "115V")
    gold = pm.recompute(rep, level="Gold")
    assert gold.dc == rep.dc
    assert rep.wall["peak"] == pytest.approx(1600 / 0.82)
    assert gold.wall["peak"] == pytest.approx(1600 / 0.87)
    assert rep.psus[0].efficiency == "Bronze"  # the original report is untouched


def test_level_step():
    assert pm.level_step("Bronze") == "Silver"
    assert pm.level_step("Platinum") == "Titanium"
    assert pm.level_step("Titanium") is None
    assert pm.level_step("Gold", -1) == "Silver"


def test_efficiency_curve():
    pts = pm.efficiency_curve("Gold", "115V", [0.1, 0.2, 0.5])
    assert pts == [(0.1, pytest.approx(0.795), True), (0.2, 0.87, False), (0.5, 0.90, False)]


def test_transient_factor_by_generation(index):
    g = index.get(RTX3090_FE)
    f, why = pm.transient_factor(g)
    assert f == pytest.approx(460 / 350) and "3090" in why
    turing = index.get("gpu-zotac-rtx-2070-amp")
    assert pm.transient_factor(turing)[0] == pytest.approx(1.2)
