"""The rules the seed-build tests do not reach, each on real catalog parts (a part is changed with
dataclasses.replace only where no catalog combination triggers the rule)."""
from __future__ import annotations

import dataclasses

from rigbuilder.domain.build import MOUNT_RISER, GpuPlacement, PartCount, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Severity
from rigbuilder.rules.engine import run_checks
from tests.builds import RTX3090_FE, frank_2070, x99_4x3090


def found(findings, code, severity=None):
    return [f for f in findings if f.code == code and (severity is None or f.severity is severity)]


def test_lanes_generation_gen4_card_in_a_gen3_board(index):
    fs = run_checks(x99_4x3090(280, RTX3090_FE), index)
    gen = found(fs, "lanes.generation", Severity.INFO)
    assert [f.gpus for f in gen] == [(1,), (2,), (3,), (4,)]
    assert "PCIe 4.0 card" in gen[0].message and "Gen3" in gen[0].message
    assert not found(run_checks(frank_2070(1), index), "lanes.generation")  # a Gen3 2070 on Gen3


def test_lanes_budget_two_gpus_nvme_and_a_nic_on_a_20_lane_ryzen(index):
    """Boards with PCIe switches (the X99 WS-E) are exempt; a consumer X570 board is not."""
    from rigbuilder.domain.build import Build
    b = Build(motherboard="mb-msi-meg-x570-unify", cpu="cpu-amd-ryzen-9-5950x",
              memory=[PartCount("mem-corsair-vengeance-lpx-2x16gb-ddr4-3200", 1)],
              gpus=[GpuPlacement(RTX3090_FE, 2), GpuPlacement(RTX3090_FE, 4)],
              storage=[StorageItem("sto-samsung-970-evo-500gb", 2)],
              nics=["nic-mellanox-connectx-3-mcx314a-bcct"])
    budget = found(run_checks(b, index), "lanes.budget", Severity.WARNING)
    assert budget and "20" in budget[0].message
    b.nics, b.storage = [], []  # 2 x 8 lanes fit in 20
    assert not found(run_checks(b, index), "lanes.budget")
    w = x99_4x3090(280)
    w.cpu = "cpu-intel-core-i7-5820k"  # 28 lanes, but the WS-E's slots hang off PLX switches
    assert not found(run_checks(w, index), "lanes.budget")


def test_lanes_budget_counts_both_cpus_of_a_dual_socket_board(index):
    """Four x16 cards on the X10DRG-Q take 64 lanes: one 40-lane Xeon E5 could not give them, the
    board's two can (80); the CPU power counts twice too."""
    from rigbuilder.domain.build import Build
    from rigbuilder.models.power import components
    b = Build(motherboard="mb-supermicro-x10drg-q", cpu="cpu-intel-xeon-e5-2680-v4",
              gpus=[GpuPlacement(RTX3090_FE, p) for p in (4, 6, 8, 10)])
    fs = run_checks(b, index)
    assert not found(fs, "lanes.budget", Severity.ERROR)
    board, cpu = index.get(b.motherboard), index.get(b.cpu)
    single = dataclasses.replace(board, cpu_sockets=1)
    idx1 = PartIndex([p for p in index if p.id != board.id] + [single])
    err = found(run_checks(b, idx1), "lanes.budget", Severity.ERROR)
    assert err and "40" in err[0].message
    two = components(gpus=[], cpu=cpu, board=board, memory=[], storage=[], cooler=None, nics=[])
    one = components(gpus=[], cpu=cpu, board=single, memory=[], storage=[], cooler=None, nics=[])
    watts = {c.kind: c.watts["training"] for c in two}, {c.kind: c.watts["training"] for c in one}
    assert watts[0]["cpu"] == 2 * watts[1]["cpu"]


def test_riser_not_plugged_in_and_riser_mounts(index):
    b = x99_4x3090(280)
    b.gpus[3] = GpuPlacement(b.gpus[3].part_id, None, MOUNT_RISER, 280)
    b.case = "case-corsair-750d-airflow"  # no vertical mount positions
    fs = run_checks(b, index)
    assert [f.gpus for f in found(fs, "lanes.unconnected", Severity.WARNING)] == [(4,)]
    assert found(fs, "case.riser", Severity.INFO)
    b.gpus[3].position = 2  # the riser cable in a free slot
    assert not found(run_checks(b, index), "lanes.unconnected")


def test_psu_longer_than_the_case_takes(index):
    b = x99_4x3090(280)
    b.case = "case-nzxt-h9-flow"  # PSUs up to 200 mm
    b.psus = ["psu-corsair-ax1600i"]
    fs = run_checks(b, index)
    psu = found(fs, "case.psu-length", Severity.ERROR)
    assert psu and "200 mm" in psu[0].message
    b.psus = ["psu-evga-supernova-1600-t2"]
    assert not found(run_checks(b, index), "case.psu-length")


def test_cpu_cooler_taller_than_the_case_takes(index):
    b = frank_2070(1)
    b.case = "case-nzxt-h9-flow"  # coolers up to 165 mm
    cooler = index.get(b.cooler)
    taller = dataclasses.replace(cooler, id="cool-test-tall", height_mm=175.0)
    idx = PartIndex(list(index) + [taller])
    assert not found(run_checks(b, idx), "case.cooler-height")
    b.cooler = "cool-test-tall"
    f = found(run_checks(b, idx), "case.cooler-height", Severity.ERROR)
    assert f and "175 mm" in f[0].message and "165 mm" in f[0].message


def test_more_memory_than_the_board_supports(index):
    b = frank_2070(1)  # X399 AORUS PRO: 8 DIMMs, 128 GB
    b.memory = [PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 3)]  # 12 modules, 192 GB
    fs = run_checks(b, index)
    assert found(fs, "compat.memory-max", Severity.ERROR)
    assert found(fs, "compat.memory-slots")
    b.memory = [PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)]  # 8 modules, 128 GB
    assert not found(run_checks(b, index), "compat.memory-max")


def test_gpus_without_a_psu(index):
    b = frank_2070(2, positions=(1, 5))
    b.psus = []
    f = found(run_checks(b, index), "psu.missing", Severity.INFO)
    assert f and "W" in f[0].message


def test_psu_transients_old_psu_with_spiky_cards(index):
    fs = run_checks(x99_4x3090(None, RTX3090_FE), index)  # EVGA 1600 T2 is not ATX 3.x
    t = found(fs, "psu.transients")
    assert t and t[0].gpus == (1, 2, 3, 4)
    b = x99_4x3090(None, RTX3090_FE)
    b.psus = ["psu-seasonic-prime-tx-1600-atx30"]  # ATX 3.0: tested for such load steps
    assert not found(run_checks(b, index), "psu.transients")


def test_slot_blocked_fix_fits_the_card(index):
    """A blower card is not told to become a blower; a wide open-air card is."""
    from rigbuilder.rules.engine import run_checks
    from tests.builds import RTX3090_BLOWER
    blower = [f for f in run_checks(x99_4x3090(gpu=RTX3090_BLOWER), index) if f.code == "slot.blocked"]
    assert blower and all("blower" not in f.fix.lower() for f in blower)
    wide = [f for f in run_checks(x99_4x3090(gpu=RTX3090_FE), index) if f.code == "slot.blocked"]
    assert index.get(RTX3090_FE).slot_width > 2
    assert wide and all("2-slot blower" in f.fix for f in wide)


def test_no_case_is_said_and_a_card_past_the_board_edge_is_named(index):
    """Issue 13 item 15: like psu.missing for a PSU, a missing case is a finding; a dual-slot card
    in the X99 WS-E's last position hangs past the board even before a case is chosen."""
    b = x99_4x3090(280, RTX3090_FE)
    b.case = None
    fs = run_checks(b, index)
    assert found(fs, "case.missing", Severity.INFO)
    past = found(fs, "case.past-board", Severity.WARNING)
    assert [f.gpus for f in past] == [(4,)] and "reaches position 9" in past[0].message  # 3-slot FE in position 7
    b.case = "case-phanteks-enthoo-719"
    fs = run_checks(b, index)
    assert not found(fs, "case.missing") and not found(fs, "case.past-board")


def test_ceb_board_fits_a_case_listing_ssi_ceb(index):
    """ASUS writes 'CEB' where cases list 'SSI-CEB': the same size, not a case.form-factor error."""
    b = x99_4x3090(280)
    b.motherboard = "mb-asus-ws-x299-sage"  # CEB
    b.case = "case-fractal-define-7-xl"  # lists SSI-CEB
    assert not found(run_checks(b, index), "case.form-factor")
    b.case = "case-nzxt-h9-flow"  # ATX, Micro-ATX, Mini-ITX, E-ATX: no SSI-CEB
    assert found(run_checks(b, index), "case.form-factor", Severity.ERROR)
