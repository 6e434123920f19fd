"""When a launch price stops being a new price. Plain Python, no Qt.

A launch price says what a part cost when it came out. After the maker stops selling it (its end
of sale, a sourced fact per part or per family, ``END_OF_SALE``), or, where no end of sale is
known, three years after its launch (``LAUNCH_YEARS``) without a newer observation, nobody sells it
new at that price: the part is "used only" where a used price is known, else it has "no current
new price" (``rigbuilder.models.prices.availability``). Newer observations (a shop's street price,
a price the user entered) are not touched: they say what the part costs now.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Optional

LAUNCH_YEARS = 3
"""A launch price is taken as a new price for this many years after the launch, where no end of
sale is known."""


@dataclass(frozen=True)
class EndOfSale:
    prefixes: tuple[str, ...]  # part ids, or the starts of a family's ids ("gpu-evga-": every EVGA graphics card)
    date: str  # ISO day or month from which the maker sells no more
    source: str  # who says so: publisher, title, date, link


END_OF_SALE: tuple[EndOfSale, ...] = (
    EndOfSale(("gpu-evga-", "gpu-odb-evga-"), "2022-09-16",
              "EVGA left the graphics card business and carries no card after the GeForce RTX 30 series: EVGA "
              "forum statement (\"EVGA will not carry the next generation graphics cards\"), reported by "
              "HotHardware, \"EVGA Severs Ties With NVIDIA And Exits The GPU Market\", 2022-09-16, "
              "https://hothardware.com/news/bombshell-evga-severs-ties-with-nvidia-and-exits-the-gpu-market"),
)


def end_of_sale(part_id: str) -> Optional[EndOfSale]:
    """The sourced end of sale of a part or its family (the longest matching prefix), else None."""
    best, longest = None, -1
    for e in END_OF_SALE:
        for pre in e.prefixes:
            if part_id.startswith(pre) and len(pre) > longest:
                best, longest = e, len(pre)
    return best


def _day(text: str) -> Optional[_dt.date]:
    from rigbuilder.domain.money import _parse_day

    return _parse_day(text)


def launch_expired(obs, part=None, today: Optional[str] = None) -> bool:
    """Whether the launch price ``obs`` is no longer a new price on ``today`` (ISO; today by
    default): past the part's end of sale, or more than LAUNCH_YEARS after its launch (the price's
    date, else the part's release year). An undated launch price of a part with no release year is
    kept (nothing says how old it is; it shows as stale)."""
    t = _day(today) if today else _dt.date.today()
    if t is None:
        return False
    e = end_of_sale(obs.part_id)
    if e is not None and (d := _day(e.date)) is not None and t >= d:
        return True
    launched = _day(obs.date) if obs.date else None
    if launched is None and part is not None and getattr(part, "release_year", None):
        launched = _dt.date(int(part.release_year), 1, 1)
    if launched is None:
        return False
    try:
        edge = launched.replace(year=launched.year + LAUNCH_YEARS)
    except ValueError:  # 29 February
        edge = launched.replace(year=launched.year + LAUNCH_YEARS, day=28)
    return t > edge


def why_expired(obs, part=None, today: Optional[str] = None) -> str:
    """Why a launch price is no new price, in words (a ``T``), or '' when it still is."""
    from rigbuilder.domain.i18n import T

    if not launch_expired(obs, part, today):
        return ""
    e = end_of_sale(obs.part_id)
    t = _day(today) if today else _dt.date.today()
    if e is not None and (d := _day(e.date)) is not None and t is not None and t >= d:
        return T("sold new until {date}: {source}", date=e.date, source=T.verbatim(e.source))
    return T("launched more than {n} years ago and no newer price known", n=LAUNCH_YEARS)
