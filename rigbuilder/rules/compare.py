"""Builds side by side: two to four builds judged on the same workloads, the same usage and the same
currency, with the figures a buyer weighs ("one RTX 4090 or two used RTX 3090s?"; Dettmers, "Which GPU(s) to Get for Deep Learning", 2023).

Every figure comes from the model every other door uses: throughput and its band
(``models.scaling.build_throughput``), what fits (``models.vram`` through the same call), power at
the wall (``models.power``), purchase and energy (``models.cost``), buy or rent
(``models.renting``) and the checks (``rules.engine``). The usage settings (region, price per kWh,
hours a day) of the first build are applied to every build so that the energy figures compare;
the comparison says so.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence

from rigbuilder.domain.fields import usage_words
from rigbuilder.domain.build import Build, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T, interleave, nT
from rigbuilder.domain.parts import GPU
from rigbuilder.models import cost as cost_model
from rigbuilder.models import estimates as E
from rigbuilder.models import renting
from rigbuilder.models.scaling import BuildThroughput, build_throughput
from rigbuilder.models.workloads import Workload, workload
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import counts, run_checks

MAX_BUILDS = 4

DEFAULT_WORKLOADS: tuple[tuple[str, Optional[float], Optional[str]], ...] = (
    ("cnn-training", None, None),
    ("qlora", 13e9, None),
    ("llm-inference", None, "fp16"),  # the preset: Llama 2 7B
    ("llm-inference", 70e9, "q4_k_m"),
)
"""What a comparison is judged on unless asked otherwise: (workload id, model size, precision)."""


def parse_workload(text: str) -> Workload:
    """'qlora', 'qlora:13B' or 'llm-inference:70B:int4' -> a Workload; ValueError says what is wrong."""
    from rigbuilder.models.workloads import parse_params

    bits = [b.strip() for b in text.split(":")]
    if not bits[0] or len(bits) > 3:
        raise ValueError(T("{text}: expected WORKLOAD[:SIZE[:PRECISION]], e.g. llm-inference:70B:int4", text=text))
    params = parse_params(bits[1]) if len(bits) > 1 and bits[1] else None
    precision = bits[2] if len(bits) > 2 and bits[2] else None
    return workload(bits[0], params, precision=precision)


def default_workloads() -> list[Workload]:
    return [workload(w, p, precision=pr) for w, p, pr in DEFAULT_WORKLOADS]


def workload_label(wl: Workload) -> str:
    """'LLM inference, 70B, int4' - what was asked, in the comparison's own words."""
    from rigbuilder.models.workloads import LLM_WORKLOADS

    if wl.id in LLM_WORKLOADS:
        return T("{workload}, {model}, {precision}", workload=_SHORT.get(wl.id, wl.id),
                 model=wl.model.name, precision=wl.precision)
    return T(_SHORT.get(wl.id, wl.id))


_SHORT = {"cnn-training": T("CNN training"), "vit-training": T("ViT training"), "bert-training": T("BERT fine-tuning"),
          "llm-inference": T("LLM inference"), "llm-full-finetune": T("full fine-tuning"), "lora": T("LoRA"),
          "qlora": T("QLoRA"), "diffusion-inference": T("diffusion inference")}


@dataclass(frozen=True)
class Column:
    """One build's figures in the comparison."""

    label: str
    build: Build
    gpus: tuple[tuple[str, int], ...]  # (card name, how many)
    n_gpus: int
    vram_per_card_gb: tuple[float, ...]
    vram_total_gb: float
    throughput: tuple[BuildThroughput, ...]  # one per workload, in the comparison's order
    wall_training_w: float
    wall_peak_w: float
    circuit_w: float
    purchase: cost_model.Purchase
    running: cost_model.RunningCost
    years: float
    tco: float
    blowers: int
    open_air: int
    open_air_gaps: int  # thermal.open-air-gap findings
    findings: dict[str, int]
    codes: tuple[str, ...]  # error and warning codes, each once
    rent: Optional[renting.BreakEven]
    rent_missing: str = ""  # why no buy-or-rent figure ("" when there is one)
    noise: Optional[object] = None  # models.noise.NoiseReport: the build's level at 1 m


@dataclass(frozen=True)
class Comparison:
    columns: tuple[Column, ...]
    workloads: tuple[Workload, ...]
    currency: str
    settings: Settings  # the usage every column was judged at
    years: float
    notes: tuple[str, ...]

    def best(self, i: int) -> Optional[int]:
        """Index of the column with the most throughput on workload ``i`` (None: none fits)."""
        vals = [(c.throughput[i].value, k) for k, c in enumerate(self.columns) if c.throughput[i].fits]
        return max(vals)[1] if vals and max(vals)[0] > 0 else None


def column(label: str, build: Build, index: PartIndex, workloads: Sequence[Workload], settings: Settings,
           currency: str, years: float, *, cloud: Optional[renting.CloudPrice] = None,
           shipped_cloud: Sequence[renting.CloudPrice] = ()) -> Column:
    b = build.clone()
    # the usage is the comparison's; the budget, the prices wanted and the rent price are the build's own
    b.settings = replace(settings, currency=currency, budget=build.settings.budget, condition=build.settings.condition,
                         rent_per_gpu_hour=None)
    ctx = Context(b, index)
    findings = run_checks(b, index, context=ctx)
    rep = ctx.power
    run = cost_model.running_cost(rep, b.settings)
    buy = cost_model.purchase(b, index, currency)
    cards = [g for pl in b.gpus if isinstance(g := index.get(pl.part_id), GPU)]
    names: dict[str, int] = {}
    for g in cards:
        names[g.name] = names.get(g.name, 0) + 1
    tps = tuple(build_throughput(b, index, wl) for wl in workloads)
    rent, why = renting.for_usage(cards, buy.total, run, typed=cloud or renting.typed_price(build.settings),
                                  shipped=shipped_cloud, rates=index.prices.rates)
    codes = tuple(dict.fromkeys(f.code for f in findings if f.severity.value in ("error", "warning")))
    return Column(label, b, tuple(names.items()), len(cards), tuple(float(g.vram_gb) for g in cards),
                  float(sum(g.vram_gb for g in cards)), tps, run.wall_training_w, rep.wall["peak"],
                  b.settings.circuit_w(), buy, run, years, cost_model.tco(buy.total, run, years),
                  sum(1 for g in cards if g.cooler == "blower"), sum(1 for g in cards if g.cooler == "open-air"),
                  sum(1 for f in findings if f.code == "thermal.open-air-gap"), counts(findings), codes, rent,
                  "" if rent is not None else why, ctx.noise)


def compare(builds: Sequence[tuple[str, Build]], index: PartIndex, workloads: Optional[Sequence[Workload]] = None, *,
            years: float = 3.0, currency: Optional[str] = None, settings: Optional[Settings] = None,
            cloud: Optional[renting.CloudPrice] = None,
            shipped_cloud: Optional[Sequence[renting.CloudPrice]] = None) -> Comparison:
    """Compare two to four ``(label, build)`` pairs. ValueError if there are fewer or more."""
    if not 2 <= len(builds) <= MAX_BUILDS:
        raise ValueError(T("compare takes 2 to {most} builds, not {n}", most=MAX_BUILDS, n=len(builds)))
    wls = tuple(workloads) if workloads else tuple(default_workloads())
    s = settings or builds[0][1].settings
    cur = currency or s.currency
    if shipped_cloud is None:
        try:
            shipped_cloud = renting.load_cloud_prices()
        except ValueError:
            shipped_cloud = []
    cols = tuple(column(label, b, index, wls, s, cur, years, cloud=cloud, shipped_cloud=shipped_cloud)
                 for label, b in builds)
    notes = [T("every build judged at the same usage: {region}, {price:g} {cur}/kWh, {usage}",
               region=T(s.region_info().label), price=s.price_per_kwh, cur=cur,
               usage=usage_words(s.load_hours_per_day, s.idle_hours_per_day))]
    if any(c.rent is not None and c.rent.price is not None and c.rent.price.stale() for c in cols):
        notes.append(T("the rental prices are published examples older than six months (stale): type today's "
                       "price per GPU-hour to be sure"))
    return Comparison(cols, wls, cur, s, years, tuple(notes))


def to_dict(cmp: Comparison) -> dict:
    """The comparison as JSON (field names are stable; documented in docs/cli-json.md)."""
    from rigbuilder.domain.i18n import render

    def col(c: Column) -> dict:
        return {
            "label": c.label, "name": c.build.name,
            "gpus": [{"name": n, "count": k} for n, k in c.gpus], "n_gpus": c.n_gpus,
            "vram_per_card_gb": list(c.vram_per_card_gb), "vram_total_gb": c.vram_total_gb,
            "throughput": [dict(t.to_dict(), label=render(workload_label(t.workload), "en"),
                                precision=t.workload.precision, band=E.of_build(t).to_dict()["band"],
                                estimates=E.of_build_all(t)) for t in c.throughput],
            "wall_training_w": round(c.wall_training_w, 1), "wall_peak_w": round(c.wall_peak_w, 1),
            "circuit_w": c.circuit_w,
            "purchase": {"total": round(c.purchase.total, 2), "currency": c.purchase.currency,
                         "complete": c.purchase.complete, "missing": c.purchase.missing_names(),
                         "price_kinds": render(price_kinds(c.purchase), "en")},
            "energy_per_year": round(c.running.cost_per_year, 2), "kwh_per_year": round(c.running.kwh_per_year, 1),
            "years": c.years, "tco": round(c.tco, 2),
            "blowers": c.blowers, "open_air": c.open_air, "open_air_gaps": c.open_air_gaps,
            "findings": c.findings, "codes": list(c.codes),
            "rent": None if c.rent is None else c.rent.to_dict(),
            "rent_missing": render(c.rent_missing, "en") if c.rent_missing else None,
            "noise": _noise_dict(c),
        }

    return {"currency": cmp.currency, "years": cmp.years,
            "workloads": [{"id": w.id, "params": w.model.params, "precision": w.precision} for w in cmp.workloads],
            "builds": [col(c) for c in cmp.columns],
            "best": [cmp.best(i) for i in range(len(cmp.workloads))],
            "verdicts": [render(v, "en") for v in verdicts(cmp)],
            "notes": [render(n, "en") for n in cmp.notes]}


def _noise_dict(c: Column) -> Optional[dict]:
    if c.noise is None:
        return None
    t, loud = c.noise.total, c.noise.loudest("training")
    return {s: (None if t[s].db is None else round(t[s].db, 1)) for s in ("idle", "training", "peak")} | {
        "band_db": round(t["training"].band, 1), "loudest": loud.label if loud else None}


def _noise_cell(c: Column) -> str:
    t = c.noise.total if c.noise is not None else None
    if t is None or t["training"].db is None:
        return T("silent")
    idle = T("silent") if t["idle"].db is None else T.verbatim(f"{t['idle'].db:.0f}")
    return T("{idle} idle / {training:.0f} training dB(A) (± {band:.0f})", idle=idle, training=t["training"].db,
             band=t["training"].band)


SAME_SPEED = 0.02
"""Throughputs within 2% of each other are called "about as fast" (well inside every error band)."""


def price_kinds(purchase: cost_model.Purchase) -> str:
    """Which kind of price a total rests on, most parts first: 'street prices (7 parts), estimated used
    prices (1 part)'; 'no prices' when none is priced (``domain.money.PRICE_KINDS`` names each kind)."""
    from rigbuilder.domain.money import PRICE_KINDS

    groups: dict[tuple[str, str], int] = {}
    for pp in purchase.parts:
        if pp.priced is not None:
            o = pp.priced.observation
            groups[(o.origin, o.condition)] = groups.get((o.origin, o.condition), 0) + 1
    if not groups:
        return T("no prices")
    items = []
    for (origin, cond), n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0])):
        what = PRICE_KINDS.get((origin, cond))
        label = T(what) if what else T.verbatim(f"{origin} {cond}")
        items.append(T("{prices} (1 part)", prices=label) if n == 1 else T("{prices} ({n} parts)", prices=label, n=n))
    return T.join(*interleave(items, ", "))


def speed_verdict(a: str, fa: E.Banded, b: str, fb: E.Banded) -> str:
    """Build ``a`` (the faster figure ``fa``) against ``b`` (``fb``): 'about as fast' within 2%; within the
    estimates' bands (the difference no larger than the wider band, ``estimates.within_bands``) no winner is
    named; a difference beyond the bands is 'A is 12% faster than B'; an unknown band says so."""
    faster = fa.value / fb.value - 1
    if faster < SAME_SPEED:
        return T("{a} and {b} are about as fast", a=a, b=b)
    band = E.within_bands(fa, fb)
    if band is not None:
        return T("{a} and {b} are within the estimates' \u00b1{band:.0%} of each other ({pct:.0%} apart): no clear "
                 "winner", a=a, b=b, band=band, pct=faster)
    if fa.band is None or fb.band is None:
        return T("{a} is {pct:.0%} faster than {b} (error band unknown)", a=a, b=b, pct=faster)
    return T("{a} is {pct:.0%} faster than {b}", a=a, b=b, pct=faster)


def verdicts(cmp: Comparison) -> list[str]:
    """One line per workload: which build fits, which is faster and by how much (``speed_verdict``: a
    difference inside the estimates' bands names no winner), and what it costs against the next one
    ('QLoRA: A is 14% faster than B; A is 20% cheaper'). Purchase totals compare; a total with unpriced
    parts is said to be incomplete."""
    out: list[str] = []
    cols = cmp.columns
    for i, wl in enumerate(cmp.workloads):
        what = workload_label(wl)
        fit = sorted((k for k, c in enumerate(cols) if c.throughput[i].fits and c.throughput[i].value > 0),
                     key=lambda k: -cols[k].throughput[i].value)
        if not fit:
            out.append(T("{workload}: no build fits", workload=what))
            continue
        if len(fit) == 1:
            out.append(T("{workload}: only {a} fits", workload=what, a=cols[fit[0]].label))
            continue
        a, b = cols[fit[0]], cols[fit[1]]
        speed = speed_verdict(a.label, E.of_build(a.throughput[i]), b.label, E.of_build(b.throughput[i]))
        pa, pb = a.purchase.total, b.purchase.total
        if pa <= 0 or pb <= 0:
            cost = T("no price to compare")
        elif abs(pa / pb - 1) < SAME_SPEED:
            cost = T("about the same price")
        elif pa < pb:
            cost = T("{a} is {pct:.0%} cheaper", a=a.label, pct=1 - pa / pb)
        else:
            cost = T("{a} costs {pct:.0%} more", a=a.label, pct=pa / pb - 1)
        if not (a.purchase.complete and b.purchase.complete):
            cost = T("{cost} (prices incomplete)", cost=cost)
        line = T("{workload}: {speed}; {cost}", workload=what, speed=speed, cost=cost)
        if len(fit) < len(cols):
            line = T("{verdict} (only these fit: {names})", verdict=line,
                     names=", ".join(cols[k].label for k in sorted(fit)))
        out.append(line)
    return out


def table(cmp: Comparison) -> tuple[list[str], list[tuple[str, list[str]]], list[str]]:
    """(column heads, rows of (figure, one cell per build), notes): the comparison as every door shows
    it. The texts are translatable; each door renders them in its language."""
    from rigbuilder.domain.i18n import Money

    cols = cmp.columns
    cur = cmp.currency
    rows: list[tuple[str, list[str]]] = []
    rows.append((T("GPUs"), [T.join(*interleave([T("{n} x {name}", n=k, name=T.verbatim(n)) for n, k in c.gpus], ", "))
                             if c.gpus else T("none") for c in cols]))
    rows.append((T("VRAM per card / total"),
                 [T("{card:g} GB / {total:g} GB", card=min(c.vram_per_card_gb), total=c.vram_total_gb)
                  if c.vram_per_card_gb else T("none") for c in cols]))
    for i, wl in enumerate(cmp.workloads):
        best = cmp.best(i)
        cells = []
        for k, c in enumerate(cols):
            t = c.throughput[i]
            if not t.fits:
                cells.append(T("does not fit"))
                continue
            cell = E.of_build(t).text()  # '1,002 images/s ±9%', '..., measured' or '..., error unknown'
            cells.append(T.join(cell, " *") if best == k else cell)
        rows.append((workload_label(wl), cells))
    rows.append((T("wall draw training / peak"),
                 [T("{train:,.0f} W / {peak:,.0f} W ({share:.0%} of the circuit)", train=c.wall_training_w,
                    peak=c.wall_peak_w, share=c.wall_peak_w / c.circuit_w if c.circuit_w else 0) for c in cols]))
    rows.append((T("noise at 1 m"), [_noise_cell(c) for c in cols]))
    rows.append((T("purchase"), [c.purchase.total_label() for c in cols]))
    rows.append((T("prices the purchase rests on"), [price_kinds(c.purchase) for c in cols]))
    rows.append((T("energy a year"), [T("{cost} ({kwh:,.0f} kWh)", cost=Money(c.running.cost_per_year, cur),
                                        kwh=c.running.kwh_per_year) for c in cols]))
    rows.append((T("cost of ownership, {years:g} years", years=cmp.years),
                 [T("{total}", total=Money(c.tco, cur)) if c.purchase.complete else
                  T("at least {total}", total=Money(c.tco, cur)) for c in cols]))
    rows.append((T("coolers"), [T("{blowers} blower, {open} open-air, {gaps} starved", blowers=c.blowers,
                                  open=c.open_air, gaps=c.open_air_gaps) for c in cols]))
    rows.append((T("findings"), [T("{errors}, {warnings}",
                                   errors=nT("{n} error", "{n} errors", c.findings.get("error", 0)),
                                   warnings=nT("{n} warning", "{n} warnings", c.findings.get("warning", 0)))
                                 for c in cols]))
    rows.append((T("owning beats renting"),
                 [T("after {hours:,.0f} h of use", hours=c.rent.hours) if c.rent and c.rent.hours is not None
                  else T("never") if c.rent else T("unknown") for c in cols]))
    notes: list[str] = [T("* the most throughput on that workload")]
    for c in cols:
        head = T.verbatim(c.label + ": ")
        if c.rent is not None:
            notes.append(T.join(head, c.rent.summary(cmp.settings.load_hours_per_day, cmp.settings.days_per_month)))
            if c.rent.price is not None and not c.rent.price.yours:
                notes.append(T.join("  ", T("rental price: {price:.2f} {cur} per GPU-hour, {desc}",
                                            price=c.rent.price.amount, cur=c.rent.price.currency,
                                            desc=c.rent.price.describe())))
            if c.rent.rate_note:
                notes.append(T.join("  ", c.rent.rate_note))
        elif c.rent_missing:
            notes.append(T.join(head, c.rent_missing))
        if c.codes:
            notes.append(T.join(head, T.verbatim(", ".join(c.codes))))
        if not c.purchase.complete:
            notes.append(T.join(head, T("without a price: {names}", names=", ".join(c.purchase.missing_names()))))
    notes.extend(cmp.notes)
    return [c.label for c in cols], rows, notes

