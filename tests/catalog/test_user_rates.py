"""Exchange rates the user edits are saved in the data directory and read back at the next start."""
from __future__ import annotations

import json

import pytest

from rigbuilder.catalog.prices import MoneyFileError, load_rates, rates_from_dict, rates_to_dict, save_rates
from rigbuilder.catalog.pricebook import price_book, user_rates_path
from rigbuilder.config import Paths


def test_edited_rates_survive_a_restart(tmp_path):
    paths = Paths(tmp_path / "data", tmp_path / "cache")
    mine = load_rates().with_rate("USD", 0.8, "2026-11-24")
    save_rates(mine, user_rates_path(paths))
    problems: list = []
    again = price_book(paths, problems).rates  # what the next start reads
    assert problems == []
    assert again == mine and again.user_dates == {"USD": "2026-11-24"} and again.edited
    assert again.date == load_rates().date and again.source.startswith("European Central Bank")


def test_a_broken_rates_file_is_reported_and_the_shipped_rates_used(tmp_path):
    paths = Paths(tmp_path / "data", tmp_path / "cache")
    user_rates_path(paths).parent.mkdir(parents=True)
    user_rates_path(paths).write_text("{not json", encoding="utf-8")
    problems: list = []
    assert price_book(paths, problems).rates == load_rates()
    assert len(problems) == 1 and "the shipped exchange rates are used" in str(problems[0])


def test_user_rates_must_name_known_currencies():
    d = rates_to_dict(load_rates())
    d["user_rates"] = {"XAU": "2026-11-24"}
    with pytest.raises(MoneyFileError, match="user_rates"):
        rates_from_dict(json.loads(json.dumps(d)), "exchange-rates.json")


@pytest.mark.parametrize("key,day,words", [("user_rates", "2024-02-30", "is not a day of the calendar"),
                                          ("user_rates", "2999-12-31", "is in the future"),
                                          ("date", "2999-12-31", "is in the future"),
                                          ("date", "last week", "is not a day of the calendar")])
def test_a_rates_file_dated_on_no_day_or_in_the_future_is_refused_as_a_price_is(key, day, words):
    """Issue 38: a date is checked the same way at every door (domain.money.check_date)."""
    d = rates_to_dict(load_rates().with_rate("USD", 0.8, "2026-11-24"))
    if key == "date":
        d["date"] = day
    else:
        d["user_rates"] = {"USD": day}
    with pytest.raises(MoneyFileError, match=words):
        rates_from_dict(d, "exchange-rates.json")
