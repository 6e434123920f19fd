"""``rigbuilder compare A.rig B.rig [C.rig D.rig]``: builds side by side, and each against renting."""
from __future__ import annotations

import argparse
from pathlib import Path

from rigbuilder.commands.common import (UsageError, add_json_flag, load_build, number_arg, open_catalog, print_json,
                                        require_parts)
from rigbuilder.domain.i18n import N_, T, render



def register(sub) -> None:
    p = sub.add_parser("compare", help=N_("two to four builds side by side: throughput, VRAM, what fits, power, "
                                          "purchase, energy, cost of ownership, findings, buy or rent"))
    p.add_argument("files", nargs="+", metavar="FILE", help=N_("two to four .rig build files"))
    p.add_argument("--workload", action="append", metavar="W[:SIZE[:PRECISION]]",
                   help=N_("a workload to compare on, e.g. qlora:13B or llm-inference:70B:int4 (repeatable; "
                           "default: CNN training, QLoRA 13B, LLM inference 7B fp16 and 70B q4_k_m)"))
    p.add_argument("--years", default="3", metavar="N", help=N_("years for the cost of ownership (default 3)"))
    p.add_argument("--currency", metavar="C", help=N_("currency of every figure (default: the first build's)"))
    p.add_argument("--rent", metavar="PRICE", help=N_("cloud price per GPU-hour to compare with, in the "
                                                      "comparison's currency (default: each build's own "
                                                      "rent_per_gpu_hour setting, else published examples)"))
    add_json_flag(p)
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
        from rigbuilder.domain.money import MoneyError, check_currency

        try:
            cur = check_currency(args.currency, "--currency", cat.index.prices.rates)
        except MoneyError as e:
            raise UsageError(e.args[0] if e.args else str(e)) from None
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
    """The comparison as a table (figure, then one cell per build) in ``lang``, then its notes."""
    from rigbuilder.rules.compare import table, verdicts

    heads, rows, notes = table(result)
    r = lambda t: render(t, lang)  # noqa: E731
    rows = [(r(label), [r(c) for c in cells]) for label, cells in rows]
    width = max(len(label) for label, _ in rows) + 2
    cw = max(16, *(len(x) for _, cells in rows for x in cells), *(len(h) for h in heads)) + 2
    out = [" " * width + "".join(h.ljust(cw) for h in heads)]
    for label, cells in rows:
        out.append(label.ljust(width) + "".join(x.ljust(cw) for x in cells))
    out.append("")
    out.append(render(T("Verdict:"), lang))
    out.extend("  " + r(v) for v in verdicts(result))
    out.append("")
    out.extend(r(n) for n in notes)
    return out
