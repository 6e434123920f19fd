"""The prices a search costs builds with: one unit of a part in the request's condition and currency,
and a bundle price for a board and CPU bought together (``models.prices.bundle_applies`` decides,
as for the purchase)."""
from __future__ import annotations

import datetime
import operator
import weakref
from typing import Optional

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.models.prices import PartPrice, bundle_applies, convert, price_part
from rigbuilder.rules.optimise.request import Request


class Prices:
    def __init__(self, req: Request, index: PartIndex) -> None:
        self.req, self.index = req, index
        self.cur = req.currency
        self._cache: dict[str, Optional[tuple[float, PartPrice]]] = {}
        self.chosen: dict[str, PartPrice] = {}  # the price each priced part was given (its age, its conversion)
        self.no_used: list[str] = []  # parts priced new for want of a used price, when the request wants used
        self.bundles: dict[tuple[str, str], PartPrice] = {}  # (board, CPU) -> the bundle price they were given
        self.conditions = ("new", "used") if req.condition == "both" else (req.condition,)

    def unit(self, pid: str) -> Optional[tuple[float, PartPrice]]:
        """(amount, the priced unit) for one unit, or None when it has no usable price."""
        if pid in self._cache:
            return self._cache[pid]
        best: Optional[tuple[float, PartPrice]] = None
        for c in self.conditions:
            # used prices only when the request says used: a new price only where "both" allows it
            pp = price_part(pid, self.cur, self.index, condition=c, strict=True, region=self.req.region,
                            today=self.req.today)
            if pp is None or pp.amount is None:
                continue
            if best is None or pp.amount < best[0]:
                best = (pp.amount, pp)  # the trace is written when a build shows it (``where``)
                self.chosen[pid] = pp
        if best is None and self.req.condition == "used":
            # used where a used price exists, else new (labelled new), for every kind, as the purchase does
            pp = price_part(pid, self.cur, self.index, condition="new", strict=True, region=self.req.region,
                            today=self.req.today)
            if pp is not None and pp.amount is not None:
                best = (pp.amount, pp)
                self.chosen[pid] = pp
                self.no_used.append(pid)
        self._cache[pid] = best
        return best

    def where(self, pid: str) -> str:
        """Where one unit's price comes from (for the prices of an answer)."""
        u = self.unit(pid)
        return u[1].trace() if u else ""

    def bundle(self, board: str, cpu: str) -> Optional[tuple[float, str]]:
        """A bundle price for exactly this board and CPU in the wanted condition (as the purchase
        takes it: ``bundle_applies``)."""
        book = self.index.prices
        best = None
        for pid, other in ((board, cpu), (cpu, board)):
            for o in book.for_part(pid):
                if o.with_parts == (other,) and bundle_applies(o, self.index, self.conditions):
                    pp = convert(o, self.cur, book.rates, self.req.region)
                    if pp.amount is not None and (best is None or pp.amount < best[0]):
                        best = (pp.amount, pp.trace())
                        self.bundles[(board, cpu)] = pp  # the board's and the CPU's price: its date and age
        return best

    def given(self, build: Build, owned: dict) -> dict[str, PartPrice]:
        """The price each priced part of ``build`` was given: its own, or the bundle price of its board
        and CPU where the purchase takes the bundle (neither owned)."""
        out = {pid: self.chosen[pid] for pid in build.part_ids() if pid in self.chosen}
        bun = self.bundles.get((build.motherboard or "", build.cpu or ""))
        if bun is not None and not owned.get("motherboard") and not owned.get("cpu"):
            out[build.motherboard] = out[build.cpu] = bun  # type: ignore[index]
        return out


def catalog_state(index: PartIndex) -> tuple:
    """What a search reads of the catalog besides the request, to tell later whether it still stands: the
    price book (a new observation or exchange rate makes a new one), the used-price estimates setting, the
    calibration (the cards' measured draw) and the very part objects (parts are frozen: an edited or added
    part is a new object). The parts still to load are loaded first (a search reads every part anyway)."""
    index.load_pending()
    return (index.prices, index.used_estimates, index.calibration, index.loaded())


def same_catalog(a: tuple, b: tuple) -> bool:
    """Whether two ``catalog_state``s are of the same catalog, unchanged."""
    return a[0] is b[0] and a[1] == b[1] and a[2] is b[2] and len(a[3]) == len(b[3]) \
        and all(map(operator.is_, a[3], b[3]))


_KEPT: "weakref.WeakKeyDictionary[PartIndex, dict]" = weakref.WeakKeyDictionary()


def prices_for(req: Request, index: PartIndex) -> Prices:
    """The prices of ``req``'s searches, kept for the process: one ``Prices`` per catalog and (currency,
    condition, region, day), so a second search (another objective's winner, a change a no-build answer
    tries, the next search in the window) prices no part again; kept only while the catalog stands as it
    was (``catalog_state``)."""
    state = catalog_state(index)
    today = req.today or datetime.date.today().isoformat()
    key = (req.currency, req.condition, req.region, today)
    per_index = _KEPT.setdefault(index, {})
    got = per_index.get(key)
    if got is not None and same_catalog(got[0], state):
        return got[1]
    prices = Prices(req, index)
    per_index.pop(key, None)
    if len(per_index) >= 8:  # a few currencies and regions at a time; the oldest goes
        per_index.pop(next(iter(per_index)))
    per_index[key] = (state, prices)
    return prices


def forget() -> None:
    """Drop the prices kept for the process (``prices_for``): the next search prices every part again, as the
    first search of a process does (the benchmarks' cold figures)."""
    _KEPT.clear()
