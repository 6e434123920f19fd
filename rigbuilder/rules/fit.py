"""case.* and compat.*: what fits in the case, what fits together."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Iterator, Optional, Sequence

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T, nT
from rigbuilder.rules.context import Context, gpu_label, mm

CASE_LIMITS = T("Uses the case maker's maximum figures; front radiators, fans and cable routing can "
                 "shorten the usable length.")
COMPAT_LIMITS = T("Compares catalog figures; BIOS versions and QVL lists are not checked.")

FORM_FACTOR_SIZE = {"MINI-ITX": 1, "MICRO-ATX": 2, "ATX": 3, "CEB": 4, "E-ATX": 5, "EEB": 6,
                    "SSI-CEB": 4, "SSI-EEB": 6, "XL-ATX": 7}
SOCKET_ALIASES = {"LGA2011V3": "LGA2011-3", "LGA20113": "LGA2011-3", "LGA2011-V3": "LGA2011-3",
                  "SOCKETTR4": "TR4", "STRX4": "STRX4", "SWRX8": "SWRX8", "STR5": "STR5"}


@lru_cache(maxsize=None)
def norm_form_factor(ff: str) -> str:
    f = ff.upper().replace(" ", "").replace("MATX", "MICRO-ATX").replace("MICROATX", "MICRO-ATX")
    f = f.replace("EATX", "E-ATX").replace("MINIITX", "MINI-ITX").replace("SSIEEB", "SSI-EEB")
    f = f.replace("SSICEB", "SSI-CEB").replace("XLATX", "XL-ATX").replace("E-E-ATX", "E-ATX")
    # Makers write the SSI Compact / Enterprise Electronics Bay sizes as plain "CEB" / "EEB"
    # (ASUS WS boards); cases list them as "SSI-CEB" / "SSI-EEB": the same sizes.
    return {"CEB": "SSI-CEB", "EEB": "SSI-EEB"}.get(f, f)


@lru_cache(maxsize=None)
def norm_socket(s: str) -> str:
    k = re.sub(r"[\s_]|SOCKET", "", s.upper())
    return SOCKET_ALIASES.get(k, k)


# -- One fit test per fact ------------------------------------------------------------------------
# The checks below and the optimiser's search (``rules/optimise/search.py``) both ask these: a check
# words a finding where one says no, the search leaves the part out of its pools. Each says what it
# reads, so that a caller asking in bulk may key a cache by that and nothing else.

def cpu_fits_board(cpu, board) -> bool:
    """compat.socket: the CPU is for the board's socket (reads the two sockets, normalised)."""
    return norm_socket(cpu.socket) == norm_socket(board.socket)


def cooler_fits_socket(cooler, socket: str) -> bool:
    """compat.socket: the cooler lists ``socket`` (the CPU's, else the board's), or lists none (not
    checked). Reads the socket only normalised (``norm_socket``)."""
    return not cooler.sockets or norm_socket(socket) in {norm_socket(s) for s in cooler.sockets}


def card_fits_case(gpu, case) -> bool:
    """case.gpu-length: the card is no longer than the case takes (a case without the figure takes any)."""
    return not (case.max_gpu_length_mm and gpu.length_mm > case.max_gpu_length_mm)


def board_fits_case(board, case) -> bool:
    """case.form-factor: the case takes the board's form factor (a case listing none takes any).
    Reads only ``norm_form_factor(board.form_factor)`` of the board."""
    return not case.form_factors or norm_form_factor(board.form_factor) in {norm_form_factor(f)
                                                                            for f in case.form_factors}


def cooler_fits_case(cooler, case) -> bool:
    """case.cooler-height: the cooler is no taller than the case takes (either figure missing: fits)."""
    return not (cooler.height_mm and case.max_cpu_cooler_height_mm
                and cooler.height_mm > case.max_cpu_cooler_height_mm)


def psu_fits_case(psu, case) -> bool:
    """case.psu-length: the PSU is no longer than the case takes (either figure missing: fits)."""
    return not (case.max_psu_length_mm and psu.length_mm and psu.length_mm > case.max_psu_length_mm)


RADIATORS = "case.radiators"
SMALLEST_RADIATOR_MM = 120.0
"""The smallest AIO radiator (one 120 mm fan): a radiator whose size no source states needs a mount of
at least this."""


def card_radiator(gpu) -> tuple[Optional[float], ...]:
    """The radiator a card brings: ``(radiator_mm,)`` for a hybrid (AIO) card (None inside: size not
    stated), ``()`` for any other cooler. Reads only ``radiator_key(gpu)``."""
    return (gpu.radiator_mm,) if gpu.cooler == "hybrid" else ()


def on_loop(gpu) -> bool:
    """Whether the card is cooled by a water block: it needs a custom loop (pump, reservoir, radiator) that
    is no part of a build, so what its radiator needs of the case is not known."""
    return gpu.cooler == "water-block"


def radiator_key(gpu) -> tuple:
    """What ``card_radiator`` and ``on_loop`` read of a card (a cache key for callers asking in bulk)."""
    return (gpu.cooler if gpu.cooler in ("hybrid", "water-block") else "", card_radiator(gpu))


def cooler_radiator(cooler) -> tuple[Optional[float], ...]:
    """The radiator a CPU cooler brings: ``(radiator_mm,)`` for an AIO, ``()`` for an air cooler or none."""
    return (cooler.radiator_mm,) if cooler is not None and cooler.type == "AIO" else ()


def build_radiators(gpus: Iterable, cooler=None) -> tuple[Optional[float], ...]:
    """Every radiator of a build: each card's (``card_radiator``) and the CPU cooler's."""
    return tuple(r for g in gpus for r in card_radiator(g)) + cooler_radiator(cooler)


def radiators_fit(sizes: Sequence[float], mounts: Sequence[float]) -> bool:
    """Whether radiators of ``sizes`` go one to a mount, each no larger than its mount. Sorted largest
    first, the i-th radiator needs the i-th mount: any assignment that exists gives the i largest
    radiators i mounts at least as large, so pairing the two sorted lists finds one where one exists."""
    rs, ms = sorted(sizes, reverse=True), sorted(mounts, reverse=True)
    return len(rs) <= len(ms) and all(r <= m for r, m in zip(rs, ms))


def radiator_severity(radiators: Sequence[Optional[float]], case, loop: bool = False) -> Optional[Severity]:
    """case.radiators: None when the build has no radiator or the case's mounts hold every one; an
    error when the mounts cannot hold them even with each unstated radiator at the smallest size; a
    warning when the case's mounts are not known, a radiator's size is not, or a card is on a custom
    loop (``loop``: a water-block card, whose loop the build lacks; never an error, a loop's radiator
    may serve several cards)."""
    if not radiators and not loop:
        return None
    mounts = case.radiator_mounts
    if mounts is None:
        return Severity.WARNING
    if radiators and not radiators_fit([r if r is not None else SMALLEST_RADIATOR_MM for r in radiators], mounts):
        return Severity.ERROR
    return Severity.WARNING if loop or any(r is None for r in radiators) else None


def radiator_case_key(case) -> Optional[tuple]:
    """What ``radiator_severity`` reads of a case: its mounts, largest first (None: unknown)."""
    return None if case.radiator_mounts is None else tuple(sorted(case.radiator_mounts, reverse=True))


def memory_type_fits_board(mem_type: str, board) -> bool:
    """compat.memory-type: the board takes memory of ``mem_type``."""
    return mem_type == board.memory_type


def memory_type_fits_cpu(mem_type: str, cpu) -> bool:
    """compat.memory-type: the CPU takes memory of ``mem_type`` (a CPU listing no types takes any)."""
    return not cpu.memory_types or mem_type in cpu.memory_types


def memory_slots_fit(modules: int, board) -> bool:
    """compat.memory-slots: ``modules`` modules fit the board's DIMM slots."""
    return modules <= board.dimm_slots


def memory_size_fits(total_gb: float, part) -> bool:
    """compat.memory-max: ``total_gb`` of memory is within what the board or CPU ``part`` supports."""
    return not (part.max_memory_gb and total_gb > part.max_memory_gb)


def registered_severity(kit, cpu) -> Optional[Severity]:
    """compat.memory-registered: None when the CPU's memory controller takes the kit's kind of module
    (``registered_support``); an error when it does not; a warning when the CPU takes only registered
    modules and the kit is not stated to be registered (its ``registered`` field unverified)."""
    takes = registered_support(cpu)
    if kit.registered and takes == "no":
        return Severity.ERROR
    if not kit.registered and takes == "only":
        return Severity.WARNING if "registered" in kit.unverified else Severity.ERROR
    return None


def memory_fits(kit, board, cpu, count: int = 1) -> bool:
    """``count`` x ``kit`` alone on the board with the CPU meet every compat.memory-* check without an
    error (type, DIMM slots, most memory, registered or unbuffered). Reads of the board and CPU only
    what ``memory_key`` returns."""
    return (memory_type_fits_board(kit.type, board) and memory_type_fits_cpu(kit.type, cpu)
            and memory_slots_fit(kit.modules * count, board) and memory_size_fits(kit.total_gb * count, board)
            and memory_size_fits(kit.total_gb * count, cpu) and registered_severity(kit, cpu) is not Severity.ERROR)


def memory_key(board, cpu) -> tuple:
    """What ``memory_fits`` reads of a board and a CPU: kits that fit one pair with the same key fit
    the other (a cache key for callers asking in bulk)."""
    return (board.memory_type, board.dimm_slots, board.max_memory_gb, tuple(cpu.memory_types), cpu.max_memory_gb,
            registered_support(cpu))


def check_case(ctx: Context) -> Iterator[Finding]:
    case = ctx.case
    if case is None:
        yield from _no_case(ctx)
        return
    for g in ctx.gpus:
        if not card_fits_case(g.gpu, case):
            yield Finding("case.gpu-length", Severity.ERROR,
                              T("{gpu} is {length} long; the {case} takes cards up to {max}.", gpu=gpu_label(g),
                                length=mm(g.gpu.length_mm), case=case.name, max=mm(case.max_gpu_length_mm)),
                              fix=T("Choose a shorter card or a longer case."), limits=CASE_LIMITS,
                              gpus=(g.num,), parts=(g.gpu.id, case.id),
                              figures=(("length_mm", g.gpu.length_mm), ("max_mm", case.max_gpu_length_mm)))
    for g in ctx.board_gpus:
        last = g.covered[-1]
        if last > case.expansion_slots:
            yield Finding("case.expansion-slots", Severity.ERROR,
                          T("{gpu} in position {position} is {width:g} slots wide and reaches "
                            "position {last}; the {case} has {slots} expansion positions.", gpu=gpu_label(g),
                            position=g.position, width=g.gpu.slot_width, last=last, case=case.name,
                            slots=case.expansion_slots),
                          fix=T("Move it to a higher slot, or use a case with {last} or more expansion positions.",
                                last=last),
                          limits=CASE_LIMITS, gpus=(g.num,), positions=(g.position,), parts=(g.gpu.id, case.id))
    board = ctx.board
    if board is not None and case.form_factors:
        if not board_fits_case(board, case):
            yield Finding("case.form-factor", Severity.ERROR,
                          T("The {case} supports {supported}; the {board} is {form_factor}.", case=case.name,
                            supported=", ".join(case.form_factors), board=board.name, form_factor=board.form_factor),
                          fix=T("Choose a case that takes this board's form factor."), limits=CASE_LIMITS,
                          parts=(board.id, case.id))
        if board.expansion_positions > case.expansion_slots:
            yield Finding("case.expansion-slots", Severity.WARNING,
                          T("The {board} spans {positions} expansion positions; the {case} has {slots}.", board=board.name,
                            positions=board.expansion_positions, case=case.name, slots=case.expansion_slots),
                          fix=T("Use a case with more expansion positions."), limits=CASE_LIMITS,
                          parts=(board.id, case.id))
    cooler = ctx.cooler
    if cooler is not None and not cooler_fits_case(cooler, case):
        yield Finding("case.cooler-height", Severity.ERROR,
                      T("The {cooler} is {height} tall; the {case} takes coolers up to {max}.", cooler=cooler.name,
                        height=mm(cooler.height_mm), case=case.name, max=mm(case.max_cpu_cooler_height_mm)),
                      fix=T("Choose a lower cooler or an AIO."), limits=CASE_LIMITS, parts=(cooler.id, case.id))
    yield from _radiators(ctx, case)
    if ctx.psus:
        for p in ctx.psus:
            if not psu_fits_case(p, case):
                yield Finding("case.psu-length", Severity.ERROR,
                              T("The {psu} is {length} long; the {case} takes PSUs up to {max}.", psu=p.name,
                                length=mm(p.length_mm), case=case.name, max=mm(case.max_psu_length_mm)),
                              fix=T("Choose a shorter PSU."), limits=CASE_LIMITS, parts=(p.id, case.id))
    risers = [g for g in ctx.gpus if not g.on_board]
    if len(risers) > case.vertical_gpu_slots and risers and case.open_frame:
        yield Finding("case.riser", Severity.ERROR,
                      nT("{n} card on risers; the {case} holds {mounts} off the board.",
                         "{n} cards on risers; the {case} holds {mounts} off the board.", len(risers),
                         case=case.name, mounts=case.vertical_gpu_slots),
                      fix=T("Put fewer cards on risers, or choose a frame with a position for each."),
                      limits=CASE_LIMITS, gpus=tuple(g.num for g in risers), parts=(case.id,),
                      figures=(("riser_cards", len(risers)), ("positions", case.vertical_gpu_slots)))
    elif len(risers) > case.vertical_gpu_slots and risers:
        yield Finding("case.riser", Severity.INFO,
                      T("{cards} on risers; the {case} has {mounts}.", cards=nT("{n} card", "{n} cards", len(risers)),
                        case=case.name, mounts=nT("{n} vertical mount position", "{n} vertical mount positions",
                                                  case.vertical_gpu_slots)),
                      fix=T("Plan a mount for each riser card (bracket or open frame)."), limits=CASE_LIMITS,
                      gpus=tuple(g.num for g in risers), parts=(case.id,))


def _mm_list(sizes) -> str:
    return ", ".join(mm(r) if r is not None else T("size not stated") for r in sizes)


def _radiators(ctx: Context, case) -> Iterator[Finding]:
    """case.radiators: one radiator per mount, each no larger than its mount (``radiator_severity``); a
    card on a custom loop (a water block) a warning of its own."""
    loops = [g for g in ctx.gpus if on_loop(g.gpu)]
    if loops:
        yield Finding(RADIATORS, Severity.WARNING,
                      nT("{cards} is cooled by a water block: the build has no loop (pump, reservoir, radiator) for "
                         "it, and no mount in the {case} is set aside for the loop's radiator.",
                         "{cards} are cooled by water blocks: the build has no loop (pump, reservoir, radiator) for "
                         "them, and no mount in the {case} is set aside for the loop's radiator.", len(loops),
                         cards=", ".join(gpu_label(g) for g in loops), case=case.name),
                      fix=T("Plan the custom loop and its radiator mounts yourself, or choose an air-cooled or "
                            "AIO card."),
                      limits=CASE_LIMITS, gpus=tuple(g.num for g in loops),
                      parts=tuple(dict.fromkeys([g.gpu.id for g in loops] + [case.id])))
    cards = [g for g in ctx.gpus if card_radiator(g.gpu)]
    cooler = ctx.cooler if cooler_radiator(ctx.cooler) else None
    rads = build_radiators((g.gpu for g in cards), cooler)
    sev = radiator_severity(rads, case)
    if sev is None:
        return
    owners = [gpu_label(g) for g in cards] + ([cooler.name] if cooler is not None else [])
    what = nT("{n} radiator ({sizes}: {owners})", "{n} radiators ({sizes}: {owners})", len(rads),
              sizes=_mm_list(rads), owners=", ".join(owners))
    parts = tuple(dict.fromkeys([g.gpu.id for g in cards] + ([cooler.id] if cooler is not None else []) + [case.id]))
    gpus = tuple(g.num for g in cards)
    figures = (("radiators", len(rads)), ("mounts", len(case.radiator_mounts or ())))
    if case.radiator_mounts is None:
        yield Finding(RADIATORS, sev,
                      T("The build has {what}; the {case}'s radiator mounts are not known.", what=what, case=case.name),
                      fix=T("Check on the case maker's page that it has a mount for each radiator, or choose a case "
                            "whose mounts the catalog lists."),
                      limits=CASE_LIMITS, gpus=gpus, parts=parts, figures=figures)
    elif sev is Severity.ERROR:
        yield Finding(RADIATORS, sev,
                      T("The build has {what}; the {case} has mounts for {mounts}: one radiator per mount, each no "
                        "larger than its mount, does not fit.", what=what, case=case.name,
                        mounts=_mm_list(sorted(case.radiator_mounts, reverse=True)) or T("no radiator")),
                      fix=T("Choose a case with a mount for each radiator, or air-cooled parts (an air-cooled card, "
                            "an air CPU cooler)."),
                      limits=CASE_LIMITS, gpus=gpus, parts=parts, figures=figures)
    else:
        yield Finding(RADIATORS, sev,
                      T("The build has {what}; the size of a radiator is not stated, so whether the {case}'s mounts "
                        "({mounts}) hold it is not known.", what=what, case=case.name,
                        mounts=_mm_list(sorted(case.radiator_mounts, reverse=True))),
                      fix=T("Check the radiator's size on its maker's page against the case's mounts."),
                      limits=CASE_LIMITS, gpus=gpus, parts=parts, figures=figures)


def _no_case(ctx: Context) -> Iterator[Finding]:
    """Without a case: say what goes unchecked, and name cards that hang past the board's edge."""
    if not (ctx.gpus or ctx.board is not None):
        return
    yield Finding("case.missing", Severity.INFO,
                  T("No case chosen: card lengths, expansion positions, cooler height and PSU length are not checked."),
                  fix=T("Choose a case."), limits=CASE_LIMITS)
    board = ctx.board
    if board is None:
        return
    for g in ctx.board_gpus:
        last = g.covered[-1]
        if last > board.expansion_positions:
            yield Finding("case.past-board", Severity.WARNING,
                          T("{gpu} in position {position} is {width:g} slots wide and reaches "
                            "position {last}, past the {board}'s {positions} positions.", gpu=gpu_label(g),
                            position=g.position, width=g.gpu.slot_width, last=last, board=board.name,
                            positions=board.expansion_positions),
                          fix=T("Choose a case with {last} or more expansion positions, or move the card to a "
                                "higher slot.", last=last),
                          limits=CASE_LIMITS, gpus=(g.num,), positions=(g.position,), parts=(g.gpu.id, board.id),
                          figures=(("reaches_position", last), ("board_positions", board.expansion_positions)))


REGISTERED_ONLY_SOCKETS = {"STR5", "LGA4677", "SP5"}
"""DDR5 RDIMM only: Threadripper 7000/9000 and PRO (AMD TRX50/WRX90 platform pages), Xeon W-2400/3400
(Intel ARK: "DDR5 RDIMM"), EPYC 9004."""
REGISTERED_TOO_SOCKETS = {"SP3", "SWRX8", "LGA3647"}
"""Registered or unbuffered: EPYC 7002/7003, Threadripper PRO 3000/5000 (AMD product pages), Xeon
Scalable; and Xeons on LGA2011-3 and LGA2066 (Intel ARK lists RDIMM for the Xeon E5 v3/v4 and W-2200)."""


def registered_support(cpu) -> str:
    """Which modules the CPU's memory controller takes: "only" registered (RDIMM/LRDIMM), "both", or
    "no" (unbuffered only: every desktop CPU, Core X, and the Threadripper 1000-3000 without PRO)."""
    sock = norm_socket(cpu.socket)
    if sock in REGISTERED_ONLY_SOCKETS:
        return "only"
    if sock in REGISTERED_TOO_SOCKETS or (cpu.model.startswith("Xeon") and sock in ("LGA2011-3", "LGA2066")):
        return "both"
    return "no"


def _registered(ctx: Context) -> Iterator[Finding]:
    cpu = ctx.cpu
    if cpu is None:
        return
    for kit, _ in ctx.memory:
        sev = registered_severity(kit, cpu)
        if sev is None:
            continue
        if kit.registered:
            yield Finding("compat.memory-registered", sev,
                          T("The {kit} is registered (RDIMM/LRDIMM) server memory; the {cpu} takes only unbuffered "
                            "modules.", kit=kit.name, cpu=cpu.name),
                          fix=T("Choose unbuffered (UDIMM) memory, or a workstation or server CPU."),
                          limits=COMPAT_LIMITS, parts=(kit.id, cpu.id))
        else:
            yield Finding("compat.memory-registered", sev,
                          T("The {cpu} takes only registered (RDIMM) modules; the {kit} is not stated to be "
                            "registered.", cpu=cpu.name, kit=kit.name) if sev is Severity.WARNING else
                          T("The {cpu} takes only registered (RDIMM) modules; the {kit} is unbuffered.",
                            cpu=cpu.name, kit=kit.name),
                          fix=T("Choose registered (RDIMM) memory."), limits=COMPAT_LIMITS, parts=(kit.id, cpu.id))


def check_compat(ctx: Context) -> Iterator[Finding]:
    board, cpu, cooler = ctx.board, ctx.cpu, ctx.cooler
    if board is not None and cpu is not None and not cpu_fits_board(cpu, board):
        yield Finding("compat.socket", Severity.ERROR,
                      T("The {cpu} is for socket {socket}; the {board} has {board_socket}.", cpu=cpu.name, socket=cpu.socket,
                        board=board.name, board_socket=board.socket),
                      fix=T("Choose a CPU and board with the same socket."), limits=COMPAT_LIMITS,
                      parts=(cpu.id, board.id))
    if cooler is not None and cooler.sockets:
        sock = cpu.socket if cpu is not None else board.socket if board is not None else None
        if sock and not cooler_fits_socket(cooler, sock):
            yield Finding("compat.socket", Severity.ERROR,
                          T("The {cooler} fits {sockets}, not {socket}.", cooler=cooler.name, sockets=", ".join(cooler.sockets),
                            socket=sock),
                          fix=T("Choose a cooler for this socket."), limits=COMPAT_LIMITS,
                          parts=(cooler.id,))
    modules = sum(k.modules * c for k, c in ctx.memory)
    total = sum(k.total_gb * c for k, c in ctx.memory)
    for kit, _ in ctx.memory:
        if board is not None and not memory_type_fits_board(kit.type, board):
            yield Finding("compat.memory-type", Severity.ERROR,
                          T("The {kit} is {type}; the {board} takes {board_type}.", kit=kit.name, type=kit.type, board=board.name,
                            board_type=board.memory_type),
                          fix=T("Choose {type} memory.", type=board.memory_type), limits=COMPAT_LIMITS, parts=(kit.id, board.id))
        elif cpu is not None and not memory_type_fits_cpu(kit.type, cpu):
            yield Finding("compat.memory-type", Severity.ERROR,
                          T("The {kit} is {type}; the {cpu} takes {cpu_types}.", kit=kit.name, type=kit.type, cpu=cpu.name,
                            cpu_types=", ".join(cpu.memory_types)),
                          fix=T("Choose memory the CPU supports."), limits=COMPAT_LIMITS, parts=(kit.id, cpu.id))
    yield from _registered(ctx)
    if board is not None and not memory_slots_fit(modules, board):
        yield Finding("compat.memory-slots", Severity.ERROR,
                      T("{modules} memory modules; the {board} has {slots} DIMM slots.", modules=modules, board=board.name,
                        slots=board.dimm_slots),
                      fix=T("Use fewer, larger modules."), limits=COMPAT_LIMITS, parts=(board.id,),
                      figures=(("modules", modules), ("dimm_slots", board.dimm_slots)))
    for part in (board, cpu):
        if part is not None and not memory_size_fits(total, part):
            yield Finding("compat.memory-max", Severity.ERROR,
                          T("{total:g} GB of memory; the {part} supports up to {max:g} GB.", total=total, part=part.name,
                            max=part.max_memory_gb),
                          fix=T("Use less memory or a platform that supports more."), limits=COMPAT_LIMITS,
                          figures=(("memory_gb", total), ("max_gb", part.max_memory_gb)))


def check_resources(ctx: Context) -> Iterator[Finding]:
    n = len(ctx.gpus)
    cpu = ctx.cpu
    if cpu is not None and n:
        if cpu.cores < n:
            yield Finding("cpu.cores-per-gpu", Severity.WARNING,
                          T("{cores} cores for {n} GPUs: fewer than one core per GPU starves data loading.", cores=cpu.cores, n=n),
                          fix=T("Choose a CPU with at least one core (better 2 cores / 4 threads) per GPU."),
                          limits=T("Data-loading needs vary with the data set and augmentation."), parts=(cpu.id,),
                          figures=(("cores", cpu.cores), ("gpus", n)))
        elif cpu.cores < 2 * n or cpu.threads < 4 * n:
            yield Finding("cpu.cores-per-gpu", Severity.INFO,
                          T("{cores} cores / {threads} threads for {n} GPUs; 2 cores / 4 threads per GPU "
                            "are recommended (Makropoulos 2023), one core per GPU is often enough (Dettmers 2014).",
                            cores=cpu.cores, threads=cpu.threads, n=n),
                          fix=T("Fine for most training; for heavy preprocessing choose more cores."),
                          limits=T("Data-loading needs vary with the data set and augmentation."), parts=(cpu.id,),
                          figures=(("cores", cpu.cores), ("threads", cpu.threads), ("gpus", n)))
    vram = sum(g.gpu.vram_gb for g in ctx.gpus)
    ram = sum(k.total_gb * c for k, c in ctx.memory)
    if vram and ctx.memory:
        if ram < vram:
            yield Finding("memory.vs-vram", Severity.WARNING,
                          T("{ram:g} GB of system memory for {vram:g} GB of total VRAM; at least as much RAM as "
                            "VRAM is recommended (Frank 2019).", ram=ram, vram=vram),
                          fix=T("Plan at least {vram:g} GB, better {double:g} GB of RAM.", vram=vram, double=2 * vram),
                          limits=T("A rule of thumb from build guides; some workloads need less."),
                          figures=(("ram_gb", ram), ("vram_gb", vram)))
        elif ram < 2 * vram:
            yield Finding("memory.vs-vram", Severity.INFO,
                          T("{ram:g} GB of system memory for {vram:g} GB of total VRAM; 1-2x VRAM is the usual aim "
                            "(Makropoulos 2023; Dettmers 2014).", ram=ram, vram=vram),
                          fix=T("{double:g} GB of RAM gives room for large data sets.", double=2 * vram),
                          limits=T("A rule of thumb from build guides; some workloads need less."),
                          figures=(("ram_gb", ram), ("vram_gb", vram)))
