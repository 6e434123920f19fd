"""Calibration from the user's own measurements: per card model, the ratio of the loaded draw a
power log measured to the draw the power model planned, with the number of logs behind it
(docs/telemetry.md). The power model applies it to later plans of the same card; every figure
it changes says so (``note``)."""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Sequence

from rigbuilder.domain.i18n import T, Day, nT


@dataclass(frozen=True)
class Calibration:
    factor: float  # measured over planned at load
    logs: int  # how many logs it rests on
    latest: str  # the newest of those logs' dates (ISO)
    shared_by: str = ""  # "": the user's own logs; else who shared it in the lab database (pulled from there)

    def note(self) -> T:
        """What a figure it changed says about it."""
        if self.shared_by:
            return nT("calibrated from {n} log {who} shared in the lab (latest {date}): ×{factor:.2f}",
                      "calibrated from {n} logs {who} shared in the lab (latest {date}): ×{factor:.2f}", self.logs,
                     who=self.shared_by, date=Day(self.latest[:10]), factor=self.factor)
        if self.logs == 1:
            return T("calibrated from your log of {date}: ×{factor:.2f}", date=Day(self.latest[:10]),
                     factor=self.factor)
        return T("calibrated from your {n} logs (latest {date}): ×{factor:.2f}", n=self.logs,
                 date=Day(self.latest[:10]), factor=self.factor)


@dataclass(frozen=True)
class Record:
    """One card of one stored log: what calibration needs of it."""

    log_id: int
    part_id: str
    load_w: float | None
    planned_load_w: float
    calibrates: bool
    date: str  # the log's own date (ISO), else the day it was imported


MIN_FACTOR, MAX_FACTOR = 0.2, 2.0
"""A factor outside these is not a calibration but a mismatched log: it is not applied."""


def calibrations(records: Sequence[Record]) -> dict[str, Calibration]:
    """Per card model (part id): the mean over logs of measured over planned at load, each log's
    figure the mean of its cards of that model."""
    per_log: dict[str, dict[int, list[float]]] = {}
    dates: dict[str, list[str]] = {}
    for r in records:
        if not r.calibrates or r.load_w is None or not r.planned_load_w:
            continue
        per_log.setdefault(r.part_id, {}).setdefault(r.log_id, []).append(r.load_w / r.planned_load_w)
        dates.setdefault(r.part_id, []).append(r.date)
    out = {}
    for pid, logs in per_log.items():
        factor = statistics.fmean(statistics.fmean(v) for v in logs.values())
        if MIN_FACTOR <= factor <= MAX_FACTOR:
            out[pid] = Calibration(round(factor, 3), len(logs), max(dates[pid]))
    return out


def merged(own: dict[str, Calibration], shared: dict[str, Calibration]) -> dict[str, Calibration]:
    """The user's own calibrations, and the lab's shared ones for the card models the user's logs do
    not cover (a card's own logs are measured on the user's machine: they come first)."""
    return {**{k: v for k, v in shared.items() if MIN_FACTOR <= v.factor <= MAX_FACTOR}, **own}
