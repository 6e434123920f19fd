"""Catalog search: what the catalog browser's search box and filters and ``catalog list --search``
decide, without Qt.

A query's text is split into words; a part matches when every word occurs (case-insensitive) in
its name, id, chip model, socket, cooler type or PSU efficiency ("3090 turbo", "24gb blower",
"1600w titanium"). A number with a unit ("24gb", "24 gb", "1600w", "2 tb", "300mm") matches the
part's field with that unit (VRAM, memory or storage size, wattage or board power, length) where
the part has one, and the text otherwise. "cheapest" sorts the matches by price, unpriced parts
last. The search texts and figures are built once per part list, so filtering 10,000 parts as
the user types stays fast (benchmarks/bench_catalog.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from rigbuilder.domain.parts import GPU, Part


@dataclass(frozen=True)
class PartQuery:
    """A search: text plus the GPU filters. Zero or empty means "any"."""

    text: str = ""
    kind: Optional[str] = None
    min_vram_gb: float = 0
    cooler: str = ""
    max_slot_width: float = 0
    max_length_mm: float = 0
    max_price: float = 0

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.text.lower().split())

    @property
    def parsed(self) -> "ParsedText":
        return parse_text(self.text)


UNIT_FIELDS: dict[str, tuple[tuple[str, float], ...]] = {
    "gb": (("vram_gb", 1), ("total_gb", 1), ("capacity_gb", 1)),
    "tb": (("capacity_gb", 1 / 1000),),
    "w": (("wattage", 1), ("board_power_w", 1)),
    "mm": (("length_mm", 1), ("max_gpu_length_mm", 1)),
}
"""A unit -> the fields a number with it is compared with (and the factor from field to unit)."""
UNIT_ALIASES = {"gb": "gb", "gib": "gb", "tb": "tb", "w": "w", "watt": "w", "watts": "w", "mm": "mm"}
NUMBER = r"\d+(?:\.\d+)?"
NUM_UNIT = re.compile(rf"^({NUMBER})({'|'.join(UNIT_ALIASES)})$")
SORT_WORDS = {"cheapest": "price"}


@dataclass(frozen=True)
class ParsedText:
    """A query's text: plain words, (unit, value, as typed) measures, and a sort order."""

    words: tuple[str, ...] = ()
    measures: tuple[tuple[str, float, str], ...] = ()
    sort: Optional[str] = None


def parse_text(text: str) -> ParsedText:
    tokens = text.lower().split()
    words: list[str] = []
    measures: list[tuple[str, float, str]] = []
    sort = None
    i = 0
    while i < len(tokens):
        t = tokens[i]
        m = NUM_UNIT.match(t)
        if t in SORT_WORDS:
            sort = SORT_WORDS[t]
        elif m:
            measures.append((UNIT_ALIASES[m.group(2)], float(m.group(1)), t))
        elif re.fullmatch(NUMBER, t) and i + 1 < len(tokens) and tokens[i + 1] in UNIT_ALIASES:
            measures.append((UNIT_ALIASES[tokens[i + 1]], float(t), t + tokens[i + 1]))
            i += 1
        else:
            words.append(t)
        i += 1
    return ParsedText(tuple(words), tuple(measures), sort)


def search_text(p: Part) -> str:
    """The lower-case text a part's search words are looked for in."""
    extra = [getattr(p, "chip_model", ""), getattr(p, "socket", ""), getattr(p, "cooler", ""),
             getattr(p, "efficiency", "")]
    return " ".join([p.name, p.id, *[x for x in extra if x]]).lower()


def part_measures(p: Part) -> dict[str, tuple[float, ...]]:
    """A part's figures by unit (what "24gb" or "1600w" is compared with)."""
    out: dict[str, tuple[float, ...]] = {}
    for unit, fields in UNIT_FIELDS.items():
        vals = tuple(round(v * f, 3) for name, f in fields
                     if isinstance(v := getattr(p, name, None), (int, float)) and v)
        if vals:
            out[unit] = vals
    return out


def _measures_match(measures, have: dict, hay: str) -> bool:
    for unit, value, typed in measures:
        vals = have.get(unit)
        if vals is None:
            if typed not in hay:  # a part without such a figure: the text decides
                return False
        elif not any(abs(v - value) < 0.01 for v in vals):
            return False
    return True


def matches(p: Part, q: PartQuery, text: Optional[str] = None) -> bool:
    if q.kind and p.KIND != q.kind:
        return False
    if q.text.strip():
        parsed = q.parsed
        hay = search_text(p) if text is None else text
        if not all(w in hay for w in parsed.words):
            return False
        if parsed.measures and not _measures_match(parsed.measures, part_measures(p), hay):
            return False
    if isinstance(p, GPU):
        if q.min_vram_gb and p.vram_gb < q.min_vram_gb:
            return False
        if q.cooler and p.cooler != q.cooler:
            return False
        if q.max_slot_width and p.slot_width > q.max_slot_width:
            return False
        if q.max_length_mm and p.length_mm > q.max_length_mm:
            return False
    if q.max_price and (p.price is None or p.price > q.max_price):
        return False
    return True


class SearchIndex:
    """Parts in a fixed order with their search texts computed once."""

    def __init__(self, parts: Iterable[Part]) -> None:
        self.parts: list[Part] = list(parts)
        self.texts: list[str] = [search_text(p) for p in self.parts]
        self._measures: Optional[list[dict]] = None  # worked out on the first query with a unit

    def extend(self, parts: Iterable[Part], texts: Optional[list[str]] = None) -> None:
        """More parts after the ones held, with their ``search_text`` (computed here without)."""
        parts = list(parts)
        self.parts.extend(parts)
        self.texts.extend(texts if texts is not None else (search_text(p) for p in parts))
        if self._measures is not None:
            self._measures.extend(part_measures(p) for p in parts)

    def filter(self, q: PartQuery, start: int = 0) -> list[int]:
        """Indexes (into ``parts``, from ``start`` on) of the parts that match: in order, or
        cheapest first when the text says "cheapest"."""
        parsed = q.parsed
        words = parsed.words
        rows = range(start, len(self.parts))
        texts = self.texts
        if words:  # the text first: the cheapest test, and the one that rejects most
            rows = [i for i in rows if all(w in texts[i] for w in words)]
        if parsed.measures:
            if self._measures is None:
                self._measures = [part_measures(p) for p in self.parts]
            ms = self._measures
            rows = [i for i in rows if _measures_match(parsed.measures, ms[i], texts[i])]
        if q != PartQuery(text=q.text):
            rest = PartQuery(kind=q.kind, min_vram_gb=q.min_vram_gb, cooler=q.cooler, max_slot_width=q.max_slot_width,
                             max_length_mm=q.max_length_mm, max_price=q.max_price)
            rows = [i for i in rows if matches(self.parts[i], rest, "")]
        rows = list(rows)
        if parsed.sort == "price":
            parts = self.parts
            rows.sort(key=lambda i: (parts[i].price is None, parts[i].price or 0))
        return rows

    def find(self, q: PartQuery) -> list[Part]:
        return [self.parts[i] for i in self.filter(q)]


def search(parts: Sequence[Part], q: PartQuery) -> list[Part]:
    return SearchIndex(parts).find(q)
