"""build.incomplete: a build without one of the parts every build needs, or with cards that sit
neither in a slot nor on a riser. A plan may be incomplete (a warning, not an error); this says
what its checks and money totals leave out."""
from __future__ import annotations

from typing import Iterator

from rigbuilder.domain.build import MOUNT_RISER, without_text
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T
from rigbuilder.rules.context import Context

LIMITS = T("Checks that need a missing part (fit, lanes, power, cost) are skipped or count without it.")


def unplaced_gpus(ctx: Context) -> tuple[int, ...]:
    """GPU numbers of cards neither in a slot nor on a riser (a position without a board is no slot)."""
    return tuple(g.num for g in ctx.gpus
                 if g.placement.mount != MOUNT_RISER and (g.placement.position is None or ctx.board is None))


def check_complete(ctx: Context) -> Iterator[Finding]:
    if not ctx.build.part_ids():
        return  # nothing yet: a new, empty build is not an incomplete one
    roles = ctx.build.missing_roles()
    loose = unplaced_gpus(ctx)
    if not roles and not loose:
        return
    what = without_text(roles)
    cards = ", ".join(str(n) for n in loose)
    if roles and loose:
        msg = T("The build is incomplete: it has no {parts}, and GPU {cards} sits neither in a slot nor on a riser.",
                parts=what, cards=cards)
    elif roles:
        msg = T("The build is incomplete: it has no {parts}.", parts=what)
    else:
        msg = T("GPU {cards} sits neither in a slot nor on a riser: the build is incomplete.", cards=cards)
    fix = (T("Add the missing parts and place every card (drag it onto a slot, or Arrange).") if roles and loose else
           T("Add the missing parts.") if roles else T("Place every card: drag it onto a slot, or Arrange."))
    yield Finding("build.incomplete", Severity.WARNING, msg, fix=fix, limits=LIMITS, gpus=loose,
                  figures=(("missing_parts", float(len(roles))), ("unplaced_gpus", float(len(loose)))))
