"""The optimiser's throughput: the adviser's estimate for a workload (rigbuilder.models.throughput
for one card, rigbuilder.models.scaling for a build: per-card rate after power limits, times the
cards, times the scaling efficiency over the build's links), behind the optimiser's Scorer
interface. VRAM: rigbuilder.models.vram (the workload fits the cards with some strategy)."""
from __future__ import annotations

from typing import Optional

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import GPU


class ThroughputUnavailable(RuntimeError):
    """The adviser's throughput model is not installed in this version."""


def _models():
    try:
        from rigbuilder.models import scaling, throughput, vram, workloads
    except ImportError:
        raise ThroughputUnavailable(T("the throughput model (the adviser's) is not part of this version, "
                                      "so builds cannot be ranked by throughput")) from None
    return scaling, throughput, vram, workloads


class AdviserScorer:
    """Throughput for one workload from the adviser's models. ``params_b``: the model size in
    billions of parameters (LLM workloads only; ValueError otherwise, naming why)."""

    def __init__(self, workload_id: str, params_b: Optional[float] = None, precision: Optional[str] = None) -> None:
        self._scaling, self._throughput, self._vram, workloads = _models()
        self.workload = workloads.workload(workload_id, None if params_b is None else params_b * 1e9,
                                           precision=precision)
        self.unit = self.workload.unit
        self.label = (T("estimated {workload}", workload=self.workload.label) if precision is None else
                      T("estimated {workload}, at {precision}", workload=self.workload.label, precision=precision))
        self._cards: dict[str, float] = {}
        self._memo: dict = {}  # the models' figures per card, count and links (the same at every power limit)
        self._fits: dict = {}  # (card, count, margin) -> whether they hold the workload

    def card(self, gpu: GPU) -> Optional[float]:
        v = self._cards.get(gpu.id)
        if v is None:
            v = float(self._throughput.estimate(gpu, self.workload).value)
            self._cards[gpu.id] = v
        return v if v > 0 else None

    def build(self, build: Build, index: PartIndex) -> float:
        return float(self._scaling.build_value(build, index, self.workload, self._memo))

    def fits(self, gpu: GPU, n_gpus: int, margin: float = 0.0) -> bool:
        """Whether the cards hold the workload; with ``margin`` (0.25: a quarter) still when each card
        had that much less VRAM than it has (``choices`` "vram-margin")."""
        key = (gpu.id, n_gpus, margin)
        got = self._fits.get(key)
        if got is None:
            card = gpu
            if margin:
                import dataclasses

                card = dataclasses.replace(gpu, vram_gb=gpu.vram_gb / (1 + margin))
            strategy, _ = self._vram.best_strategy(self.workload, card, n_gpus, self._memo)
            got = self._fits[key] = strategy is not None
        return got


def workload_ids() -> list[str]:
    """The adviser's workload presets (empty without the adviser)."""
    try:
        from rigbuilder.models.workloads import WORKLOADS
    except ImportError:
        return []
    return list(WORKLOADS)


def sized_workloads() -> tuple[str, ...]:
    """Workloads whose model size can be chosen."""
    try:
        from rigbuilder.models.workloads import LLM_WORKLOADS
    except ImportError:
        return ()
    return tuple(LLM_WORKLOADS)


def shipped_scorer(workload_id: str, params_b: Optional[float] = None,
                   precision: Optional[str] = None) -> AdviserScorer:
    """The scorer the command line and the app use. ``precision``: what the weights (and the KV
    cache) are held at; None: the workload's own."""
    return AdviserScorer(workload_id, params_b, precision)


def precisions() -> tuple[tuple[str, float], ...]:
    """(precision, bits per weight) of every precision a workload can be asked at (empty without the
    adviser)."""
    try:
        from rigbuilder.models.workloads import BYTES_PER_PARAM, PRECISIONS
    except ImportError:
        return ()
    return tuple((p, 8 * BYTES_PER_PARAM[p]) for p in PRECISIONS)
