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
        self.ratios = TP.TensorRatios(self.gpus)
        specs = [TP.card_specs(g, self.ratios) for g in self.gpus]
        self.specs = [(c, t, b, TP.memory_class(g)) for c, g, (t, b) in zip(self.chips, self.gpus, specs)]
        self.modelled = np.array([g.vendor == "NVIDIA" for g in self.gpus], dtype=bool)
        self.p2p = [S.p2p_capable(g) for g in self.gpus]
        self.gens = [g.pcie_gen for g in self.gpus]
        self._measured_of: dict[str, list] = {}
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

    def measured_of(self, wl: Workload) -> list:
        """Per card, the measured chip whose figure it takes for ``wl`` (None: estimated)."""
        key = TP.basis(wl)
        if key not in self._measured_of:
            pts = ({p.chip for p in TP.DECODE_POINTS} if key == "llama.cpp-decode"
                   else set() if key.endswith("-decode") else TP.BENCHMARKS[key].points)
            self._measured_of[key] = [TP.measured_chip(g, pts, self.ratios) for g in self.gpus]
        return self._measured_of[key]

    def prices(self, index: PartIndex, currency: str, condition: str = "new", region: Optional[str] = None):
        """(amounts with NaN where unknown, traces) in ``currency``, bought in ``region`` (its tax
        added, ``models.prices.convert``; None: as seen); cached per currency, condition and region."""
        import numpy as np

        key = (currency, condition, region, id(index.prices))
        if key not in self._prices:
            amounts, traces = [], []
            for g in self.gpus:
                a, t = card_price(g, currency, index, condition, region)
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
    band: object = None  # each card's figure's typical error (NaN: measured or unknown)
    total_band: object = None  # the n cards' figure's typical error (with the scaling fit's; NaN: measured/unknown)


def figures(table: CardTable, wl: Workload, n_gpus: int = 1) -> Figures:
    import numpy as np

    src = table.measured_of(wl)
    rate, measured = TP.estimate_many(table.specs, wl, src)
    if not wl.training:
        scaled = np.zeros(len(table), dtype=bool)  # measured, or estimated with a band
    else:
        scaled = np.array([c is not None for c in src], dtype=bool) & ~measured
    alone = V.need(wl, 1)
    card_gb = table.card_gb * alone.usable
    fits_alone = card_gb >= alone.total - 1e-9
    order = V.strategies_for(wl, n_gpus)
    needs = {s: V.need(wl, n_gpus, s) for s in order}
    strategy = np.full(len(table), None, dtype=object)
    for s in reversed(order):  # the simplest that works wins
        ok = table.card_gb * needs[s].usable >= needs[s].total - 1e-9
        strategy[ok] = s
    fits_n = strategy != None  # noqa: E711
    eff = np.ones(len(table))
    # one stream of LLM inference runs on one copy: more copies serve more streams, not a faster one
    total = rate.copy() if wl.kind == "llm-inference" else rate * n_gpus
    if n_gpus > 1:
        split = np.array([s in ("pipeline", "tensor") for s in strategy], dtype=bool) & (wl.kind == "llm-inference")
        if split.any():
            rate_n, _meas = TP.estimate_many(table.specs, wl, src, n_cards=n_gpus)
            tensor = np.array([s == "tensor" for s in strategy], dtype=bool)
            if tensor.any():
                rate_t, _m = TP.estimate_many(table.specs, wl, src, n_cards=n_gpus, tensor_parallel=True)
                rate_n = np.where(tensor, rate_t, rate_n)
            total = np.where(split, rate_n, total)
            eff = np.where(split, rate_n / (n_gpus * np.maximum(rate, 1e-12)), eff)
        if wl.kind == "llm-inference":
            eff = np.where(split, eff, 1.0 / n_gpus)
        if wl.training:
            cache: dict[tuple, float] = {}
            for i, s in enumerate(strategy):
                if s is None:
                    continue
                k = (round(float(rate[i]), 9), table.p2p[i], table.gens[i], s)
                if k not in cache:
                    links = [S.CardLink(j + 1, 16, table.gens[i], "CPU", p2p=table.p2p[i]) for j in range(n_gpus)]
                    cache[k] = S.efficiency(wl, n_gpus, links, rate=float(rate[i]), strategy=s)
                eff[i] = cache[k]
            total = rate * n_gpus * eff
    total = np.where(fits_n, total, 0.0)
    band = band_of(table, wl, measured, src)
    total_band = band.copy()
    if n_gpus > 1 and wl.kind == "llm-inference":
        total_band[np.array([s == "tensor" for s in strategy], dtype=bool)] = np.nan  # not measured: unknown
    if n_gpus > 1 and wl.training:
        # the scaling comes from the link model: its held-out band joins the card's band (measured: 0)
        known = ~np.isnan(band) | np.asarray(measured, dtype=bool)
        total_band = np.where(known, np.hypot(np.nan_to_num(band), S.link_fit().band), np.nan)
    return Figures(wl, n_gpus, rate, measured, fits_alone, fits_n, list(strategy), alone, needs, total, eff, scaled,
                   band, total_band)


def band_of(table: CardTable, wl: Workload, measured, src):
    """Per card, the typical error of its figure (NaN: measured, or unknown)."""
    import numpy as np

    b = TP.printed_band(wl)
    if b is None:
        return np.full(len(table), np.nan)
    err = np.full(len(table), b)
    if wl.kind != "llm-inference":
        is_scaled = np.array([c is not None for c in src], dtype=bool)
        err[is_scaled] = np.nan  # a measured figure turned into this workload: its error is not known
    err[np.asarray(measured, dtype=bool)] = np.nan
    return err


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
    partners: int = 0  # other cards of the same chip and memory with the same figures, folded into this row

    def to_dict(self, currency: str) -> dict:
        r = lambda x, n=4: None if x is None else round(float(x), n)  # noqa: E731
        return {"part_id": self.gpu.id, "name": self.gpu.name, "vram_gb": self.gpu.vram_gb, "cooler": self.gpu.cooler,
                "n_gpus": self.n_gpus, "strategy": self.strategy, "throughput_per_card": self.throughput.to_dict(),
                "throughput_total": r(self.total), "efficiency": r(self.efficiency), "currency": currency,
                "price_each": r(self.price_each, 2), "price_total": r(self.price_total, 2),
                "price_source": self.price_trace, "per_money": r(self.per_money, 6), "per_watt": r(self.per_watt, 6),
                "vram_need_per_gpu_gb": r(self.need_gb, 3), "trust": self.gpu.trust, "layout_caveat": self.caveat,
                "same_figures_cards": self.partners}


SOFTWARE = {"cuda": "NVIDIA", "rocm": "AMD", "oneapi": "Intel"}
"""Software stacks and the vendor whose cards they run. Only CUDA's speed is modelled (every measurement
behind the estimates ran on NVIDIA cards with CUDA); no published factor for ROCm or oneAPI against
CUDA on these workloads was found, so their cards are "not modelled"."""


def software_vendors(software: Sequence[str]) -> set[str]:
    """The vendors whose cards the chosen stacks run; ValueError naming the known stacks."""
    out = set()
    for s in software:
        if s not in SOFTWARE:
            raise ValueError(T("unknown software {v}; known: {known}", v=repr(s), known=", ".join(SOFTWARE)))
        out.add(SOFTWARE[s])
    return out


def rank(index: PartIndex, wl: Workload, *, n_gpus: Optional[int] = None, budget: Optional[float] = None,
         currency: str = "EUR", condition: str = "new", sort: str = "throughput", limit: int = 20,
         table: Optional[CardTable] = None, software: Sequence[str] = ("cuda",),
         fold_partners: bool = False, region: Optional[str] = None) -> list[Recommendation]:
    """Cards that hold ``wl`` as ``n_gpus`` cards (or, without ``n_gpus``, the fewest that hold it,
    up to 8), within ``budget`` for all of them, best first by total throughput or by throughput per money.
    Prices are those of a buyer in ``region`` (a key of ``domain.build.REGIONS``): its VAT or consumption
    tax added to a price seen before it, as in the optimiser (None: prices as seen).
    Only cards the chosen ``software`` stacks run are listed (CUDA by default); a card whose software speed
    is not modelled (ROCm, oneAPI) is never ranked above one whose speed is. ``fold_partners``: cards of one
    chip and memory size with the same figures become one row (the first in the order; ``partners``
    counts the others)."""
    import math

    vendors = software_vendors(software)

    if sort not in ("throughput", "value"):
        raise ValueError(T("unknown sort {v}; use throughput or value", v=repr(sort)))
    if budget is not None and not (budget > 0 and math.isfinite(budget)):
        raise ValueError(T("the budget must be a positive amount, not {v}", v=repr(budget)))
    table = table or CardTable.of([g for g in index.of_kind("gpu") if isinstance(g, GPU)])
    prices, traces = table.prices(index, currency, condition, region)
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
        if g.vendor not in vendors:
            continue
        p = prices[i]
        p_each = None if math.isnan(p) else float(p)
        p_total = None if p_each is None else p_each * n
        if budget is not None and (p_total is None or p_total > budget + 1e-9):
            continue
        split = wl.kind == "llm-inference" and f.strategy_n[i] in ("pipeline", "tensor")
        t = TP.estimate(g, wl, table.ratios, n_cards=n if split else 1,
                        tensor_parallel=f.strategy_n[i] == "tensor")
        total = float(f.total[i])
        need = f.need_n[f.strategy_n[i]].total
        out.append(Recommendation(g, n, f.strategy_n[i], t, total, float(f.efficiency[i]), p_each, traces[i], p_total,
                                  None if not p_total else total / p_total,
                                  total / (g.board_power_w * n) if g.board_power_w else 0.0, need, table.caveats[i]))
    if sort == "value":
        out.sort(key=lambda r: (r.throughput.software != "modelled", r.per_money is None, -(r.per_money or 0),
                                -r.total))
    else:
        out.sort(key=lambda r: (r.throughput.software != "modelled", -r.total,
                                r.price_total if r.price_total is not None else math.inf))
    if fold_partners:
        from dataclasses import replace

        seen: dict[tuple, int] = {}
        folded: list[Recommendation] = []
        for r in out:
            k = (r.gpu.chip_model, r.gpu.vram_gb, r.n_gpus, r.strategy, round(r.total, 6))
            if k in seen:
                j = seen[k]
                folded[j] = replace(folded[j], partners=folded[j].partners + 1)
                continue
            seen[k] = len(folded)
            folded.append(r)
        out = folded
    return out[:limit] if limit else out
