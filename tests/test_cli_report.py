"""``rigbuilder report``: formats, exit codes, atomic writes."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rigbuilder.cli import main
from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.files.buildfile import save

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def rig(tmp_path) -> Path:
    b = Build(name="CLI report", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
              psus=["psu-evga-supernova-1600-t2"], case="case-phanteks-enthoo-719",
              gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", p) for p in (1, 3, 5, 7)])
    p = tmp_path / "b.rig"
    save(b, p)
    return p


@pytest.mark.parametrize("ext,marker", [("md", b"Type|Item|Price"), ("csv", b"type,quantity,item"),
                                        ("txt", b"Findings:"), ("html", b"<!DOCTYPE html>")])
def test_text_formats_from_extension(rig, tmp_path, ext, marker, capsys):
    out = tmp_path / f"list.{ext}"
    assert main(["report", str(rig), "-o", str(out)]) == 0
    assert marker in out.read_bytes()
    assert b"GeForce RTX 3090" in out.read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".list")]


def test_format_option_and_stdout(rig, capsysbinary):
    assert main(["report", str(rig), "-o", "-", "--format", "md"]) == 0
    assert b"## Findings" in capsysbinary.readouterr().out


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_pdf_in_a_fresh_process_without_display(rig, tmp_path):
    out = tmp_path / "list.pdf"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-m", "rigbuilder", "report", str(rig), "-o", str(out)],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    assert "CLI report" in text and "Total" in text and "Board layout" in text


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils not installed")
def test_the_pdf_draws_the_board_without_the_window_in_the_reports_language(rig, tmp_path):
    """Issue 23: the command line's report draws the board with ``rigbuilder.render.board`` (it
    never imports ``rigbuilder.ui``), in the report's language (it was always English)."""
    out = tmp_path / "liste.pdf"
    code = ("import sys; from rigbuilder.cli import main; "
            f"rc = main(['--lang', 'de', 'report', {str(rig)!r}, '-o', {str(out)!r}]); "
            "assert rc == 0, rc; "
            "ui = sorted(m for m in sys.modules if m.startswith('rigbuilder.ui')); assert not ui, ui")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    assert "Gehäuse nimmt Karten bis 503 mm auf" in text and "takes cards" not in text  # the drawing speaks German


@pytest.mark.parametrize("args,msg", [
    (["-o", "x.doc"], "cannot tell the format"),
    (["-o", "-", "--format", "pdf"], "PDF cannot go to standard output"),
    (["-o", "/nonexistent-dir/x.md"], "does not exist"),
])
def test_bad_output_exits_2(rig, tmp_path, capsys, args, msg):
    os.chdir(tmp_path)
    assert main(["report", str(rig), *args]) == 2
    assert msg in capsys.readouterr().err


def test_output_is_a_folder_or_unwritable(rig, tmp_path, capsys):
    assert main(["report", str(rig), "-o", str(tmp_path), "--format", "md"]) == 2
    assert "is a folder" in capsys.readouterr().err
    # a folder that refuses new files even to root
    assert main(["report", str(rig), "-o", "/proc/rigbuilder-report.md"]) == 2
    assert "cannot write" in capsys.readouterr().err
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as root: permissions are not enforced")
        assert main(["report", str(rig), "-o", str(ro / "x.md")]) == 2
        assert "cannot write" in capsys.readouterr().err
    finally:
        ro.chmod(0o700)


def test_bad_build_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.rig"
    bad.write_text("{not json")
    assert main(["report", str(bad), "-o", str(tmp_path / "x.md")]) == 2
    assert "bad.rig" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.rig"), "-o", str(tmp_path / "x.md")]) == 2


def test_report_currency_converts(tmp_path, capsys):
    from rigbuilder.domain.build import Build, GpuPlacement, Settings
    from rigbuilder.files.buildfile import save

    f = tmp_path / "c.rig"
    save(Build(name="one card", gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", None, "riser")],
               settings=Settings(currency="USD")), f)
    rc = main(["report", str(f), "-o", "-", "--format", "txt", "--currency", "EUR"])
    out = capsys.readouterr().out
    from rigbuilder.catalog.prices import load_observations, load_rates
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.domain.money import PriceBook
    from rigbuilder.models.prices import price_part
    from tests.shipped import shipped_parts

    # the card's price (its used price: its launch price is no new price now) at the ECB's rate, with the
    # build's region's tax (the default region: the EU average VAT)
    idx = PartIndex(shipped_parts()[0], prices=PriceBook.of(load_observations(), load_rates()))
    pp = price_part("gpu-nvidia-rtx-3090-fe", "EUR", idx, region="EU-16A")
    assert rc == 0 and f"Total purchase (parts): {pp.amount:,.2f} EUR" in out
    assert "EUR per USD, ECB rates of" in out and "Price age:" in out
    assert main(["report", str(f), "-o", "-", "--format", "txt", "--currency", "XYZ"]) == 2
