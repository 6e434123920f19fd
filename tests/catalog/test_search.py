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
