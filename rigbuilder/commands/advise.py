"""``rigbuilder advise gpus | build``: which cards for a workload, and what a build does for it."""
from __future__ import annotations

import argparse
import math
import re

from rigbuilder.commands.common import UsageError, load_build, open_catalog, print_json, require_parts

CURRENCY_RE = re.compile(r"^[A-Z]{3}$")


def _workload_args(p) -> None:
    p.add_argument("--workload", required=True, metavar="W",
                   help="cnn-training, vit-training, bert-training, llm-inference, llm-full-finetune, lora, "
                        "qlora or diffusion-inference")
    p.add_argument("--params", metavar="P", help="model size for the LLM workloads: 70e9, 70B, 7B (default 7B)")
    p.add_argument("--precision", metavar="X", help="weights: fp32, fp16, bf16, int8, int4, nf4")
    p.add_argument("--context", metavar="T", help="sequence length in tokens")
    p.add_argument("--batch", metavar="B", help="micro-batch per card")
    p.add_argument("--json", action="store_true", help="JSON output (stable field names)")


def register(sub) -> None:
    a = sub.add_parser("advise", help="which GPUs for a workload; what a build does for it")
    asub = a.add_subparsers(dest="advise_what", metavar="{gpus,build}")
    g = asub.add_parser("gpus", help="rank the catalog's cards for a workload (fit, throughput, value)")
    _workload_args(g)
    g.add_argument("--gpus", metavar="N", help="exactly N cards (default: the fewest that hold the model, up to 8)")
    g.add_argument("--budget", metavar="X", help="most the cards may cost together, in --currency")
    g.add_argument("--currency", metavar="C", default="EUR", help="currency code (default EUR)")
    g.add_argument("--condition", choices=("new", "used"), default="new", help="prefer new or used prices")
    g.add_argument("--sort", choices=("throughput", "value"), default="throughput",
                   help="by total throughput (default) or throughput per money")
    g.add_argument("--limit", metavar="K", default="15", help="how many cards to list (default 15; 0: all)")
    g.set_defaults(func=cmd_gpus)
    b = asub.add_parser("build", help="estimated throughput, fit and scaling of a build file for a workload")
    b.add_argument("file")
    _workload_args(b)
    b.set_defaults(func=cmd_build)
    a.set_defaults(func=lambda args: _no_sub())


def _no_sub() -> int:
    raise UsageError("advise needs 'gpus' or 'build', e.g. rigbuilder advise gpus --workload qlora --params 70e9")


def _int(flag: str, text, lo: int, hi: int):
    if text is None:
        return None
    try:
        v = int(str(text))
    except ValueError:
        raise UsageError(f"{flag} {text}: expected a whole number") from None
    if not lo <= v <= hi:
        raise UsageError(f"{flag} {text}: must be between {lo} and {hi}")
    return v


def workload_of(args):
    """The workload the options name (``--workload``, ``--params``...), or a UsageError in one line.
    Shared with ``rigbuilder report --workload``."""
    return _workload(args)


def _workload(args):
    from rigbuilder.models.workloads import parse_params, workload

    from rigbuilder.models.workloads import WORKLOADS

    if args.workload not in WORKLOADS:
        raise UsageError(f"--workload {args.workload}: unknown; known: {', '.join(WORKLOADS)}")
    try:
        params = parse_params(args.params) if args.params is not None else None
        return workload(args.workload, params, precision=getattr(args, "precision", None),
                        context=_int("--context", getattr(args, "context", None), 1, 1_048_576),
                        batch=_int("--batch", getattr(args, "batch", None), 1, 65536))
    except ValueError as e:
        raise UsageError(f"--workload {args.workload}: {e}") from None


def workload_json(wl) -> dict:
    m = wl.model
    return {"id": wl.id, "label": wl.label, "kind": wl.kind, "unit": wl.unit, "precision": wl.precision,
            "context": wl.context, "batch": wl.batch, "optimizer": wl.optimizer or None,
            "checkpointing": wl.checkpointing,
            "model": {"name": m.name, "params": m.params, "layers": m.layers, "hidden": m.hidden, "heads": m.heads,
                      "kv_heads": m.kv_heads, "vocab": m.vocab, "source": m.source,
                      "derived_from": m.derived_from or None}}


def _fmt(v: float) -> str:
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def _basis(t) -> str:
    if t.measured:
        return "measured"
    if t.basis == "scaled":
        return "scaled"
    return f"est. ~{round(100 * t.typical_error)}%" if t.typical_error is not None else "est. (error unknown)"


def cmd_gpus(args: argparse.Namespace) -> int:
    from rigbuilder.domain.money import money
    from rigbuilder.models import adviser
    from rigbuilder.models import vram as V

    wl = _workload(args)
    n = _int("--gpus", args.gpus, 1, 64)
    limit = _int("--limit", args.limit, 0, 100000)
    cur = str(args.currency).upper()
    if not CURRENCY_RE.match(cur):
        raise UsageError(f"--currency {args.currency}: expected a three-letter code such as EUR or USD")
    budget = None
    if args.budget is not None:
        try:
            budget = float(args.budget)
        except ValueError:
            raise UsageError(f"--budget {args.budget}: expected an amount") from None
        if not (math.isfinite(budget) and budget > 0):
            raise UsageError(f"--budget {args.budget}: must be a positive amount")
    cat = open_catalog()
    if budget is not None and not cat.index.prices.rates.knows(cur):
        raise UsageError(f"--currency {cur}: the exchange rates do not know it; known: "
                         f"{', '.join(cat.index.prices.rates.currencies())}")
    recs = adviser.rank(cat.index, wl, n_gpus=n, budget=budget, currency=cur, condition=args.condition,
                        sort=args.sort, limit=limit)
    alone = V.need(wl)
    if args.json:
        print_json({"workload": workload_json(wl), "vram_need_one_gpu_gb": alone.to_dict(), "n_gpus": n,
                    "budget": budget, "currency": cur, "condition": args.condition, "sort": args.sort,
                    "catalog_version": cat.version,
                    "recommendations": [r.to_dict(cur) for r in recs]})
        return 0
    print(f"{wl.label}; model {wl.model.label}")
    print(f"Memory on one card: {alone.total:.1f} GB (" + ", ".join(
        f"{k.replace('_', ' ')} {v:.1f}" for k, v in alone.parts().items() if v >= 0.05) + ")")
    if not recs:
        print("No card in the catalog holds it" + (f" as {n} cards" if n else " with up to 8 cards")
              + (f" within {money(budget, cur)}" if budget else "") + ".")
        return 0
    print(f"{'#':>2} {'card':48} {'cards':>5} {'GB/card':>7} {'total ' + wl.unit:>16} {'basis':>13} "
          f"{'price':>12} {'per 1000 ' + cur:>14}")
    for i, r in enumerate(recs, 1):
        price = money(r.price_total, cur) if r.price_total is not None else "no price"
        pm = _fmt(r.per_money * 1000) if r.per_money else "-"
        print(f"{i:>2} {r.gpu.name[:48]:48} {r.n_gpus:>5} {r.need_gb:7.1f} {_fmt(r.total):>16} "
              f"{_basis(r.throughput):>13} {price:>12} {pm:>14}")
        notes = []
        if r.n_gpus > 1:
            notes.append(f"{r.strategy}, scaling {r.efficiency:.0%} on good links")
        if r.caveat:
            notes.append(f"layout {r.caveat}")
        if r.gpu.vendor != "NVIDIA" and not r.throughput.measured:
            notes.append("fitted on NVIDIA cards: ROCm/oneAPI software speed not modelled")
        if notes:
            print(f"{'':3}{'; '.join(notes)}")
    print("measured: a published benchmark (see --json for the source); est. ~N%: estimated from tensor TFLOPS "
          "and bandwidth, typical leave-one-out error N%; scaled: a measurement turned into this workload.")
    return 0


def build_basis_text(bt) -> str:
    if bt.basis == "measured":
        return "(measured per-card figures x the scaling)"
    if bt.basis == "scaled":
        return "(per-card figures scaled from measurements; that scaling is not validated)"
    if bt.typical_error is not None:
        return f"(estimated, typical error {round(100 * bt.typical_error)}%)"
    return "(estimated, error unknown)"


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
        print_json(d)
        return 0
    print(f"{b.name}: {wl.label}; model {wl.model.label}")
    if bt.n_gpus == 0:
        print("The build has no GPU.")
        return 0
    need = bt.need
    if not bt.fits:
        print(f"Does not fit: {need.total:.1f} GB per card needed even split over {bt.n_gpus} card(s).")
    else:
        how = "one card holds it" if bt.strategy == "replicated" else f"split over {bt.n_gpus} cards ({bt.strategy})"
        print(f"Fits: {need.total:.1f} GB per card, {how}.")
        print(f"Estimated throughput: {_fmt(bt.value)} {bt.unit} " + build_basis_text(bt))
    if bt.n_gpus > 1:
        print(f"Scaling efficiency: {bt.efficiency:.0%}")
    for r in bt.reasons:
        print(f"  {r}")
    same = len({c.throughput.describe() for c in bt.cards}) == 1
    for c in bt.cards:
        link = f"x{c.link.width} Gen{c.link.gen} {c.link.source}{' riser' if c.link.riser else ''}" if c.link else "no link known"
        lim = f", limited to {c.power_fraction:.0%}" if c.power_fraction < 1 else ""
        print(f"  GPU {c.num}: {c.name}: {_fmt(c.rate)} {bt.unit}{lim}; {link}"
              + ("" if same else f"; {c.throughput.describe()}"))
    if same:
        print(f"Per card: {bt.cards[0].throughput.describe()}")
    for n in bt.notes:
        print(f"Note: {n}")
    if money_d["cost_per_million"] is not None:
        at_least = "at least " if money_d["purchase_incomplete"] else ""
        print(f"Cost of work over {money_d['years']:g} years (the whole purchase and the machine's energy at the wall, "
              f"{b.settings.load_hours_per_day:g} h a day under load): {at_least}"
              f"{money_d['cost_per_million']:,.2f} {money_d['currency']} per million {bt.unit.split('/')[0]}")
    return 0


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
