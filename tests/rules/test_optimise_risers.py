"""Issue 29: risers and open frames as a search variable. Four triple-slot RTX 3090s fit no board's
slots; with a (fixture) open frame and risers the answer stands them on risers, every check passes
and the risers are in the bill. Fixture risers and frame: tests/risers.py."""
from __future__ import annotations

import dataclasses

import pytest

from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import render
from rigbuilder.models.cost import purchase
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.optimise import Request, optimise
from rigbuilder.rules.optimise.frames import OnRiser, covered_gens, holds, riser_options, same_link_front
from rigbuilder.rules.optimise.scoring import AdviserScorer
from tests.risers import frame, riser, riser_index

RTX3090 = "gpu-nvidia-rtx-3090-fe"  # 3 slots: four need 12 expansion positions


@pytest.fixture(scope="module")
def rindex(index):
    return riser_index(index)


@pytest.fixture(scope="module")
def answer(rindex):
    # the fixture frame insisted on: the shipped frames (other prices, no stated riser length) would win
    # prices "both": the RTX 3090 FE's 2020 launch price is no new price now; its used price costs it
    req = Request(currency="EUR", condition="both", gpus_now=2, grow_to=4,
                  insist=(("gpu", RTX3090), ("case", "case-test-frame")), min_storage_gb=0, risers=True,
                  power_limit=0.7)
    return req, optimise(req, rindex, AdviserScorer("cnn-training"))


def test_four_triple_slot_3090s_fit_no_slots_but_stand_on_risers_in_an_open_frame(rindex, answer):
    req, res = answer
    best = res.best
    assert best is not None, res.infeasible
    assert best.grown.case == "case-test-frame"
    assert [g.mount for g in best.grown.gpus] == ["riser"] * 4 and len(set(g.position for g in best.grown.gpus)) == 4
    riser_id = best.grown.gpus[0].riser
    assert riser_id and all(g.riser == riser_id for g in best.grown.gpus + best.today.gpus)
    assert rindex.get(riser_id).length_mm >= 300  # the frame asks for 300 mm: the 200 mm riser is never used
    for b, fs in ((best.today, best.findings_today), (best.grown, best.findings_grown)):
        assert not [f for f in run_checks(b, rindex) if f.severity is Severity.ERROR]
        assert not [f for f in fs if f.severity is Severity.ERROR]
    # the risers are in the bill: the purchase of each stage prices every part, riser included
    buy_today, buy_grown = purchase(best.today, rindex, "EUR"), purchase(best.grown, rindex, "EUR")
    line = next(p for p in buy_grown.parts if p.part_id == riser_id)
    assert line.quantity == 4 and line.price == pytest.approx(rindex.get(riser_id).price)
    assert not buy_grown.missing and buy_today.total == pytest.approx(best.cost_now)
    assert buy_grown.total == pytest.approx(best.cost_now + best.cost_growth)
    assert (riser_id, 4) == next((pid, units) for pid, units, _e, _w in best.prices if pid == riser_id)
    assert "on risers" in render(best.label, "en")
    assert any("Risers: the cards stand off the board on 4 x" in str(line) for line in res.explanation)
    off = optimise(dataclasses.replace(req, risers=False), rindex, AdviserScorer("cnn-training"))
    assert off.best is None and "slot spacing" in off.infeasible


def test_riser_options_are_the_pareto_front_and_frames_hold_what_they_state():
    cheap3, g4, long4, dear = (riser(id="riser-a", pcie_gen=3, price=20.0), riser(id="riser-b", price=40.0),
                               riser(id="riser-c", length_mm=600, price=40.0), riser(id="riser-d", price=90.0))
    opts = riser_options([cheap3, g4, long4, dear], lambda r: r.price)
    assert [r.id for r, _p in opts] == ["riser-a", "riser-c"]  # b: c is as cheap and longer; d: dearer, no better
    assert riser_options([riser(id="riser-x", price=None, currency=None)], lambda r: r.price) == []
    f = frame()
    assert holds(f, riser(length_mm=300), 8) and not holds(f, riser(length_mm=200), 4)
    assert not holds(f, riser(length_mm=600), 9)
    # none stated: no riser is known to reach its positions until the user measures (issue 37: "100 mm risers
    # into a frame"); with the measure, the risers at least that long
    assert not holds(frame(riser_min_length_mm=None), riser(length_mm=150), 2)
    assert holds(frame(riser_min_length_mm=None), riser(length_mm=300), 2, measured_mm=280)
    assert not holds(frame(riser_min_length_mm=None), riser(length_mm=150), 2, measured_mm=280)
    # an ordinary case's "3 vertical slots" are brackets for one card: not searched
    assert not holds(frame(type="Full tower", vertical_gpu_slots=3, riser_min_length_mm=None), riser(), 1)


def test_a_dearer_riser_with_the_same_link_reaching_no_other_frame_is_not_searched():
    # issue 37 (risers within 2 s): a longer riser survives the Pareto front, but where it reaches only the
    # frames a cheaper riser of the same generation and lanes reaches, each of its builds has a cheaper twin
    g4_300, g4_600, g3_600, g4_900 = (riser(id="riser-a", length_mm=300, price=30.0),
                                      riser(id="riser-b", length_mm=600, price=50.0),
                                      riser(id="riser-c", pcie_gen=3, length_mm=600, price=55.0),
                                      riser(id="riser-d", length_mm=900, price=80.0))
    opts = [(r, r.price) for r in (g4_300, g4_600, g3_600, g4_900)]
    req = Request(currency="EUR", gpus_now=4, risers=True)
    short = frame(id="case-frame-300")
    kept, dropped = same_link_front(opts, [short], req)
    assert [r.id for r, _p in kept] == ["riser-a", "riser-c"] and dropped == 2  # c: another link, searched
    tall = frame(id="case-frame-600", riser_min_length_mm=600)
    kept, dropped = same_link_front(opts, [short, tall], req)
    assert [r.id for r, _p in kept] == ["riser-a", "riser-b", "riser-c"] and dropped == 1  # b reaches one more
    # no dearer: an option as cheap as an earlier one with the same frames is dropped; a cheaper one never
    twin = riser(id="riser-e", length_mm=300, price=30.0)
    kept, _ = same_link_front([(g4_300, 30.0), (twin, 30.0)], [short], req)
    assert [r.id for r, _p in kept] == ["riser-a"]
    kept, _ = same_link_front([(g4_300, 30.0), (g4_600, 20.0)], [short], req)
    assert [r.id for r, _p in kept] == ["riser-a", "riser-b"]


def test_a_dearer_faster_riser_is_not_searched_for_cards_the_cheaper_one_runs_at_their_own_generation(rindex):
    # a Gen5 riser gives a Gen4 card the link a Gen4 riser gives it: only cards of Gen5 are searched on it
    g4, g5, g5_narrow, g3_long = (riser(id="riser-a", length_mm=300, price=30.0),
                                  riser(id="riser-b", pcie_gen=5, length_mm=300, price=40.0),
                                  riser(id="riser-c", pcie_gen=5, lanes=8, length_mm=300, price=45.0),
                                  riser(id="riser-d", pcie_gen=3, length_mm=600, price=50.0))
    req = Request(currency="EUR", gpus_now=4, risers=True)
    opts = [(r, r.price) for r in (g4, g5, g5_narrow, g3_long)]
    assert covered_gens(opts, [frame()], req) == [0, 4, 0, 3]  # c: other lanes; d: Gen3 cards as on riser-a
    assert covered_gens(opts, [frame(), frame(id="case-frame-600", riser_min_length_mm=600)], req) == [0, 4, 0, 0]
    assert covered_gens([(g5, 40.0), (g4, 30.0)], [frame()], req) == [0, 0]  # the earlier one dearer: searched
    card = rindex.get(RTX3090)
    assert card.pcie_gen == 4 and OnRiser(g5, 40.0, 4).covers(card) and not OnRiser(g5, 40.0, 3).covers(card)


def test_a_riser_length_asked_for_leaves_the_shorter_risers_out(rindex, answer):
    """No shipped frame states the riser length it needs: the user measures and asks for it. The fixture
    frame asks 300 mm and the answer's riser is 300 mm long; asked for 600 mm, only the 600 mm riser
    (or none) may be used."""
    req, res = answer
    long = optimise(dataclasses.replace(req, riser_length_mm=600.0), rindex, AdviserScorer("cnn-training"))
    assert long.best is not None, long.infeasible
    assert all(rindex.get(g.riser).length_mm >= 600 for g in long.best.grown.gpus)
    assert res.best.key <= long.best.key  # a shorter choice left out can only make the answer worse or equal
    assert dataclasses.replace(req, riser_length_mm=-1.0).problems()
