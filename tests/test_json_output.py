"""Every ``--json`` command, given hostile inputs (the highest price per kWh a build may hold, a day of
load, a budget of 0, a cluster without a working link, an empty lab database), writes standard JSON:
never NaN or Infinity, which JSON has not (Python writes them; JavaScript's JSON.parse refuses)."""
from __future__ import annotations

import argparse
import json

import pytest

from rigbuilder.cli import main, make_parser
from rigbuilder.commands.common import json_safe
from rigbuilder.domain.build import Settings
from rigbuilder.domain.cluster import ClusterPlan, Machine, Network
from rigbuilder.files import buildfile, clusterfile
from tests.builds import seed003_node, x99_4x3090

QUADRO = "gpu-nvidia-quadro-rtx-5000"
PCPP = ("PCPartPicker Part List: https://pcpartpicker.com/list/x\n\n"
        "Video Card: NVIDIA Founders Edition GeForce RTX 3090 24 GB Video Card  (Purchased For $1e309)\n"
        "Power Supply: nothing like it 1e309 W  ($NaN @ Nowhere)\n"
        "Memory: 999999999999 x 32 GB  (Purchased For $-Infinity)\n")


def strict(text: str):
    def refuse(constant):
        raise AssertionError(f"{constant} in JSON output")

    return json.loads(text, parse_constant=refuse)


def json_commands() -> set[str]:
    """Every command of the command line that takes --json, read from its parser."""
    found = set()

    def walk(p: argparse.ArgumentParser, path: list[str]) -> None:
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sp in a.choices.items():
                    walk(sp, path + [name])
        if any("--json" in a.option_strings for a in p._actions):
            found.add(" ".join(path))

    walk(make_parser(), [])
    return found


@pytest.fixture
def files(tmp_path):
    hot = x99_4x3090()
    hot.settings = Settings(region="US-15A", price_per_kwh=100.0, currency="USD", load_hours_per_day=24.0,
                            idle_hours_per_day=0.0, days_per_month=31.0, budget=0.0)
    buildfile.save(hot, tmp_path / "hot.rig")
    empty = buildfile.Build(name="empty")
    buildfile.save(empty, tmp_path / "empty.rig")
    buildfile.save(seed003_node(QUADRO, 4), tmp_path / "node.rig")
    clusterfile.save(ClusterPlan("unlinked", (Machine("node", "node.rig", 3, ()),), Network("switch", "roce")),
                     tmp_path / "c.rigcluster")
    (tmp_path / "list.txt").write_text(PCPP)
    (tmp_path / "prices.json").write_text(json.dumps([
        {"part": QUADRO, "amount": 1e308, "currency": "USD"}, {"part": QUADRO, "amount": "NaN", "currency": "USD"},
        {"part": QUADRO, "amount": "-Infinity", "currency": "USD"}, {"part": QUADRO, "amount": 0, "currency": "USD"}]))
    rows = ["timestamp, index, name, power.draw [W], power.limit [W], temperature.gpu, utilization.gpu [%]"]
    for i in range(40):  # idle, then loaded; a reading and every limit missing ("[N/A]")
        for g in range(4):
            watts = "25.00 W" if i < 10 else ("[N/A]" if i == 20 else "340.00 W")
            rows.append(f"2026/11/20 10:00:{i:02d}.000, {g}, NVIDIA GeForce RTX 3090, {watts}, [N/A], 70, "
                        f"{'0' if i < 10 else '100'} %")
    (tmp_path / "log.csv").write_text("\n".join(rows) + "\n")
    return tmp_path


CASES = {
    "catalog list": ["catalog", "list", "gpu", "--json"],
    "catalog show": ["catalog", "show", QUADRO, "--json"],
    "check": ["check", "{d}/hot.rig", "--json"],
    "arrange": ["arrange", "{d}/hot.rig", "--json"],
    "limits": ["limits", "{d}/hot.rig", "--json"],
    "power": ["power", "{d}/empty.rig", "--json"],
    "cost": ["cost", "{d}/hot.rig", "--json"],
    "price list": ["price", "list", QUADRO, "--currency", "JPY", "--json"],
    "price import": ["price", "import", "{d}/prices.json", "--json"],
    "import-list": ["import-list", "{d}/list.txt", "--json"],
    "advise gpus": ["advise", "gpus", "--workload", "llm-inference", "--params", "1e13", "--budget", "0.01", "--json"],
    "advise build": ["advise", "build", "{d}/hot.rig", "--workload", "bert-training", "--json"],
    "optimise": ["optimise", "--budget", "1", "--price-kwh", "100", "--hours-per-day", "24", "--idle-hours-per-day", "0", "--top", "1", "--json"],
    "optimize": ["optimize", "--budget", "1", "--price-kwh", "100", "--top", "1", "--json"],
    "compare": ["compare", "{d}/hot.rig", "{d}/empty.rig", "--json"],
    "cluster check": ["cluster", "check", "{d}/c.rigcluster", "--json"],
    "cluster plan": ["cluster", "plan", "{d}/c.rigcluster", "--json"],
    "lab status": ["lab", "status", "--db", "{d}/lab.sqlite", "--json"],
    "lab stock": ["lab", "stock", "--db", "{d}/lab.sqlite", "--json"],
    "lab calibration": ["lab", "calibration", "--db", "{d}/lab.sqlite", "--json"],
    "lab price": ["lab", "price", "--db", "{d}/lab.sqlite", "--set", QUADRO, "999999999", "USD", "--json"],
    "noise": ["noise", "{d}/hot.rig", "--json"],
    "measured import": ["measured", "import", "{d}/log.csv", "--build", "{d}/hot.rig", "--json"],
    "measured show": ["measured", "show", "{d}/hot.rig", "--json"],
    "price update": ["price", "update", "{d}/prices.json", "--dry-run", "--json"],
}


def test_the_cases_cover_every_json_command():
    assert json_commands() == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_output_is_standard_json(name, files, capsys, monkeypatch):
    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    rc = main([a.format(d=files) for a in CASES[name]])
    out, err = capsys.readouterr()
    assert rc in (0, 1, 2) and "Traceback" not in err
    assert rc != 2, err  # the inputs are hostile, yet each command has an answer to give
    strict(out)


def test_json_safe_writes_null_for_what_is_not_finite():
    assert json_safe({"a": [float("inf"), -float("inf"), float("nan"), 1.5, (2.0, float("nan"))], "b": "inf"}) == {
        "a": [None, None, None, 1.5, [2.0, None]], "b": "inf"}
