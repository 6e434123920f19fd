"""Radiators against brute force (issue 37): the search judges case.radiators as the check does.

Every radiator of a build (a hybrid card's, an AIO CPU cooler's) needs a case mount of its own, no
smaller than itself; a case whose mounts are not known, a radiator whose size is not stated, or a
water-block card (its loop is no part of the build) is a warning the warnings policy refuses unless
warnings are allowed. The small catalogs and requests of ``tests/rules/test_exact_optimise.py`` with a
hybrid or water-block card in place of a drawn one, an AIO cooler among the coolers and drawn radiator
mounts on the cases: the search's answer is brute force's (which judges every build with the check
engine). A file of its own, as ``test_exact_passive.py``: Hypothesis derives the examples of the tests
there from that file's code, and they are kept as they were.
"""
from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import PriceBook
from rigbuilder.rules.fit import build_radiators
from tests.rules.optimise_helpers import StandIn, agreed
from tests.rules.test_exact_optimise import NO_SHRINK, PLATFORM_OFF, requests, small_catalog

MOUNTS = (None, (), (120,), (240,), (360,), (360, 240), (360, 360), (420, 280, 120))
"""Radiator mounts drawn for a case (None: not known)."""


@st.composite
def with_radiators(draw, cat: PartIndex) -> PartIndex:
    """The small catalog with its first drawn card made a hybrid (radiator drawn, unstated among them) or a
    water-block card, its first drawn cooler an AIO in half (radiator drawn, for every socket of the
    catalog), and each case's radiator mounts drawn."""
    parts = list(cat)
    i = next(i for i, p in enumerate(parts) if p.KIND == "gpu")
    cooler = draw(st.sampled_from(["hybrid", "hybrid", "hybrid", "water-block"]))
    parts[i] = dataclasses.replace(parts[i], cooler=cooler, radiator_mm=draw(
        st.sampled_from([120.0, 240.0, 360.0, None])) if cooler == "hybrid" else None)
    if draw(st.booleans()):
        j = next(j for j, p in enumerate(parts) if p.KIND == "cooler")
        sockets = tuple(sorted({p.socket for p in parts if p.KIND == "motherboard"}))
        parts[j] = dataclasses.replace(parts[j], type="AIO", height_mm=None, sockets=sockets,
                                       radiator_mm=draw(st.sampled_from([240.0, 360.0, 420.0, None])))
    parts = [dataclasses.replace(p, radiator_mounts=draw(st.sampled_from(MOUNTS))) if p.KIND == "case" else p
             for p in parts]
    return PartIndex(parts, prices=PriceBook())


def test_radiators_agree_with_brute_force(index):
    """Issue 37: the search leaves out a case whose mounts cannot hold the build's radiators (the grown
    stage's included), and a case of unknown mounts, an unstated radiator or a water-block card unless
    warnings are allowed; its answer is brute force's."""
    scorer = StandIn()
    found = {"feasible": 0, "radiator answers": 0, "allowed": 0}

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(with_radiators(data.draw(small_catalog(index, scorer))))
        req = dataclasses.replace(data.draw(requests()), insist=(), own=(), min_storage_gb=0.0, gpus_now=1,
                                  grow_to=data.draw(st.sampled_from([None, 2])),  # (brute force: few placements)
                                  allow_warnings=data.draw(st.sampled_from([True, False])),
                                  choices=(("memory-channels", False), ("system-drive", False), *PLATFORM_OFF))
        found["allowed"] += req.allow_warnings
        res = agreed(req, cat, scorer)
        if res is None:
            return
        found["feasible"] += 1
        grown = res.best.grown
        found["radiator answers"] += bool(build_radiators((cat.get(g.part_id) for g in grown.gpus),
                                                          cat.get(grown.cooler) if grown.cooler else None))

    check()
    assert found["feasible"] >= 4 and found["radiator answers"] >= 2 and 8 <= found["allowed"] <= 32, found
