"""``rigbuilder new`` and ``rigbuilder edit`` build through the same edits as the window; the
figure commands refuse builds naming parts the catalog lacks."""
from __future__ import annotations

import json

import pytest

from rigbuilder.files.buildfile import load, save
from tests.builds import ZOTAC_2070, frank_2070, x99_4x3090
from tests.cli_lang import run

X399 = "mb-gigabyte-x399-aorus-pro"


@pytest.mark.parametrize("args, words", [
    (["--board", X399, "--gpu", f"{ZOTAC_2070}@9"], ["--gpu", "@9", "no slot at position 9"]),
    (["--board", X399, "--gpu", f"{ZOTAC_2070}@4"], ["no slot at position 4", "1, 2, 3, 5, 7"]),
    (["--gpu", "psu-evga-supernova-1600-t2"], ["is a psu, not a gpu"]),
    (["--cpu", ZOTAC_2070], ["--cpu", "is a gpu, not a cpu"]),
    (["--gpu", f"{ZOTAC_2070}@21"], ["not between 1 and 20"]),
    (["--memory", "mem-corsair-vengeance-lpx-2x8gb-ddr4-3000x99"], ["between 1 and 64"]),
])
def test_new_refuses_with_one_line_and_writes_nothing(tmp_path, capsys, args, words):
    out = tmp_path / "x.rig"
    rc, _, err = run(capsys, "new", *args, "-o", out)
    assert rc == 2 and not out.exists()
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for w in words:
        assert w in err


def test_edit_grows_a_build_step_by_step(tmp_path, capsys):
    f = tmp_path / "b.rig"
    save(frank_2070(1), f)
    rc, _, err = run(capsys, "edit", f, "--add-gpu", ZOTAC_2070, "--add-gpu", f"{ZOTAC_2070}@riser",
                     "--move-gpu", "2@5", "--limit", "1=150", "--limit", "all=160", "--limit", "3=none",
                     "--set", "psu2=psu-evga-supernova-1600-t2", "--name", "Grown", "-o", f)
    assert rc == 0, err
    b = load(f)
    assert [(g.position, g.mount, g.power_limit_w) for g in b.gpus] == [
        (1, "slot", 160.0), (5, "slot", 160.0), (None, "riser", None)]
    assert b.psus == ["psu-evga-supernova-1000-p2", "psu-evga-supernova-1600-t2"] and b.name == "Grown"
    rc, _, _ = run(capsys, "edit", f, "--remove", "gpu:3", "--remove", "psu2", "--remove", "storage:2", "-o", f)
    b = load(f)
    assert rc == 0 and len(b.gpus) == 2 and len(b.psus) == 1 and len(b.storage) == 1


@pytest.mark.parametrize("args, words", [
    (["--move-gpu", "5@3"], ["--move-gpu 5@3", "GPU 5"]),
    (["--move-gpu", "1@4"], ["no slot at position 4"]),
    (["--remove", "gpu:0"], ["not a GPU number"]),
    (["--set", "cpu=" + ZOTAC_2070], ["is a gpu, not a cpu"]),
    (["--limit", "1=abc"], ["not a number of watts"]),
    (["--limit", "1=9000"], ["between 1 and 2000 W"]),
    (["--add-gpu", "gpu-nope"], ["gpu-nope", "no such part"]),
    (["--set", "wheels=x"], ["ROLE=ID"]),
])
def test_edit_refuses_and_writes_nothing(tmp_path, capsys, args, words):
    f = tmp_path / "b.rig"
    save(frank_2070(1), f)
    before = f.read_bytes()
    out = tmp_path / "out.rig"
    rc, _, err = run(capsys, "edit", f, *args, "-o", out)
    assert rc == 2 and not out.exists() and f.read_bytes() == before
    assert len(err.strip().splitlines()) == 1
    for w in words:
        assert w in err


@pytest.mark.parametrize("cmd", [["power"], ["cost"], ["limits"], ["report", "--format", "md", "-o", "-"]])
def test_figures_refuse_unknown_parts(tmp_path, capsys, cmd):
    b = x99_4x3090()
    b.gpus[2].part_id = "gpu-not-in-this-catalog"
    b.psus = ["psu-gone"]
    f = tmp_path / "u.rig"
    save(b, f)
    rc, out, err = run(capsys, cmd[0], f, *cmd[1:])
    assert rc == 2 and "gpu-not-in-this-catalog" in err and "psu-gone" in err and not out
    rc, out, _ = run(capsys, "check", f, "--json")  # check reports them as findings
    codes = {x["code"] for x in json.loads(out)["findings"]}
    assert rc == 1 and any(c.startswith("catalog.") or "missing" in c or "unknown" in c for c in codes)


def test_edit_puts_a_card_on_a_riser_part_and_takes_it_off(tmp_path, capsys):
    """Issue 29: ``--riser N=ID`` names the riser a card stands on (a user's riser part here)."""
    from rigbuilder.catalog.schema import part_to_dict
    from tests.risers import riser

    parts = tmp_path / "risers.json"
    parts.write_text(json.dumps([{"kind": "riser", **part_to_dict(riser(id="riser-user-g4-300", length_mm=300))}]))
    assert run(capsys, "catalog", "import", parts)[0] == 0
    f = tmp_path / "b.rig"
    save(x99_4x3090(), f)
    rc, _, err = run(capsys, "edit", f, "--riser", "4=riser-user-g4-300", "-o", f)
    assert rc == 0, err
    g = load(f).gpus[3]
    assert (g.mount, g.position, g.riser) == ("riser", 7, "riser-user-g4-300")
    assert run(capsys, "edit", f, "--remove", "riser:4", "-o", f)[0] == 0
    assert load(f).gpus[3].riser is None and load(f).gpus[3].mount == "riser"
    rc, _, err = run(capsys, "edit", f, "--riser", "4=gpu-nvidia-rtx-3090-fe", "-o", f)
    assert rc == 2 and "not a riser" in err and "Traceback" not in err
    rc, _, err = run(capsys, "edit", f, "--riser", "4", "-o", f)
    assert rc == 2 and "N=ID or N=none" in err
