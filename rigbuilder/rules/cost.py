"""cost.*: the purchase against the build's budget."""
from __future__ import annotations

from typing import Iterator

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.money import money
from rigbuilder.models.cost import purchase
from rigbuilder.rules.context import Context

LIMITS = ("Prices are the price paid, your own price, or the newest published price (launch or street), "
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
    names = "; ".join(f"{p.name}{f' x{p.quantity}' if p.quantity > 1 else ''} {money(p.subtotal, buy.currency)}"
                      for p in biggest)
    at_least = "at least " if buy.missing else ""
    missing = (f" {len(buy.missing)} part{'s' if len(buy.missing) != 1 else ''} without a price "
               f"({', '.join(buy.missing_names())}) would add more.") if buy.missing else ""
    yield Finding("cost.over-budget", Severity.WARNING,
                  f"The parts cost {at_least}{money(buy.total, buy.currency)}, over the budget of "
                  f"{money(buy.budget, buy.currency)} by {at_least}{money(over, buy.currency)}. "
                  f"Biggest items: {names}.{missing}",
                  fix="Look for used or cheaper versions of the biggest items, enter the prices you were "
                      "quoted, or raise the budget.",
                  limits=LIMITS, parts=tuple(p.part_id for p in biggest),
                  figures=(("total", round(buy.total, 2)), ("budget", round(buy.budget or 0, 2)),
                           ("over", round(over, 2))))
