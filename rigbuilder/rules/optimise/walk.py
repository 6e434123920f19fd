"""The walk over a (GPU, board, CPU)'s other parts: a combination of case, CPU cooler, memory kit,
drive and PSU option (``Combo``, with its costs and power figures), and the lazy walk over all of
them cheapest first (``Walk``)."""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Optional

from rigbuilder.domain.parts import PSU, Case, Cooler, MemoryKit, Storage
from rigbuilder.rules.optimise.power import add_dc

@dataclass
class Combo:
    case: Case
    cooler: Optional[Cooler]
    memory: Optional[MemoryKit]
    storage: Optional[Storage]
    psu1: PSU
    psu2: Optional[PSU]
    cost_now: float
    cost_growth: float
    energy: float
    per_month: float
    headroom: float
    peak_dc: float
    peak_wall: float
    rejected: bool = False

    @property
    def key2(self) -> tuple:
        return (self.storage.id if self.storage else None, self.case.expansion_slots)


class Walk:
    """The combinations of a (GPU, board, CPU)'s case, cooler, memory kit, drive and PSU option,
    cheapest first: a best-first walk over the lists sorted by price plus the least energy each part
    could draw (the "k smallest sums" of sorted lists; each combination has one parent, the one with
    its last raised index one lower, so none comes twice). A combination whose parts bought now cost
    more than the budget, with the cheapest part at or after each index, has no successor within
    the budget: its successors are not walked. Each combination comes with its place in the product
    of the lists in their given order (the PSU options cheapest now first), which breaks ties between
    equal rank keys as a walk of the whole product in that order would."""

    def __init__(self, search: "Pools", cases, coolers, mems, stores, psu_opts, *, now: float, total: float,
                 fixed_dc: tuple[float, float, float]) -> None:
        pw = search.power
        dims = [self._dim(search, kind, items) for kind, items in
                (("case", cases), ("cooler", coolers), ("memory", mems), ("storage", stores))]
        # The PSU options: each priced with the least energy of the fixed draw (cards, board, CPU,
        # fans) on it, at its best efficiency over the loads the build could draw (widened to steps
        # of 25 W: a wider range gives a lower floor, and one PSU option's rates serve many triples).
        lo = tuple(25.0 * math.floor(w / 25.0) for w in add_dc(fixed_dc, *(d[6] for d in dims)))
        hi = tuple(25.0 * math.ceil(w / 25.0) for w in add_dc(fixed_dc, *(d[7] for d in dims)))
        # Once per list of options, range of load and fixed draw (triples of one GPU and CPU on boards
        # of the same draw share them).
        cols = search._shared.setdefault(("walk", "psu columns"), {})
        got = cols.get((id(psu_opts), lo, hi, fixed_dc))
        if got is None or got[0] is not psu_opts:
            memo = search._shared.setdefault("energy rates", {})
            rows = []
            for i, (now_, total_, p1, p2, eff) in enumerate(self._psus(search, psu_opts)):  # cheapest now first
                r = memo.get((eff, lo, hi))
                if r is None:
                    r = memo[(eff, lo, hi)] = pw.energy_rates((p1, p2) if p2 is not None else (p1,), lo, hi)
                rows.append((total_ + r[0] * fixed_dc[0] + r[1] * fixed_dc[1], now_, i, (now_, p1, p2)))
            rows.sort(key=lambda r: (r[0], r[2]))
            got = cols[(id(psu_opts), lo, hi, fixed_dc)] = (psu_opts, self._columns(None, rows, (0.0,) * 3, (0.0,) * 3))
        dims.append(got[1])
        self.search = search
        self.keys, self.prices, self.orig, self.items, self.smin = ([d[k] for d in dims] for k in range(1, 6))
        self.lens = [len(k) for k in self.keys]
        self.now, self.total, self.budget = now, total, search.req.budget
        self.size = math.prod(self.lens)
        self.taken = 0
        start = (0,) * len(dims)
        self.heap = [(self._sum(start), start)] if self.size else []

    @staticmethod
    def _psus(search: "Pools", psu_opts: list) -> list:
        """The PSU options as (price now, price all told, PSU, second PSU, what the energy rates read),
        cheapest now first; once per list of options (shared by the triples with the same need)."""
        cache = search._shared.setdefault(("walk", "psu"), {})
        got = cache.get(id(psu_opts))
        if got is not None and got[0] is psu_opts:
            return got[1]
        price, o = search.price, search.owned.get("psu", 0)
        rows = sorted(((price(p1, o), p1, p2) for p1, p2 in psu_opts), key=lambda t: t[0])
        out = [(now_, now_ + (price(p2) if p2 is not None else 0.0), p1, p2,
                (p1.efficiency, p1.wattage, p2.efficiency if p2 else None, p2.wattage if p2 else 0))
               for now_, p1, p2 in rows]
        cache[id(psu_opts)] = (psu_opts, out)
        return out

    @staticmethod
    def _columns(items, rows, lo, hi) -> tuple:
        prices = [r[1] for r in rows]
        smin, m = [], math.inf  # the least price now at or after each index (the budget floor of the successors)
        for v in reversed(prices):
            m = min(m, v)
            smin.append(m)
        return (items, [r[0] for r in rows], prices, [r[2] for r in rows], [r[3] for r in rows], smin[::-1], lo, hi)

    @classmethod
    def _dim(cls, search: "Pools", kind: str, items: list) -> tuple:
        """One kind's list sorted by price plus the least energy the part could draw (the best
        efficiency any 80 PLUS level certifies), with the least and most DC draw of its parts; once
        per list (the lists are shared by the triples)."""
        cache = search._shared.setdefault(("walk", kind), {})
        got = cache.get(id(items))
        if got is not None and got[0] is items:
            return got
        pw, o = search.power, search.owned.get(kind, 0)
        dcs = [pw.part(p) for p in items]
        rows = sorted(((pr + pw.energy_floor(dc), pr, i, p)
                       for i, (p, dc, pr) in enumerate(zip(items, dcs, (search.price(p, o) for p in items)))),
                      key=lambda r: (r[0], r[2]))
        lo = tuple(min(d[k] for d in dcs) for k in range(3)) if dcs else (0.0,) * 3
        hi = tuple(max(d[k] for d in dcs) for k in range(3)) if dcs else (0.0,) * 3
        got = cache[id(items)] = cls._columns(items, rows, lo, hi)
        return got

    def _sum(self, idx: tuple[int, ...]) -> float:
        keys = self.keys
        return keys[0][idx[0]] + keys[1][idx[1]] + keys[2][idx[2]] + keys[3][idx[3]] + keys[4][idx[4]]

    @property
    def left(self) -> bool:
        return bool(self.heap)

    def floor(self) -> float:
        """The least total cost (purchase, growth and the least energy) of any combination not yet walked."""
        return (self.total + self.heap[0][0]) * (1 - 1e-12)

    def drop(self) -> int:
        """Stop: how many combinations were never walked."""
        n = self.size - self.taken
        self.heap, self.taken = [], self.size
        return n

    def next(self):
        """The next combination: (its place in the product, (case, cooler, memory, drive, PSU option),
        the price of the parts but the PSUs), or None when it is over the budget now."""
        _, idx = heapq.heappop(self.heap)
        self.taken += 1
        if self.budget is not None:
            smin = self.smin
            floor = self.now + smin[0][idx[0]] + smin[1][idx[1]] + smin[2][idx[2]] + smin[3][idx[3]] + smin[4][idx[4]]
            if floor > self.budget + 1e-9:
                self.search.count("combination: over budget now")
                if not self.heap:  # what was never walked is over the budget too
                    self.search.count("combination: over budget now", self.drop())
                return None
        last = 0  # the last index raised
        for d in range(len(idx) - 1, 0, -1):
            if idx[d]:
                last = d
                break
        lens, heap = self.lens, self.heap
        for d in range(last, len(idx)):
            if idx[d] + 1 < lens[d]:
                j = idx[:d] + (idx[d] + 1,) + idx[d + 1:]
                heapq.heappush(heap, (self._sum(j), j))
        if not heap and self.taken < self.size:
            self.search.count("combination: over budget now", self.drop())
        it, o, pr = self.items, self.orig, self.prices
        a, b, c, e, f = idx
        return ((o[0][a], o[1][b], o[2][c], o[3][e], o[4][f]), (it[0][a], it[1][b], it[2][c], it[3][e], it[4][f]),
                pr[0][a] + pr[1][b] + pr[2][c] + pr[3][e])

