"""A launch price is never a new price after the end of sale (issue 38): past the part's sourced end
of sale, or three years after its launch without a newer observation."""
from __future__ import annotations

from rigbuilder.domain.build import Build, PricePaid
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.endofsale import end_of_sale, launch_expired, why_expired
from rigbuilder.domain.money import PriceBook, PriceObservation
from rigbuilder.domain.parts import GPU
from rigbuilder.models.prices import availability, catalog_observation, price_part

TODAY = "2026-11-26"


def card(pid, year=2021, note="launch MSRP", price=1000.0):
    return GPU(pid, "NVIDIA", pid, "maker page", "2025-01", price=price, currency="USD", price_note=note,
               release_year=year)


def test_three_years_after_the_launch_the_launch_price_is_no_new_price():
    old, recent = card("gpu-old", 2022), card("gpu-recent", 2025)
    assert launch_expired(catalog_observation(old), old, TODAY)
    assert not launch_expired(catalog_observation(recent), recent, TODAY)
    assert not launch_expired(catalog_observation(old), old, "2024-06-01")  # within three years of 2022
    assert "three" not in why_expired(catalog_observation(old), old, TODAY) and "3 years" in why_expired(
        catalog_observation(old), old, TODAY)


def test_the_makers_end_of_sale_ends_it_sooner():
    evga = card("gpu-evga-rtx-3080-ftw3", 2021)
    assert end_of_sale(evga.id) is not None and "EVGA" in end_of_sale(evga.id).source
    assert launch_expired(catalog_observation(evga), evga, "2022-10-01")  # a year after launch, but EVGA left
    assert not launch_expired(catalog_observation(card("gpu-asus-x", 2021)), None, "2022-10-01")
    assert "EVGA" in why_expired(catalog_observation(evga), evga, "2022-10-01")


def test_used_only_or_no_current_new_price():
    a, b = card("gpu-a", 2020), card("gpu-b", 2020)
    used = PriceObservation("gpu-a", 400, "USD", "used", "marketplace", "eBay sold average", "2026-10")
    idx = PartIndex([a, b], prices=PriceBook.of([used]))
    assert availability("gpu-a", idx, today=TODAY) == "used only"
    assert availability("gpu-b", idx, today=TODAY) == "no current new price"
    assert price_part("gpu-b", "USD", idx, today=TODAY) is None
    assert price_part("gpu-a", "USD", idx, condition="new", strict=True, today=TODAY) is None
    assert price_part("gpu-a", "USD", idx, today=TODAY).observation.condition == "used"
    # a newer street price is a new price again
    shop = PriceObservation("gpu-b", 900, "USD", "new", "shop", "a shop", "2026-09")
    idx2 = PartIndex([a, b], prices=PriceBook.of([used, shop]))
    assert availability("gpu-b", idx2, today=TODAY) == "new"
    # what the user paid stays what was paid
    build = Build(prices_paid={"gpu-b": PricePaid(1000, "USD", "new", "bought at launch", "2020-10-01")})
    assert price_part("gpu-b", "USD", idx, build=build, today=TODAY).amount == 1000


def test_no_part_past_its_end_of_sale_is_offered_new_at_a_launch_price(index):
    """The whole shipped catalog, through the one pricing function every door calls and through the
    optimiser's prices."""
    from rigbuilder.rules.optimise import Request, _Prices

    prices = _Prices(Request(condition="new", currency="USD", region="US-15A", today=TODAY), index)
    checked = expired = 0
    for p in index:
        o = catalog_observation(p)
        launches = [x for x in (*index.prices.for_part(p.id), *((o,) if o else ())) if x.origin == "launch"]
        if not launches:
            continue
        checked += 1
        dead = [x for x in launches if launch_expired(x, p, TODAY)]
        if not dead:
            continue
        expired += 1
        pp = price_part(p.id, "USD", index, condition="new", today=TODAY)
        assert pp is None or pp.observation not in dead, p.id
        u = prices.unit(p.id)
        assert u is None or u[1].observation not in dead, p.id
        assert availability(p.id, index, today=TODAY) != "new" or any(
            x.condition == "new" and x.origin != "launch" for x in index.prices.for_part(p.id)), p.id
    assert checked > 300 and expired > 300, (checked, expired)  # the rule bites on the real catalog
    # the examples
    for pid in ("gpu-nvidia-rtx-a5000", "gpu-nvidia-rtx-3090-fe"):
        pp = price_part(pid, "USD", index, condition="new", strict=True, today=TODAY)
        assert pp is None or pp.observation.origin != "launch", pid
    assert availability("gpu-nvidia-rtx-3090-fe", index, today=TODAY) == "used only"


def test_every_evga_card_in_the_catalog_is_past_its_end_of_sale(index):
    evga = [p for p in index.of_kind("gpu") if p.maker == "EVGA"]
    assert len(evga) > 100
    for p in evga:
        assert end_of_sale(p.id) is not None, p.id
        pp = price_part(p.id, "USD", index, condition="new", strict=True, today=TODAY)
        assert pp is None or pp.observation.origin != "launch", p.id


def test_the_adviser_says_used_only_for_a_card_without_a_current_new_price(index):
    from rigbuilder.models.value import card_price

    amount, trace = card_price(index.get("gpu-nvidia-rtx-3090-fe"), "USD", index)
    assert amount == 704 and trace.startswith("used only: ")
