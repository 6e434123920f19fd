"""The optimiser's answers with their error bands (issue 39): worked out after the search from the model
every other door uses, for the very figure the search ranked by."""
from __future__ import annotations

import pytest

from rigbuilder.models import estimates as E
from rigbuilder.rules.optimise import Request, bands, optimise


@pytest.fixture(scope="module")
def answer(index):
    from rigbuilder.rules.optimise.scoring import AdviserScorer

    scorer = AdviserScorer("cnn-training")
    res = optimise(Request(budget=4000.0, currency="EUR", gpus_now=2, top=3), index, scorer)
    assert res.best is not None
    assert bands.throughput(res.best) is None and bands.best_line(res) is None  # before attach: nothing claimed
    bands.attach(res, index, scorer)
    return res


def test_each_answer_gets_the_band_of_its_own_figure(answer):
    for c in answer.candidates:
        fig = bands.throughput(c)
        # the estimate is the grown build's, for the figure the search ranked by
        assert c.estimate.value == pytest.approx(c.throughput, rel=1e-9)
        assert fig.value == c.throughput and fig.kind == "build-throughput"
        assert fig.band == pytest.approx(E.of_build(c.estimate).band) and fig.band > 0
        assert str(bands.band_text(c)) == f"\u00b1{fig.band:.0%}"
        d = bands.estimates(c)
        assert d["throughput"]["value"] == round(c.throughput, 4) and d["throughput"]["band"] == round(fig.band, 4)
        assert d["scaling"]["band"] > 0 and d["memory_per_card"]["kind"] == "memory"  # two training cards
        assert "power_limit" not in d  # no card under a limit


def test_the_answer_line_says_the_band_and_what_it_is(answer):
    line = str(bands.best_line(answer))
    fig = bands.throughput(answer.best)
    assert line.startswith(f"The best build's throughput: {fig.value:,.0f} images/s \u00b1{fig.band:.0%} (")
    assert E.HOW[fig.how] in line


def test_a_scorer_without_a_workload_leaves_the_bands_unknown(index):
    from tests.rules.optimise_helpers import StandIn

    res = optimise(Request(budget=2000.0, currency="EUR", gpus_now=1, top=2), index, StandIn())
    bands.attach(res, index, StandIn())
    assert res.best is not None and res.best.estimate is None
    assert str(bands.band_text(res.best)) == "unknown" and bands.estimates(res.best) is None


def test_the_next_best_inside_the_band_is_said_not_told_apart(monkeypatch):
    from types import SimpleNamespace

    best, nxt = SimpleNamespace(throughput=1000.0), SimpleNamespace(throughput=960.0)
    res = SimpleNamespace(best=best, candidates=[best, nxt])
    figs = {id(best): E.Banded("build-throughput", 1000.0, "images/s", 0.09, "held-out"),
            id(nxt): E.Banded("build-throughput", 960.0, "images/s", 0.09, "held-out")}
    monkeypatch.setattr(bands, "throughput", lambda c: figs.get(id(c)))
    monkeypatch.setattr(bands, "how", lambda c: "held out")
    assert str(bands.best_line(res)).endswith("The next best's throughput is within the estimates' band of it: "
                                              "the two are not told apart.")
    figs[id(nxt)] = E.Banded("build-throughput", 800.0, "images/s", 0.09, "held-out")
    assert "not told apart" not in str(bands.best_line(res))


def test_a_power_limited_answer_carries_the_power_limit_curves_band(index, answer):
    import math

    from rigbuilder.models import perf
    from rigbuilder.rules.optimise.scoring import AdviserScorer

    scorer = AdviserScorer("cnn-training")
    res = optimise(Request(budget=4000.0, currency="EUR", gpus_now=2, top=1, power_limit=0.8), index, scorer)
    bands.attach(res, index, scorer)
    c = res.best
    assert c is not None and all(f.power_fraction < 1.0 for f in c.estimate.cards)
    fig = bands.throughput(c)
    assert fig.band == pytest.approx(math.hypot(c.estimate.typical_error, perf.band("training")))
    assert fig.band > c.estimate.typical_error and fig.how == "held-out"
    d = bands.estimates(c)
    assert d["throughput"]["band"] == round(fig.band, 4) and d["power_limit"]["band"] == round(perf.band("training"), 4)
    assert d["power_limit"]["value"] == pytest.approx(perf.throughput(min(f.power_fraction for f in c.estimate.cards)), abs=1e-4)
