"""What a price is, in the words the shipped data gives it ("US street price, lowest in stock",
"launch MSRP"), as translatable texts; and texts quoted from the data as they stand.

The shipped price tables (resources/money) and the catalog rows' ``price_note`` store their notes
in English. Each note they use is declared here once as a template; ``note_text`` gives a note as a
``T`` of its template (the English is the stored text, unchanged; other languages read their
translation), so a German window shows no English note. A note no template declares (the user's
own, a new row's) and a source (a publisher's citation, the user's) is not translated:
``quoted`` marks it as quoted, in the reader's quotation marks. A test checks that every note the
shipped data holds has its template.
"""
from __future__ import annotations

import re
import string
from functools import lru_cache
from typing import Callable, Optional

from rigbuilder.domain.i18n import N_, Month, Num, T

NOTES: tuple[str, ...] = (
    # resources/money/street-prices-*.json (scripts/import_street_prices.py writes them)
    N_("US street price, lowest in stock"),
    N_("US street price, lowest in stock of {listings} listings"),
    N_("launch price of the {chip} (the chip's reference card), not this card's own price and not what it "
       "costs today"),
    # resources/money/prices.json
    N_("average eBay sold price of {cards} cards (every maker, {sold} sold) in {month_name}, not this edition's own"),
    N_("under {usd} USD for the board and the CPU together, used, on eBay"),
    N_("at most {usd} USD each, used, on eBay"),
    # resources/money/used-prices.json (scripts/import_used_prices.py writes it)
    N_("used price of {cards} cards in US eBay listings of {day} (asking prices), not this edition's own"),
    # rigbuilder.models.depreciation (ESTIMATE_NOTE): a used price estimated, never observed
    N_("estimated from {chips} GPU chips' used prices by age, memory and segment, not observed; on chips "
       "held out of the fit, half within {median}, 80% within {low} to {high}"),
    # the catalog rows' price_note (resources/catalog)
    N_("launch price"),
    N_("launch MSRP"),
    N_("launch MSRP (AMD SEP)"),
    N_("launch MSRP (AMD SEP, retail {year})"),
    N_("launch MSRP announced at SIGGRAPH {year}"),
    N_("launch RCP (Intel)"),
    N_("launch RCP (Intel, lowest of the published RCP range)"),
    N_("launch 1kU price (AMD)"),
    N_("launch price of the Founders Edition (partner MSRP {usd})"),
    N_("Epoch AI price (Microway price analysis), not an official MSRP"),
    N_("Epoch AI price (The Next Platform, 2021), not an official MSRP"),
    N_("Epoch AI price for the {chip} (HardwareZone), not an official MSRP"),
    N_("launch price as listed by TechPowerUp and Epoch AI"),
    N_("PCPartPicker street price {month}"),
    N_("PCPartPicker street price {month} (pc-part-dataset); launch MSRP unknown"),
    N_("PCPartPicker street price {month} (discontinued)"),
    N_("PCPartPicker street price {month} (discontinued; marketplace price)"),
    N_("PCPartPicker street price {month} (discontinued; listed price likely a marketplace seller)"),
    N_("PCPartPicker street price {month} (end-of-life stock)"),
    N_("PCPartPicker street price {month} (end-of-life stock; launched far lower)"),
    N_("PCPartPicker street price {month} (white)"),
    N_("PCPartPicker street price {month} (row {row})"),
    N_("PCPartPicker street price {month} ({row} row)"),
    # resources/catalog/risers.json and cases-frames.json
    N_("Amazon.com listing price seen {day}"),
    N_("Amazon.com listing price of the whole kit (bracket and riser) seen {day}"),
    N_("Amazon.de search-result price seen {day}"),
    N_("a builder's purchase price, parts list {month}"),
)

_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December")


def _month_name(text: str) -> Month:
    name, year = text.split()
    return Month(f"{year}-{_MONTH_NAMES.index(name) + 1:02d}", text)


_FIELDS: dict[str, tuple[str, Callable[[str], object]]] = {
    # a placeholder: what it matches in the stored text, and the figure it becomes
    "listings": (r"\d+", int),
    "sold": (r"\d+", int),
    "year": (r"\d{4}", str),
    "usd": (r"\d+", lambda s: Num(float(s), s)),
    "month": (r"\d{4}-\d{2}", lambda s: Month(s, s)),
    "day": (r"\d{4}-\d{2}-\d{2}", str),  # an ISO date: the same in every language
    "month_name": ("(?:" + "|".join(_MONTH_NAMES) + r") \d{4}", _month_name),
    "chip": (r"[^()]+?", str),  # a name: not translated
    "cards": (r"[^()]+?", str),
    "row": (r"[^()]+?", str),
    "chips": (r"\d+", int),
    "median": (r"±\d+%", str),  # a share of the price, signed: the same in every language
    "low": (r"[+-]\d+%", str),
    "high": (r"[+-]\d+%", str),
}


@lru_cache(maxsize=None)
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    out = []
    for template in NOTES:
        rx = ""
        for literal, name, _spec, _conv in string.Formatter().parse(template):
            rx += re.escape(literal)
            if name:
                rx += f"(?P<{name}>{_FIELDS[name][0]})"
        out.append((re.compile(rx), template))
    return tuple(out)


@lru_cache(maxsize=4096)
def declared_note(note: str) -> Optional[T]:
    """``note`` as the ``T`` of the template that declares it (its English unchanged), or None."""
    for rx, template in _patterns():
        m = rx.fullmatch(note)
        if m:
            return T(template, **{k: _FIELDS[k][1](v) for k, v in m.groupdict().items()})
    return None


def quoted(text: str) -> T:
    """A text quoted as the data gives it (a publisher's citation, the user's own words): English
    shows it as it stands; other languages put it in their quotation marks."""
    # TRANSLATORS: a text quoted as it stands (a source's citation, a user's note), never
    # translated: put it in your language's quotation marks.
    return T("{quoted_text}", quoted_text=text)


def note_text(note: str) -> str:
    """A price's note for display: translatable when the shipped data's templates declare it,
    quoted when not, '' for none. A note that is already a ``T`` is kept."""
    if not note or isinstance(note, T):
        return note
    return declared_note(note) or quoted(note)
