"""The command line: new, check, arrange, limits, catalog; exit codes 0/1/2, no tracebacks."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rigbuilder.files.buildfile import save
from tests.builds import frank_2070, x99_4x3090
from tests.cli_lang import run


def test_new_then_check_json(tmp_path, capsys):
    f = tmp_path / "b.rig"
    rc, out, _ = run(capsys, "new", "--board", "mb-gigabyte-x399-aorus-pro", "--cpu", "cpu-amd-threadripper-1900x",
                     "--gpu", "gpu-zotac-rtx-2070-amp@1", "--gpu", "gpu-zotac-rtx-2070-amp@3",
                     "--memory", "mem-corsair-vengeance-lpx-2x8gb-ddr4-3000x2", "--psu", "psu-evga-supernova-1000-p2",
                     "-o", str(f))
    assert rc == 0 and f.exists()
    rc, out, _ = run(capsys, "check", str(f), "--json")
    data = json.loads(out)
    assert rc == 1
    assert any(x["code"] == "thermal.open-air-gap" and x["severity"] == "error" for x in data["findings"])
    assert set(data["counts"]) == {"error", "warning", "info"}


def test_check_exit_zero_without_errors(tmp_path, capsys):
    f = tmp_path / "ok.rig"
    save(frank_2070(1), f)
    rc, out, _ = run(capsys, "check", str(f))
    assert rc == 0 and "slot.blocked" in out


def test_bad_inputs_exit_2_with_message(tmp_path, capsys):
    bad = tmp_path / "bad.rig"
    bad.write_text("{ nope")
    rc, _, err = run(capsys, "check", str(bad))
    assert rc == 2 and "line 1" in err and "Traceback" not in err
    rc, _, err = run(capsys, "check", str(tmp_path / "missing.rig"))
    assert rc == 2 and "cannot read" in err
    rc, _, err = run(capsys, "new", "--gpu", "gpu-nope", "-o", str(tmp_path / "x.rig"))
    assert rc == 2 and "gpu-nope" in err
    rc, _, err = run(capsys, "new", "--board", "cpu-amd-threadripper-1900x", "-o", str(tmp_path / "x.rig"))
    assert rc == 2 and "not a motherboard" in err


def test_arrange_writes_output(tmp_path, capsys):
    f = tmp_path / "a.rig"
    save(frank_2070(2, positions=(1, 3)), f)
    out_f = tmp_path / "arranged.rig"
    rc, out, _ = run(capsys, "arrange", str(f), "-o", str(out_f), "--json")
    data = json.loads(out)
    assert rc == 0 and data["fits"] and out_f.exists()
    rc, _, _ = run(capsys, "check", str(out_f), "--only", "thermal")
    assert rc == 0


def test_limits_prints_nvidia_smi_lines(tmp_path, capsys):
    f = tmp_path / "l.rig"
    save(x99_4x3090(None), f)
    rc, out, _ = run(capsys, "limits", str(f))
    assert rc == 0 and "nvidia-smi -i 3 -pl" in out


def test_catalog_list_and_show(capsys):
    rc, out, _ = run(capsys, "catalog", "list", "--kind", "motherboard", "--json")
    rows = json.loads(out)
    assert rc == 0 and len(rows) >= 20 and all(r["kind"] == "motherboard" for r in rows)
    rc, out, _ = run(capsys, "catalog", "show", "mb-asrock-x99-ws-e")
    assert rc == 0 and "unverified" in out
    rc, _, err = run(capsys, "catalog", "show", "mb-nope")
    assert rc == 2


def test_catalog_import_export_cli(tmp_path, capsys, index):
    import dataclasses
    from rigbuilder.catalog.schema import part_to_dict
    p = dataclasses.replace(index.get("psu-corsair-cx750m-2021"), id="psu-user-old-box", model="Old box")
    f = tmp_path / "p.json"
    f.write_text(json.dumps([{"kind": "psu", **part_to_dict(p)}]))
    assert run(capsys, "catalog", "import", str(f))[0] == 0
    rc, out, _ = run(capsys, "catalog", "import", str(f))
    assert "0 added, 0 updated, 1 unchanged" in out
    assert run(capsys, "catalog", "export", "psu", str(tmp_path / "o.csv"))[0] == 0
    assert "psu-user-old-box" in (tmp_path / "o.csv").read_text()
    assert run(capsys, "catalog", "export", "gpu", str(tmp_path / "g.json"))[0] == 0
    assert json.loads((tmp_path / "g.json").read_text()) == []
    rc, _, err = run(capsys, "catalog", "export", "toaster", str(tmp_path / "t.json"))
    assert rc == 2 and "unknown kind 'toaster'" in err and not (tmp_path / "t.json").exists()


def test_catalog_show_json_imports_again(tmp_path, capsys, index):
    """issue 40: the output of ``catalog show --json`` imports again; its read-only keys are
    ignored and named; a user's part is origin "user", as in ``price list``."""
    import dataclasses
    from rigbuilder.catalog.schema import part_to_dict
    p = dataclasses.replace(index.get("psu-corsair-cx750m-2021"), id="psu-user-round-trip", model="Round trip")
    f = tmp_path / "p.json"
    f.write_text(json.dumps([{"kind": "psu", **part_to_dict(p)}]))
    assert run(capsys, "catalog", "import", str(f))[0] == 0
    rc, out, _ = run(capsys, "catalog", "show", "psu-user-round-trip", "--json")
    row = json.loads(out)
    assert rc == 0 and row["origin"] == "user" and "trust" in row and "price_used" in row
    g = tmp_path / "shown.json"
    g.write_text(out)
    rc, out, err = run(capsys, "catalog", "import", str(g))
    assert rc == 0 and "0 added, 0 updated, 1 unchanged" in out
    assert "ignored read-only fields" in err and "trust" in err and "verified" in err


def test_catalog_show_gives_the_price_builds_use(capsys, index):
    """A memory kit whose only price is a street price in the price files shows that price."""
    kit = next(p for p in index if p.KIND == "memory" and p.price is None
               and index.prices.for_part(p.id))
    rc, out, _ = run(capsys, "catalog", "show", kit.id)
    line = next(x for x in out.splitlines() if x.startswith("price "))
    assert rc == 0 and "none known" not in line and "None" not in line


def test_catalog_show_names_a_boards_two_flags(capsys):
    rc, out, _ = run(capsys, "catalog", "show", "mb-asrock-x399-taichi")
    assert rc == 0 and "slot table: 0 of 5 slots confirmed; positions: 0 of 5 confirmed" in out
    rc, out, _ = run(capsys, "catalog", "show", "mb-asrock-x399-taichi", "--json")
    row = json.loads(out)
    assert row["slots_confirmed"] is False and row["positions_confirmed"] is False


def test_catalog_import_dry_run_writes_nothing(tmp_path, capsys, index):
    import dataclasses
    from rigbuilder.catalog.schema import part_to_dict
    p = dataclasses.replace(index.get("psu-corsair-cx750m-2021"), id="psu-user-dry", model="Dry box")
    f = tmp_path / "p.json"
    f.write_text(json.dumps([{"kind": "psu", **part_to_dict(p)}]))
    rc, out, _ = run(capsys, "catalog", "import", str(f), "--dry-run")
    assert rc == 0 and "would add 1" in out
    rc, out, _ = run(capsys, "catalog", "list", "psu", "--search", "Dry box")
    assert "psu-user-dry" not in out
    assert run(capsys, "catalog", "import", str(f))[0] == 0
    rc, out, _ = run(capsys, "catalog", "list", "psu", "--search", "Dry box")
    assert "psu-user-dry" in out


def test_catalog_list_positional_kind(capsys):
    rc, out, _ = run(capsys, "catalog", "list", "gpu", "--json")
    rows = json.loads(out)
    assert rc == 0 and len(rows) >= 100 and {r["kind"] for r in rows} == {"gpu"}
    assert all(r["id"].startswith("gpu-") for r in rows)
    origins = {r["origin"] for r in rows}
    assert origins == {"curated", "community"}
    for r in rows:  # community rows are flagged as such, with their trust in words
        assert (r["origin"] == "community") == r["source"].startswith("BuildCores OpenDB")
        assert r["trust"].startswith("community data") == (r["origin"] == "community")
        assert r["trust"] == "verified" or not r["verified"]
    rc, _, err = run(capsys, "catalog", "list", "toaster")
    assert rc == 2 and "unknown kind 'toaster'" in err and "Traceback" not in err


def test_python_dash_m_runs_headless(tmp_path):
    f = tmp_path / "m.rig"
    save(frank_2070(1), f)
    r = subprocess.run([sys.executable, "-m", "rigbuilder", "check", str(f), "--json"], capture_output=True, text=True,
                       env={"RIGBUILDER_DATA_DIR": str(tmp_path / "d"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert "PySide6" not in r.stderr
    json.loads(r.stdout)


@pytest.mark.parametrize("content, needle", [
    (b"\x00\x01\x02binary", "not"),
    (b'[{"kind": "gpu", "id": "gpu-x"', "line"),
    (b"kind,id,maker\ngpu,gpu-user-x,ACME\n", "line 2: field 'model' is missing"),
])
def test_catalog_import_bad_files_exit_2_and_import_nothing(tmp_path, capsys, content, needle):
    f = tmp_path / ("p.json" if content.startswith(b"[") else "p.csv")
    f.write_bytes(content)
    rc, out, err = run(capsys, "catalog", "import", str(f))
    assert rc == 2 and "nothing imported" in err and needle in err and "Traceback" not in err
    rc, out, _ = run(capsys, "catalog", "list", "gpu", "--search", "gpu-user-x")
    assert "gpu-user-x" not in out
    rc, _, err = run(capsys, "catalog", "import", str(tmp_path / "missing.csv"))
    assert rc == 2 and "missing.csv" in err and "Traceback" not in err


@pytest.mark.parametrize("region, currency, price", [("US-15A", "USD", 0.1872), ("UK-13A", "GBP", 0.2635),
                                                     ("CN-10A", "CNY", 0.4883), ("EU-16A", "EUR", 0.2872),
                                                     ("DE-16A", "EUR", 0.397), ("JP-15A", "JPY", 31.68)])
def test_new_region_picks_its_currency_and_its_energy_price(tmp_path, capsys, region, currency, price):
    """Issue 38: each region's household price of a kWh (EIA, Ofgem, NDRC, Eurostat, BDEW, TEPCO), not the EU
    default converted."""
    from rigbuilder.files.buildfile import load

    f = tmp_path / "r.rig"
    rc, _, _ = run(capsys, "new", "--region", region, "-o", str(f))
    assert rc == 0
    s = load(f).settings
    assert (s.region, s.currency) == (region, currency) and s.price_per_kwh == pytest.approx(price)


def test_a_damaged_user_database_is_named_not_a_traceback(tmp_path, capsys):
    from rigbuilder.config import Paths

    paths = Paths.from_env()
    paths.user_db.parent.mkdir(parents=True, exist_ok=True)
    paths.user_db.write_bytes(b"not a database" * 100)
    rc, _, err = run(capsys, "catalog", "export", "all", str(tmp_path / "mine.csv"))
    # Issue 24: moved aside to a dated backup (said on stderr), a fresh database started
    assert rc == 0 and str(paths.user_db) in err and "is not a SQLite database" in err and "moved to" in err
    assert "Traceback" not in err
    backups = list(paths.data_dir.glob("user-parts.sqlite.damaged-*"))
    assert len(backups) == 1 and backups[0].read_bytes() == b"not a database" * 100
    rc, out, _ = run(capsys, "catalog", "list", "--kind", "psu")  # the shipped parts still work
    assert rc == 0 and "psu-evga-supernova-1600-t2" in out


@pytest.mark.parametrize("kind", ["gpu", "motherboard", "cpu", "memory", "storage", "psu", "case", "cooler", "nic"])
def test_catalog_template_imports_as_it_is(tmp_path, capsys, kind):
    """Issue 13 item 18: a template to start from; its example row imports unchanged."""
    f = tmp_path / f"{kind}.csv"
    rc, _, err = run(capsys, "catalog", "template", kind, str(f))
    assert rc == 0 and "catalog import" in err
    header = f.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[:2] == ["kind", "id"]
    rc, out, err = run(capsys, "catalog", "import", str(f), "--dry-run")
    assert rc == 0 and "would add 1" in out, err
    rc, out, _ = run(capsys, "catalog", "template", kind)
    assert rc == 0 and out.startswith("kind,id,")


def test_catalog_template_unknown_kind(capsys):
    rc, _, err = run(capsys, "catalog", "template", "toaster")
    assert rc == 2 and "unknown kind" in err


def test_arrange_names_the_limit_uses_vertical_mounts_and_exits_1_when_cards_do_not_fit(tmp_path, capsys):
    # Issue 13 item 3: four 3-slot open-air cards on a 7-slot X99 board.
    strix = "gpu-asus-rtx-3090-strix-oc"
    no_case, in_case = tmp_path / "n.rig", tmp_path / "c.rig"
    base = ["--board", "mb-asrock-x99-ws-e"] + ["--gpu", strix] * 4
    assert run(capsys, "new", *base, "-o", str(no_case))[0] == 0
    assert run(capsys, "new", *base, "--case", "case-bequiet-dark-base-pro-901", "-o", str(in_case))[0] == 0
    # No case: the cards cannot be placed without errors: exit 1, the cooling named as the limit,
    # no advice to buy the 7-slot board the build already has.
    rc, out, _ = run(capsys, "arrange", str(no_case))
    assert rc == 1 and "Cooling is the limit" in out and "7-slot workstation board" not in out
    # The case lists vertical mounts: the arranger uses them, says so, and the result has no errors.
    rc, out, _ = run(capsys, "arrange", str(in_case), "--json")
    data = json.loads(out)
    assert rc == 0 and data["fits"]
    assert any("vertical mount" in a for a in data["advice"])
    assert data["mounts"].count("riser") >= 2


def test_arrange_names_the_case_when_the_case_is_the_limit(tmp_path, capsys):
    # Issue 13 item 3: four 2-slot blowers on the 7-slot X99 board fit only in 1, 3, 5, 7; the last
    # reaches past the 7 positions of a case without vertical mounts.
    f = tmp_path / "c.rig"
    assert run(capsys, "new", "--board", "mb-asrock-x99-ws-e", "--case", "case-lian-li-o11-dynamic-evo",
               *["--gpu", "gpu-asus-rtx-3090-turbo"] * 4, "-o", str(f))[0] == 0
    rc, out, _ = run(capsys, "arrange", str(f))
    assert rc == 1
    assert "The case is the limit: the Lian Li O11 Dynamic EVO has 7 expansion positions" in out
    assert "board is the limit" not in out and "7-slot workstation board" not in out
