"""Thermal findings that rest on a community card's cooler type (issue: four PNY RTX 6000 Ada)."""
from __future__ import annotations

from dataclasses import replace

from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Severity
from rigbuilder.rules.engine import run_checks

WRX80 = "mb-asus-pro-ws-wrx80e-sage-se-wifi"
PNY_6000 = "gpu-odb-pny-nvidia-rtx-6000-ada-generation-48gb-gddr6-0102008c"
NV_6000 = "gpu-nvidia-rtx-6000-ada"


def _four(gpu: str, positions=(1, 3, 5, 7)) -> Build:
    return Build(motherboard=WRX80, case="case-phanteks-enthoo-719",
                 gpus=[GpuPlacement(gpu, p) for p in positions])


def _shape(findings):
    return [(f.code, f.severity, f.gpus, f.positions) for f in findings]


def test_four_pny_rtx_6000_ada_on_wrx80_match_four_curated(index):
    board = index.get(WRX80)
    x16 = [s.position for s in board.slots if s.physical == 16 and s.lanes == 16]
    positions = tuple(x16[::2][:4])
    assert len(positions) == 4
    pny = run_checks(_four(PNY_6000, positions), index, codes=["thermal", "slot"])
    nv = run_checks(_four(NV_6000, positions), index, codes=["thermal", "slot"])
    assert _shape(pny) == _shape(nv)
    assert not any(f.code == "thermal.open-air-gap" for f in pny)
    # and packed into four adjacent x16 slots: still the same findings
    adjacent = tuple(x16[:4])
    assert _shape(run_checks(_four(PNY_6000, adjacent), index, codes=["thermal", "slot"])) == \
        _shape(run_checks(_four(NV_6000, adjacent), index, codes=["thermal", "slot"]))


def test_a_finding_on_a_community_cooler_type_is_at_most_a_warning_and_says_so(index):
    curated = index.get("gpu-nvidia-rtx-3090-fe")  # open-air, confirmed
    community = replace(curated, id="gpu-odb-test-3090", source="BuildCores OpenDB (ODC-By 1.0), test",
                        unverified=("cooler",))
    idx = PartIndex([*index, community])
    adjacent = (1, 1 + curated.span)  # no room in front of the upper card's fans
    conf = run_checks(_four("gpu-nvidia-rtx-3090-fe", adjacent), idx, codes=["thermal.open-air-gap"])
    comm = run_checks(_four("gpu-odb-test-3090", adjacent), idx, codes=["thermal.open-air-gap"])
    assert any(f.severity is Severity.ERROR for f in conf)
    assert comm and all(f.severity is not Severity.ERROR for f in comm)
    assert all("community data" in f.limits for f in comm)
