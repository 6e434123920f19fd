"""The build optimiser on the shipped catalog (issue 18): infeasible requests, owned parts, the
quiet preference, both stages judged. Throughput: the tests' stand-in (tests/rules/optimise_helpers.py)."""
from __future__ import annotations

import pytest

from rigbuilder.domain.edits import EditError, ReplaceBuild
from rigbuilder.domain.build import Build
from rigbuilder.rules.engine import has_errors, run_checks
from rigbuilder.rules.optimise import Cancelled, OptimiseError, Request, optimise, placements
from tests.rules.optimise_helpers import StandIn

SEEDLIKE = dict(budget=2000.0, currency="EUR", condition="both", gpus_now=1, grow_to=4,
                choices=(("training-vram", False),))  # the 12 GB floor leaves seed 000 no build (test_seed_answers)


def run(index, **kw):
    return optimise(Request(**kw), index, StandIn())


def test_growth_plan_both_stages_pass_the_checks(index):
    res = run(index, **SEEDLIKE)
    best = res.best
    assert best is not None, res.infeasible
    assert len(best.today.gpus) == 1 and len(best.grown.gpus) == 4
    assert not has_errors(run_checks(best.today, index)) and not has_errors(run_checks(best.grown, index))
    # growth adds only GPUs: the same board, CPU, case and PSU
    for role in ("motherboard", "cpu", "cooler", "case", "psus", "memory", "storage"):
        assert getattr(best.today, role) == getattr(best.grown, role)
    assert best.today.gpus[0].position in [g.position for g in best.grown.gpus]
    assert best.cost_now <= 2000 and best.cost_growth > 0 and best.energy > 0
    assert best.total == pytest.approx(best.cost_now + best.cost_growth + best.energy)
    assert res.price_notes and res.explanation[len(res.price_notes)].startswith("Most throughput within the budget")
    assert any(line.startswith("Board:") for line in res.explanation)


@pytest.mark.parametrize("kw, starts, words", [
    (dict(budget=300.0, gpus_now=1, grow_to=4), "budget:", "300.00 EUR"),
    (dict(min_vram_gb=500.0), "GPU:", "VRAM"),
    (dict(gpus_now=8), "slot spacing:", "8 slots"),
    (dict(gpus_now=3, region="US-15A", currency="USD", condition="both", insist=(("gpu", "gpu-nvidia-rtx-5090-fe"),)),
     "", ""),
])
def test_an_infeasible_request_names_the_constraint(index, kw, starts, words):
    res = run(index, **kw)
    assert res.best is None and res.candidates == []
    assert res.infeasible and res.infeasible.startswith(starts) and words in res.infeasible
    if not starts:  # four 575 W cards on a US 15 A circuit: the circuit or the PSU is named
        assert res.infeasible.startswith(("wall circuit:", "power.circuit", "psu:", "psu.capacity")), res.infeasible


def test_owned_parts_are_used_and_cost_nothing(index):
    case = "case-corsair-750d-airflow"  # no price in the catalog: owned, it needs none
    gpu = "gpu-asus-rtx-2080-ti-turbo"  # a 2025 street price (the RTX A4000's 2021 launch price is no new price now)
    res = run(index, **SEEDLIKE, own=(("case", case), ("gpu", gpu)))
    best = res.best
    assert best is not None, res.infeasible
    assert best.today.case == case and best.grown.case == case
    assert {g.part_id for g in best.grown.gpus} == {gpu}
    rows = {pid: (units, each, where) for pid, units, each, where in best.prices}
    assert rows[case][1] == 0 and "owned" in rows[case][2]
    units, each, where = rows[gpu]
    assert units == 4 and where.startswith("1 owned")
    priced_now = sum(each * (units - 1 if pid == gpu else units) for pid, (units, each, _) in rows.items()
                     if pid not in [p for p in best.grown.psus[1:]])
    assert best.cost_now == pytest.approx(priced_now - 3 * each + 0)  # three cards are bought later
    assert best.cost_growth == pytest.approx(3 * each)
    assert best.today.prices_paid[case].amount == 0  # the planner shows it as owned, not bought


def test_insisted_unpriced_part_is_refused_with_a_reason(index):
    with pytest.raises(OptimiseError, match="no new price"):
        run(index, **{**SEEDLIKE, "condition": "new"}, insist=(("case", "case-corsair-750d-airflow"),))
    with pytest.raises(OptimiseError, match="not a case"):
        run(index, **SEEDLIKE, insist=(("case", "gpu-nvidia-rtx-a4000"),))


def test_quiet_keeps_a_slot_of_air_and_ranks_blowers_last(index):
    loud = run(index, budget=3000.0, currency="EUR", condition="both", gpus_now=1, grow_to=2, allow_warnings=True)
    quiet = run(index, budget=3000.0, currency="EUR", condition="both", gpus_now=1, grow_to=2, quiet=True)
    assert any(f.code == "thermal.open-air-gap" for f in loud.best.findings_grown)  # warnings allowed: cramped
    for c in quiet.candidates:
        for fs in (c.findings_today, c.findings_grown):
            assert not any(f.code == "thermal.open-air-gap" for f in fs)
    keys = [c.blowers for c in quiet.candidates]
    assert keys == sorted(keys)  # no blower build above a build without blowers


def test_placements_respect_spacing(index):
    board = index.get("mb-asrock-x99-ws-e")
    blower = index.get("gpu-pny-rtx-2080-ti-blower")
    open_air = index.get("gpu-nvidia-rtx-2080-ti-fe")
    assert ((1, 3, 5, 7), 8) in placements(board, blower, 4, quiet=False)
    assert placements(board, open_air, 4, quiet=False) == []  # 2-slot open-air cards touch at 2 positions apart
    assert all(b - a >= 3 for pos, _ in placements(board, open_air, 3, quiet=True) for a, b in zip(pos, pos[1:]))


def test_cancel_stops_the_search(index):
    with pytest.raises(Cancelled):
        optimise(Request(**SEEDLIKE), index, StandIn(), cancelled=lambda: True)


def test_result_opens_as_one_edit(index):
    best = run(index, **SEEDLIKE).best
    before = Build(name="mine")
    after = ReplaceBuild(best.grown, "Open optimised build").applied_to(before, index)
    assert after == best.grown and before == Build(name="mine")
    bad = best.grown.clone()
    bad.case = "case-no-such"
    with pytest.raises(EditError, match="no such part"):
        ReplaceBuild(bad).applied_to(before, index)


def test_power_limit_applies_to_every_card_and_lowers_the_draw(index):
    kw = dict(currency="USD", condition="both", gpus_now=4, min_vram_gb=24, region="US-15A")  # used or new
    full = run(index, **kw).best
    limited = run(index, **kw, power_limit=0.8).best
    assert full is not None and limited is not None
    assert all(g.power_limit_w is None for g in full.grown.gpus)
    card = index.get(limited.grown.gpus[0].part_id)
    assert all(g.power_limit_w == round(card.board_power_w * 0.8) for g in limited.grown.gpus)
    assert not has_errors(run_checks(limited.grown, index))
    if limited.gpu.id == full.gpu.id:
        assert limited.peak_dc_w < full.peak_dc_w
    with pytest.raises(OptimiseError, match="power limit"):
        run(index, **kw, power_limit=0.3)


def test_explanation_figures_take_the_language_s_digits():
    """A throughput of 1,437 reads '1.437' in German, not the English '1,437' (figure_num)."""
    from rigbuilder.domain.i18n import T, render
    from rigbuilder.rules.optimise.request import figure, figure_num

    t = T("{rate} {unit}", rate=figure_num(1437.2), unit="images/s")
    assert str(t) == "1,437 images/s" == f"{figure(1437.2)} images/s"
    assert render(t, "de") == "1.437 images/s" and render(T("{r}", r=figure_num(3.456)), "de") == "3,46"
