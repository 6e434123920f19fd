"""Each command imports only what its work needs (issue 31): the database libraries (SQLAlchemy,
SQLModel), numpy and PySide6 cost 0.1-0.5 s of a command's start. Run in a fresh interpreter per
command, with sys.modules looked at after it ran."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rigbuilder.files.buildfile import save
from tests.builds import x99_4x3090

HEAVY = ("sqlalchemy", "sqlmodel", "numpy", "PySide6", "pyqtgraph",
         "currency_converter", "http")  # the last two: urllib.request and http, 40 ms, never needed here
LIST = Path(__file__).parent / "files" / "data" / "pcpp" / "us-threadripper-4x3090.md"
RUN = """
import json, sys
from rigbuilder.cli import main
try:
    rc = main(sys.argv[1:])
except SystemExit as e:
    rc = e.code
print(json.dumps({"rc": rc, "heavy": sorted({m.split(".")[0] for m in sys.modules} & set(%r))}), file=sys.stderr)
""" % (HEAVY,)


@pytest.mark.parametrize("args, allowed", [
    (["check", "{rig}"], ()),
    (["report", "{rig}", "-o", "{tmp}/x.md"], ()),
    (["report", "{rig}", "-o", "{tmp}/x.csv"], ()),
    (["advise", "build", "{rig}", "--workload", "cnn-training"], ()),
    (["advise", "gpus", "--workload", "cnn-training", "--limit", "3"], ("numpy",)),  # ranks every card as arrays
    (["import-list", str(LIST), "-o", "{tmp}/y.rig"], ()),
    (["--version"], ()),
], ids=["check", "report-md", "report-csv", "advise-build", "advise-gpus", "import-list", "version"])
def test_commands_import_only_what_they_need(tmp_path, args, allowed):
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths

    open_catalog(Paths.from_env(), with_user=False)  # the cached catalog a start finds (building it needs SQLAlchemy)
    rig = tmp_path / "b.rig"
    save(x99_4x3090(280), rig)
    argv = [a.format(rig=rig, tmp=tmp_path) for a in args]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    r = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, env=env, timeout=120)
    got = json.loads(r.stderr.strip().splitlines()[-1])
    assert got["rc"] in (0, 1), r.stderr[-2000:]  # check: 1 when the build has error findings
    assert set(got["heavy"]) <= set(allowed), f"{args[0]} imported {got['heavy']}"
