"""The edit vocabulary: each edit applies to a copy, refuses with a message naming what and where,
and keeps the limits the .rig loader keeps (so whatever edits make can be saved and reopened)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigbuilder.domain import limits
from rigbuilder.domain.build import MOUNT_RISER, MOUNT_SLOT, Build, GpuPlacement
from rigbuilder.domain.edits import (AddGpu, ApplyArrangement, ChangeSettings, EditError, MoveGpu, RemoveItem,
                                     Rename, SetAllPowerLimits, SetPart, SetPowerLimit, edit_for_part, place_gpu,
                                     what_changed)
from rigbuilder.files.buildfile import BuildFileError, dumps, loads, save
from tests.builds import RTX3090_BLOWER, RTX3090_FE, ZOTAC_2070, frank_2070, x99_4x3090

X399 = "mb-gigabyte-x399-aorus-pro"  # slots at 1, 2 (x1), 3, 5, 7
X99 = "mb-asrock-x99-ws-e"  # x16 slots at 1..7
PSU = "psu-evga-supernova-1600-t2"
PSU2 = "psu-evga-supernova-1600-p2"
MEM = "mem-corsair-vengeance-lpx-2x8gb-ddr4-3000"
DISK = "sto-samsung-970-evo-500gb"


def test_add_gpu_applies_to_a_copy(index):
    b = frank_2070(1)
    before = b.clone()
    after = AddGpu(ZOTAC_2070, 5).applied_to(b, index)
    assert b == before  # the edit leaves its input alone
    assert after.gpus[-1] == GpuPlacement(ZOTAC_2070, 5, MOUNT_SLOT)
    assert AddGpu(ZOTAC_2070, 5).text(b, index).startswith("Add GPU 2 (")


def test_placement_policy_first_full_length_slot_no_card_covers(index):
    b = frank_2070(1, positions=(1,))  # a 2-slot card in 1 covers 1 and 2
    assert AddGpu(ZOTAC_2070).applied_to(b, index).gpus[-1].position == 3
    b = frank_2070(4)  # 1, 3, 5, 7 taken: nothing left on the board
    assert place_gpu(b, index, index.get(ZOTAC_2070)) == (None, MOUNT_RISER)
    assert AddGpu(ZOTAC_2070).applied_to(b, index).gpus[-1].mount == MOUNT_RISER
    assert place_gpu(Build(), index, index.get(ZOTAC_2070)) == (None, MOUNT_SLOT)  # no board: waits


@pytest.mark.parametrize("edit, words", [
    (AddGpu("gpu-no-such-card", 1), ["gpu-no-such-card", "no such part"]),
    (AddGpu(PSU, 1), [PSU, "is a psu, not a gpu"]),
    (AddGpu(ZOTAC_2070, 4), ["GPU 2", "no slot at position 4", "1, 2, 3, 5, 7"]),
    (AddGpu(ZOTAC_2070, 9), ["no slot at position 9"]),
    (MoveGpu(3, 1), ["GPU 4", "only GPU 1"]),
    (MoveGpu(0, 6), ["GPU 1", "no slot at position 6"]),
    (RemoveItem("gpu", 5), ["GPU 6"]),
    (RemoveItem("nic", 0), ["remove nic 1", "has 0"]),
    (RemoveItem("wheels", 0), ["no part role 'wheels'"]),
    (SetPart("cpu", ZOTAC_2070), ["is a gpu, not a cpu"]),
    (SetPart("case", "case-nope"), ["case-nope", "no such part"]),
    (SetPowerLimit(0, 5000), ["GPU 1", "between 1 and 2000 W"]),
    (SetPowerLimit(2, 200), ["GPU 3"]),
    (ChangeSettings.of(load_hours_per_day=30), ["settings.load_hours_per_day", "between 0 and 24"]),
    (ChangeSettings.of(load_hours_per_day=20, idle_hours_per_day=10), ["more than 24 a day"]),
    (ChangeSettings.of(region="MARS"), ["settings.region", "MARS"]),
    (ChangeSettings.of(warp_speed=9), ["no setting named 'warp_speed'"]),
    (Rename("x" * 201, ""), ["name", "200"]),
    (Rename("ok", "n" * 20_001), ["notes", "20,000"]),
    (Rename("a\x1b[31mb", ""), ["name", "control character"]),
    (Rename("a\nTotal", ""), ["name", "line break"]),
    (Rename("ok", "a\ud800"), ["notes", "not valid text"]),
    (ApplyArrangement(((1, MOUNT_SLOT),) * 2), ["2 placements for 1 GPUs"]),
    (ApplyArrangement(((8, MOUNT_SLOT),)), ["GPU 1", "position 8"]),
])
def test_refusals_name_what_and_where(index, edit, words):
    b = frank_2070(1)
    with pytest.raises(EditError) as e:
        edit.validate(b, index)
    for w in words:
        assert w in str(e.value)
    with pytest.raises(EditError):
        edit.applied_to(b, index)


def test_without_a_board_positions_stay_within_what_a_file_may_name(index):
    b = Build()
    assert AddGpu(ZOTAC_2070, 20).applied_to(b, index).gpus[0].position == 20
    with pytest.raises(EditError, match="not between 1 and 20"):
        AddGpu(ZOTAC_2070, 21).applied_to(b, index)


def test_the_64_item_caps_hold_at_every_edit(index):
    b = Build(gpus=[GpuPlacement(ZOTAC_2070, None, MOUNT_RISER)] * limits.MAX_ITEMS)
    with pytest.raises(EditError, match="at most 64 GPUs"):
        AddGpu(ZOTAC_2070, riser=True).applied_to(b, index)
    b = Build()
    for _ in range(limits.MAX_COUNT):
        b = SetPart("memory", MEM).applied_to(b, index)
    assert b.memory[0].count == 64
    with pytest.raises(EditError, match="at most 64"):
        SetPart("memory", MEM).applied_to(b, index)
    nic = index.of_kind("nic")[0].id
    for _ in range(limits.MAX_ITEMS):
        b = SetPart("nic", nic).applied_to(b, index)
    with pytest.raises(EditError, match="nics: at most 64"):
        SetPart("nic", nic).applied_to(b, index)


def test_set_part_roles(index):
    b = Build()
    b = SetPart("motherboard", X99).applied_to(b, index)
    b = SetPart("psu", PSU).applied_to(b, index)
    b = SetPart("second-psu", PSU2).applied_to(b, index)
    assert b.motherboard == X99 and b.psus == [PSU, PSU2]
    assert SetPart("psu", PSU2).applied_to(b, index).psus == [PSU2]
    b = SetPart("storage", DISK).applied_to(SetPart("storage", DISK).applied_to(b, index), index)
    assert [(s.part_id, s.count) for s in b.storage] == [(DISK, 2)]
    assert RemoveItem("storage", 0).applied_to(b, index).storage == []
    assert RemoveItem("motherboard").applied_to(b, index).motherboard is None
    assert edit_for_part(index.get(PSU2), None, True, frank_2070()) == SetPart("second-psu", PSU2)
    assert edit_for_part(index.get(PSU2), 3, False, frank_2070()) == SetPart("psu", PSU2)
    assert edit_for_part(index.get(RTX3090_FE), 3, False) == AddGpu(RTX3090_FE, 3, False)


def test_moves_limits_settings_rename_arrangement(index):
    b = x99_4x3090()
    assert MoveGpu(0, 2).applied_to(b, index).gpus[0].position == 2
    r = MoveGpu(0, riser=True).applied_to(b, index).gpus[0]
    assert (r.mount, r.position) == (MOUNT_RISER, 1)  # the riser cable stays where it was plugged in
    assert SetPowerLimit(1, None).applied_to(b, index).gpus[1].power_limit_w is None
    assert [g.power_limit_w for g in SetAllPowerLimits(300).applied_to(b, index).gpus] == [300.0] * 4
    assert [g.power_limit_w for g in SetAllPowerLimits(350).applied_to(b, index).gpus] == [None] * 4  # full power
    assert [g.power_limit_w for g in SetAllPowerLimits(None).applied_to(b, index).gpus] == [None] * 4
    s = ChangeSettings.of(region="US-20A", price_per_kwh=0.2).applied_to(b, index).settings
    assert (s.region, s.price_per_kwh) == ("US-20A", 0.2)
    assert Rename("Lab box", "four cards").applied_to(b, index).notes == "four cards"
    arranged = ApplyArrangement(((2, MOUNT_SLOT), (4, MOUNT_SLOT), (6, MOUNT_SLOT), (None, MOUNT_RISER)))
    assert [(g.position, g.mount) for g in arranged.applied_to(b, index).gpus] == [
        (2, MOUNT_SLOT), (4, MOUNT_SLOT), (6, MOUNT_SLOT), (None, MOUNT_RISER)]


def test_what_changed(index):
    b = x99_4x3090()
    c = what_changed(b, SetPowerLimit(2, 200).applied_to(b, index))
    assert c.gpus == {2} and not c.roles and not c.settings and not c.meta
    c = what_changed(b, RemoveItem("gpu", 1).applied_to(b, index))
    assert c.gpus == {1, 2, 3} and c.roles == {"gpus"}
    c = what_changed(b, ChangeSettings.of(price_per_kwh=0.5).applied_to(b, index))
    assert c.settings and not c.parts
    c = what_changed(b, SetPart("psu", PSU2).applied_to(b, index))
    assert c.roles == {"psus"} and not c.gpus
    paid = b.clone()
    paid.prices_paid[PSU] = __import__("rigbuilder.domain.build", fromlist=["PricePaid"]).PricePaid(200, "USD")
    assert what_changed(b, paid).parts  # a price paid is judged (the budget rule)


def test_save_refuses_what_the_loader_would_refuse(tmp_path):
    b = Build(notes="n" * 20_001)
    with pytest.raises(BuildFileError, match="notes"):
        save(b, tmp_path / "x.rig")
    assert not (tmp_path / "x.rig").exists()
    b = Build(gpus=[GpuPlacement(ZOTAC_2070, 40)])
    with pytest.raises(BuildFileError, match=r"gpus\[0\].position"):
        save(b, tmp_path / "x.rig")
    assert not (tmp_path / "x.rig").exists()


def test_limits_agree_with_the_loader():
    """A build the limits accept is one the loader reads back; one they refuse the loader refuses."""
    ok = x99_4x3090()
    assert limits.problems(ok) == [] and loads(dumps(ok)) == ok
    for bad in (Build(notes="n" * 20_001), Build(name="x" * 201),
                Build(gpus=[GpuPlacement(ZOTAC_2070, 21)]), Build(psus=["a", "b", "c"]),
                Build(gpus=[GpuPlacement(ZOTAC_2070, 1, power_limit_w=0.5)]),
                Build(nics=["nic"] * 65)):
        assert limits.problems(bad)
        with pytest.raises(BuildFileError):
            loads(dumps(bad))


# -- random edit sequences ---------------------------------------------------------------
GPUS = [ZOTAC_2070, RTX3090_BLOWER, RTX3090_FE]


def edits_strategy(index):
    other = [p.id for k in ("motherboard", "cpu", "cooler", "case", "memory", "storage", "nic")
             for p in index.of_kind(k)[:2]]
    pos = st.one_of(st.none(), st.integers(-1, 22))
    ix = st.integers(-1, 9)
    return st.one_of(
        st.builds(AddGpu, st.sampled_from(GPUS + [PSU, "gpu-nope"]), pos, st.booleans()),
        st.builds(MoveGpu, ix, pos, st.booleans()),
        st.builds(RemoveItem, st.sampled_from(["gpu", "psu", "memory", "storage", "nic", "case", "motherboard"]), ix),
        st.builds(lambda pid: SetPart(index.get(pid).KIND, pid), st.sampled_from(other)),
        st.builds(SetPart, st.sampled_from(["psu", "second-psu"]), st.sampled_from([PSU, PSU2])),
        st.builds(SetPowerLimit, ix, st.one_of(st.none(), st.floats(-10, 2500), st.just(float("nan")))),
        st.builds(SetAllPowerLimits, st.one_of(st.none(), st.integers(0, 600))),
        st.builds(lambda h: ChangeSettings.of(load_hours_per_day=h), st.floats(-1, 25)),
        st.builds(Rename, st.text(max_size=5), st.text(max_size=5)),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_edit_sequences(index, data):
    """Random edits on a real build: each one either applies or refuses with EditError; the input
    is never touched; every result keeps the limits and reopens from its saved text unchanged;
    going back through the snapshots gives the start, and applying again gives the same builds."""
    start = data.draw(st.sampled_from([Build(), frank_2070(2), x99_4x3090()]))
    b = start.clone()
    history = [b]
    done = []
    for edit in data.draw(st.lists(edits_strategy(index), max_size=25)):
        before = b.clone()
        try:
            after = edit.applied_to(b, index)
        except EditError as e:
            assert str(e)
            assert b == before
            continue
        assert b == before
        assert limits.problems(after) == []
        assert loads(dumps(after)) == after
        done.append(edit)
        history.append(after)
        b = after
    assert history[0] == start  # undo all the way: the first snapshot is the start, untouched
    again = start.clone()
    for edit, expected in zip(done, history[1:]):  # redo = applying directly
        again = edit.applied_to(again, index)
        assert again == expected
