"""``rigbuilder lab`` with --db, and ``cluster plan --db``: parts the lab owns cost nothing."""
from __future__ import annotations

import json

from rigbuilder.cli import main
from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.files import buildfile, clusterfile
from tests.builds import CONNECTX3_40G, seed003_node

QUADRO = "gpu-asus-rtx-2080-ti-turbo"  # a card with a 2025 street price (a Quadro RTX 5000's 2018 launch price is no new price now)


def test_lab_stock_prices_push_pull_and_a_stale_version(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "lab.sqlite")
    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    assert main(["lab", "status"]) == 2
    assert "--db URL" in capsys.readouterr().err
    assert main(["lab", "stock", "--db", db, "--add", QUADRO, "8", "--place", "rack 1"]) == 0
    assert main(["lab", "stock", "--db", db, "--add", QUADRO, "-9", "--place", "rack 1"]) == 2
    assert "below zero" in capsys.readouterr().err
    assert main(["lab", "price", "--db", db, "--set", CONNECTX3_40G, "45", "USD", "--condition", "used"]) == 0
    assert main(["lab", "price", "--db", db, "--set", CONNECTX3_40G, "50", "USD", "--condition", "used",
                 "--version", "1"]) == 0
    assert main(["lab", "price", "--db", db, "--set", CONNECTX3_40G, "40", "USD", "--condition", "used",
                 "--version", "1"]) == 2
    assert "after you read version 1" in capsys.readouterr().err
    buildfile.save(seed003_node(QUADRO), tmp_path / "node.rig")
    assert main(["lab", "push", str(tmp_path / "node.rig"), "--db", db]) == 0
    assert main(["lab", "pull", "Seed 003: cluster node", "-o", str(tmp_path / "back.rig"), "--db", db]) == 0
    assert buildfile.load(tmp_path / "back.rig") == buildfile.load(tmp_path / "node.rig")
    capsys.readouterr()
    assert main(["lab", "status", "--db", db, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["builds"], d["prices"], d["owned"]) == (1, 1, {QUADRO: 8})


def test_cluster_plan_takes_owned_parts_at_no_cost(tmp_path, capsys, index):
    buildfile.save(seed003_node(QUADRO, 4), tmp_path / "node.rig")
    plan = ClusterPlan("lab", (Machine("node", "node.rig", 2, (NicPlacement(CONNECTX3_40G, "PCIE5"),)),),
                       Network("switch", "roce", switch_price=300.0, cables_price=40.0), circuits=2)
    clusterfile.save(plan, tmp_path / "lab.rigcluster")
    assert main(["cluster", "plan", str(tmp_path / "lab.rigcluster"), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)["purchase"]
    db = str(tmp_path / "lab.sqlite")
    assert main(["lab", "stock", "--db", db, "--add", QUADRO, "3"]) == 0
    capsys.readouterr()
    assert main(["cluster", "plan", str(tmp_path / "lab.rigcluster"), "--json", "--db", db]) == 0
    after = json.loads(capsys.readouterr().out)["purchase"]
    from rigbuilder.models.prices import price_part
    unit = price_part(QUADRO, before["currency"], index).amount
    assert after["owned_used"] == {QUADRO: 3}
    assert after["total"] == round(before["total"] - 3 * unit, 2)
    # the lab's price of the used 40 Gbit/s cards completes the purchase
    assert any("ConnectX-3" in n for n in after["unpriced"])
    assert main(["lab", "price", "--db", db, "--set", CONNECTX3_40G, "45", before["currency"]]) == 0
    capsys.readouterr()
    assert main(["cluster", "plan", str(tmp_path / "lab.rigcluster"), "--json", "--db", db]) == 0
    priced = json.loads(capsys.readouterr().out)["purchase"]
    assert not any("ConnectX-3" in n for n in priced["unpriced"])
    assert priced["total"] == round(after["total"] + 2 * 45, 2)
