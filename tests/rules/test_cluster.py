"""Seed 003: a small GPU cluster on used 40 Gbit/s RDMA cards against 10 GbE without RDMA."""
from __future__ import annotations

import pytest

from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.rules.cluster import ClusterContext, check_cluster
from tests.builds import CONNECTX3_40G, TITAN_6GB, X540_10G, seed003_node

QUADRO = "gpu-nvidia-quadro-rtx-5000"  # a workstation card of the same PCIe 3.0 generation


def cluster(index, n, nic, kind, gpu=TITAN_6GB, workload="bert-training", slot="PCIE5", circuits=1, kits=1):
    b = seed003_node(gpu, kits)
    plan = ClusterPlan("seed 003", (Machine("node", "node.rig", n, (NicPlacement(nic, slot),)),),
                       Network("switch", kind), circuits=circuits, workload=workload)
    return ClusterContext(plan, [(f"node #{i + 1}", b, plan.machines[0].nics) for i in range(n)], index)


def codes(cc):
    return {(f.code, f.severity.value) for f in check_cluster(cc)}


def test_seed003_40g_rdma_cards_with_geforce_titans_go_through_the_cpu(index):
    cc = cluster(index, 4, CONNECTX3_40G, "roce")
    net = cc.machines[0].net
    # the card can do RDMA on RoCE, but GeForce cards are not GPUDirect RDMA targets: staged through CPU memory
    assert not net.rdma and any("consumer card" in w for w in net.rdma_why)
    assert net.nic_gbs == pytest.approx(4.0)  # 40 Gbit/s x 0.8: "about 4GB/s" (Dettmers 2014)
    assert net.path_gbs == pytest.approx(1 / (1 / 4.0 + 1 / 15.76), rel=1e-3)
    got = codes(cc)
    assert {("cluster.rdma_path", "info"), ("cluster.internode_slow", "info"), ("cluster.ram", "warning"),
            ("cluster.power", "error")} <= got
    # four 6 GB cards to hold BERT-large: fits only when split over machines, the seed's lesson
    assert ("cluster.model_parallel", "warning") in got
    assert not cc.scaling.fits and cc.scaling.points == ()
    # CNN training is data parallel: the slow Titans hide even the staged all-reduce
    cnn = cluster(index, 4, CONNECTX3_40G, "roce", workload="cnn-training").scaling
    assert [round(p.speedup, 2) for p in cnn.points] == [1.0, 2.0, 3.0, 4.0]


def test_seed003_40g_with_gpudirect_rdma_against_10gbe_without(index):
    rdma = cluster(index, 2, CONNECTX3_40G, "roce", gpu=QUADRO, circuits=2, kits=4)
    tcp = cluster(index, 2, X540_10G, "ethernet", gpu=QUADRO, circuits=2, kits=4)
    assert rdma.machines[0].net.rdma and rdma.machines[0].net.path_gbs == pytest.approx(4.0)
    assert not tcp.machines[0].net.rdma
    assert tcp.machines[0].net.path_gbs == pytest.approx(1 / (1 / 1.0 + 1 / 15.76), rel=1e-3)  # one 10 Gbit/s port x 0.8
    assert codes(rdma) == {("cluster.internode_slow", "info")}
    # 10 GbE without RDMA: two machines train slower than one, as the seed warns
    assert codes(tcp) == {("cluster.internode_slow", "warning"), ("cluster.rdma_path", "info"),
                          ("cluster.no_speedup", "warning")}
    r, t = rdma.scaling, tcp.scaling
    assert r.headline() == "40 Gbit/s with GPUDirect RDMA: 2 machines give 1.56x one"
    assert t.headline() == "10 Gbit/s without RDMA (through the CPU): 2 machines give 0.79x one"
    # the ring all-reduce between machines: 2(M-1)/M x S / B with M = 2 (S: BERT-large's gradients)
    assert t.gradient_gb == pytest.approx(1.34, rel=0.01)
    assert t.points[1].t_net_s == pytest.approx(t.gradient_gb / t.path_gbs, rel=1e-6)
    four = cluster(index, 4, CONNECTX3_40G, "roce", gpu=QUADRO, circuits=3, kits=4).scaling
    assert [round(p.speedup, 2) for p in four.points] == [1.0, 1.56, 2.13, 2.71]
    four_tcp = cluster(index, 4, X540_10G, "ethernet", gpu=QUADRO, circuits=3, kits=4).scaling
    assert [round(p.speedup, 2) for p in four_tcp.points] == [1.0, 0.79, 0.98, 1.2]


def test_a_card_on_a_chipset_slot_or_narrowing_a_gpu_is_named(index):
    from dataclasses import replace

    from rigbuilder.domain.build import GpuPlacement
    b = replace(seed003_node(QUADRO), motherboard="mb-asus-rog-zenith-ii-extreme",
                cpu="cpu-amd-threadripper-3960x", gpus=[GpuPlacement(QUADRO, 1), GpuPlacement(QUADRO, 4)])
    plan = ClusterPlan("x", (Machine("a", "a.rig", 2, (NicPlacement(X540_10G, "PCIEX4", 2),)),), Network("switch", "roce"))
    cc = ClusterContext(plan, [("a", b, plan.machines[0].nics), ("b", b, plan.machines[0].nics)], index)
    found = check_cluster(cc)
    chipset = [f for f in found if f.code == "cluster.nic_chipset"]
    assert chipset and "chipset slot (PCIEX4, x4)" in chipset[0].message
    assert any(f.code == "cluster.rdma_path" and "X540" in f.message for f in found)
    slow = [f for f in found if f.code == "cluster.nic_slot_slow"]
    assert slow and dict(slow[0].figures)["slot_gbs"] < dict(slow[0].figures)["wire_gbs"]


def test_a_nic_starving_a_gpu_and_unplaced_cards(index):
    from dataclasses import replace

    from rigbuilder.domain.build import GpuPlacement
    # the X570S Aorus Master runs PCIEX16 at x8 when PCIEX8 is used (its manual's table)
    b = replace(seed003_node(QUADRO), motherboard="mb-gigabyte-x570s-aorus-master", cpu="cpu-amd-ryzen-9-5950x",
                gpus=[GpuPlacement(QUADRO, 2)])
    plan = ClusterPlan("x", (Machine("a", "a.rig", 2, (NicPlacement(CONNECTX3_40G, "PCIEX8"),
                                                       NicPlacement(CONNECTX3_40G, ""),
                                                       NicPlacement("nic-nope", "PCIEX4"))),), Network())
    cc = ClusterContext(plan, [("a", b, plan.machines[0].nics)] * 2, index)
    found = check_cluster(cc)
    starve = [f for f in found if f.code == "cluster.nic_starves_gpu"]
    assert starve and "GPU 1: x16 becomes x8" in starve[0].message
    # copies of one machine are checked once: (no slot, not a card), named "a (x2)"
    missing = [f for f in found if f.code == "cluster.nic_missing"]
    assert len(missing) == 2 and all(f.message.startswith("a (x2): ") for f in missing)


def test_a_network_card_in_a_slot_a_gpu_covers_is_an_error(index):
    """Issue 43: the seed 003 node's 2-slot cards in PCIE1 and PCIE3 cover PCIE2 and PCIE4; a card there
    is refused like any card in a covered slot (``geometry.covers``), not only a lane warning."""
    from rigbuilder.domain.findings import Severity
    from rigbuilder.rules.cluster import free_slots, slot_taken
    from rigbuilder.rules.context import Context

    b = seed003_node(QUADRO)
    ctx = Context(b, index)
    assert slot_taken(ctx, 2)[0] == "covers" and slot_taken(ctx, 2)[1].num == 1
    assert slot_taken(ctx, 3)[0] == "sits" and slot_taken(ctx, 5) is None
    assert [s.id for s in free_slots(ctx)] == ["PCIE5", "PCIE6", "PCIE7"]
    for slot, word in (("PCIE2", "which GPU 1 covers"), ("PCIE3", "where a GPU sits")):
        nics = (NicPlacement(CONNECTX3_40G, slot),)
        plan = ClusterPlan("x", (Machine("node", "node.rig", 2, nics),), Network("switch", "roce"))
        found = check_cluster(ClusterContext(plan, [("node", b, nics)] * 2, index))
        bad = [f for f in found if f.code == "cluster.nic_covered"]
        assert bad and bad[0].severity is Severity.ERROR and word in bad[0].message, found
        assert "PCIE5, PCIE6, PCIE7" in bad[0].fix
    nics = (NicPlacement(CONNECTX3_40G, "PCIE5"), NicPlacement(X540_10G, "PCIE5"))
    plan = ClusterPlan("x", (Machine("node", "node.rig", 2, nics),), Network("switch", "roce"))
    found = check_cluster(ClusterContext(plan, [("node", b, nics)] * 2, index))
    assert [f.message for f in found if f.code == "cluster.nic_covered"] == [
        "node (x2): 2 network cards are placed in slot PCIE5; a slot takes one card"]
    nics = (NicPlacement(CONNECTX3_40G, "PCIE5"),)
    plan = ClusterPlan("x", (Machine("node", "node.rig", 2, nics),), Network("switch", "roce"))
    assert not [f for f in check_cluster(ClusterContext(plan, [("node", b, nics)] * 2, index))
                if f.code == "cluster.nic_covered"]
