"""psu.* and power.*: PSU capacity, connectors, transients, and the wall circuit."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence

from rigbuilder.domain import fields as F
from rigbuilder.domain import gpu_commands
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T, nT
from rigbuilder.domain.parts import GPU, PSU
from rigbuilder.models import perf
from rigbuilder.models import power as power_model
from rigbuilder.rules.context import Context

HEADROOM = 1.10  # at least 10% above the computed load (Makropoulos 2023)
TRANSIENT_ARCHS = {"Ampere", "Ada Lovelace", "Ada", "Blackwell", "RDNA 2", "RDNA 3", "RDNA 4"}
LIMITS = T("Power figures come from the catalog and typical component figures (estimates are "
          "marked in the power view); measured draw differs with the workload.")


@dataclass(frozen=True)
class LimitAdvice:
    fraction: float  # of each GPU's board power
    limits_w: tuple[tuple[int, int], ...]  # (gpu number, watts)
    throughput: float
    extrapolated: bool
    peak_dc_w: float
    peak_wall_w: float
    feasible: bool

    def commands(self) -> list[str]:
        """The commands that set these limits (``rigbuilder.domain.gpu_commands``)."""
        return gpu_commands.set_limits(self.limits_w)


def _loads(ctx: Context, fraction: Optional[float]) -> tuple[float, float]:
    """(peak DC, peak wall) with every GPU limited to ``fraction`` of its board power."""
    other = sum(c.watts["peak"] for c in ctx.power_components if c.kind != "gpu")
    gpu = 0.0
    for g in ctx.gpus:
        cur = power_model.gpu_power(g.gpu, g.placement.power_limit_w)["peak"]
        gpu += cur if fraction is None else min(cur, round(g.gpu.board_power_w * fraction))
    dc = other + gpu
    if not ctx.psus:
        return dc, dc
    rep = power_model.report([power_model.Component("x", "x", {"idle": dc, "training": dc, "peak": dc}, False, "")],
                             ctx.psus, ctx.build.settings.region_info().efficiency_table)
    return dc, rep.wall["peak"]


def _ok(ctx: Context, dc: float, wall: float) -> bool:
    rating = sum(p.wattage for p in ctx.psus)
    if rating and dc * HEADROOM > rating:
        return False
    return wall <= ctx.build.settings.circuit_w()


def advise_power_limit(ctx: Context) -> Optional[LimitAdvice]:
    """The smallest uniform cut (1% steps) that clears psu.capacity and power.circuit."""
    if not ctx.gpus:
        return None
    cached = getattr(ctx, "_limit_advice", None)
    if cached is not None:
        return cached
    # Loads fall as the cut deepens: binary search for the highest fraction (1% steps) that fits.
    best = None
    lo, hi = int(perf.MIN_FRACTION * 100), 100
    if _ok(ctx, *_loads(ctx, 1.0)):
        best = (1.0, *_loads(ctx, 1.0), True)
    elif _ok(ctx, *_loads(ctx, lo / 100)):
        while lo < hi:  # invariant: lo fits
            mid = (lo + hi + 1) // 2
            if _ok(ctx, *_loads(ctx, mid / 100)):
                lo = mid
            else:
                hi = mid - 1
        best = (lo / 100, *_loads(ctx, lo / 100), True)
    if best is None:
        f = perf.MIN_FRACTION
        dc, wall = _loads(ctx, f)
        best = (f, dc, wall, False)
    f, dc, wall, ok = best
    limits = tuple((g.num, int(min(power_model.gpu_power(g.gpu, g.placement.power_limit_w)["peak"],
                                   round(g.gpu.board_power_w * f)))) for g in ctx.gpus)
    advice = LimitAdvice(f, limits, perf.throughput(f), perf.is_extrapolated(f), dc, wall, ok)
    ctx._limit_advice = advice  # type: ignore[attr-defined]  # one context = one build: safe to keep
    return advice


def _limit_fix(ctx: Context, circuit: bool = False) -> T:
    adv = advise_power_limit(ctx)
    if adv is None:
        return T("Choose a larger PSU.")
    if not adv.feasible:
        return T("Even at half power the build does not fit: use a larger PSU, two PSUs on separate circuits, "
                 "or fewer GPUs.")
    if F.fraction_limit(adv.fraction) is None:  # full power fits the PSU: no limit helps
        return T("Choose a larger PSU.")
    nums = [n for n, _ in adv.limits_w]
    watts = "/".join(str(w) for w in sorted({w for _, w in adv.limits_w}))
    span = T("GPUs {first}-{last}", first=nums[0], last=nums[-1]) if len(nums) > 1 else T("GPU {num}", num=nums[0])
    cut, less = 100 - round(adv.fraction * 100), 100 * (1 - adv.throughput)
    if circuit:
        return T("Limit {span} to {watts} W ({cut}% cut, about {less:.0f}% less throughput, estimate), "
                 "or split the load over two circuits.", span=span, watts=watts, cut=cut, less=less)
    return T("Limit {span} to {watts} W ({cut}% cut, about {less:.0f}% less throughput, estimate), "
             "or choose a larger PSU.", span=span, watts=watts, cut=cut, less=less)


def check_power(ctx: Context) -> Iterator[Finding]:
    if not ctx.gpus and ctx.cpu is None:
        return
    rep = ctx.power
    dc = rep.dc["peak"]
    if ctx.psus:
        rating = rep.psu_rating_w
        names = " + ".join(p.name for p in ctx.psus)
        figs = (("load_w", round(dc, 1)), ("rating_w", rating), ("headroom_pct", round(100 * (rating / dc - 1), 1) if dc else 0.0))
        if dc > rating:
            yield Finding("psu.capacity", Severity.ERROR,
                          T("Peak load {load:.0f} W is above the {rating:.0f} W rating of the {names}.",
                            load=dc, rating=rating, names=names),
                          fix=_limit_fix(ctx), limits=LIMITS, parts=tuple(p.id for p in ctx.psus), figures=figs)
        elif dc * HEADROOM > rating:
            yield Finding("psu.capacity", Severity.WARNING,
                          T("Peak load {load:.0f} W leaves {headroom:.0f}% headroom on the {rating:.0f} W "
                            "{names}; at least 10% is recommended for spikes (Makropoulos 2023).",
                            load=dc, headroom=100 * (rating / dc - 1), rating=rating, names=names),
                          fix=_limit_fix(ctx), limits=LIMITS, parts=tuple(p.id for p in ctx.psus), figures=figs)
        yield from _connectors(ctx)
        yield from _transients(ctx)
    elif ctx.gpus:
        yield Finding("psu.missing", Severity.INFO, T("No PSU chosen; the build needs about {need:.0f} W "
                        "({load:.0f} W peak load plus 10%).", need=dc * HEADROOM, load=dc), fix=T("Add a PSU."), limits=LIMITS,
                      figures=(("load_w", round(dc, 1)),))
    yield from _circuit(ctx)


def _circuit(ctx: Context) -> Iterator[Finding]:
    s = ctx.build.settings
    region = s.region_info()
    wall, circuit, rated = ctx.power.wall["peak"], s.circuit_w(), region.rated_w
    figs = (("wall_w", round(wall, 1)), ("circuit_w", circuit), ("rated_w", rated))
    label, source = T(region.label), region.continuous_source(s.circuit_margin)
    limits = LIMITS + T(" Other devices on the same circuit are not counted.")
    if wall > rated:
        yield Finding("power.circuit", Severity.ERROR,
                      T("About {wall:.0f} W at the wall under peak load, above the {rated:.0f} W a {region} "
                        "circuit is rated for; under continuous load it carries {circuit:.0f} W ({source}).",
                        wall=wall, rated=rated, region=label, circuit=circuit, source=source),
                      fix=_limit_fix(ctx, circuit=True), limits=limits, figures=figs)
    elif wall > circuit:
        # Above a code's continuous rating (US NEC) is an error; above the stated margin a warning.
        yield Finding("power.circuit", Severity.ERROR if region.code_share is not None else Severity.WARNING,
                      T("About {wall:.0f} W at the wall under peak load; a {region} circuit carries "
                        "{circuit:.0f} W continuously ({source}).", wall=wall, region=label,
                        circuit=circuit, source=source),
                      fix=_limit_fix(ctx, circuit=True), limits=limits, figures=figs)
    elif wall > 0.9 * circuit:
        yield Finding("power.circuit", Severity.INFO,
                      T("About {wall:.0f} W at the wall under peak load, {share:.0f}% of what "
                        "a {region} circuit carries continuously ({circuit:.0f} W).", wall=wall,
                        share=100 * wall / circuit, region=label, circuit=circuit),
                      fix=T("Keep other loads (monitors, heaters) off this circuit, or apply a power limit."),
                      limits=limits, figures=figs)


EPS_PCIE_CABLES = 2
"""PCIe 8-pin cables an 8-pin EPS (CPU) GPU input takes through an adapter: a data-centre card of
250-300 W draws more than one PCIe 8-pin's 150 W plus the slot's 75 W."""


@dataclass(frozen=True)
class Cables:
    """PCIe power cables GPUs need and PSUs give (``total_8`` includes 8-pin cables for adapters)."""

    need_8: int
    need_hp: int
    have_8: int
    have_hp: int
    adapters: int
    eps: int = 0
    """GPU 8-pin EPS (CPU) inputs; each is counted in ``need_8`` as ``EPS_PCIE_CABLES`` cables."""

    @property
    def total_8(self) -> int:
        return self.need_8 + self.adapters

    @property
    def enough(self) -> bool:
        """No psu.connectors error: enough 8-pin cables, adapters for missing 12V-2x6 sockets included."""
        return self.total_8 <= self.have_8


HPWR_PLUGS = ("12VHPWR", "12V-2x6")
"""The 16-pin GPU power sockets (PCIe CEM 5.0's 12VHPWR, renamed 12V-2x6 in its 5.1 revision)."""


def hpwr_plugs(g: GPU) -> int:
    """How many 12VHPWR/12V-2x6 sockets one card of ``g`` has."""
    return sum(1 for c in g.power_connectors if c in HPWR_PLUGS)


def cables(gpus: Iterable[GPU], psus: Sequence[PSU]) -> Cables:
    need_8 = 0
    need_hp = 0
    eps = 0
    hp_power = []
    for g in gpus:
        for c in g.power_connectors:
            if c == "8-pin EPS":  # a CPU-keyed socket: an adapter from PCIe cables (or a spare EPS cable)
                need_8 += EPS_PCIE_CABLES
                eps += 1
            elif c in ("8-pin", "6-pin"):
                need_8 += 1
            elif c == "12-pin":  # RTX 30 FE: adapter from two 8-pin cables
                need_8 += 2
            elif c in HPWR_PLUGS:
                need_hp += 1
                hp_power.append(g.board_power_w)
    have_hp = sum(p.hpwr_sockets for p in psus)
    have_8 = sum((p.pcie_cables if p.pcie_cables is not None else p.pcie_8pin) for p in psus)
    adapters = 0
    if need_hp > have_hp:
        # 12VHPWR adapters take one 8-pin per 150 W of the card (3 or 4 plugs).
        for w in sorted(hp_power)[: need_hp - have_hp]:
            adapters += max(3, math.ceil(w / 150))
    return Cables(need_8, need_hp, have_8, have_hp, adapters, eps)


def _connectors(ctx: Context) -> Iterator[Finding]:
    cab = cables((g.gpu for g in ctx.gpus), ctx.psus)
    need_8, need_hp, have_8, have_hp, adapters = cab.need_8, cab.need_hp, cab.have_8, cab.have_hp, cab.adapters
    if not need_8 and not need_hp:
        return
    cables_known = all(p.pcie_cables is not None for p in ctx.psus)
    total_8 = cab.total_8
    parts = tuple(p.id for p in ctx.psus)
    figs = (("pcie_8pin_needed", total_8), ("pcie_8pin_available", have_8),
            ("hpwr_needed", need_hp), ("hpwr_available", have_hp))
    if total_8 > have_8:
        extra = T(" (including {adapters} for 12VHPWR adapters)", adapters=adapters) if adapters else T.verbatim("")
        unknown = T.verbatim("") if cables_known else T(" connectors (separate cables not known)")
        yield Finding("psu.connectors", Severity.ERROR,
                      T("The GPUs need {need} PCIe 8-pin cables{extra}; available: {have}{unknown}. Every "
                        "8-pin socket of a GPU needs its own cable, no daisy chains (Makropoulos 2023).",
                        need=total_8, extra=extra, have=have_8, unknown=unknown),
                      fix=T("Choose a PSU with more PCIe sockets, or a second PSU."), limits=LIMITS,
                      gpus=tuple(g.num for g in ctx.gpus), parts=parts, figures=figs)
    elif not cables_known and total_8 > 0:
        yield Finding("psu.connectors", Severity.INFO,
                      T("The GPUs need {need} PCIe 8-pin cables; the PSU spec lists {have} connectors but not how "
                        "many separate cables: some may be daisy-chained pairs.", need=total_8, have=have_8),
                      fix=T("Check the PSU manual: every 8-pin socket of a GPU needs its own cable."),
                      limits=LIMITS, parts=parts, figures=figs)
    if cab.eps:
        yield Finding("psu.connectors", Severity.INFO,
                      nT("{n} GPU power input is an 8-pin EPS (CPU) socket: a PCIe 8-pin plug must never go into "
                         "one (the two are keyed differently and carry 12 V on opposite pins). It is counted as an "
                         "adapter from {cables} PCIe 8-pin cables.",
                         "{n} GPU power inputs are 8-pin EPS (CPU) sockets: a PCIe 8-pin plug must never go into "
                         "one (the two are keyed differently and carry 12 V on opposite pins). Each is counted as an "
                         "adapter from {cables} PCIe 8-pin cables.", cab.eps, cables=EPS_PCIE_CABLES),
                      fix=T("Use the card maker's adapter from PCIe 8-pin cables to one CPU 8-pin, or a spare EPS "
                            "cable of the PSU (not the one the board's CPU socket needs)."),
                      limits=LIMITS, gpus=tuple(g.num for g in ctx.gpus if "8-pin EPS" in g.gpu.power_connectors),
                      parts=parts, figures=(("eps_inputs", cab.eps),))
    if need_hp > have_hp:
        yield Finding("psu.connectors", Severity.WARNING if total_8 <= have_8 else Severity.ERROR,
                      T("GPU 12VHPWR/12V-2x6 sockets: {need}, on the power supplies: {have}. {short}", need=need_hp,
                        have=have_hp, short=nT("{n} card needs an adapter from 8-pin cables.",
                                               "{n} cards need an adapter from 8-pin cables.", need_hp - have_hp)),
                      fix=T("An ATX 3.x PSU with native 12V-2x6 sockets avoids adapters."), limits=LIMITS,
                      parts=parts, figures=figs)


def _transients(ctx: Context) -> Iterator[Finding]:
    if all(p.atx3 for p in ctx.psus):
        return
    spiky = [g for g in ctx.gpus if g.gpu.architecture in TRANSIENT_ARCHS]
    if not spiky:
        return
    rep = ctx.power
    spike = rep.dc["peak"] + rep.gpu_transient_w
    rating = rep.psu_rating_w
    sev = Severity.WARNING if spike > rating else Severity.INFO
    yield Finding("psu.transients", sev,
                  nT("{n} GPU of a generation known for power spikes on a PSU that is not ATX 3.x: "
                     "short spikes reach about {spike:.0f} W against the {rating:.0f} W rating "
                     "(e.g. RTX 3090 about 460 W at 350 W; RTX 5090 627 W for 10-20 ms).",
                     "{n} GPUs of a generation known for power spikes on a PSU that is not ATX 3.x: "
                     "short spikes reach about {spike:.0f} W against the {rating:.0f} W rating "
                     "(e.g. RTX 3090 about 460 W at 350 W; RTX 5090 627 W for 10-20 ms).",
                     len(spiky), spike=spike, rating=rating),
                  fix=T("An ATX 3.x PSU is tested for such load steps; or a power limit lowers the spikes."),
                  limits=LIMITS + T(" Spike sizes are estimates by GPU generation."),
                  gpus=tuple(g.num for g in spiky), parts=tuple(p.id for p in ctx.psus),
                  figures=(("spike_w", round(spike, 1)), ("rating_w", rating)))


@dataclass(frozen=True)
class LoadVerdict:
    """A build's peak load against its PSU and wall circuit."""

    dc_w: float
    wall_w: float
    psu_w: float  # 0 without a PSU
    circuit_w: float  # what the circuit carries continuously
    rated_w: float  # what it is rated for

    @property
    def psu_ok(self) -> bool:
        return not self.psu_w or self.dc_w * HEADROOM <= self.psu_w

    @property
    def circuit_ok(self) -> bool:
        return self.wall_w <= self.circuit_w

    @property
    def fits(self) -> bool:
        return self.psu_ok and self.circuit_ok

    def text(self, region_label: str) -> T:
        """One sentence: the wall draw against the circuit and, where it is short, the PSU."""
        share = self.wall_w / self.circuit_w if self.circuit_w else 0.0
        if self.wall_w > self.rated_w:
            circuit = T("{wall:.0f} W at the wall, above the {rated:.0f} W a {region} circuit is rated for",
                        wall=self.wall_w, rated=self.rated_w, region=T(region_label))
        elif not self.circuit_ok:
            circuit = T("{wall:.0f} W at the wall, above the {circuit:.0f} W a {region} circuit carries "
                        "continuously ({share:.0%})", wall=self.wall_w, circuit=self.circuit_w,
                        region=T(region_label), share=share)
        else:
            circuit = T("{wall:.0f} W at the wall, {share:.0%} of the {circuit:.0f} W a {region} circuit carries "
                        "continuously", wall=self.wall_w, share=share, circuit=self.circuit_w, region=T(region_label))
        if not self.psu_ok:
            return T("{circuit}; {dc:.0f} W peak load leaves less than 10% headroom on {psu:.0f} W of PSU.",
                     circuit=circuit, dc=self.dc_w, psu=self.psu_w)
        if self.fits:
            return T("{circuit}: fits the PSU and the circuit.", circuit=circuit)
        return T("{circuit}.", circuit=circuit)


def load_verdict(ctx: Context) -> LoadVerdict:
    s = ctx.build.settings
    rep = ctx.power
    return LoadVerdict(rep.dc["peak"], rep.wall["peak"], rep.psu_rating_w if ctx.psus else 0.0, s.circuit_w(),
                       s.region_info().rated_w)


@dataclass(frozen=True)
class LimitPlan:
    """What ``rigbuilder limits`` and the window's dialog say: the build at full power, at its
    current limits (None when no GPU has one), and the smallest uniform limit from full power."""

    full: LoadVerdict
    current: Optional[LoadVerdict]
    current_limits: tuple[tuple[int, int], ...]
    advice: LimitAdvice

    @property
    def needed(self) -> bool:
        return not self.full.fits

    @property
    def to_apply(self) -> tuple[tuple[int, int], ...]:
        """The limits to set: the build's own where they fit, else the advice's (none when none is needed)."""
        if self.current is not None and self.current.fits:
            return self.current_limits
        if not self.needed:
            return ()
        return self.advice.limits_w


def plan_limits(build, index) -> Optional[LimitPlan]:
    """None for a build without GPUs."""
    from rigbuilder.domain.gpu_commands import build_limits

    full_build = build.clone()
    for g in full_build.gpus:
        g.power_limit_w = None
    full_ctx = Context(full_build, index)
    advice = advise_power_limit(full_ctx)
    if advice is None:
        return None
    limits = tuple(build_limits(build))
    current = load_verdict(Context(build, index)) if limits else None
    return LimitPlan(load_verdict(full_ctx), current, limits, advice)


def limit_lines(plan, region_label: str, unit: bool = True) -> list[str]:
    """What ``rigbuilder limits`` prints and the report's power-limit section: the verdicts, the
    proposal and the commands (``T`` texts and command lines)."""
    adv = plan.advice
    out: list[str] = [T("At full power: {verdict}", verdict=plan.full.text(region_label))]
    if plan.current is not None:
        watts = "/".join(str(w) for w in sorted({w for _, w in plan.current_limits}))
        out.append(T("At the current limits ({watts} W): {verdict}", watts=watts,
                     verdict=plan.current.text(region_label)))
    if not plan.needed:
        out.append(T("No power limit needed: the build fits its PSU and circuit at full power."))
    elif plan.current is not None and plan.current.fits:
        out.append(T("The current limits fit; to apply them:"))
    else:
        if not adv.feasible:
            out.append(T("Even at half power the build does not fit its PSU and circuit."))
        figs = dict(fraction=adv.fraction, less=1 - adv.throughput, dc=adv.peak_dc_w, wall=adv.peak_wall_w)
        out.append(T("Limit every GPU to {fraction:.0%} of its board power: about {less:.1%} less throughput "
                     "(estimate, extrapolated); peak {dc:.0f} W DC, {wall:.0f} W at the wall.", **figs)
                   if adv.extrapolated else
                   T("Limit every GPU to {fraction:.0%} of its board power: about {less:.1%} less throughput "
                     "(estimate); peak {dc:.0f} W DC, {wall:.0f} W at the wall.", **figs))
    out += gpu_commands.instructions(plan.to_apply, unit)
    return out
