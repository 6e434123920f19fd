"""Power for the search: the DC draw of one part at a time (the power model adds them up), the
energy cost of a DC load on given PSUs, and the least energy any PSU could draw (a price floor)."""
from __future__ import annotations

from typing import Optional, Sequence

from rigbuilder.domain.build import Settings
from rigbuilder.domain.parts import CPU, GPU, PSU, Cooler, MemoryKit, Motherboard, Part, Storage
from rigbuilder.models import power as power_model
from rigbuilder.models.cost import DAYS_PER_YEAR, running_cost

MAX_EFFICIENCY = max(e for t in power_model.EFFICIENCY_POINTS.values() for pts in t.values() for _, e in pts)
"""The best efficiency any 80 PLUS level certifies (the energy floor divides by it)."""


def _dc(comps: Sequence[power_model.Component]) -> tuple[float, float, float]:
    return tuple(sum(c.watts[s] for c in comps) for s in power_model.STATES)  # type: ignore[return-value]


def _zero() -> tuple[float, float, float]:
    return (0.0, 0.0, 0.0)


def add_dc(*vs: tuple[float, float, float]) -> tuple[float, float, float]:
    idle = train = peak = 0  # added in the same order as ``sum`` adds them: the same figures
    for v in vs:
        idle += v[0]
        train += v[1]
        peak += v[2]
    return (idle, train, peak)


class Power:
    """DC draw per part (from the power model, one part at a time: the model adds them up) and the
    energy cost of a DC load on given PSUs."""

    def __init__(self, settings: Settings, years: float) -> None:
        self.settings, self.years = settings, years
        self.table = settings.region_info().efficiency_table
        self._part: dict = {}
        self.fans = _dc(power_model.components(gpus=[], cpu=None, board=None, memory=[], storage=[], cooler=None,
                                               nics=[], case_fans=True))
        self._wall: dict = {}
        self._energy: dict[int, tuple] = {}  # id of a report -> (the report, energy over the years, per month)

    def part(self, p: Optional[Part], limit: Optional[float] = None) -> tuple[float, float, float]:
        """DC draw (idle, training, peak) of one part; a GPU at power ``limit`` watts."""
        if p is None:
            return _zero()
        key = p.id if limit is None else (p.id, limit)
        w = self._part.get(key)
        if w is None:
            kw: dict = dict(gpus=[], cpu=None, board=None, memory=[], storage=[], cooler=None, nics=[],
                            case_fans=False)
            if isinstance(p, GPU):
                kw["gpus"] = [(1, p, limit)]
            elif isinstance(p, CPU):
                kw["cpu"] = p
            elif isinstance(p, Motherboard):
                kw["board"] = p
            elif isinstance(p, MemoryKit):
                kw["memory"] = [(p, 1)]
            elif isinstance(p, Storage):
                kw["storage"] = [(p, 1)]
            elif isinstance(p, Cooler):
                kw["cooler"] = p
            w = _dc(power_model.components(**kw))
            self._part[key] = w
        return w

    def platform(self, b: Motherboard, c: CPU) -> tuple[float, float, float]:
        """DC draw of a board with its CPUs: as many CPUs as the board has sockets (a dual-socket board
        holds two, as the power model counts them)."""
        key = ("platform", b.id, c.id)
        w = self._part.get(key)
        if w is None:
            w = self._part[key] = _dc(power_model.components(gpus=[], cpu=c, board=b, memory=[], storage=[],
                                                             cooler=None, nics=[], case_fans=False))
        return w

    def wall(self, dc: tuple[float, float, float], psus: tuple[PSU, ...]) -> power_model.PowerReport:
        key = (dc, *[p.id for p in psus])
        rep = self._wall.get(key)
        if rep is None:
            comp = power_model.Component("build", "build", dict(zip(power_model.STATES, dc)), False, "")
            rep = power_model.report([comp], psus, self.table)
            self._wall[key] = rep
        return rep

    def energy(self, rep: power_model.PowerReport) -> tuple[float, float]:
        """(cost over the years, cost per month); once per report (the search asks millions of times
        for the same few thousand reports, each kept in ``_wall``)."""
        got = self._energy.get(id(rep))
        if got is None or got[0] is not rep:
            run = running_cost(rep, self.settings)
            got = self._energy[id(rep)] = (rep, self.years * run.cost_per_year, run.cost_per_month)
        return got[1], got[2]

    def energy_floor(self, dc: tuple[float, float, float]) -> float:
        """No PSU draws less at the wall than ``dc`` over the best efficiency any 80 PLUS level certifies."""
        s = self.settings
        day = (dc[1] * s.load_hours_per_day + dc[0] * s.idle_hours_per_day) / 1000.0 / MAX_EFFICIENCY
        return self.years * day * DAYS_PER_YEAR * s.price_per_kwh

    def energy_rates(self, psus: tuple[PSU, ...], lo: tuple[float, float, float],
                     hi: tuple[float, float, float]) -> tuple[float, float]:
        """(idle, training): the least energy cost over the years per DC watt in each state on
        ``psus``, for any DC load from ``lo`` to ``hi`` (a price floor that knows the PSUs: each
        shares the load in proportion to its rating, at its best efficiency over that range of
        load; the curve is linear between its points, so the best is at an end or a point)."""
        s = self.settings
        rating = sum(p.wattage for p in psus)
        per_w = self.years * DAYS_PER_YEAR * s.price_per_kwh / 1000.0
        out = []
        for k, hours in ((0, s.idle_hours_per_day), (1, s.load_hours_per_day)):
            if rating <= 0:
                out.append(per_w * hours)
                continue
            inv = 0.0
            for p in psus:
                inv += p.wattage / rating / _best_efficiency(p.efficiency, self.table, lo[k] / rating, hi[k] / rating)
            out.append(per_w * hours * inv)
        return out[0], out[1]


def _best_efficiency(level: str, table: str, lo: float, hi: float) -> float:
    pts = power_model.EFFICIENCY_POINTS[table].get(level, power_model.EFFICIENCY_POINTS[table]["80 PLUS"])
    xs = [lo, hi, *(x for x, _ in pts if lo < x < hi)]
    return max(power_model.efficiency(level, table, x)[0] for x in xs)
