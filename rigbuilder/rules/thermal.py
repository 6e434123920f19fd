"""thermal.*: open-air fans against a card, passive cards in a desktop case, stacked blowers."""
from __future__ import annotations

from typing import Iterator, Optional

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T
from rigbuilder.rules.context import Context, gpu_label, mm
from rigbuilder.rules.geometry import MIN_GAP_MM, cooler_unconfirmed, fan_gap_severity, gap_mm, gap_severity
LIMITS = T("Assumes a standard tower: each card's fans face the next higher position. Case airflow, "
          "fan curves and room temperature are not modelled.")


PASSIVE = "thermal.passive"
"""The code of the passive-card finding (``passive_severity`` decides it; the optimiser's policy reads it)."""


def _capped(gpu, sev: Severity) -> Severity:
    """``sev`` of a finding that rests on ``gpu``'s cooler type: at most a warning where that type is
    unconfirmed community data."""
    return Severity.WARNING if sev is Severity.ERROR and cooler_unconfirmed(gpu) else sev


def passive_severity(gpu, case) -> Optional[Severity]:
    """thermal.passive: how a card without a fan is judged in ``case`` (None: no case chosen). None for
    a card with a fan; a warning in a rackmount or server case (its high-pressure fans are not checked
    for airflow) or without a case; an error in any other case, at most a warning where the card's
    cooler type is unconfirmed community data. The check and the optimiser's search both ask here;
    of the card it reads only ``passive_key``."""
    if gpu.cooler != "passive":
        return None
    return _capped(gpu, Severity.WARNING if case is None or "rack" in (case.type or "").lower() else Severity.ERROR)


def passive_key(gpu) -> tuple:
    """What ``passive_severity`` reads of a card: cards with the same key are judged alike in every
    case (a cache key for callers asking in bulk)."""
    return (gpu.cooler == "passive", cooler_unconfirmed(gpu))


def _rests_on(gpu, sev: Severity, limits: T) -> tuple[Severity, T]:
    """Severity and limits of a finding that rests on ``gpu``'s cooler type."""
    if not cooler_unconfirmed(gpu):
        return sev, limits
    how = (T("derived from its product line") if getattr(gpu, "cooler_derived", None)
           else T("read from the community database's fan count"))
    note = T(" The cooler type of {gpu} is community data ({how}), not confirmed: at most a warning.",
             gpu=gpu.name, how=how)
    return _capped(gpu, sev), limits + note


def check_thermal(ctx: Context) -> Iterator[Finding]:
    placed = ctx.board_gpus
    for i, g in enumerate(placed):
        if g.gpu.cooler != "open-air":
            continue
        below = next((b for b in placed[i + 1:] if b.position > g.position), None)
        if below is not None:
            gap = gap_mm(g.position, g.gpu.slot_width, below.position)
            sev = fan_gap_severity(g.gpu, gap)
            if sev is None:
                continue  # enough room, or the cards collide (reported as slot.overlap)
            gap = max(0.0, gap)
            fix = _fix(ctx, g, below)
            _sev, limits = _rests_on(g.gpu, sev, LIMITS + ctx.position_note((g.position, below.position)))
            yield Finding("thermal.open-air-gap", sev,
                          T("{gap} in front of the fans of {gpu}; at least {min_gap} needed "
                            "(GPU {num} sits in position {position}).", gap=mm(gap), gpu=gpu_label(g),
                            min_gap=mm(MIN_GAP_MM), num=below.num, position=below.position),
                          fix=fix,
                          limits=limits, gpus=(g.num, below.num), positions=(g.position, below.position),
                          parts=(g.gpu.id, below.gpu.id), figures=(("gap_mm", round(gap, 2)),
                                                                     ("min_gap_mm", MIN_GAP_MM)))
        elif ctx.case is not None:
            # Lowest card: its fans face the case floor / PSU shroud below the last position.
            gap = gap_mm(g.position, g.gpu.slot_width, ctx.case.expansion_slots + 1)
            if gap >= 0 and gap_severity(gap) is not None:
                _sev, floor_limits = _rests_on(g.gpu, Severity.WARNING, LIMITS + T(
                    " The space below the last expansion position differs by case and is not in the catalog."))
                yield Finding("thermal.open-air-gap", Severity.WARNING,
                              T("About {gap} between the fans of {gpu} and the bottom of the "
                                "{case} (below expansion position {last}); at least {min_gap} needed.",
                                gap=mm(gap), gpu=gpu_label(g), case=ctx.case.name, last=ctx.case.expansion_slots,
                                min_gap=mm(MIN_GAP_MM)),
                              fix=T("Move the card up one position, or check the space above the PSU shroud "
                                    "in the case manual."),
                              limits=floor_limits,
                              gpus=(g.num,), positions=(g.position,), parts=(g.gpu.id, ctx.case.id),
                              figures=(("gap_mm", round(gap, 2)), ("min_gap_mm", MIN_GAP_MM)))
    for g in ctx.gpus:
        sev = passive_severity(g.gpu, ctx.case)
        if sev is not None:
            _sev, limits = _rests_on(g.gpu, sev, T("A rackmount or server case with high-pressure fans is not "
                                                   "checked for airflow."))
            yield Finding(PASSIVE, sev,
                          T("{gpu} has no fan: it is made for a server chassis that pushes air through it, "
                            "and overheats in a desktop case.", gpu=gpu_label(g)),
                          fix=T("Use an actively cooled card (e.g. the workstation version), or a server chassis "
                                "or a fan shroud made for this card."),
                          limits=limits,
                          gpus=(g.num,), positions=(g.position,) if g.position else (), parts=(g.gpu.id,))
    blowers = [g for g in placed if g.gpu.cooler == "blower"]
    adjacent = [b for i, b in enumerate(blowers[1:]) if b.position - blowers[i].position <= blowers[i].span]
    if adjacent:
        n = len(adjacent) + 1
        yield Finding("thermal.stack", Severity.INFO,
                      T("{n} blower cards sit next to each other: they are made for it and exhaust out of the "
                        "back, but expect the inner cards to run hotter and all of them to be loud under load.", n=n),
                      fix=T("A power limit of 10-20% lowers heat and noise at under 5% of throughput "
                            "(Makropoulos 2023)."),
                      limits=T("Noise and temperature are not modelled in figures."),
                      gpus=tuple(g.num for g in blowers), positions=tuple(g.position for g in blowers))


def _fix(ctx: Context, upper, lower) -> T:
    board = ctx.board
    if board is not None:
        need = upper.position + upper.span + 1  # one free position in front of the fans
        for s in sorted(board.slots, key=lambda s: s.position):
            if s.position >= need and ctx.build.gpu_at(s.position) is None:
                if all(not (s.position <= o.position < s.position + lower.span) or o is lower
                       for o in ctx.board_gpus):
                    return T("Move GPU {num} to {slot} (position {position}), or use a blower card for GPU {upper}.",
                             num=lower.num, slot=s.id, position=s.position, upper=upper.num)
    return T("Use a blower or water-cooled card for GPU {upper}, or move GPU {num} to a riser.",
             upper=upper.num, num=lower.num)
