"""Small fixture rows for the riser tests: TEST FIXTURES, not catalog data (the shipped risers and
open frames are researched rows with sources, in resources/catalog)."""
from __future__ import annotations

from rigbuilder.catalog.schema import validate_part
from rigbuilder.domain.parts import Case, Riser

COMMON = {"maker": "Test", "source": "test fixture", "source_date": "2026-01", "currency": "EUR",
          "price_note": "test fixture", "unverified": [], "notes": None}


def riser_row(**over) -> dict:
    row = {"id": "riser-test-g4-200", "model": "Gen4 x16 riser 200 mm", "price": 40.0, "length_mm": 200,
           "pcie_gen": 4, "lanes": 16, "type": "ribbon", "angle": "straight", **COMMON}
    row.update(over)
    return row


def frame_row(**over) -> dict:
    row = {"id": "case-test-frame", "model": "8-GPU open frame", "price": 60.0, "form_factors": ["Micro-ATX", "ATX", "E-ATX", "SSI-CEB", "SSI-EEB"],
           "expansion_slots": 7, "max_gpu_length_mm": None, "max_cpu_cooler_height_mm": None,
           "max_psu_length_mm": None, "vertical_gpu_slots": 8, "type": "Open frame",
           "riser_min_length_mm": 300, **COMMON}
    row.update(over)
    return row


def riser(**over) -> Riser:
    part, probs = validate_part(Riser, riser_row(**over), "fixture")
    assert not probs, probs
    return part  # type: ignore[return-value]


def frame(**over) -> Case:
    part, probs = validate_part(Case, frame_row(**over), "fixture")
    assert not probs, probs
    return part  # type: ignore[return-value]


def fixture_risers() -> list[Riser]:
    """Gen3/Gen4 x16 risers at 200, 300 and 600 mm, a Gen4 one unpriced and an x1 USB riser."""
    return [riser(id="riser-test-g3-300", model="Gen3 x16 riser 300 mm", pcie_gen=3, length_mm=300, price=25.0),
            riser(id="riser-test-g4-200"),
            riser(id="riser-test-g4-300", model="Gen4 x16 riser 300 mm", length_mm=300, price=45.0),
            riser(id="riser-test-g4-600", model="Gen4 x16 riser 600 mm", length_mm=600, price=70.0),
            riser(id="riser-test-g4-300-np", model="Gen4 x16 riser 300 mm, no price", length_mm=300, price=None,
                  currency=None),
            riser(id="riser-test-usb-600", model="x1 USB riser", pcie_gen=3, lanes=1, type="usb", length_mm=600,
                  price=8.0, angle=None)]


def riser_index(index, *extra):
    """The shipped parts and prices with the fixture risers and the fixture frame added."""
    from rigbuilder.domain.catalog import PartIndex

    return PartIndex(list(index) + fixture_risers() + [frame()] + list(extra), version="test", prices=index.prices)
