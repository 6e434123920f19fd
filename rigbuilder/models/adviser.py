"""The adviser's ranking: every card in the catalog judged for one workload, at once.

The figures are the ones ``throughput``, ``vram``, ``scaling`` and ``value`` give for a single card;
this module only computes them for many cards together (arrays, so a catalog of thousands of cards
updates in milliseconds; a test compares them with the single-card functions) and ranks them.

A card "fits alone" when one card holds the workload, "fits as N" when N cards hold it under the
simplest strategy that works (replicated, then ZeRO-3 for training or pipeline for inference, then
tensor). The memory need does not depend on the card, so it is computed once per strategy.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import GPU
from rigbuilder.models import scaling as S
from rigbuilder.models import throughput as TP
from rigbuilder.models import vram as V
from rigbuilder.models.value import card_price
from rigbuilder.models.workloads import Workload

LAYOUT_FIELDS = ("cooler", "slot_width", "length_mm", "height_mm", "pcie_lanes", "power_connectors")
"""The fields a recommendation's physical fit rests on: flagged when unverified."""
_FIELD_WORDS = {"cooler": T("cooler"), "slot_width": T("slot width"), "length_mm": T("length"), "height_mm": T("height"),
                "pcie_lanes": T("pcie lanes"), "power_connectors": T("power connectors")}


def layout_caveat(gpu: GPU) -> str:
    """'' or 'unverified: slot width, length' / 'your own figures' for the fields above."""
    if gpu.origin == "user":
        return gpu.trust
    bad = [_FIELD_WORDS[f] for f in gpu.unverified if f in LAYOUT_FIELDS]
    if not bad:
        return ""
    listed: list = []
    for i, word in enumerate(bad):
        listed += [", ", word] if i else [word]
    return T("unverified: {fields}", fields=T.join(*listed))


class CardTable:
    """Per-card columns as arrays (numpy), built once per catalog."""

    def __init__(self, gpus: Sequence[GPU]) -> None:
        import numpy as np

        self.gpus = list(gpus)
        self.ids = [g.id for g in self.gpus]
        self.chips = [g.chip_model for g in self.gpus]
        specs = [TP.card_specs(g) for g in self.gpus]
        self.specs = [(c, t, b) for c, (t, b) in zip(self.chips, specs)]
        self.vram_gb = np.array([g.vram_gb for g in self.gpus], dtype=float)
        self.card_gb = self.vram_gb * V.GIB_IN_GB
        self.board_w = np.array([g.board_power_w or 0.0 for g in self.gpus], dtype=float)
        self.coolers = [g.cooler for g in self.gpus]
        self.caveats = [layout_caveat(g) for g in self.gpus]
        self._prices: dict[tuple, tuple] = {}

    @classmethod
    def of(cls, gpus: Sequence[GPU]) -> "CardTable":
        return cls(gpus)

    def __len__(self) -> int:
        return len(self.gpus)

    def prices(self, index: PartIndex, currency: str, condition: str = "new"):
        """(amounts with NaN where unknown, traces) in ``currency``; cached per currency and condition."""
        import numpy as np

        key = (currency, condition, id(index.prices))
        if key not in self._prices:
            amounts, traces = [], []
            for g in self.gpus:
                a, t = card_price(g, currency, index, condition)
                amounts.append(np.nan if a is None else a)
                traces.append(t)
            self._prices[key] = (np.array(amounts, dtype=float), traces)
        return self._prices[key]


@dataclass
class Figures:
    """Every card's figures for one workload and card count (arrays aligned with the table)."""

    workload: Workload
    n_gpus: int
    rate: object  # one card's throughput
    measured: object  # bool
    fits_alone: object  # bool
    fits_n: object  # bool: n cards hold it
    strategy_n: object  # list[str | None]
    need_alone: V.VramNeed
    need_n: dict[str, V.VramNeed] = field(default_factory=dict)
    total: object = None  # n cards' throughput (0 where they do not hold it)
    efficiency: object = None
    scaled: object = None  # bool: a measured figure turned into this workload (``Throughput.basis == "scaled"``)


def figures(table: CardTable, wl: Workload, n_gpus: int = 1) -> Figures:
    import numpy as np

    rate, measured = TP.estimate_many(table.specs, wl)
    if wl.kind == "diffusion-inference":
        scaled = np.zeros(len(table), dtype=bool)
    else:
        points = TP.BENCHMARKS[TP.basis(wl)].points
        scaled = np.array([c in points for c in table.chips], dtype=bool) & ~measured
    alone = V.need(wl, 1)
    fits_alone = table.card_gb >= alone.total - 1e-9
    order = ["replicated"]
    if n_gpus > 1:
        order += ["zero3", "tensor"] if wl.training else ["pipeline", "tensor"]
    needs = {s: V.need(wl, n_gpus, s) for s in order}
    strategy = np.full(len(table), None, dtype=object)
    for s in reversed(order):  # the simplest that works wins
        ok = table.card_gb >= needs[s].total - 1e-9
        strategy[ok] = s
    fits_n = strategy != None  # noqa: E711
    eff = np.ones(len(table))
    if n_gpus > 1:
        cache: dict[tuple, float] = {}
        for i, (chip, s) in enumerate(zip(table.chips, strategy)):
            k = (chip if chip in S.MEASURED_SCALING else "", s)
            if k not in cache:
                cache[k] = S.efficiency(wl, n_gpus, (), chip=chip if chip in S.MEASURED_SCALING else S.DEFAULT_CHIP,
                                        strategy=s or "replicated")
            eff[i] = cache[k]
    total = np.where(fits_n, rate * n_gpus * eff, 0.0)
    return Figures(wl, n_gpus, rate, measured, fits_alone, fits_n, list(strategy), alone, needs, total, eff, scaled)


@dataclass(frozen=True)
class Recommendation:
    gpu: GPU
    n_gpus: int
    strategy: str
    throughput: TP.Throughput  # one card
    total: float  # n cards, good links assumed
    efficiency: float
    price_each: Optional[float]
    price_trace: str
    price_total: Optional[float]
    per_money: Optional[float]
    per_watt: float
    need_gb: float  # per card
    caveat: str  # unverified layout fields

    def to_dict(self, currency: str) -> dict:
        r = lambda x, n=4: None if x is None else round(float(x), n)  # noqa: E731
        return {"part_id": self.gpu.id, "name": self.gpu.name, "vram_gb": self.gpu.vram_gb, "cooler": self.gpu.cooler,
                "n_gpus": self.n_gpus, "strategy": self.strategy, "throughput_per_card": self.throughput.to_dict(),
                "throughput_total": r(self.total), "efficiency": r(self.efficiency), "currency": currency,
                "price_each": r(self.price_each, 2), "price_total": r(self.price_total, 2),
                "price_source": self.price_trace, "per_money": r(self.per_money, 6), "per_watt": r(self.per_watt, 6),
                "vram_need_per_gpu_gb": r(self.need_gb, 3), "trust": self.gpu.trust, "layout_caveat": self.caveat}


def rank(index: PartIndex, wl: Workload, *, n_gpus: Optional[int] = None, budget: Optional[float] = None,
         currency: str = "EUR", condition: str = "new", sort: str = "throughput", limit: int = 20,
         table: Optional[CardTable] = None) -> list[Recommendation]:
    """Cards that hold ``wl`` as ``n_gpus`` cards (or, without ``n_gpus``, the fewest that hold it,
    up to 8), within ``budget`` for all of them, best first by total throughput or by throughput per money."""
    import math

    if sort not in ("throughput", "value"):
        raise ValueError(T("unknown sort {v}; use throughput or value", v=repr(sort)))
    if budget is not None and not (budget > 0 and math.isfinite(budget)):
        raise ValueError(T("the budget must be a positive amount, not {v}", v=repr(budget)))
    table = table or CardTable.of([g for g in index.of_kind("gpu") if isinstance(g, GPU)])
    prices, traces = table.prices(index, currency, condition)
    counts = [n_gpus] if n_gpus else list(range(1, 9))
    chosen: dict[int, tuple[int, Figures]] = {}
    for n in counts:
        f = figures(table, wl, n)
        for i in range(len(table)):
            if i not in chosen and f.fits_n[i]:
                chosen[i] = (n, f)
    out = []
    for i, (n, f) in chosen.items():
        g = table.gpus[i]
        p = prices[i]
        p_each = None if math.isnan(p) else float(p)
        p_total = None if p_each is None else p_each * n
        if budget is not None and (p_total is None or p_total > budget + 1e-9):
            continue
        t = TP.estimate(g, wl)
        total = float(f.total[i])
        need = f.need_n[f.strategy_n[i]].total
        out.append(Recommendation(g, n, f.strategy_n[i], t, total, float(f.efficiency[i]), p_each, traces[i], p_total,
                                  None if not p_total else total / p_total,
                                  total / (g.board_power_w * n) if g.board_power_w else 0.0, need, table.caveats[i]))
    if sort == "value":
        out.sort(key=lambda r: (r.per_money is None, -(r.per_money or 0), -r.total))
    else:
        out.sort(key=lambda r: (-r.total, r.price_total if r.price_total is not None else math.inf))
    return out[:limit] if limit else out
