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
    assert "faster than" in lines[at + 1] or "about as fast" in lines[at + 1]
    row = next(x for x in lines if x.startswith("prices the purchase rests on"))
    assert "street prices" in row and "used marketplace prices" in row
    rc, out, _ = run(capsys, "--lang", "fr", "compare", *rigs, "--workload", "llm-inference:70B:int4")
    assert rc == 0 and "Verdict :" in out and "inférence LLM, Llama 2 70B, int4 : seul two-3090.rig convient" in out
