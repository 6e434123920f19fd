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
    # a community row is never verified, even where it took a curated row's confirmed facts
    assert all(p.verified == (len(p.unverified) == 0 and not p.community) for p in parts)


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


CONNECTOR_W = {"6-pin": 75, "8-pin": 150, "12-pin": 300, "12VHPWR": 600, "12V-2x6": 600, "8-pin EPS": 300}
"""What each GPU power connector may deliver (domain.md, Power; 12-pin = two 8-pin via the adapter;
an 8-pin EPS12V input on datacenter cards is rated for 300 W)."""


def test_every_card_can_be_fed_by_its_connectors_and_slot(shipped):
    parts, _ = shipped
    for g in (p for p in parts if isinstance(p, GPU)):
        supply = 75 + sum(CONNECTOR_W[c] for c in g.power_connectors)
        if g.vendor == "NVIDIA" and g.segment == "workstation" and g.power_connectors == ("8-pin",):
            # NVIDIA's "Power Guidelines for Workstation Products" (DA-07261-001) cover cards up
            # to 250 W on a single PCIe 8-pin (e.g. RTX A5000, 230 W).
            supply = max(supply, 250)
        assert g.board_power_w <= supply, f"{g.id}: {g.board_power_w} W from {g.power_connectors} + slot ({supply} W)"


def test_every_card_has_plausible_dimensions(shipped):
    parts, _ = shipped
    for g in (p for p in parts if isinstance(p, GPU)):
        assert 1 <= g.slot_width <= 4.5, g.id
        assert 100 <= g.length_mm <= 400, f"{g.id}: {g.length_mm} mm"
        assert g.height_mm is None or 60 <= g.height_mm <= 180, f"{g.id}: height {g.height_mm} mm"
        assert 0 < g.board_power_w <= 1000 and g.vram_gb > 0, g.id


def test_no_slot_gets_more_lanes_than_its_size_or_source_can_give(shipped):
    parts, _ = shipped
    for b in (p for p in parts if isinstance(p, Motherboard)):
        # A chipset gives a slot at most x8 (the Pro WS X570-ACE's third slot is an x8 from the
        # X570 chipset); the CPU or a PCIe switch at most x16.
        limit = {s.id: min(s.physical, 8 if s.source == "chipset" else 16) for s in b.slots}
        limit.update({m.id: 4 for m in b.m2})
        for s in b.slots:
            assert s.lanes <= limit[s.id], f"{b.id} {s.id}: x{s.lanes} in a {s.source} x{s.physical} slot"
        for m in b.m2:
            assert m.lanes <= 4, f"{b.id} {m.id}"
        for r in b.lane_rules:
            for sid, w in r.widths.items():
                assert w <= limit[sid], f"{b.id}: a lane rule gives {sid} x{w}"


def test_lane_modes_fit_the_cpu_with_every_slot_and_m2_in_use(shipped):
    """The lane tables are complete enough that a fully populated board never asks more CPU lanes
    than the best CPU for its socket in the catalog gives (a missing sharing rule shows here)."""
    from rigbuilder.domain.parts import CPU
    from rigbuilder.models.lanes import slot_widths

    parts, _ = shipped
    cpus = [p for p in parts if isinstance(p, CPU)]
    for b in (p for p in parts if isinstance(p, Motherboard)):
        lanes = [c.pcie_lanes for c in cpus if c.socket == b.socket]
        if not lanes:
            continue
        best = max(lanes) * b.cpu_sockets  # a dual-socket board: each CPU gives its own lanes
        used = [s.id for s in b.slots] + [m.id for m in b.m2]
        widths = slot_widths(b, used, best)
        cpu_ids = [s.id for s in b.slots if s.source == "CPU"] + [m.id for m in b.m2 if m.source == "CPU"]
        total = sum(widths.get(i, 0) for i in cpu_ids)
        assert total <= best, f"{b.id}: {total} CPU lanes with everything in use; best {b.socket} CPU gives {best}"


def test_trusted_load_of_the_prebuilt_catalog_equals_the_validated_one(tmp_path, shipped_db):
    """Start-up reads the prebuilt shipped catalog without re-checking every value; it must give
    exactly the parts the full validation gives, and fall back to validation for a bad row."""
    import json
    import shutil
    import sqlite3

    from rigbuilder.catalog.partsdb import read_parts

    db = tmp_path / "c.sqlite"
    shutil.copy2(shipped_db, db)  # as build_shipped_db wrote it for this session
    checked, p1 = read_parts(db, "shipped")
    fast, p2 = read_parts(db, "shipped", trusted=True)
    assert not p1 and not p2 and fast == checked and len(fast) > 250
    con = sqlite3.connect(db)
    row_id, spec = con.execute("select id, spec from part where kind='gpu' limit 1").fetchone()
    bad = json.loads(spec)
    bad["vram_gb"] = "lots"
    con.execute("update part set spec=? where id=?", (json.dumps(bad), row_id))
    con.commit()
    con.close()
    fast, problems = read_parts(db, "shipped", trusted=True)
    assert row_id not in {p.id for p in fast} and any("vram_gb" in str(p) for p in problems)


def test_snapshot_and_lazy_community_rows_equal_the_validated_catalog(shipped, tmp_path, cache_with_catalog):
    """The start-up path (pickled snapshots, community rows loaded on first need, in pieces)
    gives the same parts as validating the files (issues 16, 31)."""
    from rigbuilder.catalog.snapshot import PIECE, snapshot_paths
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths

    paths = Paths(tmp_path / "d", cache_with_catalog)
    core_snap, community_snap = snapshot_paths(paths)
    assert not core_snap.exists() and not community_snap.exists()
    first = open_catalog(paths, with_user=False)  # reads the database, writes the curated snapshot
    assert first.index.pending and core_snap.exists() and not community_snap.exists()
    parts, _ = shipped
    want = {p.id: p for p in parts}
    piece = first.index.load_pending_piece(PIECE)
    assert len(piece) == PIECE and all(p.community for p in piece) and first.index.pending
    assert not community_snap.exists()  # written as the pieces come, complete only at the end
    assert {p.id: p for p in first.index} == want and not first.index.pending
    assert community_snap.exists()
    second = open_catalog(paths, with_user=False)  # reads the snapshots
    assert second.index.pending
    assert second.index.get("gpu-nvidia-rtx-3090-fe") is not None and second.index.pending  # curated: no load
    pieces = []
    while second.index.pending:
        pieces.append(second.index.load_pending_piece(PIECE))
    assert all(len(x) <= PIECE for x in pieces) and sum(map(len, pieces)) == sum(p.community for p in parts)
    assert {p.id: p for p in second.index} == want
    third = open_catalog(paths, with_user=False)
    odb = next(pid for pid in want if pid.startswith("psu-odb-"))
    assert odb in third.index and third.index.get(odb) == want[odb]  # a miss loads the rest
    assert first.version == second.version == third.version
    # A community snapshot cut short (a full disk, a crash): finished from the database.
    data = community_snap.read_bytes()
    community_snap.write_bytes(data[: len(data) // 2])
    fourth = open_catalog(paths, with_user=False)
    assert {p.id: p for p in fourth.index} == want


def test_curated_parts_come_first_and_community_pieces_in_list_order(tmp_path, cache_with_catalog):
    """Each kind's community rows come in the catalog list's order (maker, then model), so a
    list that shows them can add each piece at its end."""
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths

    cat = open_catalog(Paths(tmp_path / "d", cache_with_catalog), with_user=False)
    assert not any(p.community for p in cat.index.loaded_of_kind("gpu"))
    rows = []
    while cat.index.pending:
        rows += cat.index.load_pending_piece()
    for kind in {p.KIND for p in rows}:
        mine = [(p.maker.lower(), p.model.lower()) for p in rows if p.KIND == kind]
        assert mine == sorted(mine)


def test_your_own_parts_do_not_load_the_community_rows_at_start(shipped, tmp_path, cache_with_catalog):
    """A user with parts of their own starts as fast: their parts join the index without the
    pending community rows being loaded first (issue 31)."""
    import dataclasses

    from rigbuilder.catalog.partsdb import write_parts
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths

    paths = Paths(tmp_path / "d", cache_with_catalog)
    cat = open_catalog(paths)
    gpu = next(p for p in shipped[0] if p.KIND == "gpu" and not p.community)
    mine = dataclasses.replace(gpu, id="gpu-user-mine", model="Mine", origin="user")
    write_parts(cat.user_engine, [mine])
    again = open_catalog(paths)
    assert again.index.pending and again.index.get("gpu-user-mine").origin == "user"
    assert again.index.pending  # still: a curated or user look-up loads nothing more
