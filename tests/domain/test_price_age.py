"""Every price says how old it is; older than six months is stale (issue 27)."""
from __future__ import annotations

import pytest

from rigbuilder.domain.money import (PriceObservation, age_text, any_stale, is_stale, months_between, price_ages)


@pytest.mark.parametrize("seen,today,stale", [
    ("2026-05-26", "2026-11-26", False),  # exactly six months: not yet stale
    ("2026-05-25", "2026-11-26", True),  # six months and a day
    ("2026-05-31", "2026-11-30", False),  # the edge on a shorter month: Nov 30 is six months after May 31
    ("2026-05-31", "2026-12-01", True),
    ("2026-06", "2026-12-01", False),  # a month counts from its first day
    ("2026-06", "2026-12-02", True),
    ("2025-07", "2026-11-26", True),
    ("", "2026-11-26", True),  # undated: stale
    ("soon", "2026-11-26", True),
])
def test_staleness_at_the_six_month_edge(seen, today, stale):
    assert is_stale(seen, today) is stale


def test_age_in_words():
    assert months_between("2025-07", "2026-11-26") == 16
    assert age_text("2025-07", "2026-11-26") == "16 months old, stale"
    assert age_text("2026-11-20", "2026-11-26") == "6 days old"
    assert age_text("2026-09-26", "2026-11-26") == "2 months old"
    assert age_text("", "2026-11-26") == "date unknown, stale"


def test_observations_carry_their_age_and_a_price_paid_is_never_stale():
    o = PriceObservation("x", 100, "USD", "new", "shop", "a shop", "2025-07")
    assert o.observed == "2025-07" and o.stale("2026-11-26")
    assert o.describe("2026-11-26") == "new, shop, 2025-07 (16 months old, stale): a shop"
    paid = PriceObservation("x", 90, "EUR", "used", "paid", "eBay", "2024-01-01")
    assert not paid.stale("2026-11-26") and "(paid)" in paid.describe("2026-11-26")


def test_price_ages_summarise_an_answer():
    obs = [PriceObservation(p, 1, "USD", "new", "shop", "s", "2025-07") for p in "abc"]
    obs.append(PriceObservation("d", 999, "USD", "new", "launch", "s", "2018-10-17"))
    assert price_ages(obs, "2026-11-26") == ["launch prices of 2018-10, 97 months old, stale (parts: 1)",
                                             "street prices of 2025-07, 16 months old, stale (parts: 3)"]
    assert any_stale(obs, "2026-11-26") and not any_stale(obs[:3], "2025-08-01")
