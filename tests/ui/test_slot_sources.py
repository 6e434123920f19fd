"""Issue 16: the details pane and the board drawing say, per slot, which source confirmed it."""
from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QGraphicsSimpleTextItem

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from rigbuilder.ui.boardview import BoardScene
from rigbuilder.ui.catalog_panel import CatalogPanel, part_details_html
from tests.builds import x99_4x3090

SOURCE = "Example Maker, Example Board user manual, 2019"


def _board_with_one_confirmed_slot(index):
    """The seed X99 board with its first slot confirmed by SOURCE and every other slot not."""
    board = index.get(x99_4x3090().motherboard)
    first, *rest = sorted(board.slots, key=lambda s: s.position)
    slots = (dataclasses.replace(first, confirmed_by=SOURCE),
             *(dataclasses.replace(s, confirmed_by=None) for s in rest))
    return dataclasses.replace(board, slots=slots), first.id, [s.id for s in rest]


def test_details_pane_names_the_source_of_each_slot(qtbot, index):
    board, confirmed, unconfirmed = _board_with_one_confirmed_slot(index)
    text = part_details_html(board)
    assert f"confirmed by {SOURCE}" in text
    assert text.count("unconfirmed: no published source") == len(unconfirmed)
    # and the pane shows it
    mine = PartIndex([board, *(p for p in index if p.KIND != "motherboard")], version="t")
    panel = CatalogPanel(mine)
    qtbot.addWidget(panel)
    panel.kind.setCurrentIndex(panel.kind.findData("motherboard"))
    assert panel.select_part(board.id)
    shown = panel.details.toPlainText()
    assert f"confirmed by {SOURCE}" in shown and "unconfirmed" in shown


def test_board_drawing_marks_unconfirmed_slots_and_names_the_source(qapp, index):
    board, confirmed, unconfirmed = _board_with_one_confirmed_slot(index)
    mine = PartIndex([board, *(p for p in index if p.id != board.id)], version="t", prices=index.prices)
    build = x99_4x3090()
    ctx = Context(build, mine)
    scene = BoardScene()
    scene.show_build(build, ctx, run_checks(build, mine, context=ctx))
    by_pos = {s.position: s for s in board.slots}
    for pos, item in scene.slot_items.items():
        slot = by_pos[pos]
        if slot.id == confirmed:
            assert SOURCE in item.toolTip()
            assert item.pen().style().name == "NoPen"
        else:
            assert "Slot unconfirmed" in item.toolTip()
            assert item.pen().style().name == "DashLine"
    labels = {it.text().split()[0]: it.text() for it in scene.items()
              if isinstance(it, QGraphicsSimpleTextItem) and it.text().split()
              and it.text().split()[0] in {s.id for s in board.slots}}
    assert not labels[confirmed].endswith("?")
    assert all(labels[i].endswith("?") for i in unconfirmed)


PROBE = "SMBIOS slot table in 9 probes of the board, Linux Hardware Database DMI collection"


def test_board_drawing_marks_positions_no_source_confirms(qapp, index):
    """Issue 26: a slot confirmed only by a machine's slot table has its position drawn dotted, with a
    tooltip, and the position-dependent findings say so."""
    from PySide6.QtWidgets import QGraphicsRectItem

    board = index.get(x99_4x3090().motherboard)
    first, *rest = sorted(board.slots, key=lambda s: s.position)
    slots = (dataclasses.replace(first, confirmed_by=PROBE),
             *(dataclasses.replace(s, confirmed_by=PROBE, position_source=SOURCE) for s in rest))
    board = dataclasses.replace(board, slots=slots)
    mine = PartIndex([board, *(p for p in index if p.id != board.id)], version="t", prices=index.prices)
    build = x99_4x3090()
    ctx = Context(build, mine)
    scene = BoardScene()
    scene.show_build(build, ctx, run_checks(build, mine, context=ctx))
    dotted = [it for it in scene.items() if isinstance(it, QGraphicsRectItem) and it.pen().style().name == "DotLine"]
    assert len(dotted) == 1 and f"Position {first.position} unconfirmed" in dotted[0].toolTip()
    assert f"Position {rest[0].position} from {SOURCE}" in scene.slot_items[rest[0].position].toolTip()
    labels = [it.text() for it in scene.items() if isinstance(it, QGraphicsSimpleTextItem)]
    assert sum("⇕?" in t for t in labels) == 1
    # two open-air cards packed against the unplaced slot: the finding names the slot
    fe = "gpu-nvidia-rtx-3090-fe"
    gpu = mine.get(fe)
    packed = dataclasses.replace(build, gpus=[type(build.gpus[0])(fe, first.position),
                                              type(build.gpus[0])(fe, first.position + gpu.span)])
    found = [f for f in run_checks(packed, mine, codes=["thermal.open-air-gap", "slot"])]
    assert any(first.id in f.limits and "No published source confirms where" in f.limits for f in found)


def test_the_two_flags_are_drawn_apart(qapp, index):
    """Issue 40: a slot whose row a slot table confirms but whose size no source gives is drawn
    unconfirmed ('?'); its position has its own mark ('⇕?'); the title line names both flags."""
    board = index.get("mb-gigabyte-trx40-designare")
    assert not board.slots_confirmed and not board.positions_confirmed
    build = x99_4x3090()
    build.motherboard, build.cpu, build.gpus = board.id, None, []
    ctx = Context(build, index)
    scene = BoardScene()
    scene.show_build(build, ctx, run_checks(build, index, context=ctx))
    texts = [it.text() for it in scene.items() if isinstance(it, QGraphicsSimpleTextItem)]
    assert any("slot table unconfirmed" in t and "positions unconfirmed" in t for t in texts)
    pcie1 = next(s for s in board.slots if s.id == "PCIE1")  # x8 in the table, no size source
    tip = scene.slot_items[pcie1.position].toolTip()
    assert "physical size unconfirmed" in tip and f"Position {pcie1.position} unconfirmed" in tip
    label = next(t for t in texts if t.startswith("PCIE1 "))
    assert label.endswith("?  ⇕?")
    romed = index.get("mb-asrockrack-romed8-2t")
    assert romed.slots_confirmed and not romed.positions_confirmed
