"""case.radiators (issue 37): every radiator of a build, each hybrid card's and an AIO CPU cooler's, needs
a case mount of its own, no smaller than itself. On real catalog parts; a case's mounts are set with
dataclasses.replace where the catalog states none (no shipped case has confirmed mounts yet)."""
from __future__ import annotations

import dataclasses

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import render
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.fit import SMALLEST_RADIATOR_MM, radiator_severity
from tests.builds import x99_4x3090

WATERFORCE = "gpu-gigabyte-rtx-4090-aorus-xtreme-waterforce"  # 360 mm radiator (MuyComputer 2022)
SUPRIM_LIQUID = "gpu-msi-rtx-4090-suprim-liquid-x"  # 240 mm (Tom's Hardware review)
UNSTATED = "gpu-evga-rtx-2080-ti-ftw3-ultra-hybrid"  # a hybrid whose radiator no source states
FROSTBITE = "gpu-inno3d-rtx-4090-ichill-frostbite"  # a full-cover water block
AIO_420 = "cool-arctic-liquid-freezer-ii-420"
CASE = "case-phanteks-enthoo-719"


def found(findings, severity=None):
    return [f for f in findings if f.code == "case.radiators" and (severity is None or f.severity is severity)]


def build(cards, cooler="cool-noctua-nh-u14s"):
    b = x99_4x3090(None)
    b.gpus = [dataclasses.replace(g, part_id=c) for g, c in zip(b.gpus, cards)]
    b.cooler = cooler
    return b


def with_mounts(index, mounts):
    case = dataclasses.replace(index.get(CASE), radiator_mounts=mounts)
    return PartIndex([p for p in index if p.id != CASE] + [case], prices=index.prices)


def test_the_catalog_gives_the_radiators(index):
    assert index.get(WATERFORCE).radiator_mm == 360 and "radiator_mm" not in index.get(WATERFORCE).unverified
    assert index.get(SUPRIM_LIQUID).radiator_mm == 240
    assert index.get(UNSTATED).radiator_mm is None and "radiator_mm" in index.get(UNSTATED).unverified
    assert index.get(AIO_420).radiator_mm == 420
    case = index.get(CASE)
    assert case.radiator_mounts is None and "radiator_mounts" in case.unverified


def test_two_360_mm_radiators_need_two_360_mm_mounts(index):
    """An assignment, not a sum: a 420 mm front and a 240 mm top do not hold two 360 mm radiators."""
    fs = found(run_checks(build([WATERFORCE] * 2), with_mounts(index, (420, 240))), Severity.ERROR)
    assert [f.code for f in fs] == ["case.radiators"] and fs[0].gpus == (1, 2) and fs[0].parts == (WATERFORCE, CASE)
    assert "2 radiators (360 mm, 360 mm: GPU 1, GPU 2)" in fs[0].message and "420 mm, 240 mm" in fs[0].message
    assert "mount for each radiator" in fs[0].fix
    assert not found(run_checks(build([WATERFORCE] * 2), with_mounts(index, (360, 360, 120))))
    # the CPU cooler's radiator takes a mount too
    fs = found(run_checks(build([WATERFORCE], AIO_420), with_mounts(index, (420, 240))), Severity.ERROR)
    assert fs and AIO_420 in fs[0].parts
    assert not found(run_checks(build([WATERFORCE], AIO_420), with_mounts(index, (240, 420, 360))))
    assert not found(run_checks(build([WATERFORCE, SUPRIM_LIQUID]), with_mounts(index, (360, 240))))


def test_unknown_mounts_and_unstated_radiators_are_warnings(index):
    fs = found(run_checks(build([WATERFORCE]), index))
    assert [f.severity for f in fs] == [Severity.WARNING] and "radiator mounts are not known" in fs[0].message
    assert "maker's page" in fs[0].fix
    assert not found(run_checks(build([]), index))  # no radiator, nothing to say
    # a radiator of unstated size: a warning where its smallest size fits, an error where not even that does
    fs = found(run_checks(build([UNSTATED]), with_mounts(index, (240,))))
    assert [f.severity for f in fs] == [Severity.WARNING] and "size not stated" in fs[0].message
    assert found(run_checks(build([UNSTATED]), with_mounts(index, ())), Severity.ERROR)
    assert radiator_severity((None,), index.get(CASE)) is Severity.WARNING
    assert radiator_severity((None, None), dataclasses.replace(index.get(CASE), radiator_mounts=(
        SMALLEST_RADIATOR_MM,))) is Severity.ERROR


def test_a_water_block_card_is_a_warning_never_an_error(index):
    """Its loop (pump, reservoir, radiator) is no part of the build; one loop radiator may cool several cards."""
    fs = found(run_checks(build([FROSTBITE] * 2), with_mounts(index, ())))
    assert [f.severity for f in fs] == [Severity.WARNING] and fs[0].gpus == (1, 2)
    assert "water blocks" in fs[0].message and "loop" in fs[0].fix


def test_the_finding_is_translated(index):
    fs = found(run_checks(build([WATERFORCE] * 2), with_mounts(index, (420, 240))))
    de = render(fs[0].message, "de")
    assert "2 Radiatoren (360 mm, 360 mm: GPU 1, GPU 2)" in de and "passt nicht" in de
    assert "Radiator" in render(fs[0].fix, "de") and "ラジエーター" in render(fs[0].message, "ja")


def test_no_build_names_the_radiators_when_they_are_the_reason(index):
    """The search's no-build reason says that the case's radiator mounts are the constraint (and what
    relaxes it), where a case would take the cards but for their radiators."""
    from rigbuilder.domain.money import PriceBook
    from rigbuilder.rules.optimise import Request, optimise
    from tests.rules.optimise_helpers import StandIn

    b = build([WATERFORCE])
    ids = [b.motherboard, b.cpu, b.cooler, b.psus[0], b.memory[0].part_id, b.storage[0].part_id, WATERFORCE, CASE]
    cat = PartIndex([dataclasses.replace(index.get(i), price=300.0, currency="EUR", price_note="test") for i in ids],
                    prices=PriceBook())
    req = Request(currency="EUR", gpus_now=1, min_storage_gb=0.0, ram_per_vram=0.0,
                  choices=(("memory-channels", False), ("system-drive", False), ("platform-link", False),
                           ("platform-age", False), ("native-sockets", False)))
    res = optimise(req, cat, StandIn())
    assert res.best is None and "radiator mounts known to hold 1 x" in res.infeasible, res.infeasible
    allowed = optimise(dataclasses.replace(req, allow_warnings=True), cat, StandIn())
    assert allowed.best is not None and allowed.best.grown.case == CASE
