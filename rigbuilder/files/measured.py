"""Plan against measurement: a power log's idle and loaded stretches per card, matched to a
build's GPUs and compared with what the power model planned; the per-card-model calibration
factors that measurements give (docs/telemetry.md).

Plain Python: it takes a ``PowerLog`` (rigbuilder.files.telemetry) and the build's resolved
GPUs; storing the result is the user database's job (rigbuilder.catalog.measurements), turning
stored results into calibration factors the domain's (rigbuilder.domain.calibration).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

from rigbuilder.domain.i18n import T, nT
from rigbuilder.files.telemetry import SLOWDOWNS, CardLog, PowerLog, Sample
from rigbuilder.models import power as power_model

MIN_STRETCH_S = 2.0
"""A stretch of idle or load counts when it lasts at least this long (or 5 samples without times)."""
MIN_STRETCH_SAMPLES = 5
MIN_SWING_W = 20.0
"""Below this difference between the lowest and highest readings the log holds one state only."""
LOAD_FRACTION = 0.6
IDLE_FRACTION = 0.15
"""Loaded: above 60 % of the way from the log's low to its high reading; idle: below 15 %."""
BUSY_UTIL = 50.0
IDLE_UTIL = 5.0
MAX_GAP_S = 5.0
"""Energy is not counted across a gap in the log longer than this (or ten sampling intervals)."""
SLOWDOWN_SHARE = 0.05
"""A card held back by a thermal or hardware slowdown for more than 5 % of its loaded time does
not calibrate (its load figure is below what it would draw)."""


@dataclass(frozen=True)
class Stretch:
    start: Optional[float]
    end: Optional[float]
    first_line: int
    last_line: int
    samples: int


@dataclass(frozen=True)
class CardSummary:
    index: int
    name: str
    samples: int
    idle_w: Optional[float]
    load_w: Optional[float]
    max_w: Optional[float]
    limit_w: Optional[float]  # the power limit in force while loaded (the log's power.limit)
    reasons: tuple[str, ...]  # throttle reasons seen while loaded (gpu_idle left out)
    slowdown_share: float  # share of loaded samples with a thermal or hardware slowdown
    energy_wh: Optional[float]
    duration_s: Optional[float]
    temp_max_c: Optional[float]
    idle: Optional[Stretch]
    load: Optional[Stretch]

    @property
    def throttled(self) -> bool:
        return self.slowdown_share > SLOWDOWN_SHARE


def _runs(samples: Sequence[Sample], keep: Sequence[bool]) -> list[list[Sample]]:
    out: list[list[Sample]] = []
    cur: list[Sample] = []
    for s, k in zip(samples, keep):
        if k:
            cur.append(s)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return [r for r in out if _long_enough(r)]


def _long_enough(run: Sequence[Sample]) -> bool:
    if run[0].time is not None and run[-1].time is not None:
        return run[-1].time - run[0].time >= MIN_STRETCH_S and len(run) >= 2
    return len(run) >= MIN_STRETCH_SAMPLES


def _stretch(runs: list[list[Sample]]) -> Optional[Stretch]:
    if not runs:
        return None
    r = max(runs, key=len)
    return Stretch(r[0].time, r[-1].time, r[0].line, r[-1].line, sum(len(x) for x in runs))


def _energy(samples: Sequence[Sample]) -> tuple[Optional[float], Optional[float]]:
    """(watt-hours, seconds) over the log: trapezoids between readings, no gap longer than MAX_GAP_S."""
    pts = [(s.time, s.power_w) for s in samples if s.time is not None and s.power_w is not None]
    if len(pts) < 2:
        return None, None
    steps = [b[0] - a[0] for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
    if not steps:
        return None, None
    gap = max(MAX_GAP_S, 10 * statistics.median(steps))
    joules = secs = 0.0
    for (t0, p0), (t1, p1) in zip(pts, pts[1:]):
        dt = t1 - t0
        if 0 < dt <= gap:
            joules += dt * (p0 + p1) / 2
            secs += dt
    return joules / 3600, secs


def summarise(card: CardLog) -> CardSummary:
    ss = [s for s in card.samples if s.power_w is not None]
    powers = sorted(s.power_w for s in ss)  # type: ignore[misc]
    if not powers:
        return CardSummary(card.index, card.name, len(card.samples), None, None, None, None, (), 0.0,
                           None, None, None, None, None)
    lo = powers[int(0.05 * (len(powers) - 1))]
    hi = powers[int(0.95 * (len(powers) - 1))]
    has_util = any(s.util_pct is not None for s in ss)
    if hi - lo < MIN_SWING_W:  # one state: busy or idle by the utilisation, else by the draw
        busy = (statistics.median(s.util_pct for s in ss if s.util_pct is not None) >= BUSY_UTIL if has_util
                else False)
        load_keep = [busy] * len(ss)
        idle_keep = [not busy] * len(ss)
    else:
        lt = lo + LOAD_FRACTION * (hi - lo)
        it = lo + IDLE_FRACTION * (hi - lo)
        load_keep = [s.power_w >= lt and (s.util_pct is None or s.util_pct >= BUSY_UTIL) for s in ss]  # type: ignore[operator]
        idle_keep = [s.power_w <= it and (s.util_pct is None or s.util_pct <= IDLE_UTIL) for s in ss]  # type: ignore[operator]
    load_runs = _runs(ss, load_keep)
    idle_runs = _runs(ss, idle_keep)
    loaded = [s for r in load_runs for s in r]
    idled = [s for r in idle_runs for s in r]
    limits = [s.limit_w for s in (loaded or ss) if s.limit_w is not None]
    reasons = sorted({r for s in loaded for r in s.reasons if r != "gpu_idle"})
    slow = sum(1 for s in loaded if s.reasons & SLOWDOWNS) / len(loaded) if loaded else 0.0
    temps = [s.temp_c for s in card.samples if s.temp_c is not None]
    energy, secs = _energy(card.samples)
    return CardSummary(
        card.index, card.name, len(card.samples),
        round(statistics.median(s.power_w for s in idled), 2) if idled else None,  # type: ignore[type-var]
        round(statistics.fmean(s.power_w for s in loaded), 2) if loaded else None,  # type: ignore[arg-type]
        max(powers), statistics.mode(limits) if limits else None, tuple(reasons), round(slow, 4),
        None if energy is None else round(energy, 4), secs, max(temps) if temps else None,
        _stretch(idle_runs), _stretch(load_runs))


# --------------------------------------------------------------------------- matching to a build

class MatchError(ValueError):
    """The log's cards cannot be matched to the build's GPUs; the message (a ``T``) says why and
    what to do (``choices`` lists the build GPU numbers that need a card where it is ambiguous)."""

    def __init__(self, message: T, ambiguous: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.ambiguous = tuple(ambiguous)


def _compact(s: str) -> str:
    return "".join(ch for ch in s.lower() if ch.isalnum())


def name_fits(log_name: str, gpu) -> bool:
    """Whether nvidia-smi's name for a card ('NVIDIA GeForce RTX 3090', 'NVIDIA A100-PCIE-40GB',
    'NVIDIA TITAN X (Pascal)') is the catalog card's chip model ('GeForce RTX 3090', 'A100 PCIe 40 GB',
    'TITAN X Pascal'). What the log leaves out may only be a memory size or the bus ('12 GB', 'PCIe');
    a 'Ti' or 'SUPER' more or less is another card."""
    import re

    name = _compact(log_name)
    for prefix in ("nvidia", "amd"):
        if name.startswith(prefix):
            name = name[len(prefix):]
    model = _compact(getattr(gpu, "chip_model", "") or "")
    if not name or not model:
        return False
    if name == model:
        return True
    if model.startswith(name):
        return re.fullmatch(r"(\d+gb)?(pcie|sxm\d?)?(\d+gb)?", model[len(name):]) is not None
    if name.startswith(model):
        return re.fullmatch(r"(pcie|sxm\d?)?(\d+gb)?", name[len(model):]) is not None
    return False


def match(log: PowerLog, gpus: Sequence, mapping: Optional[Mapping[int, int]] = None) -> list[tuple[object, CardLog]]:
    """(placed GPU, the log's card) pairs. ``gpus``: the build's placed GPUs (``num``, ``gpu``,
    ``placement``); ``mapping``: build GPU number -> log card index, where the user said."""
    cards = {c.index: c for c in log.cards}
    where = log.source
    if mapping:
        out = []
        for g in gpus:
            if g.num not in mapping:
                continue
            idx = mapping[g.num]
            if idx not in cards:
                raise MatchError(T("{path}: the log has no card {index} (its cards: {cards})", path=where, index=idx,
                                   cards=", ".join(str(i) for i in cards)))
            c = cards[idx]
            if c.name and not name_fits(c.name, g.gpu):
                raise MatchError(T("{path} line {line}: card {index} is {name!r}, not GPU {num} of the build ({model})",
                                   path=where, line=c.first_line, index=idx, name=c.name[:60], num=g.num,
                                   model=g.gpu.chip_model or g.gpu.name))
            out.append((g, c))
        if len({c.index for _, c in out}) != len(out):
            raise MatchError(T("{path}: two build GPUs given the same card of the log", path=where))
        if not out:
            raise MatchError(T("{path}: the card map names none of the build's GPUs", path=where))
        return out
    if not gpus:
        raise MatchError(T("{path}: the build has no GPUs to compare with", path=where))
    order = list(log.cards)
    for c in order:
        if c.name and not any(name_fits(c.name, g.gpu) for g in gpus):
            models = ", ".join(dict.fromkeys(g.gpu.chip_model or g.gpu.name for g in gpus))
            raise MatchError(T("{path} line {line}: card {index} is {name!r}, and the build has no such GPU (its GPUs: "
                               "{models}); a log of another machine?", path=where, line=c.first_line, index=c.index,
                               name=c.name[:60], models=models))
    if len(order) != len(gpus):
        raise MatchError(T("{path}: the log has {cards}, the build {gpus}; say which card is which GPU "
                           "(on the command line: --map 1=0,2=1, build GPU = log card index)", path=where,
                           cards=nT("{n} card", "{n} cards", len(order)), gpus=nT("{n} GPU", "{n} GPUs", len(gpus))),
                         [g.num for g in gpus])
    if not log.named:
        pairs = list(zip(gpus, order))
    else:  # the k-th build GPU of a model takes the k-th card of that model in the log
        pairs = []
        used: set[int] = set()
        for g in gpus:
            c = next((c for c in order if c.index not in used and name_fits(c.name, g.gpu)), None)
            if c is None:
                raise MatchError(T("{path}: no card of the log is left for GPU {num} ({model})", path=where,
                                   num=g.num, model=g.gpu.chip_model or g.gpu.name), [g.num for g in gpus])
            used.add(c.index)
            pairs.append((g, c))
    # Ambiguous: cards of one model planned differently (another power limit) -- the log cannot tell
    # which is which (nvidia-smi numbers cards by bus, not by where they sit).
    by_model: dict[str, set] = {}
    for g, _ in pairs:
        by_model.setdefault(g.gpu.id, set()).add(g.placement.power_limit_w)
    amb = [g.num for g, _ in pairs if len(by_model[g.gpu.id]) > 1]
    if amb:
        raise MatchError(T("{path}: GPUs {nums} are the same card with different power limits, and the log cannot "
                           "tell which is which; say which card is which GPU (on the command line: --map 1=0,2=1, "
                           "build GPU = log card index)", path=where, nums=", ".join(map(str, amb))), amb)
    return pairs


# --------------------------------------------------------------------------- comparing

@dataclass(frozen=True)
class CardComparison:
    num: int  # the build's GPU number
    part_id: str
    gpu_name: str  # the catalog's name
    summary: CardSummary
    planned_idle_w: float
    planned_load_w: float
    planned_limit_w: Optional[float]  # the build's limit for the card (None: none set)

    @property
    def load_ratio(self) -> Optional[float]:
        s = self.summary.load_w
        return None if s is None or not self.planned_load_w else s / self.planned_load_w

    @property
    def calibrates(self) -> bool:
        """Whether this card's figure feeds its model's calibration (a loaded stretch, no slowdown)."""
        return self.load_ratio is not None and not self.summary.throttled


@dataclass(frozen=True)
class Comparison:
    log: PowerLog
    cards: tuple[CardComparison, ...]
    notes: tuple[T, ...]

    def total(self, what: str) -> Optional[float]:
        """The machine's GPUs together: 'idle', 'load', 'planned_idle', 'planned_load', 'energy'
        (None when a card lacks the figure)."""
        get = {"idle": lambda c: c.summary.idle_w, "load": lambda c: c.summary.load_w,
               "planned_idle": lambda c: c.planned_idle_w, "planned_load": lambda c: c.planned_load_w,
               "energy": lambda c: c.summary.energy_wh}[what]
        vals = [get(c) for c in self.cards]
        return None if not vals or any(v is None for v in vals) else round(sum(vals), 2)  # type: ignore[arg-type]


def planned(g) -> tuple[float, float]:
    """(idle, load) watts the power model plans for a placed GPU, without calibration."""
    w = power_model.gpu_power(g.gpu, g.placement.power_limit_w)
    return w["idle"], w["training"]


def compare(log: PowerLog, gpus: Sequence, mapping: Optional[Mapping[int, int]] = None) -> Comparison:
    pairs = match(log, gpus, mapping)
    notes = list(log.notes)
    out = []
    for g, c in pairs:
        s = summarise(c)
        idle, load = planned(g)
        out.append(CardComparison(g.num, g.gpu.id, g.gpu.name, s, idle, load, g.placement.power_limit_w))
        if s.load_w is None:
            notes.append(T("GPU {num}: no loaded stretch in the log (run a training job while recording)", num=g.num))
        if s.idle_w is None:
            notes.append(T("GPU {num}: no idle stretch in the log (record a minute before the job starts)", num=g.num))
        if s.throttled:
            notes.append(T("GPU {num} slowed down ({reasons}) for {share:.0%} of its loaded time: its loaded figure "
                           "is below what it would draw, and it does not calibrate", num=g.num,
                           reasons=", ".join(r for r in s.reasons if r in SLOWDOWNS), share=s.slowdown_share))
    return Comparison(log, tuple(out), tuple(notes))


def percent(measured: Optional[float], plan: Optional[float]) -> Optional[float]:
    """How far the measurement is from the plan, in per cent of the plan (None without both)."""
    if measured is None or not plan:
        return None
    return 100.0 * (measured - plan) / plan


# --------------------------------------------------------------------------- stored and shown

def stored_cards(cmp: Comparison) -> list:
    """The comparison's cards as the user database keeps them."""
    from rigbuilder.catalog.measurements import StoredCard

    out = []
    for c in cmp.cards:
        s = c.summary
        out.append(StoredCard(c.num, c.part_id, s.index, s.name, s.samples, s.idle_w, s.load_w, s.max_w, s.limit_w,
                              c.planned_idle_w, c.planned_load_w, c.planned_limit_w, s.reasons, s.slowdown_share,
                              s.energy_wh, s.duration_s, s.temp_max_c, c.calibrates))
    return out


def _r(v: Optional[float], digits: int = 1) -> Optional[float]:
    return None if v is None else round(v, digits)


def log_json(log, names: Mapping[str, str]) -> dict:
    """A stored log (rigbuilder.catalog.measurements.StoredLog) as plain data: per card and for the
    machine (its GPUs together), measured against planned at idle and load, the difference in per
    cent, the limit in force, throttle reasons and energy. ``names``: part id -> the catalog's name."""
    cards = []
    for c in log.cards:
        cards.append({
            "gpu": c.gpu_num, "part_id": c.part_id, "name": names.get(c.part_id, c.part_id),
            "log_index": c.card_index, "log_name": c.card_name, "samples": c.samples,
            "idle_w": _r(c.idle_w), "planned_idle_w": _r(c.planned_idle_w),
            "idle_diff_pct": _r(percent(c.idle_w, c.planned_idle_w)),
            "load_w": _r(c.load_w), "planned_load_w": _r(c.planned_load_w),
            "load_diff_pct": _r(percent(c.load_w, c.planned_load_w)),
            "max_w": _r(c.max_w), "limit_w": _r(c.limit_w), "planned_limit_w": _r(c.planned_limit_w),
            "throttle_reasons": list(c.reasons), "slowdown_share": round(c.slowdown_share, 3),
            "throttled": c.slowdown_share > SLOWDOWN_SHARE,
            "energy_wh": _r(c.energy_wh, 3), "duration_s": _r(c.duration_s), "temp_max_c": c.temp_max_c,
            "calibrates": c.calibrates,
        })

    def total(key: str) -> Optional[float]:
        vals = [x[key] for x in cards]
        return None if not vals or any(v is None for v in vals) else round(sum(vals), 1)

    machine = {k: total(k) for k in ("idle_w", "planned_idle_w", "load_w", "planned_load_w", "energy_wh")}
    machine["idle_diff_pct"] = _r(percent(machine["idle_w"], machine["planned_idle_w"]))
    machine["load_diff_pct"] = _r(percent(machine["load_w"], machine["planned_load_w"]))
    return {"id": log.id, "source": log.source, "kind": log.kind, "started": log.started, "ended": log.ended,
            "imported": log.imported, "date": log.date, "cards": cards, "machine": machine}


def log_notes(d: dict) -> list[T]:
    """What a reader must know of a stored log's figures (from ``log_json``)."""
    out: list[T] = []
    for c in d["cards"]:
        if c["load_w"] is None:
            out.append(T("GPU {num}: no loaded stretch in the log (run a training job while recording)", num=c["gpu"]))
        if c["idle_w"] is None:
            out.append(T("GPU {num}: no idle stretch in the log (record a minute before the job starts)", num=c["gpu"]))
        if c["throttled"]:
            out.append(T("GPU {num} slowed down ({reasons}) for {share:.0%} of its loaded time: its loaded figure "
                         "is below what it would draw, and it does not calibrate", num=c["gpu"],
                         reasons=", ".join(r for r in c["throttle_reasons"] if r in SLOWDOWNS),
                         share=c["slowdown_share"]))
    return out


def table_lines(d: dict, lang: str = "en") -> list[str]:
    """The comparison as text lines (the command line's ``measured show`` and the text report)."""
    from rigbuilder.domain.i18n import format_value, render, tr

    def w(v: Optional[float]) -> str:
        return "-" if v is None else format_value(v, ".0f", lang)

    def pct(v: Optional[float]) -> str:
        return "" if v is None else ("+" if v > 0 else "") + format_value(v / 100, ".0%", lang)

    gpu, idle_h, load_h = tr("GPU", lang), tr("idle: measured/plan", lang), tr("load: measured/plan", lang)
    limit_h, energy_h = tr("limit", lang), tr("energy", lang)
    head = f"{gpu:<8} {idle_h:>20} {load_h:>24}  {limit_h:<10} {energy_h}"
    out = [head]
    for c in d["cards"] + [dict(d["machine"], gpu=None, limit_w=None, throttle_reasons=[])]:
        idle = f"{w(c['idle_w'])}/{w(c['planned_idle_w'])} W {pct(c['idle_diff_pct'])}"
        load = f"{w(c['load_w'])}/{w(c['planned_load_w'])} W {pct(c['load_diff_pct'])}"
        limit = "" if c["limit_w"] is None else f"{w(c['limit_w'])} W"
        energy = "-" if c["energy_wh"] is None else f"{format_value(c['energy_wh'], '.2f', lang)} Wh"
        who = str(c["gpu"]) if c["gpu"] is not None else tr("All GPUs", lang)
        line = f"{who:<8} {idle:>20} {load:>24}  {limit:<10} {energy}"
        if c["throttle_reasons"]:
            line += "  " + tr("throttle: {reasons}", lang, reasons=", ".join(c["throttle_reasons"]))
        out.append(line)
    out += ["  " + render(n, lang) for n in log_notes(d)]
    return out


def read_and_compare(index, build, log_path, mapping: Optional[Mapping[int, int]] = None,
                     cards: Optional[int] = None) -> Comparison:
    """Read the log at ``log_path`` and compare it with ``build`` (nothing stored; safe to run
    off the window's thread). TelemetryError or MatchError when it cannot be read or matched."""
    from pathlib import Path

    from rigbuilder.files.telemetry import read_log
    from rigbuilder.rules.context import Context

    ctx = Context(build, index)
    return compare(read_log(Path(log_path), cards or len(ctx.gpus) or None), ctx.gpus, mapping)


def keep(cat, build, build_path, cmp: Comparison) -> int:
    """Store a comparison in the user's data, filed under the build file at ``build_path``, and
    read the calibration again; returns the stored log's id (UserDatabaseError: nothing stored)."""
    from pathlib import Path

    from rigbuilder.catalog.measurements import build_key, store_log

    log = cmp.log
    started = log.started.isoformat(timespec="seconds") if log.started else ""
    ended = log.ended.isoformat(timespec="seconds") if log.ended else ""
    log_id = store_log(cat.user_engine, build_key=build_key(Path(build_path)), build_name=build.name,
                       source=log.source, kind=log.kind, started=started, ended=ended,
                       notes=[str(n) for n in cmp.notes], cards=stored_cards(cmp))
    cat.apply_calibration()
    return log_id


def import_log(cat, build, build_path, log_path, mapping: Optional[Mapping[int, int]] = None,
               cards: Optional[int] = None) -> tuple[int, Comparison]:
    """Read the log at ``log_path``, compare it with ``build`` (saved at ``build_path``) and keep it
    in the user's data; returns (the stored log's id, the comparison). TelemetryError or
    MatchError (nothing stored) when the log cannot be read or matched; UserDatabaseError when it
    cannot be stored (nothing half-written)."""
    cmp = read_and_compare(cat.index, build, log_path, mapping, cards)
    return keep(cat, build, build_path, cmp), cmp
