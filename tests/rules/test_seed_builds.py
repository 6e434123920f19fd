"""Every rule on real catalog parts, starting from the seeds' builds."""
from __future__ import annotations

import copy
import dataclasses

import pytest

from rigbuilder.domain.build import MOUNT_RISER, GpuPlacement, PartCount, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Severity
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import RULE_CODES, has_errors, run_checks
from rigbuilder.rules.power import advise_power_limit
from tests.builds import RTX3090_BLOWER, RTX3090_FE, ZOTAC_2070, frank_2070, x99_4x3090


def codes(findings, severity=None):
    return [f.code for f in findings if severity is None or f.severity is severity]


def test_every_finding_code_is_documented(index):
    for b in (frank_2070(4), x99_4x3090(None, RTX3090_FE)):
        for f in run_checks(b, index):
            assert f.code in RULE_CODES
            assert f.message and f.fix and f.limits


def test_frank_single_2070_has_no_errors_or_warnings(index):
    fs = run_checks(frank_2070(1), index)
    assert not [f for f in fs if f.severity is not Severity.INFO], fs


def test_frank_four_2070s_starve_the_upper_three(index):
    fs = run_checks(frank_2070(4), index)
    gaps = [f for f in fs if f.code == "thermal.open-air-gap"]
    assert [f.gpus[0] for f in gaps] == [1, 2, 3]
    assert all(f.severity is Severity.ERROR for f in gaps)
    assert "0 mm in front of the fans of GPU 1" in gaps[0].message
    # X399 AORUS PRO runs x16/x8/x16/x8 (seed 000): no lane finding below x8
    assert "lanes.width" not in codes(fs)
    # 4 x 185 W + TR 1900X on 1000 W: under 10% headroom
    assert "psu.capacity" in codes(fs, Severity.WARNING)


def test_frank_blower_cards_clear_the_gap_rule(index):
    b = frank_2070(4)
    b.gpus = [GpuPlacement("gpu-asus-rtx-2070-turbo", p) for p in (1, 3, 5, 7)]
    fs = run_checks(b, index)
    assert "thermal.open-air-gap" not in codes(fs)
    assert "thermal.stack" in codes(fs, Severity.INFO)


def test_gap_warning_between_zero_and_one_slot(index):
    b = frank_2070(2, positions=(1, 5))
    gpu = index.get(ZOTAC_2070)
    wide = dataclasses.replace(gpu, id="gpu-test-wide", slot_width=3.5)
    idx = PartIndex(list(index) + [wide])
    b.gpus[0] = GpuPlacement("gpu-test-wide", 1)
    fs = run_checks(b, idx)
    gap = [f for f in fs if f.code == "thermal.open-air-gap"]
    assert len(gap) == 1 and gap[0].severity is Severity.WARNING
    assert dict(gap[0].figures)["gap_mm"] == pytest.approx(0.5 * 20.32, abs=0.01)


def test_seed_001_power_limited_fits_psu_but_not_a_us_15a_circuit(index):
    fs = run_checks(x99_4x3090(280, region="US-15A"), index)
    assert "psu.capacity" not in codes(fs)
    circuit = [f for f in fs if f.code == "power.circuit"]
    assert circuit and circuit[0].severity is Severity.ERROR
    assert "1440 W" in circuit[0].message
    # On an EU circuit the same build is fine
    eu = run_checks(x99_4x3090(280, region="EU-16A"), index)
    assert "power.circuit" not in codes(eu) and not has_errors(eu)


def test_seed_001_gpus_draw_1120_w_at_a_20_percent_limit(index):
    ctx = Context(x99_4x3090(280), index)
    assert ctx.power.share("gpu", "training") == pytest.approx(1120)


def test_seed_001_without_limit_and_fe_cards_collides_and_overloads(index):
    fs = run_checks(x99_4x3090(None, RTX3090_FE), index)
    c = codes(fs, Severity.ERROR)
    assert c.count("slot.overlap") == 3
    assert "case.expansion-slots" in c and "psu.capacity" in c
    # colliding cards are not also reported as a 0 mm airflow gap
    assert "thermal.open-air-gap" not in c


def test_power_limit_adviser_clears_capacity_and_circuit(index):
    b = x99_4x3090(None, RTX3090_BLOWER, region="US-15A")
    adv = advise_power_limit(Context(b, index))
    assert adv.feasible and adv.fraction < 1
    assert adv.commands()[:2] == ["sudo nvidia-smi -pm 1", f"sudo nvidia-smi -i 0 -pl {adv.limits_w[0][1]}"]
    for g in b.gpus:
        g.power_limit_w = adv.limits_w[0][1]
    fs = run_checks(b, index)
    assert "psu.capacity" not in codes(fs) and "power.circuit" not in codes(fs, Severity.ERROR)
    assert 0.9 < adv.throughput < 1.0


def test_closed_x1_slot_does_not_take_an_x16_card(index):
    b = frank_2070(1, positions=(2,))
    fs = run_checks(b, index)
    assert "slot.physical" in codes(fs, Severity.ERROR)
    assert "lanes.width" in codes(fs, Severity.ERROR)  # x1


def test_position_without_slot(index):
    b = frank_2070(1, positions=(4,))
    assert "slot.none" in codes(run_checks(b, index), Severity.ERROR)


def test_lane_rules_narrow_shared_slots(index):
    b = x99_4x3090(280)
    b.gpus = [GpuPlacement(RTX3090_BLOWER, p) for p in (2, 3)]
    ctx = Context(b, index)
    assert ctx.widths["PCIE3"] == 8  # PCIE2 populated halves PCIE3 (board's lane rule)


def test_consumer_board_second_slot_x4_warns(index):
    b = frank_2070(1)
    b.motherboard = "mb-asus-rog-strix-x870e-e-gaming-wifi"
    board = index.get(b.motherboard)
    x4 = next(s for s in board.slots if s.lanes == 4 and s.physical == 16)
    b.gpus = [GpuPlacement(ZOTAC_2070, x4.position)]
    fs = run_checks(b, index, codes=["lanes.width"])
    assert fs and fs[0].severity is Severity.WARNING and "x4" in fs[0].message


def test_case_length_and_form_factor(index):
    b = frank_2070(1)
    b.case = "case-fractal-north"
    case = index.get("case-fractal-north")
    long_card = dataclasses.replace(index.get(ZOTAC_2070), id="gpu-test-long", length_mm=case.max_gpu_length_mm + 1)
    idx = PartIndex(list(index) + [long_card])
    b.gpus = [GpuPlacement("gpu-test-long", 1)]
    fs = run_checks(b, idx)
    assert "case.gpu-length" in codes(fs, Severity.ERROR)
    b2 = x99_4x3090()
    b2.case = "case-fractal-north"
    assert "case.form-factor" in codes(run_checks(b2, index)) or "E-ATX" in index.get("case-fractal-north").form_factors


def test_socket_memory_and_slots(index):
    b = frank_2070(1)
    b.cpu = "cpu-intel-xeon-e5-2697-v4"
    b.memory = [PartCount("mem-corsair-vengeance-2x32gb-ddr5-6000", 5)]
    fs = run_checks(b, index)
    c = codes(fs, Severity.ERROR)
    assert "compat.socket" in c and "compat.memory-type" in c and "compat.memory-slots" in c


def test_cores_per_gpu_and_memory_vs_vram(index):
    b = frank_2070(4)
    fs = run_checks(b, index)
    assert "memory.vs-vram" in codes(fs, Severity.WARNING)
    assert "cpu.cores-per-gpu" not in codes(fs)  # 8 cores / 16 threads: exactly 2/4 per GPU
    cpu = index.get(b.cpu)
    for cores, threads, sev in ((6, 12, Severity.INFO), (3, 6, Severity.WARNING)):
        small = dataclasses.replace(cpu, id="cpu-test-small", cores=cores, threads=threads)
        b.cpu = small.id
        fs = run_checks(b, PartIndex(list(index) + [small]), codes=["cpu"])
        assert [f.severity for f in fs] == [sev]


def test_connectors_each_socket_its_own_cable(index):
    b = x99_4x3090(None)
    b.psus = ["psu-corsair-cx750m-2021"]
    fs = run_checks(b, index)
    assert "psu.connectors" in codes(fs, Severity.ERROR)
    assert "psu.capacity" in codes(fs, Severity.ERROR)


def test_passive_card_in_desktop_case(index):
    b = frank_2070(1)
    b.gpus = [GpuPlacement("gpu-nvidia-a100-pcie-40gb", 1)]
    assert "thermal.passive" in codes(run_checks(b, index), Severity.ERROR)


def test_missing_part_is_reported_and_nothing_else_lost(index):
    b = frank_2070(2)
    b.gpus.append(GpuPlacement("gpu-no-such-card", 5))
    fs = run_checks(b, index)
    assert "catalog.missing" in codes(fs, Severity.ERROR)
    assert len(Context(b, index).gpus) == 2


def test_riser_card_does_not_collide(index):
    b = x99_4x3090(280, RTX3090_FE, region="EU-16A")
    b.gpus = [GpuPlacement(RTX3090_FE, 1, power_limit_w=280), GpuPlacement(RTX3090_FE, 5, power_limit_w=280),
              GpuPlacement(RTX3090_FE, 4, MOUNT_RISER, 280)]
    fs = run_checks(b, index)
    assert "slot.overlap" not in codes(fs) and "slot.double" not in codes(fs)
    b.gpus[2].position = 5  # riser cable into the slot that holds GPU 2
    assert "slot.double" in codes(run_checks(b, index), Severity.ERROR)


def test_nvme_without_socket(index):
    b = frank_2070(1)
    b.storage = [StorageItem("sto-samsung-970-evo-500gb", 5)]
    assert "lanes.m2" in codes(run_checks(b, index))


def test_filter_by_code_prefix(index):
    fs = run_checks(frank_2070(4), index, codes=["thermal"])
    assert fs and all(f.code.startswith("thermal.") for f in fs)


def test_checks_do_not_mutate_the_build(index):
    b = x99_4x3090(None, RTX3090_FE)
    before = copy.deepcopy(b)
    run_checks(b, index)
    assert b == before


def test_registered_memory_only_where_the_cpu_takes_it(index):
    rdimm = "mem-pcpp-samsung-m393a4k40cb2-ctd-32-gb-1-x-32-gb-ddr4-2666-cl19-d20fbc79"  # Samsung M393: RDIMM
    assert index.get(rdimm).registered and index.get(rdimm).ecc
    b = frank_2070(1)  # Threadripper 1900X: unbuffered modules only
    b.memory = [PartCount(rdimm, 1)]
    fs = run_checks(b, index, codes=["compat.memory-registered"])
    assert [f.severity for f in fs] == [Severity.ERROR] and "RDIMM" in fs[0].message
    x = x99_4x3090(280)  # a Xeon E5 v4 takes registered and unbuffered modules
    x.memory = [PartCount(rdimm, 4)]
    assert not run_checks(x, index, codes=["compat.memory-registered"])
    assert not run_checks(x99_4x3090(280), index, codes=["compat.memory-registered"])
    w = frank_2070(1)  # a Xeon w5-2455X takes DDR5 RDIMM only: an unbuffered kit of unstated kind is a warning
    w.cpu = "cpu-intel-xeon-w5-2455x"
    w.memory = [PartCount("mem-pcpp-acer-predator-vesta-ii-rgb-32-gb-2-x-16-gb-ddr5-6000-cl30-684383cb", 1)]
    fs = run_checks(w, index, codes=["compat.memory-registered"])
    assert [f.severity for f in fs] == [Severity.WARNING]


def test_an_eps_input_takes_two_pcie_cables_and_a_warning_about_plugs(index):
    """issue 40: a Tesla P40's 8-pin EPS (CPU) input is fed through an adapter from two PCIe 8-pin
    cables, and the check says never to plug a PCIe 8-pin into it."""
    from rigbuilder.rules.power import EPS_PCIE_CABLES, cables

    p40 = index.get("gpu-nvidia-tesla-p40")
    assert p40.power_connectors == ("8-pin EPS",) and p40.cooler == "passive"
    cab = cables([p40, p40], [index.get("psu-corsair-cx750m-2021")])
    assert cab.eps == 2 and cab.need_8 == 2 * EPS_PCIE_CABLES
    b = frank_2070(1)
    b.gpus = [GpuPlacement("gpu-nvidia-tesla-p40", 1)]
    fs = [f for f in run_checks(b, index) if f.code == "psu.connectors" and f.severity == Severity.INFO]
    assert any("EPS" in str(f.message) and "never" in str(f.message) for f in fs)
