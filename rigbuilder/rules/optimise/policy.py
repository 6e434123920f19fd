"""Which findings rule a build out of the optimiser's answers: the one declared table (``REFUSED``).

Every error rules a build out, at either stage. Of the warnings, those below rule it out by default:
a builder does not buy a build that carries them, and each has a fix the search can choose instead
(another placement, board, PSU or case). ``Request.allow_warnings`` (``optimise --allow-warnings``,
the window's "Allow warnings") accepts them; every warning an answer still carries is named with its
fix (``explain``). The request's own preferences add to the table: ``psu_headroom`` refuses
``psu.capacity``, ``quiet`` the air gap even where warnings are allowed, ``max_noise`` ``noise.loud``.
docs/optimiser.md "Warnings that cost" documents the table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import N_
from rigbuilder.rules.optimise.request import Request


def training(req: Request) -> bool:
    """Whether the request's workload trains (the lane and link rules are about training traffic)."""
    return "inference" not in req.workload


@dataclass(frozen=True)
class Refused:
    code: str  # a rule code, or the start of codes ("thermal.")
    what: str  # marked for translation: what a builder sees
    applies: Callable[[Request, int], bool] = lambda req, n_gpus: True  # (request, the stage's cards)


REFUSED: tuple[Refused, ...] = (
    Refused("thermal.", N_("thermal: an open-air card's fans without a slot of air in front of them (the next "
                           "card or the case floor)")),
    Refused("lanes.width", N_("lane link: a card of a multi-GPU training build on a chipset or x4 link"),
            lambda req, n: n >= 2 and training(req)),
    Refused("psu.transients", N_("PSU transients: the cards' spikes over a PSU that is not ATX 3.x")),
    Refused("case.radiators", N_("radiators: a hybrid card's or AIO cooler's radiator in a case whose radiator mounts "
                                 "are not known, a radiator whose size is not stated, or a water-block card whose "
                                 "custom loop the build lacks")),
    Refused("cost.over-budget", N_("over budget: a stage that costs more than its budget (the grown stage: today's "
                                   "budget plus the growth budget)")),
)
"""The warnings that rule a build out by default (``Request.allow_warnings`` accepts them)."""


def refused(f: Finding, req: Request, n_gpus: int) -> bool:
    """Whether ``f``, found on a stage with ``n_gpus`` cards, rules the build out for ``req``."""
    return refuses(f.code, f.severity, req, n_gpus)


def refuses(code: str, severity: Optional[Severity], req: Request, n_gpus: int) -> bool:
    """Whether a finding of ``code`` at ``severity`` (None: none found) rules a build out: ``refused``
    for a finding the search knows before it builds one (a fit test's verdict, as the check decides)."""
    if severity is None:
        return False
    if severity is Severity.ERROR:
        return True
    if (req.quiet and code == "thermal.open-air-gap") or (req.psu_headroom and code == "psu.capacity") \
            or (req.max_noise is not None and code == "noise.loud"):
        return True
    if severity is not Severity.WARNING or req.allow_warnings:
        return False
    return any(code.startswith(r.code) and r.applies(req, n_gpus) for r in REFUSED)


def refuses_gap(req: Request) -> bool:
    """Whether every ``thermal.open-air-gap`` finding rules a build out (so the placement bound may
    leave out every placement with less than a slot of air, as ``quiet`` does)."""
    return req.quiet or not req.allow_warnings
