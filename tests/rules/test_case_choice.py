"""The builder's choice ``case-fit-confirmed`` (issue 37): a case whose GPU length limit or expansion
positions are unconfirmed is not chosen for a build with its cards in slots, where the choice is on
(off by default: of the shipped catalog's priced cases only the Fractal North, a 7-slot mid tower, has
both figures confirmed, and with the choice on most seed answers find no build)."""
from __future__ import annotations

import dataclasses

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import PriceBook
from rigbuilder.rules.optimise import Request, optimise
from rigbuilder.rules.optimise import choices
from tests.builds import RTX3090_FE, x99_4x3090
from tests.rules.optimise_helpers import StandIn, brute_force, same_key

CASE = "case-phanteks-enthoo-719"
ON = (("case-fit-confirmed", True),)


def _confirmed(case):
    return dataclasses.replace(case, id="case-test-confirmed", unverified=tuple(
        f for f in case.unverified if f not in choices.CASE_FIT_FACTS))


def test_which_cases_are_confirmed(index):
    case = index.get(CASE)
    assert {"max_gpu_length_mm", "expansion_slots"} & set(case.unverified)
    on = Request(currency="EUR", choices=ON)
    assert choices.case_ok(Request(currency="EUR"), case)  # off by default
    assert not choices.case_ok(on, case)
    assert choices.case_ok(on, _confirmed(case))
    assert not choices.case_ok(on, dataclasses.replace(_confirmed(case), max_gpu_length_mm=None))  # no limit stated
    assert choices.case_ok(dataclasses.replace(on, own=(("case", CASE),)), case)  # yours: taken as it is
    community = next(k for k in index.of_kind("case") if k.community)
    assert not choices.case_ok(on, dataclasses.replace(community, unverified=()))


def test_the_catalog_confirms_the_fractal_north(index):
    """The one priced case with both figures stated by a cited source (TweakPC 2022, TechPowerUp); its
    radiator mounts (front 360, top 240) stay unverified, the rear position being unstated."""
    north = index.get("case-fractal-north")
    assert choices.case_ok(Request(currency="EUR", choices=ON), north)
    assert (north.max_gpu_length_mm, north.expansion_slots) == (355, 7)
    assert tuple(north.radiator_mounts) == (360, 240) and "radiator_mounts" in north.unverified
    assert not choices.case_ok(Request(currency="EUR", choices=ON), index.get("case-fractal-define-7"))


def test_the_search_takes_the_confirmed_case_when_the_choice_is_on(index):
    """Two cases, the cheaper unconfirmed: with the choice on the search pays for the confirmed one, as
    brute force does; off, it takes the cheaper."""
    b = x99_4x3090(None, RTX3090_FE)
    ids = [b.motherboard, b.cpu, b.cooler, b.psus[0], b.memory[0].part_id, b.storage[0].part_id, RTX3090_FE]
    cheap = index.get(CASE)
    parts = [dataclasses.replace(index.get(i), price=300.0, currency="EUR", price_note="test") for i in ids]
    parts += [dataclasses.replace(cheap, price=100.0, currency="EUR", price_note="test"),
              dataclasses.replace(_confirmed(cheap), price=200.0, currency="EUR", price_note="test")]
    cat = PartIndex(parts, prices=PriceBook())
    scorer = StandIn()
    loose = (("memory-channels", False), ("system-drive", False), ("platform-link", False), ("platform-age", False),
             ("training-vram", False))
    for on, want_case in ((True, "case-test-confirmed"), (False, CASE)):
        req = Request(currency="EUR", gpus_now=1, min_storage_gb=0.0, ram_per_vram=0.0, allow_warnings=True,
                      choices=(*loose, ("case-fit-confirmed", on)))
        res = optimise(req, cat, scorer)
        assert res.best is not None and res.best.grown.case == want_case, (on, res.infeasible)
        assert same_key(res.best.key, brute_force(req, cat, scorer))
    # only the unconfirmed case: no build, and the reason names the choice
    cat = PartIndex([p for p in parts if p.id != "case-test-confirmed"], prices=PriceBook())
    res = optimise(Request(currency="EUR", gpus_now=1, min_storage_gb=0.0, ram_per_vram=0.0, allow_warnings=True,
                           choices=(*loose, *ON)), cat, scorer)
    assert res.best is None and "(choice case-fit-confirmed)" in res.infeasible, res.infeasible
