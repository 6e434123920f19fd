"""A log against the plan (issue 42): idle and loaded stretches of a real log, matching the log's
cards to the build's GPUs, the comparison, and the calibration it gives to later plans."""
from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest

from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.domain.calibration import Calibration, Record, calibrations
from rigbuilder.domain.i18n import render
from rigbuilder.files import telemetry as tm
from rigbuilder.files.measured import MatchError, compare, match, name_fits, percent, summarise
from rigbuilder.files.telemetry import parse_log, read_log
from rigbuilder.models import power as power_model
from rigbuilder.rules.context import Context

REAL = Path(__file__).parent / "data" / "telemetry" / "titanx-2gpu-smi.csv"
TITAN = "gpu-nvidia-titan-xp"
FE = "gpu-nvidia-rtx-3090-fe"
TI = "gpu-evga-rtx-3090-ti-ftw3-ultra"


def test_the_real_logs_idle_and_loaded_stretches():
    a, b = (summarise(c) for c in read_log(REAL, cards=2).cards)
    # idle: the median of the 12.7 s before the job (16-18 W); load: the mean of the loaded stretches
    assert a.idle_w == pytest.approx(17.55) and b.idle_w == pytest.approx(16.37)
    assert 160 < a.load_w < 185 and 150 < b.load_w < 175
    assert a.max_w == 188.48  # the highest reading of the first card (file lines 2, 4, ...)
    assert a.idle.first_line == 2 and a.idle.end - a.idle.start == pytest.approx(12.714, abs=0.01)
    # the stretch at 92-96 W where the cards wait is neither idle nor load
    assert a.load.last_line < 566 + 10
    # energy: the cut in the excerpt (01:42:37 -> 01:43:44) is not bridged
    assert a.duration_s == pytest.approx(12.7 + 18.0, abs=0.5)
    assert 0.7 < a.energy_wh < 0.95
    assert a.limit_w is None and a.reasons == () and not a.throttled


def _log(names=("NVIDIA GeForce RTX 3090",) * 2, power=(300.0, 300.0), reasons=0x4, limit=280.0, seconds=7):
    """A constructed log (rigbuilder's own format): 3 s idle, then load."""
    t0 = _dt.datetime(2026, 11, 20, 14, 0, 0)
    out = [tm.write_csv_header()]
    for k in range(seconds * 10):
        for i, name in enumerate(names):
            busy = k >= 30
            out.append(tm.csv_row(t0 + _dt.timedelta(milliseconds=100 * k), i, name,
                                  power[i] if busy else 22.0, limit, 70.0, 60.0, 100.0 if busy else 0.0, 1700.0,
                                  reasons if busy else 1))
    return parse_log(("\n".join(out) + "\n").encode(), "constructed.csv")


def ctx_of(index, *gpus):
    b = Build(gpus=[GpuPlacement(pid, None, power_limit_w=lim) for pid, lim in gpus])
    return Context(b, index)


def test_names_fit_the_chip_model_not_a_ti_more_or_less(index):
    fe, ti = index.get(FE), index.get(TI)
    assert name_fits("NVIDIA GeForce RTX 3090", fe) and not name_fits("NVIDIA GeForce RTX 3090", ti)
    assert name_fits("NVIDIA GeForce RTX 3090 Ti", ti) and not name_fits("NVIDIA GeForce RTX 3090 Ti", fe)
    assert name_fits("NVIDIA A100-PCIE-40GB", index.get("gpu-nvidia-a100-pcie-40gb"))
    assert not name_fits("NVIDIA A100-PCIE-40GB", index.get("gpu-nvidia-a100-pcie-80gb"))
    assert name_fits("NVIDIA TITAN Xp", index.get(TITAN))


def test_compare_per_card_and_for_the_machine(index):
    ctx = ctx_of(index, (FE, 280.0), (FE, 280.0))
    cmp = compare(_log(power=(266.0, 252.0)), ctx.gpus)
    c1, c2 = cmp.cards
    assert (c1.planned_load_w, c1.planned_idle_w, c1.planned_limit_w) == (280.0, 15.0, 280.0)
    assert c1.summary.load_w == 266.0 and c1.summary.idle_w == 22.0 and c1.summary.limit_w == 280.0
    assert c1.summary.reasons == ("sw_power_cap",)  # gpu_idle, seen while idle, is left out
    assert c1.load_ratio == pytest.approx(0.95) and c1.calibrates
    assert cmp.total("load") == 518.0 and cmp.total("planned_load") == 560.0
    assert percent(518.0, 560.0) == pytest.approx(-7.5)


def test_a_card_held_back_by_a_thermal_slowdown_does_not_calibrate(index):
    ctx = ctx_of(index, (FE, None), (FE, None))
    cmp = compare(_log(reasons=0x40 | 0x4), ctx.gpus)
    assert all(c.summary.throttled and not c.calibrates for c in cmp.cards)
    assert any("slowed down (hw_thermal_slowdown)" in n for n in cmp.notes)


def test_a_log_of_another_machine_is_refused_naming_the_card_and_line(index):
    ctx = ctx_of(index, (FE, None), (FE, None))
    with pytest.raises(MatchError, match=r"constructed.csv line 3: card 1 is 'NVIDIA GeForce RTX 4090', and the build "
                                         r"has no such GPU \(its GPUs: GeForce RTX 3090\)"):
        compare(_log(names=("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 4090")), ctx.gpus)


def test_mixed_models_match_by_name_whatever_the_order(index):
    ctx = ctx_of(index, (TI, None), (FE, None))
    pairs = match(_log(names=("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090 Ti")), ctx.gpus)
    assert [(g.num, c.index) for g, c in pairs] == [(1, 1), (2, 0)]


def test_ambiguous_cards_ask_and_a_map_answers(index):
    ctx = ctx_of(index, (FE, 250.0), (FE, 300.0))  # same card, other limits: which is which?
    with pytest.raises(MatchError) as e:
        compare(_log(), ctx.gpus)
    assert e.value.ambiguous == (1, 2) and "--map 1=0,2=1" in str(e.value)
    cmp = compare(_log(), ctx.gpus, {1: 1, 2: 0})
    assert [(c.num, c.summary.index, c.planned_load_w) for c in cmp.cards] == [(1, 1, 250.0), (2, 0, 300.0)]
    with pytest.raises(MatchError, match="no card 7"):
        compare(_log(), ctx.gpus, {1: 7})


def test_a_count_that_differs_is_refused(index):
    with pytest.raises(MatchError, match="the log has 2 card"):
        compare(_log(), ctx_of(index, (FE, None)).gpus)


def test_calibration_is_the_mean_over_logs_with_their_number_and_latest_date():
    recs = [Record(1, FE, 266.0, 280.0, True, "2026-11-20"), Record(1, FE, 252.0, 280.0, True, "2026-11-20"),
            Record(2, FE, 330.0, 350.0, True, "2026-11-24"), Record(2, FE, 100.0, 350.0, False, "2026-11-24"),
            Record(3, TI, None, 450.0, True, "2026-11-25"), Record(4, TITAN, 10.0, 250.0, True, "2026-11-25")]
    cal = calibrations(recs)
    assert set(cal) == {FE}  # no load figure; a factor of 0.04 is a mismatched log, not a calibration
    assert cal[FE] == Calibration(round((0.925 + 330 / 350) / 2, 3), 2, "2026-11-24")
    assert str(cal[FE].note()) == "calibrated from your 2 logs (latest 2026-11-24): ×0.93"
    one = Calibration(0.93, 1, "2026-11-20")
    assert str(one.note()) == "calibrated from your log of 2026-11-20: ×0.93"
    assert render(one.note(), "de") != str(one.note())


def test_the_power_model_applies_a_calibration_and_says_so(index):
    b = Build(gpus=[GpuPlacement(FE, None), GpuPlacement(TI, None)])
    plain = Context(b, index).power
    index.calibration = {FE: Calibration(0.9, 1, "2026-11-20")}
    try:
        cal = Context(b, index).power
    finally:
        index.calibration = {}
    g1, g2 = (c for c in cal.components if c.kind == "gpu")
    assert g1.watts["training"] == 315.0 and g1.watts["peak"] == 350.0  # peak stays at the card's limit
    assert g1.calibration.factor == 0.9 and "calibrated from your log of 2026-11-20: ×0.90" in g1.source
    assert g2.calibration is None and g2.watts == dict(plain.components[1].watts)
    assert cal.dc["training"] == pytest.approx(plain.dc["training"] - 35.0)
    from rigbuilder.models.plots import readout

    assert [str(t) for t in readout(cal, "training").tail][-1] == "GPU draw calibrated from your log of 2026-11-20: ×0.90"
    assert not any("calibrated" in t for t in readout(plain, "training").tail + readout(cal, "idle").tail)


def test_a_factor_above_one_raises_peak_too(index):
    from dataclasses import replace

    gpu = replace(index.get(FE), id="gpu-x")
    g = power_model.components(gpus=[(1, gpu, None)], cpu=None, board=None, memory=[], storage=[], cooler=None,
                               nics=[], case_fans=False, calibration={"gpu-x": Calibration(1.1, 1, "2026-11-20")})[0]
    assert g.watts["training"] == g.watts["peak"] == 385.0

