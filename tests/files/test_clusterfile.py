"""The .rigcluster file and ``rigbuilder cluster new/check/plan``."""
from __future__ import annotations

import json
import re

import pytest

from rigbuilder.cli import main
from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.files import buildfile, clusterfile
from tests.builds import CONNECTX3_40G, X540_10G, seed003_node


def test_round_trip_and_clear_errors(tmp_path):
    plan = ClusterPlan("lab", (Machine("node", "node.rig", 2, (NicPlacement(CONNECTX3_40G, "PCIE5", 1),)),),
                       Network("switch", "roce", 40.0, True, 500.0, None), circuits=2, region="EU-16A",
                       workload="cnn-training", compare_with="big.rig", notes="eBay cards")
    p = tmp_path / "lab.rigcluster"
    clusterfile.save(plan, p)
    assert clusterfile.load(p) == plan
    d = clusterfile.to_dict(plan)
    for change, where in ((lambda d: d.update(format_version=9), "newer rigbuilder"),
                          (lambda d: d.update(format_version=0), "'format_version' must be 1 or more"),
                          (lambda d: d.update(format="rigbuilder-build"), "not a rigbuilder cluster file"),
                          (lambda d: d.update(machines=[]), "'machines' must name at least one machine"),
                          (lambda d: d["machines"][0].update(count=0), "'machines[0].count' must be between"),
                          (lambda d: d["network"].update(kind="wifi"), "'network.kind' must be one of"),
                          (lambda d: d["machines"][0]["nics"][0].update(ports="2"), "'machines[0].nics[0].ports'"),
                          (lambda d: d.update(workload="chess"), "'workload' must be one of")):
        bad = json.loads(json.dumps(d))
        change(bad)
        with pytest.raises(clusterfile.ClusterFileError, match=re.escape(where)):
            clusterfile.loads(json.dumps(bad), "lab.rigcluster")
    with pytest.raises(clusterfile.ClusterFileError, match="not valid JSON"):
        clusterfile.loads("{", "x")
    with pytest.raises(clusterfile.ClusterFileError, match="regular file of at most"):
        clusterfile.load(tmp_path)  # a folder
    with pytest.raises(clusterfile.ClusterFileError, match="'machines' must be a list"):
        clusterfile.from_dict(dict(d, machines="node.rig"), "lab.rigcluster")  # the file's error, not the build's


def test_cli_new_check_plan(tmp_path, capsys):
    buildfile.save(seed003_node("gpu-nvidia-quadro-rtx-5000", 4), tmp_path / "node.rig")
    f = tmp_path / "ten.rigcluster"
    assert main(["cluster", "new", str(f), "--machine", str(tmp_path / "node.rig") + ":2", "--nic",
                 f"{X540_10G}@PCIE5", "--circuits", "2"]) == 0
    assert clusterfile.load(f).machines[0].count == 2
    assert main(["cluster", "new", str(f), "--machine", "x.rig"]) == 2  # exists, no --force
    capsys.readouterr()
    assert main(["cluster", "check", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {x["code"] for x in out["findings"]} == {"cluster.internode_slow", "cluster.rdma_path", "cluster.no_speedup"}
    assert main(["cluster", "plan", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["scaling"]["headline"] == "10 Gbit/s without RDMA (through the CPU): 2 machines give 0.79x one"
    assert d["purchase"]["unpriced"] and d["tco"]["at_least"]
    assert main(["cluster", "plan", str(tmp_path / "none.rigcluster")]) == 2
    assert "none.rigcluster" in capsys.readouterr().err


def test_cluster_against_one_bigger_machine(tmp_path, capsys):
    """Two 2-card machines on 10 GbE against one 4-card machine: the one machine wins BERT-large."""
    from dataclasses import replace

    from rigbuilder.domain.build import GpuPlacement
    quadro = "gpu-nvidia-quadro-rtx-5000"
    buildfile.save(seed003_node(quadro, 4), tmp_path / "node.rig")
    big = replace(seed003_node(quadro, 8), name="One bigger machine",
                  gpus=[GpuPlacement(quadro, p) for p in (1, 3, 5, 7)], psus=["psu-evga-supernova-1600-t2"])
    buildfile.save(big, tmp_path / "big.rig")
    f = tmp_path / "pair.rigcluster"
    assert main(["cluster", "new", str(f), "--machine", "node.rig:2", "--nic", f"{X540_10G}@PCIE5",
                 "--circuits", "2", "--compare-with", "big.rig"]) == 0
    capsys.readouterr()
    assert main(["cluster", "plan", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    one, pair = d["compare_with"], d["scaling"]["points"][-1]
    assert one["build"] == "One bigger machine" and one["n_gpus"] == 4 and one["fits"]
    assert one["throughput"] > pair["throughput"]  # 4 cards over PCIe beat 2 x 2 over 10 GbE
    assert one["currency"] == d["purchase"]["currency"] and one["tco"] > one["purchase"] > 0
    assert main(["cluster", "plan", str(f)]) == 0
    assert "One bigger machine (One bigger machine)" in capsys.readouterr().out


def test_cli_new_refuses_a_card_in_a_covered_slot(tmp_path, capsys):
    """Issue 43: ``cluster new --nic X@PCIE2`` where GPU 1 covers PCIE2 writes nothing and says why;
    ``cluster check`` of such a file (written by hand) exits 1 with the same error."""
    buildfile.save(seed003_node(), tmp_path / "node.rig")
    f = tmp_path / "lab.rigcluster"
    assert main(["cluster", "new", str(f), "--machine", "node.rig:2", "--nic", f"{CONNECTX3_40G}@PCIE2"]) == 2
    err = capsys.readouterr().err
    assert "PCIE2, which GPU 1 covers" in err and "free slot: PCIE5, PCIE6, PCIE7" in err and not f.exists()
    plan = ClusterPlan("lab", (Machine("node", "node.rig", 2, (NicPlacement(CONNECTX3_40G, "PCIE2"),)),), Network())
    clusterfile.save(plan, f)
    assert main(["cluster", "check", str(f), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert any(x["code"] == "cluster.nic_covered" and x["severity"] == "error" for x in out["findings"])
    assert main(["cluster", "new", str(tmp_path / "ok.rigcluster"), "--machine", "node.rig:2", "--nic",
                 f"{CONNECTX3_40G}@PCIE5"]) == 0
