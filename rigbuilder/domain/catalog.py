"""An in-memory index of parts by id: what rules and models look parts up in."""
from __future__ import annotations

from itertools import islice
from typing import Callable, Iterable, Iterator, Optional

from rigbuilder.domain.money import PriceBook
from rigbuilder.domain.parts import Part


class PartIndex:
    """Parts by id. User parts shadow nothing: ids are unique across shipped and user parts.

    ``pending``: a function giving more parts (the thousands of imported community rows), called
    the first time a look-up misses or all parts are asked for, so a start-up that needs only
    the curated parts never loads them (``load_pending`` loads them at a time of the caller's
    choosing)."""

    def __init__(self, parts: Iterable[Part] = (), version: str = "", prices: Optional[PriceBook] = None,
                 pending: Optional[Callable[[], Iterable[Part]]] = None) -> None:
        self._loaded: dict[str, Part] = {}
        self._pending = pending
        self._pending_iter: Optional[Iterator[Part]] = None
        self.version = version
        self.prices: PriceBook = prices or PriceBook()  # price observations and exchange rates
        # used prices estimated where none is observed (rigbuilder.models.depreciation): the
        # preference "money/used_estimates", the command line's --no-estimates
        self.used_estimates: bool = False
        self.calibration: dict = {}
        """Per GPU part id, the user's ``Calibration`` from measured power logs (empty: none, or
        switched off); the catalog fills it (rigbuilder.catalog.measurements)."""
        for p in parts:
            self._loaded[p.id] = p

    @property
    def _by_id(self) -> dict[str, Part]:
        if self._pending is not None:
            self.load_pending()
        return self._loaded

    @property
    def pending(self) -> bool:
        """Parts still to load (see ``load_pending``)."""
        return self._pending is not None

    def load_pending(self) -> None:
        while self._pending is not None:
            self.load_pending_piece(1 << 30)

    def load_pending_piece(self, n: int = 100) -> list[Part]:
        """Load up to ``n`` more of the pending parts and return them; when they are all in,
        ``pending`` turns false. A caller that must not stall (the window) loads a piece per
        turn of its event loop; any look-up that misses meanwhile loads the rest at once."""
        if self._pending is None:
            return []
        if self._pending_iter is None:
            self._pending_iter = iter(self._pending())
        piece = list(islice(self._pending_iter, n))
        if len(piece) < n:
            self._pending = self._pending_iter = None
        for p in piece:
            self._loaded[p.id] = p
        return piece

    def loaded(self) -> list[Part]:
        """The parts loaded so far, of every kind (never triggers loading the pending ones)."""
        return list(self._loaded.values())

    def loaded_of_kind(self, kind: str) -> list[Part]:
        """The parts of a kind loaded so far (never triggers loading the pending ones)."""
        return [p for p in self._loaded.values() if p.KIND == kind]

    def get(self, part_id: Optional[str]) -> Optional[Part]:
        if part_id is None:
            return None
        p = self._loaded.get(part_id)
        if p is None and self._pending is not None:
            return self._by_id.get(part_id)
        return p

    def __contains__(self, part_id: object) -> bool:
        return part_id in self._loaded or (self._pending is not None and part_id in self._by_id)

    def __iter__(self) -> Iterator[Part]:
        return iter(self._by_id.values())

    def __bool__(self) -> bool:  # without loading the pending parts
        return bool(self._loaded) or self._pending is not None

    def __len__(self) -> int:
        return len(self._by_id)

    def of_kind(self, kind: str) -> list[Part]:
        return [p for p in self._by_id.values() if p.KIND == kind]

    def add(self, part: Part) -> None:
        self._by_id[part.id] = part
