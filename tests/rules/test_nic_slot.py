"""Issue 37 (answers2): the slot the optimiser leaves for a cluster's network card (``free_slots``) is one
wired to the CPU (or the GPUs' PCIe switch) that gives an x8 card its lanes where the board has one left;
where only a chipset slot is left the answer says so (``placement.nic_slots``, ``explain.nic_lines``)."""
from __future__ import annotations

from rigbuilder.domain.i18n import render
from rigbuilder.rules.optimise import Request, optimise
from rigbuilder.rules.optimise.placement import nic_slots
from tests.rules.optimise_helpers import StandIn

PROART = "mb-asus-proart-b550-creator"  # PCIEX16_1 (CPU x16), PCIEX16_2 (CPU x8, halves PCIEX16_1), PCIEX16_3 (chipset x4)
RTX3090_FE = "gpu-nvidia-rtx-3090-fe"  # three slots
RTX3090_TURBO = "gpu-gigabyte-rtx-3090-turbo"  # two slots, blower
TODAY = "2026-11-26"


def test_a_cpu_slot_that_gives_the_card_its_lanes_comes_before_a_chipset_slot(index):
    b, g = index.get(PROART), index.get(RTX3090_FE)
    slots = nic_slots(b, 20, g, (2,))  # the card in PCIEX16_1 covers positions 2-4
    assert [x.slot.id for x in slots][:2] == ["PCIEX16_2", "PCIEX16_3"]
    best = slots[0]
    assert best.gives_link and not best.chipset and best.width == 8
    assert best.starves  # PCIEX16_1 drops to x8 with PCIEX16_2 in use: said in the answer
    assert slots[1].chipset and not slots[1].gives_link


def test_only_a_chipset_slot_left_is_named_and_said(index):
    b, g = index.get(PROART), index.get(RTX3090_TURBO)
    slots = nic_slots(b, 20, g, (2, 5))  # both CPU slots hold a card
    assert slots[0].slot.id == "PCIEX16_3" and slots[0].chipset and slots[0].width == 4
    assert all(not x.gives_link for x in slots)
    res = optimise(Request(currency="EUR", condition="both", gpus_now=2, free_slots=1, workload="bert-training",
                           insist=(("gpu", RTX3090_TURBO), ("motherboard", PROART)), today=TODAY), index, StandIn())
    assert res.best is not None, res.infeasible
    said = [render(x, "en") for x in res.explanation]
    line = next((x for x in said if x.startswith("Network card: ")), None)
    assert line is not None, said
    assert line.startswith("Network card: only a chipset slot is left free (PCIEX16_3, x4 Gen3 through the "
                           "chipset)"), line
    assert "cluster.nic_chipset" in line


def test_the_answer_names_the_slot_without_free_slots_asked_nothing(index):
    res = optimise(Request(currency="EUR", condition="both", gpus_now=1, workload="bert-training",
                           insist=(("gpu", RTX3090_FE), ("motherboard", PROART)), today=TODAY), index, StandIn())
    assert res.best is not None
    assert not [x for x in res.explanation if render(x, "en").startswith("Network card: ")]
    res = optimise(Request(currency="EUR", condition="both", gpus_now=1, workload="bert-training", free_slots=1,
                           insist=(("gpu", RTX3090_FE), ("motherboard", PROART)), today=TODAY), index, StandIn())
    line = next(render(x, "en") for x in res.explanation if render(x, "en").startswith("Network card: "))
    assert line.startswith("Network card: slot PCIEX16_2 is left free for it (x8 Gen"), line
    assert "from the CPU" in line and "takes lanes from a GPU" in line, line


def test_a_misplaced_network_card_is_told_the_cpu_slot_first(index):
    """The cluster check's fix for a card in a covered slot lists the free slots wired to the CPU before the
    chipset's (``cluster.nic_chipset`` would follow a chipset slot)."""
    from rigbuilder.domain.build import Build, GpuPlacement
    from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
    from rigbuilder.rules.cluster import ClusterContext, check_cluster
    from tests.builds import CONNECTX3_40G

    b = Build(motherboard=PROART, cpu="cpu-amd-ryzen-7-3700x", gpus=[GpuPlacement(RTX3090_TURBO, 2)])
    nics = (NicPlacement(CONNECTX3_40G, "PCIEX16_1"),)  # where the GPU sits
    plan = ClusterPlan("x", (Machine("node", "node.rig", 2, nics),), Network("switch", "roce"))
    found = check_cluster(ClusterContext(plan, [("node", b, nics)] * 2, index))
    bad = [f for f in found if f.code == "cluster.nic_covered"]
    assert bad, found
    fix = render(bad[0].fix, "en")
    assert fix.startswith("move the card to a free slot: PCIEX16_2, "), fix  # the CPU's x8 slot, then the chipset's
    assert fix.index("PCIEX16_2") < fix.index("PCIEX16_3") and fix.index("PCIEX16_2") < fix.index("PCIEX1_1"), fix
