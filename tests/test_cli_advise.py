"""``rigbuilder advise gpus | build``: rankings, the build's figures, exit 2 on bad input."""
from __future__ import annotations

import json

import pytest

from rigbuilder.cli import main
from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.files.buildfile import save
from tests.builds import RTX3090_FE, x99_4x3090


def run(capsys, *args):
    try:
        rc = main(list(args))
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def test_advise_gpus_json(capsys):
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "qlora", "--params", "70e9", "--gpus", "4",
                     "--budget", "3000", "--currency", "EUR", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["workload"]["model"]["name"] == "Llama 2 70B" and d["n_gpus"] == 4
    recs = d["recommendations"]
    assert recs and all(r["n_gpus"] == 4 and r["price_total"] <= 3000 for r in recs)
    assert all(r["currency"] == "EUR" for r in recs)
    totals = [r["throughput_total"] for r in recs]
    assert totals == sorted(totals, reverse=True)


def test_advise_gpus_text_marks_measured_and_estimated(capsys):
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "cnn-training", "--limit", "0")
    assert rc == 0
    assert "measured" in out and "est. ~12%" in out
    assert "RTX 4090" in out


def test_advise_gpus_used_prices_and_value_sort(capsys):
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "lora", "--params", "13B", "--sort", "value",
                     "--condition", "used", "--currency", "USD", "--json")
    assert rc == 0
    pm = [r["per_money"] for r in json.loads(out)["recommendations"] if r["per_money"] is not None]
    assert pm == sorted(pm, reverse=True)


@pytest.mark.parametrize("args,msg", [
    (["--workload", "gpt"], "--workload gpt: unknown"),
    (["--workload", "qlora", "--params", "lots"], "not a parameter count"),
    (["--workload", "cnn-training", "--params", "7B"], "model size"),
    (["--workload", "qlora", "--gpus", "0"], "--gpus 0"),
    (["--workload", "qlora", "--budget", "-5"], "--budget -5"),
    (["--workload", "qlora", "--budget", "100", "--currency", "XYZ"], "--currency XYZ"),
    (["--workload", "qlora", "--currency", "euro"], "--currency euro"),
    (["--workload", "llm-inference", "--context", "0"], "--context 0"),
    (["--workload", "llm-inference", "--precision", "fp8"], "unknown precision"),
])
def test_advise_gpus_bad_input_exit_2_one_line(capsys, args, msg):
    rc, out, err = run(capsys, "advise", "gpus", *args)
    assert rc == 2 and msg in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_advise_build(tmp_path, capsys):
    f = tmp_path / "b.rig"
    save(x99_4x3090(280, RTX3090_FE), f)
    rc, out, _ = run(capsys, "advise", "build", str(f), "--workload", "qlora", "--params", "70B", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["fits"] and d["strategy"] == "zero3" and d["n_gpus"] == 4
    assert d["cards"][0]["power_fraction"] == pytest.approx(0.8)
    assert d["value"] == pytest.approx(d["cards"][0]["rate"] * 4 * d["efficiency"], rel=1e-3)
    m = d["money"]
    secs = 8 * 3600 * 365 * 3  # the build's 8 h a day under load, 3 years
    assert m["cost_per_million"] == pytest.approx(
        (m["purchase_total"] + 3 * m["energy_per_year"]) / (d["value"] * secs) * 1e6, rel=1e-3)
    assert m["purchase_incomplete"] == bool(m["unpriced_parts"])
    rc, out, _ = run(capsys, "advise", "build", str(f), "--workload", "cnn-training")
    assert rc == 0 and "Fits" in out and "images/s" in out


def test_advise_build_chipset_reason_in_text(tmp_path, capsys):
    f = tmp_path / "c.rig"
    save(Build(motherboard="mb-gigabyte-x570s-aorus-master",
               gpus=[GpuPlacement(RTX3090_FE, 2), GpuPlacement(RTX3090_FE, 7)]), f)
    rc, out, _ = run(capsys, "advise", "build", str(f), "--workload", "bert-training")
    assert rc == 0 and "GPU 2 on a chipset x4 slot" in out


def test_advise_build_bad_file_and_missing_sub(tmp_path, capsys):
    rc, _, err = run(capsys, "advise", "build", str(tmp_path / "none.rig"), "--workload", "lora")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    rc, _, err = run(capsys, "advise")
    assert rc == 2 and "gpus" in err


def test_report_with_a_workload_adds_the_estimated_throughput(tmp_path, capsys):
    f = tmp_path / "b.rig"
    save(x99_4x3090(280, RTX3090_FE), f)
    rc, out, _ = run(capsys, "report", str(f), "-o", "-", "--format", "md", "--workload", "qlora", "--params", "70B")
    assert rc == 0 and "Estimated throughput (QLoRA" in out and "split over 4 (ZeRO-3)" in out
    rc, out, _ = run(capsys, "report", str(f), "-o", "-", "--format", "txt")
    assert rc == 0 and "Estimated throughput" not in out
    rc, _, err = run(capsys, "report", str(f), "-o", "-", "--params", "70B")
    assert rc == 2 and "--params needs --workload" in err
    rc, _, err = run(capsys, "report", str(f), "-o", "-", "--workload", "gpt")
    assert rc == 2 and "unknown" in err and len(err.strip().splitlines()) == 1
