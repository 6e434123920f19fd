"""The table of part kinds and build roles (domain/kinds.py): declared once, read by every door."""
from __future__ import annotations

import dataclasses

import rigbuilder.domain.parts as parts
from rigbuilder.domain import edits, kinds, limits
from rigbuilder.domain.build import ESSENTIAL_ROLES, Build, GpuPlacement, PartCount, StorageItem
from rigbuilder.files import buildfile, listimport


def test_every_part_class_is_one_kind_with_its_own_prefix_and_file():
    classes = {c for c in vars(parts).values() if isinstance(c, type) and issubclass(c, parts.Part) and c is not parts.Part}
    assert {k.cls for k in kinds.KINDS} == classes
    assert all(k.cls.KIND == k.name for k in kinds.KINDS)
    assert len({k.prefix for k in kinds.KINDS}) == len(kinds.KINDS)
    assert len({k.file for k in kinds.KINDS}) == len(kinds.KINDS)
    assert len({k.role.flag for k in kinds.KINDS}) == len(kinds.KINDS)
    assert kinds.kind_of_id("riser-x") == "riser" and kinds.kind_of_id("psu-y") == "psu" and kinds.kind_of_id("z") is None


def test_each_role_names_where_a_build_holds_it():
    for k in kinds.KINDS:
        owner = GpuPlacement if k.role.shape == kinds.UNDER else Build
        assert k.role.attr in {f.name for f in dataclasses.fields(owner)}, k.name
        assert all(f in k.fields for _title, f in k.columns if f not in ("name", "slots")), k.name
    assert tuple(ESSENTIAL_ROLES) == kinds.REQUIRED
    assert limits.MAX_PSUS == kinds.kind("psu").role.most


def test_the_doors_list_every_kind_from_the_table():
    assert set(edits.REMOVABLE) == set(kinds.BY_NAME)
    assert set(listimport.ROLE_ORDER) == {k.name for k in kinds.KINDS if k.categories}
    assert listimport.ROLE_ORDER[0] == "motherboard" and listimport.ROLE_ORDER[-1] == "gpu"  # the board first, GPUs last
    assert set(kinds.BUILD_ATTRS) | {"riser"} == {k.role.attr for k in kinds.KINDS}


def test_part_ids_and_quantities_count_every_role():
    b = Build(motherboard="mb-a", cpu="cpu-a", cooler="cool-a", case="case-a", psus=["psu-a", "psu-b"],
              memory=[PartCount("mem-a", 4)], storage=[StorageItem("sto-a", 2)], nics=["nic-a"],
              gpus=[GpuPlacement("gpu-a", 1), GpuPlacement("gpu-a", None, "riser", riser="riser-a")])
    assert sorted(b.part_ids()) == sorted(["mb-a", "cpu-a", "cool-a", "case-a", "psu-a", "psu-b", "mem-a", "sto-a",
                                           "nic-a", "gpu-a", "gpu-a", "riser-a"])
    assert dict(kinds.quantities(b)) == {"mb-a": 1, "cpu-a": 1, "cool-a": 1, "case-a": 1, "psu-a": 1, "psu-b": 1,
                                         "mem-a": 4, "sto-a": 2, "nic-a": 1, "gpu-a": 2, "riser-a": 1}
    assert Build().missing_roles() == kinds.REQUIRED and not b.missing_roles()
    assert buildfile.from_dict(buildfile.to_dict(b)) == b  # the file writes and reads every role
