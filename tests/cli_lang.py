"""What the command-line language tests share: a 4-GPU build file on a US circuit
and a way to run a command and read what it printed (tests/conftest.py already keeps the locale
English unless a test asks for another)."""
from __future__ import annotations

from pathlib import Path

from rigbuilder.cli import main
from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.files.buildfile import save

GPU = "gpu-nvidia-rtx-3090-fe"


def write_rig(folder: Path) -> Path:
    """4x RTX 3090 FE on the X99 WS-E with a 1600 W PSU, US 15 A, 0.16 USD/kWh, a 1000 USD budget."""
    b = Build(name="4x 3090 FE", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
              psus=["psu-evga-supernova-1600-t2"],
              gpus=[GpuPlacement(GPU, p) for p in (1, 3, 5, 7)],
              settings=Settings(region="US-15A", price_per_kwh=0.16, currency="USD", budget=1000,
                                load_hours_per_day=8, idle_hours_per_day=4))
    f = folder / "b.rig"
    save(b, f)
    return f


def run(capsys, *args):
    """``rigbuilder ARGS`` (paths and numbers as text): its exit status (argparse's SystemExit read as
    one), stdout and stderr."""
    try:
        rc = main([str(a) for a in args])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err
