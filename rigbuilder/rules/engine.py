"""Run every check on a build. The desktop app and the command line show only what this says."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import N_, T
from rigbuilder.rules.complete import check_complete
from rigbuilder.rules.context import Context
from rigbuilder.rules.cost import check_budget
from rigbuilder.rules.fit import check_case, check_compat, check_resources
from rigbuilder.rules.lanes import check_lanes
from rigbuilder.rules.noise import check_noise
from rigbuilder.rules.power import check_power
from rigbuilder.rules.risers import check_risers
from rigbuilder.rules.slots import check_slots
from rigbuilder.rules.thermal import check_thermal

Check = Callable[[Context], Iterable[Finding]]

RULE_CODES: dict[str, str] = {
    "catalog.missing": N_("The build names a part this catalog lacks."),
    "build.incomplete": N_("No board, CPU, memory, storage, PSU or case, or a card neither in a slot nor on a riser."),
    "slot.none": N_("A card sits in an expansion position with no PCIe slot."),
    "slot.physical": N_("A card in a closed slot shorter than its connector."),
    "slot.overlap": N_("A card's body covers the position another card sits in."),
    "slot.double": N_("A riser cable and another card connected to one slot."),
    "slot.blocked": N_("Empty slots covered by a card (lost for other cards)."),
    "thermal.open-air-gap": N_("Less than one slot (20.32 mm) in front of an open-air card's fans."),
    "thermal.passive": N_("A passive datacenter card outside a server chassis."),
    "thermal.stack": N_("Blower cards side by side: heat and noise."),
    "lanes.width": N_("A GPU linked below x8 (warning x2-x4, error x1 or disabled)."),
    "lanes.generation": N_("A link below the card's PCIe generation."),
    "lanes.budget": N_("Devices need more CPU lanes than the CPU gives."),
    "lanes.m2": N_("More NVMe drives than free M.2 sockets."),
    "lanes.unconnected": N_("A riser card not plugged into a slot."),
    "case.gpu-length": N_("A card longer than the case takes."),
    "case.expansion-slots": N_("A card reaching past the case's last expansion position."),
    "case.form-factor": N_("The case does not take the board's form factor."),
    "case.cooler-height": N_("A CPU cooler taller than the case takes."),
    "case.psu-length": N_("A PSU longer than the case takes."),
    "case.radiators": N_("The case's radiator mounts cannot hold the build's radiators, one per mount (error), or "
                         "are not known, or a radiator's size is not, or a water-block card's loop is not part of "
                         "the build (warning)."),
    "case.riser": N_("Cards on risers need mounts (info); an open frame holds only so many off the board (error)."),
    "riser.unknown": N_("A card on a riser of unknown kind: its link counted a generation lower (an assumption)."),
    "riser.slot": N_("A riser's plug wider than the closed slot it goes into."),
    "riser.generation": N_("A riser rated for a lower PCIe generation than slot and card: the link drops to it."),
    "riser.lanes": N_("A riser with fewer lanes than the slot (warning below x8: mining risers for training)."),
    "riser.length": N_("A riser shorter than the case's or frame's stated minimum (error), or no minimum stated "
                       "(info: measure)."),
    "case.missing": N_("No case chosen: what goes unchecked."),
    "case.past-board": N_("Without a case: a card reaching past the board's last expansion position."),
    "compat.socket": N_("CPU, board and cooler sockets differ."),
    "compat.memory-type": N_("Memory type the board or CPU does not take."),
    "compat.memory-slots": N_("More modules than DIMM slots."),
    "compat.memory-max": N_("More memory than the board or CPU supports."),
    "compat.memory-registered": N_("Registered memory on a CPU that takes only unbuffered modules, or the reverse."),
    "cpu.cores-per-gpu": N_("Fewer than 2 cores / 4 threads per GPU (info), fewer than 1 core (warning)."),
    "memory.vs-vram": N_("System RAM below total VRAM (warning) or below twice VRAM (info)."),
    "psu.capacity": N_("Peak load above the PSU rating (error) or less than 10% headroom (warning)."),
    "psu.missing": N_("GPUs but no PSU."),
    "psu.connectors": N_("Not enough PCIe 8-pin / 12VHPWR sockets for one cable per GPU socket."),
    "psu.transients": N_("A non-ATX 3.x PSU with GPUs known for power spikes."),
    "power.circuit": N_("Wall draw above the circuit's rating (error), above what it carries continuously "
                        "(warning; an error where a code sets it) or near it (info)."),
    "cost.over-budget": N_("The parts cost more than the build's budget (the biggest items named)."),
    "noise.loud": N_("The build is louder at 1 m while training than the room level its settings name (default "
                     "40 dB(A), a room people work in)."),
}

CHECKS: tuple[Check, ...] = (check_complete, check_slots, check_thermal, check_lanes, check_risers, check_case,
                             check_compat, check_resources, check_power, check_budget,
                             check_noise)


def _missing(ctx: Context) -> Iterator[Finding]:
    for pid in ctx.missing:
        yield Finding("catalog.missing", Severity.ERROR,
                      T("The build names part {pid!r}, which is not in this catalog (or is not of the expected kind).", pid=pid),
                      fix=T("Choose a replacement part, or import the user part that defines it."),
                      limits=T("Checks that need this part are skipped."), parts=(pid,))


def run_checks(build: Build, index: PartIndex, codes: Optional[Iterable[str]] = None,
               context: Optional[Context] = None) -> list[Finding]:
    """All findings for ``build``, sorted by severity, code and place. ``codes`` filters by
    rule code or code prefix (``"thermal"`` matches ``thermal.open-air-gap``)."""
    ctx = context or Context(build, index)
    out = list(_missing(ctx))
    for check in CHECKS:
        out.extend(check(ctx))
    if codes is not None:
        wanted = tuple(codes)
        out = [f for f in out if any(f.code == c or f.code.startswith(c.rstrip(".") + ".") for c in wanted)]
    out.sort(key=Finding.sort_key)
    return out


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    c = {s.value: 0 for s in Severity}
    for f in findings:
        c[f.severity.value] += 1
    return c
