"""Issue 37's variation "two machines on 25 GbE without RDMA", through the cluster commands, read as
a builder would: the optimiser's machine leaves a slot free for the network card (``free_slots``);
the card (Intel XXV710-DA2: two 25 GbE SFP28 ports, PCIe 3.0 x8, no RDMA) sits in the slot the answer
names, one no GPU covers, with the lanes it needs, wired to the CPU (or the GPUs' switch) where the board
has such a slot left (a chipset slot only where it has none, and the answer says so); the link runs at 25 Gbit/s through the CPU; no warning of the kinds
the optimiser refuses at either stage; and the plan states the speed-up with what binds it."""
from __future__ import annotations

import json
import re

from rigbuilder.cli import main
from rigbuilder.domain.i18n import render
from rigbuilder.domain.findings import Severity
from rigbuilder.files import buildfile
from rigbuilder.rules.cluster import free_slots
from rigbuilder.rules.context import Context
from rigbuilder.rules.optimise import Request
from tests.rules.test_seed_answers import TODAY, answer, as_a_builder, errors

XXV710 = "nic-intel-xxv710-da2"  # 2 x 25 GbE SFP28, PCIe 3.0 x8, no RDMA (its notes: not confirmed by a source)
REFUSED_KINDS = ("thermal.", "lanes.width", "psu.transients", "cost.over-budget")


def test_two_machines_on_25_gbe_without_rdma(index, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    res = answer(index, Request(currency="EUR", condition="both", gpus_now=2, workload="bert-training",
                                region="EU-16A", free_slots=1, ram_per_vram=2.0, today=TODAY))
    as_a_builder(index, res)  # no refused warning at either stage, two DIMMs, a 1 TB SSD
    node = res.best.grown
    ctx = Context(node, index)
    nic = index.get(XXV710)
    board = index.get(node.motherboard)
    # the slot the answer names for the card (the optimiser's: one the cards leave free that gives an x8 card
    # its lanes from the CPU or the GPUs' switch where there is one), a slot no GPU covers that takes the card
    said = " ".join(render(x, "en") for x in res.explanation)
    named = re.search(r"Network card: (?:slot (\S+) is left free for it|only a chipset slot is left free \((\S+),)",
                      said)
    assert named, said
    slot = next(s for s in board.slots if s.id == (named.group(1) or named.group(2)))
    assert slot.id in {s.id for s in free_slots(ctx)}
    assert slot.lanes > 0 and (slot.physical >= nic.pcie_lanes or slot.open_ended)
    # no slot left free that would serve the card better: wired to the CPU (or a switch) where one is free
    cpu_free = [s for s in free_slots(ctx) if s.source != "chipset" and s.lanes >= nic.pcie_lanes
                and (s.physical >= nic.pcie_lanes or s.open_ended)]
    assert (slot.source != "chipset") == bool(cpu_free), (slot, cpu_free)
    if slot.source == "chipset":
        assert "only a chipset slot is left free" in said, said
    buildfile.save(node, tmp_path / "node.rig")
    plan = tmp_path / "two.rigcluster"
    assert main(["cluster", "new", str(plan), "--machine", "node.rig:2", "--nic", f"{XXV710}@{slot.id}",
                 "--network", "ethernet", "--topology", "direct", "--speed", "25",
                 "--workload", "bert-training"]) == 0
    capsys.readouterr()
    rc = main(["cluster", "check", str(plan), "--json"])
    found = json.loads(capsys.readouterr().out)
    assert rc == 0, found
    every = found["findings"] + [f for fs in found["machine_findings"].values() for f in fs]
    assert not [f for f in every if f["severity"] == "error"], every
    assert not [f for f in every if f["severity"] == "warning" and f["code"].startswith(REFUSED_KINDS)], every
    # the card neither sits where a GPU covers it nor takes lanes from a GPU, and its slot's lanes carry the
    # 25 Gbit/s port (3.1 GB/s: PCIe 3.0 x4 gives 3.9); a chipset slot is said (cluster.nic_chipset) and
    # costs little here, where the traffic goes through the CPU's memory anyway (no RDMA)
    assert not [f for f in every if f["code"] in ("cluster.nic_covered", "cluster.nic_starves_gpu",
                                                  "cluster.nic_slot_slow")], every
    # what is left is said and acceptable to a builder here: the link between machines, slower than inside
    # one; the chipset slot (and the lane count, which adds the card's x8 to the CPU's lanes although a chipset
    # slot does not take them) only where the board has no slot wired to the CPU left for the card
    allowed = {"cluster.internode_slow"} | ({"cluster.nic_chipset", "lanes.budget"} if not cpu_free else set())
    assert {f["code"] for f in every if f["severity"] == "warning"} <= allowed, every
    rc = main(["cluster", "plan", str(plan), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0, out
    scaling = out["scaling"] if "scaling" in out else out
    assert scaling["rdma"] is False and scaling["fits_one_machine"] is True
    assert "25 Gbit/s without RDMA (through the CPU)" in scaling["limit"], scaling["limit"]
    two = scaling["points"][-1]
    assert two["machines"] == 2 and two["linked"]
    # the speed-up stated with what binds: the link, in the headline
    assert scaling["headline"].startswith(scaling["limit"]) and "2 machines give" in scaling["headline"]
    # over 25 Gbit/s through the CPU, BERT-large's gradients leave two machines short of twice one
    assert 0.5 < two["speedup"] < 2.0
    for stage in (res.best.today, node):
        from rigbuilder.rules.engine import run_checks

        fs = run_checks(stage, index)
        assert not errors(fs)
        assert not [f.code for f in fs if f.severity is Severity.WARNING and f.code.startswith(REFUSED_KINDS)]
