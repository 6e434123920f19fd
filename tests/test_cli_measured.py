"""``rigbuilder measured import/show``, ``--no-calibration`` and the report's Measured section
(issue 42), on the real two-GPU log and on logs that must change nothing."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rigbuilder.config import Paths
from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.files.buildfile import save
from tests.cli_lang import run

REAL = Path(__file__).parent / "files" / "data" / "telemetry" / "titanx-2gpu-smi.csv"
TITAN = "gpu-nvidia-titan-xp"


@pytest.fixture
def rig(tmp_path):
    b = Build(name="Two TITAN Xp", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
              psus=["psu-evga-supernova-1600-t2"], gpus=[GpuPlacement(TITAN, p) for p in (1, 3)],
              settings=Settings(region="US-15A", price_per_kwh=0.16, currency="USD"))
    f = tmp_path / "titan.rig"
    save(b, f)
    return f


def test_import_compares_keeps_and_calibrates(rig, capsys):
    rc, out, err = run(capsys, "measured", "import", str(REAL), "--build", str(rig))
    assert rc == 0, err
    assert "2 cards compared" in out and "no card index" in out
    assert "calibrated from your log of 2025-12-05: ×0.67" in out
    rc, out, _ = run(capsys, "measured", "show", str(rig), "--json")
    d = json.loads(out)
    assert d["calibration_on"] and d["calibration"][TITAN]["logs"] == 1
    (log,) = d["logs"]
    assert log["source"] == "titanx-2gpu-smi.csv" and log["date"] == "2025-12-05"
    c1 = log["cards"][0]
    assert (c1["gpu"], c1["planned_load_w"], c1["idle_w"]) == (1, 250.0, 17.6)
    assert c1["load_diff_pct"] == pytest.approx(100 * (c1["load_w"] - 250) / 250, abs=0.1)
    assert log["machine"]["planned_load_w"] == 500.0
    # the plan now uses the calibration, and says so; the switch turns it off
    rc, out, _ = run(capsys, "power", str(rig), "--json")
    gpu = json.loads(out)["components"][0]
    assert gpu["training_w"] == pytest.approx(250 * d["calibration"][TITAN]["factor"], abs=0.1)
    assert gpu["calibration"]["logs"] == 1
    rc, out, _ = run(capsys, "power", str(rig))
    assert "GPU 1: NVIDIA TITAN Xp: calibrated from your log of 2025-12-05" in out
    rc, out, _ = run(capsys, "cost", str(rig))
    assert "GPU 2: NVIDIA TITAN Xp: calibrated from your log of 2025-12-05" in out
    rc, out, _ = run(capsys, "power", str(rig), "--json", "--no-calibration")
    assert json.loads(out)["components"][0]["training_w"] == 250.0
    rc, out, _ = run(capsys, "--no-calibration", "measured", "show", str(rig))
    assert "Calibration is off" in out
    # the report prints the comparison
    rc, out, _ = run(capsys, "report", str(rig), "-o", "-", "--format", "md")
    assert "## Measured against the plan (titanx-2gpu-smi.csv, 2025-12-05)" in out
    assert "calibrated from your log of 2025-12-05" in out


def test_show_in_german(rig, capsys):
    run(capsys, "measured", "import", str(REAL), "--build", str(rig))
    rc, out, _ = run(capsys, "measured", "show", str(rig), "--lang", "de")
    assert rc == 0 and "kalibriert" in out and "05.12.2025" in out


def _user_db_bytes():
    p = Paths.from_env().user_db
    return p.read_bytes() if p.exists() else None


@pytest.mark.parametrize("text, message", [
    ("index, name, power.draw [W]\n0, NVIDIA GeForce RTX 4090, 30 W\n1, NVIDIA GeForce RTX 4090, 30 W\n",
     "line 2: card 0 is 'NVIDIA GeForce RTX 4090', and the build has no such GPU"),
    ("timestamp, index\n2026/11/20 10:00:00.000, 0\n", "line 1: no power.draw column"),
    ("index, power.draw [W]\n0, 30 W\n", "the log has 1 card, the build 2 GPUs"),
])
def test_an_odd_log_says_where_and_changes_nothing(rig, tmp_path, capsys, text, message):
    run(capsys, "measured", "import", str(REAL), "--build", str(rig))
    before = _user_db_bytes()
    bad = tmp_path / "odd.csv"
    bad.write_text(text)
    rc, out, err = run(capsys, "measured", "import", str(bad), "--build", str(rig))
    assert rc == 2 and "odd.csv" in err and message in err and "Traceback" not in err
    assert _user_db_bytes() == before


def test_a_map_chooses_and_a_bad_map_is_refused(rig, tmp_path, capsys):
    rc, _, err = run(capsys, "measured", "import", str(REAL), "--build", str(rig), "--map", "one=two")
    assert rc == 2 and "--map one=two: expected pairs such as 1=0,2=1" in err
    rc, out, err = run(capsys, "measured", "import", str(REAL), "--build", str(rig), "--map", "1=1,2=0", "--json")
    assert rc == 0, err
    assert [(c["gpu"], c["log_index"]) for c in json.loads(out)["cards"]] == [(1, 1), (2, 0)]


def test_show_without_logs_says_how(rig, capsys):
    rc, out, _ = run(capsys, "measured", "show", str(rig))
    assert rc == 0 and "No power log imported" in out


def test_a_log_that_is_not_a_file_is_refused(rig, tmp_path, capsys):
    rc, _, err = run(capsys, "measured", "import", str(tmp_path), "--build", str(rig))
    assert rc == 2 and "not a regular file" in err
    shutil.copy(REAL, tmp_path / "copy.csv")
    rc, _, err = run(capsys, "measured", "import", str(tmp_path / "copy.csv"), "--build", str(tmp_path / "none.rig"))
    assert rc == 2 and "none.rig" in err
