"""riser.* (issue 29): the riser part's generation, lanes and length judged; open frames' positions;
the throughput model uses the riser's real link. Fixture risers and frame (tests/risers.py)."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import render
from rigbuilder.models.scaling import build_links
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from tests.builds import x99_4x3090
from tests.risers import frame, riser, riser_index

ROMED8 = "mb-asrockrack-romed8-2t"  # seven PCIe 4.0 x16 slots on CPU lanes
EPYC = "cpu-amd-epyc-7302p"
RTX3090 = "gpu-nvidia-rtx-3090-fe"  # PCIe 4.0 x16, 3 slots


@pytest.fixture(scope="module")
def rindex(index):
    return riser_index(index, frame(id="case-test-frame-unstated", riser_min_length_mm=None, vertical_gpu_slots=2),
                       riser(id="riser-test-g4-x8-300", model="Gen4 x8 riser", lanes=8, length_mm=300))


def gen4_build(*risers, case="case-test-frame") -> Build:
    return Build(motherboard=ROMED8, cpu=EPYC, case=case,
                 gpus=[GpuPlacement(RTX3090, 1 + 2 * i, "riser", riser=r) for i, r in enumerate(risers)])


def codes(fs, code):
    return [f for f in fs if f.code == code]


def test_a_gen3_riser_on_a_gen4_slot_and_card_drops_the_link_and_says_what_it_costs(rindex):
    b = gen4_build("riser-test-g3-300", "riser-test-g4-300")
    fs = run_checks(b, rindex)
    (gen,) = codes(fs, "riser.generation")
    assert gen.code == "riser.generation" and gen.severity is Severity.WARNING and gen.gpus == (1,)
    assert "PCIe 3.0" in gen.message and "Gen4" in gen.message and "15.8 GB/s instead of 31.5 GB/s" in gen.message
    assert "ms" in gen.message and dict(gen.figures)["riser_gen"] == 3
    ctx = Context(b, rindex)
    assert (ctx.link(ctx.gpus[0]).gen, ctx.link(ctx.gpus[1]).gen) == (3, 4)
    assert not codes(fs, "lanes.generation")  # the slot's side runs Gen4: the riser is what costs
    assert render(gen.message, "de") != gen.message


def test_the_throughput_model_uses_the_risers_real_link_not_the_assumption(rindex):
    links = {num: ln for num, _g, ln, _l in build_links(gen4_build("riser-test-g3-300", "riser-test-g4-300", None),
                                                          rindex)}
    assert (links[1].gen, links[1].riser_known, links[1].gbps) == (3, True, pytest.approx(16 * 0.985))
    assert (links[2].gen, links[2].gbps) == (4, pytest.approx(16 * 1.969))
    assert links[3].riser and not links[3].riser_known and links[3].gbps == pytest.approx(16 * 0.985)  # gen-1
    assert "assumption" in links[3].describe() and "assumption" not in links[2].describe()


def test_a_riser_of_unknown_kind_keeps_the_assumption_and_says_so(rindex):
    (f,) = codes(run_checks(gen4_build(None), rindex), "riser.unknown")
    assert f.code == "riser.unknown" and f.severity is Severity.INFO and "one PCIe generation lower" in f.message


def test_narrow_risers_cost_lanes_and_an_x1_riser_for_training_is_a_warning(rindex):
    fs = run_checks(gen4_build("riser-test-usb-600", "riser-test-g4-x8-300"), rindex)
    usb, x8 = sorted(codes(fs, "riser.lanes"), key=lambda f: f.gpus)
    assert usb.code == "riser.lanes" and usb.severity is Severity.WARNING and "x1" in usb.message
    assert "mining" in usb.message
    assert x8.severity is Severity.INFO and "x8" in x8.message
    assert not [f for f in codes(fs, "lanes.width") if f.gpus == (1,)]  # the slot gives x16: not a lanes.width error


def test_a_riser_shorter_than_the_frames_minimum_is_an_error_and_an_unstated_minimum_says_measure(rindex):
    fs = run_checks(gen4_build("riser-test-g4-200", "riser-test-g4-300"), rindex)
    (short,) = codes(fs, "riser.length")
    assert short.code == "riser.length" and short.severity is Severity.ERROR and short.gpus == (1,)
    assert "300 mm" in short.message
    (measure,) = codes(run_checks(gen4_build("riser-test-g4-300", case="case-test-frame-unstated"), rindex),
                       "riser.length")
    assert measure.severity is Severity.INFO and "measure" in measure.message


def test_an_open_frame_holds_one_card_per_position_and_no_slot_covering_for_riser_cards(rindex):
    three = gen4_build("riser-test-g4-300", "riser-test-g4-300", "riser-test-g4-300", case="case-test-frame-unstated")
    (f,) = codes(run_checks(three, rindex), "case.riser")
    assert f.severity is Severity.ERROR and f.gpus == (1, 2, 3)
    b = x99_4x3090()
    b.case = "case-corsair-750d-airflow"  # an ordinary case without vertical mounts: a bracket may hold it
    b.gpus[3].mount = "riser"
    (f,) = codes(run_checks(b, rindex), "case.riser")
    assert f.severity is Severity.INFO
    four = gen4_build(*["riser-test-g4-300"] * 4)  # 3-slot cards on risers from positions 1, 3, 5, 7
    fs = run_checks(four, rindex)
    assert not [f for f in fs if f.code.startswith(("slot.", "case.")) or f.code == "thermal.open-air-gap"]


def test_an_x16_riser_plug_in_a_closed_x1_slot_is_an_error(rindex):
    b = Build(motherboard="mb-gigabyte-x399-aorus-pro", cpu="cpu-amd-threadripper-1900x",
              gpus=[GpuPlacement(RTX3090, 2, "riser", riser="riser-test-g4-300"),
                    GpuPlacement(RTX3090, 3, "riser", riser="riser-test-usb-600")])  # position 2: closed x1
    (f,) = codes(run_checks(b, rindex), "riser.slot")
    assert f.code == "riser.slot" and f.severity is Severity.ERROR and f.gpus == (1,) and "x16 plug" in f.message


def test_the_throughput_memo_tells_risers_apart(rindex):
    """One memo for many builds (the optimiser's scorer): the same cards in the same slots on a Gen3 and
    on a Gen4 riser are two figures, as without the memo."""
    from rigbuilder.models.scaling import build_value
    from rigbuilder.models.workloads import workload

    wl, memo = workload("bert-training"), {}
    # two cards: with four GeForce cards the host memory all of them share binds, whatever the risers
    g3, g4 = gen4_build(*["riser-test-g3-300"] * 2), gen4_build(*["riser-test-g4-300"] * 2)
    for b in (g3, g4):
        b.cpu = EPYC
    fresh = (build_value(g3, rindex, wl), build_value(g4, rindex, wl))
    assert fresh[0] < fresh[1]
    assert (build_value(g3, rindex, wl, memo), build_value(g4, rindex, wl, memo)) == fresh


def test_a_riser_reaches_a_frame_only_as_far_as_a_source_or_the_user_says():
    """Issue 37 ("100 mm risers into a frame"): the frame's stated length wins; without one, the user's
    measure; with neither, no riser is known to reach (the optimiser then searches no riser for it)."""
    from rigbuilder.rules.risers import reaches

    stated = frame(riser_min_length_mm=300)
    assert reaches(stated, riser(length_mm=300)) and not reaches(stated, riser(length_mm=200))
    assert not reaches(stated, riser(length_mm=200), measured_mm=100)  # the source's length, not a shorter guess
    unstated = frame(riser_min_length_mm=None)
    assert not reaches(unstated, riser(length_mm=600))
    assert reaches(unstated, riser(length_mm=300), measured_mm=250)
    assert not reaches(unstated, riser(length_mm=200), measured_mm=250)


def test_the_shipped_frames_state_a_riser_length_only_with_its_source(index):
    """No frame geometry is invented: a stated riser length is marked unverified where it is a builder's
    figure, and its notes say where it comes from."""
    frames = [c for c in index.of_kind("case") if c.open_frame]
    assert frames
    for c in frames:
        if c.riser_min_length_mm is not None:
            assert "riser_min_length_mm" in c.unverified, c.id
            assert "mm" in (c.notes or ""), c.id
