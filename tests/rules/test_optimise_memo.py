"""What the optimiser's speed rests on gives what it stood in for (issue 29): the tensor ratios kept
in the cache folder, and the throughput model's figures memoised for a search."""
from __future__ import annotations

import pytest

from rigbuilder.domain.build import Build, GpuPlacement, StorageItem
from rigbuilder.models import scaling
from rigbuilder.models import throughput as TP
from rigbuilder.models.workloads import workload


@pytest.fixture
def fresh_ratios(tmp_path, monkeypatch):
    """``shipped_ratios`` with an empty cache folder of its own (and forgotten again afterwards)."""
    monkeypatch.setenv("RIGBUILDER_CACHE_DIR", str(tmp_path))
    TP.shipped_ratios.cache_clear()
    yield tmp_path
    TP.shipped_ratios.cache_clear()


def test_the_shipped_ratios_kept_in_the_cache_folder_are_those_of_the_files(fresh_ratios):
    made = TP.shipped_ratios().ratios
    kept = list(fresh_ratios.glob("tensor-ratios-*.pickle"))
    assert len(kept) == 1 and made
    TP.shipped_ratios.cache_clear()
    assert TP.shipped_ratios().ratios == made  # read back from the file
    kept[0].write_bytes(b"not a pickle")  # a damaged file is worked out again, never trusted
    TP.shipped_ratios.cache_clear()
    assert TP.shipped_ratios().ratios == made


def _builds(index):
    gpus = sorted(index.of_kind("gpu"), key=lambda g: g.id)[::97][:12]
    boards = [b for b in sorted(index.of_kind("motherboard"), key=lambda b: b.id) if len(b.slots) >= 3][:4]
    drive = sorted(index.of_kind("storage"), key=lambda s: s.id)[0]
    for i, g in enumerate(gpus):
        b = boards[i % len(boards)]
        pos = [s.position for s in b.slots][:3]
        for frac in (None, 0.8, 0.6):
            lim = None if frac is None or not g.board_power_w else frac * g.board_power_w
            yield Build(motherboard=b.id, storage=[StorageItem(drive.id)] if i % 2 else [],
                        gpus=[GpuPlacement(g.id, p, power_limit_w=lim) for p in pos])
            yield Build(gpus=[GpuPlacement(g.id, None, power_limit_w=lim) for _ in pos])  # no board: ideal links


@pytest.mark.parametrize("wid, params", [("cnn-training", None), ("llm-inference", 70e9), ("qlora", 13e9)])
def test_memoised_throughput_is_the_models_own(index, wid, params):
    """With a memo kept over many builds (as a search's scorer keeps it), and by ``build_value``,
    every build's throughput is the one worked out afresh, field by field."""
    wl = workload(wid, params)
    memo: dict = {}
    n = 0
    for build in _builds(index):
        fresh = scaling.build_throughput(build, index, wl)
        assert scaling.build_throughput(build, index, wl, memo) == fresh
        assert scaling.build_value(build, index, wl, memo) == fresh.value
        assert scaling.build_value(build, index, wl) == fresh.value
        n += 1
    assert n >= 60 and memo
