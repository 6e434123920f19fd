"""A used price estimated where none is observed: a depreciation model fitted on the published
used-market series (eBay sold prices per GPU chip, month by month), never shown as observed.

The model: ln(used price / launch price) = market level of the month + a·age + b·age² +
c·ln(memory) + the segment's and the maker's offsets, fitted by least squares (a small ridge
penalty keeps a column without data at zero) over one point per chip and month. An estimate is
made for a GPU with a launch price, a release year and a segment the fit has data for (at least
``MIN_SEGMENT_CHIPS`` chips), at the market level of the fit's newest month with data for at least
``MIN_MONTH_CHIPS`` chips (the "as of" month: the estimate is dated with it and ages like a price).

Its error is measured on chips held out of the fit (``held_out``): the chips are split into
``FOLDS`` groups; each group's newest observations are predicted by a model fitted on the others.
Every estimate carries that band in its note ("estimated from 58 GPU chips' used prices ...; on
chips held out of the fit, half within 18%, 80% within -35% to +30%").

The estimates are an ``Estimator`` the catalog hangs on its part index (``index.used_estimates``)
when the preference "money/used_estimates" is on (the command line: unless ``--no-estimates``);
``rigbuilder.models.prices`` offers one only where no used price is observed, ranked below every
observed price, with origin "estimate".
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.money import MoneyError, PriceObservation
from rigbuilder.domain.pricenotes import quoted

FOLDS = 5
MIN_SEGMENT_CHIPS = 3
MIN_MONTH_CHIPS = 10
RIDGE = 1e-3
SEGMENTS = ("consumer", "workstation", "datacenter")
VENDORS = ("NVIDIA", "AMD", "Intel")
ESTIMATE_NOTE = ("estimated from {chips} GPU chips' used prices by age, memory and segment, not observed; on chips "
                 "held out of the fit, half within {median}, 80% within {low} to {high}")
ESTIMATE_SOURCE = N_("rigbuilder's depreciation model (by age, memory and segment), fitted on the used-market "
                     "series shipped with it: {sources}")


@dataclass(frozen=True)
class Point:
    """One chip's used price in one month, beside what the model knows of the chip."""

    chip: str
    segment: str
    vendor: str
    vram_gb: float
    launch_usd: float
    launched: str  # YYYY-MM
    month: str  # YYYY-MM the used price was seen
    used_usd: float

    @property
    def age(self) -> float:
        return max(0.0, _months(self.launched, self.month) / 12.0)


def _ym(text: str) -> Optional[tuple[int, int]]:
    try:
        y = int(text[:4])
        m = int(text[5:7]) if len(text) >= 7 and text[4] == "-" else 7  # a bare year: mid-year
    except (ValueError, IndexError):
        return None
    return (y, m) if 1 <= m <= 12 else None


def _months(a: str, b: str) -> int:
    pa, pb = _ym(a), _ym(b)
    if pa is None or pb is None:
        return 0
    return (pb[0] - pa[0]) * 12 + pb[1] - pa[1]


def _pct(x: float) -> str:
    return f"{x * 100:+.0f}%"


@dataclass
class Fit:
    """The fitted coefficients and the months' market levels."""

    beta: list
    months: tuple
    chips: int
    as_of: str
    segments: frozenset

    def predict(self, p: Point, month: Optional[str] = None) -> float:
        row = _features(p, self.months, month or p.month)
        return p.launch_usd * math.exp(sum(b * x for b, x in zip(self.beta, row)))


def _features(p: Point, months: tuple, month: str) -> list:
    ln_vram = math.log(max(p.vram_gb, 0.25))
    age = max(0.0, _months(p.launched, month) / 12.0)
    row = [1.0, age, age * age, ln_vram]
    row += [1.0 if p.segment == s else 0.0 for s in SEGMENTS[1:]]
    row += [1.0 if p.vendor == v else 0.0 for v in VENDORS[1:]]
    row += [1.0 if month == m else 0.0 for m in months[1:]]
    return row


def _solve(A: list[list[float]], b: list[float]) -> Optional[list[float]]:
    """``A x = b`` by Gaussian elimination with partial pivoting (A is changed); None when singular."""
    n = len(b)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(A[r][c]))
        if abs(A[p][c]) < 1e-300:
            return None  # no unique fit (too few points for the columns): no estimate
        A[c], A[p] = A[p], A[c]
        b[c], b[p] = b[p], b[c]
        for r in range(c + 1, n):
            f = A[r][c] / A[c][c]
            if f:
                Ar, Ac = A[r], A[c]
                for j in range(c, n):
                    Ar[j] -= f * Ac[j]
                b[r] -= f * b[c]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (b[c] - sum(A[c][j] * x[j] for j in range(c + 1, n))) / A[c][c]
    return x


def fit(points: list[Point]) -> Optional[Fit]:
    """Least squares (ridge ``RIDGE`` on every column but the intercept); None with too few points."""
    if len({p.chip for p in points}) < 5:
        return None
    months = tuple(sorted({p.month for p in points}))
    X = [_features(p, months, p.month) for p in points]
    y = [math.log(p.used_usd / p.launch_usd) for p in points]
    k = len(X[0])
    # the normal equations (X'X + ridge) beta = X'y, in plain Python: a few dozen columns, so a report
    # or a price look-up that needs an estimate does not import numpy
    A = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for row, t in zip(X, y):
        nz = [(i, v) for i, v in enumerate(row) if v]
        for i, vi in nz:
            b[i] += vi * t
            Ai = A[i]
            for j, vj in nz:
                Ai[j] += vi * vj
    for i in range(1, k):
        A[i][i] += RIDGE * len(points)
    beta = _solve(A, b)
    if beta is None:
        return None
    per_month: dict[str, set] = {}
    per_segment: dict[str, set] = {}
    for p in points:
        per_month.setdefault(p.month, set()).add(p.chip)
        per_segment.setdefault(p.segment, set()).add(p.chip)
    busy = [m for m in months if len(per_month[m]) >= MIN_MONTH_CHIPS]
    as_of = busy[-1] if busy else months[-1]
    segs = frozenset(s for s, c in per_segment.items() if len(c) >= MIN_SEGMENT_CHIPS)
    return Fit([float(b) for b in beta], months, len({p.chip for p in points}), as_of, segs)


@dataclass(frozen=True)
class HeldOut:
    """The model's error on chips kept out of its fit: each held-out chip's newest observation
    against the prediction of a model fitted without that chip; ``ratios`` are predicted/observed-1."""

    chips: int
    ratios: tuple

    def _q(self, q: float) -> float:
        r = sorted(self.ratios)
        if not r:
            return float("nan")
        k = (len(r) - 1) * q
        lo, hi = int(math.floor(k)), int(math.ceil(k))
        return r[lo] + (r[hi] - r[lo]) * (k - lo)

    @property
    def median_abs(self) -> float:
        a = sorted(abs(x) for x in self.ratios)
        if not a:
            return float("nan")
        k = (len(a) - 1) / 2
        return (a[int(math.floor(k))] + a[int(math.ceil(k))]) / 2

    @property
    def low(self) -> float:
        return self._q(0.1)

    @property
    def high(self) -> float:
        return self._q(0.9)

    def band(self) -> str:
        return (f"{self.chips} chips held out: half within ±{self.median_abs * 100:.0f}%, "
                f"80% within {_pct(self.low)} to {_pct(self.high)}")


def held_out(points: list[Point], folds: int = FOLDS) -> HeldOut:
    """Split the chips into ``folds`` groups (sorted by name, dealt in turn); predict each group's
    chips at their newest month that the other groups' fit has a market level for, with a model
    fitted on the other groups."""
    chips = sorted({p.chip for p in points})
    ratios = []
    for k in range(folds):
        out = {c for i, c in enumerate(chips) if i % folds == k}
        f = fit([p for p in points if p.chip not in out])
        if f is None:
            continue
        for c in sorted(out):
            mine = [p for p in points if p.chip == c and p.month in f.months]  # a month the fit has a level for
            if not mine or mine[0].segment not in f.segments:
                continue  # no such month, or a segment the fit has no data for
            newest = max(mine, key=lambda p: p.month)
            ratios.append(f.predict(newest) / newest.used_usd - 1.0)
    return HeldOut(len(ratios), tuple(ratios))


# --------------------------------------------------------------------------- from the catalog


OwnPrice = Callable[[object], Optional[PriceObservation]]
"""The catalog row's own price as an observation (``rigbuilder.models.prices.catalog_observation``,
passed in by its caller: that module asks this one for estimates)."""


def launch_usd(part, index, own: OwnPrice) -> Optional[tuple[float, str]]:
    """The part's launch price in USD and the month it launched: the catalog row's own launch price
    or a launch observation for it (a chip's launch price for a community card)."""
    cands = [o for o in index.prices.for_part(part.id) if o.origin == "launch" and not o.with_parts]
    mine = own(part)
    if mine is not None and mine.origin == "launch":
        cands.insert(0, mine)
    for o in cands:
        try:
            usd = index.prices.rates.convert(o.amount, o.currency, "USD") if o.currency != "USD" else o.amount
        except MoneyError:
            continue
        if usd > 0:
            year = getattr(part, "release_year", None)
            when = o.date if _ym(o.date or "") and len(o.date) >= 7 else (f"{year}-07" if year else o.date)
            if _ym(when or ""):
                return usd, when[:7]
    return None


def _point_for(part, o: PriceObservation, index, launch: tuple[float, str]) -> Optional[Point]:
    try:
        used = index.prices.rates.convert(o.amount, o.currency, "USD") if o.currency != "USD" else o.amount
    except MoneyError:
        return None
    month = (o.date or "")[:7]
    if used <= 0 or _ym(month) is None or len(month) < 7:
        return None
    return Point(part.chip_model, part.segment, getattr(part, "vendor", "") or "", float(part.vram_gb or 0) or 1.0,
                 launch[0], launch[1], month, used)


def training_points(index, own: OwnPrice) -> list[Point]:
    """One point per chip and month from the used marketplace prices the price book holds for GPUs
    (a chip's price shipped on several of its cards counts once). A chip's launch price is its
    first card's with one (a community card carries its chip's launch price)."""
    by_chip: dict[str, list] = {}
    for pid, obs in index.prices.observations.items():
        used = [o for o in obs if o.condition == "used" and o.origin == "marketplace" and not o.with_parts
                and not o.upper_bound]
        if not used or not pid.startswith("gpu-"):
            continue
        part = index.get(pid)
        if part is None or getattr(part, "KIND", "") != "gpu" or not getattr(part, "chip_model", ""):
            continue
        by_chip.setdefault(part.chip_model, []).append((part, used))
    seen: dict[tuple[str, str], Point] = {}
    for chip, cards in by_chip.items():
        cards.sort(key=lambda c: (c[0].id.startswith("gpu-odb-"), c[0].id))
        launch = next((lu for c in cards if (lu := launch_usd(c[0], index, own)) is not None), None)
        if launch is None:
            continue
        for part, used in cards:
            for o in used:
                pt = _point_for(part, o, index, launch)
                if pt is not None and (pt.chip, pt.month) not in seen:
                    seen[(pt.chip, pt.month)] = pt
    return [seen[k] for k in sorted(seen)]


def _sources(index) -> str:
    """The publications the fit's series come from (each named once)."""
    names: list[str] = []
    for obs in index.prices.observations.values():
        for o in obs:
            if o.condition == "used" and o.origin == "marketplace" and o.part_id.startswith("gpu-"):
                name = o.source.split(",")[0].split(" (")[0]
                if name not in names:
                    names.append(name)
    return "; ".join(names[:6])


@dataclass
class Estimator:
    """Used prices estimated for GPUs without an observed one (see the module's docstring)."""

    fit: Fit
    error: HeldOut
    source: str
    own: OwnPrice
    _memo: dict = field(default_factory=dict)

    @classmethod
    def from_index(cls, index, own: OwnPrice) -> Optional["Estimator"]:
        pts = training_points(index, own)
        f = fit(pts)
        if f is None:
            return None
        return cls(f, held_out(pts), T(ESTIMATE_SOURCE, sources=quoted(_sources(index))), own)

    def note(self) -> str:
        e = self.error
        return ESTIMATE_NOTE.format(chips=self.fit.chips, median=f"±{e.median_abs * 100:.0f}%", low=_pct(e.low),
                                    high=_pct(e.high))

    def estimate(self, part, index) -> Optional[PriceObservation]:
        """The estimated used price of a GPU (USD, dated with the fit's "as of" month), or None: not
        a GPU, no launch price or release year, a segment the fit has no data for, or newer than
        the data."""
        if getattr(part, "KIND", "") != "gpu" or part.id in self._memo:
            return self._memo.get(part.id)
        out = None
        launch = launch_usd(part, index, self.own)
        if launch is not None and part.segment in self.fit.segments and _months(launch[1], self.fit.as_of) >= 0:
            p = Point(part.chip_model or part.id, part.segment, getattr(part, "vendor", "") or "",
                      float(part.vram_gb or 0) or 1.0, launch[0], launch[1], self.fit.as_of, 0.0)
            amount = round(self.fit.predict(p, self.fit.as_of), 0)
            if amount > 0:
                out = PriceObservation(part.id, amount, "USD", "used", "estimate", self.source, self.fit.as_of,
                                       self.note())
        self._memo[part.id] = out
        return out


def estimator_for(index, own: OwnPrice) -> Optional[Estimator]:
    """The index's estimator, fitted once per price book (None when the fit has too little data)."""
    key = id(index.prices)
    got = getattr(index, "_estimator_memo", None)
    if got is not None and got[0] == key and got[1] is index.prices:
        return got[2]
    est = Estimator.from_index(index, own)
    index._estimator_memo = (key, index.prices, est)  # noqa: SLF001 - a cache on the caller's index
    return est


def estimates(parts: Iterable, index, own: OwnPrice) -> list[PriceObservation]:
    """The estimates for ``parts`` (those the model can price)."""
    est = estimator_for(index, own)
    if est is None:
        return []
    return [o for p in parts if (o := est.estimate(p, index)) is not None]
