"""``rigbuilder compare A.rig B.rig [C.rig D.rig]``: builds side by side, and each against renting."""
from __future__ import annotations

import argparse
from pathlib import Path

from rigbuilder.commands.common import UsageError, load_build, number_arg, open_catalog, print_json, require_parts
from rigbuilder.domain.i18n import Money, N_, T, render

CURRENCY_LEN = 3


def register(sub) -> None:
    p = sub.add_parser("compare", help=N_("two to four builds side by side: throughput, VRAM, what fits, power, "
                                          "purchase, energy, cost of ownership, findings, buy or rent"))
    p.add_argument("files", nargs="+", metavar="FILE", help=N_("two to four .rig build files"))
    p.add_argument("--workload", action="append", metavar="W[:SIZE[:PRECISION]]",
                   help=N_("a workload to compare on, e.g. qlora:13B or llm-inference:70B:int4 (repeatable; "
                           "default: CNN training, QLoRA 13B, LLM inference 7B fp16 and 70B int4)"))
    p.add_argument("--years", default="3", metavar="N", help=N_("years for the cost of ownership (default 3)"))
    p.add_argument("--currency", metavar="C", help=N_("currency of every figure (default: the first build's)"))
    p.add_argument("--rent", metavar="PRICE", help=N_("cloud price per GPU-hour to compare with, in the "
                                                      "comparison's currency (default: published examples)"))
    p.add_argument("--json", action="store_true", help=N_("JSON output (stable field names)"))
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from rigbuilder.models import renting
    from rigbuilder.rules import compare as cmp_mod

    if not 2 <= len(args.files) <= cmp_mod.MAX_BUILDS:
        raise UsageError(T("compare takes 2 to {most} builds, not {n}", most=cmp_mod.MAX_BUILDS, n=len(args.files)))
    cat = open_catalog()
    builds = []
    for path in args.files:
        b = load_build(path)
        require_parts(b, cat.index, path)
        builds.append((Path(path).name, b))
    wls = []
    for text in args.workload or ():
        try:
            wls.append(cmp_mod.parse_workload(text))
        except ValueError as e:
            raise UsageError(T("{flag} {value}: {error}", flag="--workload", value=text,
                               error=e.args[0] if e.args else str(e))) from None
    years = number_arg("--years", args.years, 0, 50)
    cur = None
    if args.currency is not None:
        cur = args.currency.strip().upper()
        if len(cur) != CURRENCY_LEN or not cur.isalpha() or not cat.index.prices.rates.knows(cur):
            raise UsageError(T("{flag} {value}: expected a three-letter code the exchange rates know, such as EUR "
                               "or USD", flag="--currency", value=args.currency))
    typed = None
    if args.rent is not None:
        amount = number_arg("--rent", args.rent, 0.001, 10_000)
        typed = renting.CloudPrice("", amount, cur or builds[0][1].settings.currency, yours=True)
    try:
        result = cmp_mod.compare(builds, cat.index, wls or None, years=years, currency=cur, cloud=typed)
    except ValueError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    if args.json:
        print_json(cmp_mod.to_dict(result))
        return 0
    for line in text_lines(result, getattr(args, "lang", "en")):
        print(line)
    return 0


def text_lines(result, lang: str = "en") -> list[str]:
    """The comparison as a table of rows (figure, then one cell per build) in ``lang``."""
    from rigbuilder.rules.compare import workload_label

    cols = result.columns
    cur = result.currency
    r = lambda t: render(t, lang)  # noqa: E731
    rows: list[tuple[str, list[str]]] = []
    rows.append((r(T("GPUs")), [", ".join(f"{k} x {n}" for n, k in c.gpus) or "-" for c in cols]))
    rows.append((r(T("VRAM per card / total")),
                 [r(T("{card:g} GB / {total:g} GB", card=min(c.vram_per_card_gb), total=c.vram_total_gb))
                  if c.vram_per_card_gb else "-" for c in cols]))
    for i, wl in enumerate(result.workloads):
        best = result.best(i)
        cells = []
        for k, c in enumerate(cols):
            t = c.throughput[i]
            if not t.fits:
                cells.append(r(T("does not fit")))
                continue
            band = (r(T("{value:,.1f} {unit}, typically within {err:.0%}", value=t.value, unit=t.unit,
                        err=t.typical_error)) if t.typical_error is not None else
                    r(T("{value:,.1f} {unit}", value=t.value, unit=t.unit)))
            cells.append(band + (" *" if best == k else ""))
        rows.append((r(workload_label(wl)), cells))
    rows.append((r(T("wall draw training / peak")),
                 [r(T("{train:,.0f} W / {peak:,.0f} W ({share:.0%} of the circuit)", train=c.wall_training_w,
                      peak=c.wall_peak_w, share=c.wall_peak_w / c.circuit_w if c.circuit_w else 0)) for c in cols]))
    rows.append((r(T("purchase")), [r(c.purchase.total_label()) for c in cols]))
    rows.append((r(T("energy a year")), [r(T("{cost} ({kwh:,.0f} kWh)", cost=Money(c.running.cost_per_year, cur),
                                               kwh=c.running.kwh_per_year)) for c in cols]))
    rows.append((r(T("cost of ownership, {years:g} years", years=result.years)),
                 [r(T("{total}", total=Money(c.tco, cur))) + ("+" if not c.purchase.complete else "") for c in cols]))
    rows.append((r(T("coolers")), [r(T("{blowers} blower, {open} open-air, {gaps} starved", blowers=c.blowers,
                                       open=c.open_air, gaps=c.open_air_gaps)) for c in cols]))
    rows.append((r(T("findings")), [r(T("{e} errors, {w} warnings", e=c.findings.get("error", 0),
                                        w=c.findings.get("warning", 0))) for c in cols]))
    rows.append((r(T("buy or rent")), [r(T("after {hours:,.0f} h", hours=c.rent.hours)) if c.rent and c.rent.hours
                                       else r(T("never")) if c.rent else "-" for c in cols]))
    width = max(len(label) for label, _ in rows) + 2
    cw = max(16, *(len(x) for _, cells in rows for x in cells), *(len(c.label) for c in cols)) + 2
    out = [" " * width + "".join(c.label.ljust(cw) for c in cols)]
    for label, cells in rows:
        out.append(label.ljust(width) + "".join(x.ljust(cw) for x in cells))
    out.append("")
    out.append(r(T("* the most throughput on that workload; + the total leaves out parts without a price")))
    for c in cols:
        if c.rent is not None:
            out.append(f"{c.label}: " + r(c.rent.summary(result.settings.load_hours_per_day)))
            if c.rent.price is not None and not c.rent.price.yours:
                out.append("  " + r(T("rental price: {price:.2f} {cur} per GPU-hour, {desc}", price=c.rent.price.amount,
                                      cur=c.rent.price.currency, desc=c.rent.price.describe())))
            if c.rent.rate_note:
                out.append("  " + r(c.rent.rate_note))
        elif c.rent_missing:
            out.append(f"{c.label}: " + r(c.rent_missing))
        if c.codes:
            out.append(f"{c.label}: " + ", ".join(c.codes))
        if not c.purchase.complete:
            out.append(f"{c.label}: " + r(T("without a price: {names}", names=", ".join(c.purchase.missing_names()))))
    for n in result.notes:
        out.append(r(n))
    return out
