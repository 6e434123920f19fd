"""rigbuilder optimise: table, JSON, -o with the grown stage beside it, exit codes (issue 18).

Until the adviser's throughput model is in this version, these tests put the tests' stand-in
throughput (tests/rules/optimise_helpers.py) behind the command."""
from __future__ import annotations

import json

import pytest

from rigbuilder.cli import main
from tests.rules.optimise_helpers import StandIn
from tests.cli_lang import run

SEEDLIKE = ["optimise", "--budget", "2000", "--currency", "EUR", "--gpus", "1", "--grow-to", "4",
            "--workload", "cnn-training", "--prices", "both"]


@pytest.fixture(autouse=True)
def stand_in(monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())


def test_growth_plan_final_stage_passes_check(tmp_path, capsys):
    out_file = tmp_path / "best.rig"
    rc, out, err = run(capsys, *SEEDLIKE, "-o", str(out_file))
    assert rc == 0, err
    grown = tmp_path / "best-grown.rig"
    assert out_file.exists() and grown.exists()
    assert "Best build, parts:" in out and "Budget:" in out
    for f in (out_file, grown):
        rc, out, err = run(capsys, "check", str(f))
        assert rc == 0, out  # no errors, today and grown
    rc, out, _ = run(capsys, "check", str(grown), "--json")
    assert json.loads(out)["counts"]["error"] == 0
    # Issue 44: FILE-grown.rig is a file the user did not name; it is replaced only with --force
    grown.write_text("precious")
    rc, _, err = run(capsys, *SEEDLIKE, "-o", str(out_file))
    assert rc == 2 and "--force" in err and grown.read_text() == "precious"
    assert run(capsys, *SEEDLIKE, "-o", str(out_file), "--force")[0] == 0 and grown.read_text() != "precious"


def test_json(capsys):
    rc, out, _ = run(capsys, *SEEDLIKE, "--json", "--top", "3")
    data = json.loads(out)
    assert rc == 0 and data["infeasible"] is None
    assert 1 <= len(data["builds"]) <= 3
    b = data["builds"][0]
    for key in ("cost_now", "cost_growth", "energy", "total", "throughput", "per_1000", "vram_gb_total",
                "peak_dc_w", "peak_wall_w", "energy_per_month", "findings_grown", "parts", "positions_grown"):
        assert key in b
    assert b["gpus_now"] == 1 and b["gpus_grown"] == 4 and b["cost_now"] <= 2000
    assert data["bounds"] and data["explanation"]


def test_infeasible_exit_1_with_the_reason(capsys):
    rc, out, _ = run(capsys, "optimise", "--budget", "300", "--gpus", "1", "--grow-to", "4")
    assert rc == 1
    assert "cannot be met: budget:" in out
    rc, out, _ = run(capsys, "optimise", "--budget", "300", "--gpus", "1", "--grow-to", "4", "--json")
    data = json.loads(out)
    assert rc == 1 and data["builds"] == [] and data["infeasible"].startswith("budget")


@pytest.mark.parametrize("args, words", [
    (["--gpus", "0"], "GPUs now"),
    (["--grow-to", "9"], "grow to"),
    (["--budget", "lots"], "--budget lots"),
    (["--own", "case"], "--own case"),
    (["--own", "case=case-no-such"], "no such part"),
    (["--currency", "E1"], "--currency"),
])
def test_bad_input_exit_2(capsys, args, words):
    rc, out, err = run(capsys, "optimise", *args)
    assert rc == 2 and words in err and "Traceback" not in err


def test_without_the_throughput_model_exit_2(capsys, monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    def missing(workload, params=None):
        raise optimise_scoring.ThroughputUnavailable("the throughput model is not part of this version")

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", missing)
    rc, _, err = run(capsys, *SEEDLIKE)
    assert rc == 2 and "throughput model" in err


def test_power_limit_option(capsys):
    rc, out, _ = run(capsys, "optimise", "--currency", "USD", "--prices", "both", "--gpus", "4", "--min-vram", "24",
                     "--region", "US-15A", "--power-limit", "80", "--json")
    data = json.loads(out)
    assert rc == 0 and data["request"]["power_limit_pct"] == 80
    assert data["builds"][0]["power_limit_w"] is not None
    rc, _, err = run(capsys, "optimise", "--power-limit", "30")
    assert rc == 2 and "--power-limit 30" in err


def test_an_incomplete_answer_says_so_before_its_parts(capsys):
    from rigbuilder.domain.build import ESSENTIAL_ROLES

    rc, out, _ = run(capsys, *SEEDLIKE, "--json")
    b = json.loads(out)["builds"][0]
    assert set(b["without"]) <= set(ESSENTIAL_ROLES)
    rc, out, _ = run(capsys, *SEEDLIKE)
    if b["without"]:
        assert out.index("Incomplete: without") < out.index("Best build, parts:")
    else:
        assert "Incomplete" not in out


def test_the_labs_stock_is_owned_and_costs_nothing(tmp_path, capsys, monkeypatch):
    """--own-lab: the parts in the lab's stock are owned parts; a kind the lab has several of is named."""
    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    db = str(tmp_path / "lab.sqlite")
    case, gpu = "case-corsair-750d-airflow", "gpu-asus-rtx-2080-ti-turbo"  # the case has no price: owned, it needs none
    for pid, n in ((case, 1), (gpu, 1), ("psu-corsair-cx750m-2021", 1), ("psu-evga-supernova-1000-p2", 2),
                   ("gpu-no-such-card", 1)):
        assert main(["lab", "stock", "--db", db, "--add", pid, str(n)]) == 0
    capsys.readouterr()
    rc, out, err = run(capsys, *SEEDLIKE, "--own-lab", "--db", db, "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert sorted(d["request"]["own"]) == [f"case={case}", f"gpu={gpu}"]
    assert "several parts of kind psu" in err and "--own psu=ID" in err and "gpu-no-such-card" in err
    best = d["builds"][0]
    rows = {p["id"]: p for p in best["parts"]}
    assert rows[case]["price_each"] == 0 and best["gpu"] == gpu
    assert rows[gpu]["units"] == 4 and rows[gpu]["price_source"].startswith("1 owned")
    rc, _, err = run(capsys, *SEEDLIKE, "--own-lab")  # without a database: exit 2, saying how to name one
    assert rc == 2 and "--db URL" in err


def test_lab_owned_parts_follow_the_request(index):
    from rigbuilder.commands.optimise import lab_owned
    from rigbuilder.rules.optimise import Request

    stock = {"gpu-nvidia-rtx-a4000": 6, "case-corsair-750d-airflow": 1, "psu-corsair-cx750m-2021": 1}
    own, notes = lab_owned(Request(gpus_now=1, grow_to=4), stock, index)
    assert own.count(("gpu", "gpu-nvidia-rtx-a4000")) == 4 and ("psu", "psu-corsair-cx750m-2021") in own
    assert notes == []
    # a kind the user names (owned or insisted) is the user's choice, not the lab's
    own, _ = lab_owned(Request(insist=(("psu", "psu-evga-supernova-1000-p2"),)), stock, index)
    assert not [k for k, _ in own if k == "psu"] and own.count(("gpu", "gpu-nvidia-rtx-a4000")) == 1


def test_thousands_of_unknown_stock_parts_are_summarised(index):
    """Issue 44: 5,000 unknown parts in the lab's stock made one 59 KB warning line."""
    from rigbuilder.commands.optimise import UNKNOWN_SHOWN, lab_owned
    from rigbuilder.rules.optimise import Request

    stock = {f"gpu-lab-unknown-{i:05d}": 1 for i in range(5000)}
    _, notes = lab_owned(Request(), stock, index)
    assert len(notes) == 1 and len(notes[0]) < 1000
    assert "5000 parts" in notes[0] and f"and {5000 - UNKNOWN_SHOWN} more" in notes[0]
    assert "gpu-lab-unknown-00000" in notes[0] and "gpu-lab-unknown-04999" not in notes[0]
    _, notes = lab_owned(Request(), {"gpu-lab-unknown-1": 1}, index)  # a few: each named
    assert notes == ["the lab's stock names parts the catalog does not have: gpu-lab-unknown-1"]


def test_risers_in_an_open_frame_only_when_asked(tmp_path, capsys):
    """Issue 29: four triple-slot RTX 3090s fit no board's slots; with a riser and an open frame of the
    user's own (test fixtures) --risers stands them on risers; without it nothing meets the request."""
    from rigbuilder.catalog.schema import part_to_dict
    from tests.risers import frame, riser

    f = tmp_path / "mine.json"
    f.write_text(json.dumps([{"kind": p.KIND, **part_to_dict(p)} for p in (riser(id="riser-user-g4-300", length_mm=300, price=5.0),
                                                                          frame(id="case-user-frame"))]))
    assert run(capsys, "catalog", "import", str(f))[0] == 0
    ask = ["optimise", "--gpus", "4", "--prices", "both",  # the FE: its used price (no new price now)
           "--insist", "gpu=gpu-nvidia-rtx-3090-fe", "--insist", "case=case-user-frame",
           "--power-limit", "70", "--json"]
    rc, out, _ = run(capsys, *ask, "--risers")
    data = json.loads(out)
    assert rc == 0 and data["request"]["risers"] is True and data["request"]["riser_length_mm"] is None
    b = data["builds"][0]
    assert b["mounts"] == ["riser"] * 4 and b["risers"] == ["riser-user-g4-300"] * 4
    assert {"id": "riser-user-g4-300", "units": 4} == {k: v for p in b["parts"] if p["id"] == "riser-user-g4-300"
                                                       for k, v in p.items() if k in ("id", "units")}
    rc, out, _ = run(capsys, *ask)
    assert rc == 1 and json.loads(out)["request"]["risers"] is False
    rc, out, _ = run(capsys, *ask, "--risers", "--riser-length", "301")  # longer than the only riser reaching
    data = json.loads(out)
    assert data["request"]["riser_length_mm"] == 301
    assert all(r != "riser-user-g4-300" for b in data["builds"] for r in b["risers"])
    rc, _, err = run(capsys, *ask, "--risers", "--riser-length", "-5")
    assert rc == 2 and "--riser-length" in err


def test_objective_the_default_with_a_budget_and_part_names(capsys):
    """Issue 37: with a budget the default is the most throughput within it; the parts list names parts."""
    rc, out, _ = run(capsys, *SEEDLIKE, "--top", "2")
    assert rc == 0 and "Most throughput within the budget: " in out
    parts = out.split("Best build, parts:")[1].split("\n\n")[0]
    assert "mb-" not in parts and "gpu-" not in parts  # names, not ids
    rc, out, _ = run(capsys, *SEEDLIKE, "--objective", "per-cost", "--top", "1", "--json")
    data = json.loads(out)
    assert rc == 0 and data["request"]["objective"] == "per-cost" and data["request"]["allow_warnings"] is False
    assert data["explanation"][len([x for x in data["explanation"] if x.startswith(("Stale", "Price age", "Currency"))])] \
        .startswith("Best throughput per total cost")


@pytest.mark.parametrize("args, words", [
    (["--gpus", "4-1"], "--gpus"),
    (["--gpus", "two"], "--gpus"),
    (["--gpus", "1-3", "--grow-to", "4"], "without growth"),
    (["--choice", "nope=off"], "--choice"),
    (["--compare", "9"], "--compare"),
    (["--target-throughput", "5"], "--objective cheapest"),
])
def test_issue_37_options_bad_input_exit_2(capsys, args, words):
    rc, _, err = run(capsys, "optimise", *args)
    assert rc == 2 and words in err


class BandedStandIn(StandIn):
    """The stand-in ranking, with the workload whose bands the doors print (issue 39)."""

    def __init__(self) -> None:
        from rigbuilder.models.workloads import workload

        self.workload = workload("cnn-training")


def test_every_throughput_is_printed_with_its_band(capsys, monkeypatch):
    """Issue 39: the text has a '±' column and the best build's figure with its band; --json the band beside the
    value and every estimate with its band (models.estimates)."""
    from rigbuilder.models import estimates as E
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: BandedStandIn())
    args = ["optimise", "--budget", "3000", "--currency", "EUR", "--gpus", "2", "--top", "2"]
    rc, out, err = run(capsys, *args, "--json")
    assert rc == 0, err
    builds = json.loads(out)["builds"]
    for b in builds:
        est = b["estimates"]
        assert b["throughput_band"] == est["throughput"]["band"] and b["throughput_band"] > 0
        assert est["throughput"]["value"] == pytest.approx(b["throughput"], abs=1e-3)
        assert est["throughput"]["low"] < b["throughput"] < est["throughput"]["high"]
        assert est["scaling"]["band"] > 0 and est["memory_per_card"]["unit"] == "GB"
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    lines = out.splitlines()
    head = next(x for x in lines if x.lstrip().startswith("#"))
    assert " \u00b1 " in head and "'\u00b1' = its error band" in out
    band = f"\u00b1{builds[0]['throughput_band']:.0%}"
    row = next(x for x in lines if x.startswith(" 1 "))
    assert row.split()[row.split().index(band) - 1] == f"{builds[0]['throughput']:.3g}"  # beside the figure
    assert f"The best build's throughput: {builds[0]['throughput']:.3g} TFLOPS (test stand-in) {band} (" \
           f"{E.HOW[builds[0]['estimates']['throughput']['how']]})." in out


def test_the_band_in_german(capsys, monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: BandedStandIn())
    rc, out, err = run(capsys, "--lang", "de", "optimise", "--budget", "3000", "--currency", "EUR", "--gpus", "2",
                       "--top", "1")
    assert rc == 0, err
    assert "Durchsatz der besten Konfiguration" in out and "\u00b1" in out and " %" in out


def test_a_table_row_names_the_card_by_its_chip_and_variant():
    """The optimiser's table names a card as 'RTX 4090 iCHILL', not 'GeForce RTX…' cut short: the chip without
    the brand, the maker's own variant words, no maker, memory size, memory type or colour."""
    from types import SimpleNamespace as S

    from rigbuilder.commands.optimise import compact_card_name

    cases = [(("Inno3D", "GeForce RTX 4090 iCHILL Black", "GeForce RTX 4090"), "RTX 4090 iCHILL"),
             (("ASUS", "Turbo GeForce RTX 3090 24GB (TURBO-RTX3090-24G)", "GeForce RTX 3090"), "RTX 3090 Turbo"),
             (("AMD", "AMD 100-300000075 Radeon PRO W7800 32GB GDDR6 Black", "Radeon PRO W7800"), "Radeon PRO W7800"),
             (("MSI", "MSI GeForce RTX 3060 VENTUS 2X XS 12GB", "GeForce RTX 3060 12 GB"), "RTX 3060 VENTUS 2X XS"),
             (("NVIDIA", "TITAN V", "TITAN V"), "TITAN V"),
             (("Acme", "Some Card", None), "Some Card")]
    for (maker, model, chip), want in cases:
        assert compact_card_name(S(maker=maker, model=model, chip_model=chip)) == want, (model, want)
