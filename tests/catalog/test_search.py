"""Catalog search (core, no Qt): words, kinds and GPU filters."""
from __future__ import annotations

from rigbuilder.catalog.search import PartQuery, SearchIndex, matches, search


def test_every_word_must_match(index):
    found = search(list(index), PartQuery(text="3090 turbo"))
    assert "gpu-asus-rtx-3090-turbo" in {p.id for p in found}
    assert all("3090" in p.name.lower() or "3090" in p.id for p in found)
    assert search(list(index), PartQuery(text="3090 nosuchword")) == []


def test_cooler_words_and_filters(index):
    blowers = search(list(index), PartQuery(text="blower", kind="gpu"))
    assert blowers and all(p.cooler == "blower" for p in blowers)
    q = PartQuery(kind="gpu", min_vram_gb=24, cooler="open-air", max_slot_width=2.5, max_length_mm=300)
    got = search(list(index), q)
    assert got
    for p in got:
        assert p.vram_gb >= 24 and p.cooler == "open-air" and p.slot_width <= 2.5 and p.length_mm <= 300
    # the same filters reject what they should
    big = index.get("gpu-nvidia-rtx-4090-fe")
    assert not matches(big, PartQuery(max_slot_width=2.5))
    assert matches(big, PartQuery(max_slot_width=3))


def test_price_filter_drops_unpriced_parts(index):
    q = PartQuery(kind="motherboard", max_price=100000)
    got = search(list(index), q)
    boards = index.of_kind("motherboard")
    unpriced = [p for p in boards if p.price is None]
    assert got and unpriced  # the filter has something to keep and something to drop
    assert all(p.price is not None for p in got)
    assert len(got) == len(boards) - len(unpriced)


def test_index_keeps_order_and_case_insensitive(index):
    parts = sorted(index.of_kind("cpu"), key=lambda p: p.id)
    si = SearchIndex(parts)
    rows = si.filter(PartQuery(text="THREADRIPPER"))
    assert rows == sorted(rows) and rows
    assert all("threadripper" in parts[i].name.lower() for i in rows)


# What people type (issue 16): words across name, VRAM, cooler, wattage and efficiency; numbers
# with units match their field; "cheapest" sorts by price.

def test_parse_text_units_and_sort():
    from rigbuilder.catalog.search import parse_text

    p = parse_text("Cheapest 24 GB blower 1600W 2tb")
    assert p.words == ("blower",) and p.sort == "price"
    assert p.measures == (("gb", 24.0, "24gb"), ("w", 1600.0, "1600w"), ("tb", 2.0, "2tb"))
    assert parse_text("3090 turbo").measures == ()  # a bare number stays a word


def test_24gb_blower(index):
    got = search(list(index), PartQuery(text="24gb blower"))
    assert got and all(p.vram_gb == 24 and p.cooler == "blower" for p in got)
    assert "gpu-asus-rtx-3090-turbo" in {p.id for p in got}
    # a 24 GB card whose name does not say "24GB" still matches: the field decides
    assert any("24" not in p.model for p in got)
    assert search(list(index), PartQuery(text="24 gb blower")) == got


def test_1600w_titanium(index):
    got = search(list(index), PartQuery(text="1600w titanium"))
    assert got and all(p.KIND == "psu" and p.wattage == 1600 and p.efficiency == "Titanium" for p in got)
    assert "psu-evga-supernova-1600-t2" in {p.id for p in got}


def test_3090_turbo_matches_names(index):
    got = search(list(index), PartQuery(text="3090 turbo"))
    assert got and all("turbo" in p.name.lower() and "3090" in p.name.lower() for p in got)


def test_cheapest_sorts_by_price_unpriced_last(index):
    got = search(list(index), PartQuery(text="cheapest 24 gb", kind="gpu"))
    assert got and all(p.vram_gb == 24 for p in got)
    prices = [p.price for p in got]
    priced = [x for x in prices if x is not None]
    assert priced == sorted(priced) and len(priced) > 1
    assert prices[:len(priced)] == priced  # the unpriced follow
    q = PartQuery(text="cheapest 24 gb", kind="gpu")
    assert all(matches(p, q) for p in got)
