"""``rigbuilder power | cost``: power draw per state and running cost of a build file."""
from __future__ import annotations

import argparse
import textwrap
from dataclasses import replace

from rigbuilder.domain import fields as F
from rigbuilder.domain.money import currency_code, currency_problem
from rigbuilder.commands.common import (UsageError, add_json_flag, load_build, number_arg, open_catalog, print_json,
                                        require_parts)
from rigbuilder.domain.build import REGIONS, shown_name
from rigbuilder.domain.i18n import Money, N_, T, format_number, format_value, gettext, render, tr

STATES = ("idle", "training", "peak")
MAX_YEARS = 50


# Texts used inside f-strings (which the extractor does not read): marked here.
_IN_F_STRINGS = (N_('component'), N_('idle'), N_('training'), N_('peak'), N_('DC load'), N_('PSU efficiency'), N_('at the wall'))


def register(sub) -> None:
    p = sub.add_parser("power", help=N_("power draw per component for idle, training and peak; PSU load and wall draw"))
    p.add_argument("file")
    add_json_flag(p)
    p.set_defaults(func=cmd_power)
    c = sub.add_parser("cost", help=N_("energy and running cost per day, month and year; cost of ownership"))
    c.add_argument("file")
    c.add_argument("--price", type=str, metavar="P", help=N_("price per kWh (default: the build's setting)"))
    c.add_argument("--currency", metavar="C", help=N_("currency code, e.g. EUR or USD (default: the build's)"))
    c.add_argument("--hours-per-day", type=str, metavar="H", help=F.LOAD_HOURS.help)
    c.add_argument("--idle-hours-per-day", type=str, metavar="I", help=F.IDLE_HOURS.help)
    c.add_argument("--region", choices=sorted(REGIONS), help=N_("wall circuit and 80 PLUS table"))
    c.add_argument("--years", type=str, default="3", metavar="N", help=N_("years for the cost of ownership (default 3)"))
    add_json_flag(c)
    c.set_defaults(func=cmd_cost)


def _context(path: str):
    from rigbuilder.rules.context import Context

    cat = open_catalog()
    b = load_build(path)
    require_parts(b, cat.index, path)
    return cat, b, Context(b, cat.index)


def power_json(ctx, cat) -> dict:
    rep = ctx.power
    region = ctx.build.settings.region_info()
    r1 = lambda d: {s: round(d[s], 1) for s in STATES}  # noqa: E731
    peak = rep.dc["peak"]
    return {
        "build": ctx.build.name,
        "catalog_version": cat.version,
        "region": {"code": region.code, "label": region.label, "voltage": region.voltage,
                   "continuous_w": ctx.build.settings.circuit_w(), "rated_w": region.rated_w,
                   "circuit_margin": ctx.build.settings.circuit_margin, "efficiency_table": region.efficiency_table},
        "psus": [{"id": p.id, "name": p.name, "wattage": p.wattage, "efficiency": p.efficiency} for p in ctx.psus],
        "psu_rating_w": rep.psu_rating_w,
        "components": [{"label": c.label, "kind": c.kind, **{f"{s}_w": round(c.watts[s], 2) for s in STATES},
                        "estimate": c.estimate, "source": c.source,
                        **({"calibration": {"factor": c.calibration.factor, "logs": c.calibration.logs,
                                            "latest": c.calibration.latest}} if c.calibration else {})}
                       for c in rep.components],
        "dc_w": r1(rep.dc),
        "wall_w": r1(rep.wall),
        "load_fraction": {s: round(rep.load_fraction(s), 4) for s in STATES},
        "efficiency": {s: round(rep.efficiency[s], 4) for s in STATES},
        "efficiency_extrapolated": dict(rep.efficiency_estimated),
        "headroom_pct": round(100 * (rep.psu_rating_w / peak - 1), 1) if peak and rep.psu_rating_w else None,
        "gpu_transient_w": round(rep.gpu_transient_w, 1),
        "spike_w": round(peak + rep.gpu_transient_w, 1),
        "circuit_share_pct": round(100 * rep.wall["peak"] / ctx.build.settings.circuit_w(), 1),
        "missing_parts": list(ctx.missing),
    }


def cmd_power(args: argparse.Namespace) -> int:
    cat, b, ctx = _context(args.file)
    d = power_json(ctx, cat)
    if args.json:
        print_json(d)
        return 0
    lang = getattr(args, "lang", "en")
    print(tr("{name} ({region}, 80 PLUS {table} table)", lang, name=shown_name(b.name, lang), region=gettext(d["region"]["label"], lang),
             table=d["region"]["efficiency_table"]))
    L = lambda text: _pad(tr(text, lang), 58)  # noqa: E731
    print(f"{L('component')} {_pad(tr('idle', lang), 7, True)} {_pad(tr('training', lang), 9, True)} "
          f"{_pad(tr('peak', lang), 7, True)}")
    def row(vals) -> str:  # three watt figures under idle, training and peak, with the language's decimal sign
        if lang == "en":
            return " ".join(f"{v:{w}.1f}" for v, w in zip(vals, (7, 9, 7)))
        return " ".join(_pad(format_number(v, 1, lang), w, True) for v, w in zip(vals, (7, 9, 7)))

    for c in d["components"]:
        mark = " *" if c["estimate"] else ""
        lines = textwrap.wrap(render(c["label"], lang) + mark, 58, subsequent_indent="  ", break_on_hyphens=False) or [""]
        print(f"{_pad(lines[0], 58)} " + row((c["idle_w"], c["training_w"], c["peak_w"])))
        for more in lines[1:]:  # long names wrap at a word, never cut mid-word
            print(more)
    print(f"{L('DC load')} " + row([d["dc_w"][s] for s in STATES]))
    if ctx.psus:
        pct = (lambda v, digits: f"{100 * v:.{digits}f}%") if lang == "en" else (
            lambda v, digits: format_value(v, f".{digits}%", lang))
        eff = " ".join(format(f"{pct(d['efficiency'][s], 1)}{'~' if d['efficiency_extrapolated'][s] else ' '}",
                              f">{w}") for s, w in zip(STATES, (7, 9, 7)))
        print(_pad(tr("PSU load (% of {rating:g} W)", lang, rating=d["psu_rating_w"]), 58) + " "
              + " ".join(_pad(pct(d["load_fraction"][s], 0), w + 1, True) for s, w in zip(STATES, (6, 8, 6))))
        print(f"{L('PSU efficiency')} {eff}")
    print(f"{L('at the wall')} " + row([d["wall_w"][s] for s in STATES]))
    for c in ctx.power.components:  # a figure the user's measurements changed says so
        if c.calibration is not None:
            print(f"{render(c.label, lang)}: {render(c.calibration.note(), lang)}")
    print(tr("GPU spikes: about {spike:.0f} W for milliseconds (estimate by GPU generation).", lang,
             spike=d["spike_w"]))
    print(tr("Peak wall draw is {share:.0%} of what the circuit carries continuously ({circuit:g} W).", lang,
             share=d["circuit_share_pct"] / 100, circuit=d["region"]["continuous_w"]))
    print(tr("* estimate (a model, not a measurement); ~ efficiency extrapolated outside the certified 80 PLUS "
             "points", lang) if ctx.psus else
          tr("* estimate (a model, not a measurement); no PSU chosen: wall draw shown as DC load", lang))
    return 0


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal columns (a CJK character takes two)."""
    import unicodedata

    cols = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    fill = " " * max(0, width - cols)
    return fill + text if right else text + fill


def cmd_cost(args: argparse.Namespace) -> int:
    from rigbuilder.models import cost as cost_model
    from rigbuilder.rules.context import Context

    cat, b, _ = _context(args.file)
    s = b.settings
    changes = {}
    if args.currency is not None:
        from rigbuilder.domain.money import MoneyError
        from rigbuilder.models.prices import change_currency

        problem = currency_problem(args.currency)
        if problem is not None:
            raise UsageError(T("{flag} {value}: {error}", flag="--currency", value=args.currency, error=problem))
        cur = currency_code(args.currency)
        try:  # the electricity price and the budget are converted, not relabelled
            b.settings = s = change_currency(s, cur, cat.index.prices.rates)
        except MoneyError as e:
            raise UsageError(T("{flag} {value}: {error}", flag="--currency", value=args.currency, error=e.args[0] if e.args else str(e))) from None
    if args.price is not None:
        changes["price_per_kwh"] = number_arg("--price", args.price, F.PRICE_PER_KWH.lo, F.PRICE_PER_KWH.hi)
    if args.hours_per_day is not None:
        changes["load_hours_per_day"] = number_arg("--hours-per-day", args.hours_per_day, F.LOAD_HOURS.lo, F.LOAD_HOURS.hi)
    if args.idle_hours_per_day is not None:
        changes["idle_hours_per_day"] = number_arg("--idle-hours-per-day", args.idle_hours_per_day, F.IDLE_HOURS.lo, F.IDLE_HOURS.hi)
    elif "load_hours_per_day" in changes:
        # Hours under load asked for on the command line win over the file's idle hours: the idle
        # time shrinks to what is left of the day (24 h under load leaves no idle time).
        changes["idle_hours_per_day"] = min(s.idle_hours_per_day, F.HOURS_A_DAY - changes["load_hours_per_day"])
    if args.region is not None:
        changes["region"] = args.region
    years = number_arg("--years", args.years, 0, MAX_YEARS)
    b.settings = s = replace(s, **changes)
    try:
        cost_model.check_usage(s.load_hours_per_day, s.idle_hours_per_day, s.price_per_kwh, s.days_per_month)
    except ValueError as e:
        raise UsageError(T("{path}: {error}", path=args.file, error=e.args[0] if e.args else str(e))) from None
    ctx = Context(b, cat.index)
    rep = cost_model.cost_report(ctx.power, b, cat.index, s, years)
    d = cost_json(rep, ctx, cat)
    if args.json:
        print_json(d)
        return 0
    run, buy, cur = rep.running, rep.purchase, s.currency
    lang = getattr(args, "lang", "en")
    print(tr("{name}: {usage}, {price:g} {cur}/kWh", lang, name=shown_name(b.name, lang),
             usage=F.usage_words(s.load_hours_per_day, s.idle_hours_per_day), price=s.price_per_kwh, cur=cur))
    print(tr("Electricity price: {source}", lang, source=render(rep.energy_source, lang)))
    print(tr("At the wall: {training:.0f} W training, {idle:.0f} W idle", lang, training=run.wall_training_w,
             idle=run.wall_idle_w))
    for c in ctx.power.components:  # the training draw the user's measurements changed says so
        if c.calibration is not None:
            print(f"  {render(c.label, lang)}: {render(c.calibration.note(), lang)}")
    print(tr("Energy: {day:.2f} kWh a day, {month:.1f} kWh a month ({days:g} days), {year:.0f} kWh a year", lang,
             day=run.kwh_per_day, month=run.kwh_per_month, days=s.days_per_month, year=run.kwh_per_year))
    P = lambda v: Money(v, cur, plain=True)  # noqa: E731
    print(tr("Cost:   {day} a day, {month} a month, {year} a year", lang,
             day=P(run.cost_per_day), month=P(run.cost_per_month), year=P(run.cost_per_year)))
    for line in purchase_lines(buy, years, run.cost_per_year, cat.index.prices.rates, lang):
        print(line)
    for sc in d["scenarios"]:
        saving = sc["saving_per_year"]
        line = (T("  {label}: {cost} a year (saves {saving:.2f} a year)", label=sc["label"],
                  cost=P(sc["cost_per_year"]), saving=saving) if saving >= 0 else
                T("  {label}: {cost} a year (costs {saving:.2f} more a year)", label=sc["label"],
                  cost=P(sc["cost_per_year"]), saving=abs(saving)))
        print(render(line, lang))
    return 0


def purchase_lines(buy, years: float, energy_per_year: float, rates, lang: str = "en") -> list[str]:
    """The purchase, energy and total lines every text door prints (CLI ``cost``, text report)."""
    cur = buy.currency
    M = lambda v: Money(v, cur)  # noqa: E731
    n = len(buy.missing)
    if not n:
        total = M(buy.total)
    elif n == 1:
        total = T("at least {total} ({n} part without a price)", total=M(buy.total), n=n)
    else:
        total = T("at least {total} ({n} parts without a price)", total=M(buy.total), n=n)
    out = [tr("Purchase (parts): {total}", lang, total=buy.with_without(total))]
    if buy.missing:
        out.append(tr("  without a price (not in the total): {names}", lang, names=", ".join(buy.missing_names())))
    for note in buy.conversions:  # the tax and conversion notes of the price model, in the reader's language
        shown = render(note, lang)
        converted = "converted at" in str(note)  # (the English text: a note of tax alone used no rates)
        out.append(f"  {shown} ({rates.source})" if rates.source and converted else f"  {shown}")
    if buy.budget is not None:
        over = buy.over_budget
        if over:
            line = (T("  budget {budget}: over by at least {over}", budget=M(buy.budget), over=M(over)) if n else
                    T("  budget {budget}: over by {over}", budget=M(buy.budget), over=M(over)))
        else:
            line = (T("  budget {budget}: {left} left before the unpriced parts", budget=M(buy.budget),
                      left=M(buy.budget - buy.total)) if n else
                    T("  budget {budget}: {left} left", budget=M(buy.budget), left=M(buy.budget - buy.total)))
        out.append(render(line, lang))
    out.append(tr("Energy over {years:g} years: {energy}", lang, years=years, energy=M(years * energy_per_year)))
    tco = M(buy.total + years * energy_per_year)
    out.append(tr("Cost of ownership over {years:g} years (purchase + energy): at least {tco}", lang, years=years,
                  tco=tco) if n else
               tr("Cost of ownership over {years:g} years (purchase + energy): {tco}", lang, years=years, tco=tco))
    return out


def purchase_json(buy) -> dict:
    r = lambda v: None if v is None else round(v, 2)  # noqa: E731
    return {"total": r(buy.total), "currency": buy.currency, "complete": buy.complete,
            "without": list(buy.without),
            "label": buy.total_label(), "at_least": bool(buy.missing),
            "unpriced": list(buy.unpriced), "other_currency": list(buy.other_currency),
            "missing_names": buy.missing_names(), "conversions": list(buy.conversions),
            "by_currency": {k: r(v) for k, v in buy.by_currency.items()},
            "budget": r(buy.budget), "over_budget": r(buy.over_budget),
            "parts": [{"id": p.part_id, "name": p.name, "quantity": p.quantity, "unit_price": r(p.price),
                       "price": r(p.subtotal), "currency": p.currency, "bundle": p.bundle or None,
                       "observed": None if p.priced is None else {
                           "amount": p.priced.observation.amount, "currency": p.priced.observation.currency,
                           "condition": p.priced.observation.condition, "origin": p.priced.observation.origin,
                           "source": p.priced.observation.source, "date": p.priced.observation.date},
                       "trace": None if p.priced is None else p.priced.trace()} for p in buy.parts]}


def cost_json(rep, ctx, cat) -> dict:
    run, buy, s = rep.running, rep.purchase, ctx.build.settings
    r = lambda v: round(v, 2)  # noqa: E731
    return {
        "build": ctx.build.name,
        "catalog_version": cat.version,
        "settings": {"region": s.region, "price_per_kwh": s.price_per_kwh, "currency": s.currency,
                     "load_hours_per_day": s.load_hours_per_day, "idle_hours_per_day": s.idle_hours_per_day,
                     "days_per_month": s.days_per_month},
        "price_per_kwh_source": str(rep.energy_source),
        "wall_w": {"training": round(run.wall_training_w, 1), "idle": round(run.wall_idle_w, 1)},
        "energy_kwh": {"day": round(run.kwh_per_day, 3), "month": round(run.kwh_per_month, 2),
                       "year": round(run.kwh_per_year, 1)},
        "cost": {"day": r(run.cost_per_day), "month": r(run.cost_per_month), "year": r(run.cost_per_year)},
        "purchase": purchase_json(buy),
        "energy_over_years": r(rep.years * run.cost_per_year),
        "years": rep.years,
        "tco": r(rep.tco),
        "tco_at_least": bool(buy.missing),
        "rates": {"date": cat.index.prices.rates.date, "source": cat.index.prices.rates.source,
                  "edited": cat.index.prices.rates.edited},
        "cumulative_by_year": [r(buy.total + y * run.cost_per_year) for y in range(int(rep.years) + 1)],
        "scenarios": [{"key": sc.key, "label": sc.label, "wall_training_w": round(sc.running.wall_training_w, 1),
                       "price_per_kwh": sc.running.price_per_kwh, "kwh_per_year": round(sc.running.kwh_per_year, 1),
                       "cost_per_month": r(sc.running.cost_per_month), "cost_per_year": r(sc.running.cost_per_year),
                       "saving_per_year": r(sc.saving_per_year(run)),
                       "tco": r(buy.total + rep.years * sc.running.cost_per_year)} for sc in rep.scenarios],
        "missing_parts": list(ctx.missing),
    }
