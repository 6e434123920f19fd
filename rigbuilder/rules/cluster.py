"""Checks across the machines of a cluster plan, each a pure function with a stable code.

- ``cluster.nic_missing``: a machine of a multi-machine plan has no network card; a card the
  catalog lacks; a card not placed in a slot of the board.
- ``cluster.nic_covered``: the card's slot holds a GPU or lies under a GPU's body (:func:`slot_taken`,
  the same covering test as ``slot.overlap``), an error like every other card in a covered slot.
- ``cluster.nic_starves_gpu``: the card's slot takes lanes from a GPU (the board's lane table).
- ``cluster.nic_chipset``: the card sits on a chipset slot (its traffic shares the chipset's link
  to the CPU, often x4).
- ``cluster.nic_slot_slow``: the slot cannot carry the card's cabled ports at line rate.
- ``cluster.rdma_path``: the path goes GPU -> CPU memory -> card (no GPUDirect RDMA), and why.
- ``cluster.internode_slow``: between machines far slower than inside one (Dettmers 2014: about
  4 GB/s against 15.75 GB/s for PCIe 3.0 x16).
- ``cluster.ram``: less RAM than twice the machine's VRAM; ``cluster.cores``: fewer CPU cores
  than GPUs (Dettmers 2014).
- ``cluster.power``: all machines at peak against the room's circuits.
- ``cluster.direct_ports``: direct cables for more than two machines without two ports each.
- ``cluster.model_parallel``: the model fits only when split over machines (Dettmers' lesson, 2014).
- ``cluster.no_speedup``: N machines train slower than one (warning) or at under half their worth (info):
  "if one chooses a slow network card then there might be no speedups over a single computer"
  (Dettmers 2014).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterator, Optional, Sequence

from rigbuilder.domain.build import REGIONS, Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.cluster import ClusterPlan, NicPlacement
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T, interleave, nT
from rigbuilder.domain.parts import GPU
from rigbuilder.models import cluster_scaling as CS
from rigbuilder.models import vram as V
from rigbuilder.models.workloads import WORKLOADS
from rigbuilder.rules.context import Context, PlacedGpu
from rigbuilder.rules.geometry import covers

RAM_PER_VRAM = 2.0
"""About twice the GPU memory in RAM (Dettmers 2014)."""
FAR_BELOW = 2.0
"""Inter-node bandwidth at most half the intra-node one is noted; at most an eighth is a warning."""
MUCH_FAR_BELOW = 8.0


@dataclass(frozen=True)
class ClusterMachine:
    label: str
    build: Build
    ctx: Context
    net: CS.MachineNet


class ClusterContext:
    """The plan with each machine's build checked as one machine would be."""

    def __init__(self, plan: ClusterPlan, machines: Sequence[tuple], index: PartIndex) -> None:
        """``machines``: (label, build, its NIC placements[, kind name]) for every machine, copies
        included; copies of one build with the same cards are checked once (:attr:`kinds`)."""
        self.plan = plan
        self.index = index
        self.machines: list[ClusterMachine] = []
        groups: dict[tuple, list] = {}
        nets: dict[tuple, CS.MachineNet] = {}
        ctxs: dict[int, Context] = {}
        builds: dict[tuple, Build] = {}
        for item in machines:
            label, b, nics = item[0], item[1], tuple(item[2])
            kind = item[3] if len(item) > 3 else label.rsplit(" #", 1)[0]
            if not nics:  # the build's own cards, not placed in a slot (a finding says so)
                nics = tuple(NicPlacement(pid) for pid in b.nics)
            key = (id(b), nics)
            if key not in nets:
                # the plan's cards are the machine's cards: its power, purchase and checks count them
                builds[key] = replace(b, nics=[p.part_id for p in nics])
                nets[key] = CS.machine_network(builds[key], index, nics, plan.network)
            b = builds[key]
            ctx = ctxs.setdefault(id(b), Context(b, index))
            m = ClusterMachine(label, b, ctx, nets[key])
            self.machines.append(m)
            groups.setdefault(key, [kind, []])[1].append(m)
        self.kinds: list[ClusterMachine] = [
            ms[0] if len(ms) == 1 else ClusterMachine(T("{name} (x{n})", name=kind, n=len(ms)), ms[0].build, ms[0].ctx,
                                                      ms[0].net)
            for kind, ms in groups.values()]
        """One entry per distinct machine: copies of a build with the same cards, labelled 'node (x4)'."""

    @cached_property
    def region(self):
        code = self.plan.region or (self.machines[0].build.settings.region if self.machines else None)
        return REGIONS.get(code or "", next(iter(REGIONS.values())))

    @cached_property
    def workload(self):
        return WORKLOADS[self.plan.workload]

    @cached_property
    def scaling(self) -> CS.ClusterScaling:
        return CS.cluster_scaling([(m.build, m.net) for m in self.machines], self.index, self.workload)

    def wall_peak_w(self) -> float:
        return sum(m.ctx.power.wall["peak"] for m in self.machines)

    def wall_training_w(self) -> float:
        return sum(m.ctx.power.wall["training"] for m in self.machines)


def _f(code: str, sev: Severity, msg: str, fix: str = "", limits: str = "", parts=(), gpus=(), positions=(),
       figures=()) -> Finding:
    return Finding(code, sev, msg, fix, limits, tuple(gpus), tuple(positions), tuple(parts), tuple(figures))


def slot_taken(ctx: Context, position: int) -> Optional[tuple[str, PlacedGpu]]:
    """Whether a card can go into the board's slot at ``position``: ("sits", gpu) when a GPU (or
    its riser cable) is plugged in there, ("covers", gpu) when a GPU's body covers it (the same
    test as ``slot.overlap``: ``geometry.covers``), None when it is free. One fact for every door:
    the checks, ``cluster new`` and the window's slot list."""
    for g in ctx.gpus:
        if g.placement.position == position:
            return "sits", g
    for g in ctx.board_gpus:
        if covers(g.position, g.gpu, position):
            return "covers", g
    return None


def free_slots(ctx: Context, taken: Sequence[int] = ()) -> list:
    """The board's slots no GPU sits in or covers and not in ``taken`` (positions), in board order."""
    if ctx.board is None:
        return []
    return [s for s in sorted(ctx.board.slots, key=lambda s: s.position)
            if s.position not in taken and slot_taken(ctx, s.position) is None]


def _free_slot_fix(ctx: Context, taken: Sequence[int]) -> T:
    # the slots wired to the CPU or the GPUs' switch first: a chipset slot shares the chipset's link (nic_chipset)
    free = sorted(free_slots(ctx, taken), key=lambda s: s.source == "chipset")
    if free:
        return T("move the card to a free slot: {slots}", slots=", ".join(s.id for s in free))
    return T("no slot of this board is free: use a thinner GPU, a riser, or a board with more slots")


def check_nics(cc: ClusterContext) -> Iterator[Finding]:
    several = len(cc.machines) > 1
    for m in cc.kinds:
        if several and not m.net.nics:
            yield _f("cluster.nic_missing", Severity.ERROR, T("{machine} has no network card", machine=m.label),
                     T("place a network card in a free slot of {machine}", machine=m.label))
        for x in m.net.nics:
            pid = x.placement.part_id
            if x.nic is None:
                yield _f("cluster.nic_missing", Severity.ERROR,
                         T("{machine}: {part} is not a network card of this catalog", machine=m.label, part=pid),
                         T("choose a card from the catalog's network cards"), parts=(pid,))
                continue
            if x.slot is None:
                yield _f("cluster.nic_missing", Severity.ERROR,
                         T("{machine}: {nic} is not in a slot of the board ({slot})", machine=m.label, nic=x.nic.name,
                           slot=x.placement.slot or "-"),
                         T("name one of the board's slots for it"), parts=(pid,))
                continue
            twice = [y for y in m.net.nics if y.slot is not None and y.slot.id == x.slot.id]
            if len(twice) > 1 and twice[0] is x:
                yield _f("cluster.nic_covered", Severity.ERROR,
                         T("{machine}: {n} network cards are placed in slot {slot}; a slot takes one card",
                           machine=m.label, n=len(twice), slot=x.slot.id),
                         _free_slot_fix(m.ctx, [y.slot.position for y in m.net.nics if y.slot is not None]),
                         parts=(pid,), positions=(x.slot.position,))
            taken = slot_taken(m.ctx, x.slot.position)
            if taken is not None:
                how, g = taken
                yield _f("cluster.nic_covered", Severity.ERROR,
                         T("{machine}: {nic} is placed in slot {slot}, where a GPU sits", machine=m.label,
                           nic=x.nic.name, slot=x.slot.id) if how == "sits" else
                         T("{machine}: {nic} is placed in slot {slot}, which GPU {num} covers ({gpu}, {width:g} slots "
                           "wide, positions {first}-{last})", machine=m.label, nic=x.nic.name, slot=x.slot.id,
                           num=g.num, gpu=g.gpu.name, width=g.gpu.slot_width, first=g.covered[0],
                           last=g.covered[-1]),
                         _free_slot_fix(m.ctx, [y.slot.position for y in m.net.nics if y.slot is not None]),
                         parts=(pid,), gpus=(g.num,), positions=(x.slot.position,))
            if x.slot.source == "chipset":
                yield _f("cluster.nic_chipset", Severity.WARNING,
                         T("{machine}: {nic} sits on a chipset slot ({slot}, x{width}): its traffic shares the "
                           "chipset's link to the CPU and cannot reach a GPU directly", machine=m.label,
                           nic=x.nic.name, slot=x.slot.id, width=x.width),
                         T("use a slot wired to the CPU or to the GPUs' PCIe switch"), parts=(pid,),
                         positions=(x.slot.position,), figures=(("lanes", x.width),))
            need = x.wire_gbs
            if x.width > 0 and x.slot_gbs < need - 1e-9:
                yield _f("cluster.nic_slot_slow", Severity.WARNING,
                         T("{machine}: {nic} on x{width} Gen{gen} ({slot_gbs:.2f} GB/s) cannot carry its {ports} "
                           "at {speed:g} Gbit/s ({need:.2f} GB/s)", machine=m.label, nic=x.nic.name,
                           width=x.width, gen=x.gen, slot_gbs=x.slot_gbs,
                           ports=nT("{n} port", "{n} ports", x.placement.ports),
                           speed=x.port_gbps, need=need),
                         T("give the card a wider or newer slot, or cable fewer ports"), parts=(pid,),
                         positions=(x.slot.position,),
                         figures=(("slot_gbs", round(x.slot_gbs, 3)), ("wire_gbs", round(need, 3))))
        for ch in m.net.changes:
            yield _f("cluster.nic_starves_gpu", Severity.WARNING,
                     T("{machine}: the network card's slot takes lanes from GPU {num}: x{before} becomes x{after}",
                       machine=m.label, num=ch.num, before=ch.before, after=ch.after),
                     T("put the card in a slot that shares no lanes with a GPU (the board's lane table)"),
                     gpus=(ch.num,), figures=(("before", ch.before), ("after", ch.after)))


def check_paths(cc: ClusterContext) -> Iterator[Finding]:
    if len(cc.machines) < 2:
        return
    for m in cc.kinds:
        if not m.net.nics or m.net.nic_gbs <= 0:
            continue
        if not m.net.rdma:
            cost = (1 - m.net.path_gbs / m.net.nic_gbs) if m.net.nic_gbs else 0
            yield _f("cluster.rdma_path", Severity.INFO,
                     T("{machine}: gradients go GPU -> CPU memory -> network card and back (no GPUDirect RDMA): "
                       "{path:.2f} GB/s instead of the card's {nic:.2f} GB/s ({cost:.0%} less; a serial copy, an "
                       "assumption). Why: {why}", machine=m.label, path=m.net.path_gbs, nic=m.net.nic_gbs,
                       cost=cost, why=T.join(*interleave(list(m.net.rdma_why), "; "))),
                     T("for GPUDirect RDMA: an RDMA card on RoCE or InfiniBand, a data-centre or workstation GPU, "
                       "card and GPU under the same PCIe switch"),
                     limits=CS.DETTMERS_2014, figures=(("path_gbs", round(m.net.path_gbs, 3)),
                                                       ("nic_gbs", round(m.net.nic_gbs, 3))))
        if m.net.intra_gbs > 0 and m.net.path_gbs > 0:
            ratio = m.net.intra_gbs / m.net.path_gbs
            if ratio >= FAR_BELOW:
                yield _f("cluster.internode_slow", Severity.WARNING if ratio >= MUCH_FAR_BELOW else Severity.INFO,
                         T("{machine}: between machines {path:.2f} GB/s, {ratio:.1f}x slower than inside it "
                           "({intra:.2f} GB/s, the slowest GPU link); the network is the bottleneck", machine=m.label,
                           path=m.net.path_gbs, ratio=ratio, intra=m.net.intra_gbs),
                         T("a faster card (40 Gbit/s or more) with GPUDirect RDMA, or one bigger machine"),
                         limits=CS.DETTMERS_2014, figures=(("path_gbs", round(m.net.path_gbs, 3)),
                                                           ("intra_gbs", round(m.net.intra_gbs, 3)),
                                                           ("ratio", round(ratio, 2))))


def check_machines(cc: ClusterContext) -> Iterator[Finding]:
    for m in cc.kinds:
        vram = sum(g.gpu.vram_gb for g in m.ctx.gpus)
        ram = sum(k.total_gb * n for k, n in m.ctx.memory)
        if vram and ram < RAM_PER_VRAM * vram - 1e-9:
            yield _f("cluster.ram", Severity.WARNING,
                     T("{machine}: {ram:g} GB of RAM for {vram:g} GB of VRAM; about twice the VRAM ({want:g} GB) lets "
                       "you work freely with big nets", machine=m.label, ram=ram, vram=vram, want=RAM_PER_VRAM * vram),
                     T("add memory up to {want:g} GB", want=RAM_PER_VRAM * vram), limits=CS.DETTMERS_2014,
                     figures=(("ram_gb", ram), ("vram_gb", vram)))
        n = len(m.ctx.gpus)
        if m.ctx.cpu is not None and n and m.ctx.cpu.cores < n:
            yield _f("cluster.cores", Severity.WARNING,
                     T("{machine}: {cores} CPU cores for {n} GPUs; deep-learning programs mostly use one thread per GPU",
                       machine=m.label, cores=m.ctx.cpu.cores, n=n),
                     T("a CPU with at least as many cores as GPUs"), limits=CS.DETTMERS_2014,
                     figures=(("cores", m.ctx.cpu.cores), ("gpus", n)))


def check_power(cc: ClusterContext) -> Iterator[Finding]:
    region = cc.region
    peak = cc.wall_peak_w()
    room = region.continuous_w() * cc.plan.circuits
    if peak > room + 1e-9:
        yield _f("cluster.power", Severity.ERROR,
                 T("all {n} machines at peak draw {peak:.0f} W at the wall; {circuits}", n=len(cc.machines), peak=peak,
                   circuits=nT("{n} circuit of {label} carries {room:.0f} W continuously",
                               "{n} circuits of {label} carry {room:.0f} W continuously", cc.plan.circuits,
                               label=T(region.label), room=room)),
                 T("feed the machines from {need} circuits, or limit the GPUs' power",
                   need=int(-(-peak // region.continuous_w()))),
                 figures=(("peak_w", round(peak, 1)), ("room_w", room)))


def check_topology(cc: ClusterContext) -> Iterator[Finding]:
    if cc.plan.network.topology != "direct" or len(cc.machines) <= 2:
        return
    for m in cc.kinds:
        ports = sum(x.placement.ports for x in m.net.nics)
        if ports < 2:
            yield _f("cluster.direct_ports", Severity.ERROR,
                     T("{machine}: direct cables between {n} machines need two ports per machine (a ring); it has "
                       "{ports}", machine=m.label, n=len(cc.machines), ports=ports),
                     T("use a switch, or cards with two cabled ports"))


def check_model_parallel(cc: ClusterContext) -> Iterator[Finding]:
    wl = cc.workload
    if len(cc.machines) < 2:
        return
    per_machine = []
    for m in cc.machines:
        gpus = [g.gpu for g in m.ctx.gpus]
        if not gpus:
            return
        per_machine.append((min(gpus, key=lambda g: g.vram_gb), len(gpus)))
    if all(V.best_strategy(wl, g, n)[0] is not None for g, n in per_machine):
        return
    smallest: GPU = min((g for g, _ in per_machine), key=lambda g: g.vram_gb)
    total = sum(n for _, n in per_machine)
    if V.best_strategy(wl, smallest, total)[0] is None:
        return
    yield _f("cluster.model_parallel", Severity.WARNING,
             T("{model} fits only when split over machines: every step then waits on the network between them. "
               "Building a cluster of small cards to hold one big model was, in Tim Dettmers' own words, \u201crather "
               "foolish (and expensive)\u201d", model=wl.model.name),
             T("cards with more memory in one machine, or a smaller model that fits one machine"),
             limits=CS.DETTMERS_2014)


def check_speedup(cc: ClusterContext) -> Iterator[Finding]:
    """More machines that do not make training faster (or barely): the network eats the gain."""
    sc = cc.scaling
    if len(sc.points) < 2:
        return
    last = sc.points[-1]
    if last.speedup < 1.0:
        yield _f("cluster.no_speedup", Severity.WARNING,
                 T("{n} machines train {workload} at {x:.2f}x one machine: slower than one alone ({limit})",
                   n=last.machines, workload=cc.workload.label, x=last.speedup, limit=sc.limit),
                 T("a faster card (40 Gbit/s or more) with GPUDirect RDMA, or one bigger machine"),
                 limits=CS.DETTMERS_2014, figures=(("speedup", round(last.speedup, 3)),))
    elif last.speedup < 0.5 * last.machines:
        yield _f("cluster.no_speedup", Severity.INFO,
                 T("{n} machines train {workload} at {x:.2f}x one machine: more than half of them is spent waiting "
                   "on the network ({limit})", n=last.machines, workload=cc.workload.label, x=last.speedup,
                   limit=sc.limit),
                 T("a faster card (40 Gbit/s or more) with GPUDirect RDMA, or one bigger machine"),
                 limits=CS.DETTMERS_2014, figures=(("speedup", round(last.speedup, 3)),))


CHECKS = (check_nics, check_paths, check_machines, check_power, check_topology, check_model_parallel, check_speedup)


def check_cluster(cc: ClusterContext) -> list[Finding]:
    out: list[Finding] = []
    for c in CHECKS:
        out += list(c(cc))
    return sorted(out, key=Finding.sort_key)


def machine_findings(cc: ClusterContext) -> list[tuple[str, list[Finding]]]:
    """Each distinct machine's own findings (the single-machine checks), by its label."""
    from rigbuilder.rules.engine import run_checks

    return [(m.label, run_checks(m.build, cc.index, context=m.ctx)) for m in cc.kinds]


def cluster_purchase(cc: ClusterContext, currency: Optional[str] = None, owned: Optional[dict[str, int]] = None
                     ) -> tuple[float, list[str], str, dict[str, int]]:
    """(total of the known prices, unpriced part names, currency, parts taken from the lab's stock):
    every machine with its network cards, the switch and cables. Parts the lab owns (``owned``: part id -> count,
    from its inventory) cost nothing, as many as it has."""
    from rigbuilder.models import cost

    cur = currency or (cc.machines[0].build.settings.currency if cc.machines else "USD")
    stock = dict(owned or {})
    used: dict[str, int] = {}
    total, missing = 0.0, []

    def take(part_id: str, quantity: int) -> int:
        n = min(quantity, max(0, stock.get(part_id, 0)))
        if n:
            stock[part_id] -= n
            used[part_id] = used.get(part_id, 0) + n
        return quantity - n

    for m in cc.machines:
        buy = cost.purchase(m.build, cc.index, cur)
        for pp in buy.parts:
            left = take(pp.part_id, pp.quantity)
            if left and pp.price is None:
                missing.append(pp.name)
            elif left:
                total += pp.price * left
    net = cc.plan.network
    if net.switch_price is None:
        if net.topology != "direct":
            missing.append(T("switch"))
    else:
        total += net.switch_price
    if net.cables_price is not None:
        total += net.cables_price
    else:
        got = cable_purchase(cc, cur)
        if got is None:
            missing.append(T("cables"))
        else:
            total += got[0]
    return total, list(dict.fromkeys(missing)), cur, used


def links(cc: ClusterContext) -> list[float]:
    """The port speed of each link the plan cables: two machines cabled directly share one link per
    port; through a switch each machine's cabled port is a link."""
    out: list[float] = []
    for m in cc.machines:
        for x in m.net.nics:
            out += [x.port_gbps] * x.placement.ports
    if cc.plan.network.topology == "direct" and len(cc.machines) == 2:
        return out[: len(out) // 2]
    return out


def cable_purchase(cc: ClusterContext, currency: str) -> Optional[tuple[float, str]]:
    """(price in ``currency``, what it is) of the plan's links from the declared table
    (``domain.cables``), converted at the price book's rates and taxed as the region's buyer pays;
    None when a link's speed has no price in the table (or the rates cannot convert it)."""
    from rigbuilder.domain.cables import link_price
    from rigbuilder.domain.market import tax_step
    from rigbuilder.domain.money import MoneyError, PriceObservation

    speeds = links(cc)
    if not speeds:
        return None
    total, what = 0.0, {}
    for g in speeds:
        lp = link_price(g)
        if lp is None:
            return None
        o = PriceObservation("cable", lp.amount, lp.currency, lp.condition, "shop", lp.source, lp.date)
        try:
            amount = cc.index.prices.rates.convert(lp.amount, lp.currency, currency)
        except MoneyError:
            return None
        total += amount * tax_step(o, cc.region.code).factor
        what[lp.label] = what.get(lp.label, 0) + 1
    return total, "; ".join(f"{n} x {T(label)}" for label, n in what.items())


def cluster_figures(cc: ClusterContext, years: float = 3.0, owned: Optional[dict[str, int]] = None) -> dict:
    """The plan's figures for every door: scaling, power, purchase (parts the lab owns at no cost),
    energy and cost of ownership."""
    from rigbuilder.models import cost as C

    sc = cc.scaling
    total, missing, cur, used = cluster_purchase(cc, owned=owned)
    first = cc.machines[0].build.settings if cc.machines else None
    price_kwh = first.price_per_kwh if first else 0.0
    hours = first.load_hours_per_day if first else 8.0
    idle = first.idle_hours_per_day if first else 0.0
    train_w = cc.wall_training_w()
    idle_w = sum(m.ctx.power.wall["idle"] for m in cc.machines)
    kwh_year = (C.kwh(train_w, hours) + C.kwh(idle_w, idle)) * C.DAYS_PER_YEAR
    energy_year = kwh_year * price_kwh
    return {
        "cluster": cc.plan.name, "machines": [m.label for m in cc.machines], "scaling": sc.to_dict(),
        "power": {"wall_peak_w": round(cc.wall_peak_w(), 1), "wall_training_w": round(train_w, 1),
                  "circuits": cc.plan.circuits, "circuit_w": cc.region.continuous_w(), "region": cc.region.code},
        "purchase": {"total": round(total, 2), "currency": cur, "unpriced": missing, "complete": not missing,
                     "owned_used": used, "cables": _cables_json(cc, cur)},
        "energy": {"kwh_per_year": round(kwh_year, 1), "cost_per_year": round(energy_year, 2),
                   "price_per_kwh": price_kwh, "load_hours_per_day": hours},
        "tco": {"years": years, "total": round(total + years * energy_year, 2), "at_least": bool(missing)},
    }


def one_machine_figures(cc: ClusterContext, build: Build, years: float, currency: str) -> dict:
    """One bigger machine on the cluster's workload: throughput, power, purchase, energy and cost
    of ownership, in the cluster's currency, to set beside the cluster's."""
    from rigbuilder.models import cost as C

    one = CS.single_machine(build, cc.index, cc.workload)
    ctx = Context(build, cc.index)
    buy = C.purchase(build, cc.index, currency)
    s = build.settings
    e_year = (C.kwh(ctx.power.wall["training"], s.load_hours_per_day)
              + C.kwh(ctx.power.wall["idle"], s.idle_hours_per_day)) * C.DAYS_PER_YEAR * s.price_per_kwh
    return {"build": build.name, "throughput": round(one.throughput, 3), "unit": one.unit, "n_gpus": one.n_gpus,
            "fits": one.fits, "wall_peak_w": round(ctx.power.wall["peak"], 1),
            "purchase": round(buy.total, 2), "currency": buy.currency, "unpriced": buy.missing_names(),
            "energy_cost_per_year": round(e_year, 2), "tco": round(buy.total + years * e_year, 2)}


def _cables_json(cc: ClusterContext, cur: str) -> Optional[dict]:
    net = cc.plan.network
    if net.cables_price is not None:
        return {"price": net.cables_price, "what": str(T("the plan's own cable price"))}
    got = cable_purchase(cc, cur)
    if got is None:
        return None
    from rigbuilder.domain.cables import LINKS

    return {"price": round(got[0], 2), "what": got[1],
            "sources": sorted({f"{lp.source} ({lp.date})" for lp in LINKS})}
