"""case.* and compat.*: what fits in the case, what fits together."""
from __future__ import annotations

import re
from typing import Iterator

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.rules.context import Context, gpu_label, mm

CASE_LIMITS = ("Uses the case maker's maximum figures; front radiators, fans and cable routing can "
               "shorten the usable length.")
COMPAT_LIMITS = "Compares catalog figures; BIOS versions and QVL lists are not checked."

FORM_FACTOR_SIZE = {"MINI-ITX": 1, "MICRO-ATX": 2, "ATX": 3, "CEB": 4, "E-ATX": 5, "EEB": 6,
                    "SSI-CEB": 4, "SSI-EEB": 6, "XL-ATX": 7}
SOCKET_ALIASES = {"LGA2011V3": "LGA2011-3", "LGA20113": "LGA2011-3", "LGA2011-V3": "LGA2011-3",
                  "SOCKETTR4": "TR4", "STRX4": "STRX4", "SWRX8": "SWRX8", "STR5": "STR5"}


def norm_form_factor(ff: str) -> str:
    f = ff.upper().replace(" ", "").replace("MATX", "MICRO-ATX").replace("MICROATX", "MICRO-ATX")
    f = f.replace("EATX", "E-ATX").replace("MINIITX", "MINI-ITX").replace("SSIEEB", "SSI-EEB")
    f = f.replace("SSICEB", "SSI-CEB").replace("XLATX", "XL-ATX").replace("E-E-ATX", "E-ATX")
    # Makers write the SSI Compact / Enterprise Electronics Bay sizes as plain "CEB" / "EEB"
    # (ASUS WS boards); cases list them as "SSI-CEB" / "SSI-EEB": the same sizes.
    return {"CEB": "SSI-CEB", "EEB": "SSI-EEB"}.get(f, f)


def norm_socket(s: str) -> str:
    k = re.sub(r"[\s_]|SOCKET", "", s.upper())
    return SOCKET_ALIASES.get(k, k)


def check_case(ctx: Context) -> Iterator[Finding]:
    case = ctx.case
    if case is None:
        yield from _no_case(ctx)
        return
    if case.max_gpu_length_mm:
        for g in ctx.gpus:
            if g.gpu.length_mm > case.max_gpu_length_mm:
                yield Finding("case.gpu-length", Severity.ERROR,
                              f"{gpu_label(g)} is {mm(g.gpu.length_mm)} long; the {case.name} takes cards up to "
                              f"{mm(case.max_gpu_length_mm)}.",
                              fix="Choose a shorter card or a longer case.", limits=CASE_LIMITS,
                              gpus=(g.num,), parts=(g.gpu.id, case.id),
                              figures=(("length_mm", g.gpu.length_mm), ("max_mm", case.max_gpu_length_mm)))
    for g in ctx.board_gpus:
        last = g.covered[-1]
        if last > case.expansion_slots:
            yield Finding("case.expansion-slots", Severity.ERROR,
                          f"{gpu_label(g)} in position {g.position} is {g.gpu.slot_width:g} slots wide and reaches "
                          f"position {last}; the {case.name} has {case.expansion_slots} expansion positions.",
                          fix=f"Move it to a higher slot, or use a case with {last} or more expansion positions.",
                          limits=CASE_LIMITS, gpus=(g.num,), positions=(g.position,), parts=(g.gpu.id, case.id))
    board = ctx.board
    if board is not None and case.form_factors:
        supported = {norm_form_factor(f) for f in case.form_factors}
        ff = norm_form_factor(board.form_factor)
        if ff not in supported:
            yield Finding("case.form-factor", Severity.ERROR,
                          f"The {case.name} supports {', '.join(case.form_factors)}; the {board.name} is {board.form_factor}.",
                          fix="Choose a case that takes this board's form factor.", limits=CASE_LIMITS,
                          parts=(board.id, case.id))
        if board.expansion_positions > case.expansion_slots:
            yield Finding("case.expansion-slots", Severity.WARNING,
                          f"The {board.name} spans {board.expansion_positions} expansion positions; the {case.name} has {case.expansion_slots}.",
                          fix="Use a case with more expansion positions.", limits=CASE_LIMITS,
                          parts=(board.id, case.id))
    cooler = ctx.cooler
    if cooler is not None and cooler.height_mm and case.max_cpu_cooler_height_mm:
        if cooler.height_mm > case.max_cpu_cooler_height_mm:
            yield Finding("case.cooler-height", Severity.ERROR,
                          f"The {cooler.name} is {mm(cooler.height_mm)} tall; the {case.name} takes coolers up to "
                          f"{mm(case.max_cpu_cooler_height_mm)}.",
                          fix="Choose a lower cooler or an AIO.", limits=CASE_LIMITS, parts=(cooler.id, case.id))
    if ctx.psus and case.max_psu_length_mm:
        for p in ctx.psus:
            if p.length_mm and p.length_mm > case.max_psu_length_mm:
                yield Finding("case.psu-length", Severity.ERROR,
                              f"The {p.name} is {mm(p.length_mm)} long; the {case.name} takes PSUs up to {mm(case.max_psu_length_mm)}.",
                              fix="Choose a shorter PSU.", limits=CASE_LIMITS, parts=(p.id, case.id))
    risers = [g for g in ctx.gpus if not g.on_board]
    if len(risers) > case.vertical_gpu_slots and risers:
        yield Finding("case.riser", Severity.INFO,
                      f"{len(risers)} card(s) on risers; the {case.name} has {case.vertical_gpu_slots} vertical mount position(s).",
                      fix="Plan a mount for each riser card (bracket or open frame).", limits=CASE_LIMITS,
                      gpus=tuple(g.num for g in risers), parts=(case.id,))


def _no_case(ctx: Context) -> Iterator[Finding]:
    """Without a case: say what goes unchecked, and name cards that hang past the board's edge."""
    if not (ctx.gpus or ctx.board is not None):
        return
    yield Finding("case.missing", Severity.INFO,
                  "No case chosen: card lengths, expansion positions, cooler height and PSU length are not checked.",
                  fix="Choose a case.", limits=CASE_LIMITS)
    board = ctx.board
    if board is None:
        return
    for g in ctx.board_gpus:
        last = g.covered[-1]
        if last > board.expansion_positions:
            yield Finding("case.past-board", Severity.WARNING,
                          f"{gpu_label(g)} in position {g.position} is {g.gpu.slot_width:g} slots wide and reaches "
                          f"position {last}, past the {board.name}'s {board.expansion_positions} positions.",
                          fix=f"Choose a case with {last} or more expansion positions, or move the card to a higher slot.",
                          limits=CASE_LIMITS, gpus=(g.num,), positions=(g.position,), parts=(g.gpu.id, board.id),
                          figures=(("reaches_position", last), ("board_positions", board.expansion_positions)))


def check_compat(ctx: Context) -> Iterator[Finding]:
    board, cpu, cooler = ctx.board, ctx.cpu, ctx.cooler
    if board is not None and cpu is not None and norm_socket(board.socket) != norm_socket(cpu.socket):
        yield Finding("compat.socket", Severity.ERROR,
                      f"The {cpu.name} is for socket {cpu.socket}; the {board.name} has {board.socket}.",
                      fix="Choose a CPU and board with the same socket.", limits=COMPAT_LIMITS,
                      parts=(cpu.id, board.id))
    if cooler is not None and cooler.sockets:
        sock = cpu.socket if cpu is not None else board.socket if board is not None else None
        if sock and norm_socket(sock) not in {norm_socket(s) for s in cooler.sockets}:
            yield Finding("compat.socket", Severity.ERROR,
                          f"The {cooler.name} fits {', '.join(cooler.sockets)}, not {sock}.",
                          fix="Choose a cooler for this socket.", limits=COMPAT_LIMITS,
                          parts=(cooler.id,))
    modules = sum(k.modules * c for k, c in ctx.memory)
    total = sum(k.total_gb * c for k, c in ctx.memory)
    for kit, _ in ctx.memory:
        if board is not None and kit.type != board.memory_type:
            yield Finding("compat.memory-type", Severity.ERROR,
                          f"The {kit.name} is {kit.type}; the {board.name} takes {board.memory_type}.",
                          fix=f"Choose {board.memory_type} memory.", limits=COMPAT_LIMITS, parts=(kit.id, board.id))
        elif cpu is not None and cpu.memory_types and kit.type not in cpu.memory_types:
            yield Finding("compat.memory-type", Severity.ERROR,
                          f"The {kit.name} is {kit.type}; the {cpu.name} takes {', '.join(cpu.memory_types)}.",
                          fix="Choose memory the CPU supports.", limits=COMPAT_LIMITS, parts=(kit.id, cpu.id))
    if board is not None and modules > board.dimm_slots:
        yield Finding("compat.memory-slots", Severity.ERROR,
                      f"{modules} memory modules; the {board.name} has {board.dimm_slots} DIMM slots.",
                      fix="Use fewer, larger modules.", limits=COMPAT_LIMITS, parts=(board.id,),
                      figures=(("modules", modules), ("dimm_slots", board.dimm_slots)))
    limits = [(board.max_memory_gb, board.name) if board and board.max_memory_gb else None,
              (cpu.max_memory_gb, cpu.name) if cpu and cpu.max_memory_gb else None]
    for lim in limits:
        if lim and total > lim[0]:
            yield Finding("compat.memory-max", Severity.ERROR,
                          f"{total:g} GB of memory; the {lim[1]} supports up to {lim[0]:g} GB.",
                          fix="Use less memory or a platform that supports more.", limits=COMPAT_LIMITS,
                          figures=(("memory_gb", total), ("max_gb", lim[0])))


def check_resources(ctx: Context) -> Iterator[Finding]:
    n = len(ctx.gpus)
    cpu = ctx.cpu
    if cpu is not None and n:
        if cpu.cores < n:
            yield Finding("cpu.cores-per-gpu", Severity.WARNING,
                          f"{cpu.cores} cores for {n} GPUs: fewer than one core per GPU starves data loading.",
                          fix="Choose a CPU with at least one core (better 2 cores / 4 threads) per GPU.",
                          limits="Data-loading needs vary with the data set and augmentation.", parts=(cpu.id,),
                          figures=(("cores", cpu.cores), ("gpus", n)))
        elif cpu.cores < 2 * n or cpu.threads < 4 * n:
            yield Finding("cpu.cores-per-gpu", Severity.INFO,
                          f"{cpu.cores} cores / {cpu.threads} threads for {n} GPUs; 2 cores / 4 threads per GPU "
                          "are recommended (Makropoulos 2023), one core per GPU is often enough (Dettmers 2014).",
                          fix="Fine for most training; for heavy preprocessing choose more cores.",
                          limits="Data-loading needs vary with the data set and augmentation.", parts=(cpu.id,),
                          figures=(("cores", cpu.cores), ("threads", cpu.threads), ("gpus", n)))
    vram = sum(g.gpu.vram_gb for g in ctx.gpus)
    ram = sum(k.total_gb * c for k, c in ctx.memory)
    if vram and ctx.memory:
        if ram < vram:
            yield Finding("memory.vs-vram", Severity.WARNING,
                          f"{ram:g} GB of system memory for {vram:g} GB of total VRAM; at least as much RAM as "
                          "VRAM is recommended (Frank 2019).",
                          fix=f"Plan at least {vram:g} GB, better {2 * vram:g} GB of RAM.",
                          limits="A rule of thumb from build guides; some workloads need less.",
                          figures=(("ram_gb", ram), ("vram_gb", vram)))
        elif ram < 2 * vram:
            yield Finding("memory.vs-vram", Severity.INFO,
                          f"{ram:g} GB of system memory for {vram:g} GB of total VRAM; 1-2x VRAM is the usual aim "
                          "(Makropoulos 2023; Dettmers 2014).",
                          fix=f"{2 * vram:g} GB of RAM gives room for large data sets.",
                          limits="A rule of thumb from build guides; some workloads need less.",
                          figures=(("ram_gb", ram), ("vram_gb", vram)))
