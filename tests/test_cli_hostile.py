"""Issue 44 and 38's defects at the command line: each ends in a message (exit 2) or a right answer,
never a traceback, and a bad price reads the same at every door."""
from __future__ import annotations

import errno
import json
import sys

import pytest

from rigbuilder.domain.build import Settings
from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.files import buildfile, clusterfile
from tests.builds import CONNECTX3_40G, seed003_node, x99_4x3090
from tests.cli_lang import run

FE = "gpu-nvidia-rtx-3090-fe"
QUADRO = "gpu-nvidia-quadro-rtx-5000"


# --------------------------------------------------------------------------- prices: one check, one message

def _import_message(tmp_path, capsys, **row) -> str:
    cells = {"part": FE, "amount": "700", "currency": "USD", "date": "2026-01-05", **row}
    f = tmp_path / "p.json"
    f.write_text(json.dumps([cells]))
    rc, out, _ = run(capsys, "price", "import", f, "--json")
    assert rc == 1
    return json.loads(out)["rows"][0]["problems"][0]


@pytest.mark.parametrize("args,column,value,words", [
    (("700", "XYZ"), "currency", "XYZ", "XYZ is not a currency the exchange rates know"),
    (("700", "USD", "--date", "2024-02-30"), "date", "2024-02-30", "is not a day of the calendar"),
    (("700", "USD", "--date", "2999-12-31"), "date", "2999-12-31", "2999-12-31 is in the future"),
    (("inf", "USD"), "amount", "inf", "is not a finite number"),
    (("1e309", "USD"), "amount", "1e309", "is not a finite number"),
    (("nan", "USD"), "amount", "nan", "is not a finite number"),
])
def test_price_set_refuses_what_price_import_refuses_in_the_same_words(tmp_path, capsys, args, column, value, words):
    rc, _, err = run(capsys, "price", "set", FE, *args)
    assert rc == 2 and words in err
    assert "Traceback" not in err
    assert json.loads(run(capsys, "price", "list", "--json")[1]) == []  # nothing stored
    problem = _import_message(tmp_path, capsys, **{column: value})
    assert words in problem
    # the same sentence after the place each door names (price set: "currency: ..."; import: "currency: ...")
    assert problem.split(": ", 1)[1] in err


def test_price_import_of_deep_json_and_a_huge_amount_is_a_message(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    rc, _, err = run(capsys, "price", "import", deep)
    assert rc == 2 and "nested too deeply" in err
    huge = tmp_path / "huge.json"
    huge.write_text('[{"part": "%s", "amount": 1%s, "currency": "USD"}]' % (FE, "0" * 400))
    rc, out, err = run(capsys, "price", "import", huge, "--json")
    assert rc == 1 and "is not a finite number" in json.loads(out)["rows"][0]["problems"][0]


def test_lab_price_refuses_infinity_nan_and_an_unknown_currency(tmp_path, capsys):
    db = tmp_path / "lab.sqlite"
    for amount, cur, words in (("inf", "USD", "is not a finite number"), ("1e309", "USD", "is not a finite number"),
                               ("nan", "USD", "is not a finite number"), ("-5", "USD", "must be between 0 and"),
                               ("5", "XYZ", "is not a currency the exchange rates know")):
        rc, _, err = run(capsys, "lab", "price", "--db", db, "--set", CONNECTX3_40G, amount, cur)
        assert rc == 2 and words in err, (amount, err)
    rc, out, _ = run(capsys, "lab", "price", "--db", db, "--json")
    assert rc == 0 and json.loads(out) == []


# --------------------------------------------------------------------------- crashes

def test_cost_at_the_highest_price_per_kwh_the_loader_takes(tmp_path, capsys):
    b = x99_4x3090()
    b.settings = Settings(region="US-15A", price_per_kwh=67.0, currency="USD")
    buildfile.save(b, tmp_path / "b.rig")
    rc, out, err = run(capsys, "cost", tmp_path / "b.rig", "--json")
    assert rc == 0, err
    d = json.loads(out)
    price = next(s for s in d["scenarios"] if s["key"] == "price")
    assert price["price_per_kwh"] == pytest.approx(100.5)


def _plan(tmp_path, nics=(NicPlacement(CONNECTX3_40G, "PCIE5"),), count=2):
    buildfile.save(seed003_node(QUADRO, 4), tmp_path / "node.rig")
    plan = ClusterPlan("lab", (Machine("node", "node.rig", count, tuple(nics)),), Network("switch", "roce"))
    clusterfile.save(plan, tmp_path / "lab.rigcluster")
    return tmp_path / "lab.rigcluster"


def test_cluster_new_in_a_missing_folder_or_on_a_full_disk(tmp_path, capsys, monkeypatch):
    buildfile.save(seed003_node(), tmp_path / "node.rig")
    rc, _, err = run(capsys, "cluster", "new", tmp_path / "nodir" / "c.rigcluster", "--machine",
                     f"{tmp_path / 'node.rig'}:2")
    assert rc == 2 and "cannot write" in err and "No such file" in err
    import rigbuilder.files.atomic as atomic

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    rc, _, err = run(capsys, "cluster", "new", tmp_path / "c.rigcluster", "--machine", f"{tmp_path / 'node.rig'}:2")
    assert rc == 2 and "No space left on device" in err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


@pytest.mark.parametrize("nic,slot,ports", [("PCIE5x999", None, None), ("PCIE5x0", None, None),
                                             ("PCIE5x2", "PCIE5", 2), ("PCIE5", "PCIE5", 1)])
def test_cluster_new_reads_slot_and_ports_whole(tmp_path, capsys, nic, slot, ports):
    buildfile.save(seed003_node(), tmp_path / "node.rig")
    rc, _, err = run(capsys, "cluster", "new", tmp_path / "c.rigcluster", "--machine", f"{tmp_path / 'node.rig'}:2",
                     "--nic", f"{CONNECTX3_40G}@{nic}")
    if slot is None:
        assert rc == 2 and "from 1 to 8" in err and not (tmp_path / "c.rigcluster").exists()
    else:
        assert rc == 0
        n = clusterfile.load(tmp_path / "c.rigcluster").machines[0].nics[0]
        assert (n.slot, n.ports) == (slot, ports)


@pytest.mark.parametrize("nics", [(), (NicPlacement("nic-no-such-card", "PCIE5"),),
                                  (NicPlacement(CONNECTX3_40G, "PCIE99"),)])
def test_cluster_plan_without_a_working_link_is_valid_json_and_says_so(tmp_path, capsys, nics):
    path = _plan(tmp_path, nics)
    rc, out, err = run(capsys, "cluster", "plan", path, "--json")
    if rc == 2:  # an unknown card: refused as any unknown part is
        assert "nic-no-such-card" in err
        return
    d = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert [p["linked"] for p in d["scaling"]["points"]] == [True, False]
    assert d["scaling"]["points"][1]["t_step_s"] is None
    rc, out, _ = run(capsys, "cluster", "plan", path)
    assert rc == 0 and "inf" not in out and "cannot train together" in out


# --------------------------------------------------------------------------- files the user did not ask to replace

def test_new_and_lab_pull_ask_for_force_before_replacing_a_file(tmp_path, capsys):
    mine = tmp_path / "mine.rig"
    mine.write_text("precious")
    rc, _, err = run(capsys, "new", "--name", "x", "-o", mine)
    assert rc == 2 and "--force" in err and mine.read_text() == "precious"
    assert run(capsys, "new", "--name", "x", "-o", mine, "--force")[0] == 0
    assert buildfile.load(mine).name == "x"
    db = tmp_path / "lab.sqlite"
    buildfile.save(seed003_node(), tmp_path / "node.rig")
    assert run(capsys, "lab", "push", tmp_path / "node.rig", "--db", db)[0] == 0
    other = tmp_path / "other.rig"
    other.write_text("precious")
    rc, _, err = run(capsys, "lab", "pull", "Seed 003: cluster node", "-o", other, "--db", db)
    assert rc == 2 and "--force" in err and other.read_text() == "precious"
    assert run(capsys, "lab", "pull", "Seed 003: cluster node", "-o", other, "--db", db, "--force")[0] == 0
    assert buildfile.load(other).name == "Seed 003: cluster node"
    rc, _, err = run(capsys, "lab", "pull", "Seed 003: cluster node", "-o", tmp_path / "nodir" / "x.rig", "--db", db)
    assert rc == 2 and "cannot write" in err


def test_no_traceback_reaches_stderr_here(capsys):
    assert "Traceback" not in capsys.readouterr().err
    assert sys.getrecursionlimit() >= 1000  # the deep JSON test left the limit as it was
