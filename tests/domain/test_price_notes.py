"""The notes the shipped data gives a price ("US street price, lowest in stock", "launch MSRP") read
in the reader's language; sources and notes the data quotes as they stand are marked as quoted."""
from __future__ import annotations

import json

import pytest

from rigbuilder.catalog.loader import catalog_files
from rigbuilder.catalog.prices import price_files
from rigbuilder.domain.i18n import Month, T, gettext, render
from rigbuilder.domain.money import PriceObservation
from rigbuilder.domain.pricenotes import NOTES, declared_note, note_text, quoted
from rigbuilder.models.prices import price_part

LANGS = ("de", "fr", "ja", "zh_CN")
ENGLISH_NOTES = ("street price", "lowest in stock", "launch MSRP", "launch price", "listings", "not this card",
                 "discontinued", "reference card")


def shipped_notes() -> set[str]:
    out = set()
    for path in price_files():
        out |= {o.get("note", "") for o in json.loads(path.read_text(encoding="utf-8"))["observations"]}
    for path in catalog_files():
        out |= {r.get("price_note") or "" for r in json.loads(path.read_text(encoding="utf-8"))}
    return out - {""}


def test_every_note_the_shipped_data_holds_is_declared_and_its_english_unchanged():
    notes = shipped_notes()
    assert len(notes) > 40  # the street prices, the chips' launch prices, the catalog rows' notes
    undeclared = sorted(n for n in notes if declared_note(n) is None)
    assert not undeclared, undeclared[:10]
    assert all(str(declared_note(n)) == n for n in notes)  # English, JSON and CSV read as before


@pytest.mark.parametrize("lang", LANGS)
def test_every_declared_note_is_translated(lang):
    assert [t for t in NOTES if gettext(t, lang) == t] == []


def test_a_note_renders_its_figures_for_the_language():
    n = declared_note("US street price, lowest in stock of 4 listings")
    assert render(n, "de") == "US-Straßenpreis, der niedrigste lieferbare von 4 Angeboten"
    ebay = declared_note("average eBay sold price of GeForce RTX 3090 cards (every maker, 765 sold) in "
                         "October 2023, not this edition's own")
    assert "Oktober 2023" in render(ebay, "de") and "GeForce RTX 3090" in render(ebay, "de")
    assert "2023年10月" in render(ebay, "ja")
    assert render(declared_note("PCPartPicker street price 2025-07"), "fr") == "prix constaté sur PCPartPicker, juillet 2025"
    assert render(T("{m}", m=Month("2025-07", "2025-07")), "en") == "2025-07"


def test_a_note_or_source_the_data_quotes_is_marked_as_quoted():
    mine = note_text("bought from a colleague")  # the user's own words: no template
    assert str(mine) == "bought from a colleague"  # English as it stands
    assert render(mine, "de") == "„bought from a colleague“"
    assert render(mine, "fr") == "« bought from a colleague »"
    assert render(quoted("x"), "ja") == "「x」" and render(quoted("x"), "zh_CN") == "“x”"
    assert note_text("") == ""
    o = PriceObservation("gpu-x", 100.0, "USD", "used", "marketplace", "Tom's Hardware, 2023", "2023-10")
    assert "„Tom's Hardware, 2023“" in render(o.describe(), "de")
    assert render(o.describe(), "en").endswith(": Tom's Hardware, 2023")
    mine = PriceObservation("gpu-x", 100.0, "USD", "new", "user", "entered by me", "2026-11-01")
    assert "entered by me" not in render(mine.describe(), "de")


def _street_priced(index):
    """A part priced by a shipped street-price observation and one priced by its catalog row's note."""
    street = next(pid for pid, obs in index.prices.observations.items()
                  if any(o.note.startswith("US street price") for o in obs) and index.get(pid) is not None)
    row = next(p.id for p in index if (p.price_note or "").startswith("PCPartPicker street price")
               and not index.prices.for_part(p.id))
    return street, row


@pytest.mark.parametrize("lang", LANGS)
def test_a_price_line_holds_no_english_note(index, lang):
    street, row = _street_priced(index)
    for pid in (street, row):
        pp = price_part(pid, "EUR", index)
        assert pp is not None
        en, text = render(pp.trace(), "en"), render(pp.trace(), lang)
        assert any(w in en for w in ENGLISH_NOTES)  # the test can fail: English names the note
        assert not [w for w in ENGLISH_NOTES if w in text], text
        assert render(quoted(pp.observation.source), lang) in text  # the source as it stands, quoted


def test_a_rent_price_line_quotes_its_publication():
    from rigbuilder.models.renting import load_cloud_prices

    p = load_cloud_prices()[0]
    assert render(p.describe(), "en").endswith(f": {p.source}")  # English as before
    assert render(p.describe(), "de").endswith(f": „{p.source}“")
