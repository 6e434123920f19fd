"""``rigbuilder advise gpus | build``: which cards for a workload, and what a build does for it."""
from __future__ import annotations

import argparse
import math

from rigbuilder.domain import fields as F
from rigbuilder.domain.money import currency_code, currency_problem
from rigbuilder.commands.common import UsageError, add_json_flag, load_build, open_catalog, print_json, require_parts
from rigbuilder.domain.i18n import Money, N_, T, format_number, format_value, ntr, render, tr
from rigbuilder.models.vram import strategy_text
from rigbuilder.domain.build import shown_name
from rigbuilder.domain import fields as F



# Texts used inside f-strings (which the extractor does not read): marked here.
_IN_F_STRINGS = (N_("price"), N_("card"), N_('cards'), N_('GB/card'), N_('total {unit}'), N_('basis'), N_('per 1000 {currency}'))


def _workload_args(p) -> None:
    p.add_argument("--workload", required=True, metavar="W",
                   help=N_("cnn-training, vit-training, bert-training, llm-inference, llm-full-finetune, lora, "
                        "qlora or diffusion-inference"))
    p.add_argument("--params", metavar="P", help=N_("model size for the LLM workloads: 70e9, 70B, 7B (default 7B)"))
    p.add_argument("--model", metavar="M", help=N_("a published model by name instead of --params, e.g. \"Qwen2.5 72B\""))
    p.add_argument("--precision", metavar="X",
                   help=N_("weights: fp32, fp16, bf16, fp8, int8, q8_0, q6_k, q5_k_m, q4_k_m, q4_0, q3_k_m, q2_k, "
                           "gptq-4bit-g128, awq-4bit-g128, nf4, exl2-2.5 to exl2-8.0"))
    p.add_argument("--engine", metavar="E", help=N_("inference engine: llama.cpp (default; split by layers), exllamav2 "
                                                     "(split by layers) or vllm (tensor parallel)"))
    p.add_argument("--offload", metavar="L", help=N_("inference: layers kept in host memory (llama.cpp)"))
    p.add_argument("--tool", metavar="F", help=N_("LLM fine-tuning tool: unsloth (default for lora and qlora) or peft "
                                                   "(Hugging Face PEFT; default for full fine-tuning)"))
    p.add_argument("--context", metavar="T", help=N_("sequence length in tokens"))
    p.add_argument("--batch", metavar="B", help=N_("micro-batch per card"))
    add_json_flag(p)


def register(sub) -> None:
    a = sub.add_parser("advise", help=N_("which GPUs for a workload; what a build does for it"))
    asub = a.add_subparsers(dest="advise_what", metavar="{gpus,build}")
    g = asub.add_parser("gpus", help=N_("rank the catalog's cards for a workload (fit, throughput, value)"))
    _workload_args(g)
    g.add_argument("--gpus", metavar="N", help=N_("exactly N cards (default: the fewest that hold the model, up to 8)"))
    g.add_argument("--budget", metavar="X", help=N_("most the cards may cost together, in --currency"))
    g.add_argument("--currency", metavar="C", default="EUR", help=N_("currency code (default EUR)"))
    g.add_argument("--condition", choices=("new", "used"), default="new", help=N_("prefer new or used prices"))
    g.add_argument("--region", choices=sorted(F.REGION.choices), default=F.REGION.default,
                   help=N_("where the cards are bought: its VAT or consumption tax is added (default %(default)s)"))
    g.add_argument("--sort", choices=("throughput", "value"), default="throughput",
                   help=N_("by total throughput (default) or throughput per money"))
    g.add_argument("--limit", metavar="K", default="15", help=N_("how many cards to list (default 15; 0: all)"))
    g.add_argument("--software", metavar="S", default="cuda",
                   help=N_("software stacks whose cards count, comma-separated: cuda (default), rocm, oneapi"))
    g.add_argument("--each-card", action="store_true",
                   help=N_("list every partner card; by default cards of one chip with the same figures share a row"))
    g.set_defaults(func=cmd_gpus)
    b = asub.add_parser("build", help=N_("estimated throughput, fit and scaling of a build file for a workload"))
    b.add_argument("file")
    _workload_args(b)
    b.set_defaults(func=cmd_build)
    a.set_defaults(func=lambda args: _no_sub())


def _no_sub() -> int:
    raise UsageError(T("advise needs 'gpus' or 'build', e.g. rigbuilder advise gpus --workload qlora --params 70e9"))


def _int(flag: str, text, lo: int, hi: int):
    if text is None:
        return None
    try:
        v = int(str(text))
    except ValueError:
        raise UsageError(T("{flag} {value}: expected a whole number", flag=flag, value=str(text))) from None
    if not lo <= v <= hi:
        raise UsageError(T("{flag} {value}: must be between {lo} and {hi}", flag=flag, value=str(text), lo=lo, hi=hi))
    return v


def workload_of(args):
    """The workload the options name (``--workload``, ``--params``...), or a UsageError in one line.
    Shared with ``rigbuilder report --workload``."""
    return _workload(args)


def _workload(args):
    from rigbuilder.models.workloads import parse_params, workload

    from rigbuilder.models.workloads import WORKLOADS

    if args.workload not in WORKLOADS:
        raise UsageError(T("--workload {value}: unknown; known: {known}", value=args.workload, known=", ".join(WORKLOADS)))
    try:
        params = parse_params(args.params) if args.params is not None else None
        model = getattr(args, "model", None)
        if model is not None and params is not None:
            raise UsageError(T("--model and --params: give one of them"))
        return workload(args.workload, params, precision=getattr(args, "precision", None),
                        context=_int("--context", getattr(args, "context", None), 1, 1_048_576),
                        batch=_int("--batch", getattr(args, "batch", None), 1, 65536), model=model,
                        engine=getattr(args, "engine", None),
                        offload_layers=_int("--offload", getattr(args, "offload", None), 0, 1000),
                        tool=getattr(args, "tool", None))
    except ValueError as e:
        raise UsageError(T("--workload {value}: {error}", value=args.workload, error=e.args[0] if e.args else str(e))) from None


def _print_band(wl, lang: str) -> None:
    from rigbuilder.models.vram import memory_band_text

    text = memory_band_text(wl)
    if text is not None:
        print(render(T("Memory band: {band}.", band=text), lang))


def _mem(total: float, wl, lang: str) -> str:
    """'16.2 GB ±6%' (the memory band, ``vram.memory_band``), or '16.2 GB' where none is measured."""
    from rigbuilder.models.vram import memory_band

    band = memory_band(wl)
    if band is None:
        return tr("{gb} GB", lang, gb=format_value(total, ".1f", lang))
    return tr("{gb} GB \u00b1{band:.0%}", lang, gb=format_value(total, ".1f", lang), band=band)


def workload_json(wl) -> dict:
    m = wl.model
    fmt = wl.fmt
    return {"id": wl.id, "label": render(wl.label, "en"), "kind": wl.kind, "unit": wl.unit, "precision": wl.precision,
            "bits_per_weight": round(fmt.bits, 4), "bits_source": fmt.source, "compute": fmt.compute,
            "engine": wl.engine if wl.kind_of.engines else None, "offload_layers": wl.offload_layers,
            "tool": wl.tool if wl.kind_of.tool else None,
            "context": wl.context, "batch": wl.batch, "optimizer": wl.optimizer or None,
            "checkpointing": wl.checkpointing,
            "model": {"name": m.name, "params": m.params, "layers": m.layers, "hidden": m.hidden, "heads": m.heads,
                      "kv_heads": m.kv_heads, "head_dim": m.head_dim, "vocab": m.vocab, "source": m.source,
                      "active_params": m.active_params or None,
                      "derived_from": m.derived_from or None}}


def _fmt(v: float, lang: str = "en") -> str:
    digits = 0 if v >= 100 else 1 if v >= 10 else 2
    if lang != "en":
        return format_number(v, digits, lang)
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def _basis(t, lang: str = "en") -> str:
    if t.measured:
        return tr("measured", lang)
    if t.basis == "scaled":
        return tr("scaled", lang)
    return (tr("est. \u00b1{error:.0%}", lang, error=round(100 * t.typical_error) / 100) if t.typical_error is not None
            else tr("est. (error unknown)", lang))


def total_banded(r, wl):
    """A recommendation's total throughput with its band (``models.estimates``): one card's band, joined with
    the scaling fit's held-out band for several training cards."""
    import math as _m

    from rigbuilder.models import estimates as E
    from rigbuilder.models.scaling import link_fit

    one = E.of_throughput(r.throughput)
    if r.n_gpus > 1 and wl.training:
        band = None if one.band is None else _m.hypot(one.band, link_fit().band)
        return E.Banded("throughput", r.total, wl.unit, band, "unknown" if band is None else "held-out")
    return E.Banded("throughput", r.total, wl.unit, one.band, one.how)


def _total_basis(r, wl, lang: str = "en") -> str:
    b = total_banded(r, wl)
    if b.how == "measured":
        return tr("measured", lang)
    if r.throughput.basis == "scaled" and b.band is None:
        return tr("scaled", lang)
    if b.band is None:
        return tr("est. (error unknown)", lang)
    return tr("est. \u00b1{error:.0%}", lang, error=round(100 * b.band) / 100)


def figure_with_band(value: float, unit: str, t, lang: str = "en") -> str:
    """'31 tokens/s, typically within 12%' (or 'measured', 'error unknown')."""
    v = _fmt(value, lang)
    if t.measured:
        return tr("{value} {unit}, measured", lang, value=v, unit=unit)
    if t.typical_error is None:
        return tr("{value} {unit}, error unknown", lang, value=v, unit=unit)
    if getattr(t, "held_out_band", False):
        return tr("{value} {unit} \u00b1{error:.0%} (80% of published cases held out of the fit lie within it)", lang,
                  value=v, unit=unit, error=round(100 * t.typical_error) / 100)
    return tr("{value} {unit}, typically within {error:.0%}", lang, value=v, unit=unit,
              error=round(100 * t.typical_error) / 100)


def cmd_gpus(args: argparse.Namespace) -> int:
    from rigbuilder.models import adviser
    from rigbuilder.models import vram as V

    wl = _workload(args)
    n = _int("--gpus", args.gpus, 1, 64)
    limit = _int("--limit", args.limit, 0, 100000)
    problem = currency_problem(str(args.currency))
    if problem is not None:
        raise UsageError(T("{flag} {value}: {error}", flag="--currency", value=args.currency, error=problem))
    cur = currency_code(str(args.currency))
    budget = None
    if args.budget is not None:
        try:
            budget = float(args.budget)
        except ValueError:
            raise UsageError(T("--budget {value}: expected an amount", value=args.budget)) from None
        if not (math.isfinite(budget) and budget > 0):
            raise UsageError(T("--budget {value}: must be a positive amount", value=args.budget))
    cat = open_catalog()
    if budget is not None and not cat.index.prices.rates.knows(cur):
        raise UsageError(T("--currency {value}: the exchange rates do not know it; known: {known}", value=cur,
                           known=", ".join(cat.index.prices.rates.currencies())))
    software = [x.strip() for x in str(args.software).split(",") if x.strip()]
    try:
        adviser.software_vendors(software)
    except ValueError as e:
        raise UsageError(T("--software {value}: {error}", value=args.software, error=e.args[0])) from None
    recs = adviser.rank(cat.index, wl, n_gpus=n, budget=budget, currency=cur, condition=args.condition,
                        sort=args.sort, limit=limit, software=software, fold_partners=not args.each_card,
                        region=args.region)
    alone = V.need(wl)
    from rigbuilder.domain.money import STALE_MONTHS, price_ages
    from rigbuilder.models.prices import price_part

    priced = {r.gpu.id: pp for r in recs
              if (pp := price_part(r.gpu.id, cur, cat.index, condition=args.condition, region=args.region)) is not None}
    if args.json:
        rows = []
        for r in recs:
            d, pp = r.to_dict(cur), priced.get(r.gpu.id)
            d["observed"] = (pp.observed or None) if pp else None
            d["stale"] = pp.stale() if pp else None
            d["price_origin"] = pp.observation.origin if pp else None  # "estimate": not observed
            d["estimates"] = recommendation_estimates(r, wl)
            rows.append(d)
        from rigbuilder.models import estimates as E

        print_json({"workload": workload_json(wl), "vram_need_one_gpu_gb": alone.to_dict(),
                    "memory_one_gpu": E.of_memory(alone).to_dict(), "n_gpus": n,
                    "budget": budget, "currency": cur, "condition": args.condition, "sort": args.sort,
                    "software": software, "catalog_version": cat.version, "recommendations": rows})
        return 0
    lang = getattr(args, "lang", "en")
    stale = [pp for pp in priced.values() if pp.stale()]
    if stale:  # an answer resting on stale prices says so first
        print(render(T("Stale prices: {n} of the {total} card prices below were seen more than {months} months ago; "
                       "check today's prices before you buy.", n=len(stale), total=len(priced), months=STALE_MONTHS),
                     lang))
    if priced:
        ages = price_ages([pp.observation for pp in priced.values()])
        print(render(T("Price age: {ages}.", ages=T.join(*[x for i, a in enumerate(ages)
                                                         for x in (("; ", a) if i else (a,))])), lang))
    M = lambda v: format_value(Money(v, cur), "", lang)  # noqa: E731
    print(tr("{workload}; model {model}", lang, workload=wl.label, model=wl.model.label))
    print(tr("Precision: {precision} ({bits:.3g} bits per weight; {source}); KV cache 16-bit; context {context} "
             "tokens", lang, precision=wl.precision, bits=wl.fmt.bits, source=wl.fmt.source, context=wl.context)
          if wl.kind == "llm-inference" else
          tr("Precision: {precision} ({bits:.3g} bits per weight)", lang, precision=wl.precision, bits=wl.fmt.bits))
    print(tr("Memory on one card: {total} ({parts})", lang, total=_mem(alone.total, wl, lang), parts=", ".join(
        f"{render(VRAM_PARTS.get(k, k.replace('_', ' ')), lang)} {format_value(v, '.1f', lang)}"
        for k, v in alone.parts().items() if v >= 0.05)))
    _print_band(wl, lang)
    if not recs:
        if n:
            text = (T("No card in the catalog holds it as {n} cards within {budget}.", n=n, budget=Money(budget, cur))
                    if budget else T("No card in the catalog holds it as {n} cards.", n=n))
        else:
            text = (T("No card in the catalog holds it with up to 8 cards within {budget}.", budget=Money(budget, cur))
                    if budget else T("No card in the catalog holds it with up to 8 cards."))
        print(render(text, lang))
        return 0
    P = _pad
    top = recs[0]
    print(tr("Fastest: {name} x{n}: {figure}", lang, name=top.gpu.name, n=top.n_gpus,
             figure=figure_with_band(top.total, wl.unit, top.throughput, lang) if top.n_gpus == 1 or not wl.training
             else render(total_banded(top, wl).text(), lang)))
    print(f"{'#':>2} {P(tr('card', lang), 48)} {P(tr('cards', lang), 5, True)} {P(tr('GB/card', lang), 7, True)} "
          f"{P(tr('total {unit}', lang, unit=wl.unit), 16, True)} {P(tr('basis', lang), 13, True)} "
          f"{P(tr('price', lang), 12, True)} {P(tr('per 1000 {currency}', lang, currency=cur), 14, True)}")
    for i, r in enumerate(recs, 1):
        price = M(r.price_total) if r.price_total is not None else tr("no price", lang)
        pm = _fmt(r.per_money * 1000, lang) if r.per_money else "-"
        print(f"{i:>2} {r.gpu.name[:48]:48} {r.n_gpus:>5} {format_value(r.need_gb, '7.1f', lang):>7} "
              f"{_fmt(r.total, lang):>16} "
              f"{P(_total_basis(r, wl, lang), 13, True)} {P(price, 12, True)} {pm:>14}")
        notes = []
        if r.n_gpus > 1 and wl.kind == "llm-inference" and r.strategy == "replicated":
            notes.append(tr("one card holds it: one stream per card", lang))
        elif r.n_gpus > 1 and wl.kind == "llm-inference" and r.strategy == "tensor":
            notes.append(tr("split over {n} cards (tensor parallel): every card reads its share of each layer at once",
                            lang, n=r.n_gpus))
        elif r.n_gpus > 1 and wl.kind == "llm-inference":
            notes.append(tr("split over {n} cards ({strategy}): one stream passes through them in turn", lang,
                            n=r.n_gpus, strategy=strategy_text(r.strategy)))
        elif r.n_gpus > 1:
            notes.append(tr("{strategy}, scaling {efficiency:.0%} \u00b1{band:.0%} on x16 links of the card's generation",
                            lang, strategy=strategy_text(r.strategy), efficiency=r.efficiency,
                            band=_scaling_band()))
        if r.partners:
            notes.append(ntr("and {n} more card of this chip with the same figures",
                             "and {n} more cards of this chip with the same figures", r.partners, lang))
        if (pp := priced.get(r.gpu.id)) is not None and pp.observation.origin == "estimate":
            notes.append(tr("price: a used price estimated from the used-market series, not observed", lang))
        if r.caveat:
            notes.append(tr("layout {caveat}", lang, caveat=r.caveat))
        if r.throughput.software != "modelled":
            notes.append(tr("ROCm/oneAPI software speed not modelled: listed after every modelled card", lang))
        if notes:
            print(f"{'':3}{'; '.join(notes)}")
    print(tr("measured: a published benchmark (see --json for the source); est. \u00b1N%: estimated, with its band "
             "(LLM token rates: 80% of published cases held out of the fit lie within it; training: the mean "
             "leave-one-out error over the published measurements, bias corrected, joined with the scaling fit's "
             "held-out band for several cards); scaled: a measurement turned into this workload.", lang))
    return 0


def _scaling_band() -> float:
    from rigbuilder.models.scaling import link_fit

    return link_fit().band


def recommendation_estimates(r, wl) -> dict:
    """Every estimate of one recommendation with its band (``models.estimates``), for --json."""
    from rigbuilder.models import estimates as E

    d = {"throughput_per_card": E.of_throughput(r.throughput).to_dict(),
         "throughput_total": total_banded(r, wl).to_dict(),
         "memory_per_card": E.of_memory_total(r.need_gb, wl).to_dict()}
    if r.n_gpus > 1 and wl.training:
        d["scaling"] = E.of_scaling(r.efficiency).to_dict()
    return d


VRAM_PARTS = {"weights": T("weights"), "gradients": T("gradients"), "optimizer": T("optimizer"),
              "activations": T("activations"), "kv_cache": T("KV cache"), "overhead": T("overhead")}


def _pad(text: str, width: int, right: bool = False) -> str:
    from rigbuilder.commands.power import _pad as pad

    return pad(text, width, right)


def build_basis_text(bt, lang: str = "en") -> str:
    if bt.basis == "measured":
        return tr("(measured per-card figures x the scaling)", lang)
    if bt.typical_error is not None and bt.n_gpus > 1 and bt.workload.training:
        return tr("(typically within {error:.0%}: the cards' band and the scaling fit's)", lang,
                  error=round(100 * bt.typical_error) / 100)
    if bt.typical_error is not None:
        return tr("(estimated, typically within {error:.0%})", lang, error=round(100 * bt.typical_error) / 100)
    if bt.basis == "scaled":
        return tr("(per-card figures scaled from measurements; that scaling is not validated)", lang)
    return tr("(estimated, error unknown)", lang)


def cmd_build(args: argparse.Namespace) -> int:
    from rigbuilder.models import scaling

    wl = _workload(args)
    cat = open_catalog()
    b = load_build(args.file)
    require_parts(b, cat.index, args.file)
    bt = scaling.build_throughput(b, cat.index, wl)
    money_d = build_money(b, cat.index, bt)
    if args.json:
        d = bt.to_dict()
        d["workload"] = workload_json(wl)
        d["build"] = b.name
        d["value"] = round(bt.value, 3)
        d["money"] = money_d
        d["estimates"] = build_estimates(bt)
        print_json(d)
        return 0
    lang = getattr(args, "lang", "en")
    print(tr("{name}: {workload}; model {model}", lang, name=shown_name(b.name, lang), workload=wl.label, model=wl.model.label))
    if bt.n_gpus == 0:
        print(tr("The build has no GPU.", lang))
        return 0
    need = bt.need
    mem = _mem(need.total, wl, lang)
    if not bt.fits:
        print(ntr("Does not fit: {need} needed on {n} card.",
                  "Does not fit: {need} per card needed even split over {n} cards.", bt.n_gpus, lang, need=mem))
    else:
        print(tr("Fits: {need} per card, one card holds it.", lang, need=mem)
              if bt.strategy == "replicated" else
              tr("Fits: {need} per card, split over {n} cards ({strategy}).", lang, need=mem,
                 n=bt.n_gpus, strategy=strategy_text(bt.strategy)))
        print(tr("Estimated throughput: {value} {unit} {basis}", lang, value=_fmt(bt.value, lang), unit=bt.unit,
                 basis=build_basis_text(bt, lang)))
    _print_band(wl, lang)
    if bt.n_gpus > 1 and wl.training:
        print(tr("Scaling efficiency: {efficiency:.0%} \u00b1{band:.0%} (80% of published cases held out of the fit "
                 "lie within it)", lang, efficiency=bt.efficiency, band=_scaling_band()))
    elif bt.n_gpus > 1:
        print(tr("Scaling efficiency: {efficiency:.0%}", lang, efficiency=bt.efficiency))
    for r in bt.reasons:
        print(f"  {render(r, lang)}")
    same = len({c.throughput.describe() for c in bt.cards}) == 1
    for c in bt.cards:
        link = (tr("x{width} Gen{gen} {source} riser", lang, width=c.link.width, gen=c.link.gen, source=c.link.source)
                if c.link and c.link.riser else
                tr("x{width} Gen{gen} {source}", lang, width=c.link.width, gen=c.link.gen, source=c.link.source)
                if c.link else tr("no link known", lang))
        lim = tr(", limited to {fraction:.0%}", lang, fraction=c.power_fraction) if c.power_fraction < 1 else ""
        print(f"  GPU {c.num}: {c.name}: {_fmt(c.rate, lang)} {bt.unit}{lim}; {link}"
              + ("" if same else f"; {render(c.throughput.describe(), lang)}"))
    if same:
        print(tr("Per card: {basis}", lang, basis=bt.cards[0].throughput.describe()))
    for n in bt.notes:
        print(tr("Note: {note}", lang, note=n))
    if money_d["cost_per_million"] is not None:
        figs = dict(years=money_d["years"], load=F.load_words(b.settings.load_hours_per_day),
                    cost=Money(money_d["cost_per_million"], money_d["currency"]), unit=bt.unit.split("/")[0])
        print(tr("Cost of work over {years:g} years (the whole purchase and the machine's energy at the wall, "
                 "{load}): at least {cost} per million {unit}", lang, **figs)
              if money_d["purchase_incomplete"] else
              tr("Cost of work over {years:g} years (the whole purchase and the machine's energy at the wall, "
                 "{load}): {cost} per million {unit}", lang, **figs))
    return 0


def build_estimates(bt) -> dict:
    """A build's estimates with their bands (``models.estimates``), for --json."""
    from rigbuilder.models import estimates as E

    return E.of_build_all(bt)


def build_money(b, index, bt, years: float = 3.0) -> dict:
    """Purchase, energy and cost per million units of work for the whole build (``models.cost`` and
    ``models.value``)."""
    from rigbuilder.models import cost as cost_model
    from rigbuilder.models.value import cost_per_million
    from rigbuilder.rules.context import Context

    ctx = Context(b, index)
    buy = cost_model.purchase(b, index)
    run = cost_model.running_cost(ctx.power, b.settings)
    cpm = None
    if bt.fits and bt.value > 0 and not bt.unit.startswith("x "):
        cpm = cost_per_million(buy.total, run.cost_per_year, bt.value, b.settings.load_hours_per_day, years)
    return {"currency": buy.currency, "purchase_total": round(buy.total, 2), "purchase_incomplete": not buy.complete,
            "unpriced_parts": list(buy.missing), "energy_per_year": round(run.cost_per_year, 2), "years": years,
            "per_money": round(bt.value / buy.total, 6) if buy.total > 0 and bt.fits else None,
            "cost_per_million": None if cpm is None else round(cpm, 4)}
