"""riser.*: a card on a riser cable. Its link runs at the lowest PCIe generation of slot, riser and card
and on the fewest lanes of the three (``models.lanes.link_for``); the riser must reach from the board's
slots to the case's or open frame's GPU positions (``Case.riser_min_length_mm``)."""
from __future__ import annotations

from typing import Iterator, Optional

from rigbuilder.domain.build import MOUNT_RISER
from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T
from rigbuilder.models.lanes import Link, batch_transfer_ms
from rigbuilder.rules.context import Context, gpu_label, mm
from rigbuilder.rules.geometry import RECOMMENDED_LANES

LIMITS = T("Uses the riser maker's rated PCIe generation, lanes and cable length; a riser run beyond its rating "
           "may train at a lower generation or fail with link errors. Transfer times are ideal-bandwidth estimates.")


def reaches(case, riser, measured_mm: Optional[float] = None) -> bool:
    """Whether ``riser`` is known to reach from the board's slots to ``case``'s card positions: at least
    the length the frame's source states (``riser_min_length_mm``, the check ``riser.length`` refuses a
    shorter one); where none is stated, at least what the user measured (``measured_mm``, the optimiser's
    ``--riser-length``); with neither, not known, so no riser is (a frame whose positions no source
    places needs the user's measure before a riser is picked for it)."""
    need = case.riser_min_length_mm if case.riser_min_length_mm is not None else measured_mm
    return need is not None and riser.length_mm >= need


def plug_fits(riser, slot) -> bool:
    """Whether the riser's plug goes into the slot: no wider than the slot, or the slot open-ended."""
    return riser.lanes <= slot.physical or slot.open_ended


def _cost(link: Link, was: Link) -> T:
    return T("a batch of 32 ImageNet images takes about {ms:.1f} ms to reach the card against {was_ms:.1f} ms "
             "without it (Tim Dettmers' figures, quoted in Frank 2019)", ms=batch_transfer_ms(link),
             was_ms=batch_transfer_ms(was))


def check_risers(ctx: Context) -> Iterator[Finding]:
    case = ctx.case
    for g in ctx.gpus:
        if g.placement.mount != MOUNT_RISER:
            continue
        riser = g.riser
        if riser is None:
            if g.placement.riser is None:  # (a named riser the catalog lacks is catalog.missing)
                yield Finding("riser.unknown", Severity.INFO,
                              T("{gpu} is on a riser of unknown kind: its link is counted one PCIe generation "
                                "lower (an assumption) and its length is not checked.", gpu=gpu_label(g)),
                              fix=T("Choose the riser part it stands on (the card's menu: Riser)."), limits=LIMITS,
                              gpus=(g.num,), parts=(g.gpu.id,))
            continue
        slot = ctx.board.slot_at(g.position) if ctx.board is not None and g.position is not None else None
        if slot is not None and not plug_fits(riser, slot):
            yield Finding("riser.slot", Severity.ERROR,
                          T("{gpu}'s riser has an x{lanes} plug; {slot} (position {position}) is a closed x{physical} "
                            "slot it does not fit.", gpu=gpu_label(g), lanes=riser.lanes, slot=slot.id,
                            position=slot.position, physical=slot.physical),
                          fix=T("Plug the riser into an x{lanes} or open-ended slot.", lanes=riser.lanes),
                          limits=LIMITS, gpus=(g.num,), positions=(slot.position,), parts=(riser.id,))
        slot_side = ctx.link(g, through_riser=False)
        link = ctx.link(g)
        if slot_side is not None and link is not None and slot_side.width > 0:
            if link.gen < slot_side.gen:
                yield Finding("riser.generation", Severity.WARNING,
                              T("{gpu}'s riser ({riser}) is rated PCIe {rgen}.0; slot and card run Gen{gen}: the link "
                                "drops to x{width} Gen{rgen} ({gbps:.1f} GB/s instead of {was:.1f} GB/s): {cost}.",
                                gpu=gpu_label(g), riser=riser.name, rgen=riser.pcie_gen, gen=slot_side.gen,
                                width=link.width, gbps=link.gbps, was=slot_side.gbps, cost=_cost(link, slot_side)),
                              fix=T("Use a riser rated for PCIe {gen}.0.", gen=slot_side.gen), limits=LIMITS,
                              gpus=(g.num,), positions=(g.position,), parts=(riser.id, g.gpu.id),
                              figures=(("riser_gen", riser.pcie_gen), ("slot_gen", slot_side.gen),
                                       ("gbps", round(link.gbps, 2)), ("without_riser_gbps", round(slot_side.gbps, 2))))
            if link.width < slot_side.width:
                few = riser.lanes < RECOMMENDED_LANES
                yield Finding("riser.lanes", Severity.WARNING if few else Severity.INFO,
                              (T("{gpu}'s riser ({riser}) carries x{lanes}; the slot gives x{width}: the link runs at "
                                 "x{lanes} Gen{gen} ({gbps:.2f} GB/s): {cost}. Narrow risers are built for mining, "
                                 "where a card barely talks to the host; training moves every batch and the "
                                 "gradients over this link.", gpu=gpu_label(g), riser=riser.name, lanes=riser.lanes,
                                 width=slot_side.width, gen=link.gen, gbps=link.gbps, cost=_cost(link, slot_side))
                               if few else
                               T("{gpu}'s riser ({riser}) carries x{lanes}; the slot gives x{width}: the link runs at "
                                 "x{lanes} Gen{gen} ({gbps:.1f} GB/s).", gpu=gpu_label(g), riser=riser.name,
                                 lanes=riser.lanes, width=slot_side.width, gen=link.gen, gbps=link.gbps)),
                              fix=T("Use an x16 riser (ribbon, twinax or a cable kit) for training."), limits=LIMITS,
                              gpus=(g.num,), positions=(g.position,), parts=(riser.id, g.gpu.id),
                              figures=(("riser_lanes", riser.lanes), ("slot_lanes", slot_side.width)))
        if case is None:
            continue
        need = case.riser_min_length_mm
        if need is not None and riser.length_mm < need:
            yield Finding("riser.length", Severity.ERROR,
                          T("{gpu}'s riser is {length} long; the {case} needs at least {need} from the board's "
                            "slots to its GPU positions.", gpu=gpu_label(g), length=mm(riser.length_mm),
                            case=case.name, need=mm(need)),
                          fix=T("Choose a riser of {need} or longer.", need=mm(need)), limits=LIMITS,
                          gpus=(g.num,), parts=(riser.id, case.id),
                          figures=(("riser_mm", riser.length_mm), ("needed_mm", need)))
        elif need is None:
            yield Finding("riser.length", Severity.INFO,
                          T("The {case} states no riser length: measure from the board's slot to the GPU position "
                            "before buying ({gpu}'s riser is {length}).", case=case.name, gpu=gpu_label(g),
                            length=mm(riser.length_mm)),
                          fix=T("Measure the cable run, or choose a case or frame whose maker states it."),
                          limits=LIMITS, gpus=(g.num,), parts=(riser.id, case.id))
