"""The optimiser's throughput: the adviser's estimate for a workload (rigbuilder.models.throughput
and rigbuilder.models.scaling), behind the optimiser's Scorer interface."""
from __future__ import annotations

from typing import Optional

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.parts import GPU


class ThroughputUnavailable(RuntimeError):
    """The adviser's throughput model is not installed in this version."""


class AdviserScorer:
    """Throughput for one workload from the adviser's models."""

    def __init__(self, workload_id: str, params_b: Optional[float] = None) -> None:
        try:
            from rigbuilder.models import scaling, throughput, vram, workloads  # noqa: F401
        except ImportError:
            raise ThroughputUnavailable("the throughput model (the adviser's) is not part of this version, "
                                        "so builds cannot be ranked by throughput") from None
        raise ThroughputUnavailable("the throughput model is not connected yet")

    def card(self, gpu: GPU) -> Optional[float]:  # pragma: no cover - replaced when the adviser lands
        raise NotImplementedError

    def build(self, build: Build, index: PartIndex) -> float:  # pragma: no cover
        raise NotImplementedError

    def fits(self, gpu: GPU, n_gpus: int) -> bool:  # pragma: no cover
        raise NotImplementedError


def workload_ids() -> list[str]:
    """The adviser's workload presets (empty without the adviser)."""
    try:
        from rigbuilder.models.workloads import WORKLOADS
    except ImportError:
        return []
    return list(WORKLOADS)


def shipped_scorer(workload_id: str, params_b: Optional[float] = None):
    """The scorer the command line and the app use."""
    return AdviserScorer(workload_id, params_b)
