"""``rigbuilder optimise``: the best complete build for a budget and a workload, today and grown."""
from __future__ import annotations


import argparse
from pathlib import Path
from typing import Optional

from rigbuilder.domain import fields as F
from rigbuilder.domain.money import currency_code, currency_problem
from rigbuilder.commands.common import (UsageError, add_json_flag, number_arg, open_catalog, print_json,
                                        refuse_overwrite, save_build)
from rigbuilder.domain.i18n import N_, T, nT, ntr, render, tr
from rigbuilder.domain.build import REGIONS, ROOM_NOISE_RANGE, without_text
from rigbuilder.domain.parts import compact_card_name  # noqa: F401  (the table's names; tests import it here)

KIND_NAMES = {"board": "motherboard", "motherboard": "motherboard", "cpu": "cpu", "cooler": "cooler",
              "memory": "memory", "storage": "storage", "psu": "psu", "case": "case", "gpu": "gpu"}


def register(sub) -> None:
    o = sub.add_parser("optimise", aliases=["optimize"],
                       help=N_("search the catalog for the best build for a budget and a workload"),
                       description=N_("Search complete builds (board, CPU, cooler, memory, storage, PSU, case and "
                                   "GPUs in slots) for the best by --objective: with --budget the most throughput "
                                   "within the budget, without one the most throughput per total cost (purchase "
                                   "now, the cost of growing, and the energy of the years given), or the cheapest "
                                   "build that reaches a target. Every build is judged by the "
                                   "checks at both stages: today and grown. Exit 0: builds found; 1: no build "
                                   "meets the request (the reason is printed); 2: bad input."))
    o.add_argument("--budget", metavar="AMOUNT", help=N_("most to spend now (default: no limit)"))
    o.add_argument("--currency", default=F.CURRENCY.default, metavar="C",
                   help=N_("currency of the budget and the figures (default %(default)s)"))
    o.add_argument("--prices", choices=("new", "used", "both"), default="new",
                   help=N_("which prices: new, used (used where known, else new) or both (the cheaper); default new"))
    from rigbuilder.rules.optimise.scoring import workload_ids

    known = workload_ids()
    o.add_argument("--workload", default="cnn-training",
                   help=N_("workload preset (default cnn-training)") + (f": {', '.join(known)}" if known else ""))
    o.add_argument("--model-size", metavar="B", help=N_("model size in billions of parameters (for the workload)"))
    o.add_argument("--precision", metavar="P",
                   help=N_("what the weights are held at, e.g. fp16, int8, int4 (default: the workload's own)"))
    o.add_argument("--objective", choices=("within-budget", "per-cost", "cheapest"),
                   help=N_("what is best: the most throughput within the budget (the default with --budget), the most "
                           "throughput per total cost (the default without), or the cheapest build that reaches "
                           "--target-throughput"))
    o.add_argument("--target-throughput", metavar="X",
                   help=N_("with --objective cheapest: the least throughput, in the workload's unit"))
    o.add_argument("--grow-budget", metavar="AMOUNT",
                   help=N_("most spent on growing (the cards added later); the grown stage is judged against the "
                           "budget plus this (default: growing has no cap)"))
    o.add_argument("--allow-warnings", action="store_true",
                   help=N_("accept builds with thermal, lane-link, PSU-transient, radiator or over-budget warnings "
                           "(refused by default; the optimiser's documentation lists them)"))
    o.add_argument("--choice", action="append", default=[], metavar="NAME=off",
                   help=N_("turn a builder's choice off (or on): memory-channels, memory-vs-vram, system-drive, "
                           "vram-margin, training-link, training-vram, tensor-cores, platform-link, platform-age, "
                           "case-fit-confirmed (off unless turned on); repeat"))
    o.add_argument("--budget-step", metavar="AMOUNT",
                   help=N_("also say what this much more budget would buy (searches once more)"))
    o.add_argument("--gpus", default="1", metavar="N",
                   help=N_("GPUs bought now (default 1); a range such as 1-4 makes the number of cards a search "
                           "variable (each count searched, the best wins; no --grow-to)"))
    o.add_argument("--grow-to", type=int, metavar="N", help=N_("GPUs the build grows to later (default: no growth)"))
    o.add_argument("--min-vram", metavar="GB", help=N_("at least this much VRAM per card"))
    o.add_argument("--min-total-vram", metavar="GB", help=N_("at least this much VRAM over all cards of the grown build"))
    o.add_argument("--ram-per-vram", metavar="X", help=N_("system memory at least X times the grown build's VRAM "
                                                        "(default 1; 2 for room to work on big nets)"))
    o.add_argument("--min-storage", metavar="GB", help=N_("the drive holds at least this much (default 1000 with the "
                                                          "system-drive choice; 0: any)"))
    o.add_argument("--free-slots", type=int, default=0, metavar="N",
                   help=N_("expansion slots the grown build's cards must leave free: 1 for a cluster's network card, "
                           "whose slot the answer names (default 0)"))
    o.add_argument("--region", choices=sorted(F.REGION.choices), default=F.REGION.default,
                   help=N_("wall circuit (default %(default)s)"))
    o.add_argument("--price-kwh", metavar="P", help=N_("electricity price per kWh in the currency (default: the app's)"))
    o.add_argument("--hours-per-day", default=f"{F.LOAD_HOURS.default:g}", metavar="H",
                   help=F.LOAD_HOURS.help)
    o.add_argument("--idle-hours-per-day", default=f"{F.IDLE_HOURS.default:g}", metavar="I",
                   help=F.IDLE_HOURS.help)
    o.add_argument("--years", default="3", metavar="N", help=N_("years of energy in the total cost (default 3)"))
    o.add_argument("--quiet", action="store_true",
                   help=N_("quiet: blower cards only when nothing else fits; a full slot of air in front of open-air fans"))
    o.add_argument("--max-noise", metavar="DB",
                   help=N_("every answer at most this loud: dB(A) at 1 m while training (the noise model; 40 for a "
                           "room people work in); says what the limit cost (searches once more)"))
    o.add_argument("--atx3", action="store_true", help=N_("ATX 3.x PSUs only"))
    o.add_argument("--second-psu", action="store_true", help=N_("growing may add a second PSU"))
    o.add_argument("--risers", action="store_true",
                   help=N_("also try the cards on priced risers in an open frame with a position for each (slower: "
                           "one more search per riser option)"))
    o.add_argument("--riser-length", metavar="MM",
                   help=N_("with --risers: only risers at least this long; measure from the board's slots to the "
                           "frame's card positions (a frame that states no riser length is searched only with it)"))
    o.add_argument("--no-headroom", action="store_true", help=N_("accept PSUs with less than 10%% headroom at peak"))
    o.add_argument("--power-limit", metavar="PCT",
                   help=N_("limit every GPU to this percentage of its board power (50 to 100), as nvidia-smi -pl does; "
                           "several, comma-separated (100,90,80,70), or 'auto' for those four: the search "
                           "chooses the best"))
    o.add_argument("--own", action="append", default=[], metavar="KIND=ID",
                   help=N_("a part you already own (costs nothing); repeat, a GPU once per card"))
    o.add_argument("--own-lab", action="store_true",
                   help=N_("the parts the lab owns (its stock in --db) cost nothing: each kind the lab has one part "
                           "of is used, a GPU as many times as the lab has it; a kind with several is named, to "
                           "choose with --own"))
    from rigbuilder.commands.lab import add_db_options

    add_db_options(o)
    o.add_argument("--insist", action="append", default=[], metavar="KIND=ID", help=N_("use this part (priced as usual)"))
    o.add_argument("--top", type=int, default=5, metavar="N", help=N_("how many builds to list (default 5)"))
    o.add_argument("--compare", type=int, metavar="N",
                   help=N_("put the best N builds (2 to 4, grown stage) side by side as rigbuilder compare does"))
    add_json_flag(o)
    o.add_argument("-o", "--output", metavar="FILE",
                   help=N_("write the best build (today's stage) here, and its grown stage beside it as FILE-grown.rig"))
    o.add_argument("--force", action="store_true", help=N_("overwrite an existing FILE-grown.rig"))
    o.set_defaults(func=cmd_optimise)


# Texts used inside f-strings (which the extractor does not read): marked here.
_IN_F_STRINGS = (N_('build'), N_('now'), N_('grow'), N_('energy'), N_('total'), N_('thru'), N_('peak W'), N_('wall W'), N_('/month'))


def _num(flag: str, text: Optional[str], lo: float, hi: float) -> Optional[float]:
    return None if text is None else number_arg(flag, text, lo, hi)


def _parts(flag: str, items: list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for item in items:
        kind, sep, pid = item.partition("=")
        kind = KIND_NAMES.get(kind.strip().lower())
        if not sep or kind is None or not pid.strip():
            raise UsageError(T("{flag} {value}: expected KIND=ID with KIND one of {kinds}", flag=flag,
                               value=item[:60], kinds=", ".join(k for k in KIND_NAMES if k != "motherboard")))
        out.append((kind, pid.strip()))
    return tuple(out)


def _limits(text: Optional[str]) -> dict:
    """--power-limit PCT, PCT,PCT,... or auto -> the request's power_limit or power_limits."""
    from rigbuilder.rules.optimise import LIMIT_STEPS

    if text is None:
        return {}
    if text.strip().lower() == "auto":
        return {"power_limits": LIMIT_STEPS}
    lo, hi = 100 * F.POWER_LIMIT_FRACTION.lo, 100 * F.POWER_LIMIT_FRACTION.hi  # type: ignore[operator]
    steps = [_num("--power-limit", t.strip(), lo, hi) / 100 for t in text.split(",") if t.strip()]
    if not steps:
        raise UsageError(T("{flag} {value}: expected a number", flag="--power-limit", value=text))
    if len(steps) == 1:
        return {"power_limit": F.fraction_limit(steps[0])}
    return {"power_limits": tuple(steps)}


def _choices(items: list[str]) -> tuple[tuple[str, bool], ...]:
    from rigbuilder.rules.optimise.choices import NAMES

    out = []
    for item in items:
        name, sep, val = item.partition("=")
        name, val = name.strip().lower(), val.strip().lower()
        if not sep or name not in NAMES or val not in ("on", "off"):
            raise UsageError(T("{flag} {value}: expected NAME=on or NAME=off with NAME one of {names}", flag="--choice",
                               value=item[:60], names=", ".join(NAMES)))
        out.append((name, val == "on"))
    return tuple(out)


def _gpus(text: str) -> dict:
    """--gpus N or LO-HI -> the request's gpus_now, or its gpu_counts."""
    lo, sep, hi = str(text).partition("-")
    try:
        a, b = int(lo), int(hi) if sep else None
    except ValueError:
        raise UsageError(T("{flag} {value}: expected a whole number or a range such as 1-4", flag="--gpus",
                           value=str(text)[:20])) from None
    if b is None:
        return {"gpus_now": a}
    if not 1 <= a <= b <= 8:
        raise UsageError(T("{flag} {value}: expected a range from 1 to 8 such as 1-4", flag="--gpus", value=text[:20]))
    return {"gpus_now": a, "gpu_counts": tuple(range(a, b + 1))}


def request_from(args: argparse.Namespace):
    from rigbuilder.rules.optimise import Request
    from rigbuilder.rules.optimise.request import RISER_LENGTH_MM

    problem = currency_problem(args.currency or "")
    if problem is not None:
        raise UsageError(T("{flag} {value}: {error}", flag="--currency", value=args.currency, error=problem))
    cur = currency_code(args.currency or "")
    req = Request(budget=_num("--budget", args.budget, F.BUDGET.lo, F.BUDGET.hi), currency=cur, condition=args.prices,
                  workload=args.workload, model_params_b=_num("--model-size", args.model_size, 0, 1e5),
                  precision=args.precision,
                  **_gpus(args.gpus), grow_to=args.grow_to,
                  min_vram_gb=_num("--min-vram", args.min_vram, 0, 10000) or 0.0,
                  min_total_vram_gb=_num("--min-total-vram", args.min_total_vram, 0, 100000) or 0.0,
                  **({} if args.ram_per_vram is None else {"ram_per_vram": _num("--ram-per-vram", args.ram_per_vram, 0, 100)}),
                  **({} if args.min_storage is None else {"min_storage_gb": _num("--min-storage", args.min_storage, 0, 1e6)}),
                  free_slots=args.free_slots, region=args.region, price_per_kwh=_num("--price-kwh", args.price_kwh, F.PRICE_PER_KWH.lo, F.PRICE_PER_KWH.hi),
                  load_hours_per_day=_num("--hours-per-day", args.hours_per_day, F.LOAD_HOURS.lo, F.LOAD_HOURS.hi),
                  idle_hours_per_day=_num("--idle-hours-per-day", args.idle_hours_per_day, F.IDLE_HOURS.lo, F.IDLE_HOURS.hi),
                  years=_num("--years", args.years, 0, 50), quiet=args.quiet, atx3=args.atx3,
                  max_noise=_num("--max-noise", args.max_noise, *ROOM_NOISE_RANGE),
                  second_psu=args.second_psu, risers=args.risers,
                  riser_length_mm=_num("--riser-length", args.riser_length, *RISER_LENGTH_MM), psu_headroom=not args.no_headroom,
                  **_limits(args.power_limit),
                  insist=_parts("--insist", args.insist), own=_parts("--own", args.own), top=args.top,
                  objective=args.objective, target_throughput=_num("--target-throughput", args.target_throughput, 0, 1e9),
                  grow_budget=_num("--grow-budget", args.grow_budget, 0, F.BUDGET.hi),
                  allow_warnings=args.allow_warnings, choices=_choices(args.choice))
    bad = req.problems()
    if args.compare is not None and not 2 <= args.compare <= 4:
        bad.append(T("--compare {value}: must be from 2 to 4", value=args.compare))
    if args.target_throughput is not None and req.goal != "cheapest":
        bad.append(T("--target-throughput: only with --objective cheapest"))
    if not 1 <= args.top <= 50:
        bad.append(T("--top {value}: must be from 1 to 50", value=args.top))
    if bad:
        raise UsageError(T.join(*[x for b in bad for x in (b, "; ")][:-1]))
    return req


def candidate_dict(c, rank: int, index, priced: Optional[dict] = None) -> dict:
    from rigbuilder.rules.optimise import bands

    r2 = lambda x: round(x, 2)  # noqa: E731
    parts = []
    for pid, units, each, where in c.prices:
        p = index.get(pid)
        pp = (priced or {}).get(pid)
        parts.append({"id": pid, "kind": p.KIND if p else None, "name": p.name if p else pid, "units": units,
                      "price_each": r2(each), "price_source": where,
                      "observed": (pp.observed or None) if pp else None, "stale": pp.stale() if pp else None,
                      "trust": p.trust if p else None})
    counts = lambda fs: {s: sum(1 for f in fs if f.severity.value == s) for s in ("error", "warning", "info")}  # noqa: E731
    return {
        "rank": rank, "name": c.label, "without": list(c.today.missing_roles()), "gpu": c.gpu.id, "gpus_now": len(c.today.gpus), "gpus_grown": len(c.grown.gpus),
        "throughput": round(c.throughput, 3), "throughput_unit": c.unit,
        "throughput_band": None if (b := bands.throughput(c)) is None or b.band is None else round(b.band, 4),
        "estimates": bands.estimates(c),  # every estimate with its band (models.estimates), as advise --json
        "per_1000": round(c.ratio, 4), "cost_now": r2(c.cost_now), "cost_growth": r2(c.cost_growth),
        "energy": r2(c.energy), "years": c.years, "total": r2(c.total), "energy_per_month": r2(c.energy_per_month),
        "headroom_pct": round(100 * c.headroom, 1), "vram_gb_per_card": c.vram_gb,
        "vram_gb_total": c.vram_gb * len(c.grown.gpus), "peak_dc_w": round(c.peak_dc_w, 1),
        "peak_wall_w": round(c.peak_wall_w, 1),
        "positions_today": [g.position for g in c.today.gpus], "positions_grown": [g.position for g in c.grown.gpus],
        "mounts": [g.mount for g in c.grown.gpus], "risers": [g.riser for g in c.grown.gpus],
        "power_limit_w": c.grown.gpus[0].power_limit_w if c.grown.gpus else None,
        "psus_today": list(c.today.psus), "psus_grown": list(c.grown.psus),
        "findings_today": counts(c.findings_today), "findings_grown": counts(c.findings_grown),
        "parts": parts, "unverified": c.unverified,
        "noise_db": _noise_db(c.grown, index),
        # the same build with other makers' variants of the card (one row: ``Candidate.same_but_card``)
        "variants": [{"gpu": v.gpu.id, "name": v.gpu.name, "findings_today": counts(v.findings_today),
                      "findings_grown": counts(v.findings_grown)} for v in c.variants],
    }


def _noise_db(build, index) -> Optional[float]:
    """The grown build's level at 1 m while training (models/noise.py)."""
    from rigbuilder.rules.context import Context

    db = Context(build, index).noise.level("training")
    return None if db is None else round(db, 1)


def result_dict(res, index) -> dict:
    req = res.request
    return {
        "request": {"budget": req.budget, "currency": req.currency, "prices": req.condition, "workload": req.workload,
                    "model_size_b": req.model_params_b, "precision": req.precision, "gpus_now": req.n_now, "grow_to": req.n_grown, "gpu_counts": list(req.gpu_counts),
                    "min_vram_gb": req.min_vram_gb, "min_total_vram_gb": req.min_total_vram_gb,
                    "min_storage_gb": req.min_storage_gb, "ram_per_vram": req.ram_per_vram, "free_slots": req.free_slots,
                    "region": req.region,
                    "years": req.years, "quiet": req.quiet, "max_noise_db": req.max_noise, "atx3": req.atx3, "second_psu": req.second_psu,
                    "risers": req.risers, "riser_length_mm": req.riser_length_mm,
                    "psu_headroom": req.psu_headroom, "objective": req.goal,
                    "target_throughput": req.target_throughput, "grow_budget": req.grow_budget,
                    "allow_warnings": req.allow_warnings, "choices": dict(req.choices),
                    "power_limit_pct": None if req.power_limit is None else round(100 * req.power_limit, 1),
                    "power_limits_pct": [round(100 * f, 1) for f in req.power_limits],
                    "own": [f"{k}={v}" for k, v in req.own],
                    "insist": [f"{k}={v}" for k, v in req.insist]},
        "throughput_model": res.scorer,
        "seconds": round(res.seconds, 3),
        "judged": res.judged,
        "infeasible": res.infeasible,
        "explanation": res.explanation,
        "bounds": res.bounds,
        "excluded_unpriced": res.excluded,
        "left_out": res.left_out,
        "builds": [candidate_dict(c, i + 1, index, res.priced) for i, c in enumerate(res.candidates)],
        "power_steps": [_step_dict(f, c, why) for f, c, why in res.steps],
    }


def _step_dict(f: float, c, why) -> dict:
    """One power-limit step's best build (as its line in ``explanation`` says), or why it has none."""
    r2 = lambda x: round(x, 2)  # noqa: E731
    if c is None:
        return {"power_limit_pct": round(100 * f, 1), "name": None, "infeasible": why}
    return {"power_limit_pct": round(100 * f, 1), "name": c.label, "gpu": c.gpu.id, "gpus_now": len(c.today.gpus),
            "gpus_grown": len(c.grown.gpus), "motherboard": c.grown.motherboard, "throughput": round(c.throughput, 3),
            "throughput_unit": c.unit, "cost_now": r2(c.cost_now), "total": r2(c.total), "per_1000": round(c.ratio, 4),
            "infeasible": None}


def table_name(c, lang: str, width: int) -> str:
    """A build's row label cut to ``width`` characters by shortening the card's name, so that the board and the
    number of other variants stay visible ('4 x Turbo GeForce… on X99 WS-E (+2 variants)')."""
    from rigbuilder.domain.i18n import T, nT

    def with_variants(label):
        if not c.variants:
            return label
        return nT("{name} (+{n} variant)", "{name} (+{n} variants)", len(c.variants), name=label)

    full = render(c.row_label, lang)
    if len(full) <= width:
        return full
    label, gpu = c.label, c.gpu.model
    if isinstance(label, T) and "gpu" in label.params:
        gpu = compact_card_name(c.gpu)
        label = T(label.template, **{**label.params, "gpu": gpu})
        whole = render(with_variants(label), lang)
        keep = len(gpu) - (len(whole) - width) - 1  # the ellipsis takes one
        if len(whole) <= width:
            return whole
        if keep >= 6:
            short = gpu[:keep].rstrip() + "\u2026"
            return render(with_variants(T(label.template, **{**label.params, "gpu": short})), lang)[:width]
    return full[:width - 1] + "\u2026"


def print_result(res, lang: str = "en", index=None) -> None:
    from rigbuilder.commands.power import _pad as P
    from rigbuilder.rules.optimise import bands, figure

    req, cur = res.request, res.request.currency
    for line in res.price_notes:  # stale prices, the prices' age and the conversions come first
        print(render(line, lang))
    if res.price_notes:
        print()
    if res.infeasible:
        print(tr("No build meets the request. The constraint that cannot be met: {constraint}", lang,
                 constraint=res.infeasible))
    else:
        later = (T(", {n} later", n=req.n_grown) if req.n_grown != req.n_now else "")
        budget = (T(", a budget of {budget:,.0f} {currency} now", budget=req.budget, currency=cur)
                  if req.budget is not None else "")
        if req.gpu_counts:  # the number of cards searched: each count's best is in the explanation
            print(tr("Best builds for {workload}, {lo} to {hi} GPUs searched{budget} ({scorer}):", lang,
                     workload=req.workload, lo=min(req.gpu_counts), hi=max(req.gpu_counts), budget=budget,
                     scorer=res.scorer))
        else:
            print(ntr("Best builds for {workload}, {n} GPU now{later}{budget} ({scorer}):",
                      "Best builds for {workload}, {n} GPUs now{later}{budget} ({scorer}):", req.n_now, lang,
                      workload=req.workload, n=req.n_now, later=later, budget=budget, scorer=res.scorer))
        t = lambda text, w, right=True: P(tr(text, lang), w, right)  # noqa: E731
        head = (f"{'#':>2} {t('build', 44, False)} {t('now', 9)} {t('grow', 9)} {t('energy', 9)} {t('total', 10)} "
                f"{t('thru', 8)} {P('±', 8, True)} {'/1000':>7} {'VRAM':>6} {t('peak W', 7)} {t('wall W', 7)} {t('/month', 7)} "
                f"{'e/w/i':>7}")
        print(head)
        for i, c in enumerate(res.candidates, 1):
            n = c.counts()
            print(f"{i:>2} {P(table_name(c, lang, 44), 44, False)} {c.cost_now:>9,.0f} {c.cost_growth:>9,.0f} {c.energy:>9,.0f} "
                  f"{c.total:>10,.0f} {figure(c.throughput):>8} {P(render(bands.band_text(c), lang), 8, True)} "
                  f"{figure(c.ratio):>7} {c.vram_gb * len(c.grown.gpus):>5g}G "
                  f"{c.peak_dc_w:>7.0f} {c.peak_wall_w:>7.0f} {c.energy_per_month:>7.0f} "
                  f"{str(n['error']) + '/' + str(n['warning']) + '/' + str(n['info']):>7}")
        print(tr("(money in {currency}; energy over {years:g} years; throughput in {unit}; '\u00b1' = its error band; "
                 "'/1000' = throughput per 1,000 {currency} of total cost; findings of the grown build)", lang,
                 currency=cur, years=req.years, unit=res.candidates[0].unit))
        best = res.best
        print()
        if best.today.missing_roles():  # said before the parts, not after the last line
            print(tr("Incomplete: without {parts}. The purchase and the checks leave them out.", lang,
                     parts=without_text(best.today.missing_roles())))
        print(tr("Best build, parts:", lang))
        for pid, units, each, where in best.prices:
            pp = res.priced.get(pid)
            part = index.get(pid) if index is not None else None
            age = f"{pp.observed or '?'}, {render(pp.observation.age(), lang)}: " if pp else ""
            print(f"  {units} x {P((part.name if part else pid)[:46], 46, False)} {each:>10,.2f} {cur}  {age}{render(where, lang)[:90]}")
        if best.variants:  # other makers' cards that give the same build (``Candidate.variants``)
            print(tr("  the same build at the same price and throughput with: {cards}", lang,
                     cards=", ".join(f"{v.gpu.name} ({v.gpu.id})" for v in best.variants)))
        for u in best.unverified:
            print(tr("  note: {note}", lang, note=u))
    print()
    if (band_line := bands.best_line(res)) is not None:  # the answer's figure with its band, before the answer
        print(render(band_line, lang))
    for line in res.explanation[len(res.price_notes):]:
        print(render(line, lang))
    print(tr("Searched in {seconds:.2f} s; the engine judged {judged} builds; the bounds removed {removed:,} "
             "candidates (--json lists each bound).", lang, seconds=res.seconds, judged=res.judged,
             removed=sum(res.bounds.values())))


UNKNOWN_SHOWN = 10
"""The most unknown stock parts --own-lab names one by one."""


def lab_owned(req, owned: dict[str, int], index) -> tuple[tuple[tuple[str, str], ...], list]:
    """The parts a lab owns (part id -> how many) as the request's owned parts: each kind the lab has one
    part of (a GPU once per card it has, up to the grown build's cards), unless the request names a part
    of that kind already; and the notes that say what was left out and why."""
    from rigbuilder.rules.optimise import KINDS

    named = {k for k, _ in req.own + req.insist}
    by_kind: dict[str, list[tuple[str, int]]] = {}
    notes: list = []
    unknown = sorted(pid for pid in owned if index.get(pid) is None)
    if len(unknown) > UNKNOWN_SHOWN:  # thousands of ids in one line help nobody: the first few and a count
        notes.append(nT("the lab's stock names {n} part the catalog does not have: {ids} and {more} more "
                        "('rigbuilder lab stock --json' lists them all)",
                        "the lab's stock names {n} parts the catalog does not have: {ids} and {more} more "
                        "('rigbuilder lab stock --json' lists them all)", len(unknown),
                       ids=", ".join(unknown[:UNKNOWN_SHOWN]), more=len(unknown) - UNKNOWN_SHOWN))
    elif unknown:
        notes.append(T("the lab's stock names parts the catalog does not have: {ids}", ids=", ".join(unknown)))
    for pid, n in sorted(owned.items()):
        p = index.get(pid)
        if p is not None and p.KIND in KINDS and p.KIND not in named:
            by_kind.setdefault(p.KIND, []).append((pid, n))
    own: list[tuple[str, str]] = []
    for kind, items in by_kind.items():
        if len(items) > 1:
            notes.append(T("the lab owns several parts of kind {kind} ({ids}): name the one to use with --own "
                           "{kind}=ID", kind=kind, ids=", ".join(pid for pid, _ in items)))
            continue
        pid, n = items[0]
        own += [(kind, pid)] * (min(n, req.n_grown) if kind == "gpu" else 1)
    return tuple(own), notes


def cmd_optimise(args: argparse.Namespace) -> int:
    from rigbuilder.rules.optimise import OptimiseError, optimise
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    req = request_from(args)
    if args.output:  # the grown stage's file is one the user did not name: never replaced unasked
        refuse_overwrite(str(grown_path(Path(args.output))), args.force)
    cat = open_catalog()
    if args.own_lab:
        import dataclasses
        import sys

        from rigbuilder.commands.lab import _guard, open_lab

        db = open_lab(args)
        try:
            stock = _guard(db.owned_counts)
        finally:
            db.close()
        extra, notes = lab_owned(req, stock, cat.index)
        req = dataclasses.replace(req, own=req.own + extra)
        lang = getattr(args, "lang", "en")
        for n in notes:  # on stderr: the JSON on stdout stays one document
            print(render(n, lang), file=sys.stderr)
        if extra:
            print(tr("From the lab's stock, owned (no cost): {parts}", lang,
                     parts=", ".join(f"{k}={pid}" for k, pid in dict.fromkeys(extra))), file=sys.stderr)
    try:
        scorer = (optimise_scoring.shipped_scorer(req.workload, req.model_params_b, req.precision) if req.precision
                  else optimise_scoring.shipped_scorer(req.workload, req.model_params_b))
    except optimise_scoring.ThroughputUnavailable as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    except (KeyError, ValueError) as e:
        raise UsageError(T("--workload {value}: {error}", value=req.workload,
                           error=e.args[0] if e.args else str(e))) from None
    try:
        res = optimise(req, cat.index, scorer)
    except OptimiseError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    from rigbuilder.rules.optimise import bands

    bands.attach(res, cat.index, scorer)  # each answer's estimate, for the bands printed beside its figures
    if args.budget_step is not None:
        from rigbuilder.rules.optimise import budget_step

        step = number_arg("--budget-step", args.budget_step, 1, 1e9)
        res.explanation.extend(budget_step(req, res, cat.index, scorer, step))
    from rigbuilder.rules.optimise.answers import no_build_lines
    from rigbuilder.rules.optimise.frames import objective_lines

    res.explanation.extend(objective_lines(req, res, cat.index, scorer))  # the other objectives' winners
    res.explanation.extend(no_build_lines(req, res, cat.index, scorer))  # no build: the change that gives one
    if req.max_noise is not None:
        from rigbuilder.rules.optimise import noise_cost

        res.explanation.extend(noise_cost(req, res, cat.index, scorer))
    if args.output and res.best is not None:
        out = Path(args.output)
        lang = getattr(args, "lang", "en")
        from rigbuilder.domain.edits import ChangeSettings, Rename

        # The generated names stored in the output's language; the grown stage keeps the budget.
        today, grown = (Rename(render(b.name, lang), b.notes).applied_to(b, cat.index) for b in (res.best.today, res.best.grown))
        grown = ChangeSettings.of(budget=req.grown_budget).applied_to(grown, cat.index)
        save_build(today, str(out))
        if len(grown.gpus) != len(today.gpus) or grown.psus != today.psus:
            save_build(grown, str(grown_path(out)))
    if args.json:
        print_json(result_dict(res, cat.index))
    else:
        lang = getattr(args, "lang", "en")
        print_result(res, lang, cat.index)
        if args.compare is not None and len(res.candidates) >= 2:
            from rigbuilder.commands.compare import text_lines
            from rigbuilder.rules import compare as cmp_mod

            print()
            picked = [(render(c.label, lang), c.grown) for c in res.candidates[:args.compare]]
            for line in text_lines(cmp_mod.compare(picked, cat.index, None, years=req.years, currency=req.currency),
                                   lang):
                print(line)
        if args.output and res.best is not None:
            print(tr("Wrote {path} and {grown} (the grown stage)", lang, path=args.output,
                     grown=str(grown_path(Path(args.output))))
                  if len(res.best.grown.gpus) != len(res.best.today.gpus) else
                  tr("Wrote {path}", lang, path=args.output))
    return 0 if res.best is not None else 1


def grown_path(path: Path) -> Path:
    """Where the grown stage of ``path`` is written: ``best.rig`` -> ``best-grown.rig``."""
    return path.with_name(f"{path.stem}-grown{path.suffix or '.rig'}")

