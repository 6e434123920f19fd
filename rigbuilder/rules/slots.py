"""slot.*: where cards sit on the board and what they cover."""
from __future__ import annotations

from typing import Iterator

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T
from rigbuilder.rules.context import Context, gpu_label
from rigbuilder.rules.geometry import covers, fits_case, fits_slot

LIMITS = T("Uses the card's stated slot width and the board's expansion positions; backplates, "
          "power-cable bends and heatsinks on the board are not modelled.")


def check_slots(ctx: Context) -> Iterator[Finding]:
    board = ctx.board
    if board is None:
        return
    placed = ctx.board_gpus
    for g in placed:
        slot = board.slot_at(g.position)  # type: ignore[arg-type]
        if slot is None:
            yield Finding("slot.none", Severity.ERROR,
                          T("{gpu} is in expansion position {position}, which has no PCIe slot on the {board}.",
                            gpu=gpu_label(g), position=g.position, board=board.name),
                          fix=T("Move it to a slot: {slots}", slots=_slot_list(board.slots)),
                          limits=LIMITS, gpus=(g.num,), positions=(g.position,), parts=(g.gpu.id,))
            continue
        if not fits_slot(g.gpu, slot):
            yield Finding("slot.physical", Severity.ERROR,
                          T("{gpu} is an x{lanes} card; {slot} (position {position}) is a closed x{physical} slot it does not fit.",
                            gpu=gpu_label(g), lanes=g.gpu.pcie_lanes, slot=slot.id, position=slot.position,
                            physical=slot.physical),
                          fix=T("Use an x16 slot, an open-ended slot, or a riser."),
                          limits=LIMITS, gpus=(g.num,), positions=(slot.position,), parts=(g.gpu.id, board.id))
    # Two cards wired to one slot (a riser cable plugged into a slot that holds a card).
    by_pos: dict[int, list] = {}
    for g in ctx.gpus:
        if g.position is not None:
            by_pos.setdefault(g.position, []).append(g)
    for pos, gs in sorted(by_pos.items()):
        if len(gs) > 1 and not all(g.on_board for g in gs):
            yield Finding("slot.double", Severity.ERROR,
                          T("GPUs {nums} are all connected to position {position}; a slot takes one card or one riser cable.",
                            nums=", ".join(str(g.num) for g in gs), position=pos),
                          fix=T("Plug the riser into a free slot."), limits=LIMITS,
                          gpus=tuple(g.num for g in gs), positions=(pos,))
    # Collisions: a card whose body covers the position another card sits in.
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            if covers(a.position, a.gpu, b.position):
                free = _free_slot_for(ctx, b)
                fix = (T("Move GPU {num} to {slot} (position {position}).", num=b.num, slot=free.id,
                         position=free.position) if free
                       else T("Use a thinner card than the {width:g}-slot {model}, or put GPU {num} on a riser.",
                              width=a.gpu.slot_width, model=a.gpu.model, num=b.num))
                yield Finding("slot.overlap", Severity.ERROR,
                              T("{gpu} is {width:g} slots wide and covers positions {first}-{last}; "
                                "GPU {num} sits in position {position}, inside it.", gpu=gpu_label(a),
                                width=a.gpu.slot_width, first=a.covered[0], last=a.covered[-1], num=b.num,
                                position=b.position),
                              fix=fix, limits=LIMITS + ctx.position_note((a.position, b.position)),
                              gpus=(a.num, b.num), positions=(a.position, b.position), parts=(a.gpu.id, b.gpu.id))
    # Empty slots that a card covers: lost for other cards.
    for g in placed:
        lost = [s for s in board.slots if s.position in g.covered[1:] and ctx.build.gpu_at(s.position) is None]
        if lost:
            names = _slot_list(lost)
            yield Finding("slot.blocked", Severity.INFO,
                          T("{gpu} covers {slots}; it cannot hold a card.", gpu=gpu_label(g), slots=names)
                          if len(lost) == 1 else
                          T("{gpu} covers {slots}; they cannot hold a card.", gpu=gpu_label(g), slots=names),
                          fix=_blocked_fix(g.gpu),
                          limits=LIMITS, gpus=(g.num,), positions=tuple(s.position for s in lost),
                          parts=(g.gpu.id,))


def _slot_list(slots) -> T:
    """'PCIEX16_1 (position 1), PCIEX16_2 (position 3)': slot ids stay, the words translate."""
    items = [T("{slot} (position {position})", slot=s.id, position=s.position) for s in slots]
    out = T.join(*(x for i, it in enumerate(items) for x in ((", ", it) if i else (it,)))) if items else T.verbatim("")
    return out


def _blocked_fix(gpu) -> T:
    """A fix that fits the card: a blower body is 2 slots, so only a card wider than that gains from
    one; a 2-slot card (blower or not) frees a slot only as a single-slot water-block card."""
    if gpu.slot_width > 2 and gpu.cooler != "blower":
        return T("A 2-slot blower or a single-slot water-block version of this card covers fewer slots; "
                 "or move it to the last slot or to a riser.")
    return T("Only a single-slot card (with a water block) would free the covered slot; "
             "or move this card to the last slot or to a riser.")


def _free_slot_for(ctx: Context, card):
    """The first empty slot where ``card`` would collide with no other card."""
    board = ctx.board
    others = [g for g in ctx.board_gpus if g is not card]
    for s in sorted(board.slots, key=lambda s: s.position):
        body = set(range(s.position, s.position + card.span))
        if any(body & set(o.covered) or s.position in o.covered for o in others):
            continue
        if ctx.case is not None and not fits_case(s.position, card, ctx.case.expansion_slots):
            continue
        return s
    return None
