"""The parts list of a build: one data collection, then one exporter per format.

``report_data(build, index)`` gathers everything a printed or pasted parts list shows (parts with
their key figures, prices and sources, findings, power and running cost, the settings used,
dates and versions). Each exporter is a function from that data to bytes: ``to_markdown``,
``to_csv``, ``to_text`` and ``to_html`` (self-contained; the desktop app prints and the command
line writes PDF from it through ``rigbuilder.render``). Every format carries the same content.

Names and notes of user parts are untrusted: they are escaped in HTML and Markdown, and CSV cells
that a spreadsheet would run as a formula are neutralised.
"""
from __future__ import annotations

import base64
import csv
import datetime as _dt
import html
import io
import mimetypes
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Optional, Union

import rigbuilder
from rigbuilder.domain import fields as F
from rigbuilder.domain.safeio import neutralise_cell
from rigbuilder.domain.build import MOUNT_RISER, Build, shown_name
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import Day, Money, N_, T, format_value, nT, render, tr
from rigbuilder.domain.safeio import display_text
from rigbuilder.domain.money import money as _money
from rigbuilder.domain.kinds import BILL, COUNTED, KIND_LABELS, LIST, ONE, PLACED, UNDER, kind_of_id
from rigbuilder.domain.parts import (CPU, GPU, NIC, PSU, Case, Cooler, MemoryKit, Motherboard, Part, Riser, Storage,
                                     trust_text)
from rigbuilder.domain.parts import COMMUNITY_SOURCE
from rigbuilder.models import cost as cost_model
from rigbuilder.models.power import PowerReport
from rigbuilder.models.vram import strategy_text
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import counts, run_checks

STATES = ("idle", "training", "peak")
KIND_ORDER = ("motherboard", "cpu", "cooler", "memory", "storage", "gpu", "riser", "nic", "psu", "case")
FORMATS: dict[str, str] = {"md": "Markdown", "csv": "CSV", "txt": N_("plain text"), "html": "HTML"}
"""Format name -> its name for people (a door shows "plain text" through the catalogs)."""


# --------------------------------------------------------------------------- figures

def _num(x: Optional[float], unit: str = "") -> str:
    if x is None:
        return "?"
    s = f"{x:g}" if abs(x) < 1e6 else f"{x:.0f}"
    return f"{s} {unit}".strip() if unit else s


money = _money  # one formatting of amounts for every door (rigbuilder.domain.money)


def _key_figures(p: Part) -> list[str]:
    """The few figures that identify a part in a parts list, as short strings."""
    if isinstance(p, GPU):
        return [f"{_num(p.vram_gb)} GB {p.memory_type}".replace("  ", " ").strip(),
                f"{_num(p.board_power_w)} W", f"{_num(p.length_mm)} mm",
                T("{width}-slot", width=_num(p.slot_width)), COOLERS.get(p.cooler, p.cooler)]
    if isinstance(p, Motherboard):
        return [p.socket, p.chipset, p.form_factor, T("{n} PCIe slots", n=len(p.slots)),
                f"{p.dimm_slots}x {p.memory_type}"]
    if isinstance(p, CPU):
        return [p.socket, f"{p.cores}C/{p.threads}T", f"{_num(p.tdp_w)} W TDP",
                T("{n} PCIe {gen}.0 lanes", n=p.pcie_lanes, gen=p.pcie_gen)]
    if isinstance(p, MemoryKit):
        f = [f"{_num(p.total_gb)} GB ({p.modules}x{_num(p.total_gb / max(p.modules, 1))} GB)", p.type]
        if p.speed_mts:
            f.append(f"{p.speed_mts} MT/s")
        if p.ecc:
            f.append(T("ECC registered") if p.registered else "ECC")
        return f
    if isinstance(p, Storage):
        cap = f"{_num(p.capacity_gb / 1000)} TB" if p.capacity_gb >= 1000 else f"{_num(p.capacity_gb)} GB"
        return [cap, p.type] + ([p.interface] if p.interface else [])
    if isinstance(p, PSU):
        return [f"{_num(p.wattage)} W", f"80 PLUS {p.efficiency}" if p.efficiency != "80 PLUS" else "80 PLUS",
                f"ATX {p.atx_version}", f"{p.pcie_8pin}x PCIe 8-pin"] + (
                    [f"{p.hpwr_sockets}x 12VHPWR"] if p.hpwr_sockets else [])
    if isinstance(p, Case):
        f = [p.type] if p.type else []
        f.append("/".join(p.form_factors) if p.form_factors else "?")
        f.append(T("{n} expansion slots", n=p.expansion_slots))
        if p.max_gpu_length_mm:
            f.append(T("GPU up to {mm} mm", mm=_num(p.max_gpu_length_mm)))
        return f
    if isinstance(p, Cooler):
        f = [COOLER_KINDS.get(p.type, p.type)]
        if p.height_mm:
            f.append(T("{mm} mm tall", mm=_num(p.height_mm)))
        if p.radiator_mm:
            f.append(T("{mm} mm radiator", mm=_num(p.radiator_mm)))
        if p.tdp_rating_w:
            f.append(T("{w} W rated", w=_num(p.tdp_rating_w)))
        return f
    if isinstance(p, NIC):
        return [f"{p.ports}x {_num(p.speed_gbps)} Gb/s", p.protocol] + (["RDMA"] if p.rdma else [])
    if isinstance(p, Riser):
        return [f"{_num(p.length_mm)} mm", f"PCIe {p.pcie_gen}.0 x{p.lanes}", p.type]
    return []


COOLERS = {"open-air": T("open-air"), "blower": T("blower"), "passive": T("passive")}
COOLER_KINDS = {"air": T("air cooler"), "AIO": T("AIO liquid cooler")}  # a CPU cooler's type


def kind_label(kind: str, fallback: Optional[str] = None) -> T:
    """A kind's title in a report (``domain.kinds``), translated where rendered."""
    return T(KIND_LABELS[kind]) if kind in KIND_LABELS else T.verbatim(fallback if fallback is not None else kind)


# --------------------------------------------------------------------------- running cost

def running_cost(build: Build, power: PowerReport) -> dict[str, Any]:
    """Monthly and yearly energy cost (``rigbuilder.models.cost``: training W x load hours +
    idle W x idle hours per day, x days per month or 365 days, x price per kWh). Settings the
    model refuses give ``error`` instead of figures."""
    try:
        rc = cost_model.running_cost(power, build.settings)
    except ValueError as e:
        return {"error": str(e), "currency": build.settings.currency}
    return {"kwh_per_month": rc.kwh_per_month, "kwh_per_year": rc.kwh_per_year,
            "per_month": rc.cost_per_month, "per_year": rc.cost_per_year, "currency": rc.currency}


# --------------------------------------------------------------------------- data

TCO_YEARS = 3


def _with_tco(c: dict, buy) -> dict:
    """Energy and cost of ownership over TCO_YEARS: purchase + energy, "at least" with unpriced parts."""
    if "per_year" in c:
        c["years"] = TCO_YEARS
        c["energy_years"] = round(TCO_YEARS * c["per_year"], 2)
        c["tco"] = round(buy.total + TCO_YEARS * c["per_year"], 2)
        c["tco_at_least"] = bool(buy.missing)
    return c


def _key_figures_of_build(ctx: Context, build: Build) -> dict:
    pw = ctx.power
    return {"gpus": len(build.gpus), "vram_gb": sum(g.gpu.vram_gb for g in ctx.gpus),
            "peak_dc_w": round(pw.dc["peak"], 1), "peak_wall_w": round(pw.wall["peak"], 1)}


def _image_uri(src: Union[str, Path, None]) -> Optional[str]:
    if src is None:
        return None
    s = str(src)
    if s.startswith("data:"):
        return s
    p = Path(s)
    mime = mimetypes.guess_type(p.name)[0] or "image/png"
    return f"data:{mime};base64," + base64.b64encode(p.read_bytes()).decode("ascii")


def _collect_parts(build: Build, index: PartIndex) -> list[dict]:
    """Parts grouped by id (four identical GPUs are one line with quantity 4), in kind order.
    Each line lists its build entries as (role, index within the role) in ``entries``."""
    groups: "OrderedDict[str, dict]" = OrderedDict()

    def add(pid: Optional[str], role: str, i: int, qty: int = 1, where: Optional[str] = None) -> None:
        if not pid:
            return
        g = groups.get(pid)
        if g is None:
            g = groups[pid] = {"id": pid, "quantity": 0, "where": [], "entries": []}
        g["quantity"] += qty
        g["entries"].append((role, i))
        if where:
            g["where"].append(where)

    def gpu_where(i: int, g) -> str:
        if g.mount == MOUNT_RISER:
            w = (T("GPU {num} on riser from position {position}", num=i + 1, position=g.position) if g.position else
                 T("GPU {num} on riser", num=i + 1))
        else:
            w = (T("GPU {num} at position {position}", num=i + 1, position=g.position) if g.position is not None
                 else T.verbatim(f"GPU {i + 1}"))
        if g.power_limit_w:
            w = T("{where}, limit {watts:g} W", where=w, watts=g.power_limit_w)
        return w

    for k in BILL:  # in the bill's order (domain.kinds), each role as it holds its parts
        role, held = k.role, getattr(build, k.role.attr) if k.role.shape != UNDER else build.gpus
        if role.shape == ONE:
            add(held, k.name, 0)
        elif role.shape == LIST:
            for i, pid in enumerate(held):
                add(pid, k.name, i)
        elif role.shape == COUNTED:
            for i, e in enumerate(held):
                add(e.part_id, k.name, i, e.count, f"M.2 {e.m2}" if getattr(e, "m2", None) else None)
        elif role.shape == PLACED:
            for i, g in enumerate(held):
                add(g.part_id, k.name, i, 1, gpu_where(i, g))
        else:  # UNDER: a part under each card (its riser)
            for i, g in enumerate(held):
                if getattr(g, role.attr):
                    add(getattr(g, role.attr), k.name, i, 1, T("under GPU {num}", num=i + 1))

    out = []
    for g in groups.values():
        p = index.get(g["id"])
        kind = p.KIND if p is not None else (kind_of_id(g["id"]) or "part")
        q = g["quantity"]
        row = {
            "id": g["id"], "kind": kind, "kind_label": KIND_LABELS.get(kind, kind.title()),
            "quantity": q, "where": g["where"], "in_catalog": p is not None, "entries": g["entries"],
        }
        if p is None:
            row.update(name=g["id"], maker="", model="", figures=[], unit_price=None, price=None,
                       currency=None, price_note=None, source=T("not in this catalog"), source_date="",
                       unverified=[], verified=False, origin="missing", notes="")
        else:
            row.update(name=p.name, maker=p.maker, model=p.model, figures=[f for f in _key_figures(p) if f],
                       unit_price=p.price, price=(p.price * q if p.price is not None else None),
                       currency=p.currency if p.price is not None else None, price_note=p.price_note,
                       source=p.source, source_date=p.source_date, unverified=list(p.unverified),
                       verified=p.verified, origin=p.origin, notes=p.notes or "")
        out.append(row)
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    out.sort(key=lambda r: order.get(r["kind"], len(order)))
    return out


def adviser_summary(build: Build, index: PartIndex, workload, lang: str = "en") -> Optional[dict[str, Any]]:
    """The build's estimated throughput for ``workload`` (``rigbuilder.models.scaling``), or None
    without one: the report's "Estimated throughput" line, in ``lang``."""
    if workload is None:
        return None
    from rigbuilder.models import estimates as E
    from rigbuilder.models.scaling import build_throughput

    bt = build_throughput(build, index, workload)
    fig = E.of_build(bt)  # the figure with its band: '1,002 images/s ±9%', '..., measured', '..., error unknown'
    if bt.n_gpus == 0:
        text = T("no GPU")
    elif not bt.fits:
        need = E.of_memory(bt.need).text()  # '16.2 GB ±6%' or '16.2 GB, error unknown'
        text = (T("does not hold {model} at batch {batch} ({need} per card needed)", model=workload.model.name,
                  batch=workload.batch, need=need) if workload.training else
                T("does not hold {model} ({need} per card needed)", model=workload.model.name, need=need))
    else:
        how = (T("one card holds the model") if bt.strategy == "replicated" else
               T("split over {n} ({strategy})", n=bt.n_gpus, strategy=strategy_text(bt.strategy)))
        basis = (T("measured per-card figures") if bt.basis == "measured" else
                 T("scaled from measurements") if bt.basis == "scaled" else
                 T("estimated") if fig.how == "unknown" else T(E.HOW[fig.how]))
        if bt.n_gpus > 1 and workload.training:  # the scaling efficiency with the scaling fit's band
            scaling = E.of_scaling(bt.efficiency)
            text = T("{figure}, {how}, scaling {efficiency:.0%} \u00b1{band:.0%} ({basis})", figure=fig.text(),
                     how=how, efficiency=bt.efficiency, band=scaling.band, basis=basis)
        elif bt.n_gpus > 1:
            text = T("{figure}, {how}, scaling {efficiency:.0%} ({basis})", figure=fig.text(), how=how,
                     efficiency=bt.efficiency, basis=basis)
        else:
            text = T("{figure}, {how} ({basis})", figure=fig.text(), how=how, basis=basis)
        low = [r for r in bt.reasons if r.startswith("GPU ")]
        if low:
            text = T("{text}; {reasons}", text=text, reasons=T.join(*[x for r in low for x in ("; ", r)][1:]))
    label = workload.label + (f", {workload.model.name}" if workload.model.layers and workload.kind.startswith("llm") else "")
    return {"workload": workload.id, "label": render(label, lang), "text": render(text, lang),
            "value": round(bt.value, 3), "unit": bt.unit, "fits": bt.fits,
            "band": None if fig.band is None else round(fig.band, 4), "band_how": fig.how}


def parts_list(build: Build, index: PartIndex, buy: Optional[cost_model.Purchase] = None) -> list[dict]:
    """The build's parts list as every door shows it (the printed and exported list, the window's
    Parts tab): one line per part id with its quantity, where each unit sits, and its price from
    the purchase (``rigbuilder.models.cost.purchase``) in the build's currency. ``condition`` is the
    condition of the price used ("new" or "used"; None when unpriced); ``paid`` whether it is the
    price paid entered in this build."""
    buy = buy if buy is not None else cost_model.purchase(build, index)
    cur = buy.currency
    priced = {p.part_id: p for p in buy.parts}
    parts = _collect_parts(build, index)
    for r in parts:  # every door shows the same prices: the purchase's, in the build's currency
        pp = priced.get(r["id"])
        r["unit_price"] = pp.price if pp else None
        r["price"] = pp.subtotal if pp else None
        r["currency"] = cur if pp and pp.price is not None else None
        r["bundle"] = pp.bundle if pp else ""
        r["price_trace"] = pp.priced.trace() if pp and pp.priced else ""
        obs = pp.priced.observation if pp and pp.priced else None
        r["condition"] = obs.condition if obs is not None else None
        r["observed"] = (obs.observed or None) if obs is not None else None  # when the price was seen
        r["stale"] = obs.stale() if obs is not None else None  # seen more than six months ago
        r["paid"] = r["id"] in build.prices_paid
    return parts


def report_data(build: Build, index: PartIndex, *, today: Union[_dt.date, str, None] = None,
                board_image_path: Union[str, Path, None] = None, workload=None, lang: str = "en",
                measured: Optional[dict] = None, context: Optional[Context] = None,
                findings: Optional[list] = None) -> dict[str, Any]:
    """Everything the parts list shows, as plain data (JSON-serialisable). With ``workload``
    (``rigbuilder.models.workloads``) the key figures add the build's estimated throughput.
    ``lang``: the language of the report (issue 19): its headings and labels, the findings and the
    parts' key figures; the figures formatted for the locale. ``measured``: the build's latest
    imported power log (``rigbuilder.files.measured.log_json``), printed against the plan. ``context``
    and ``findings``: the checks' context and findings the caller already holds for this build (the
    window's document); judged here only where it has none."""
    ctx = context if context is not None else Context(build, index)
    if findings is None:
        findings = run_checks(build, index, context=ctx)
    buy = cost_model.purchase(build, index)
    cur = buy.currency
    parts = parts_list(build, index, buy)
    subtotals: "OrderedDict[str, float]" = OrderedDict()
    for r in parts:
        if r["price"] is not None and not r["bundle"].startswith("in the bundle"):
            subtotals[r["kind"]] = subtotals.get(r["kind"], 0.0) + r["price"]
    rates = index.prices.rates
    for r in parts:  # the texts of each line in the report's language (the figures stay data)
        r["kind_label"] = render(kind_label(r["kind"], r["kind_label"]), lang)
        r["figures"] = [render(f, lang) for f in r["figures"]]
        r["where"] = [render(w, lang) for w in r["where"]]
        r["source"] = render(r["source"], lang)
        r["bundle"] = render(r["bundle"], lang)
        r["price_trace"] = render(r["price_trace"], lang)

    pw = ctx.power
    from rigbuilder.models.prices import energy_source

    s = build.settings
    region = s.region_info()
    if today is None:
        today = _dt.date.today()
    c = counts(findings)
    return {
        "lang": lang,
        "title": shown_name(build.name, lang),
        "notes": display_text(build.notes, one_line=False),
        "date": today.isoformat() if isinstance(today, _dt.date) else str(today),
        "program_version": rigbuilder.__version__,
        "catalog_version": index.version,
        "parts": parts,
        "subtotals": [{"kind": k, "kind_label": render(kind_label(k), lang), "currency": cur,
                       "amount": round(a, 2)}
                      for k, a in subtotals.items()],
        "totals": [{"currency": cur, "amount": round(buy.total, 2)}] if len(buy.missing) < len(buy.parts) else [],
        "unpriced": buy.missing_names(),
        "purchase": {"label": render(buy.total_label(), lang), "at_least": bool(buy.missing), "upper_bound": buy.upper_bound,
                     "conversions": [render(c, lang) for c in buy.conversions], "rates_source": rates.source,
                     "rates_date": rates.date, "age": render(buy.age_line(), lang) or None,
                     "stale": render(buy.stale_line(), lang) or None,
                     "budget": None if buy.budget is None else round(buy.budget, 2),
                     "over_budget": None if buy.over_budget is None else round(buy.over_budget, 2)},
        "key": _key_figures_of_build(ctx, build),
        "findings": {
            "counts": c,
            "items": [{"code": f.code, "severity": f.severity.value, "message": display_text(render(f.message, lang)),
                       "fix": display_text(render(f.fix, lang))}
                      for f in findings if f.severity is not Severity.INFO],
            "infos": c.get("info", 0),
        },
        "power": {
            "dc": {k: round(pw.dc[k], 1) for k in STATES},
            "wall": {k: round(pw.wall[k], 1) for k in STATES},
            "psu_rating_w": pw.psu_rating_w,
            "transient_w": round(pw.gpu_transient_w, 1),
        },
        # The cost of ownership from the unrounded yearly cost (as the window's panel has it), then rounded.
        "cost": {k: (round(v, 2) if isinstance(v, float) else v)
                 for k, v in _with_tco(running_cost(build, pw), buy).items()},
        "settings": {
            "region": region.code, "region_label": region.label, "circuit_w": s.circuit_w(), "rated_w": region.rated_w,
            "price_per_kwh": s.price_per_kwh, "currency": s.currency,
            "load_hours_per_day": s.load_hours_per_day, "idle_hours_per_day": s.idle_hours_per_day,
            "days_per_month": s.days_per_month,
            "price_per_kwh_source": render(energy_source(s, index.prices.rates, str(today)[:10]), lang),
        },
        "board_image": _image_uri(board_image_path),
        "adviser": adviser_summary(build, index, workload, lang),
        "power_limits": power_limit_lines(build, index, lang),
        "measured": _measured(measured, pw, lang),
        "noise": noise_data(ctx, lang),
    }


def _measured(log: Optional[dict], pw: PowerReport, lang: str) -> Optional[dict]:
    """The report's "Measured against the plan" section: the log's table and the calibration
    notes of every figure the user's measurements changed (None when neither)."""
    from rigbuilder.files.measured import table_lines

    cal = [f"{render(c.label, lang)}: {render(c.calibration.note(), lang)}" for c in pw.components if c.calibration]
    if log is None and not cal:
        return None
    return {"title": tr("Measured against the plan ({source}, {date})", lang, source=log["source"],
                        date=Day(log["date"])) if log else tr("Measured against the plan", lang),
            "lines": table_lines(log, lang) if log else [], "calibration": cal}


def _measured_block(d: dict) -> list[str]:
    m = d.get("measured")
    return [] if not m else [m["title"], *("  " + x for x in m["lines"]), *m["calibration"]]


def noise_data(ctx: Context, lang: str = "en") -> dict[str, Any]:
    """The build's noise at 1 m (models/noise.py): each state's level and band, the loudest source
    while training, the share from measured figures, and the room level."""
    rep = ctx.noise
    loud = rep.loudest("training")
    return {"distance_m": rep.distance_m, "room_db": ctx.build.settings.room_noise_db,
            "levels": {s: {"db": None if rep.total[s].db is None else round(rep.total[s].db, 1),
                           "band_db": round(rep.total[s].band, 1)} for s in STATES},
            "loudest": render(loud.label, lang) if loud else None,
            "measured_share": round(rep.measured_share("training"), 3)}


# --------------------------------------------------------------------------- shared wording

def _lang(d: dict) -> str:
    return d.get("lang", "en")


def _t(d: dict, template: str, **params) -> str:
    """A report text in the report's language."""
    return tr(template, _lang(d), **params)


def _m(d: dict, amount: Optional[float], currency: Optional[str]) -> str:
    """An amount as the report's language writes money ('1,234.50 EUR' in English)."""
    lang = _lang(d)
    return money(amount, currency) if lang == "en" else format_value(Money(amount, currency), "", lang)


def _n(d: dict, value: float, digits: int = 0) -> str:
    """A number with ``digits`` decimals, grouped as the report's language groups them (English: ungrouped)."""
    from rigbuilder.domain.i18n import format_number

    if _lang(d) == "en":  # as the English report always wrote watts: 1615 W
        return f"{value:.{digits}f}"
    return format_number(value, digits, _lang(d))


def _g(d: dict, value: float) -> str:
    """A number as ``{:g}`` writes it, with the report language's decimal sign."""
    return format(value, "g") if _lang(d) == "en" else format_value(value, "g", _lang(d))


SEVERITIES = {"error": T("ERROR"), "warning": T("WARNING"), "info": T("INFO")}
STATE_NAMES = {"idle": T("Idle"), "training": T("Training"), "peak": T("Peak")}

def _part_line(r: dict) -> str:
    return ", ".join(r["figures"])


def _where(r: dict) -> str:
    return "; ".join(r["where"])


def _unverified_text(r: dict, lang: str = "en") -> str:
    """As ``domain.parts.trust_text`` says it, in ``lang``."""
    if r["origin"] == "missing":
        return tr("not in catalog", lang)
    return trust_label(r["origin"], r["unverified"], str(r.get("source") or "").startswith(COMMUNITY_SOURCE), lang)


def trust_label(origin: str, unverified, community: bool, lang: str = "en") -> str:
    """``domain.parts.trust_text`` in ``lang``: "verified", "unverified: a, b" (field names are
    data), "your own figures", "community data; unverified: ..."."""
    return render(trust_text(origin, unverified, community), lang)


def _flagged(r: dict) -> bool:
    return bool(r["unverified"]) or r["origin"] != "shipped"


def _source_text(r: dict) -> str:
    return f"{r['source']} ({r['source_date']})" if r["source_date"] else r["source"]


def _total_head(d: dict) -> str:
    return _t(d, N_("Total purchase (parts): {total}"), total=d["purchase"]["label"] if d["totals"] else
              T("price unknown"))


def _total_lines(d: dict) -> list[str]:
    """Purchase total, what it leaves out, how it was converted, the budget: the same in every format."""
    return [_total_head(d)] + _total_notes(d)


def _total_notes(d: dict) -> list[str]:
    """What the total rows of a table do not say: parts without a price, conversions, budget."""
    pu = d["purchase"]
    cur = d["settings"]["currency"]
    lines = [pu["stale"]] if pu.get("stale") else []  # an answer resting on stale prices says so first
    if pu.get("age"):
        lines.append(pu["age"])
    if d["unpriced"]:
        lines.append(_t(d, N_("Price unknown ({n}, not in the total): {names}"), n=len(d["unpriced"]),
                        names=", ".join(d["unpriced"])))
    if pu["upper_bound"]:
        lines.append(_t(d, N_("A published price is an upper bound (\"under\" that amount): the total is at most this.")))
    for c in pu["conversions"]:
        lines.append(_t(d, N_("Prices {conversion} ({source})."), conversion=c, source=pu["rates_source"]))
    if pu["budget"] is not None:
        budget = _m(d, pu["budget"], cur)
        if pu["over_budget"] is None:
            lines.append(_t(d, N_("Budget {budget}: within budget"), budget=budget))
        elif pu["at_least"]:
            lines.append(_t(d, N_("Budget {budget}: over by at least {over}"), budget=budget,
                            over=_m(d, pu["over_budget"], cur)))
        else:
            lines.append(_t(d, N_("Budget {budget}: over by {over}"), budget=budget, over=_m(d, pu["over_budget"], cur)))
    return lines


def _price_source(r: dict, lang: str = "en") -> str:
    if r.get("bundle"):
        return (tr("price {bundle}: {trace}", lang, bundle=r["bundle"], trace=r["price_trace"]) if r["price_trace"]
                else tr("price {bundle}", lang, bundle=r["bundle"]))
    return tr("price: {trace}", lang, trace=r["price_trace"]) if r.get("price_trace") else tr("price: none known", lang)


def power_limit_lines(build: Build, index: PartIndex, lang: str = "en") -> list[dict]:
    """The power-limit advice (``rigbuilder.rules.power.limit_lines``) in ``lang``: each line a
    sentence or a command (commands and the cron line are not translated). The printed report
    keeps to the cron line for reboots (the systemd unit: ``rigbuilder limits``, the window's dialog)."""
    from rigbuilder.rules.power import limit_lines, plan_limits

    plan = plan_limits(build, index)
    if plan is None:
        return []
    return [{"text": render(x, lang), "command": not isinstance(x, T)}
            for x in limit_lines(plan, build.settings.region_info().label, unit=False)]


def _limit_blocks(d: dict) -> list[tuple[bool, list[str]]]:
    """The power-limit lines grouped: (is a block of commands, lines)."""
    out: list[tuple[bool, list[str]]] = []
    for x in d.get("power_limits") or []:
        if out and out[-1][0] == x["command"]:
            out[-1][1].append(x["text"])
        else:
            out.append((x["command"], [x["text"]]))
    return out


def _settings_text(d: dict) -> str:
    s = d["settings"]
    return _t(d, N_("Region {region} (continuous {circuit:g} W); electricity {price:g} {currency}/kWh; {usage}"),
              region=_t(d, s["region_label"]), circuit=s["circuit_w"], price=s["price_per_kwh"], currency=s["currency"],
              usage=F.usage_words(s["load_hours_per_day"], s["idle_hours_per_day"], s["days_per_month"])) + (
        "; " + _t(d, N_("electricity price: {source}"), source=s["price_per_kwh_source"])
        if s.get("price_per_kwh_source") else "")


def _power_rows(d: dict) -> list[tuple[str, str, str]]:
    p = d["power"]
    return [(render(STATE_NAMES[st], _lang(d)), f"{_n(d, p['dc'][st])} W", f"{_n(d, p['wall'][st])} W")
            for st in STATES]


def _noise_text(d: dict) -> str:
    """One line: the build's level at idle, training and peak, the band, the loudest source."""
    n = d.get("noise")
    if not n:
        return ""
    lv = n["levels"]

    def db(st: str) -> str:
        return _t(d, N_("silent")) if lv[st]["db"] is None else _n(d, lv[st]["db"])

    if lv["training"]["db"] is None:
        return _t(d, N_("Noise at {m} m: silent (no fan counted)"), m=_g(d, n["distance_m"]))
    text = _t(d, N_("Noise at {m} m, dB(A): idle {idle}, training {training} ± {band}, peak {peak}; loudest while "
                    "training: {loudest}; {share} of it from measured figures"),
              m=_g(d, n["distance_m"]), idle=db("idle"), training=db("training"), band=_n(d, lv["training"]["band_db"]),
              peak=db("peak"), loudest=n["loudest"] or "", share=_pct(d, n["measured_share"]))
    if lv["training"]["db"] > n["room_db"]:
        text += _t(d, N_(" (above the {room} dB(A) set for its room)"), room=_n(d, n["room_db"]))
    return text


def _pct(d: dict, share: float) -> str:
    return f"{share:.0%}" if _lang(d) == "en" else format_value(share, ".0%", _lang(d))


def _cost_text(d: dict) -> str:
    c = d["cost"]
    if "error" in c:
        return _t(d, N_("not computed ({error})"), error=c["error"])
    if _lang(d) == "en":
        return (f"energy {c['per_month']:,.2f} {c['currency']} per month, {c['per_year']:,.2f} {c['currency']} per "
                f"year ({c['kwh_per_month']:,.0f} kWh per month)")
    return _t(d, N_("energy {month} per month, {year} per year ({kwh:,.0f} kWh per month)"),
              month=Money(c["per_month"], c["currency"]), year=Money(c["per_year"], c["currency"]),
              kwh=c["kwh_per_month"])


def _tco_value(d: dict) -> str:
    c = d["cost"]
    tco, energy = _m(d, c["tco"], c["currency"]), _m(d, c["energy_years"], c["currency"])
    return (_t(d, N_("at least {tco} (energy {energy})"), tco=tco, energy=energy) if c["tco_at_least"] else
            _t(d, N_("{tco} (energy {energy})"), tco=tco, energy=energy))


def _tco_text(d: dict) -> str:
    c = d["cost"]
    if "tco" not in c:
        return ""
    return _t(d, N_("Cost of ownership over {years} years (purchase + energy): {value}"), years=c["years"],
              value=_tco_value(d))


def _key_lines(d: dict) -> list[tuple[str, str]]:
    k, c = d["key"], d["cost"]
    return [(_t(d, N_("GPUs")), str(k["gpus"])), ("VRAM", f"{_g(d, k['vram_gb'])} GB"),
            (_t(d, N_("Peak load (DC)")), f"{_n(d, k['peak_dc_w'])} W"),
            (_t(d, N_("Peak at the wall")), f"{_n(d, k['peak_wall_w'])} W"),
            (_t(d, N_("Energy per month")), _m(d, c["per_month"], c["currency"]) if "per_month" in c else
             _t(d, N_("not computed")))] + (
        [(_t(d, N_("Estimated throughput ({workload})"), workload=d["adviser"]["label"]), d["adviser"]["text"])]
        if d.get("adviser") else [])


def _findings_title(d: dict) -> str:
    c = d["findings"]["counts"]
    e, w, i = c.get("error", 0), c.get("warning", 0), c.get("info", 0)
    parts = [render(nT("{n} error", "{n} errors", e), _lang(d)), render(nT("{n} warning", "{n} warnings", w), _lang(d)),
             render(nT("{n} note", "{n} notes", i), _lang(d))]
    return _t(d, N_("{errors}, {warnings}, {notes}"), errors=parts[0], warnings=parts[1], notes=parts[2])


def _severity(d: dict, sev: str) -> str:
    return render(SEVERITIES.get(sev, T.verbatim(sev.upper())), _lang(d))


def _footer(d: dict) -> str:
    return _t(d, N_("Made with rigbuilder {version}, catalog {catalog}, on {date}. Prices are prices paid, your own, or "
                 "published launch, street or used prices at their source date (see Sources), not quotes."),
              version=d["program_version"], catalog=d["catalog_version"] or "?", date=Day(d["date"]))


# Texts used inside f-strings (which the extractor does not read): marked here.
_IN_F_STRINGS = (
    N_('Type'),
    N_('Item'),
    N_('Price'),
    N_('Total (purchase)'),
    N_('Figure'),
    N_('Value'),
    N_('Cost of ownership'),
    N_('State'),
    N_('Wall'),
    N_('Power'),
    N_('{title} - parts list'),
    N_('Parts list, {date}'),
    N_('catalog {version}'),
    N_('Parts'),
    N_('Qty'),
    N_('Src'),
    N_('Subtotal {kind}'),
    N_('Purchase (parts): {total}'),
    N_('Running cost:'),
    N_('Board layout'),
)


# --------------------------------------------------------------------------- Markdown

_MD_SPECIAL = re.compile(r"([\\|*_`\[\]<>#])")


def md_escape(text: Any) -> str:
    """Escape untrusted text for a Markdown table cell (no markup, no links, one line)."""
    s = re.sub(r"[\r\n\t]+", " ", str(text))
    return _MD_SPECIAL.sub(r"\\\1", s)


def to_markdown(d: dict) -> bytes:
    """The list forums render: a PCPartPicker-style Type | Item | Price table with a total row,
    the key figures, the findings summary, then sources, power and settings."""
    e = md_escape
    lang = _lang(d)
    out = [f"# {e(d['title'])}", ""]
    if d["notes"]:
        out += [e(d["notes"]), ""]
    out += [f"{e(_t(d, 'Type'))}|{e(_t(d, 'Item'))}|{e(_t(d, 'Price'))}", ":----|:----|:----"]
    for i, r in enumerate(d["parts"], 1):
        item = (f"{r['quantity']} x " if r["quantity"] > 1 else "") + e(r["name"])
        extra = [x for x in (_part_line(r), _where(r)) if x]
        if extra:
            item += " (" + e("; ".join(extra)) + ")"
        if _flagged(r):
            item += f" ⚠ {e(_unverified_text(r, lang))}"
        price = e(_m(d, r["price"], r["currency"])) if not r.get("bundle") else e(
            f"{_m(d, r['price'], r['currency'])} ({r['bundle']})")
        out.append(f"**{e(r['kind_label'])}** | {item} [{i}] | {price}")
    pu = d["purchase"]
    total = pu["label"] if d["totals"] else _t(d, N_("price unknown"))
    out.append(f"**{e(_t(d, 'Total (purchase)'))}** | | **{e(total)}**")
    out.append("")
    out += [e(x) + "  " for x in _total_notes(d)]
    if d["subtotals"]:
        out.append(e(_t(d, N_("Subtotals: {list}"), list="; ".join(f"{s['kind_label']} {_m(d, s['amount'], s['currency'])}"
                                                             for s in d["subtotals"]))))
    out += ["", "## " + e(_t(d, N_("Key figures"))), "", f"{e(_t(d, 'Figure'))}|{e(_t(d, 'Value'))}", ":----|----:"]
    out += [f"{e(a)}|{e(b)}" for a, b in _key_lines(d)]
    if _tco_text(d):
        out.append(f"{e(_t(d, 'Cost of ownership'))}|{e(_tco_value(d))}")
    out += ["", "## " + e(_t(d, N_("Findings: {counts}"), counts=_findings_title(d))), ""]
    for f in d["findings"]["items"]:
        out.append(f"- **{e(_severity(d, f['severity']))}** `{f['code']}`: {e(f['message'])}"
                   + (" *" + e(_t(d, N_("Fix:"))) + f"* {e(f['fix'])}" if f["fix"] else ""))
    if not d["findings"]["items"]:
        out.append("- " + e(_t(d, N_("No errors or warnings."))))
    out += ["", "## " + e(_t(d, N_("Sources"))), ""]
    out += [f"{i}. {e(r['name'])}: {e(_source_text(r))} ({e(_unverified_text(r, lang))}); {e(_price_source(r, lang))}"
            for i, r in enumerate(d["parts"], 1)]
    out += ["", "## " + e(_t(d, N_("Power and running cost"))), "",
            f"{e(_t(d, 'State'))}|DC|{e(_t(d, 'Wall'))}", ":----|----:|----:"]
    out += [f"{a}|{b}|{c}" for a, b, c in _power_rows(d)]
    out += ["", e(_noise_text(d)) + "  "] if _noise_text(d) else []
    out += ["", e(_t(d, N_("Running cost: {cost}"), cost=_cost_text(d))) + "  ",
            e(_tco_text(d)) + "  " if _tco_text(d) else "",
            e(_t(d, N_("Settings: {settings}"), settings=_settings_text(d))), ""]
    if d.get("power_limits"):
        out += ["## " + e(_t(d, N_("Power limits"))), ""]
        for commands, lines in _limit_blocks(d):
            out += (["```", *lines, "```", ""] if commands else [e(x) + "  " for x in lines] + [""])
    if d.get("measured"):
        m = d["measured"]
        out += ["## " + e(m["title"]), ""] + (["```", *m["lines"], "```", ""] if m["lines"] else [])
        out += [e(x) + "  " for x in m["calibration"]] + [""]
    out += [f"*{e(_footer(d))}*", ""]
    return "\n".join(out).encode("utf-8")


# --------------------------------------------------------------------------- CSV

CSV_COLUMNS = ("type", "quantity", "item", "id", "placement", "key_figures", "unit_price", "price",
               "currency", "price_source", "source", "source_date", "verified", "notes")


CSV_HEADERS = {"type": T("type"), "quantity": T("quantity"), "item": T("item"), "id": T("id"),
               "placement": T("placement"), "key_figures": T("key_figures"), "unit_price": T("unit_price"),
               "price": T("price"), "currency": T("currency"), "price_source": T("price_source"),
               "source": T("source"), "source_date": T("source_date"), "verified": T("verified"), "notes": T("notes")}
"""The CSV header in another language (TRANSLATORS: column names of a spreadsheet; words joined by _)."""


def to_csv(d: dict) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    lang = _lang(d)
    # No part of rigbuilder reads this CSV back (it is for spreadsheets): the header is in the report's
    # language; amounts stay plain numbers with a decimal point, so a spreadsheet reads them as numbers.
    w.writerow(CSV_COLUMNS if lang == "en" else [render(CSV_HEADERS[c], lang) for c in CSV_COLUMNS])
    for r in d["parts"]:
        row = [r["kind_label"], r["quantity"], r["name"], r["id"], _where(r), _part_line(r),
               "" if r["unit_price"] is None else f"{r['unit_price']:.2f}",
               _t(d, N_("price unknown")) if r["price"] is None else f"{r['price']:.2f}",
               r["currency"] or "", _price_source(r, lang), r["source"], r["source_date"], _unverified_text(r, lang),
               r["notes"]]
        w.writerow([neutralise_cell(v) for v in row])
    pu = d["purchase"]
    for t in d["totals"]:
        w.writerow([neutralise_cell(v) for v in
                    [_t(d, N_("Total")), "", _t(d, N_("purchase (parts)")), "", "", "", "", f"{t['amount']:.2f}",
                     t["currency"], "; ".join(pu["conversions"]), "", "", "",
                     _t(d, N_("at least: parts without a price are not in it")) if pu["at_least"] else ""]])
    if d["unpriced"]:
        w.writerow([neutralise_cell(v) for v in
                    [_t(d, N_("Price unknown")), len(d["unpriced"]), "; ".join(d["unpriced"]), "", "", "", "", "", "",
                     "", "", "", "", _t(d, N_("not in the total"))]])
    return buf.getvalue().encode("utf-8")


# --------------------------------------------------------------------------- plain text

def to_text(d: dict) -> bytes:
    lang = _lang(d)
    out = [d["title"], "=" * min(len(d["title"]), 78), ""]
    if d["notes"]:  # indented, so no line of the notes can pass for a line of the list
        out += ["  " + line for line in d["notes"].splitlines()] + [""]
    for r in d["parts"]:
        out.append(f"{r['kind_label']:<13}{r['quantity']:>3} x  {r['name']}")
        if r["where"]:
            out.append(f"{'':19}{_where(r)}")
        if r["figures"]:
            out.append(f"{'':19}{_part_line(r)}")
        price = _m(d, r["price"], r["currency"])
        out.append(f"{'':19}" + (_t(d, N_("Price: {price} ({n} x {each})"), price=price, n=r["quantity"],
                                    each=_m(d, r["unit_price"], r["currency"]))
                                 if r["quantity"] > 1 and r["unit_price"] is not None else
                                 _t(d, N_("Price: {price}"), price=price)))
        out.append(f"{'':19}" + _t(d, N_("Source: {source} [{trust}]"), source=_source_text(r),
                                   trust=_unverified_text(r, lang)))
        ps = _price_source(r, lang)
        out.append(f"{'':19}{ps[:1].upper()}{ps[1:]}")
    out.append("")
    for s in d["subtotals"]:
        out.append(f"  {s['kind_label']:<16}{_m(d, s['amount'], s['currency']):>20}")
    out += _total_lines(d)
    out += ["", _t(d, N_("Findings: {counts}"), counts=_findings_title(d))]
    for f in d["findings"]["items"]:
        out.append(f"  {_severity(d, f['severity']):8}{f['code']}: {f['message']}")
        if f["fix"]:
            out.append(f"  {'':8}" + _t(d, N_("Fix: {fix}"), fix=f["fix"]))
    out += ["", f"{_t(d, 'Power'):<11}{'DC':<10}{_t(d, 'Wall')}"]
    out += [f"  {a:<9}{b:>7}  {c:>8}" for a, b, c in _power_rows(d)]
    out += [_noise_text(d)] if _noise_text(d) else []
    out += ["", _t(d, N_("Key figures: {figures}"), figures="; ".join(f"{a} {b}" for a, b in _key_lines(d)))]
    out += ["", _t(d, N_("Running cost: {cost}"), cost=_cost_text(d))] + ([_tco_text(d)] if _tco_text(d) else [])
    out += [_t(d, N_("Settings: {settings}"), settings=_settings_text(d)), ""]
    if d.get("power_limits"):
        out += [_t(d, N_("Power limits")) + ":"]
        for commands, lines in _limit_blocks(d):
            out += [("    " if commands else "  ") + x for x in lines]
        out.append("")
    if d.get("measured"):
        out += _measured_block(d) + [""]
    out += [_footer(d), ""]
    # Each entry is one line: a carriage return (or any break) in a part's text forges no line.
    return "\n".join(display_text(line) for line in out).encode("utf-8")


# --------------------------------------------------------------------------- HTML

CSS = """
body { font-family: 'DejaVu Sans', 'Segoe UI', Helvetica, Arial, 'Noto Color Emoji', 'Noto Emoji', 'Symbola', 'Segoe UI Emoji', sans-serif; font-size: 9pt; color: #1d2733; }
h1 { font-size: 15pt; color: #0f3d66; margin: 0 0 2pt 0; }
h2 { font-size: 11.5pt; color: #0f3d66; margin-top: 16pt; margin-bottom: 5pt; }
p { margin: 2pt 0; }
.meta { color: #5a6673; font-size: 8pt; }
table { border-collapse: collapse; width: 100%; }
th { background-color: #0f3d66; color: #ffffff; font-weight: bold; text-align: left; padding: 3pt 4pt; font-size: 8pt; }
td { padding: 3pt 4pt; border-bottom: 1px solid #d5dbe2; vertical-align: top; }
tr.odd td { background-color: #f3f6f9; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.total-price { text-align: right; }
th.src { text-align: center; white-space: nowrap; }
td.qty, th.qty { text-align: center; white-space: nowrap; }
td.kind { white-space: nowrap; }
.name { font-weight: bold; }
.sub { color: #5a6673; font-size: 7.5pt; }
pre.commands { font-family: 'DejaVu Sans Mono', monospace; font-size: 7pt; white-space: pre-wrap; margin: 2pt 0; }
.warn { color: #a15c00; font-size: 7.5pt; }
tr.total td { font-weight: bold; border-top: 2px solid #0f3d66; border-bottom: none; background-color: #e4ecf4; }
tr.subtotal td { color: #3c4854; font-size: 8pt; border-bottom: none; }
.sev-error { color: #ffffff; background-color: #b3261e; font-weight: bold; font-size: 7.5pt; padding: 1pt 3pt; }
.sev-warning { color: #1d2733; background-color: #f2b233; font-weight: bold; font-size: 7.5pt; padding: 1pt 3pt; }
code { font-family: 'DejaVu Sans Mono', monospace; font-size: 7.5pt; color: #3c4854; }
.fix { color: #1f6b3a; }
.footer { color: #5a6673; font-size: 7.5pt; margin-top: 12pt; }
img.board { max-width: 100%; }
"""


CJK_FONTS = {"ja": "Noto Sans CJK JP", "zh_CN": "Noto Sans CJK SC"}
"""The face for Japanese and for Simplified Chinese text (Han characters are drawn differently in each:
a Chinese report printed with the Japanese face reads as foreign); the PDF embeds it."""


def css(lang: str) -> str:
    """The style sheet for ``lang``: Japanese and Chinese put their CJK face first (each draws Han
    characters in its own forms; Qt's fallback would pick one face for both). The one ``body``
    rule changes: Qt's rich text ignored a second rule's font family."""
    face = CJK_FONTS.get(lang)
    return CSS.replace("font-family: 'DejaVu Sans',", f"font-family: '{face}', 'DejaVu Sans',", 1) if face else CSS


def to_html(d: dict) -> bytes:
    e = html.escape
    lang = _lang(d)
    t = lambda template, **kw: e(_t(d, template, **kw))  # noqa: E731
    o: list[str] = ["<!DOCTYPE html>", f'<html lang="{lang.replace("_", "-")}"><head><meta charset="utf-8">',
                    f"<title>{t('{title} - parts list', title=d['title'])}</title>",
                    f"<style>{css(lang)}</style></head><body>"]
    o.append(f"<h1>{e(d['title'])}</h1>")
    o.append(f'<p class="meta">{t("Parts list, {date}", date=Day(d["date"]))} &middot; rigbuilder {e(d["program_version"])} '
             f'&middot; {t("catalog {version}", version=d["catalog_version"] or "?")}</p>')
    if d["notes"]:
        o.append(f"<p>{e(d['notes'])}</p>")

    o.append(f"<h2>{t('Parts')}</h2>")
    # Every column's width given: Qt's layout gave the one column without a width only what was
    # left after the unbreakable total, and the names broke every few letters.
    o.append(f'<table width="100%" cellspacing="0" cellpadding="4"><tr><th width="14%">{t("Type")}</th>'
             f'<th class="qty" width="5%" nowrap>{t("Qty")}</th><th width="56%">{t("Item")}</th>'
             f'<th class="num" width="18%">{t("Price")}</th><th class="src" width="7%" align="center" nowrap>&nbsp;&nbsp;{t("Src")}</th></tr>')
    for i, r in enumerate(d["parts"]):
        cls = ' class="odd"' if i % 2 else ""
        extra = []
        if r["figures"]:
            extra.append(f'<br><span class="sub">{e(_part_line(r))}</span>')
        if r["where"]:
            extra.append(f'<br><span class="sub">{e(_where(r))}</span>')
        if _flagged(r):
            extra.append(f'<br><span class="warn">&#9888; {e(_unverified_text(r, lang))}</span>')
        price = e(_m(d, r["price"], r["currency"]))
        if r["quantity"] > 1 and r["unit_price"] is not None:
            price += f'<br><span class="sub">{r["quantity"]} x {e(_m(d, r["unit_price"], r["currency"]))}</span>'
        o.append(f'<tr{cls}><td class="kind">{e(r["kind_label"])}</td><td class="qty">{r["quantity"]}</td>'
                 f'<td><span class="name">{e(r["name"])}</span>{"".join(extra)}</td>'
                 f'<td class="num">{price}</td><td class="num sub">[{i + 1}]</td></tr>')
    for s in d["subtotals"]:
        o.append(f'<tr class="subtotal"><td></td><td></td><td>{t("Subtotal {kind}", kind=s["kind_label"])}</td>'
                 f'<td class="num">{e(_m(d, s["amount"], s["currency"]))}</td><td></td></tr>')
    # the total spans the quantity, item, price and source columns: "at least ... (5 parts without
    # a price)" broke over five lines in the price column
    total = d["purchase"]["label"] if d["totals"] else T("price unknown")
    o.append(f'<tr class="total"><td>{t(N_("Total"))}</td><td colspan="4" class="total-price">'
             f'{t("Purchase (parts): {total}", total=total)}</td></tr>')
    o.append("</table>")
    for line in _total_notes(d):
        o.append(f'<p class="sub">{e(line)}</p>')

    o.append(f"<h2>{t(N_('Findings: {counts}'), counts=_findings_title(d))}</h2>")
    if d["findings"]["items"]:
        o.append('<table width="100%" cellspacing="0" cellpadding="4">')
        for i, f in enumerate(d["findings"]["items"]):
            cls = ' class="odd"' if i % 2 else ""
            o.append(f'<tr{cls}><td width="13%"><span class="sev-{e(f["severity"])}">&nbsp;'
                     f'{e(_severity(d, f["severity"]))}&nbsp;</span></td>'
                     f'<td>{e(f["message"])} <code>{e(f["code"])}</code>'
                     + (f'<br><span class="fix">{t(N_("Fix: {fix}"), fix=f["fix"])}</span>' if f["fix"] else "")
                     + "</td></tr>")
        o.append("</table>")
    else:
        o.append(f"<p>{t(N_('No errors or warnings.'))}</p>")
    if d["findings"]["infos"]:
        o.append('<p class="sub">' + t(N_("{n} informational notes are shown in the app and by {command}."),
                                       n=d["findings"]["infos"], command="\0").replace(
            "\0", "<code>rigbuilder check</code>") + "</p>")

    o.append(f"<h2>{t(N_('Power and running cost'))}</h2>")
    o.append(f'<table width="60%" cellspacing="0" cellpadding="3"><tr><th>{t("State")}</th><th class="num">DC</th>'
             f'<th class="num">{t("Wall")}</th></tr>')
    for i, (a, b, c) in enumerate(_power_rows(d)):
        odd = ' class="odd"' if i % 2 else ""
        o.append(f'<tr{odd}><td>{e(a)}</td><td class="num">{e(b)}</td>'
                 f'<td class="num">{e(c)}</td></tr>')
    o.append("</table>")
    p = d["power"]
    o.append("<p>" + t(N_("PSU rating {rating:.0f} W; estimated GPU transients +{transient:.0f} W above training draw."),
                       rating=p["psu_rating_w"], transient=p["transient_w"]) + "</p>")
    if _noise_text(d):
        o.append(f"<p>{e(_noise_text(d))}</p>")
    o.append(f"<p><b>{t('Running cost:')}</b> {e(_cost_text(d))}</p>")
    if _tco_text(d):
        o.append(f"<p><b>{e(_tco_text(d))}</b></p>")
    o.append(f'<p class="sub">{t(N_("Key figures: {figures}"), figures="; ".join(f"{a} {b}" for a, b in _key_lines(d)))}</p>')
    o.append(f'<p class="sub">{t(N_("Settings: {settings}"), settings=_settings_text(d))}</p>')

    if d.get("board_image"):
        o.append(f"<h2>{t('Board layout')}</h2>")
        o.append(f'<p><img class="board" src="{e(d["board_image"])}" width="640" alt="{t("Board layout")}"></p>')

    if d.get("power_limits"):
        # Compact for print: the verdicts, the commands, then the notes small.
        o.append(f"<h2>{t(N_('Power limits'))}</h2>")
        for i, (commands, lines) in enumerate(_limit_blocks(d)):
            o.append('<pre class="commands">' + e("\n".join(lines)) + "</pre>" if commands else
                     "".join(f'<p class="sub">{e(x)}</p>' if i else f"<p>{e(x)}</p>" for x in lines))

    if d.get("measured"):
        m = d["measured"]
        o.append(f"<h2>{e(m['title'])}</h2>")
        if m["lines"]:
            o.append('<pre class="commands">' + e("\n".join(m["lines"])) + "</pre>")
        o += [f'<p class="sub">{e(x)}</p>' for x in m["calibration"]]

    o.append(f"<h2>{t(N_('Sources'))}</h2>")
    o.append('<table width="100%" cellspacing="0" cellpadding="2">')
    for i, r in enumerate(d["parts"], 1):
        mark = "warn" if _flagged(r) else "sub"
        o.append(f'<tr><td class="num sub" width="5%">[{i}]</td><td class="sub"><b>{e(r["name"])}</b>: '
                 f'{e(_source_text(r))} <span class="{mark}">({e(_unverified_text(r, lang))})</span>'
                 f'<br>{e(_price_source(r, lang))}</td></tr>')
    o.append("</table>")
    o.append(f'<p class="footer">{e(_footer(d))}</p>')
    o.append("</body></html>")
    return "\n".join(o).encode("utf-8")


EXPORTERS: dict[str, Callable[[dict], bytes]] = {
    "md": to_markdown, "csv": to_csv, "txt": to_text, "html": to_html,
}
"""Format name -> exporter (PDF is made from the HTML by ``rigbuilder.render.pdf``)."""
