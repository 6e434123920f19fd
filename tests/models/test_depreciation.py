"""Used prices at scale (issue 38): the shipped used-market series, and the depreciation model that
estimates a used price where none is observed, its error measured on chips held out of the fit."""
from __future__ import annotations

import json
import math
import re

import pytest

from rigbuilder.catalog.prices import MoneyFileError, load_observations, money_dir, observation_from_dict
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import PriceBook
from rigbuilder.models import depreciation as D
from rigbuilder.models.prices import catalog_observation, choose, observations, price_part

USED_FILE = money_dir() / "used-prices.json"
GPU_CHIPS_OBSERVED = 55  # docs/data-sources.md's coverage table says the same (test below)
OTHER_PARTS_OBSERVED = 2  # the X99 board and its Xeon, bundled (prices.json, 2023-09)


@pytest.fixture(scope="module")
def est_index(index) -> PartIndex:
    """The shipped parts and prices with estimates on, as the app opens them by default."""
    ix = PartIndex(list(index), version="test", prices=index.prices)
    ix.used_estimates = True
    return ix


def _used_counts(ix: PartIndex) -> tuple[set, set]:
    chips, others = set(), set()
    for pid, obs in ix.prices.observations.items():
        if not any(o.condition == "used" and o.origin in ("marketplace", "shop") and o.date for o in obs):
            continue
        p = ix.get(pid)
        if p is None:
            continue
        if p.KIND == "gpu":
            chips.add(p.chip_model)
        else:
            others.add(pid)
    return chips, others


def test_every_used_row_has_a_month_and_a_source():
    rows = json.loads(USED_FILE.read_text(encoding="utf-8"))["observations"]
    assert len(rows) > 1000
    for i, o in enumerate(rows):
        assert re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", o["date"]), (i, o)
        assert o["condition"] == "used" and o["source"].strip() and "https://" in o["source"], (i, o)
        assert o.get("origin") != "estimate"  # an estimate is never shipped as an observation
    # and the loader reads every row (a month, a source, a known currency and condition)
    assert len(load_observations(USED_FILE)) == len(rows)


def test_coverage_targets_as_measured(index):
    """The count of GPU chips and other parts with a dated used observation: at least what
    docs/data-sources.md states (the issue's target is 150 chips and 60 other parts; the docs say
    how far the published series reach)."""
    chips, others = _used_counts(index)
    assert len(chips) >= GPU_CHIPS_OBSERVED
    assert len(others) >= OTHER_PARTS_OBSERVED
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "data-sources.md").read_text(encoding="utf-8")
    assert f"| GPU chips with a dated used observation | {len(chips)} |" in doc
    assert f"| other parts with a dated used observation | {len(others)} |" in doc


def test_a_file_cannot_ship_an_estimate():
    with pytest.raises(MoneyFileError, match="origin"):
        observation_from_dict({"part_id": "gpu-nvidia-rtx-3090-fe", "amount": 500, "currency": "USD",
                               "condition": "used", "origin": "estimate", "date": "2026-01", "source": "x"}, "here")


# --------------------------------------------------------------------------- the model


def _synthetic(n_chips=20, months=("2023-01", "2023-04", "2023-07", "2023-10")) -> list[D.Point]:
    """Points from a known law: used/launch = exp(0.1 - 0.15*age + 0.05*ln(vram) + level(month))."""
    level = {m: 0.02 * i for i, m in enumerate(months)}
    out = []
    for c in range(n_chips):
        launched = f"{2016 + c % 7}-{1 + c % 12:02d}"
        vram = [4, 6, 8, 12, 16, 24][c % 6]
        launch = 200.0 + 50 * c
        for m in months:
            p = D.Point(f"chip{c:02d}", "consumer", "NVIDIA", vram, launch, launched, m, 1.0)
            used = launch * math.exp(0.1 - 0.15 * p.age + 0.05 * math.log(vram) + level[m])
            out.append(D.Point(p.chip, p.segment, p.vendor, vram, launch, launched, m, used))
    return out


def test_the_fit_recovers_a_known_law_and_its_held_out_error_is_near_zero():
    pts = _synthetic()
    f = D.fit(pts)
    assert f is not None and f.as_of == "2023-10" and f.segments == {"consumer"}
    assert f.beta[1] == pytest.approx(-0.15, abs=0.03) and f.beta[3] == pytest.approx(0.05, abs=0.03)  # age, ln(memory)
    for p in pts:
        assert f.predict(p) == pytest.approx(p.used_usd, rel=0.02)
    h = D.held_out(pts)
    assert h.chips == 20 and h.median_abs < 0.02


def test_held_out_chips_are_kept_out_of_their_fit():
    """A chip priced far off the law is predicted by a model that never saw it: its own error is
    large, while a model fitted with it would have bent towards it."""
    pts = _synthetic()
    odd = [D.Point(p.chip, p.segment, p.vendor, p.vram_gb, p.launch_usd, p.launched, p.month, p.used_usd * 3)
           if p.chip == "chip07" else p for p in pts]
    h = D.held_out(odd)
    assert min(h.ratios) < -0.6  # chip07: predicted about a third of what it sold for


def test_no_estimate_for_a_segment_without_data_or_a_part_newer_than_the_data(est_index):
    est = D.estimator_for(est_index, catalog_observation)
    assert est is not None
    a5000 = est_index.get("gpu-nvidia-rtx-a5000")
    assert a5000 is not None and a5000.segment not in est.fit.segments
    assert est.estimate(a5000, est_index) is None
    rtx5090 = next(p for p in est_index.of_kind("gpu") if getattr(p, "chip_model", "") == "GeForce RTX 5090")
    assert est.estimate(rtx5090, est_index) is None  # launched after the fit's newest month


def test_held_out_error_of_the_shipped_model_is_measured_and_shown(est_index):
    """The model's error on chips held out of its fit, measured here on the shipped series (never
    written down by hand): each estimate's note carries that band."""
    pts = D.training_points(est_index, catalog_observation)
    h = D.held_out(pts)
    print("\nused-price estimate, " + h.band())
    assert h.chips >= 15
    assert h.median_abs < 0.3  # half the held-out chips within 30% of their sold price
    est = D.estimator_for(est_index, catalog_observation)
    assert est.error.ratios == h.ratios
    gtx1080ti = est_index.get("gpu-nvidia-gtx-1080-ti-fe")
    e = est.estimate(gtx1080ti, est_index)
    assert e is not None and e.origin == "estimate" and e.condition == "used" and e.date == est.fit.as_of
    assert f"half within ±{h.median_abs * 100:.0f}%" in e.note and e.note.startswith("estimated from ")
    assert "estimated" in e.describe()  # the origin's label: never shown as observed


def test_an_estimate_ranks_below_every_observed_used_price(est_index):
    fe = "gpu-nvidia-rtx-3090-fe"  # has observed used prices: no estimate is added
    assert not any(o.origin == "estimate" for o in observations(fe, est_index))
    o = observations("gpu-nvidia-gtx-1080-ti-fe", est_index)
    est = [x for x in o if x.origin == "estimate"]
    assert len(est) == 1
    assert choose(o, "used").origin == "estimate"  # the only used price
    assert choose(o, "new").origin != "estimate"  # a new build keeps its new price
    assert choose(o + [D.PriceObservation("gpu-nvidia-gtx-1080-ti-fe", 150, "USD", "used", "marketplace",
                                          "a shop", "2020-01")], "used").origin == "marketplace"


def test_the_preference_switches_estimates_off(index, est_index):
    pid = "gpu-nvidia-gtx-1080-ti-fe"
    on = price_part(pid, "USD", est_index, condition="used", strict=True)
    assert on is not None and on.observation.origin == "estimate"
    off_index = PartIndex(list(index), version="test", prices=index.prices)  # used_estimates off
    assert price_part(pid, "USD", off_index, condition="used", strict=True) is None
    from rigbuilder.config import DictStore, Preferences

    prefs = Preferences.open(DictStore())
    assert prefs.get("money/used_estimates") is True
    prefs.set("money/used_estimates", False)
    assert prefs.get("money/used_estimates") is False
    prefs.store.setValue("money/used_estimates", "false")  # as an INI file reads it back
    assert prefs.get("money/used_estimates") is False
    with pytest.raises(ValueError):
        prefs.set("money/used_estimates", "maybe")


def test_the_command_line_flag_switches_estimates_off(capsys):
    from rigbuilder.cli import main

    assert main(["price", "list", "gpu-nvidia-gtx-1080-ti-fe", "--json"]) == 0
    on = json.loads(capsys.readouterr().out)
    assert any(p["origin"] == "estimate" for p in on["prices"])
    assert main(["--no-estimates", "price", "list", "gpu-nvidia-gtx-1080-ti-fe", "--json"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert not any(p["origin"] == "estimate" for p in off["prices"])
    assert len(off["prices"]) == len(on["prices"]) - 1


def test_an_empty_price_book_gives_no_estimator():
    ix = PartIndex([], prices=PriceBook())
    ix.used_estimates = True
    assert D.estimator_for(ix, catalog_observation) is None and D.estimates([], ix, catalog_observation) == []


def test_the_adviser_marks_an_estimated_price(capsys):
    from rigbuilder.cli import main

    assert main(["advise", "gpus", "--workload", "cnn-training", "--condition", "used", "--limit", "0",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["recommendations"]
    est = [r for r in rows if r["price_origin"] == "estimate"]
    assert est and all(r["price_total"] for r in est)
    assert {"marketplace"} <= {r["price_origin"] for r in rows}
    assert main(["--no-estimates", "advise", "gpus", "--workload", "cnn-training", "--condition", "used",
                 "--limit", "0", "--json"]) == 0
    assert not any(r["price_origin"] == "estimate" for r in json.loads(capsys.readouterr().out)["recommendations"])
