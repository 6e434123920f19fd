"""Power draw per component for idle, training and peak, PSU efficiency and wall draw.

Figures that are ours (not a datasheet's) are marked ``estimate=True`` and the app labels them
as estimates. Sources are in docs/models.md.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Mapping, Optional, Sequence

from rigbuilder.domain.calibration import Calibration
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, NIC, PSU, Cooler, MemoryKit, Motherboard, Storage

STATES = ("idle", "training", "peak")

EFFICIENCY_POINTS: dict[str, dict[str, tuple[tuple[float, float], ...]]] = {
    # 80 PLUS minimum efficiency at load fractions (80 PLUS programme tables)
    "115V": {
        "80 PLUS": ((0.2, 0.80), (0.5, 0.80), (1.0, 0.80)),
        "Bronze": ((0.2, 0.82), (0.5, 0.85), (1.0, 0.82)),
        "Silver": ((0.2, 0.85), (0.5, 0.88), (1.0, 0.85)),
        "Gold": ((0.2, 0.87), (0.5, 0.90), (1.0, 0.87)),
        "Platinum": ((0.2, 0.90), (0.5, 0.92), (1.0, 0.89)),
        "Titanium": ((0.1, 0.90), (0.2, 0.92), (0.5, 0.94), (1.0, 0.90)),
    },
    "230V": {
        "80 PLUS": ((0.2, 0.82), (0.5, 0.85), (1.0, 0.82)),
        "Bronze": ((0.2, 0.85), (0.5, 0.88), (1.0, 0.85)),
        "Silver": ((0.2, 0.87), (0.5, 0.90), (1.0, 0.87)),
        "Gold": ((0.2, 0.90), (0.5, 0.92), (1.0, 0.89)),
        "Platinum": ((0.2, 0.92), (0.5, 0.94), (1.0, 0.90)),
        "Titanium": ((0.1, 0.90), (0.2, 0.94), (0.5, 0.96), (1.0, 0.94)),
    },
}
LOW_LOAD_DROP = 0.15
"""*Model*: below the lowest certified point, efficiency falls linearly by up to 15 points at
zero load (an estimate; 80 PLUS certifies nothing there)."""

TRANSIENT_FACTORS: dict[str, tuple[float, str]] = {
    "Ampere": (460 / 350, "RTX 3090: spikes of about 460 W at 350 W board power, as reported by owners"),
    "Blackwell": (627 / 575, "RTX 5090 FE: 627 W for 10-20 ms at 575 W, a published measurement"),
}
DEFAULT_TRANSIENT = (1.2, "model: 20% above board power for other generations (estimate)")

GPU_IDLE_ESTIMATE = {"consumer": 15.0, "workstation": 20.0, "datacenter": 35.0}
BOARD_W = {"idle": 20.0, "training": 35.0, "peak": 40.0}
BOARD_HEDT_W = {"idle": 35.0, "training": 55.0, "peak": 60.0}
MEMORY_MODULE_W = {"idle": 1.5, "training": 3.0, "peak": 4.0}
RDIMM_MODULE_W = {"idle": 2.5, "training": 5.0, "peak": 6.0}
COOLER_W = {"air": 5.0, "AIO": 15.0}
CASE_FANS_W = {"idle": 4.0, "training": 8.0, "peak": 10.0}
HEDT_SOCKETS = {"TR4", "STRX4", "SWRX8", "STR5", "SP3", "SP5", "LGA2011-3", "LGA2011", "LGA2066",
                "LGA4677", "LGA3647", "LGA4189"}


def gpu_power(gpu: GPU, limit_w: Optional[float]) -> dict[str, float]:
    train = gpu.board_power_w if not limit_w else min(limit_w, gpu.board_power_w)
    idle = gpu.idle_power_w if gpu.idle_power_w is not None else GPU_IDLE_ESTIMATE[gpu.segment]
    return {"idle": idle, "training": train, "peak": train}


def transient_factor(gpu: GPU) -> tuple[float, str]:
    return TRANSIENT_FACTORS.get(gpu.architecture, DEFAULT_TRANSIENT)


def efficiency(level: str, table: str, load_fraction: float) -> tuple[float, bool]:
    """PSU efficiency at ``load_fraction`` of its rating; second value True when extrapolated."""
    pts = EFFICIENCY_POINTS[table].get(level, EFFICIENCY_POINTS[table]["80 PLUS"])
    xs = [p[0] for p in pts]
    x = max(0.0, load_fraction)
    if x <= xs[0]:
        if x == xs[0]:
            return pts[0][1], False
        return pts[0][1] - LOW_LOAD_DROP * (xs[0] - x) / xs[0], True
    if x >= xs[-1]:
        return pts[-1][1], x > xs[-1]
    i = bisect_left(xs, x)
    (x0, y0), (x1, y1) = pts[i - 1], pts[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0), False


@dataclass(frozen=True)
class Component:
    label: str
    kind: str
    watts: dict[str, float]  # state -> W (DC)
    estimate: bool
    source: str
    board_power_w: Optional[float] = None  # GPUs: the card's board power (what a limit is a fraction of)
    calibration: Optional[Calibration] = None  # GPUs: the user's measurements scaled its load figures


@dataclass(frozen=True)
class PowerReport:
    components: tuple[Component, ...]
    dc: dict[str, float]
    wall: dict[str, float]
    efficiency: dict[str, float]
    efficiency_estimated: dict[str, bool]
    psu_rating_w: float
    gpu_transient_w: float  # estimated short spike above the GPUs' training draw
    psus: tuple[PSU, ...] = ()  # what the report was computed with, so it can be recomputed
    table: str = "230V"

    def share(self, kind: str, state: str) -> float:
        return sum(c.watts[state] for c in self.components if c.kind == kind)

    def load_fraction(self, state: str) -> float:
        """DC load as a fraction of the PSUs' combined rating (each PSU carries the same fraction)."""
        return self.dc[state] / self.psu_rating_w if self.psu_rating_w > 0 else 0.0


def components(*, gpus: Sequence[tuple[int, GPU, Optional[float]]], cpu: Optional[CPU],
               board: Optional[Motherboard], memory: Sequence[tuple[MemoryKit, int]],
               storage: Sequence[tuple[Storage, int]], cooler: Optional[Cooler],
               nics: Sequence[NIC], case_fans: bool = True,
               calibration: Optional[Mapping[str, Calibration]] = None) -> list[Component]:
    """``calibration``: per GPU part id, the user's measured-over-planned factor at load
    (rigbuilder.domain.calibration); it scales training (and peak, where that is lower) and is
    named in the component's source."""
    out: list[Component] = []
    for num, g, limit in gpus:
        est = g.idle_power_w is None
        label = (T("GPU {num}: {name} (limit {limit:g} W)", num=num, name=g.name, limit=limit) if limit
                 else T("GPU {num}: {name}", num=num, name=g.name))
        w = gpu_power(g, limit)
        source = T("board power; idle estimated") if est else T("board power; idle from review")
        cal = (calibration or {}).get(g.id)
        if cal is not None:
            w["training"] = round(w["training"] * cal.factor, 1)
            w["peak"] = max(w["peak"], w["training"])
            source = source + "; " + cal.note()
        out.append(Component(label, "gpu", w, est, source, g.board_power_w, cal))
    if cpu is not None:
        n = max(1, board.cpu_sockets) if board is not None else 1  # a dual-socket board holds two
        peak = (cpu.peak_power_w or cpu.tdp_w) * n
        out.append(Component(cpu.name if n == 1 else T("{n} × {cpu}", n=n, cpu=cpu.name), "cpu",
                             {"idle": round(0.12 * cpu.tdp_w * n, 1), "training": cpu.tdp_w * n, "peak": peak}, True,
                             T("TDP under load, PL2/PPT at peak where published; idle 12% of TDP (estimate)")))
    if board is not None:
        w = BOARD_HEDT_W if board.socket.upper() in HEDT_SOCKETS else BOARD_W
        out.append(Component(T("Motherboard {model}", model=board.model), "motherboard", dict(w), True,
                             T("typical figure (estimate)")))
    for kit, count in memory:
        per = RDIMM_MODULE_W if kit.registered else MEMORY_MODULE_W
        n = kit.modules * count
        out.append(Component(T("{count} x {name}", count=count, name=kit.name), "memory",
                             {k: v * n for k, v in per.items()}, True, T("typical per-module figure (estimate)")))
    for drive, count in storage:
        idle = drive.idle_power_w
        act = drive.active_power_w
        est = idle is None or act is None
        idle = idle if idle is not None else (5.0 if drive.type == "HDD" else 1.0)
        act = act if act is not None else (8.0 if drive.type == "HDD" else 6.0)
        out.append(Component(T("{count} x {name}", count=count, name=drive.name), "storage",
                             {"idle": idle * count, "training": act * count, "peak": act * count}, est,
                             T("datasheet") if not est else T("typical figure (estimate)")))
    if cooler is not None:
        w = cooler.fan_power_w if cooler.fan_power_w is not None else COOLER_W.get(cooler.type, 5.0)
        out.append(Component(cooler.name, "cooler", {"idle": w / 2, "training": w, "peak": w},
                             cooler.fan_power_w is None, T("fan rating") if cooler.fan_power_w else T("estimate")))
    if case_fans:
        out.append(Component(T("Case fans"), "case", dict(CASE_FANS_W), True, T("typical figure (estimate)")))
    for nic in nics:
        w = nic.power_w if nic.power_w is not None else 10.0
        out.append(Component(nic.name, "nic", {"idle": w * 0.7, "training": w, "peak": w},
                             nic.power_w is None, T("datasheet") if nic.power_w else T("estimate")))
    return out


def report(comps: Sequence[Component], psus: Sequence[PSU], table: str,
           gpu_transient_w: float = 0.0) -> PowerReport:
    dc = {s: sum(c.watts[s] for c in comps) for s in STATES}
    rating = sum(p.wattage for p in psus)
    wall: dict[str, float] = {}
    eff: dict[str, float] = {}
    est: dict[str, bool] = {}
    for s in STATES:
        if not psus or rating <= 0:
            eff[s], est[s], wall[s] = 1.0, True, dc[s]
            continue
        # Load shared in proportion to each PSU's rating (docs/models.md).
        w_in = 0.0
        any_est = False
        for p in psus:
            share = dc[s] * p.wattage / rating
            e, x = efficiency(p.efficiency, table, share / p.wattage)
            w_in += share / e
            any_est |= x
        wall[s] = w_in
        eff[s] = dc[s] / w_in if w_in else 1.0
        est[s] = any_est
    return PowerReport(tuple(comps), dc, wall, eff, est, rating, gpu_transient_w, tuple(psus), table)


# -- what-if helpers (running-cost scenarios, graphs) -------------------------------------------
def efficiency_levels() -> tuple[str, ...]:
    return tuple(EFFICIENCY_POINTS["115V"])


def level_step(level: str, step: int = 1) -> Optional[str]:
    """The 80 PLUS level ``step`` classes above (below, if negative) ``level``; None past the ends."""
    levels = efficiency_levels()
    i = levels.index(level) if level in levels else 0
    j = i + step
    return levels[j] if 0 <= j < len(levels) else None


def relevel(psus: Sequence[PSU], level: str) -> list[PSU]:
    """The same PSUs (same ratings) certified at another 80 PLUS level."""
    return [replace(p, efficiency=level) for p in psus]


def limit_components(comps: Sequence[Component], fraction: Optional[float]) -> list[Component]:
    """Every GPU limited to ``fraction`` of its board power (rounded to whole watts, as nvidia-smi
    takes them; a tighter limit already set is kept). Idle draw is unchanged. None = no change."""
    if fraction is None:
        return list(comps)
    out = []
    for c in comps:
        if c.kind == "gpu" and c.board_power_w:
            cap = round(c.board_power_w * fraction)
            w = dict(c.watts)
            w["training"] = min(w["training"], cap)
            w["peak"] = min(w["peak"], cap)
            c = replace(c, watts=w)
        out.append(c)
    return out


def recompute(rep: PowerReport, *, level: Optional[str] = None, fraction: Optional[float] = None) -> PowerReport:
    """``rep`` recomputed with every PSU at another 80 PLUS ``level`` and/or every GPU limited to
    ``fraction`` of its board power. The transient allowance scales with the GPUs' training draw."""
    comps = limit_components(rep.components, fraction)
    psus = relevel(rep.psus, level) if level else list(rep.psus)
    old_gpu = rep.share("gpu", "training")
    new_gpu = sum(c.watts["training"] for c in comps if c.kind == "gpu")
    transient = rep.gpu_transient_w * (new_gpu / old_gpu) if old_gpu else rep.gpu_transient_w
    return report(comps, psus, rep.table, transient)


def efficiency_curve(level: str, table: str, xs: Sequence[float]) -> list[tuple[float, float, bool]]:
    """(load fraction, efficiency, extrapolated) at each of ``xs``: what the efficiency graph draws."""
    return [(x, *efficiency(level, table, x)) for x in xs]
