"""Property tests: random builds never crash the engine; arrange never overlaps; determinism."""
from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigbuilder.domain.build import MOUNT_RISER, MOUNT_SLOT, REGIONS, Build, GpuPlacement, PartCount, Settings, StorageItem
from rigbuilder.rules.arrange import arrange
from rigbuilder.rules.engine import run_checks
from rigbuilder.domain.catalog import PartIndex
from tests.shipped import shipped_parts

INDEX = PartIndex(shipped_parts()[0])
IDS = {k: sorted(p.id for p in INDEX.of_kind(k)) for k in ("gpu", "motherboard", "cpu", "psu", "case", "memory", "storage", "cooler", "nic")}


def maybe(kind):
    return st.one_of(st.none(), st.sampled_from(IDS[kind]), st.just(f"{kind}-unknown-part"))


placements = st.builds(GpuPlacement, st.sampled_from(IDS["gpu"]), st.one_of(st.none(), st.integers(1, 9)),
                       st.sampled_from([MOUNT_SLOT, MOUNT_RISER]), st.one_of(st.none(), st.floats(50, 700)))
builds = st.builds(
    Build,
    name=st.text(max_size=20),
    motherboard=maybe("motherboard"), cpu=maybe("cpu"), cooler=maybe("cooler"), case=maybe("case"),
    psus=st.lists(st.sampled_from(IDS["psu"]), max_size=2),
    memory=st.lists(st.builds(PartCount, st.sampled_from(IDS["memory"]), st.integers(1, 4)), max_size=2),
    storage=st.lists(st.builds(StorageItem, st.sampled_from(IDS["storage"]), st.integers(1, 3)), max_size=3),
    nics=st.lists(st.sampled_from(IDS["nic"]), max_size=2),
    gpus=st.lists(placements, max_size=8),
    settings=st.builds(Settings, region=st.sampled_from(sorted(REGIONS))),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(builds)
def test_random_builds_never_crash_and_are_deterministic(b):
    a = run_checks(b, INDEX)
    again = run_checks(b, INDEX)
    assert a == again
    for f in a:
        assert f.code and f.message and all(isinstance(x, (int, float)) and math.isfinite(x) for _, x in f.figures)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(IDS["motherboard"]), st.lists(st.sampled_from(IDS["gpu"]), min_size=1, max_size=6))
def test_arrange_never_returns_overlapping_cards_when_it_says_fits(board, gpus):
    b = Build(motherboard=board, gpus=[GpuPlacement(g, None) for g in gpus])
    res = arrange(b, INDEX)
    spans = []
    for g in res.build.gpus:
        if g.position is None or g.mount != "slot":
            continue
        card = INDEX.get(g.part_id)
        span = range(g.position, g.position + max(1, math.ceil(card.slot_width - 1e-9)))
        spans.append(span)
    overlapping = any(set(a) & set(c) for i, a in enumerate(spans) for c in spans[i + 1:])
    assert not overlapping  # never, whether or not everything fits
    assert not any(f.code == "slot.overlap" for f in res.findings)
    assert len(res.build.gpus) == len(gpus)  # no card is dropped: those that do not fit go to risers
    if any(g.mount == "riser" for g in res.build.gpus):
        assert not res.fits and any("risers" in a for a in res.advice)
