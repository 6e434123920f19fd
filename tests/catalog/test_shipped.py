"""The shipped catalog: valid, big enough, with the seeds' parts, every row sourced."""
from __future__ import annotations

from collections import Counter

import pytest

from rigbuilder.domain.parts import GPU, Motherboard

MINIMUM = {"gpu": 100, "motherboard": 20, "cpu": 40, "psu": 25, "case": 15, "memory": 5,
           "storage": 5, "cooler": 4, "nic": 3}
SEED_PARTS = [
    "mb-gigabyte-x399-aorus-pro", "mb-asrock-x99-ws-e", "cpu-amd-threadripper-1900x",
    "cpu-intel-xeon-e5-2697-v4", "case-corsair-750d-airflow", "case-phanteks-enthoo-719",
    "case-lian-li-o11-dynamic-evo", "sto-samsung-970-evo-500gb", "sto-seagate-barracuda-3tb",
    "cool-arctic-freezer-33-tr", "cool-noctua-nh-u14s-tr4-sp3", "gpu-nvidia-rtx-2070-fe",
    "gpu-nvidia-rtx-3090-fe", "gpu-nvidia-rtx-4090-fe",
]


def test_shipped_catalog_has_no_problems(shipped):
    _, problems = shipped
    assert problems == [], "\n".join(map(str, problems[:20]))


def test_counts_per_kind(shipped):
    parts, _ = shipped
    counts = Counter(p.KIND for p in parts)
    for kind, n in MINIMUM.items():
        assert counts[kind] >= n, f"{kind}: {counts[kind]} < {n}"


@pytest.mark.parametrize("pid", SEED_PARTS)
def test_seed_parts_present(index, pid):
    assert pid in index


def test_every_row_names_source_and_date(shipped):
    parts, _ = shipped
    for p in parts:
        assert p.source.strip() and p.source_date[:2] in ("19", "20"), p.id


def test_unverified_names_real_fields(shipped):
    parts, _ = shipped
    # validation already rejects unknown names; here: unverified rows exist and say so
    assert any(not p.verified for p in parts)
    assert all(p.verified == (len(p.unverified) == 0) for p in parts)


def test_gpu_cooler_variety_for_deep_learning_chips(shipped):
    parts, _ = shipped
    gpus = [p for p in parts if isinstance(p, GPU)]
    coolers = {g.cooler for g in gpus}
    assert {"blower", "open-air", "passive"} <= coolers
    for chip in ("RTX 3090", "RTX 4090"):
        variants = [g for g in gpus if chip in g.chip_model and "Ti" not in g.chip_model]
        assert len(variants) >= 3, chip
        assert len({g.slot_width for g in variants}) >= 2, chip


def test_boards_have_slots_inside_their_positions(shipped):
    parts, _ = shipped
    boards = [p for p in parts if isinstance(p, Motherboard)]
    for b in boards:
        assert b.slots, b.id
        assert all(1 <= s.position <= b.expansion_positions for s in b.slots), b.id
        assert any(s.physical == 16 for s in b.slots), b.id
