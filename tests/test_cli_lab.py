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


def test_lab_arguments_that_are_not_utf8_and_malformed_addresses_are_told(tmp_path, capsys, monkeypatch):
    """A byte that is not UTF-8 in a part or a place (argv carries it as a lone surrogate) raised
    UnicodeEncodeError; a malformed port raised ValueError; an "@" in a password printed its tail."""
    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    db = str(tmp_path / "lab.sqlite")
    for argv in (["lab", "price", "--db", db, "--set", "gpu-\udcff", "5", "USD"],
                 ["lab", "stock", "--db", db, "--add", "P", "1", "--place", "\udcfe"],
                 ["lab", "stock", "--db", db, "--add", "P\udcfe", "1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "is not valid text" in err and "Traceback" not in err
    for url in ("postgresql://bob:pw@127.0.0.1:notaport/rb", "postgresql://bob:pw@[::1/rb",
                "postgresql://bob:pw@PW3@127.0.0.1/rb"):
        assert main(["lab", "status", "--db", url]) == 2
        err = capsys.readouterr().err
        assert "PW3" not in err and ":pw" not in err and "Traceback" not in err
        assert "database address" in err or "%40" in err
    assert main(["lab", "status", "--db", "postgresql://me@127.0.0.1:1/rb", "--password-file", "/tmp/\udcff"]) == 2
    assert "password file's name" in capsys.readouterr().err
    assert main(["lab", "stock", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_the_lab_messages_are_translated(tmp_path, capsys):
    """A newer schema, in German and Japanese: the same message the window shows, in the user's language."""
    from tests.labs import newer_lab

    lab = tmp_path / "lab.sqlite"
    newer_lab(str(lab))
    capsys.readouterr()
    assert main(["--lang=de", "lab", "status", "--db", str(lab)]) == 2
    assert "wurde von einem neueren rigbuilder eingerichtet" in capsys.readouterr().err
    assert main(["--lang=ja", "lab", "stock", "--db", str(tmp_path / "b.sqlite"), "--add", "P\udcfe", "1"]) == 2
    assert "有効な文字列ではありません" in capsys.readouterr().err
