"""An in-memory index of parts by id: what rules and models look parts up in."""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

from rigbuilder.domain.money import PriceBook
from rigbuilder.domain.parts import Part


class PartIndex:
    """Parts by id. User parts shadow nothing: ids are unique across shipped and user parts."""

    def __init__(self, parts: Iterable[Part] = (), version: str = "", prices: Optional[PriceBook] = None) -> None:
        self._by_id: dict[str, Part] = {}
        self.version = version
        self.prices: PriceBook = prices or PriceBook()  # price observations and exchange rates
        for p in parts:
            self._by_id[p.id] = p

    def get(self, part_id: Optional[str]) -> Optional[Part]:
        if part_id is None:
            return None
        return self._by_id.get(part_id)

    def __contains__(self, part_id: object) -> bool:
        return part_id in self._by_id

    def __iter__(self) -> Iterator[Part]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def of_kind(self, kind: str) -> list[Part]:
        return [p for p in self._by_id.values() if p.KIND == kind]

    def add(self, part: Part) -> None:
        self._by_id[part.id] = part
