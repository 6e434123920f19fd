"""Every estimate with its band, in one shape: the adviser, the optimiser and the comparison show these.

``Banded`` is a figure and the relative error band printed with it; the functions below turn each model's
own result into one (they compute nothing new):

- ``of_throughput``: one card's rate (``throughput.estimate``): measured (band 0), estimated (LLM token
  rates: the 80th percentile of the engine's held-out errors; training: the mean leave-one-out error; LoRA and
  QLoRA fine-tuning, estimated or scaled from a BERT-large measurement: ``throughput.finetune_speed_band``, the
  80th percentile of published fine-tuning runs held out of every fit), or unknown (None);
- ``of_build``: a build's rate (``scaling.build_throughput``): the cards' band joined with the scaling fit's;
- ``of_memory``: memory per card (``vram.need``): ``vram.memory_band``;
- ``of_scaling``: a several-card efficiency: the scaling fit's held-out band (``scaling.link_fit().band``);
- ``of_power_limit``: the share of throughput a card keeps under a power limit (``perf.throughput``), with the
  80th percentile of its curve's held-out errors (``perf.band``); ``of_build`` joins it, as an independent error,
  to the band of a build any of whose cards runs under a limit (``power_limited``).

``band`` is a share (0.07 = ±7%); ``low`` and ``high`` are the figure at its band (``low`` never below 0). ``to_dict`` is the JSON
shape every command uses (``value``, ``unit``, ``band``, ``low``, ``high``, ``how``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from rigbuilder.domain.i18n import N_, Num, T

HOW = {
    "measured": N_("measured"),
    "held-out": N_("80% of published cases held out of the fit lie within it"),
    "leave-one-out": N_("mean error over the published measurements, each predicted without it"),
    "published": N_("against published figures not used to build the model"),
    "unknown": N_("error unknown"),
}
"""What a band is, by kind (``Banded.how``)."""


@dataclass(frozen=True)
class Banded:
    """A figure and its relative band (None: unknown)."""

    kind: str  # "throughput", "build-throughput", "memory", "scaling"
    value: float
    unit: str
    band: Optional[float]
    how: str  # a key of HOW

    @property
    def low(self) -> Optional[float]:
        return None if self.band is None else max(0.0, self.value * (1 - self.band))

    @property
    def high(self) -> Optional[float]:
        return None if self.band is None else self.value * (1 + self.band)

    def pair(self) -> tuple[float, Optional[float]]:
        """(value, band)."""
        return self.value, self.band

    def text(self) -> T:
        """'54.2 tokens/s ±8%' (measured: 'measured'; unknown: 'error unknown')."""
        v = Num(self.value, f"{self.value:.3g}" if self.value < 1000 else f"{self.value:,.0f}")  # the locale's digits
        if self.how == "measured":
            return T("{value} {unit}, measured", value=v, unit=self.unit)
        if self.band is None:
            return T("{value} {unit}, error unknown", value=v, unit=self.unit)
        return T("{value} {unit} \u00b1{band:.0%}", value=v, unit=self.unit, band=self.band)

    def band_text(self) -> T:
        """The band alone, for a '±' column beside the figure: '±8%' (measured: 'measured'; unknown: 'unknown')."""
        if self.how == "measured":
            return T("measured")
        if self.band is None:
            return T("unknown")
        return T("\u00b1{band:.0%}", band=self.band)

    def to_dict(self) -> dict:
        r = lambda x: None if x is None else round(float(x), 4)  # noqa: E731
        return {"kind": self.kind, "value": r(self.value), "unit": self.unit, "band": r(self.band), "low": r(self.low),
                "high": r(self.high), "how": self.how}


def of_throughput(t) -> Banded:
    """A card's rate (``throughput.Throughput``)."""
    if t.measured:
        return Banded("throughput", t.value, t.unit, 0.0, "measured")
    if t.typical_error is None:
        return Banded("throughput", t.value, t.unit, None, "unknown")
    return Banded("throughput", t.value, t.unit, t.typical_error,
                  "held-out" if getattr(t, "held_out_band", False) else "leave-one-out")


def of_build(bt) -> Banded:
    """A build's rate (``scaling.BuildThroughput``); under a power limit its band joins the limit curve's
    (``power_limited``): a rate measured at full power and scaled by the curve carries the curve's band."""
    if bt.measured:
        pl = power_limited(bt)
        if pl is not None:
            return Banded("build-throughput", bt.value, bt.unit, pl.band, "held-out")
        return Banded("build-throughput", bt.value, bt.unit, 0.0, "measured")
    if bt.typical_error is None:
        return Banded("build-throughput", bt.value, bt.unit, None, "unknown")
    held = any(getattr(c.throughput, "held_out_band", False) for c in bt.cards) or bt.n_gpus > 1
    band = bt.typical_error
    pl = power_limited(bt)
    if pl is not None:
        band, held = math.hypot(band, pl.band or 0.0), True
    return Banded("build-throughput", bt.value, bt.unit, band, "held-out" if held else "leave-one-out")


def of_power_limit(fraction: float, kind: str = "training") -> Banded:
    """The share of its throughput a card keeps at ``fraction`` of its board power on the ``kind`` curve
    (``perf.KINDS``), with the curve's held-out band (no limit: 1.0, band 0)."""
    from rigbuilder.models import perf

    if fraction >= 1.0:
        return Banded("power-limit", 1.0, "", 0.0, "held-out")
    return Banded("power-limit", perf.throughput(fraction, kind), "", perf.band(kind), "held-out")


def power_limited(bt) -> Optional[Banded]:
    """The tightest power limit's ``of_power_limit`` among the cards of a build's rate (``scaling.BuildThroughput``),
    or None where no card runs under a limit."""
    from rigbuilder.models import perf

    fracs = [c.power_fraction for c in getattr(bt, "cards", ()) if c.power_fraction < 1.0]
    if not fracs:
        return None
    return of_power_limit(min(fracs), perf.kind_of(bt.workload.kind))


def of_memory(need) -> Banded:
    """Memory per card (``vram.VramNeed``), in GB."""
    return of_memory_total(need.total, need.workload)


def of_memory_total(total_gb: float, workload) -> Banded:
    """A per-card memory figure in GB for ``workload`` (``vram.memory_band``)."""
    from rigbuilder.models.vram import memory_band

    band = memory_band(workload)
    return Banded("memory", total_gb, "GB", band, "unknown" if band is None else "published")


def of_scaling(efficiency: float) -> Banded:
    """A several-card data-parallel efficiency (a share of N x one card)."""
    from rigbuilder.models.scaling import link_fit

    return Banded("scaling", efficiency, "", link_fit().band, "held-out")


def of_build_all(bt) -> dict:
    """Every estimate of a build (``scaling.BuildThroughput``) with its band, as JSON: the build's rate, the
    memory per card, each card's rate, for several training cards the scaling efficiency and, where a card runs
    under a power limit, the share of throughput the tightest limit keeps (``power_limited``)."""
    d = {"throughput": of_build(bt).to_dict(),
         "memory_per_card": None if bt.need is None else of_memory(bt.need).to_dict(),
         "cards": [of_throughput(c.throughput).to_dict() for c in bt.cards]}
    if bt.n_gpus > 1 and bt.workload.training:
        d["scaling"] = of_scaling(bt.efficiency).to_dict()
    pl = power_limited(bt)
    if pl is not None:
        d["power_limit"] = pl.to_dict()
    return d


def within_bands(a: Banded, b: Banded) -> Optional[float]:
    """The wider of the two figures' bands when they differ by no more than it (the larger figure at most that
    share above the smaller: the estimates cannot tell them apart), else None (None too where a band is unknown;
    two measured figures, band 0, are told apart by any difference). Compared as printed, in whole percent:
    a difference printed '15%' is inside a band printed '±15%'."""
    if a.band is None or b.band is None:
        return None
    lo, hi = sorted((a.value, b.value))
    band = max(a.band, b.band)
    if band <= 0 or lo <= 0:
        return None
    return band if round(100 * (hi / lo - 1)) <= round(100 * band) else None
