"""Catalog search: what the catalog browser's search box and filters and ``catalog list --search``
decide, without Qt.

A query's text is split into words; a part matches when every word occurs (case-insensitive) in
its name, id, chip model or socket ("3090 blower" also matches the cooler type). The search
texts are built once per part list, so filtering 10,000 parts as the user types stays fast
(benchmarks/bench_catalog.py).
"""
from __future__ import annotations

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


def search_text(p: Part) -> str:
    """The lower-case text a part's search words are looked for in."""
    extra = [getattr(p, "chip_model", ""), getattr(p, "socket", ""), getattr(p, "cooler", "")]
    return " ".join([p.name, p.id, *[x for x in extra if x]]).lower()


def matches(p: Part, q: PartQuery, text: Optional[str] = None) -> bool:
    if q.kind and p.KIND != q.kind:
        return False
    words = q.words
    if words:
        hay = search_text(p) if text is None else text
        if not all(w in hay for w in words):
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

    def filter(self, q: PartQuery) -> list[int]:
        """Indexes (into ``parts``) of the parts that match, in order."""
        words = q.words
        rows = range(len(self.parts))
        if words:  # the text first: the cheapest test, and the one that rejects most
            texts = self.texts
            rows = [i for i in rows if all(w in texts[i] for w in words)]
        if q == PartQuery(text=q.text):
            return list(rows)
        rest = PartQuery(kind=q.kind, min_vram_gb=q.min_vram_gb, cooler=q.cooler, max_slot_width=q.max_slot_width,
                         max_length_mm=q.max_length_mm, max_price=q.max_price)
        return [i for i in rows if matches(self.parts[i], rest, "")]

    def find(self, q: PartQuery) -> list[Part]:
        return [self.parts[i] for i in self.filter(q)]


def search(parts: Sequence[Part], q: PartQuery) -> list[Part]:
    return SearchIndex(parts).find(q)
