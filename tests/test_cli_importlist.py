"""rigbuilder import-list: matches printed, picks, the build written; bad input exits 2 with one line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rigbuilder.cli import main
from rigbuilder.files.buildfile import load
from tests.cli_lang import run

DATA = Path(__file__).parent / "files" / "data" / "pcpp"


def test_import_prints_matches_and_candidates_and_writes(tmp_path, capsys):
    out_rig = tmp_path / "b.rig"
    rc, out, err = run(capsys, "import-list", DATA / "uk-wrx80-a6000.txt", "-o", out_rig)
    assert rc == 1 and not err  # written, but lines wait for a choice
    assert "-> cpu-amd-threadripper-pro-5975wx  score 94" in out
    assert "--pick 9=gpu-nvidia-rtx-a6000" in out
    assert "left out for want of a choice: lines 6, 9, 10, 13, 14" in out
    b = load(out_rig)
    assert b.gpus == [] and b.cpu == "cpu-amd-threadripper-pro-5975wx"


def test_picks_settle_the_lines(tmp_path, capsys):
    out_rig = tmp_path / "b.rig"
    rc, out, _ = run(capsys, "import-list", DATA / "uk-wrx80-a6000.txt", "-o", out_rig,
                     "--pick", "6=mem-samsung-8x32gb-ddr4-3200-rdimm", "--pick", "9=gpu-nvidia-rtx-a6000",
                     "--pick", "10=gpu-nvidia-rtx-a6000", "--pick", "13=skip", "--pick", "14=SKIP", "--name", "Lab box")
    assert rc == 0 and "(your pick)" in out and "wrote" in out
    b = load(out_rig)
    assert b.name == "Lab box" and len(b.gpus) == 2 and b.prices_paid["gpu-nvidia-rtx-a6000"].currency == "GBP"
    assert main(["check", str(out_rig)]) in (0, 1)


def test_json_and_stdin(tmp_path, capsys, monkeypatch):
    import io
    import sys

    data = (DATA / "de-am5-2x4090.md").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    rc, out, _ = run(capsys, "import-list", "-", "--json")
    d = json.loads(out)
    assert d["list"]["currency"] == "EUR" and d["list"]["format"] == "markdown" and d["output"] is None
    line = next(x for x in d["lines"] if x["line"] == 10)
    assert line["status"] == "matched" and line["part_id"] == "gpu-gigabyte-rtx-4090-gaming-oc"
    assert line["product_id"] == "8HDkcf" and line["amount"] == 1849.0 and line["candidates"][0]["score"] >= 90
    assert set(line) >= {"category", "name", "currency", "merchant", "purchased", "out_of_stock", "kind", "reason",
                         "picked"}
    assert d["unsettled"] == [x["line"] for x in d["lines"] if x["status"] in ("weak", "none")]
    assert rc == (1 if d["unsettled"] else 0)


@pytest.mark.parametrize("content,words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
    (b"hello: world\nthis is not a list\n", "not a PCPartPicker parts list"),
    (b"\xff\xfe" + "CPU: x".encode("utf-16-le"), "not a PCPartPicker parts list"),
])
def test_bad_files_exit_2_with_one_line(tmp_path, capsys, content, words):
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    rc, out, err = run(capsys, "import-list", f, "-o", tmp_path / "x.rig")
    assert rc == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "x.rig").exists()


def test_huge_file_and_bad_picks_exit_2(tmp_path, capsys):
    f = tmp_path / "huge.txt"
    f.write_bytes(b"PCPartPicker Part List: x\n" + b"CPU: a  ($1)\n" * 100_000)
    rc, _, err = run(capsys, "import-list", f)
    assert rc == 2 and "too big" in err
    for pick, words in (("9", "expected LINE=PART_ID"), ("9=cpu-amd-ryzen-9-5950x", "is a cpu"),
                        ("77=gpu-nvidia-rtx-a6000", "no part on that line")):
        rc, _, err = run(capsys, "import-list", DATA / "uk-wrx80-a6000.txt", "--pick", pick)
        assert rc == 2 and words in err
    rc, _, err = run(capsys, "import-list", tmp_path / "missing.txt")
    assert rc == 2 and "cannot read" in err
    rc, _, err = run(capsys, "import-list", tmp_path)
    assert rc == 2 and "cannot read" in err


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085"])
def test_an_invisible_line_separator_in_a_shop_name_does_not_refuse_the_list(tmp_path, capsys, sep):
    """Issue 24: U+2028 in a shop's name made 'import-list -o' refuse the whole list ("note holds a
    line break"); the importer now reads it as a space, as it reads other odd spaces."""
    text = (DATA / "uk-wrx80-a6000.txt").read_text(encoding="utf-8").replace("@ Scan.co.uk", f"@ Scan{sep}co.uk")
    src = tmp_path / "list.txt"
    src.write_text(text, encoding="utf-8")
    out_rig = tmp_path / "b.rig"
    rc, out, err = run(capsys, "import-list", src, "-o", out_rig)
    assert rc == 1 and not err and out_rig.exists()
    assert sep not in out_rig.read_text(encoding="utf-8") and "Scan co.uk" in out_rig.read_text(encoding="utf-8")
