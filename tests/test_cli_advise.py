"""``rigbuilder advise gpus | build``: rankings, the build's figures, exit 2 on bad input."""
from __future__ import annotations

import json

import pytest

from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.files.buildfile import save
from tests.builds import RTX3090_FE, x99_4x3090
from tests.cli_lang import run


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
    err = round(100 * __import__("rigbuilder.models.throughput", fromlist=["x"]).training_band("resnet50"))
    assert "measured" in out and f"est. \u00b1{err}%" in out
    assert "RTX 4090" in out
    assert "held out of the fit lie within it" in out  # the fastest card's figure with its band


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
    (["--workload", "llm-inference", "--precision", "fp9"], "unknown precision"),
    (["--workload", "llm-inference", "--precision", "q4_k_m", "--engine", "vllm"], "does not load"),
    (["--workload", "lora", "--precision", "q4_k_m"], "inference format"),
    (["--workload", "llm-inference", "--model", "gpt-5"], "unknown model"),
    (["--workload", "llm-inference", "--software", "metal"], "--software metal"),
    (["--workload", "llm-inference", "--offload", "99"], "fewer than"),
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


def _cards(capsys, *args):
    rc, out, err = run(capsys, "advise", "gpus", "--workload", "llm-inference", *args, "--json")
    assert rc == 0, err
    return json.loads(out)


def test_70b_q4_k_m_on_two_24gb_cards(capsys):
    """Issue 28: two 24 GB cards hold Llama 2 70B at Q4_K_M (4.89 bits per weight) and are listed."""
    d = _cards(capsys, "--params", "70B", "--precision", "q4_k_m", "--gpus", "2")
    recs = d["recommendations"]
    assert d["workload"]["precision"] == "q4_k_m" and "q4_k_m" in d["workload"]["label"]
    assert any(r["vram_gb"] == 24 and r["n_gpus"] == 2 for r in recs)
    r24 = next(r for r in recs if r["vram_gb"] == 24)
    assert r24["strategy"] == "pipeline" and r24["vram_need_per_gpu_gb"] < 24 * 2 ** 30 / 1e9
    assert r24["throughput_per_card"]["typical_error"] > 0 and r24["throughput_per_card"]["band"]


def test_7b_fp16_on_one_16gb_card_at_4096_tokens(capsys):
    d = _cards(capsys, "--params", "7B", "--precision", "fp16", "--gpus", "1", "--limit", "0")
    assert d["workload"]["context"] == 4096
    assert any(r["vram_gb"] == 16 for r in d["recommendations"])
    assert not any(r["vram_gb"] == 12 for r in d["recommendations"])


def test_70b_fp16_finds_24gb_cards_at_six_or_eight(capsys):
    d = _cards(capsys, "--params", "70B", "--precision", "fp16", "--limit", "0")
    counts = {r["n_gpus"] for r in d["recommendations"] if r["vram_gb"] == 24}
    assert counts and counts <= {6, 7, 8} and min(counts) == 6


def test_header_says_what_was_asked(capsys):
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "llm-inference", "--params", "70B", "--precision", "int4",
                     "--gpus", "2", "--limit", "3")
    assert rc == 0
    head = out.splitlines()[0]
    assert "int4" in head and "fp16" not in head
    assert "4.5 bits per weight" in out  # int4 is llama.cpp's Q4_0 at its real size


def test_software_rocm_lists_amd_after_modelled_cards(capsys):
    d = _cards(capsys, "--params", "7B", "--precision", "q4_k_m", "--software", "cuda,rocm", "--limit", "0")
    soft = [r["throughput_per_card"]["software"] for r in d["recommendations"]]
    assert "not modelled" in soft and "modelled" in soft
    assert soft == sorted(soft, key=lambda s: s != "modelled")  # no unmodelled card above a modelled one
    d = _cards(capsys, "--params", "7B", "--precision", "q4_k_m", "--limit", "0")
    assert all(r["throughput_per_card"]["software"] == "modelled" for r in d["recommendations"])


def test_engine_and_bands_in_text_and_json(capsys):
    """Issue 39: the engine is an input; every estimate prints its band, in the text and in --json."""
    from rigbuilder.models import throughput as T
    from rigbuilder.models import vram as V

    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "llm-inference", "--engine", "exllamav2",
                     "--precision", "exl2-4.0", "--limit", "3")
    assert rc == 0 and "exllamav2" in out
    band = round(100 * T.engine_band("exllamav2").band)
    assert f"est. \u00b1{band}%" in out and "held out of the fit" in out
    assert f"GB \u00b1{round(100 * V.WEIGHTS_BAND)}%" in out and "Memory band:" in out
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "llm-inference", "--engine", "vllm", "--precision",
                     "awq-4bit-g128", "--context", "8192", "--gpus", "1", "--limit", "0", "--json")
    d = json.loads(out)
    assert d["memory_one_gpu"]["band"] == pytest.approx(V.VLLM_MEMORY_BAND, abs=1e-4)
    # a 12 GB card holds no 7B AWQ model at 8,192 tokens under vLLM (published out of memory)
    assert d["recommendations"] and min(r["vram_gb"] for r in d["recommendations"]) > 12
    e = d["recommendations"][0]["estimates"]
    assert e["throughput_per_card"]["how"] == "held-out" and e["throughput_per_card"]["band"] > 0
    assert e["memory_per_card"]["band"] == pytest.approx(V.VLLM_MEMORY_BAND, abs=1e-4)
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "cnn-training", "--gpus", "4", "--limit", "2", "--json")
    e = json.loads(out)["recommendations"][0]["estimates"]
    assert e["scaling"]["how"] == "held-out" and e["throughput_total"]["band"] >= e["scaling"]["band"]
    rc, out, _ = run(capsys, "advise", "gpus", "--workload", "llm-inference", "--engine", "exllamav2",
                     "--precision", "fp16")
    assert rc == 2


def test_advise_build_prints_bands(tmp_path, capsys):
    f = tmp_path / "b.rig"
    save(x99_4x3090(280, RTX3090_FE), f)
    rc, out, _ = run(capsys, "advise", "build", str(f), "--workload", "cnn-training")
    assert rc == 0 and "Scaling efficiency:" in out and "held out of the fit" in out
    rc, out, _ = run(capsys, "advise", "build", str(f), "--workload", "lora", "--json")
    d = json.loads(out)
    est = d["estimates"]
    assert est["memory_per_card"]["band"] is not None and est["throughput"]["value"] == pytest.approx(d["value"],
                                                                                                       abs=1e-3)
    assert len(est["cards"]) == 4 and "scaling" in est
