"""cost.*: the purchase against the build's budget."""
from __future__ import annotations

from typing import Iterator

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import Money, T, nT
from rigbuilder.models.cost import purchase
from rigbuilder.rules.context import Context

LIMITS = T("Prices are the price paid, your own price, or the newest published price (launch or street), "
           "converted at the exchange rates shown; parts without a price are not counted.")


def check_budget(ctx: Context) -> Iterator[Finding]:
    s = ctx.build.settings
    if s.budget is None:
        return
    buy = purchase(ctx.build, ctx.index)
    over = buy.over_budget
    if over is None:
        return
    biggest = buy.biggest(3)
    cur = buy.currency
    items = [T("{name}{qty} {price}", name=p.name, qty=f" x{p.quantity}" if p.quantity > 1 else "",
               price=Money(p.subtotal, cur)) for p in biggest]
    names = T.join(*(x for i, it in enumerate(items) for x in (("; ", it) if i else (it,))))
    n_missing, missing_names = len(buy.missing), ", ".join(buy.missing_names())
    missing = (nT(" {n} part without a price ({names}) would add more.",
                  " {n} parts without a price ({names}) would add more.", n_missing, names=missing_names)
               if n_missing else T.verbatim(""))
    figures = dict(total=Money(buy.total, cur), budget=Money(buy.budget, cur), over=Money(over, cur),
                   names=names, missing=missing)
    yield Finding("cost.over-budget", Severity.WARNING,
                  T("The parts cost at least {total}, over the budget of {budget} by at least {over}. "
                    "Biggest items: {names}.{missing}", **figures) if buy.missing else
                  T("The parts cost {total}, over the budget of {budget} by {over}. "
                    "Biggest items: {names}.{missing}", **figures),
                  fix=T("Look for used or cheaper versions of the biggest items, enter the prices you were "
                        "quoted, or raise the budget."),
                  limits=LIMITS, parts=tuple(p.part_id for p in biggest),
                  figures=(("total", round(buy.total, 2)), ("budget", round(buy.budget or 0, 2)),
                           ("over", round(over, 2))))
