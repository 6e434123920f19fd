"""The build model: clone() is a full deep copy (undo snapshots rely on it)."""
from __future__ import annotations

import copy
import dataclasses

from hypothesis import given, settings

from rigbuilder.domain.build import Build, GpuPlacement, PartCount, PricePaid, Settings, StorageItem
from tests.rules.test_properties import builds


def _nested_objects(b: Build):
    yield b
    yield b.settings
    yield from b.memory
    yield from b.storage
    yield from b.gpus


@settings(max_examples=60, deadline=None)
@given(builds)
def test_clone_equals_deepcopy_and_shares_nothing(b):
    c = b.clone()
    assert c == copy.deepcopy(b)
    for x, y in zip(_nested_objects(b), _nested_objects(c)):
        assert x is not y
    for name in ("psus", "memory", "storage", "nics", "gpus"):
        assert getattr(c, name) is not getattr(b, name)


def test_clone_knows_every_field():
    """A field added to a build class must be copied by clone(): this fails until it is."""
    b = Build(name="n", motherboard="mb", cpu="cpu", cooler="cool", case="case", psus=["p"],
              memory=[PartCount("m", 2)], storage=[StorageItem("s", 2, "M2_1")], nics=["n1"],
              gpus=[GpuPlacement("g", 3, "riser", 250.0, "riser-r")],
              settings=Settings("US-15A", 0.2, "USD", 10.0, 2.0, 31.0, 2000.0, "used", 0.7, 0.45, 55.0), notes="x",
              prices_paid={"g": PricePaid(700.0, "EUR", "used", "eBay", "2026-11-01")})
    for obj, cls in ((b, Build), (b.settings, Settings), (b.memory[0], PartCount), (b.storage[0], StorageItem),
                     (b.gpus[0], GpuPlacement), (b.prices_paid["g"], PricePaid)):
        for f in dataclasses.fields(cls):
            default = (f.default if f.default is not dataclasses.MISSING
                       else f.default_factory() if f.default_factory is not dataclasses.MISSING else object())
            assert getattr(obj, f.name) != default, f"set {cls.__name__}.{f.name} in this test"
    assert b.clone() == b
    assert b.clone().prices_paid["g"] is not b.prices_paid["g"]
