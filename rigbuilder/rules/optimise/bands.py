"""The optimiser's answers with their error bands, for the doors (the command line, the window).

The search ranks builds by their throughput alone; once it is done, ``attach`` asks the model every
other door uses (``models.scaling.build_throughput``) for each answer's grown build, and the doors
print each figure with the band ``models.estimates`` gives it: the cards' band joined with the
scaling fit's for several training cards and, for an answer under a power limit, with the limit curve's
held-out band (``estimates.power_limited``), memory per card, the scaling efficiency. Nothing here
changes a ranking.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.models import estimates as E


def attach(res, index: PartIndex, scorer) -> None:
    """Give every answer of ``res`` (a ``Result``) its grown build's estimate, for the workload ``scorer``
    ranked by (a scorer without a ``workload``, such as a test's, leaves the bands unknown)."""
    wl = getattr(scorer, "workload", None)
    if wl is None:
        return
    from rigbuilder.models.scaling import build_throughput

    memo: dict = {}
    for c in res.candidates:
        if c.estimate is None:
            c.estimate = build_throughput(c.grown, index, wl, memo)


def throughput(c) -> Optional[E.Banded]:
    """The answer's throughput (the figure the search ranked by) with its band; None before ``attach``."""
    if c.estimate is None:
        return None
    return dataclasses.replace(E.of_build(c.estimate), value=c.throughput, unit=c.unit)


def band_text(c) -> T:
    """The band of the answer's throughput alone, for a '±' column: '±9%', 'measured' or 'unknown'."""
    b = throughput(c)
    return b.band_text() if b is not None else T("unknown")


def estimates(c) -> Optional[dict]:
    """Every estimate of the answer's grown build with its band, as JSON (``estimates.of_build_all``; the
    throughput's value is the one the search ranked by)."""
    if c.estimate is None:
        return None
    d = E.of_build_all(c.estimate)
    d["throughput"] = throughput(c).to_dict()  # type: ignore[union-attr]
    return d


def how(c) -> T:
    """What the answer's band is ('80% of published cases held out of the fit lie within it', 'measured',
    'error unknown')."""
    b = throughput(c)
    return T(E.HOW[b.how if b is not None else "unknown"])


def figure_line(c) -> Optional[T]:
    """'Throughput: 1,002 images/s ±9% (what the band is).' for one answer, or None before ``attach``."""
    b = throughput(c)
    if b is None:
        return None
    if b.how in ("measured", "unknown"):
        return T("Throughput: {figure}.", figure=b.text())
    return T("Throughput: {figure} ({how}).", figure=b.text(), how=how(c))


def best_line(res) -> Optional[T]:
    """'The best build's throughput: 1,002 images/s ±9% (what the band is).', and whether the next best's
    figure lies within the estimates' bands of it; None without an answer or an estimate."""
    best = res.best
    b = None if best is None else throughput(best)
    if b is None:
        return None
    if b.how in ("measured", "unknown"):
        line = T("The best build's throughput: {figure}.", figure=b.text())
    else:
        line = T("The best build's throughput: {figure} ({how}).", figure=b.text(), how=how(best))
    nxt = res.candidates[1] if len(res.candidates) > 1 else None
    other = None if nxt is None else throughput(nxt)
    if other is not None and other.value != b.value and E.within_bands(b, other) is not None:
        line = T("{line} The next best's throughput is within the estimates' band of it: the two are not told "
                 "apart.", line=line)
    return line
