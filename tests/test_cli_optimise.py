"""rigbuilder optimise: table, JSON, -o with the grown stage beside it, exit codes (issue 18).

Until the adviser's throughput model is in this version, these tests put the tests' stand-in
throughput (tests/rules/optimise_helpers.py) behind the command."""
from __future__ import annotations

import json

import pytest

from rigbuilder.cli import main
from tests.rules.optimise_helpers import StandIn

SEEDLIKE = ["optimise", "--budget", "2000", "--currency", "EUR", "--gpus", "1", "--grow-to", "4",
            "--workload", "cnn-training", "--prices", "both"]


@pytest.fixture(autouse=True)
def stand_in(monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())


def run(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


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
