"""lanes.*: electrical width and generation of each GPU's link, and the CPU's lane budget."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Sequence

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T, nT
from rigbuilder.models.lanes import SEED_BATCH_MS, Link, batch_transfer_ms
from rigbuilder.rules.context import Context, gpu_label
from rigbuilder.rules.geometry import RECOMMENDED_LANES, lane_severity

if TYPE_CHECKING:
    from rigbuilder.domain.build import Build
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.models.workloads import Workload

LIMITS = T("Widths follow the board manual's lane table as entered in the catalog; BIOS bifurcation "
           "settings and switch contention are not modelled. Transfer times are ideal-bandwidth estimates.")


def _cost(link: Link) -> T:
    ms = batch_transfer_ms(link)
    x16 = batch_transfer_ms(Link(16, link.gen))
    return T("a batch of 32 ImageNet images takes about {ms:.1f} ms against {x16:.1f} ms at x16 "
             "(Tim Dettmers' figures, quoted in Frank 2019: {seed} ms at x16/x8/x4 "
             "on PCIe 3.0; a ResNet-152 step takes 216 ms)", ms=ms, x16=x16,
             seed=f"{SEED_BATCH_MS[16]}/{SEED_BATCH_MS[8]}/{SEED_BATCH_MS[4]}")


INFERENCE_TOKEN_MS = 1.0
"""Inference: the link's transfer per token above which a narrow link is a warning (a judgement of this
program: a token of a large model takes tens of milliseconds, so 1 ms is a few percent at most); below it the
link costs only the loading of the weights, once per model load, and the finding is a note."""


def _inference_cost(link: Link, wl: "Workload", n_gpus: int) -> tuple[T, float]:
    """What a link of ``link`` costs inference of ``wl`` on ``n_gpus`` cards: the text, and the transfer per
    token in ms (ideal bandwidth). Loading: the card's share of the weights over the link against x16 of the
    same generation. Per token: llama.cpp and exllamav2 split the layers (one activation vector of the
    model's width, 16-bit, passes to the next card), vLLM splits each matrix (two all-reduces of that vector
    per layer); one card passes nothing."""
    from rigbuilder.models.vram import weight_bytes

    gb = weight_bytes(wl) / max(1, n_gpus) / 1e9
    s, s16 = gb / link.gbps, gb / Link(16, link.gen).gbps
    hidden, layers = wl.model.hidden, wl.model.layers
    load = T("this card's share of the weights, about {gb:.1f} GB, loads in about {s:.1f} s against {s16:.1f} s at "
             "x16, once per model load", gb=gb, s=s, s16=s16)
    if n_gpus < 2 or not hidden:
        return T("For inference the link costs only the loading: {load}; while generating nothing crosses it.",
                 load=load), 0.0
    if wl.engine == "vllm":
        nbytes = 2 * layers * hidden * 2
        ms = nbytes / (link.gbps * 1e9) * 1e3
        return T("For inference the link costs the loading: {load}; and while generating, the cards split every "
                 "matrix and exchange about {mb:.1f} MB per token (two all-reduces per layer): {ms:.2f} ms at this "
                 "link.", load=load, mb=nbytes / 1e6, ms=ms), ms
    nbytes = hidden * 2
    ms = nbytes / (link.gbps * 1e9) * 1e3
    return T("For inference the link costs only the loading: {load}; while generating, the layers split across the "
             "cards pass {kb:.0f} KB per token to the next card, {us:.0f} µs at this link.", load=load,
             kb=nbytes / 1e3, us=ms * 1e3), ms


def check_lanes(ctx: Context, wl: Optional["Workload"] = None) -> Iterator[Finding]:
    """``wl``: an inference workload the build is judged for (``for_workload``): a narrow link says what it
    costs that inference instead of the training figures."""
    board = ctx.board
    if board is None:
        return
    for g in ctx.gpus:
        if g.position is None:
            yield Finding("lanes.unconnected", Severity.WARNING,
                          T("{gpu} is on a riser that is not plugged into a slot.", gpu=gpu_label(g)),
                          fix=T("Choose the slot its riser cable plugs into."), limits=LIMITS, gpus=(g.num,),
                          parts=(g.gpu.id,))
            continue
        slot = board.slot_at(g.position)
        link = ctx.link(g, through_riser=False)  # the slot's side; a riser's own limits: rules.risers
        if slot is None or link is None:
            continue
        if link.width == 0:
            yield Finding("lanes.width", Severity.ERROR,
                          T("{slot} (position {position}) is disabled in this configuration, so {gpu} has no link.",
                            slot=slot.id, position=slot.position, gpu=gpu_label(g)),
                          fix=_width_fix(ctx, slot.id), limits=LIMITS, gpus=(g.num,),
                          positions=(slot.position,), parts=(g.gpu.id, board.id))
        elif (sev := lane_severity(link.width)) is not None and wl is not None and sev is Severity.WARNING:
            cost, ms = _inference_cost(link, wl, len(ctx.gpus))
            yield Finding("lanes.width", Severity.WARNING if ms > INFERENCE_TOKEN_MS else Severity.INFO,
                          T("{gpu} runs at x{width} Gen{gen} in {slot} ({gbps:.1f} GB/s). {cost}", gpu=gpu_label(g),
                            width=link.width, gen=link.gen, slot=slot.id, gbps=link.gbps, cost=cost),
                          fix=_width_fix(ctx, slot.id) if ms > INFERENCE_TOKEN_MS else
                          T("None needed for inference. For training: {fix}", fix=_width_fix(ctx, slot.id)),
                          limits=LIMITS, gpus=(g.num,), positions=(slot.position,), parts=(g.gpu.id, board.id),
                          figures=(("width", link.width), ("gen", link.gen), ("gbps", round(link.gbps, 2)),
                                   ("token_ms", round(ms, 4))))
        elif sev is not None:
            yield Finding("lanes.width", sev,
                          T("{gpu} runs at x{width} Gen{gen} in {slot} ({gbps:.1f} GB/s); at least x8 is recommended for "
                            "multi-GPU training: {cost}.", gpu=gpu_label(g), width=link.width, gen=link.gen,
                            slot=slot.id, gbps=link.gbps, cost=_cost(link)),
                          fix=_width_fix(ctx, slot.id), limits=LIMITS, gpus=(g.num,),
                          positions=(slot.position,), parts=(g.gpu.id, board.id),
                          figures=(("width", link.width), ("gen", link.gen), ("gbps", round(link.gbps, 2))))
        if link.width > 0 and link.gen < g.gpu.pcie_gen:
            yield Finding("lanes.generation", Severity.INFO,
                          T("{gpu} is a PCIe {card_gen}.0 card; its link in {slot} runs at Gen{gen} (x{width}, {gbps:.1f} GB/s).",
                            gpu=gpu_label(g), card_gen=g.gpu.pcie_gen, slot=slot.id, gen=link.gen,
                            width=link.width, gbps=link.gbps),
                          fix=T("Fine for most training; for heavy host-device traffic use a board and CPU "
                                "with PCIe {card_gen}.0.", card_gen=g.gpu.pcie_gen),
                          limits=LIMITS, gpus=(g.num,), positions=(slot.position,), parts=(g.gpu.id,))
    if ctx.unplaced_nvme > 0:
        yield Finding("lanes.m2", Severity.WARNING,
                      nT("{n} NVMe drive has no free M.2 socket on the {board} (M.2 sockets: {sockets}).",
                         "{n} NVMe drives have no free M.2 socket on the {board} (M.2 sockets: {sockets}).",
                         ctx.unplaced_nvme, board=board.name, sockets=len(board.m2)),
                      fix=T("Use an M.2 adapter card in a free slot, or fewer NVMe drives."), limits=LIMITS,
                      parts=(board.id,))
    cpu = ctx.cpu
    if cpu is not None:
        used = 0
        for g in ctx.gpus:
            s = board.slot_at(g.position) if g.position else None
            if s is not None and s.source == "CPU":
                used += min(ctx.widths.get(s.id, 0), g.gpu.pcie_lanes, g.riser.lanes if g.riser else 16)
        for m2id in ctx.m2_assignment:
            sock = next((m for m in board.m2 if m.id == m2id), None)
            if sock is not None and sock.source == "CPU":
                used += ctx.widths.get(m2id, sock.lanes)
        sockets = max(1, board.cpu_sockets)
        cpu_lanes = cpu.pcie_lanes * sockets
        cpu_name = cpu.name if sockets == 1 else T("{n} × {cpu}", n=sockets, cpu=cpu.name)
        if used > cpu_lanes:
            yield Finding("lanes.budget", Severity.ERROR,
                          T("The CPU-connected slots and M.2 sockets in use need {used} lanes; the {cpu} gives {lanes}.",
                            used=used, cpu=cpu_name, lanes=cpu_lanes),
                          fix=T("Use a CPU with more lanes, or fewer CPU-connected devices."),
                          limits=LIMITS, parts=(cpu.id, board.id),
                          figures=(("lanes_used", used), ("cpu_lanes", cpu_lanes)))
        demand = RECOMMENDED_LANES * len(ctx.gpus) + 4 * sum(c for d, c, _ in ctx.storage if d.pcie_lanes > 0) + \
            sum(n.pcie_lanes for n in ctx.nics)
        if len(ctx.gpus) >= 2 and demand > cpu_lanes and not any(s.source == "switch" for s in board.slots):
            yield Finding("lanes.budget", Severity.WARNING,
                          T("{n} GPUs at x8, the NVMe drives and network cards want {demand} lanes; the {cpu} gives {lanes} "
                            "(at least 40 lanes cover 4 GPUs at x8, Makropoulos 2023).", n=len(ctx.gpus),
                            demand=demand, cpu=cpu_name, lanes=cpu_lanes),
                          fix=T("A CPU with more lanes (Xeon W, Threadripper, EPYC) or a board with PCIe switches."),
                          limits=LIMITS, parts=(cpu.id,),
                          figures=(("lanes_wanted", demand), ("cpu_lanes", cpu_lanes)))


def for_workload(build: "Build", fs: Sequence[Finding], index: "PartIndex",
                 wl: Optional["Workload"]) -> list[Finding]:
    """The build's findings ``fs`` with its lanes.width warnings judged for ``wl`` where it is an inference
    workload (what the link costs loading the weights and generating, a note where that is nothing to speak
    of); as they are otherwise."""
    if wl is None or wl.training or not any(f.code == "lanes.width" and f.severity is Severity.WARNING for f in fs):
        return list(fs)
    ctx = Context(build, index)
    return [f for f in fs if f.code != "lanes.width"] + [f for f in check_lanes(ctx, wl) if f.code == "lanes.width"]


def _width_fix(ctx: Context, slot_id: str) -> T:
    board = ctx.board
    assert board is not None
    # A free slot that would run at x8 or more if the card moved there.
    for s in sorted(board.slots, key=lambda s: s.position):
        if ctx.build.gpu_at(s.position) is None and s.lanes >= 8:
            return T("Move the card to {slot} (position {position}, up to x{lanes}), or free the slots and M.2 "
                     "sockets that share {shared}'s lanes.", slot=s.id, position=s.position, lanes=s.lanes,
                     shared=slot_id)
    return T("Free the slots or M.2 sockets that share {shared}'s lanes, or use a board with more CPU lanes.",
             shared=slot_id)
