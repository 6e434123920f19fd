"""``rigbuilder compare`` (issue 29): seed 002's one RTX 4090 or two used RTX 3090s as one command,
text and JSON; exit 2 with a message on bad input."""
from __future__ import annotations

import json

import pytest

from rigbuilder.files.buildfile import save
from tests.rules.test_compare import one_4090, two_3090
from tests.cli_lang import run


@pytest.fixture
def rigs(tmp_path):
    a, b = tmp_path / "one-4090.rig", tmp_path / "two-3090.rig"
    save(one_4090(), a)
    save(two_3090(), b)
    return str(a), str(b)


def test_seed_002_in_one_command(capsys, rigs):
    rc, out, err = run(capsys, "compare", *rigs, "--workload", "qlora:13B", "--workload", "llm-inference:70B:int4",
                       "--rent", "0.5", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert [b["label"] for b in d["builds"]] == ["one-4090.rig", "two-3090.rig"]
    assert [b["n_gpus"] for b in d["builds"]] == [1, 2]
    assert d["workloads"][1]["precision"] == "int4"
    for b in d["builds"]:
        assert b["rent"]["price"]["yours"] and b["rent"]["rent_per_gpu_hour"] == 0.5
        assert b["rent"]["break_even_hours"] > 0
    rc, out, _ = run(capsys, "compare", *rigs, "--workload", "qlora:13B")
    assert rc == 0 and "QLoRA, Llama 2 13B, nf4" in out and "owning beats renting" in out


def test_compare_in_german(capsys, rigs):
    rc, out, _ = run(capsys, "--lang", "de", "compare", *rigs, "--workload", "qlora:13B")
    assert rc == 0 and "Kaufen schlägt Mieten" in out and "Anschaffung" in out


@pytest.mark.parametrize("args, words", [
    ((), "2 to 4"),
    (("--workload", "nope"), "--workload nope"),
    (("--currency", "XYZ"), "--currency: XYZ is not a currency the exchange rates know"),
    (("--rent", "-1"), "--rent -1"),
])
def test_bad_input_exits_2(capsys, rigs, args, words):
    files = rigs[:1] if not args else rigs
    rc, _, err = run(capsys, "compare", *files, *args)
    assert rc == 2 and words in err and "Traceback" not in err


def test_the_table_ends_with_a_verdict_and_says_which_prices(capsys, rigs):
    rc, out, _ = run(capsys, "compare", *rigs, "--workload", "qlora:13B", "--workload", "llm-inference:70B:int4")
    assert rc == 0
    lines = out.splitlines()
    at = lines.index("Verdict:")
    assert lines[at + 2] == "  LLM inference, Llama 2 70B, int4: only two-3090.rig fits"
    assert any(w in lines[at + 1] for w in ("faster than", "about as fast", "no clear winner"))
    row = next(x for x in lines if x.startswith("prices the purchase rests on"))
    assert "street prices" in row and "used marketplace prices" in row
    rc, out, _ = run(capsys, "--lang", "fr", "compare", *rigs, "--workload", "llm-inference:70B:int4")
    assert rc == 0 and "Verdict :" in out and "inférence LLM, Llama 2 70B, int4 : seul two-3090.rig convient" in out


def test_every_throughput_with_its_band_and_a_verdict_that_respects_it(capsys, rigs):
    """Issue 39: the text's throughput cells read 'value unit ±band'; --json has the band beside each value and
    every estimate with its band; a verdict names a winner only beyond the bands."""
    from rigbuilder.models.estimates import Banded, within_bands

    rc, out, err = run(capsys, "compare", *rigs, "--workload", "cnn-training", "--workload", "llm-inference:70B:int4",
                       "--json")
    assert rc == 0, err
    d = json.loads(out)
    for b in d["builds"]:
        for t in b["throughput"]:
            assert t["band"] == t["estimates"]["throughput"]["band"]
            assert t["estimates"]["throughput"]["value"] == pytest.approx(t["value"], abs=1e-3)
    two = d["builds"][1]["throughput"]
    assert two[0]["band"] > 0 and two[0]["estimates"]["scaling"]["band"] > 0  # two training cards
    assert two[1]["band"] > 0  # 70B split over the two cards: the token rate's band
    rc, out, err = run(capsys, "compare", *rigs, "--workload", "cnn-training", "--workload", "llm-inference:70B:int4")
    assert rc == 0, err
    assert f"{two[0]['value']:,.0f} images/s \u00b1{two[0]['band']:.0%}" in out
    assert f"tokens/s \u00b1{two[1]['band']:.0%}" in out
    cnn = next(x.strip() for x in out.splitlines() if x.strip().startswith("CNN training: "))
    one = d["builds"][0]["throughput"][0]
    figs = [Banded("build-throughput", t["value"], t["unit"], t["band"], t["estimates"]["throughput"]["how"])
            for t in (one, two[0])]
    if within_bands(*figs) is not None:
        assert "no clear winner" in cnn and "faster" not in cnn
    else:
        assert "faster than" in cnn


def test_the_band_in_japanese(capsys, rigs):
    rc, out, _ = run(capsys, "--lang", "ja", "compare", *rigs, "--workload", "cnn-training")
    assert rc == 0 and "images/s ±" in out and "%" in out
