"""Lengths as the window shows them: mm or inches (the preference ``appearance/units``).

The core keeps millimetres; only what the window shows goes through ``length``. Printing and
exports keep mm.
"""
from __future__ import annotations

MM_PER_INCH = 25.4
UNITS = ("mm", "in")

_units = "mm"


def set_units(units: str) -> None:
    global _units
    _units = units if units in UNITS else "mm"


def units() -> str:
    return _units


def value(mm: float) -> float:
    """``mm`` in the shown unit."""
    return mm / MM_PER_INCH if _units == "in" else mm


def length(mm: float, units_: str | None = None) -> str:
    """'268 mm' or '10.55 in'."""
    u = units_ or _units
    if u == "in":
        return f"{mm / MM_PER_INCH:.2f} in"
    return f"{mm:g} mm"


def suffix() -> str:
    return "in" if _units == "in" else "mm"
