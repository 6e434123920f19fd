"""``rigbuilder edit --limit N=W`` keeps the one power-limit rule (issue 23): a limit at or above
the card's board power is no limit, for one GPU as for all, and the command says so."""
from __future__ import annotations

from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.files.buildfile import load, save
from tests.cli_lang import run

RTX_2080TI = "gpu-nvidia-rtx-2080-ti-fe"  # 260 W board power


def _rig(tmp_path):
    f = tmp_path / "a.rig"
    save(Build(name="a", motherboard="mb-asrock-x99-ws-e", gpus=[GpuPlacement(RTX_2080TI, 1)]), f)
    return f


def test_limit_above_board_power_stores_no_limit_and_says_so(tmp_path, capsys):
    f = _rig(tmp_path)
    for spec in ("1=1000", "all=1000"):
        out_file = tmp_path / f"{spec[0]}.rig"
        rc, out, err = run(capsys, "edit", str(f), "--limit", spec, "-o", str(out_file))
        assert rc == 0, err
        assert load(out_file).gpus[0].power_limit_w is None
        assert "1000 W is at or above its board power (260 W): no limit" in out, out
    rc, out, _ = run(capsys, "edit", str(f), "--limit", "1=200", "-o", str(tmp_path / "b.rig"))
    assert rc == 0 and load(tmp_path / "b.rig").gpus[0].power_limit_w == 200.0 and "no limit" not in out
