"""How loud a build is: each noise source's level at idle, training and peak at one distance, and
the sum.

Every level is an A-weighted sound pressure level in dB(A) at ``DISTANCE_M`` (1 m). A part's own
published measurement is used where the data has one (resources/noise); otherwise the part's class
(GPU cooler type by board power, PSU by its Cybenetics noise class, CPU cooler and case fans by
the makers' rated figures). Each figure carries its source and a band (± dB) that says how sure it
is; a measured figure's band is narrow, a class estimate's is the scatter of the measurements
around the class fit. Sources: docs/models.md ("Noise").

Relations used (cited in docs/models.md):
- levels at another distance: inverse square law, ``L2 = L1 + 20·log10(d1/d2)``, in a free field
  far from the source; a card's figure measured nearer than 1 m (30 cm in a closed case) falls off
  at half that rate to 1 m (``NEAR_FIELD_DB_PER_DECADE``, from the reviews that measure at 1 m);
- a power limit: the fan has to move air in proportion to the heat at the same temperature rise,
  so its speed scales with the power, and by the fan law a fan's sound level changes by
  ``50·log10(speed ratio)``;
- sources add as powers: ``10·log10(Σ 10^(L/10))``.
"""
from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional, Sequence

from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import GPU, PSU, Case, Cooler

STATES = ("idle", "training", "peak")
DISTANCE_M = 1.0
"""Every level is given at this distance from the machine."""
FAN_LAW_DB = 50.0
"""dB per decade of fan speed (fan law: sound power ~ speed^5)."""
MIN_LIMIT_FRACTION = 0.3
"""The fan-law relation is applied down to this share of board power; lower limits are taken as this."""
MEASURED_BAND_DB = 2.0
"""The band of a card's own measured figure: sample-to-sample and meter differences (two sites'
figures for the GTX 1080 Founders Edition at the same distance differ by 0.1 dB; a class-1 meter's
tolerance is about ±1 dB)."""
NEAR_FIELD_DB_PER_DECADE = 10.0
"""How a card's level measured nearer than 1 m falls off to 1 m: 10 dB per decade of distance, half
the free field's inverse square law. A 27 cm card measured at 30 cm (in a closed case, at most review
sites) is no point source, and the room adds its reverberant field at 1 m. Chosen on the eight cards
TechPowerUp measured at 1 m (their class estimate was 5.4 dB low on average by the inverse square law,
0.2 dB by this), and checked on one card measured both ways: AMD's reference RX 6700 XT, Hardwareluxx
38.2 dB(A) at about 30 cm and TechPowerUp 35.2 at 1 m, a 3.0 dB fall (this relation 5.2, the inverse
square law 10.5)."""
UNSTATED_DISTANCE_DB = 3.0
"""Added to the band where the measuring site does not state its distance (the distance assumed
is named in resources/noise/gpus.json)."""
CYBENETICS_CLASSES: dict[str, tuple[float, float]] = {
    "A++": (0.0, 15.0), "A+": (15.0, 20.0), "A": (20.0, 25.0), "A-": (25.0, 30.0),
    "Standard++": (30.0, 35.0), "Standard+": (35.0, 40.0), "Standard": (40.0, 45.0),
}
"""Cybenetics LAMBDA noise classes (average noise over the PSU's load range), in dB(A)."""
CASE_FANS = 3
"""Case fans assumed where the build does not say (the power model's 'Case fans' row)."""
A_PLUS_PLUS_FLOOR = 10.0
"""The level taken for an A++ PSU ('under 15 dB(A)'): the class's upper half."""


def db_sum(levels: Iterable[Optional[float]]) -> Optional[float]:
    """Levels added as sound powers; None (silent) adds nothing; None if all are silent."""
    p = sum(10 ** (v / 10) for v in levels if v is not None)
    return 10 * math.log10(p) if p > 0 else None


def at_distance(level: float, from_m: float, to_m: float = DISTANCE_M) -> float:
    """A level measured at ``from_m`` brought to ``to_m`` (inverse square law, free field)."""
    return level + 20 * math.log10(from_m / to_m)


def card_at_distance(level: float, from_m: float, to_m: float = DISTANCE_M) -> float:
    """A card's level measured at ``from_m`` brought to ``to_m``: ``NEAR_FIELD_DB_PER_DECADE`` per
    decade of distance where it was measured nearer than 1 m, the inverse square law beyond."""
    near = min(max(from_m, 1e-3), 1.0), min(max(to_m, 1e-3), 1.0)
    level += NEAR_FIELD_DB_PER_DECADE * math.log10(near[0] / near[1])
    return at_distance(level, max(from_m, 1.0), max(to_m, 1.0))


def limit_change_db(fraction: float) -> float:
    """The change in a card's fan level when its power is limited to ``fraction`` of board power
    (fan speed in proportion to the heat; fan law). Never positive."""
    f = min(1.0, max(MIN_LIMIT_FRACTION, fraction))
    return FAN_LAW_DB * math.log10(f)


@dataclass(frozen=True)
class Figure:
    """One level: dB(A) at ``DISTANCE_M`` (None: silent, the fans stand still), its band (± dB),
    whether it is the part's own measurement, and where it comes from."""

    db: Optional[float]
    band: float
    measured: bool
    source: str

    @property
    def low(self) -> Optional[float]:
        return None if self.db is None else self.db - self.band

    @property
    def high(self) -> Optional[float]:
        return None if self.db is None else self.db + self.band


@dataclass(frozen=True)
class NoiseSource:
    label: str
    kind: str  # "gpu", "psu", "cooler", "case-fans"
    figures: dict  # state -> Figure
    part: Optional[str] = None
    gpu: Optional[int] = None  # the GPU's number as the user sees it ("GPU 2")


@dataclass(frozen=True)
class NoiseReport:
    sources: tuple[NoiseSource, ...]
    total: dict  # state -> Figure
    distance_m: float = DISTANCE_M

    def loudest(self, state: str) -> Optional[NoiseSource]:
        """The loudest source at ``state``, like compared with like: the case fans are one source of
        three fans, so the GPUs are compared together too (four blowers at 31 dB each are 37 dB, louder
        than three case fans at 32), and so are the PSUs; a group of one is that source itself."""
        groups: dict[str, list[NoiseSource]] = {}
        for s in self.sources:
            if s.figures[state].db is not None:
                groups.setdefault(s.kind if s.kind in GROUPED_KINDS else f"{s.kind}:{id(s)}", []).append(s)
        if not groups:
            return None
        best = max(groups.values(), key=lambda g: db_sum(x.figures[state].db for x in g))
        return best[0] if len(best) == 1 else _group(best)

    def measured_share(self, state: str) -> float:
        """The share of the sound power at ``state`` that comes from measured figures (0..1)."""
        figs = [s.figures[state] for s in self.sources if s.figures[state].db is not None]
        tot = sum(10 ** (f.db / 10) for f in figs)
        return sum(10 ** (f.db / 10) for f in figs if f.measured) / tot if tot else 1.0

    def level(self, state: str) -> Optional[float]:
        return self.total[state].db


GROUPED_KINDS = ("gpu", "psu")
"""Sources of these kinds are compared together when the loudest source is named."""


def _group(sources: Sequence[NoiseSource]) -> NoiseSource:
    """Several sources of one kind as one (their figures summed), labelled by their numbers or names."""
    figs = {st: _total(sources, st) for st in STATES}
    names = {s.label.split(": ", 1)[-1] for s in sources}
    nums = [s.gpu for s in sources if s.gpu is not None]
    if sources[0].kind == "gpu" and len(nums) == len(sources):
        label = (T("GPUs {nums}: {name}", nums=", ".join(map(str, nums)), name=names.pop()) if len(names) == 1
                 else T("GPUs {nums} together", nums=", ".join(map(str, nums))))
    else:
        label = T("{n} PSUs together", n=len(sources))
    return NoiseSource(label, sources[0].kind, figs)


# -- the data -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClassFit:
    """Load level at 1 m of a cooler class: ``a + b·log10(P / 250 W)``, with its band."""

    a: float
    b: float
    band: float
    rows: int

    def at(self, power_w: float) -> float:
        return self.a + self.b * math.log10(max(power_w, 1.0) / 250.0)


@dataclass(frozen=True)
class NoiseData:
    cards: tuple[dict, ...]
    sites: dict
    psus: dict  # part id -> row
    fans: dict
    coolers: dict  # part id -> row
    fits: dict = field(default_factory=dict)  # cooler class -> ClassFit
    idle_fits: dict = field(default_factory=dict)  # cooler class -> (db or None, band, fan-stop share)

    def card_level(self, row: dict, key: str) -> tuple[float, float]:
        """A card row's ``key`` level brought to 1 m, and its band. The row's own distance (where
        its page states one) comes before its site's."""
        site = self.sites.get(row["site"], {})
        stated = row.get("distance_stated", site.get("distance_stated"))
        band = MEASURED_BAND_DB + (0.0 if stated else UNSTATED_DISTANCE_DB)
        return card_at_distance(row[key], row.get("distance_m", site.get("distance_m", DISTANCE_M))), band


def fit_classes(points: dict) -> dict:
    """Least squares of level on log10(power/250 W) with one slope shared by every cooler class and
    an offset per class (``points``: class -> [(power W, dB at 1 m)]). A class's band is twice the
    RMS of its residuals, at least twice the pooled RMS where it has fewer than 4 cards, and at
    least 3 dB."""
    cls_mean = {c: (sum(math.log10(p / 250.0) for p, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
                for c, pts in points.items() if pts}
    sxy = sxx = 0.0
    for c, pts in points.items():
        mx, my = cls_mean[c]
        for p, y in pts:
            x = math.log10(p / 250.0)
            sxx += (x - mx) ** 2
            sxy += (x - mx) * (y - my)
    b = sxy / sxx if sxx > 0.01 else 0.0
    res: dict[str, list[float]] = {}
    for c, pts in points.items():
        mx, my = cls_mean[c]
        res[c] = [y - (my - b * mx + b * math.log10(p / 250.0)) for p, y in pts]
    allres = [r for rs in res.values() for r in rs]
    pooled = math.sqrt(sum(r * r for r in allres) / len(allres)) if allres else 3.0
    out = {}
    for c, pts in points.items():
        mx, my = cls_mean[c]
        rms = math.sqrt(sum(r * r for r in res[c]) / len(res[c]))
        band = max(3.0, 2 * rms, 2 * pooled if len(pts) < 4 else 0.0)
        out[c] = ClassFit(my - b * mx, b, band, len(pts))
    return out


def build_data(gpus: dict, psus: list, fans: dict) -> NoiseData:
    cards = tuple(gpus["cards"])
    data = NoiseData(cards, gpus["sites"], {pid: r for r in psus for pid in r["parts"]}, fans,
                     {pid: r for r in fans.get("coolers", ()) for pid in r["parts"]})
    by_class: dict[str, list] = {}
    idle: dict[str, list] = {}
    for r in cards:
        if r.get("held_out"):
            continue
        lvl, _ = data.card_level(r, "load_db")
        by_class.setdefault(r["cooler"], []).append((r["power_w"], lvl))
        idle.setdefault(r["cooler"], []).append(r)
    data.fits.update(fit_classes(by_class))
    for cls, rows in idle.items():
        stop = sum(1 for r in rows if r.get("idle_fan_stop")) / len(rows)
        heard = [data.card_level(r, "idle_db")[0] for r in rows if r.get("idle_db") is not None]
        db = statistics.median(heard) if heard else None
        data.idle_fits[cls] = (db, 6.0 if len(heard) < 3 else 3.0, stop)
    return data


@lru_cache(maxsize=4)
def load_data(directory: Optional[str] = None) -> NoiseData:
    """The shipped noise data (resources/noise), read once."""
    if directory is None:
        from rigbuilder.catalog.loader import resources_dir

        base = resources_dir() / "noise"
    else:
        base = Path(directory)
    read = lambda name: json.loads((base / name).read_text(encoding="utf-8"))  # noqa: E731
    return build_data(read("gpus.json"), read("psus.json"), read("fans.json"))


# -- each source ----------------------------------------------------------------------------------
def _measured_row(data: NoiseData, gpu: GPU) -> Optional[dict]:
    """The card's own measurement used by the model (the first non-held-out row naming its id)."""
    rows = [r for r in data.cards if gpu.id in r["parts"] and not r.get("held_out")]
    return rows[0] if rows else None


def gpu_figures(data: NoiseData, gpu: GPU, limit_w: Optional[float]) -> dict:
    """Idle, training and peak levels of one card at 1 m."""
    power = gpu.board_power_w or 250.0
    frac = min(limit_w, power) / power if limit_w else 1.0
    drop = limit_change_db(frac)
    lim = T(" (power limit {pct:.0%}: {drop:+.1f} dB by the fan law)", pct=frac, drop=drop) if frac < 1 else ""
    if gpu.cooler in ("passive", "water-block"):
        why = (T("no fan on the card (cooled by the chassis' fans; not counted here)") if gpu.cooler == "passive"
               else T("no fan on the card (its radiator's fans count as case fans)"))
        f = Figure(None, 0.0, False, why)
        return {s: f for s in STATES}
    row = _measured_row(data, gpu)
    if row is not None:
        load, band = data.card_level(row, "load_db")
        src = T("measured: {source}", source=row["source"])
        if row.get("idle_db") is not None:
            i_db, i_band = data.card_level(row, "idle_db")
            idle = Figure(i_db, i_band, True, src)
        elif row.get("idle_fan_stop"):
            idle = Figure(None, 0.0, True, T("fans stop at idle ({source})", source=row["source"]))
        else:
            idle = _idle_estimate(data, gpu.cooler)
        train = Figure(load + drop, band + (abs(drop) * 0.25 if drop else 0.0), drop == 0, src + lim)
        return {"idle": idle, "training": train, "peak": train}
    cls = "open-air" if gpu.cooler == "hybrid" else gpu.cooler
    fit = data.fits.get(cls) or data.fits.get("open-air")
    base = fit.at(power)
    band = fit.band * (2 if gpu.cooler == "hybrid" else 1)
    how = (T("estimate: {cls} cards by board power ({n} measured cards)", cls=gpu.cooler, n=fit.rows)
           if gpu.cooler != "hybrid" else
           T("estimate: no measured hybrid card; taken as an open-air card of its power, band doubled"))
    train = Figure(base + drop, band, False, how + lim)
    return {"idle": _idle_estimate(data, cls), "training": train, "peak": train}


def _idle_estimate(data: NoiseData, cls: str) -> Figure:
    db, band, stop = data.idle_fits.get(cls, (None, 6.0, 0.0))
    if stop >= 0.5 or db is None:
        return Figure(None, 0.0, False, T("estimate: fans stop at idle ({share:.0%} of measured {cls} cards)",
                                                  share=stop, cls=cls))
    return Figure(db, band, False, T("estimate: idle level of measured {cls} cards", cls=cls))


def psu_figures(data: NoiseData, psu: PSU, load_fraction: dict) -> dict:
    row = data.psus.get(psu.id)
    if row is not None and row.get("fanless"):
        f = Figure(None, 0.0, True, T("fanless ({source})", source=row["source"]))
        return {s: f for s in STATES}
    if row is not None and row.get("cybenetics_noise") in CYBENETICS_CLASSES:
        lo, hi = CYBENETICS_CLASSES[row["cybenetics_noise"]]
        lo = max(lo, A_PLUS_PLUS_FLOOR) if hi <= 15 else lo
        f = Figure((lo + hi) / 2, (hi - lo) / 2, True,
                   T("Cybenetics noise class {cls} ({source})", cls=row["cybenetics_noise"], source=row["source"]))
        return {s: f for s in STATES}
    mids = sorted((sum(CYBENETICS_CLASSES[r["cybenetics_noise"]]) / 2)
                  for r in data.psus.values() if r.get("cybenetics_noise") in CYBENETICS_CLASSES)
    if not mids:
        f = Figure(None, 0.0, False, T("no PSU noise data"))
        return {s: f for s in STATES}
    med = statistics.median(mids)
    q = statistics.quantiles(mids, n=4) if len(mids) > 3 else [mids[0], med, mids[-1]]
    band = max(med - q[0], q[2] - med, 2.5)
    out = {}
    for s in STATES:  # an unknown PSU: the median class; its fan runs faster under load
        out[s] = Figure(med, band, False, T("estimate: median Cybenetics noise class of {n} PSUs", n=len(mids)))
    return out


def cooler_figures(data: NoiseData, cooler: Cooler) -> dict:
    row = data.coolers.get(cooler.id)
    if row is not None:
        src = T("maker's rating ({source})", source=row["source"])
        return {"idle": Figure(row["min_db"], MEASURED_BAND_DB, True, src),
                "training": Figure(row["max_db"], MEASURED_BAND_DB, True, src),
                "peak": Figure(row["max_db"], MEASURED_BAND_DB, True, src)}
    d = data.fans["cpu_cooler"]
    src = T("estimate: median rated level of {n} CPU coolers", n=d["rows"])
    hi = Figure(d["max_median"], max(d["max_q3"] - d["max_median"], d["max_median"] - d["max_q1"]), False, src)
    lo = Figure(d["min_median"], max(d["min_q3"] - d["min_median"], d["min_median"] - d["min_q1"]), False, src)
    return {"idle": lo, "training": hi, "peak": hi}


def case_fan_figures(data: NoiseData, count: int = CASE_FANS) -> dict:
    d = data.fans["case_fan"]
    add = 10 * math.log10(count)
    src = T("estimate: {count} fans at the median rated level of {n} 120/140 mm case fans", count=count, n=d["rows"])
    hi = Figure(d["max_median"] + add, max(d["max_q3"] - d["max_median"], d["max_median"] - d["max_q1"]), False, src)
    lo = Figure(d["min_median"] + add, max(d["min_q3"] - d["min_median"], d["min_median"] - d["min_q1"]), False, src)
    return {"idle": lo, "training": hi, "peak": hi}


def _total(sources: Sequence[NoiseSource], state: str) -> Figure:
    figs = [s.figures[state] for s in sources]
    mid = db_sum(f.db for f in figs)
    if mid is None:
        return Figure(None, 0.0, all(f.measured for f in figs), T("sum of the sources"))
    hi = db_sum(f.high for f in figs)
    lo = db_sum(f.low for f in figs)
    band = max(hi - mid, mid - lo)
    return Figure(mid, band, all(f.measured for f in figs if f.db is not None), T("sum of the sources"))


def report(*, gpus: Sequence[tuple[int, GPU, Optional[float]]], psus: Sequence[PSU], cooler: Optional[Cooler],
           case: Optional[Case] = None, load_fraction: Optional[dict] = None, case_fans: bool = True,
           data: Optional[NoiseData] = None) -> NoiseReport:
    """The build's noise: one source per card, PSU, CPU cooler and the case fans, summed.
    ``case`` is taken for its damping where a source states one (none in the catalog does yet)."""
    data = data or load_data()
    out: list[NoiseSource] = []
    for num, g, limit in gpus:
        out.append(NoiseSource(T("GPU {num}: {name}", num=num, name=g.name), "gpu",
                               gpu_figures(data, g, limit), g.id, num))
    for p in psus:
        out.append(NoiseSource(p.name, "psu", psu_figures(data, p, load_fraction or {}), p.id))
    if cooler is not None:
        out.append(NoiseSource(cooler.name, "cooler", cooler_figures(data, cooler), cooler.id))
    if case_fans:
        out.append(NoiseSource(T("Case fans"), "case-fans", case_fan_figures(data)))
    return NoiseReport(tuple(out), {s: _total(out, s) for s in STATES})


def gpu_training_db(gpu: GPU, limit_w: Optional[float] = None, data: Optional[NoiseData] = None) -> Optional[float]:
    """One card's level at training (1 m): what the optimiser adds up."""
    return gpu_figures(data or load_data(), gpu, limit_w)["training"].db


@dataclass(frozen=True)
class HeldOut:
    card: str
    source: str
    measured_db: float  # the published figure brought to 1 m
    estimate_db: float  # the class estimate the model would give the card unmeasured
    band: float

    @property
    def error(self) -> float:
        return self.estimate_db - self.measured_db

    @property
    def in_band(self) -> bool:
        return abs(self.error) <= self.band + 1e-9


def held_out_comparison(data: Optional[NoiseData] = None) -> list[HeldOut]:
    """Each held-out measurement (kept out of the class fit) against the model's class estimate for
    that card: what docs/models.md prints."""
    data = data or load_data()
    out = []
    for r in data.cards:
        if not r.get("held_out"):
            continue
        measured, _ = data.card_level(r, "load_db")
        fit = data.fits[r["cooler"]]
        out.append(HeldOut(r["card"], r["source"], measured, fit.at(r["power_w"]), fit.band))
    return out
