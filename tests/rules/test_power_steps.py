"""Issue 37 (answers2): the power-limit steps of an answer each name their best build (the cards on
the board, the throughput, the total cost), or why the step has none, in the text and in the JSON, so
a builder sees what full power would buy against the winner."""
from __future__ import annotations

import json

from rigbuilder.domain.i18n import render
from rigbuilder.rules.optimise import LIMIT_STEPS, Request, optimise
from rigbuilder.rules.optimise.scoring import shipped_scorer
from tests.rules.optimise_helpers import StandIn

TODAY = "2026-11-26"
RTX3090_TURBO = "gpu-gigabyte-rtx-3090-turbo"


def _steps(res) -> list[str]:
    lines = [render(x, "en") for x in res.explanation]
    head = next(i for i, ln in enumerate(lines) if ln.startswith("Power limit: "))
    assert lines[head].endswith("Each step's best build:"), lines[head]
    return lines[head + 1:head + 1 + len(res.request.power_limits)]


def test_each_power_limit_step_names_its_best_build_or_why_none(index):
    res = optimise(Request(budget=1500.0, currency="EUR", gpus_now=1, grow_to=2, power_limits=(1.0, 0.8, 0.7),
                           objective="per-cost", today=TODAY), index, StandIn())
    assert res.best is not None, res.infeasible
    steps = _steps(res)
    assert [s.split(":")[0] for s in steps] == ["At full power", "At 80% of board power", "At 70% of board power"]
    assert len(res.steps) == 3
    for (f, c, why), line in zip(res.steps, steps):
        if c is None:
            assert line.startswith(f"At {'full power' if f >= 1 else f'{f:.0%} of board power'}: no build (")
            assert why and render(why, "en") in line
            continue
        # the build: its cards and board, its throughput with the unit, its total and purchase now
        assert render(c.label, "en") in line and " x " in line and " on " in line, line
        assert f" {c.unit} for " in line and " USD" not in line and " EUR in total (" in line, line
        assert f"{c.total:,.2f} EUR in total ({c.cost_now:,.2f} EUR now)" in line, line
    winner = next(c for _f, c, _w in res.steps if c is res.best)
    assert winner is res.best


def test_a_step_without_a_build_says_why_in_text_and_json(index, capsys, monkeypatch):
    """Seed 001: four RTX 3090 Turbo on a US 15 A circuit: full power has no build (the PSU), 70% has
    the answer; the JSON's ``power_steps`` says the same per step."""
    from rigbuilder.cli import main

    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    res = optimise(Request(currency="USD", condition="both", gpus_now=4, region="US-15A", power_limits=LIMIT_STEPS,
                           insist=(("gpu", RTX3090_TURBO),), today=TODAY), index, shipped_scorer("cnn-training"))
    steps = _steps(res)
    assert steps[0].startswith("At full power: no build (psu: "), steps[0]
    assert any(" x GeForce RTX 3090 TURBO 24G on " in s and " images/s for " in s for s in steps), steps
    rc = main(["optimise", "--currency", "USD", "--prices", "both", "--gpus", "4", "--region", "US-15A",
               "--power-limit", "auto", "--insist", f"gpu={RTX3090_TURBO}", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    js = out["power_steps"]
    assert [s["power_limit_pct"] for s in js] == [100.0, 90.0, 80.0, 70.0]
    assert js[0]["name"] is None and js[0]["infeasible"].startswith("psu: ")
    built = [s for s in js if s["name"]]
    assert built and all(s["gpus_grown"] == 4 and s["gpu"] == RTX3090_TURBO and s["total"] > 0 and s["throughput"] > 0
                         for s in built)
    assert out["builds"][0]["name"] in [s["name"] for s in built]
